"""Refused moves in people's words: the short sentence the page shows when a click or a typed
move cannot be played.

The adapter (``games.actions``) answers a refused proposal with a message written for a
language model: the problem, the input, every legal move and the expected format ("no move
found (input: 'hello'). Legal moves: … Expected format: …"). That message is what the
record keeps (each rejected attempt's ``message``) and what a model is sent back. A person
gets one short sentence instead, built here from the same typed rejection: what was wrong,
and what to do ("That cell is taken.", "ALIEN is already turned.", "Deselect Heavy Tanks to
withdraw.", "'hello' is not a move. Moves look like <column>R<row>.").

A few games say why a clicked spot is no move in their own words (:data:`CLICKED`); every
other game gets the general sentences below. Nothing here changes a game or a record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pyspiel

from games.actions import AmbiguousMove, EmptyMove, MoveError, TooLongMove
from games.registry import GameSpec

EXAMPLES = 3
"""Legal moves named as examples when a typed move is not a move at all."""
QUOTED = 60
"""Characters of a person's typed text repeated in a notice."""
ClickWords = Callable[[pyspiel.State, int, str], str | None]


def _cell_taken(state: pyspiel.State, seat: int, target: str) -> str | None:
    return "That cell is taken."  # on your turn, a cell is no move only when it is taken


def _column_full(state: pyspiel.State, seat: int, target: str) -> str | None:
    return "That column is full."


def _card_turned(state: pyspiel.State, seat: int, target: str) -> str | None:
    words = getattr(state, "words", None)
    revealed = getattr(state, "revealed", None)
    if words is None or revealed is None:
        return None
    for card in range(len(words)):
        if state.word(card) == target and revealed[card]:
            return f"{target} is already turned."
    if not getattr(state, "guessing", True):
        return "Cards are guessed after a clue: wait for the clue."
    return None


CLICKED: dict[str, ClickWords] = {
    "tic_tac_toe": _cell_taken,
    "connect_four": _column_full,
    "codenames": _card_turned,
}
"""Games that say why a clicked spot is no move (None: the general sentence)."""


def click(spec: GameSpec, state: pyspiel.State, seat: int, target: str,
          path: tuple[str, ...], *, alone: bool) -> str:
    """Why a click on ``target`` after the selection ``path`` is no move. ``alone``: the
    target is a whole move by itself (so the selection stands in its way)."""
    if path and alone:
        return f"Deselect {path[0]} to {target}."
    if not path:
        said = CLICKED.get(spec.id)
        words = said(state, seat, target) if said is not None else None
        if words:
            return words
        return f"{target} cannot be played now."
    return f"{target} cannot follow {' then '.join(path)}."


def typed(spec: GameSpec, err: MoveError, text: str, *, allowed: str = "") -> str:
    """A typed move the adapter refused, in a sentence; ``allowed`` says what may be played
    now when the game has a better word for it than a few examples (a talk game's forms)."""
    if isinstance(err, EmptyMove):
        if not text.strip():
            return "Type a move first."
        return f"{quote(text)} has no words: write them after a colon." + (
            f" {allowed}" if allowed else "")
    if isinstance(err, TooLongMove):
        return "That is too long for a move: a move is a few words."
    hint = allowed or _examples(err.legal_labels, spec.grammar.hint, err.summary)
    if isinstance(err, AmbiguousMove):
        return "That names more than one move: name just one." + (f" {hint}" if hint else "")
    quoted = quote(text)
    problem = _problem(err.problem)
    if problem:  # the game's own words on the form (a clue that is a board word)
        return f"{problem}." + (f" {allowed}" if allowed else "")
    if err.reason == "illegal":
        return f"{quoted} cannot be played now." + (f" {hint}" if hint else "")
    return f"{quoted} is not a move." + (f" {hint}" if hint else "")


def number(shown: str, field: str) -> str:
    """A number the game's field does not take."""
    return f"{shown} is not allowed: {field}."


def _problem(problem: str) -> str:
    """The game's own reason when the words broke its form (the adapter writes those as
    "<reason>; write <form>"), else '' (the adapter's "no move found" is not for people)."""
    if WORDS_MARK not in problem:
        return ""
    reason = problem.split(WORDS_MARK)[0].strip()
    return reason[:1].upper() + reason[1:]


WORDS_MARK = "; write "


def _examples(labels: Sequence[str], hint: str, summary: str = "") -> str:
    if not labels:
        return ""
    if summary and len(summary) <= 120 and len(labels) > EXAMPLES:  # "a whole number from..."
        return f"You may play {summary}."
    if len(labels) <= EXAMPLES:
        return "You may play: " + ", ".join(labels) + "."
    shown = ", ".join(labels[:EXAMPLES])
    form = f" Moves look like {hint}." if hint and len(hint) <= 80 else ""
    return f"For example: {shown} ({len(labels)} moves in all).{form}"


def quote(text: str) -> str:
    """A person's words repeated in a notice (cut short when long)."""
    said = " ".join(text.split())
    if len(said) > QUOTED:
        said = said[: QUOTED - 1] + "…"
    return f"“{said}”"

