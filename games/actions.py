"""The legal-action adapter: the one gate between any proposal and an OpenSpiel action id.

Human clicks, typed text, LLM answers and classic agents' action ids all come through
:func:`resolve`, which returns exactly one legal move or raises a :class:`MoveError`
subclass naming the input, what was wrong, what is legal and the expected format. It checks
membership in ``state.legal_actions(player)`` itself, since OpenSpiel accepts some illegal
ids silently. Nothing here changes the state: a rejected proposal changes nothing.

Free text is read the way people write: case and spacing do not matter, a move may be
wrapped in ``<tags>``, markdown or JSON, and a ``Final answer:`` line (or the last line that
names a move) decides. It never guesses: an answer that names no move, or two different
moves, is rejected.

**Moves that are words** (a Codenames clue, a question, an answer, a statement: games whose
grammar has a :class:`games.grammar.FreeText`). OpenSpiel actions are integers, so such a
move is an action id that says what kind of utterance it is (a clue for 2, a question to
seat 3) plus the words, which travel beside it (:mod:`games.talk`):

- the legal moves list each word-carrying action once, with the game's canned words
  (``LegalMove.text``; its label is the move written with them), so agents that pick action
  ids (random, MCTS) and OpenSpiel's own checks play legal utterances;
- typed text or an LLM answer written in the game's form (``clue: ocean 2``) resolves to the
  same action id with *those* words (a new ``LegalMove`` with ``text`` set), after the
  game's check of the words (length, one word, not a board word nor part of one...); words
  that break the form are rejected with the reason and what is allowed, never repaired;
- the match applies the action with its words (``games.talk.apply``) and the record keeps
  them (``MoveRecord.text``), so a replay feeds them back and reaches the same final state;
- what each seat heard is the game's rule, read from the state by the seat's view: public
  talk for everyone, a private exchange for its two seats only.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Literal

import pyspiel

from games import talk
from games.grammar import SummaryFn, squash
from games.registry import GameSpec

MAX_TYPED_CHARS = 200
"""The most characters a person's typed move may have (a move is a few words)."""
MAX_TYPED_TALK_CHARS = MAX_TYPED_CHARS + talk.MAX_WORDS_CHARS
"""The typed-text limit of games played by talking (a question with its addressee)."""
MAX_LLM_CHARS = 16_000
_SHOWN_CHARS = 80
_LISTED_MOVES = 150


@dataclass(frozen=True)
class LegalMove:
    """A legal action with its canonical label, its parse key and its click path.

    ``text``: the words the move carries (games played by talking), None for other moves.
    In the legal-move list these are the game's canned words; a move resolved from what a
    seat wrote carries that seat's words."""

    action: int
    label: str
    key: str
    path: tuple[str, ...]
    text: str | None = None

    @property
    def says(self) -> bool:
        """Whether this move carries words."""
        return self.text is not None


# --- proposals -------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Proposal:
    """Something a seat proposes to play. ``message`` carries table talk alongside a move
    (social-deduction games); it is recorded but never changes which action is chosen."""

    message: str = ""


@dataclass(frozen=True, kw_only=True)
class ActionId(Proposal):
    """An OpenSpiel action id, as chosen by a classic agent or a move button."""

    action: int


@dataclass(frozen=True, kw_only=True)
class Text(Proposal):
    """Text naming a move: a label, something a person typed, or an LLM's whole answer."""

    text: str
    source: Literal["typed", "llm"] = "typed"


@dataclass(frozen=True, kw_only=True)
class Click(Proposal):
    """The targets clicked so far, in order (one cell; or a piece, then its destination)."""

    path: tuple[str, ...]


# --- rejections ------------------------------------------------------------------------

Reason = Literal["empty", "too_long", "unparseable", "illegal", "ambiguous", "incomplete"]


class MoveError(ValueError):
    """A rejected proposal. ``reason`` names the cause; the message says what is allowed."""

    reason: Reason = "unparseable"

    def __init__(self, problem: str, *, shown: str, legal: list[LegalMove], hint: str,
                 summary: SummaryFn | None = None) -> None:
        self.problem = problem
        self.shown = shown
        self.legal_labels = [move.label for move in legal]
        self.hint = hint
        self.summary = ""
        """The game's own short account of the legal moves ("a whole number from 0 to 100,
        e.g. choose 50"), '' where the game has none."""
        if summary is not None and legal:
            listed = self.summary = summary([move.action for move in legal], self.legal_labels)
        else:
            listed = ", ".join(self.legal_labels[:_LISTED_MOVES])
            if len(self.legal_labels) > _LISTED_MOVES:
                listed += f", … ({len(self.legal_labels) - _LISTED_MOVES} more)"
        super().__init__(
            f"{problem} (input: {shown}). Legal moves: {listed or 'none'}. Expected format: {hint}."
        )


