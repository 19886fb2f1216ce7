"""Board image render times: Hive at 10, 22, 40 and 80 tiles, Santorini, and Air, Land &
Sea's table (also laid out for a phone). Target: 50 ms.

Real Hive has at most 22 tiles (28 with every expansion), so the 10- and 22-tile boards
come from seeded random games and the 40- and 80-tile boards are made up, to show the
renderer stays fast (and legible: see tests/artifacts) past any real game. Real states are
rendered cold: the position caches are emptied first, so the time includes replaying the
move list and grouping the legal actions, as after a move. Prints the median and the
worst of --repeat renders, plain and with a tile selected and its destinations lit.

    python benchmarks/board_render.py [--repeat 30]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from games.actions import Click, NeedsMore, legal_moves, resolve
from games.gamebench import hive
from games.registry import get
from renderers.gamebench import air_land_sea as als_view
from renderers.gamebench import hive as hive_view
from renderers.gamebench import santorini as santorini_view
from tests.test_hive_render import grown_hive


def timed(render: Callable[[], object], repeat: int, *, cold: bool) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        if cold:
            hive._POSITIONS.clear()
            hive._CHOICES.clear()
            hive_view._BOARDS.clear()
        start = time.perf_counter()
        render()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def hive_state(tiles: int, seed: int = 0):
    """A seeded random Hive game, played until ``tiles`` tiles are on the board."""
    spec = get("hive")
    for attempt in range(200):
        rng = np.random.default_rng(seed + attempt)
        state = spec.load().new_initial_state()
        while not state.is_terminal():
            if len(hive.position(state).tiles()) >= tiles:
                return state
            state.apply_action(int(rng.choice(state.legal_actions())))
    raise RuntimeError(f"no random game reached {tiles} tiles")


def selected(state) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A selection of the first movable tile on the board and its destinations."""
    found = hive.choices(state)
    tile = next((t for t in found.movable() if found.position.where(t)), found.movable()[0])
    return (tile,), tuple(hive.hex_name(h) for h in found.targets(tile))


def santorini_state(plies: int, seed: int = 0):
    spec = get("santorini")
    rng = np.random.default_rng(seed)
    state = spec.load().new_initial_state()
    for _ in range(plies):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def air_land_sea_state(cards: int, seed: int = 0):
    """A seeded random war at its first decision with ``cards`` cards on the table."""
    spec = get("air_land_sea")
    for attempt in range(200):
        rng = np.random.default_rng(seed + attempt)
        state = spec.load().new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=chances)))
                continue
            if sum(len(stack) for side in state.stacks for stack in side) >= cards:
                return state
            state.apply_action(int(rng.choice(state.legal_actions())))
    raise RuntimeError(f"no random war reached {cards} cards on the table")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    rows = []
    for tiles in (10, 22):
        state = hive_state(tiles)
        seat = state.current_player()
        picked, lit = selected(state)
        rows.append((f"hive, {tiles} tiles (a random game), plain",
                     timed(lambda s=state, p=seat: hive_view.image(s, p), args.repeat, cold=True)))
        rows.append((f"hive, {tiles} tiles, tile selected",
                     timed(lambda s=state, p=seat, a=picked, b=lit:
                           hive_view.image(s, p, selection=a, targets=b),
                           args.repeat, cold=True)))
    for tiles in (40, 80):
        position = grown_hive(tiles, 3)
        tile_set = hive.tile_set({})
        rows.append((f"hive, {tiles} tiles (made up)",
                     timed(lambda p=position, t=tile_set, n=tiles: hive_view.draw_board(
                         hive_view.board_for(p, t), 0, (f"{n} tiles", "")),
                           args.repeat, cold=False)))
    state = santorini_state(24)
    spec = get("santorini")
    move = legal_moves(spec, state, state.current_player())[0]
    try:
        resolve(spec, state, state.current_player(), Click(path=move.path[:2]))
        options: list[str] = []
    except NeedsMore as more:
        options = more.options
    rows.append(("santorini, mid-game, plain",
                 timed(lambda: santorini_view.image(state, 0), args.repeat, cold=False)))
    rows.append(("santorini, worker moved, builds lit",
                 timed(lambda: santorini_view.image(state, 0, selection=move.path[:2],
                                                    targets=options),
                       args.repeat, cold=False)))
    spec = get("air_land_sea")
    for cards in (4, 10):
        state = air_land_sea_state(cards)
        seat = state.current_player()
        move = legal_moves(spec, state, seat)[0]
        try:
            resolve(spec, state, seat, Click(path=move.path[:1]))
            lit: list[str] = []
        except NeedsMore as more:
            lit = more.options
        rows.append((f"air_land_sea, {cards} cards on the table, plain",
                     timed(lambda s=state, p=seat: als_view.image(s, p), args.repeat,
                           cold=False)))
        rows.append((f"air_land_sea, {cards} cards, a card selected",
                     timed(lambda s=state, p=seat, a=move.path[:1], b=tuple(lit):
                           als_view.image(s, p, selection=a, targets=b),
                           args.repeat, cold=False)))
        rows.append((f"air_land_sea, {cards} cards, a card selected, phone layout",
                     timed(lambda s=state, p=seat, a=move.path[:1], b=tuple(lit):
                           als_view.image(s, p, selection=a, targets=b, narrow=True),
                           args.repeat, cold=False)))
        rows.append((f"air_land_sea, {cards} cards, text view",
                     timed(lambda s=state, p=seat: als_view.text(s, p), args.repeat,
                           cold=False)))
    width = max(len(name) for name, _ in rows)
    print(f"{'board':<{width}}  median    worst   (target 50 ms, {args.repeat} renders)")
    for name, (median, worst) in rows:
        print(f"{name:<{width}}  {median:6.1f} ms {worst:6.1f} ms")


if __name__ == "__main__":
    main()
