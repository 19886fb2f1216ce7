"""Games played by talking, on the Play tab: the table-talk panel and the table's setup.

The panel shows every utterance the person's seat heard, in order, with who said it (public
talk for everyone, a private exchange only to its two seats: the game's state decides, the
renderer's ``talk(state, seat)`` reads it), the seats at the table with their teams as the
person may know them, whose turn it is (the speaking seat is highlighted), and the person's
text box with the form their words take now (a Codenames clue, a question...). Words are
played through the same adapter as every move (``PlaySession.play_text``): an illegal
clue, talk out of turn or 20,000 characters gets the adapter's or the session's notice and
changes nothing. Everything here is plain data; the Gradio side
(``sessions.web.tabs.talk``) escapes every word it shows, so what people and models wrote
is never read as Markdown or HTML.

Before the game: the seats a person may take (each named as the game names it: ``Red
spymaster``, ``player 3``), the number of players where the game allows several, and an
agent for every other seat (a language model may sit in any of them).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games import registry
from games.actions import LegalMove
from games.registry import GameSpec
from games.talk import Utterance
from renderers import renderer_for, seat_label, seen_to_move
from sessions.web.players import opponent_label, opponents_for
from sessions.web.seated import Seated

MAX_SEATS = 10
"""The most seats a talking game is set up with on the page."""


def is_talk(game_id: str) -> bool:
    """Whether ``game_id`` is played by talking (its moves may be words)."""
    return registry.get(game_id).grammar.free_text is not None


@dataclass(frozen=True)
class Line:
    """One utterance as the person heard it."""

    speaker: str
    kind: str
    text: str
    yours: bool
    private: bool


@dataclass(frozen=True)
class Seat:
    """A seat at the table: its name, who sits there, the team as the person may know it."""

    name: str
    player: str
    team: str
    you: bool
    speaking: bool


@dataclass(frozen=True)
class TalkScreen:
    """The table-talk panel of one session, from the person's seat."""

    seats: tuple[Seat, ...]
    lines: tuple[Line, ...]
    prompt: str
    """What the person's text box takes now ('' when it is not their turn to speak)."""
    hint: str
    """The form of the game's words (placeholder of the text box)."""

    def to_dict(self) -> dict[str, Any]:
        return {"talk": [{"speaker": line.speaker, "kind": line.kind, "text": line.text,
                          "private": line.private} for line in self.lines],
                "table": [{"seat": s.name, "player": s.player, "team": s.team,
                           "speaking": s.speaking} for s in self.seats],
                "say": self.prompt}


def talk_screen(session: Seated) -> TalkScreen:
    """The panel for the person's seat now."""
    spec, seat, state = session.spec, session.human, session.match.state
    view = renderer_for(spec.id)
    if view.talk is None or view.teams_known is None:
        raise TypeError(f"{spec.id} is not played by talking (its renderer has no talk)")
    heard: list[Utterance] = view.talk(state, seat)
    speaking = set(seen_to_move(spec.id, state, seat, session.match.to_move()))
    known = view.teams_known(state, seat)
    seats = tuple(
        Seat(seat_label(spec.id, s), "you" if s == seat else opponent_label(info.spec),
             known[s] or "", s == seat, s in speaking)
        for s, info in enumerate(session.record.seats))
    lines = tuple(Line(seats[u.speaker].name if u.speaker >= 0 else "table", u.kind,
                       visible(u.text), u.speaker == seat, u.private) for u in heard)
    form = spec.grammar.free_text
    hint = form.hint if form is not None else ""
    legal = session.legal()
    now = forms_now(hint, legal, others=False)  # the other moves have their buttons
    prompt = f"Your turn: {now}" if any(m.says for m in legal) else ""
    return TalkScreen(seats, lines, prompt, now if prompt else hint)


_LIMIT = re.compile(r"\s*\((?:[^()]*; )?at most \d+ characters\)$")


def forms_now(hint: str, legal: Sequence[LegalMove], *, others: bool = True) -> str:
    """What the person may say now, in the form's words: only the parts of the game's hint
    (``ask player <N>: <question> | answer: <words> | say: <statement>``) whose verb a legal
    move has (asked a question, a Traitor seat may only answer), with the length limit; a
    statement may be plain words. With ``others``, moves without words that are legal too
    follow (``pass``, ``stop: accuse player 3``) when there are a few."""
    limit = _LIMIT.search(hint)
    forms = hint[: limit.start()] if limit else hint
    verbs = {_verb(m.label) for m in legal if m.says}
    parts = [part.strip() for part in forms.split(" | ")]
    kept = [part for part in parts if _verb(part) in verbs] if len(parts) > 1 else parts
    plain_verb = _plain_verb(legal)
    kept = [f"{part} (or just your words)" if _verb(part) == plain_verb else part
            for part in kept or parts]
    said = " | ".join(kept) + (limit.group(0) if limit else "")
    plain = [m.label for m in legal if not m.says] if others else []
    if plain and len(plain) <= _LISTED_PLAIN:
        said += "; or " + ", ".join(plain)
    elif plain:
        said += f"; or one of the {len(plain)} moves on the buttons"
    return said


