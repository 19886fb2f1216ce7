"""Sea Battle: the sea with rocks and ships, an order picker for the seat's ships, a text view.

The image shows the 24x24 sea (north at the top), every ship afloat as an arrow in its fleet's
colour pointing where it heads, with its number and a damage bar, and last turn's cannonballs
and wakes. Under it, one row of eight buttons per ship of the seat: the four moves, each
firing left or right. Clicking a button picks that ship's order (``ship 1: forward, shoot
left``, one step of the click path); ships are ordered in turn, ship 1 first, and the ghost
of a picked ship shows where it will sail and where it will fire. Everything on the sea is
public; the image and the text are the same for a person and a model in that seat.
"""

from __future__ import annotations

import pyspiel
from PIL import Image

from games.gamebench import sea_battle_rules as rules
from games.gamebench.sea_battle_rules import (
    HEADING_NAMES,
    HEADINGS,
    HULL,
    MOVES,
    SHIPS,
    SIZE,
    TEAMS,
    Cell,
    Order,
    SeaBattleState,
    Ship,
)
from games.gamebench.sea_battle_rules import SIDES as FIRE_SIDES
from renderers.contract import Renderer
from renderers.drawing import (
    HEADER_HEIGHT,
    INK,
    MUTED,
    PLAYER,
    PLAYER_LIGHT,
    RULE,
    SELECTED,
    TARGET,
    Canvas,
    Colour,
    Grid,
    header,
    verdict,
    winner,
)

CELL = 20
GRID = Grid(SIZE, SIZE, CELL, 30, HEADER_HEIGHT + 10)
WIDTH = GRID.right + 18
STATUS_Y = GRID.bottom + 26
PICKER_TOP = STATUS_Y + 26
ROW = 100
"""Height of one ship's row of the picker."""
BUTTON_W, BUTTON_H, BUTTON_GAP = 96, 40, 6
BUTTONS_LEFT = WIDTH - 14 - 4 * BUTTON_W - 3 * BUTTON_GAP
HEIGHT = PICKER_TOP + SHIPS * ROW + 8

SEA: Colour = (196, 223, 240)
SEA_LINE: Colour = (176, 206, 228)
ROCK: Colour = (96, 92, 86)
ROCK_EDGE: Colour = (64, 60, 56)
SHOT: Colour = (230, 90, 20)
"""Planned fire (a picked order) and the picker's fire labels."""
OLD_SHOT: Colour = (236, 150, 120)
"""Last turn's cannonballs, paler than what is being planned."""
WAKE: Colour = (245, 250, 255)
BUTTON: Colour = (255, 255, 255)
ARROWS = {"left": "↰", "forward": "↑", "right": "↱", "stay": "■"}


SIDES = TEAMS

WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the side
named, never "you")."""
"""How the page names each seat's side (the fleet's colour, as the board does); ``left`` and
``right`` are firing directions, never a side."""


OFF_TARGET = "The sea is not a move: give each ship an order with the buttons under it."
"""The notice for a click off every target (the page's, instead of "click a square")."""


def seat_label(seat: int) -> str:
    return TEAMS[seat]


def selected(path: tuple[str, ...], options: tuple[str, ...]) -> str:
    """The notice once some ships have their orders: which ship's order comes next."""
    upcoming = options[0].split(":")[0] if options else "the next ship"
    return (f"{'; '.join(path)}. Now pick {upcoming}'s order with its buttons (click a "
            "picked order again to change it).")


def target(number: int, order: Order) -> str:
    """The click target (and label part) of one ship's order."""
    return f"ship {number}: {order.text()}"


def button_box(number: int, order: Order) -> tuple[float, float, float, float]:
    x0 = BUTTONS_LEFT + order.move * (BUTTON_W + BUTTON_GAP)
    y0 = PICKER_TOP + (number - 1) * ROW + 8 + order.side * (BUTTON_H + BUTTON_GAP)
    return (x0, y0, x0 + BUTTON_W, y0 + BUTTON_H)


def _orders() -> list[Order]:
    return [Order(move, side) for side in range(2) for move in range(4)]


def centres(state: pyspiel.State, seat: int) -> dict[str, tuple[float, float]]:
    """Every order button of the seat's ships afloat, at its centre: the inverse of
    :func:`hit_test`."""
    assert isinstance(state, SeaBattleState)
    found = {}
    for ship in state.fleet(seat):
        if ship.afloat:
            for order in _orders():
                x0, y0, x1, y1 = button_box(ship.number, order)
                found[target(ship.number, order)] = ((x0 + x1) / 2, (y0 + y1) / 2)
    return found


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = ()) -> str | None:
    """The order button at (x, y), or None (the sea itself is not a move)."""
    assert isinstance(state, SeaBattleState)
    for ship in state.fleet(seat):
        if not ship.afloat:
            continue
        for order in _orders():
            x0, y0, x1, y1 = button_box(ship.number, order)
            if x0 <= x < x1 and y0 <= y < y1:
                return target(ship.number, order)
    return None


