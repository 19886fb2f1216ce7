"""Sea Battle's pieces: the sea and its rocks, the ships and their orders, and how one seat's
orders for its whole fleet are one OpenSpiel action id (see :mod:`sea_battle_rules`).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

Cell = tuple[int, int]
"""(x, y): x 0-23 from west to east, y 0-23 from south to north."""

SIZE = 24
SHIPS = 3
"""Ships per seat; seat p commands ships 3p, 3p+1, 3p+2 (its ships 1, 2, 3)."""
HULL = 10
RANGE = 3
CANNON, ROCK, RAM = 2, 1, 1
TEAMS = ("Red", "Blue")
"""Seat 0 is Red and seat 1 Blue, as everywhere on the page (renderers.drawing.PLAYER)."""
MOVES = ("left", "forward", "right", "stay")
SIDES = ("left", "right")
NO_ORDER = 8
ORDERS = 9
NUM_ACTIONS = ORDERS ** SHIPS
HEADINGS = ((0, 1), (1, 0), (0, -1), (-1, 0))
"""(dx, dy) of north, east, south, west; y grows to the north."""
HEADING_NAMES = ("north", "east", "south", "west")
DEFAULTS: dict[str, int | str] = {"layout_seed": -1, "inner_rocks": 14, "max_turns": 100,
                                  "rocks": ""}
"""``rocks``: the inner rocks written out (``x y`` pairs separated by ``;``), instead of
``inner_rocks`` drawn from the seed (for puzzles and tests)."""
MAX_TURNS = 500
MAX_INNER_ROCKS = 100




@dataclass
class Ship:
    """One ship: owner seat, number within its fleet (1-3), square, heading, damage."""

    seat: int
    number: int
    x: int
    y: int
    heading: int
    damage: int = 0

    @property
    def afloat(self) -> bool:
        return self.damage < HULL

    @property
    def cell(self) -> Cell:
        return (self.x, self.y)

    @property
    def name(self) -> str:
        return f"{TEAMS[self.seat]} {self.number}"

    def ahead(self) -> Cell:
        dx, dy = HEADINGS[self.heading]
        return (self.x + dx, self.y + dy)

    def side(self, side: int) -> int:
        """The heading to its left (side 0) or right (side 1)."""
        return (self.heading + (3 if side == 0 else 1)) % 4


@dataclass(frozen=True)
class Order:
    move: int
    side: int

    def text(self) -> str:
        return f"{MOVES[self.move]}, shoot {SIDES[self.side]}"


@dataclass(frozen=True)
class Shot:
    """A cannonball: who fired, the squares it crossed, what stopped it."""

    ship: int
    path: tuple[Cell, ...]
    hit: int | None
    rock: bool


@dataclass
class TurnLog:
    """What happened in one turn, for the views: orders, damage by cause, shots, sinkings.

    Written while its turn is played, never changed after: clones of the state share it
    (a state is cloned for every view, and copying a long game's logs would dominate)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> TurnLog:
        return self

    orders: dict[int, Order]
    damage: list[tuple[int, int, str]] = field(default_factory=list)
    """(ship, amount, cause) with cause ``rock``, ``ram`` or the firing ship's name."""
    shots: list[Shot] = field(default_factory=list)
    sunk: list[int] = field(default_factory=list)
    moved_from: dict[int, Cell] = field(default_factory=dict)


def is_border(cell: Cell) -> bool:
    x, y = cell
    return x in (0, SIZE - 1) or y in (0, SIZE - 1)


def layout(seed: int, inner_rocks: int) -> tuple[tuple[tuple[Cell, int], ...], frozenset[Cell]]:
    """Ship squares and headings (Red 1-3, then Blue 1-3) and the inner rocks of a seed."""
    rng = np.random.default_rng(max(seed, 0))
    inner = [(x, y) for x in range(1, SIZE - 1) for y in range(1, SIZE - 1)]
    picked = [inner[i] for i in rng.permutation(len(inner))[: 2 * SHIPS + inner_rocks]]
    headings = rng.integers(4, size=2 * SHIPS)
    ships = tuple((picked[i], int(headings[i])) for i in range(2 * SHIPS))
    return ships, frozenset(picked[2 * SHIPS:])


def parse_rocks(text: str) -> frozenset[Cell]:
    """Inner rocks written as ``x y`` pairs separated by ``;`` (``3 5; 7 9``)."""
    cells = set()
    for pair in text.split(";"):
        parts = pair.split()
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise ValueError(f"rocks must be 'x y' pairs separated by ';', got {pair.strip()!r}")
        cell = (int(parts[0]), int(parts[1]))
        if not all(1 <= v <= SIZE - 2 for v in cell):
            raise ValueError(f"rock {cell} is not an inner square (x and y 1-{SIZE - 2})")
        cells.add(cell)
    return frozenset(cells)


def digits(action: int) -> tuple[int, ...]:
    """The per-ship order digits of a joint action (ship 1 first)."""
    return tuple((action // ORDERS ** (SHIPS - 1 - k)) % ORDERS for k in range(SHIPS))


def joint(orders: Sequence[int]) -> int:
    """The joint action of per-ship digits (ship 1 first)."""
    action = 0
    for digit in orders:
        action = action * ORDERS + digit
    return action


def order_of(digit: int) -> Order | None:
    return None if digit == NO_ORDER else Order(*divmod(digit, 2))


@functools.cache
def legal_joints(afloat: tuple[bool, ...]) -> tuple[int, ...]:
    """Every joint action of a fleet whose ships are afloat as given (sunk ships: no order)."""
    choices = [range(8) if up else (NO_ORDER,) for up in afloat]
    return tuple(joint(combo) for combo in itertools.product(*choices))