class UnparseableMove(MoveError):
    reason: Reason = "unparseable"


class IllegalMove(MoveError):
    reason: Reason = "illegal"


class AmbiguousMove(MoveError):
    reason: Reason = "ambiguous"


class NeedsMore(MoveError):
    """A click path that starts a legal move but does not finish one yet.

    ``options`` are the targets that may come next (to highlight them)."""

    reason: Reason = "incomplete"

    def __init__(self, path: tuple[str, ...], options: list[str], **kwargs: object) -> None:
        self.path = path
        self.options = options
        super().__init__(
            f"{' then '.join(path)} selected; choose one of: {', '.join(options)}",
            **kwargs,  # type: ignore[arg-type]
        )


class EmptyMove(UnparseableMove):
    reason: Reason = "empty"


class TooLongMove(UnparseableMove):
    reason: Reason = "too_long"


# --- the adapter -----------------------------------------------------------------------


def legal_moves(spec: GameSpec, state: pyspiel.State, player: int) -> list[LegalMove]:
    """The legal moves of ``player`` with their labels, in action-id order."""
    return list(_table(spec, state, player).moves)


class _LegalTable:
    """One seat's legal moves at one state, indexed by key and (lazily) by alias.

    Games with wide numeric ranges (bids 0-200) have hundreds of legal moves; resolving each
    answer against a fresh list would relabel them all every time.
    """

    def __init__(self, spec: GameSpec, state: pyspiel.State, player: int) -> None:
        grammar = spec.grammar
        speaking = isinstance(state, talk.Speaking)
        moves = []
        for action in state.legal_actions(player):
            label = grammar.label(state, player, action)
            key = grammar.key_of(label)
            if key is None:
                raise RuntimeError(f"{spec.id}: label {label!r} does not parse with its own grammar")
            words = state.default_words(action) if speaking else None
            moves.append(LegalMove(action, label, key, grammar.path(state, player, action),
                                   words))
        self.moves = tuple(moves)
        self.by_key = {move.key: move for move in moves}
        self._aliases: dict[str, LegalMove] | None = None

    def aliases(self, spec: GameSpec, state: pyspiel.State, player: int) -> dict[str, LegalMove]:
        if self._aliases is None:
            found: dict[str, LegalMove] = {}
            aliases = spec.grammar.aliases
            if aliases is not None:
                for move in self.moves:
                    for alias in aliases(state, player, move.action):
                        found.setdefault(squash(alias), move)
            self._aliases = found
        return self._aliases


_TABLES: OrderedDict[tuple[str, int, str, str, str, int], _LegalTable] = OrderedDict()
_TABLES_LOCK = threading.Lock()
_TABLES_KEPT = 64


def _table(spec: GameSpec, state: pyspiel.State, player: int) -> _LegalTable:
    """The legal-move table, cached by game object (and its parameters), history, the
    state's own string and seat. Game and history determine an OpenSpiel state, except for
    positions built by hand (tests, puzzles), which the state string tells apart."""
    game = state.get_game()
    key = (spec.id, id(game), str(game), state.history_str(), str(state), player)
    with _TABLES_LOCK:
        table = _TABLES.get(key)
        if table is not None:
            _TABLES.move_to_end(key)
            return table
    table = _LegalTable(spec, state, player)
    with _TABLES_LOCK:
        _TABLES[key] = table
        while len(_TABLES) > _TABLES_KEPT:
            _TABLES.popitem(last=False)
    return table


def resolve(spec: GameSpec, state: pyspiel.State, player: int, proposal: Proposal) -> LegalMove:
    """The one legal move ``proposal`` names for ``player``, or a :class:`MoveError`."""
    legal = list(_table(spec, state, player).moves)
    if isinstance(proposal, ActionId):
        return _resolve_id(spec, legal, proposal.action)
    if isinstance(proposal, Click):
        return _resolve_click(spec, legal, proposal.path)
    if isinstance(proposal, Text):
        return _resolve_text(spec, state, player, legal, proposal.text, proposal.source)
    raise TypeError(f"not a proposal: {proposal!r}")


