"""Turns built in steps, shown as one move: a game whose renderer has ``turn_summary``
and ``turn_over`` (Arctic Scavengers: ``dig``, ``add Shovel``, ``cancel``, ``dig with
Brawler`` ... ``end gathering``) has each seat's turn — a run of its consecutive moves up to
one that ends the turn — shown as one line of the move list and one step of a replay,
labelled by the renderer's summary. The record keeps every
step (each is an OpenSpiel action); only what people read is folded.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from renderers import renderer_for
from sessions.record import CHANCE

Row = TypeVar("Row")


@dataclass(frozen=True)
class Turns:
    """A game's turns built in steps: ``summary`` names a run of steps as one move,
    ``over`` says whether a move ends its seat's turn."""

    summary: Callable[[list[str]], str]
    over: Callable[[str], bool]


def turns_of(game_id: str) -> Turns | None:
    """The game's turns built in steps, or None when its moves are shown one by one."""
    view = renderer_for(game_id)
    summary, over = view.turn_summary, view.turn_over
    if summary is None or over is None:
        return None
    return Turns(summary, over)


def fold(entries: Sequence[Row], seat: Callable[[Row], int], label: Callable[[Row], str],
         turns: Turns, *, keep_last_of: int | None = None) -> list[list[Row]]:
    """``entries`` grouped into turns: runs of consecutive entries of one (non-chance) seat,
    each ended by a move that ends the turn; the trailing run of seat ``keep_last_of``
    stays one entry a group (a person's turn still being built is shown step by step)."""
    groups: list[list[Row]] = []
    for entry in entries:
        last = groups[-1][-1] if groups else None
        if last is not None and seat(entry) != CHANCE and seat(last) == seat(entry) \
                and not turns.over(label(last)):
            groups[-1].append(entry)
        else:
            groups.append([entry])
    if groups and keep_last_of is not None and seat(groups[-1][0]) == keep_last_of \
            and not turns.over(label(groups[-1][-1])):
        groups[-1:] = [[entry] for entry in groups[-1]]
    return groups


def named(group: Sequence[Row], label: Callable[[Row], str], turns: Turns) -> str:
    """A group's line: its one move's label, or the turn's summary."""
    return label(group[0]) if len(group) == 1 else turns.summary([label(e) for e in group])
