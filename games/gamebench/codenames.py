"""Codenames (four seats: a spymaster and an operative on each of two teams) as an OpenSpiel
Python game.

The official game: 25 cards drawn from the word list (400 words, as the original), a key
that gives the starting team 9 agents, the other team 8, 7 innocent bystanders and the
assassin; the starting team is drawn too. Seats: 0 red spymaster, 1 red operative, 2 blue
spymaster, 3 blue operative. A turn: the team's spymaster gives a clue — one word and a
number (0 up to the cards still hidden, or ``unlimited``) — and the operative guesses cards one at a time: at least one,
at most the number plus one (any number after 0 or ``unlimited``), and may end the turn
after the first. A guess of the team's own agent goes on; a bystander or the other team's
agent ends the turn; the assassin loses the game at once. A team wins when all its agents
are revealed (by either team).

A clue is a move that is words (:mod:`games.talk`): action :func:`clue_action` (n) says the
number (``UNLIMITED`` for unlimited) and carries the clue word, which the adapter checks
through this module's :data:`FREE_TEXT`: one word of letters that no visible (unrevealed)
card bars — its word, a form of it, a part of a compound card
(:mod:`games.gamebench.codenames_clues`). Everyone hears every clue. Chance draws
the 25 words (one chance node per card), the starting team, then the key (a role per card).
"""

from __future__ import annotations

import re
from typing import Any

import pyspiel

from games import talk
from games.gamebench.codenames_clues import clash
from games.gamebench.codenames_words import WORDS
from games.grammar import WORD_END, WORD_START, FreeText, MoveGrammar
from games.registry import GameSpec, Taxonomy, Visibility, register

CARDS = 25
TEAMS = ("red", "blue")
RED, BLUE, BYSTANDER, ASSASSIN = range(4)
ROLE_NAMES = ("red agent", "blue agent", "innocent bystander", "assassin")
SEAT_NAMES = ("Red spymaster", "Red operative", "Blue spymaster", "Blue operative")
END_TURN = CARDS
CLUE = CARDS + 1
"""``CLUE + n`` gives a clue for n (0-9); see :func:`clue_action`."""
UNLIMITED = CLUE + 10
"""A clue for unlimited."""
MAX_NUMBER = CARDS
NUM_ACTIONS = UNLIMITED + 1 + MAX_NUMBER - 9
"""Clues for 10-25 follow UNLIMITED (kept at its first id, so older records replay)."""
MAX_CLUE_CHARS = 30
CANNED = ("zephyr", "quasar", "sonnet", "mosaic", "riddle", "origami", "yodel", "kazoo")
"""Canned clue words (for moves applied without words): none is or holds a list word."""

_GAME_TYPE = pyspiel.GameType(
    short_name="python_codenames",
    long_name="Python Codenames (four seats)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification={},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=NUM_ACTIONS,
    max_chance_outcomes=len(WORDS),
    num_players=4,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=2 * CARDS + 1 + 3 * CARDS,
)


def clue_action(number: int) -> int:
    """The action of a clue for ``number`` (0-25)."""
    return CLUE + number if number < 10 else UNLIMITED + number - 9


def clue_count(action: int) -> int | None:
    """The number a clue action says (None: unlimited)."""
    if action == UNLIMITED:
        return None
    return action - CLUE if action < UNLIMITED else action - UNLIMITED + 9


def clue_number(action: int) -> str:
    count = clue_count(action)
    return "unlimited" if count is None else str(count)


class CodenamesGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})

    def new_initial_state(self) -> CodenamesState:
        return CodenamesState(self)


