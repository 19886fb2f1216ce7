"""Sea Battle's strategy bot: one turn's orders for the whole fleet, planned against a model of
the other fleet's orders.

Every turn the bot

1. predicts each enemy ship's order (move and firing side): a soft best response of that ship
   (hit us, keep out of our broadsides, keep off rocks, close in) mixed with the orders that
   enemy ship actually gave in the last turns, so a fleet that never moves is expected to stay;
2. tries every combination of its own ships' moves (at most 4^3 = 64), sailing them together
   as the rules do (rocks, rams between its own ships), and gives each ship its best side;
   a combination where a ship knocks on a rock is never played if that ship has a move that
   does not (only a ship with a rock dead ahead, which can do nothing but stay, may take one
   knock to turn away, and only when staying there is worth less; ending a turn with a rock
   dead ahead is charged as that knock to come, so ships seldom sail into such dead ends);
3. scores a combination by the damage it expects to deal (more for a hit that sinks), minus the
   damage it expects to take, minus what it does to itself (rams, its own shots, each point
   weighed above a hit), minus how many turns each ship then needs to reach a square from
   which it fires on an enemy ship (a shortest path over square and heading that steers round
   rocks; a firing square under the enemy's forecast fire or facing a rock counts as further),
   and plays the best.

Sea Battle hides nothing: every ship's square, heading and damage, the rocks and every order
given are public (the game is declared perfect information and both seats' observations are one
text). The bot reads them from ``view.state`` and its turn logs; there is no hidden part to stay
away from (``tests/test_bot_sea_battle.py`` checks that the game stays so).
"""

from __future__ import annotations

import functools
import itertools
import math
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.gamebench.sea_battle_fleet import (
    HEADINGS,
    HULL,
    NO_ORDER,
    RANGE,
    SHIPS,
    SIDES,
    SIZE,
    TEAMS,
    joint,
)
from games.registry import GameSpec

Cell = tuple[int, int]
STAY = 3
MOVES = (0, 1, 2, STAY)
"""left, forward, right, stay (the rules' move numbers)."""
ORDERS = 8
"""An order is ``move * 2 + side``, the rules' digit of a ship afloat."""

SELF_COST = 3.0
"""What a point of damage a ship does to itself (rock, ram by its own fleet) costs, in points
of damage dealt: more than a hit is worth, so no shot is ever bought with a wreck."""
STEP_COST = 0.4
"""What one turn more to reach a firing square costs."""
ESCAPE = 15.0
"""A rock knock on the way, in turns: a ship boxed in by rocks takes one only to get out."""
DEAD_END = 1.5
"""What ending a turn with a rock dead ahead costs (the knock it takes to turn away later),
when the ship did not start the turn so."""
FAR = 60.0
MODEL_WEIGHT = 3.0
"""How many remembered enemy orders weigh as much as the bot's own model of that ship."""
MEMORY = 0.85
"""How much of the enemy's order counts carries over from one turn to the next."""
CARELESS = 0.1
"""The share of each prediction left uniform: anything may happen."""
Note = tuple[tuple[float, "Boat | None"], "Boat", int, float, "Boat | None"]
"""A ship's planned shot (worth, likeliest target), the ship, its side, how far it is from
firing on an enemy ship (turns and costs) and which one."""


@dataclass(frozen=True)
class Boat:
    """A ship afloat as the planner sees it: index among all six ships, number in its fleet
    (0-2), square, heading, damage."""

    ship: int
    number: int
    cell: Cell
    heading: int
    damage: int

    @property
    def hull(self) -> int:
        return HULL - self.damage


def _ahead(cell: Cell, heading: int, steps: int = 1) -> Cell:
    dx, dy = HEADINGS[heading]
    return (cell[0] + dx * steps, cell[1] + dy * steps)


def _turned(heading: int, move: int) -> int:
    return (heading + (3 if move == 0 else 1)) % 4 if move in (0, 2) else heading


def state_id(cell: Cell, heading: int) -> int:
    """A (square, heading) as one index of the path search."""
    return (cell[0] * SIZE + cell[1]) * 4 + heading


