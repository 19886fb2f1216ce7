"""``minilm``: an offline Codenames player (spymaster or operative) by word similarity.

Both roles read meanings from all-MiniLM-L6-v2's encodings of single words, shipped with the
app as a table (:mod:`agents.embedding`), so the game plays without a key, a network or the
model itself.

- **Spymaster.** Candidate clues are the table's words (the game's word list and a few
  thousand common English words), minus every word the clue rule forbids now (a visible
  card's word, a form of it, a part of a compound card: :func:`cn.clashes`) and every word
  sharing a stem with a visible card's word (RACING for RACER). For each candidate and n = 1..4 the clue is worth n when its
  n-th closest own agent is close (``MIN_LINK``) and closer (by a margin) than every other
  hidden card, with the assassin kept further away than the rest; the best clue and n win
  (ties to the wider gap). With none, the clue for 1 with the widest gap.
- **Operative.** Guesses the hidden card closest to the clue, as many times as the number
  says (any number after 0 or ``unlimited`` while the card is still close), then ends the
  turn. It reads the board, what is revealed and the clues; never the key. A clue outside
  the table (a person's) is encoded live where the model package is installed, else read as
  one of its forms the table holds (OCEANS: ocean). A clue with no known meaning gets one
  guess: the hidden card closest to the team's earlier clues (an earlier clue's agent may
  still be hidden), or with none known, the first hidden card; then the turn ends.

Deterministic: the same view gives the same move.
"""

from __future__ import annotations

import functools
import time

import numpy as np

from agents.base import Decision, SeatView
from agents.embedding import Lexicon, WordEncoder, forms, lexicon, table
from games.actions import Text
from games.gamebench import codenames as cn
from games.gamebench.codenames_words import WORDS

MARGIN = 0.05
"""How much closer than any other hidden card a clue's agents must be."""
ASSASSIN_MARGIN = 0.10
"""...and how much closer than the assassin."""
MIN_LINK = 0.32
"""How close every agent a clue counts must be to it, as the cosine of the centred vectors of
:class:`agents.embedding.Lexicon` (lion-jaguar 0.48, sea-beach 0.51, lion-pencil -0.02; one
pair of a card and a table word in 300 is this close): weaker links read as noise to a
person."""
MAX_NUMBER = 4
OPEN_GUESS = 0.30
"""After 0 or ``unlimited``, keep guessing while the closest card is at least this close."""


