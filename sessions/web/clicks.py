"""Moves made by clicking a board in steps: the selection so far and what may come next.

A click names a target (a string of ``LegalMove.path``, as the renderer's hit-test gives it).
It first extends the selection: a complete path is a move, a partial one waits for the next
click with its possible targets highlighted (a Santorini worker may even build on the square
it left). Otherwise a selected target clicked again cancels back to it, and a target that
starts a move of its own replaces the selection. A game may word the notice for a partial
selection itself (a renderer's optional ``selected(path, options)``: Sea Battle asks for the
next ship's order); a click that is no move is answered in people's words
(:mod:`sessions.web.refusals`). Nothing here plays a move: the session does.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from games.actions import Click, LegalMove, MoveError, NeedsMore, resolve
from games.registry import GameSpec
from renderers import renderer_for
from sessions.web import refusals


@dataclass
class Selection:
    """The person's clicks on the board: the partial path, its next targets, the last move."""

    path: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    last: tuple[str, ...] | None = None
    """The click path of the last move the person may see (marked on the board)."""

    def click(self, spec: GameSpec, state: pyspiel.State, seat: int,
              target: str) -> LegalMove | str:
        """The move that ``target`` completes, or a notice saying what the click did."""
        path = (*self.path, target)
        try:
            return resolve(spec, state, seat, Click(path=path))
        except NeedsMore as more:
            self.path, self.targets = path, tuple(more.options)
            told = renderer_for(spec.id).selected  # the game's own words
            if told is not None:
                return str(told(path, self.targets))
            return (f"{' then '.join(path)} selected: click a highlighted spot, or {target} "
                    "again to cancel.")
        except MoveError:
            return self._not_a_move(spec, state, seat, target)

    def _not_a_move(self, spec: GameSpec, state: pyspiel.State, seat: int, target: str) -> str:
        if target in self.path:
            self.path = self.path[: self.path.index(target)]
            self.targets = next_targets(spec, state, seat, self.path)
            return ("Selection cleared." if not self.path
                    else f"Back to {' then '.join(self.path)}.")
        fresh = next_targets(spec, state, seat, (target,))
        if self.path and fresh:
            self.path, self.targets = (target,), fresh
            return f"{target} selected: click a highlighted spot, or {target} again to cancel."
        alone = bool(self.path) and _whole(spec, state, seat, target)
        return refusals.click(spec, state, seat, target, self.path, alone=alone)


def _whole(spec: GameSpec, state: pyspiel.State, seat: int, target: str) -> bool:
    """Whether ``target`` alone is a whole move (a button beside a selection)."""
    try:
        resolve(spec, state, seat, Click(path=(target,)))
    except MoveError:
        return False
    return True


def next_targets(spec: GameSpec, state: pyspiel.State, seat: int,
                 path: tuple[str, ...]) -> tuple[str, ...]:
    """The targets that may follow ``path`` (none if it is empty, complete or not a start)."""
    if not path:
        return ()
    try:
        resolve(spec, state, seat, Click(path=path))
    except NeedsMore as more:
        return tuple(more.options)
    except MoveError:
        return ()
    return ()