_LISTED_PLAIN = 6


def _verb(text: str) -> str:
    return text.split(":")[0].split(" ")[0].strip().lower()


PLAIN_VERBS = ("say", "answer")
"""Talk moves that take words only (no addressee): plain words are one of them."""


def _plain_verb(legal: Sequence[LegalMove]) -> str:
    """The verb plain words take now: a statement where one is legal, else an answer when
    the person must answer; '' otherwise."""
    verbs = {_verb(m.label) for m in legal if m.says}
    return next((verb for verb in PLAIN_VERBS if verb in verbs), "")


def visible(text: str) -> str:
    """``text`` without the characters that show nothing or change how the rest shows:
    controls (NUL...; tabs and line breaks stay), zero-width and direction-override
    characters (Unicode's format category: a right-to-left override turns the words after
    it around on screen). What the characters around them say is kept."""
    return "".join(ch for ch in text if ch in "\t\n\r" or unicodedata.category(ch)
                   not in ("Cc", "Cf"))


def one_line(text: str) -> str:
    """A person's typed words as one line: :func:`visible`, and line breaks as spaces. The
    adapter reads a typed text line by line (like a model's answer, whose last move line
    counts), so words after a break were dropped without a word; now every word is kept."""
    return " ".join(visible(text).split())


def as_statement(session: Seated, text: str) -> str:
    """The person's typed ``text`` as the game reads it (on :func:`one_line`): plain words
    (no verb of the game's form, no move's name) are a statement (``say: <words>``) wherever
    a statement is legal, an answer when the person must answer; anything else unchanged.
    Language models' answers are not read this way (their prose around a move is not a
    statement)."""
    text = one_line(text)
    words = text.strip()
    legal = session.legal()
    verb = _plain_verb(legal)
    if not words or not verb:
        return text
    spec = session.spec
    form = spec.grammar.free_text
    first = _verb(words)
    verbs = {_verb(m.label) for m in legal} | {_verb(p) for p in
                                               (form.hint if form else "").split(" | ")}
    if first in verbs or spec.grammar.key_of(words) is not None:
        return text  # written as a move (perhaps a wrong one: the adapter says so)
    return f"{verb}: {words}"


# --- before the game: who sits where -------------------------------------------------------


@dataclass(frozen=True)
class TalkSetup:
    """The choices for a new table of ``players`` seats with the person in ``seat``."""

    seat_choices: list[tuple[str, str]]
    others: list[str]
    agents: list[tuple[str, str]]
    defaults: list[str]
    players: int
    counts: tuple[int, int]
    """The fewest and most seats the game allows (equal when fixed)."""


def player_range(spec: GameSpec) -> tuple[int, int]:
    """The seat counts a talking game allows (its ``num_players`` range, else fixed)."""
    game = spec.load()
    kind = game.get_type()
    if "num_players" in spec.default_params:
        return max(kind.min_num_players, 2), min(kind.max_num_players, MAX_SEATS)
    return game.num_players(), game.num_players()


def talk_setup(game_id: str, players: int | None, seat: int | None) -> TalkSetup:
    """Seat and agent choices (``seat`` None: not chosen yet). Agents that fit the game, the
    offline word agent first where it plays, then random; language models may sit anywhere."""
    spec = registry.get(game_id)
    low, high = player_range(spec)
    count = max(low, min(high, players or spec.load().num_players()))
    offered = [(o.label, o.spec) for o in opponents_for(spec)]
    classic = [value for _, value in offered if "/" not in value]
    seat_choices = [(seat_label(game_id, s), str(s)) for s in range(count)]
    others = ([seat_label(game_id, s) for s in range(count) if s != seat] if seat is not None
              else [f"agent {i + 1}" for i in range(count - 1)])
    defaults = [classic[0] if classic else "random"] * (count - 1)
    return TalkSetup([*seat_choices, ("random", "random")], others, offered, defaults,
                     count, (low, high))