class CodenamesState(pyspiel.State):
    """The board, the key, what is revealed, the clues and guesses so far."""

    def __init__(self, game: CodenamesGame) -> None:
        super().__init__(game)
        self.words: list[int] = []
        """Word-list indices of the 25 cards, in board order (row by row)."""
        self.first: int | None = None
        self.key: list[int] = []
        """The role of each card (``RED`` ... ``ASSASSIN``): the spymasters' key card."""
        self.revealed = [False] * CARDS
        self.team = 0
        self.guessing = False
        self.clue: tuple[str, int] | None = None
        """The clue of the turn in play: (word, action) with its number in the action."""
        self.guesses = 0
        self.events: list[tuple[int, str, str]] = []
        """What every seat saw happen, in order: (seat, kind, text) with kind ``clue``,
        ``guess`` or ``end turn``."""
        self.winner: int | None = None
        self.assassin_hit = False
        self._words: str | None = None

    # --- reading --------------------------------------------------------------------------

    def word(self, card: int) -> str:
        return WORDS[self.words[card]].upper()

    def visible_words(self) -> list[str]:
        """The words of the cards not yet revealed (lower case)."""
        return [WORDS[self.words[c]] for c in range(len(self.words)) if not self.revealed[c]]

    def left(self, team: int) -> int:
        """How many of ``team``'s agents are still hidden."""
        return sum(1 for c, role in enumerate(self.key) if role == team and not self.revealed[c])

    def guess_limit(self) -> int | None:
        """How many guesses this clue allows (None: any number)."""
        count = None if self.clue is None else clue_count(self.clue[1])
        return None if not count else count + 1

    @property
    def talk(self) -> list[talk.Utterance]:
        """The clues given so far (everyone hears them)."""
        return [talk.Utterance(seat, text, "clue") for seat, kind, text in self.events
                if kind == "clue"]

    # --- words ----------------------------------------------------------------------------

    def set_words(self, text: str) -> None:
        self._words = text

    def default_words(self, action: int) -> str | None:
        if action < CLUE:
            return None
        visible = self.visible_words()
        return next(w for w in CANNED if not clash(w, visible)).upper()

    # --- OpenSpiel hooks ------------------------------------------------------------------

    def current_player(self) -> int:
        if self.winner is not None:
            return pyspiel.PlayerId.TERMINAL
        if len(self.key) < CARDS:
            return pyspiel.PlayerId.CHANCE
        return 2 * self.team + (1 if self.guessing else 0)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if len(self.words) < CARDS:
            free = [w for w in range(len(WORDS)) if w not in self.words]
            return [(w, 1.0 / len(free)) for w in free]
        if self.first is None:
            return [(0, 0.5), (1, 0.5)]
        counts = self._roles_left()
        total = sum(counts)
        return [(role, n / total) for role, n in enumerate(counts) if n]

    def _roles_left(self) -> list[int]:
        assert self.first is not None
        counts = [8, 8, 7, 1]
        counts[self.first] = 9
        for role in self.key:
            counts[role] -= 1
        return counts

    def _legal_actions(self, player: int) -> list[int]:
        if self.winner is not None or player != self.current_player():
            return []
        if not self.guessing:  # a number up to the cards still hidden, or unlimited
            hidden = self.revealed.count(False)
            return sorted([clue_action(n) for n in range(hidden + 1)] + [UNLIMITED])
        cards = [c for c in range(CARDS) if not self.revealed[c]]
        return cards + ([END_TURN] if self.guesses else [])

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self._deal(action)
        elif not self.guessing:
            word = self._words if self._words is not None else self.default_words(action)
            assert word is not None
            self.clue = (word.lower(), action)
            self.events.append((2 * self.team, "clue", f"{word.upper()} {clue_number(action)}"))
            self.guessing, self.guesses = True, 0
        elif action == END_TURN:
            self.events.append((2 * self.team + 1, "end turn", "ends the turn"))
            self._next_team()
        else:
            self._guess(action)
        self._words = None

    def _deal(self, action: int) -> None:
        if len(self.words) < CARDS:
            self.words.append(action)
        elif self.first is None:
            self.first = self.team = action
        else:
            self.key.append(action)

    def _guess(self, card: int) -> None:
        role = self.key[card]
        self.revealed[card] = True
        self.guesses += 1
        self.events.append((2 * self.team + 1, "guess", f"{self.word(card)}: {ROLE_NAMES[role]}"))
        if role == ASSASSIN:
            self.winner, self.assassin_hit = 1 - self.team, True
        elif role in (RED, BLUE) and self.left(role) == 0:
            self.winner = role
        elif role != self.team:
            self._next_team()
        elif self.guess_limit() is not None and self.guesses >= (self.guess_limit() or 0):
            self._next_team()

    def _next_team(self) -> None:
        self.team, self.guessing, self.clue, self.guesses = 1 - self.team, False, None, 0

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if len(self.words) < CARDS:
                return f"card {len(self.words) + 1}: {WORDS[action].upper()}"
            if self.first is None:
                return f"{TEAMS[action]} starts"
            return f"key: card {len(self.key) + 1} is the {ROLE_NAMES[action]}"
        if action == END_TURN:
            return "end turn"
        if action >= CLUE:
            word = self.default_words(action)
            return f"clue: {(word or '').upper()} {clue_number(action)}"
        return f"guess {self.word(action)}"

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0] * 4
        return [1.0 if seat // 2 == self.winner else -1.0 for seat in range(4)]

    def __str__(self) -> str:
        cards = [f"{self.word(c)}:{ROLE_NAMES[self.key[c]] if c < len(self.key) else '?'}"
                 f"{'*' if self.revealed[c] else ''}" for c in range(len(self.words))]
        said = "; ".join(f"{s}:{text}" for s, _, text in self.events)
        return f"{' '.join(cards)}\nteam {self.team} guessing={self.guessing}\n{said}"


pyspiel.register_game(_GAME_TYPE, CodenamesGame)


# --- the clue check -----------------------------------------------------------------------------


def clashes(word: str, visible: list[str]) -> str | None:
    """Why the visible cards bar ``word`` as a clue ('WAVES is a form of WAVE, a card on the
    board'); None when it is free (:mod:`games.gamebench.codenames_clues`)."""
    return clash(word, visible)


CLUE_RULE = ("until a card is revealed, a clue may not be its word, a form of it (WAVE: waves, "
             "waving) or a part of a compound card (COWBOY: cow, boy, boyhood); a word that only "
             "holds a card's letters is fine (THINK beside INK)")


_CLUE_FORM = re.compile(
    r"^(?:clue\s*[:=\-]?\s*)?(?P<word>.*?)[\s,:;=\-]+(?P<number>\S+)$", re.IGNORECASE)
_NUMBERS = {"unlimited": UNLIMITED, "infinity": UNLIMITED, "∞": UNLIMITED,
            **{str(n): clue_action(n) for n in range(MAX_NUMBER + 1)}}
CLUE_HINT = ("clue: <one word> <a number from 0 up to the cards still hidden, or unlimited>, "
             "e.g. clue: OCEAN 2")


def read_clue(state: pyspiel.State, player: int, text: str) -> tuple[int, str] | None:
    """A clue written as ``clue: WORD N`` (``clue`` may be left out when the number is
    there); None when ``text`` is not written as a clue. Breaking the rules for clues raises
    WordsError with what is allowed."""
    if "\n" in text.strip() or len(re.findall(r"\bclue\b", text, re.IGNORECASE)) > 1:
        return None  # an answer with reasoning, or naming several clues: read line by line
    said = " ".join(text.split())
    starts = said.lower().startswith("clue")
    found = _CLUE_FORM.match(said)
    if found is None:
        if starts:
            raise talk.WordsError("a clue is one word and a number", "unparseable")
        return None
    word, number = found["word"].strip(" \"'`*"), found["number"].lower()
    if not starts and (number not in _NUMBERS or len(word.split()) > 2):
        return None  # not written as a clue
    if number not in _NUMBERS and word.lower() in ("", "clue"):
        raise talk.WordsError("a clue is one word and a number", "unparseable")
    hidden = state.revealed.count(False) if isinstance(state, CodenamesState) else MAX_NUMBER
    if number.isdigit() and int(number) > hidden:
        raise talk.WordsError(f"{number[:20]} is more than the {hidden} cards still hidden; the "
                              f"number is 0 to {hidden}, or unlimited")
    if number not in _NUMBERS:
        raise talk.WordsError(f"{number[:20]!r} is not a number (0 to {hidden}) or unlimited")
    if not word:
        raise talk.WordsError("the clue has no word", "unparseable")
    if len(word) > MAX_CLUE_CHARS:
        raise talk.WordsError(f"a clue word has at most {MAX_CLUE_CHARS} letters", "too_long")
    if not re.fullmatch(r"[A-Za-z]+", word):
        raise talk.WordsError(f"{word[:40]!r} is not one word of letters (A-Z, no spaces, "
                              "digits or signs)")
    visible = state.visible_words() if isinstance(state, CodenamesState) else []
    why = clash(word, visible)
    if why is not None:
        raise talk.WordsError(f"{why}: {CLUE_RULE}")
    return _NUMBERS[number], word.upper()


def write_clue(state: pyspiel.State, player: int, action: int, words: str) -> str:
    return f"clue: {words.upper()} {clue_number(action)}"


# --- Codenames' grammar: "guess OCEAN", "end turn", "clue: WAVE 2" -------------------------------

def _label(state: pyspiel.State, player: int, action: int) -> str:
    return state.action_to_string(player, action)


_MOVE = re.compile(
    rf"{WORD_START}(?:guess\s+(?P<card>[a-z]+)|(?P<end>end\s*(?:the\s+)?turn)"
    rf"|clue\s*:?\s*(?P<clue>[a-z]+)\s+(?P<number>\d{{1,2}}|unlimited)){WORD_END}",
    re.IGNORECASE)


def _key(match: re.Match[str]) -> str:
    if match["end"]:
        return "end turn"
    if match["card"]:
        return f"guess {match['card'].lower()}"
    return f"clue {match['number'].lower().lstrip('0') or '0'}"


def _aliases(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    return (state.word(action),) if action < CARDS else ()


def _path(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    """A card is clicked by its word; end turn and clues are buttons and forms."""
    return (state.word(action),) if action < CARDS else (_label(state, player, action),)


def _summary(actions: list[int], labels: list[str]) -> str:
    if any(a >= CLUE for a in actions):
        return CLUE_HINT
    parts = [label for a, label in zip(actions, labels, strict=True) if a < CARDS]
    return ", ".join(parts) + (", or end turn" if END_TURN in actions else "")


def _teams(state: pyspiel.State) -> list[str | None]:
    return [TEAMS[seat // 2] for seat in range(4)]


FREE_TEXT = FreeText(read=read_clue, write=write_clue, hint=CLUE_HINT)

CODENAMES = GameSpec(
    id="codenames",
    title="Codenames",
    summary="Spymasters give one-word clues; operatives find their team's agents and avoid "
            "the assassin.",
    openspiel="python_codenames",
    taxonomy=Taxonomy("incomplete", "probabilistic", "sequential", 4),
    param_notes=(
        "The official 25-card board (9/8/7/1) from a 400-word list; clues are checked as the "
        "official rule says (one word; not a visible card's word, a form of it or part of a "
        "compound card); GameBench used 21 cards and no clue check."
    ),
    benchmark="GameBench",
    board="grid",
    visibility=Visibility(moves=True, chance=False),
    public_seat=1,  # an operative sees the words, the clues and the cards turned: no key
    teams=_teams,
    grammar=MoveGrammar(
        label=_label,
        pattern=_MOVE,
        key=_key,
        aliases=_aliases,
        click_path=_path,
        summary=_summary,
        free_text=FREE_TEXT,
        hint=("operatives: guess <card word> (e.g. guess OCEAN) or end turn; spymasters: "
              + CLUE_HINT),
    ),
)


register(CODENAMES)