class AssociationAgent:
    """Plays either Codenames role by word similarity (see the module docstring)."""

    def __init__(self, words: Lexicon | WordEncoder | None = None) -> None:
        if isinstance(words, WordEncoder):  # a given encoder reads words outside the table
            given = words
            words = Lexicon(table(), lambda: given)
        self._words: Lexicon | None = words

    @property
    def words(self) -> Lexicon:
        if self._words is None:
            self._words = lexicon()
        return self._words

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        started = time.perf_counter()
        state = view.state
        if not isinstance(state, cn.CodenamesState):
            raise TypeError("minilm plays Codenames only")
        if state.guessing:
            text, why = self._guess(state)
        else:
            text, why = self._clue(state, view.seat)
        return Decision(Text(text=text), raw=text, reasoning=why,
                        seconds=time.perf_counter() - started)

    # --- the spymaster ----------------------------------------------------------------------

    def _clue(self, state: cn.CodenamesState, seat: int) -> tuple[str, str]:
        team = seat // 2
        hidden = [c for c in range(cn.CARDS) if not state.revealed[c]]
        visible = state.visible_words()
        own = [c for c in hidden if state.key[c] == team]
        others = [c for c in hidden if state.key[c] != team]
        every = self.words.words
        kin = _kin(every)
        barred = set().union(*(kin.get(w, ()) for w in visible))
        allowed = [i for i, w in enumerate(every)
                   if i not in barred and not cn.clashes(w, visible)]
        clues = [every[i] for i in allowed]
        vectors = self.words.vectors[allowed]
        board = self.words.encode([WORDS[state.words[c]] for c in hidden])
        sims = vectors @ board.T  # clue x hidden card
        column = {card: i for i, card in enumerate(hidden)}
        mine = np.sort(sims[:, [column[c] for c in own]], axis=1)[:, ::-1]
        danger = np.full(len(clues), -1.0)
        for card in others:
            margin = ASSASSIN_MARGIN if state.key[card] == cn.ASSASSIN else MARGIN
            danger = np.maximum(danger, sims[:, column[card]] + margin)
        best = (0, -np.inf, 0, 1)  # (n, gap, clue index, n)
        for n in range(1, min(MAX_NUMBER, len(own)) + 1):
            gaps = np.where(mine[:, n - 1] >= MIN_LINK, mine[:, n - 1] - danger, -np.inf)
            i = int(np.argmax(gaps))
            if gaps[i] > 0 and (n, gaps[i]) > best[:2]:
                best = (n, float(gaps[i]), i, n)
        if best[0] == 0:  # nothing safe and close: the single closest link, whatever the gap
            gaps = mine[:, 0] - danger
            i = int(np.argmax(gaps))
            best = (1, float(gaps[i]), i, 1)
        _, _, i, n = best
        word = clues[i].upper()
        linked = [WORDS[state.words[own[j]]].upper()
                  for j in np.argsort(-sims[i, [column[c] for c in own]])[:n]]
        nearest = max((float(sims[i, column[c]]) for c in others), default=-1.0)
        return (f"clue: {word} {n}",
                f"{word} links {', '.join(linked)} (closeness {mine[i, n - 1]:.2f}; the "
                f"closest other card {nearest:.2f})")

    # --- the operative ----------------------------------------------------------------------

    def _guess(self, state: cn.CodenamesState) -> tuple[str, str]:
        assert state.clue is not None
        word, action = state.clue
        hidden = [c for c in range(cn.CARDS) if not state.revealed[c]]
        meaning = self.words.meaning(word)
        if meaning is None:
            return self._guess_blind(state, hidden, word)
        board = self.words.encode([WORDS[state.words[c]] for c in hidden])
        sims = board @ meaning.vector
        order = np.argsort(-sims, kind="stable")
        card, closeness = hidden[int(order[0])], float(sims[order[0]])
        number = cn.clue_count(action) or None  # None: 0 or unlimited
        wanted = (state.guesses < number) if number is not None else closeness >= OPEN_GUESS
        if state.guesses and not wanted:
            return "end turn", f"{state.guesses} guessed for {word.upper()}; stopping"
        read = f" (read as {meaning.known.upper()})" if meaning.source == "form" else ""
        return (f"guess {state.word(card)}",
                f"{state.word(card)} is the card closest to {word.upper()}{read} "
                f"({closeness:.2f})")

    def _guess_blind(self, state: cn.CodenamesState, hidden: list[int],
                     word: str) -> tuple[str, str]:
        """A clue whose meaning is unknown: one guess from the team's earlier clues, or the
        first hidden card, then the turn ends."""
        if state.guesses:
            return "end turn", f"{word.upper()} means nothing known here; stopping"
        earlier = [self.words.meaning(text.split()[0]) for seat, kind, text in state.events
                   if kind == "clue" and seat == 2 * state.team]
        known = [m.vector for m in earlier[:-1] if m is not None]
        if not known:
            return (f"guess {state.word(hidden[0])}",
                    f"{word.upper()} means nothing known here; the first hidden card")
        board = self.words.encode([WORDS[state.words[c]] for c in hidden])
        card = hidden[int(np.argmax(board @ np.mean(known, axis=0)))]
        return (f"guess {state.word(card)}",
                f"{word.upper()} means nothing known here; {state.word(card)} is the card "
                "closest to this team's earlier clues")


@functools.cache
def _kin(words: tuple[str, ...]) -> dict[str, frozenset[int]]:
    """For each card word, the table words that are a form of it or share a stem with it
    (WAVING for WAVE, BERRIES for BERRY, RACING for RACER): the rules bar a card's word and
    the words containing it or in it; a fair spymaster bars its other forms too."""
    known = set(words)
    by_stem: dict[str, set[int]] = {}
    for i, word in enumerate(words):
        for stem in {word, *(f for f in forms(word) if f in known)}:
            by_stem.setdefault(stem, set()).add(i)
    return {card: frozenset(i for stem in {card, *(f for f in forms(card) if f in known)}
                            for i in by_stem.get(stem, ()))
            for card in WORDS}


def _candidates(words: object = None) -> tuple[str, ...]:
    """The words that may be clues (kept for ``benchmarks/social.py``)."""
    return table().words
