"""Beside the board: who plays which side, the time each has used, and the move list.

Everything here is read from the match record (each move's ``started_at``/``ended_at``) and
named in people's words: ``You (X)`` and ``MCTS (1000 simulations)``, never ``player 0`` or
``mcts:1000:2s``. The move list holds the moves the person was shown, each with the time it
took and the replay frame (:func:`sessions.web.replays.boundaries`) that shows the position
after it, so the page can step back and forth through the positions seen so far.
"""

from __future__ import annotations

import bisect
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from renderers import side_name
from sessions.record import CHANCE, MatchRecord
from sessions.web import turn_runs
from sessions.web.players import agent_name
from sessions.web.replays import boundaries, visible_moves


@dataclass(frozen=True)
class PlayerLine:
    """One seat of a two-seat game as the players panel shows it."""

    seat: int
    name: str
    """``You (X)``, or the agent with its settings: ``MCTS (1000 simulations)``."""
    side: str
    """The side the board draws for the seat (``O``, ``White``, ``red``), or ''."""
    seconds: float
    """Time used so far: the seat's moves, and the running turn when it is to move."""
    to_move: bool
    you: bool


@dataclass(frozen=True)
class MoveRow:
    """One line of the move list."""

    number: int
    seat: int
    """The seat that moved, or ``CHANCE``."""
    who: str
    label: str
    seconds: float | None
    """How long the move took (None for chance: a die roll takes no thought)."""
    frame: int
    """The navigation frame that shows the position after this move."""


def players(record: MatchRecord, you: int, to_move: Sequence[int], *,
            now: float | None = None,
            name: Callable[[int], str] | None = None) -> list[PlayerLine]:
    """Both seats of a two-seat game, the person's first; ``name`` names the other seats
    (default: :func:`display_name`; a blind battle hides its model's)."""
    now = time.time() if now is None else now
    used = seconds_used(record, to_move, now)
    lines = []
    for seat, info in enumerate(record.seats):
        side = side_name(record.game, seat)
        if seat == you:
            shown = f"You ({side})" if side else "You"
        else:
            shown = name(seat) if name is not None else display_name(
                info.kind, info.spec, info.display_name)
        lines.append(PlayerLine(seat, shown, side, used[seat], seat in to_move, seat == you))
    return sorted(lines, key=lambda line: not line.you)


def display_name(kind: str, spec: str, display: str | None = None) -> str:
    """A seat's name for the page: a person's display name, else the agent's full name."""
    if kind == "human":
        return display or "A person"
    return agent_name(spec)


def seconds_used(record: MatchRecord, to_move: Sequence[int], now: float) -> list[float]:
    """Time each seat has used: the sum of its moves, plus the running turn of the seats to
    move (counted from the end of the last move, or the start of the game)."""
    used = [0.0] * len(record.seats)
    for move in record.moves:
        if move.seat != CHANCE:
            used[move.seat] += max(0.0, move.ended_at - move.started_at)
    if record.outcome is None:
        since = record.moves[-1].ended_at if record.moves else record.started_at
        for seat in to_move:
            used[seat] += max(0.0, now - since)
    return used


def move_rows(record: MatchRecord, you: int, name: Callable[[int], str], *,
              final: bool, points: Sequence[int] | None = None) -> list[MoveRow]:
    """The moves ``you`` was shown (every move once the game is ``final``), numbered;
    ``points`` are the record's :func:`boundaries` when the caller has them."""
    points = boundaries(record) if points is None else points
    rows: list[MoveRow] = []
    for i, label in visible_moves(record, len(record.moves), you, final=final):
        move = record.moves[i]
        chance = move.seat == CHANCE
        rows.append(MoveRow(
            len(rows) + 1, move.seat, "chance" if chance else name(move.seat), label,
            None if chance else max(0.0, move.ended_at - move.started_at),
            min(bisect.bisect_right(points, i), len(points) - 1)))
    turns = turn_runs.turns_of(record.game)
    if turns is None:
        return rows
    folded: list[MoveRow] = []  # a turn built in steps is one move (sessions.web.turn_runs)
    for group in turn_runs.fold(rows, _seat, _label, turns,
                                keep_last_of=None if final else you):
        first = group[0]
        label = turn_runs.named(group, _label, turns)
        seconds = None if first.seconds is None else sum(row.seconds or 0.0 for row in group)
        folded.append(MoveRow(len(folded) + 1, first.seat, first.who, label, seconds,
                              group[-1].frame))
    return folded


def _seat(row: MoveRow) -> int:
    return row.seat


def _label(row: MoveRow) -> str:
    return row.label


def clock(seconds: float) -> str:
    """``0:07``, ``12:30``, ``1:02:03``."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def took(seconds: float | None) -> str:
    """A move's time: ``0.4 s``, ``12 s``, ``2:05``; '' for chance."""
    if seconds is None:
        return ""
    if seconds < 10:
        return f"{seconds:.1f} s"
    return f"{seconds:.0f} s" if seconds < 60 else clock(seconds)