def _reject(cls: type[MoveError], spec: GameSpec, legal: list[LegalMove], problem: str,
            raw: str) -> MoveError:
    return cls(problem, shown=_shown(raw), legal=legal, hint=spec.grammar.hint,
               summary=spec.grammar.summary)


def _shown(raw: str) -> str:
    flat = " ".join(raw.split())
    if len(flat) > _SHOWN_CHARS:
        flat = f"{flat[:_SHOWN_CHARS]}… ({len(raw)} characters)"
    return repr(flat)


def _resolve_id(spec: GameSpec, legal: list[LegalMove], action: int) -> LegalMove:
    for move in legal:
        if move.action == action:
            return move
    raise _reject(IllegalMove, spec, legal, f"action id {action} is not legal now", str(action))


def _resolve_click(spec: GameSpec, legal: list[LegalMove], path: tuple[str, ...]) -> LegalMove:
    raw = " then ".join(path)
    if not path:
        raise _reject(EmptyMove, spec, legal, "nothing was clicked", raw)
    done = [move for move in legal if move.path == path]
    if len(done) == 1:
        return done[0]
    if len(done) > 1:  # a game whose paths are not unique: a bug in its grammar
        raise _reject(AmbiguousMove, spec, legal, f"{raw} completes several moves", raw)
    n = len(path)
    started = [move for move in legal if move.path[:n] == path and len(move.path) > n]
    if started:
        options = list(dict.fromkeys(move.path[n] for move in started))
        raise NeedsMore(path, options, shown=_shown(raw), legal=started, hint=spec.grammar.hint,
                        summary=spec.grammar.summary)
    starts = sorted({move.path[0] for move in legal})
    problem = (
        f"{path[-1]} is not a legal target"
        if n == 1
        else f"{path[-1]} is not a legal target after {' then '.join(path[:-1])}"
    )
    raise IllegalMove(
        f"{problem}; legal first clicks: {', '.join(starts) or 'none'}",
        shown=_shown(raw),
        legal=legal,
        hint=spec.grammar.hint,
        summary=spec.grammar.summary,
    )


def typed_limit(spec: GameSpec) -> int:
    """The most characters a person's typed move may have in ``spec``'s game: the one limit
    the adapter applies and the page's text boxes take (``max_length``)."""
    return MAX_TYPED_CHARS if spec.grammar.free_text is None else MAX_TYPED_TALK_CHARS


def _resolve_text(spec: GameSpec, state: pyspiel.State, player: int, legal: list[LegalMove],
                  text: str, source: str) -> LegalMove:
    limit = MAX_LLM_CHARS if source == "llm" else typed_limit(spec)
    if not text.strip():
        raise _reject(EmptyMove, spec, legal, "the answer is empty", text)
    if len(text) > limit:
        raise _reject(TooLongMove, spec, legal,
                      f"the answer has {len(text)} characters; the limit is {limit}", text)
    said = _words(spec, state, player, legal, text)
    if said is not None:
        return said
    exact = _exact(spec, state, player, legal, text)
    if exact is not None:
        return exact
    segment, marked = _answer_segment(spec, text)
    if segment is None:
        raise _reject(UnparseableMove, spec, legal, "no move found", text)
    said = _words(spec, state, player, legal, segment, raw=text)
    if said is not None:
        return said
    exact = _exact(spec, state, player, legal, segment)
    if exact is not None:
        return exact
    keys = list(dict.fromkeys(key for _, _, key in spec.grammar.mentions(segment)))
    if not keys:
        where = "the answer line names no move" if marked else "no move found"
        raise _reject(UnparseableMove, spec, legal, where, text)
    if len(keys) > 1:
        named = ", ".join(_label_for_key(legal, key) for key in keys)
        raise _reject(AmbiguousMove, spec, legal,
                      f"the answer names {len(keys)} different moves ({named}); name exactly one",
                      text)
    for move in legal:
        if move.key == keys[0]:
            return move
    raise _reject(IllegalMove, spec, legal, f"{_mention_text(spec, segment)} is not legal now", text)


_WORDS_ERRORS: dict[str, type[MoveError]] = {
    "illegal": IllegalMove, "unparseable": UnparseableMove, "too_long": TooLongMove,
    "empty": EmptyMove,
}