def cell_centre(cell: Cell) -> tuple[float, float]:
    x, y = cell
    return GRID.centre(x, SIZE - 1 - y)


# --- the image -----------------------------------------------------------------------------

def image(state: pyspiel.State, seat: int, *, selection: tuple[str, ...] = (),
          targets: tuple[str, ...] | list[str] = (),
          last: tuple[str, ...] | None = None, watcher: bool = False) -> Image.Image:
    """The sea and the seat's order picker. ``selection`` holds the orders picked so far
    (drawn as ghosts on the sea), ``targets`` the buttons that may come next; for a
    ``watcher``, the seat's side is named, never "you"."""
    assert isinstance(state, SeaBattleState)
    canvas = Canvas(WIDTH, HEIGHT)
    title = f"Sea Battle · {TEAMS[seat]}'s view" if watcher else \
        f"Sea Battle · you are {TEAMS[seat]}"
    header(canvas, title, _status(state, seat, watcher), colour=PLAYER[seat])
    _sea(canvas, state)
    _last_turn(canvas, state)
    picked = _picked(state, seat, selection)
    for ship in state.ships:
        if ship.afloat:
            _ship(canvas, ship, seat)
    for number, order in picked.items():
        _ghost(canvas, state, state.fleet(seat)[number - 1], order)
    _standing(canvas, state, seat, watcher)
    _picker(canvas, state, seat, picked, set(targets))
    return canvas.finish()


def _status(state: SeaBattleState, seat: int, watcher: bool = False) -> str:
    if state.is_terminal():
        how = "a fleet sank" if state.ended_by() == "fleet sunk" else "turn limit"
        said = winner(state.returns(), TEAMS) if watcher else verdict(state.returns(), seat)
        return f"{said} · {how}"
    orders = "both fleets give orders" if watcher else "give your orders"
    return f"Turn {state.turn + 1} of {state.get_game().max_turns}: {orders}"


def _picked(state: SeaBattleState, seat: int, selection: tuple[str, ...]) -> dict[int, Order]:
    picked = {}
    for part in selection:
        for ship in state.fleet(seat):
            for order in _orders():
                if part == target(ship.number, order):
                    picked[ship.number] = order
    return picked


