"""Sea Battle (GameBench's grid game, not Battleship) as an OpenSpiel simultaneous game.

Two seats, Red (seat 0) and Blue (seat 1), each command three ships on a 24x24 sea whose
border is rock, with ``inner_rocks`` more rocks inside. Ship places, headings and the inner
rocks come from ``layout_seed`` (the match seed when it is -1), so a replay sees the same sea.
Coordinates are (x, y): x 0-23 from west to east, y 0-23 from south to north.

Each turn both seats give, at once, one order to each of their ships afloat: a move (left,
forward, right or stay) and a side to fire to (left or right). ``forward`` sails one square
ahead; ``left``/``right`` sail one square ahead, turn 90 degrees that way, and sail one more
square. The turn is played out in this order:

1. Every moving ship sails one square ahead, all at once.
2. Ships ordered left or right turn (also when their first square was blocked).
3. Those ships sail one more square ahead, all at once.
4. Every ship afloat fires one cannonball to the chosen side, all at once: it flies up to 3
   squares, stops at the first rock (no damage) or hits the first ship (2 damage, friend or
   foe).

In a sailing step a ship does not move if the square ahead is a rock (1 damage) or if it
would end in the same square as another ship, swap squares with one, or sail into a ship that
stays where it is; every ship in such a collision takes 1 ramming damage (at most 1 per ship
per step). A ship sinks the moment it has 10 damage: it leaves the sea and takes no further
part. A seat whose ships are all sunk loses; if both fleets sink in the same turn it is a
draw. After ``max_turns`` turns the seat with more ships afloat wins, then the one with more
hull left (10 minus damage, summed over ships afloat); otherwise it is a draw.

A seat's joint action is one id: ``o1 * 81 + o2 * 9 + o3`` with ``o = move * 2 + side``
(move 0-3: left, forward, right, stay; side 0-1: left, right) for a ship afloat, and
``o = 8`` (no order) for a sunk ship, which is the only digit a sunk ship allows.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from games.gamebench.sea_battle_fleet import (
    CANNON,
    DEFAULTS,
    HEADING_NAMES,
    HEADINGS,
    HULL,
    MAX_INNER_ROCKS,
    MAX_TURNS,
    MOVES,
    NO_ORDER,
    NUM_ACTIONS,
    RAM,
    RANGE,
    ROCK,
    SHIPS,
    SIDES,
    SIZE,
    TEAMS,
    Cell,
    Order,
    Ship,
    Shot,
    TurnLog,
    digits,
    is_border,
    joint,
    layout,
    legal_joints,
    order_of,
    parse_rocks,
)

__all__ = ["CANNON", "HEADING_NAMES", "HEADINGS", "HULL", "MOVES", "NO_ORDER", "RAM", "RANGE",
           "ROCK", "SHIPS", "SIDES", "SIZE", "TEAMS", "Cell", "Order", "SeaBattleGame",
           "SeaBattleState", "Ship", "Shot", "TurnLog", "digits", "is_border", "joint",
           "order_of", "sea_map", "sea_string"]

_GAME_TYPE = pyspiel.GameType(
    short_name="python_sea_battle",
    long_name="Python Sea Battle (GameBench)",
    dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=DEFAULTS,
)


class SeaBattleGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        chosen = {**DEFAULTS, **(params or {})}
        self.max_turns = int(chosen["max_turns"])
        if not 1 <= self.max_turns <= MAX_TURNS:
            raise ValueError(f"max_turns must be between 1 and {MAX_TURNS}, got {self.max_turns}")
        inner = int(chosen["inner_rocks"])
        if not 0 <= inner <= MAX_INNER_ROCKS:
            raise ValueError(f"inner_rocks must be between 0 and {MAX_INNER_ROCKS}, got {inner}")
        self.start, self.rocks = layout(int(chosen["layout_seed"]), inner)
        written = str(chosen["rocks"]).strip()
        if written:
            self.rocks = parse_rocks(written)
            chosen["rocks"] = "; ".join(f"{x} {y}" for x, y in sorted(self.rocks))
        super().__init__(_GAME_TYPE, pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=0, num_players=2,
            min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
            max_game_length=2 * self.max_turns), chosen)

    def new_initial_state(self) -> SeaBattleState:
        return SeaBattleState(self)

    def is_rock(self, cell: Cell) -> bool:
        return is_border(cell) or cell in self.rocks

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Any:
        if iig_obs_type is None or not iig_obs_type.perfect_recall:
            return SeaObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class SeaBattleState(pyspiel.State):
    def __init__(self, game: SeaBattleGame) -> None:
        super().__init__(game)
        self.ships = [Ship(i // SHIPS, i % SHIPS + 1, x, y, heading)
                      for i, ((x, y), heading) in enumerate(game.start)]
        self.turns: list[TurnLog] = []
        self._text: str | None = None

    def set_position(self, ships: dict[str, tuple[int, int, str, int] | None]) -> None:
        """Place ships by name (``"R1"``...``"B3"``): ``(x, y, heading, damage)``, or None for
        a sunk ship; ships not named keep their place. For tests and puzzles; a position that
        is not possible changes nothing."""
        placed = [Ship(s.seat, s.number, s.x, s.y, s.heading, s.damage) for s in self.ships]
        for name, where in ships.items():
            ship = placed["RB".index(name[0].upper()) * SHIPS + int(name[1]) - 1]
            if where is None:
                ship.damage = HULL
                continue
            x, y, heading, damage = where
            if self.get_game().is_rock((x, y)) or not 0 <= damage < HULL:
                raise ValueError(f"{name} cannot be at ({x}, {y}) with damage {damage}")
            ship.x, ship.y, ship.heading, ship.damage = x, y, HEADING_NAMES.index(heading), damage
        cells = [ship.cell for ship in placed if ship.afloat]
        if len(set(cells)) != len(cells):
            raise ValueError("two ships afloat on one square")
        self.ships = placed
        self._text = None

    # --- reading ----------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """Turns played so far."""
        return len(self.turns)

    def fleet(self, seat: int) -> list[Ship]:
        return self.ships[seat * SHIPS:(seat + 1) * SHIPS]

    def afloat(self, seat: int) -> list[Ship]:
        return [ship for ship in self.fleet(seat) if ship.afloat]

    def hull(self, seat: int) -> int:
        return sum(HULL - ship.damage for ship in self.afloat(seat))

    def ship_at(self, cell: Cell) -> int | None:
        for index, ship in enumerate(self.ships):
            if ship.afloat and ship.cell == cell:
                return index
        return None

    def orders(self, seat: int, action: int) -> list[tuple[int, Order]]:
        """(ship number, order) of each ship afloat in a joint action of ``seat``."""
        found = []
        for number, digit in enumerate(digits(action), 1):
            order = order_of(digit)
            if order is not None:
                found.append((number, order))
        return found

    def label(self, seat: int, action: int) -> str:
        """``ship 1: forward, shoot left; ship 3: stay, shoot right``."""
        return "; ".join(f"ship {n}: {o.text()}" for n, o in self.orders(seat, action))

    def winner(self) -> int | None:
        """The winning seat of a finished game (None: a draw or not over)."""
        if not self.is_terminal():
            return None
        returns = self.returns()
        return None if returns[0] == returns[1] else int(returns[1] > returns[0])

    def ended_by(self) -> str:
        """``fleet sunk``, ``turn cap`` or '' while the game runs."""
        if not self.is_terminal():
            return ""
        return "fleet sunk" if not self.afloat(0) or not self.afloat(1) else "turn cap"

    # --- OpenSpiel hooks --------------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.SIMULTANEOUS

    def is_terminal(self) -> bool:
        return (not self.afloat(0) or not self.afloat(1)
                or self.turn >= self.get_game().max_turns)

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal():
            return []
        fleet = tuple(ship.afloat for ship in self.fleet(player))
        return list(legal_joints(fleet))

    def _apply_actions(self, actions: Sequence[int]) -> None:
        orders: dict[int, Order] = {}
        for seat, action in enumerate(actions):
            for k, digit in enumerate(digits(int(action))):
                order = order_of(digit)
                if order is not None and self.ships[seat * SHIPS + k].afloat:
                    orders[seat * SHIPS + k] = order
        log = TurnLog(orders, moved_from={i: self.ships[i].cell for i in orders})
        self._sail([i for i, o in orders.items() if o.move != 3], log, rams_hurt=True)
        for i, order in orders.items():
            if order.move in (0, 2) and self.ships[i].afloat:
                self.ships[i].heading = (self.ships[i].heading + (3 if order.move == 0 else 1)) % 4
        self._sail([i for i, o in orders.items() if o.move in (0, 2)], log, rams_hurt=False)
        self._fire(orders, log)
        self.turns.append(log)
        self._text = None

    def _sail(self, movers: Iterable[int], log: TurnLog, *, rams_hurt: bool) -> None:
        """One sailing step of ``movers`` (those still afloat), collisions resolved. A rock
        always hurts; a collision with a ship hurts only when ``rams_hurt``: GameBench's rule
        (its only source, ``sea_battle.py``'s ``move_ships``) is that a ship blocked by
        another on the second square of its move "will not move, but sustain no damage"."""
        game = self.get_game()
        moving = [i for i in movers if self.ships[i].afloat]
        target = {i: self.ships[i].ahead() for i in moving}
        blocked = {i for i in moving if game.is_rock(target[i])}
        hurt: dict[int, list[str]] = defaultdict(list)
        for i in blocked:
            hurt[i].append("rock")
        rammed: set[int] = set()
        afloat = [i for i, ship in enumerate(self.ships) if ship.afloat]
        changed = True
        while changed:
            changed = False
            end = {i: target[i] if i in target and i not in blocked else self.ships[i].cell
                   for i in afloat}
            by_cell: dict[Cell, list[int]] = defaultdict(list)
            for i, cell in end.items():
                by_cell[cell].append(i)
            clashes = [group for group in by_cell.values() if len(group) > 1]
            clashes += [[i, j] for i, j in itertools.combinations(moving, 2)
                        if i not in blocked and j not in blocked
                        and target[i] == self.ships[j].cell and target[j] == self.ships[i].cell]
            for group in clashes:
                for i in group:
                    rammed.add(i)
                    if i in target and i not in blocked:
                        blocked.add(i)
                        changed = True
        for i in moving:
            if i not in blocked:
                self.ships[i].x, self.ships[i].y = target[i]
        for i in rammed if rams_hurt else ():
            hurt[i].append("ram")
        for i, causes in sorted(hurt.items()):
            for cause in causes:
                self._hurt(i, ROCK if cause == "rock" else RAM, cause, log)

    def _fire(self, orders: dict[int, Order], log: TurnLog) -> None:
        game = self.get_game()
        hits = []
        for i, order in sorted(orders.items()):
            ship = self.ships[i]
            if not ship.afloat:
                continue
            dx, dy = HEADINGS[ship.side(order.side)]
            path: list[Cell] = []
            hit, rock = None, False
            for step in range(1, RANGE + 1):
                cell = (ship.x + dx * step, ship.y + dy * step)
                path.append(cell)
                if game.is_rock(cell):
                    rock = True
                    break
                hit = self.ship_at(cell)
                if hit is not None:
                    break
            log.shots.append(Shot(i, tuple(path), hit, rock))
            if hit is not None:
                hits.append((hit, ship.name))
        for target, source in hits:
            self._hurt(target, CANNON, source, log)

    def _hurt(self, ship: int, amount: int, cause: str, log: TurnLog) -> None:
        if not self.ships[ship].afloat:
            return
        self.ships[ship].damage += amount
        log.damage.append((ship, amount, cause))
        if not self.ships[ship].afloat:
            log.sunk.append(ship)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.label(player, action)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        counts = [len(self.afloat(0)), len(self.afloat(1))]
        key = [(counts[s], self.hull(s)) for s in (0, 1)]
        if key[0] == key[1]:
            return [0.0, 0.0]
        return [1.0, -1.0] if key[0] > key[1] else [-1.0, 1.0]

    def __str__(self) -> str:
        """The turn and every ship (the sea's rocks are the game's): short, since the
        legal-action adapter keys its cache on it."""
        if self._text is None:
            ships = " ".join(f"{s.x},{s.y},{s.heading},{s.damage}" for s in self.ships)
            self._text = f"turn {self.turn}: {ships}"
        return self._text


def sea_string(state: SeaBattleState) -> str:
    """The turn, every ship afloat (square, heading, damage) and the map, for debugging and
    observations (everything here is public)."""
    lines = [f"turn {state.turn} of {state.get_game().max_turns}"]
    for ship in state.ships:
        where = (f"({ship.x}, {ship.y}) facing {HEADING_NAMES[ship.heading]}, damage "
                 f"{ship.damage}" if ship.afloat else "sunk")
        lines.append(f"{ship.name}: {where}")
    return "\n".join(lines + sea_map(state))


def sea_map(state: SeaBattleState) -> list[str]:
    """Rows from north (y=23) to south, three characters a square: ``#`` rock, ``.`` water,
    ``R1``-``R3`` and ``B1``-``B3`` ships; x numbers under the last row."""
    game = state.get_game()
    ships = {ship.cell: ship for ship in state.ships if ship.afloat}
    rows = []
    for y in reversed(range(SIZE)):
        cells = []
        for x in range(SIZE):
            ship = ships.get((x, y))
            if ship is not None:
                cells.append(f" {TEAMS[ship.seat][0]}{ship.number}")
            else:
                cells.append("  #" if game.is_rock((x, y)) else "  .")
        rows.append(f"{y:>2} " + "".join(cells))
    rows.append("   " + "".join(f"{x:>3}" for x in range(SIZE)))
    return rows


class SeaObserver:
    """The public board as a string (no tensor)."""

    def __init__(self, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SeaBattleState, player: int) -> None:
        pass

    def string_from(self, state: SeaBattleState, player: int) -> str:
        return sea_string(state)


pyspiel.register_game(_GAME_TYPE, SeaBattleGame)