def _words(spec: GameSpec, state: pyspiel.State, player: int, legal: list[LegalMove],
           text: str, *, raw: str | None = None) -> LegalMove | None:
    """The free-text move ``text`` is (with its words), None when it is not written as one;
    words that break the game's form are rejected with the game's reason."""
    form = spec.grammar.free_text
    if form is None:
        return None
    try:
        found = form.read(state, player, text.strip().strip("`*").strip())
    except talk.WordsError as err:
        raise _reject(_WORDS_ERRORS[err.reason], spec, legal,
                      f"{err.problem}; write {form.hint}", raw or text) from None
    if found is None:
        return None
    action, words = found
    slot = next((move for move in legal if move.action == action and move.says), None)
    if slot is None:
        raise _reject(IllegalMove, spec, legal,
                      f"{form.write(state, player, action, words)!r} is not a move you may "
                      "make now", raw or text)
    return LegalMove(action, form.write(state, player, action, words), slot.key, slot.path,
                     words)


def _exact(spec: GameSpec, state: pyspiel.State, player: int, legal: list[LegalMove],
           text: str) -> LegalMove | None:
    """The move ``text`` is, when the whole text is one label, alias or mention."""
    stripped = _strip_wrapping(text)
    table = _table(spec, state, player)
    key = spec.grammar.key_of(stripped)
    if key is not None and key in table.by_key:
        return table.by_key[key]
    folded = squash(stripped)
    if folded and spec.grammar.aliases is not None:
        return table.aliases(spec, state, player).get(folded)
    return None


_WRAPPERS = re.compile(r"^[\s<\[({*`'\"]+|[\s>\])}*`'\".!]+$")
_THINK = re.compile(r"<think>.*?(?:</think>|$)", re.IGNORECASE | re.DOTALL)
_MARKER = re.compile(
    r"^[\s>*#_-]*(?:final\s+answer|answer|final\s+move|my\s+move|move|action|decision)\s*"
    r"(?:is)?\s*[*_]*\s*[:：=]\s*(.*)$",
    re.IGNORECASE,
)
_JSON_OBJECT = re.compile(r"\{[^{}]*\}", re.DOTALL)
_JSON_FIELDS = ("move", "action", "answer", "final_answer", "choice")


def _strip_wrapping(text: str) -> str:
    return _WRAPPERS.sub("", text)


def _answer_segment(spec: GameSpec, text: str) -> tuple[str | None, bool]:
    """The part of ``text`` that states the answer, and whether it was explicitly marked.

    In order: a JSON object's move field (the game's own answer fields first); the last
    ``Final answer:``-style line; otherwise the last line that mentions any move (the last
    stated move wins).
    """
    text = _THINK.sub("", text)
    fields = (*spec.grammar.json_fields, *_JSON_FIELDS)
    for block in reversed(_JSON_OBJECT.findall(text)):
        try:
            data = json.loads(block)
        except ValueError:
            continue
        if isinstance(data, dict):
            for name in fields:
                if name in data and isinstance(data[name], str | int):
                    return str(data[name]), True
    lines = [line for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        marked = _MARKER.match(line)
        if marked:
            return marked.group(1), True
    for line in reversed(lines):
        if spec.grammar.mentions(line):
            return line, False
    if len(lines) == 1:
        return lines[0], False
    return None, False


def _label_for_key(legal: list[LegalMove], key: str) -> str:
    for move in legal:
        if move.key == key:
            return move.label
    return key


def _mention_text(spec: GameSpec, segment: str) -> str:
    start, end, _ = spec.grammar.mentions(segment)[0]
    return repr(segment[start:end])


# --- what records keep of raw input ------------------------------------------------------

MAX_KEPT_CHARS = MAX_LLM_CHARS
"""Records keep at most this much of any raw text (a typed move, an LLM's answer or
reasoning): the most the adapter ever reads."""


def clip_text(text: str, limit: int = MAX_KEPT_CHARS) -> tuple[str, dict[str, object] | None]:
    """``text`` cut to ``limit`` characters, and, when it was cut, what was left out: its
    whole length, how much was kept and the SHA-256 of the rest (None when nothing was)."""
    if len(text) <= limit:
        return text, None
    rest = text[limit:].encode("utf-8", "surrogatepass")
    return text[:limit], {"characters": len(text), "kept": limit,
                          "rest_sha256": hashlib.sha256(rest).hexdigest()}