def _sea(canvas: Canvas, state: SeaBattleState) -> None:
    game = state.get_game()
    canvas.rect((GRID.left, GRID.top, GRID.right, GRID.bottom), fill=SEA)
    for i in range(SIZE + 1):
        canvas.line([(GRID.left + i * CELL, GRID.top), (GRID.left + i * CELL, GRID.bottom)],
                    fill=SEA_LINE)
        canvas.line([(GRID.left, GRID.top + i * CELL), (GRID.right, GRID.top + i * CELL)],
                    fill=SEA_LINE)
    for x in range(SIZE):
        for y in range(SIZE):
            if game.is_rock((x, y)):
                x0, y0, x1, y1 = GRID.box(x, SIZE - 1 - y)
                inner = not rules.is_border((x, y))
                canvas.rect((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=ROCK,
                            outline=ROCK_EDGE if inner else None, width=1.5,
                            radius=6 if inner else 0)
    for i in range(0, SIZE, 2):
        cx, _ = GRID.centre(i, 0)
        canvas.text((cx, GRID.bottom + 4), str(i), size=11, fill=MUTED, anchor="mt")
        _, cy = GRID.centre(0, SIZE - 1 - i)
        canvas.text((GRID.left - 5, cy), str(i), size=11, fill=MUTED, anchor="rm")
    canvas.text((GRID.right + 4, GRID.top + 2), "N", size=13, bold=True, fill=INK)


def _arrow(heading: int, centre: tuple[float, float], size: float) -> list[tuple[float, float]]:
    dx, dy = HEADINGS[heading]
    fx, fy = dx, -dy  # screen y grows downwards
    px, py = -fy, fx
    cx, cy = centre
    tip = (cx + fx * size, cy + fy * size)
    back = (cx - fx * size * 0.8, cy - fy * size * 0.8)
    return [tip, (back[0] + px * size * 0.75, back[1] + py * size * 0.75),
            (cx - fx * size * 0.35, cy - fy * size * 0.35),
            (back[0] - px * size * 0.75, back[1] - py * size * 0.75)]


def _ship(canvas: Canvas, ship: Ship, seat: int) -> None:
    cx, cy = cell_centre(ship.cell)
    colour = PLAYER[ship.seat]
    canvas.polygon(_arrow(ship.heading, (cx, cy), CELL * 0.62), fill=colour, outline=INK)
    canvas.text((cx, cy), str(ship.number), size=11, bold=True, fill=(255, 255, 255),
                anchor="mm")
    x0, y0, x1, _ = GRID.box(*_grid_xy(ship.cell))
    left = HULL - ship.damage
    canvas.rect((x0 + 1, y0 - 5, x1 - 1, y0 - 1), fill=(255, 255, 255), outline=INK, width=0.5)
    canvas.rect((x0 + 1, y0 - 5, x0 + 1 + (x1 - x0 - 2) * left / HULL, y0 - 1),
                fill=(46, 160, 67) if left > 5 else (242, 180, 0) if left > 2 else (200, 45, 60))


def _grid_xy(cell: Cell) -> tuple[int, int]:
    return (cell[0], SIZE - 1 - cell[1])


def _last_turn(canvas: Canvas, state: SeaBattleState) -> None:
    """Last turn's wakes (where each ship came from) and cannonballs (to a splash or a hit)."""
    if not state.turns:
        return
    log = state.turns[-1]
    for index, start in log.moved_from.items():
        ship = state.ships[index]
        if ship.afloat and ship.cell != start:
            canvas.line([cell_centre(start), cell_centre(ship.cell)], fill=WAKE, width=3)
    for shot in log.shots:
        begin = cell_centre(state.ships[shot.ship].cell)
        end = cell_centre(shot.path[-1])
        canvas.line([begin, end], fill=OLD_SHOT, width=1.5)
        if shot.hit is not None:
            canvas.circle(end, CELL * 0.55, outline=OLD_SHOT, width=2.5)
        else:
            canvas.circle(end, 2.5, fill=OLD_SHOT)
    for index in log.sunk:  # a wreck mark where a ship went down
        x0, y0, x1, y1 = GRID.box(*_grid_xy(state.ships[index].cell))
        canvas.line([(x0 + 4, y0 + 4), (x1 - 4, y1 - 4)], fill=PLAYER[state.ships[index].seat],
                    width=3)
        canvas.line([(x0 + 4, y1 - 4), (x1 - 4, y0 + 4)], fill=PLAYER[state.ships[index].seat],
                    width=3)


def _ghost(canvas: Canvas, state: SeaBattleState, ship: Ship, order: Order) -> None:
    """Where a picked order takes the ship if nothing else moves, and where it fires."""
    cells = [ship.cell]
    heading, cell = ship.heading, ship.cell
    game = state.get_game()
    steps = [] if order.move == 3 else [heading]
    if order.move in (0, 2):
        steps.append((heading + (3 if order.move == 0 else 1)) % 4)
    for heading_now in steps:
        dx, dy = HEADINGS[heading_now]
        ahead = (cell[0] + dx, cell[1] + dy)
        if not game.is_rock(ahead):
            cell = ahead
        heading = heading_now
        cells.append(cell)
    canvas.line([cell_centre(c) for c in cells], fill=SELECTED, width=3)
    canvas.polygon(_arrow(heading, cell_centre(cell), CELL * 0.55),
                   fill=PLAYER_LIGHT[ship.seat], outline=INK)
    side = (heading + (3 if order.side == 0 else 1)) % 4
    dx, dy = HEADINGS[side]
    shot = cell
    for _ in range(rules.RANGE):
        ahead = (shot[0] + dx, shot[1] + dy)
        if game.is_rock(ahead):
            break
        shot = ahead
    if shot != cell:
        canvas.line([cell_centre(cell), cell_centre(shot)], fill=SHOT, width=3)
        canvas.circle(cell_centre(shot), 5, fill=SHOT)


def _standing(canvas: Canvas, state: SeaBattleState, seat: int, watcher: bool) -> None:
    parts = []
    for s in (seat, 1 - seat):
        name = f"{TEAMS[s]} (you)" if s == seat and not watcher else TEAMS[s]
        parts.append(f"{name}: {len(state.afloat(s))} ships, hull {state.hull(s)}")
    canvas.text((14, STATUS_Y), "   ·   ".join(parts), size=14, bold=True, fill=INK,
                anchor="lm")


def _picker(canvas: Canvas, state: SeaBattleState, seat: int, picked: dict[int, Order],
            targets: set[str]) -> None:
    acting = not state.is_terminal()
    first_open = next((s.number for s in state.afloat(seat) if s.number not in picked), None)
    for ship in state.fleet(seat):
        top = PICKER_TOP + (ship.number - 1) * ROW
        canvas.rect((8, top + 2, WIDTH - 8, top + ROW - 4), fill=(255, 255, 255)
                    if ship.afloat else (233, 236, 239), outline=RULE, radius=8)
        colour = PLAYER[seat] if ship.afloat else MUTED
        canvas.text((16, top + 10), f"{TEAMS[seat]} {ship.number}", size=16, bold=True,
                    fill=colour)
        if not ship.afloat:
            canvas.text((16, top + 38), "sunk: no orders", size=14, fill=MUTED)
            continue
        canvas.text((16, top + 32), f"({ship.x}, {ship.y}) {HEADING_NAMES[ship.heading]}",
                    size=12, fill=INK)
        canvas.text((16, top + 50), f"damage {ship.damage}/{HULL}", size=12, fill=INK)
        order = picked.get(ship.number)
        note = ("order given ✓" if order else
                "pick one →" if acting and ship.number == first_open else "")
        canvas.text((16, top + 72), note, size=12, bold=True,
                    fill=(46, 120, 67) if order else SHOT)
        for choice in _orders():
            _button(canvas, ship.number, choice, chosen=order == choice,
                    lit=target(ship.number, choice) in targets
                    or (acting and ship.number == first_open and not targets))


def _button(canvas: Canvas, number: int, order: Order, *, chosen: bool, lit: bool) -> None:
    box = button_box(number, order)
    x0, y0, x1, y1 = box
    fill = SELECTED if chosen else BUTTON
    canvas.rect(box, fill=fill, outline=TARGET if lit else RULE, width=2.5 if lit else 1,
                radius=7)
    move = MOVES[order.move]
    canvas.text(((x0 + x1) / 2, y0 + 13), f"{ARROWS[move]} {move}", size=14, bold=True,
                fill=INK, anchor="mm")
    fire = "◀ fire left" if order.side == 0 else "fire right ▶"
    canvas.text(((x0 + x1) / 2, y0 + 29), fire, size=12, fill=SHOT, anchor="mm")


# --- the text view ---------------------------------------------------------------------------

def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    """The seat's fleet, the enemy, every rock square, the map, last turn, whose move (for
    a ``watcher``, the seat's side named, never "you")."""
    assert isinstance(state, SeaBattleState)
    game = state.get_game()
    enemy = 1 - seat
    if watcher:
        lines = [f"{TEAMS[seat]}'s view: {TEAMS[seat]} commands {TEAMS[seat]} ships 1, 2 and "
                 f"3; {TEAMS[enemy]} commands the others."]
    else:
        lines = [f"You are {TEAMS[seat]}: you command {TEAMS[seat]} ships 1, 2 and 3; "
                 f"{TEAMS[enemy]} commands the others."]
    if state.is_terminal():
        how = ("a fleet was sunk" if state.ended_by() == "fleet sunk"
               else f"the turn limit ({game.max_turns}) was reached")
        said = winner(state.returns(), TEAMS) if watcher else verdict(state.returns(), seat)
        lines.append(f"Game over after {state.turn} turns, {how}: {said.lower()}.")
    elif watcher:
        lines.append(f"Turn {state.turn + 1} of {game.max_turns}: both fleets give one order "
                     "to each of their ships afloat, at the same time.")
    else:
        lines.append(f"Turn {state.turn + 1} of {game.max_turns}. Your turn: give one order "
                     "to each of your ships afloat (both fleets order at the same time).")
    lines.append("Coordinates (x, y): x 0-23 from west to east, y 0-23 from south to north; "
                 "north is y+1.")
    inner = ", ".join(f"({x}, {y})" for x, y in sorted(game.rocks))
    lines.append(f"Rocks: every border square (x = 0, x = 23, y = 0 or y = 23) and the "
                 f"{len(game.rocks)} inner rocks at {inner or 'none'}.")
    mine = f"{TEAMS[seat]} ships" if watcher else "Your ships"
    for s, title in ((seat, mine), (enemy, f"{TEAMS[enemy]} ships")):
        lines.append(f"{title}:")
        lines += [f"  {_ship_line(ship)}" for ship in state.fleet(s)]
    lines.append("Map, north at the top (# rock, . water, R1-R3 Red ships, B1-B3 Blue ships):")
    lines += rules.sea_map(state)
    if state.turns:
        lines.append(f"Last turn: {_turn_text(state, state.turns[-1])}")
    return "\n".join(lines)


def _ship_line(ship: Ship) -> str:
    if not ship.afloat:
        return f"{ship.name}: sunk"
    left, right = (HEADING_NAMES[ship.side(side)] for side in (0, 1))
    return (f"{ship.name} at ({ship.x}, {ship.y}) facing {HEADING_NAMES[ship.heading]} "
            f"(its left is {left}, its right {right}), damage {ship.damage} of {HULL}")


def _turn_text(state: SeaBattleState, log: rules.TurnLog) -> str:
    parts = [f"{state.ships[i].name}: {order.text()}" for i, order in sorted(log.orders.items())]
    events = []
    for ship, amount, cause in log.damage:
        name = state.ships[ship].name
        if cause == "rock":
            events.append(f"{name} struck a rock ({amount} damage)")
        elif cause == "ram":
            events.append(f"{name} collided with a ship ({amount} damage)")
        else:
            events.append(f"{cause} hit {name} ({amount} damage)")
    events += [f"{state.ships[i].name} sank" for i in log.sunk]
    return "; ".join(parts) + ". " + ("; ".join(events) + "." if events else "No damage.")


def legal_summary(state: pyspiel.State, seat: int, labels: list[str]) -> str:
    """The legal moves in a few lines (a whole turn has up to 512 combinations)."""
    assert isinstance(state, SeaBattleState)
    ships = [f"ship {s.number}" for s in state.afloat(seat)]
    examples = list(dict.fromkeys([labels[0], labels[len(labels) // 3],
                                   labels[2 * len(labels) // 3], labels[-1]]))
    return (f"Your move is one order for each of {', '.join(ships)} ({len(labels)} "
            f"combinations): a move ({', '.join(MOVES)}) and a side to fire to "
            f"({' or '.join(FIRE_SIDES)}), all in one line, ship by ship, as in these "
            f"{len(examples)} examples:\n" + "\n".join(examples))


RENDERER = Renderer(
    page="board", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    sides=tuple(SIDES), off_target=OFF_TARGET, centres=centres, selected=selected,
    legal_summary=legal_summary, seat_label=seat_label,
)