class Sea:
    """The rocks of one game: what they do to a lone ship's moves and to its shots, and the
    turns from anywhere to a set of squares."""

    def __init__(self, rocks: frozenset[Cell]) -> None:
        self.rocks = rocks
        self._sail: dict[tuple[Cell, int, int], tuple[Cell, int, int]] = {}
        self._rays: dict[tuple[Cell, int, int], tuple[Cell, ...]] = {}
        self._n = SIZE * SIZE * 4
        self._edges = self._moves_reversed()

    def _moves_reversed(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every move from a square afloat, as (to, from, turns) edges; no two moves of a
        state end in the same state (each ends with its own heading)."""
        rock = np.ones((SIZE, SIZE), dtype=bool)
        rock[1:-1, 1:-1] = False
        for rx, ry in self.rocks:
            rock[rx, ry] = True
        x, y, h = (a.ravel() for a in np.meshgrid(np.arange(SIZE), np.arange(SIZE), np.arange(4),
                                                   indexing="ij"))
        water = ~rock[x, y]
        x, y, h = x[water], y[water], h[water]
        step = np.array(HEADINGS)
        rows, cols, costs = [], [], []
        for move in (0, 1, 2):
            fx, fy = x + step[h, 0], y + step[h, 1]
            hurt = rock[fx, fy].astype(int)
            fx, fy = np.where(hurt > 0, x, fx), np.where(hurt > 0, y, fy)
            heading = (h + (3, 0, 1)[move]) % 4
            if move != 1:
                sx, sy = fx + step[heading, 0], fy + step[heading, 1]
                blocked = rock[sx, sy]
                hurt = hurt + blocked
                fx, fy = np.where(blocked, fx, sx), np.where(blocked, fy, sy)
            end = (fx * SIZE + fy) * 4 + heading
            start = (x * SIZE + y) * 4 + h
            moved = end != start
            rows.append(end[moved])
            cols.append(start[moved])
            costs.append(1.0 + ESCAPE * hurt[moved])
        return np.concatenate(rows), np.concatenate(cols), np.concatenate(costs)

    def is_rock(self, cell: Cell) -> bool:
        x, y = cell
        return x <= 0 or y <= 0 or x >= SIZE - 1 or y >= SIZE - 1 or cell in self.rocks

    def sail(self, cell: Cell, heading: int, move: int) -> tuple[Cell, int, int]:
        """Where a ship with no other ship about ends a move: square, heading, rock damage."""
        key = (cell, heading, move)
        found = self._sail.get(key)
        if found is None:
            found = self._sail[key] = self._sail_alone(cell, heading, move)
        return found

    def ray(self, cell: Cell, heading: int, side: int) -> tuple[Cell, ...]:
        """The squares a cannonball fired to ``side`` crosses before a rock stops it."""
        key = (cell, heading, side)
        found = self._rays.get(key)
        if found is None:
            found = self._rays[key] = self._ray(cell, heading, side)
        return found

    def approach(self, targets: dict[int, float]) -> np.ndarray:
        """Turns (a rock knock counts ``ESCAPE``) from every (square, heading) to the nearest
        target state; a target's value is the head start it gives away (extra turns)."""
        rows, cols, costs = self._edges
        rows = np.concatenate([rows, np.full(len(targets), self._n)])
        cols = np.concatenate([cols, np.fromiter(targets, dtype=np.int64, count=len(targets))])
        extra = np.fromiter(targets.values(), dtype=float, count=len(targets))
        costs = np.concatenate([costs, 1e-6 + extra])
        graph = csr_matrix((costs, (rows, cols)), shape=(self._n + 1, self._n + 1))
        return np.asarray(dijkstra(graph, directed=True, indices=self._n))[: self._n]

    def _sail_alone(self, cell: Cell, heading: int, move: int) -> tuple[Cell, int, int]:
        if move == STAY:
            return cell, heading, 0
        hurt = 0
        first = _ahead(cell, heading)
        if self.is_rock(first):
            hurt, first = 1, cell
        if move == 1:
            return first, heading, hurt
        heading = _turned(heading, move)
        second = _ahead(first, heading)
        if self.is_rock(second):
            return first, heading, hurt + 1
        return second, heading, hurt

    def _ray(self, cell: Cell, heading: int, side: int) -> tuple[Cell, ...]:
        direction = (heading + (3 if side == 0 else 1)) % 4
        cells = []
        for step in range(1, RANGE + 1):
            target = _ahead(cell, direction, step)
            if self.is_rock(target):
                break
            cells.append(target)
        return tuple(cells)


@functools.lru_cache(maxsize=8)
def sea_of(rocks: frozenset[Cell]) -> Sea:
    """One :class:`Sea` per set of rocks (building one takes a few milliseconds)."""
    return Sea(rocks)


def sail_fleet(sea: Sea, boats: Sequence[Boat], moves: Sequence[int]
               ) -> list[tuple[Cell, int, int, int]]:
    """One fleet's moves played out together as the rules do, with no other ship about:
    each ship's square, heading, rock knocks and rams."""
    cells = [boat.cell for boat in boats]
    headings = [boat.heading for boat in boats]
    knocks = [0] * len(boats)
    rams = [0] * len(boats)

    def step(movers: list[int], rams_hurt: bool) -> None:
        target = {i: _ahead(cells[i], headings[i]) for i in movers}
        blocked = {i for i in movers if sea.is_rock(target[i])}
        for i in blocked:
            knocks[i] += 1
        rammed: set[int] = set()
        changed = True
        while changed:
            changed = False
            end = [target[i] if i in target and i not in blocked else cells[i]
                   for i in range(len(boats))]
            by_cell: dict[Cell, list[int]] = defaultdict(list)
            for i, cell in enumerate(end):
                by_cell[cell].append(i)
            clashes = [group for group in by_cell.values() if len(group) > 1]
            clashes += [[i, j] for i, j in itertools.combinations(movers, 2)
                        if i not in blocked and j not in blocked
                        and target[i] == cells[j] and target[j] == cells[i]]
            for group in clashes:
                for i in group:
                    rammed.add(i)
                    if i in target and i not in blocked:
                        blocked.add(i)
                        changed = True
        for i in movers:
            if i not in blocked:
                cells[i] = target[i]
        for i in rammed if rams_hurt else ():  # a second-square collision does no harm
            rams[i] += 1

    step([i for i, move in enumerate(moves) if move != STAY], True)
    for i, move in enumerate(moves):
        headings[i] = _turned(headings[i], move)
    step([i for i, move in enumerate(moves) if move in (0, 2)], False)
    return [(cells[i], headings[i], knocks[i], rams[i]) for i in range(len(boats))]


def fleet(state: Any, seat: int) -> list[Boat]:
    """The ships of ``seat`` afloat."""
    return [Boat(seat * SHIPS + k, k, ship.cell, ship.heading, ship.damage)
            for k, ship in enumerate(state.fleet(seat)) if ship.afloat]


def hit_value(boat: Boat) -> float:
    """What a cannonball (2 damage) on ``boat`` is worth: more on a worn ship, most on a
    ship it sinks."""
    return 2.0 * (1.0 + 0.05 * boat.damage) + (4.0 if boat.hull <= 2 else 0.0)


@dataclass
class Forecast:
    """Where the enemy fleet may end the turn and where its cannonballs may fly."""

    occupied: dict[Cell, list[tuple[Boat, float]]]
    """Square -> (enemy ship, probability it ends there)."""
    threat: dict[Cell, float]
    """Square -> expected damage a ship ending there takes."""
    staying: dict[Cell, float]
    """An enemy ship's square -> probability it stays there."""


def forecast(sea: Sea, boats: Sequence[Boat], orders: Sequence[np.ndarray]) -> Forecast:
    """What ``boats`` may do given each ship's probabilities over its eight orders."""
    occupied: dict[Cell, list[tuple[Boat, float]]] = defaultdict(list)
    threat: dict[Cell, float] = defaultdict(float)
    staying: dict[Cell, float] = {}
    for boat, chances in zip(boats, orders, strict=True):
        ends: dict[Cell, float] = defaultdict(float)
        for order in range(ORDERS):
            move, side = divmod(order, 2)
            p = float(chances[order])
            cell, heading, _ = sea.sail(boat.cell, boat.heading, move)
            ends[cell] += p
            for target in sea.ray(cell, heading, side):
                threat[target] += 2.0 * p
        for cell, p in ends.items():
            occupied[cell].append((boat, p))
        staying[boat.cell] = float(chances[STAY * 2] + chances[STAY * 2 + 1])
    return Forecast(occupied, threat, staying)


def volley(sea: Sea, cell: Cell, heading: int, side: int, friends: dict[Cell, Boat],
           enemy: Forecast) -> tuple[float, Boat | None]:
    """Expected worth of one shot: enemy hits, minus a friend hit first (and the likeliest
    enemy ship it hits)."""
    worth, left, best, best_p = 0.0, 1.0, None, 0.0
    for target in sea.ray(cell, heading, side):
        friend = friends.get(target)
        if friend is not None:
            return worth - left * SELF_COST * 2.0, best
        for boat, p in enemy.occupied.get(target, ()):
            worth += left * p * hit_value(boat)
            if left * p > best_p:
                best, best_p = boat, left * p
            left *= max(0.0, 1.0 - p)
    return worth, best


def _approach_proxy(cell: Cell, targets: Sequence[Boat]) -> float:
    """Rough turns to a firing square on the nearest of ``targets`` (no rocks, no heading)."""
    best = FAR
    for boat in targets:
        dx, dy = abs(cell[0] - boat.cell[0]), abs(cell[1] - boat.cell[1])
        best = min(best, (min(dx, dy) + max(0, max(dx, dy) - RANGE)) / 1.5)
    return best


class SeaBattleBot:
    """Plans each ship's orders: steers clear of rocks and hunts the enemy fleet."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        self.game = game
        self._rng = rng
        self._counts: dict[int, np.ndarray] = {}
        self._seen = 0

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        state = view.state
        sea = sea_of(frozenset(state.get_game().rocks))
        ours, theirs = fleet(state, view.seat), fleet(state, 1 - view.seat)
        self._remember(state, 1 - view.seat)
        us = forecast(sea, ours, [np.full(ORDERS, 1.0 / ORDERS) for _ in ours])
        enemy = forecast(sea, theirs, [self._predict(sea, boat, ours, us) for boat in theirs])
        orders, why = self._plan(sea, ours, theirs, enemy)
        digits = [NO_ORDER] * SHIPS
        for boat, order in zip(ours, orders, strict=True):
            digits[boat.number] = order
        action = joint(digits)
        return Decision(ActionId(action=action), raw=state.label(view.seat, action),
                        reasoning=why, seconds=time.perf_counter() - start)

    # --- the enemy ------------------------------------------------------------------------

    def _remember(self, state: Any, enemy: int) -> None:
        """Count the orders the enemy's ships gave in the turns not yet counted."""
        if state.turn < self._seen:
            self._counts, self._seen = {}, 0
        for log in state.turns[self._seen:]:
            for counts in self._counts.values():
                counts *= MEMORY
            for ship, order in log.orders.items():
                if ship // SHIPS == enemy:
                    counts = self._counts.setdefault(ship, np.zeros(ORDERS))
                    counts[order.move * 2 + order.side] += 1.0
        self._seen = state.turn

    def _predict(self, sea: Sea, boat: Boat, ours: Sequence[Boat], us: Forecast
                 ) -> np.ndarray:
        """Probabilities of ``boat``'s eight orders: a soft best response against our fleet
        sailing at random (``us``), mixed with the orders it gave lately."""
        worth = np.zeros(ORDERS)
        for order in range(ORDERS):
            move, side = divmod(order, 2)
            cell, heading, hurt = sea.sail(boat.cell, boat.heading, move)
            shot, _ = volley(sea, cell, heading, side, {}, us)
            worth[order] = (shot - us.threat.get(cell, 0.0) - SELF_COST * hurt
                            - STEP_COST * _approach_proxy(cell, ours))
        model = np.exp(worth - worth.max())
        model /= model.sum()
        counts = self._counts.get(boat.ship, np.zeros(ORDERS))
        mixed = (MODEL_WEIGHT * model + counts) / (MODEL_WEIGHT + counts.sum())
        return np.asarray((1.0 - CARELESS) * mixed + CARELESS / ORDERS)

    # --- our orders -----------------------------------------------------------------------

    def _plan(self, sea: Sea, ours: Sequence[Boat], theirs: Sequence[Boat],
              enemy: Forecast) -> tuple[list[int], str]:
        """The best order of each of our ships, and a sentence why."""
        fields = [sea.approach(_firing_squares(sea, boat, enemy)) for boat in theirs]
        boxed = [sea.is_rock(_ahead(boat.cell, boat.heading)) for boat in ours]
        best: tuple[float, list[int], list[Note]] = (-math.inf, [], [])
        for moves in itertools.product(MOVES, repeat=len(ours)):
            ends = sail_fleet(sea, ours, moves)
            if any(end[2] and not stuck for end, stuck in zip(ends, boxed, strict=True)):
                continue  # a knock on a rock that some other move avoids: never
            friends = {cell: boat for boat, (cell, *_) in zip(ours, ends, strict=True)}
            total, orders, notes = 0.0, [], []
            for boat, move, (cell, heading, knocks, rams), stuck in zip(
                    ours, moves, ends, boxed, strict=True):
                hurt = knocks + rams
                if not stuck and sea.is_rock(_ahead(cell, heading)):
                    total -= DEAD_END
                wear = 1.0 + 0.05 * boat.damage + (1.0 if boat.hull <= 4 else 0.0)
                clash = sum(p for _, p in enemy.occupied.get(cell, ()))
                if cell != boat.cell:
                    clash += enemy.staying.get(_ahead(boat.cell, boat.heading), 0.0)
                distance, chased = min(((float(f[state_id(cell, heading)]), b)
                                        for f, b in zip(fields, theirs, strict=True)),
                                       default=(0.0, None), key=lambda pair: pair[0])
                total -= (SELF_COST * hurt + wear * (enemy.threat.get(cell, 0.0) + clash)
                          + STEP_COST * min(distance, FAR))
                others = {c: b for c, b in friends.items() if b is not boat}
                shots = [volley(sea, cell, heading, side, others, enemy) for side in (0, 1)]
                side = int(shots[1][0] > shots[0][0])
                total += shots[side][0]
                orders.append(move * 2 + side)
                notes.append((shots[side], boat, side, distance, chased))
            total += 1e-6 * float(self._rng.random())
            if total > best[0]:
                best = (total, orders, notes)
        return best[1], _why(best[2])


def _firing_squares(sea: Sea, target: Boat, enemy: Forecast) -> dict[int, float]:
    """The (square, heading) states that fire on ``target``'s square, each with the turns it
    counts as further for what ending there costs: the enemy's forecast fire on it and the
    knock to come of a square with a rock dead ahead (so that where the best firing squares are
    costly, the next best of any enemy ship draws the fleet, and entering one always pays)."""
    states: dict[int, float] = {}
    for direction in range(4):
        for step in range(1, RANGE + 1):
            cell = _ahead(target.cell, direction, step)
            if sea.is_rock(cell):
                break
            fire = enemy.threat.get(cell, 0.0)
            for heading in ((direction + 1) % 4, (direction + 3) % 4):
                dead_end = DEAD_END if sea.is_rock(_ahead(cell, heading)) else 0.0
                states[state_id(cell, heading)] = (fire + dead_end) / STEP_COST
    return states


def _why(notes: Sequence[Note]) -> str:
    """One sentence: the best shot planned, else the enemy ship the fleet closes in on."""
    (worth, target), boat, side, _, _ = max(notes, key=lambda note: note[0][0])
    if target is not None and worth >= 0.8:
        return (f"ship {boat.number + 1} fires {SIDES[side]} at {_name(target)}, the others "
                f"keep clear of rocks and broadsides")
    distance, chased = min(((note[3], note[4]) for note in notes), key=lambda pair: pair[0])
    if chased is None or distance >= FAR:
        return "no enemy within reach: keeping clear of rocks and broadsides"
    return f"closing in on {_name(chased)}, clear of rocks and broadsides"


def _name(boat: Boat) -> str:
    return f"{TEAMS[boat.ship // SHIPS]} {boat.number + 1}"
