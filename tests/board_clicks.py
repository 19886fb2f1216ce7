"""Play a board by clicking pixels: what a person can reach through hit-test and adapter."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import ModuleType

import pyspiel

from games.actions import Click, IllegalMove, NeedsMore, resolve
from games.registry import GameSpec

Point = tuple[float, float]


def moves_by_clicking(spec: GameSpec, renderer: ModuleType, state: pyspiel.State, seat: int,
                      first: Iterable[tuple[str, Point]],
                      centre: Callable[[str], Point]) -> dict[int, tuple[str, ...]]:
    """Every move reachable by clicks: click each first target at its centre, then every
    option the adapter offers at its centre, and so on. Returns action -> click path.

    Each click must hit-test to the target it aims at; a first click may be refused (an
    opponent's tile, an empty square), a later one never is (it was offered).
    """
    done: dict[int, tuple[str, ...]] = {}

    def follow(selection: tuple[str, ...], targets: Iterable[tuple[str, Point]]) -> None:
        for target, (x, y) in targets:
            hit = renderer.hit_test(state, seat, x, y, selection=selection)
            assert hit == target, (selection, target, hit)
            path = (*selection, hit)
            try:
                move = resolve(spec, state, seat, Click(path=path))
            except NeedsMore as more:
                follow(path, [(option, centre(option)) for option in more.options])
            except IllegalMove:
                assert not selection, f"{path} was offered but is refused"
            else:
                assert move.action not in done, f"{path} and {done[move.action]} both play it"
                done[move.action] = path

    follow((), first)
    return done
