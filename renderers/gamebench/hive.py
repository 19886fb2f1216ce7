"""Hive: a hex board image with both reserves, a text view, and the click hit-test.

Click targets are tile names (``wA2``; a tile in a reserve or the top tile of a stack) and
hexes (``(q,r)``, see :mod:`games.gamebench.hive`); a move is a tile, then its destination. The image
re-centres on the hive and shrinks its hexes to fit as the hive grows, down to a size where
letters stay legible; past that the image grows instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pyspiel
from PIL import Image, ImageDraw

from games.actions import LegalMove
from games.gamebench import hive
from games.gamebench.hive import Hex, Position
from renderers.contract import Renderer
from renderers.drawing import centred
from renderers.gamebench.hive_text import text

NARROW = True
"""``image``, ``hit_test`` and ``centres`` take ``narrow=True``: the reserves in a row above
(Black) and below (White) the board instead of beside it, for a phone held upright."""
WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: a spectator's copy, nobody called "you"."""
SIDES = ("White", "Black")
"""Each seat's side as the image draws it (the page says "You ({side})")."""
SHORT = ["White", "Black"]

HEADER = 46
LEGEND = 22
PANEL = 168
BOARD = (624, 654)
"""The board area's smallest size in pixels; the image is 960 x 700 until the hive
outgrows it at the smallest hex size."""
LARGEST, SMALLEST = 46.0, 21.0
COORDINATES_FROM = 28.0
"""Hexes smaller than this (pixels, centre to corner) leave out their (q,r)."""
SLOT, SLOT_ROW, SLOT_STEP = 24.0, 54, 45
ROW_PANEL = 84
"""Height of a reserve drawn as a row (the narrow layout): a title line and one row of tiles."""
NARROW_BOARD = (560, 520)
"""The narrow layout's smallest board area (it grows like the wide one)."""
ROOT3 = math.sqrt(3.0)

BACKGROUND, PANEL_FILL, INK = "#e8ecf0", "#d9dfe6", "#1f2933"
TILE_FILL = {"w": "#f7f0dd", "b": "#2e2e33"}
TILE_EDGE = {"w": "#8c7f5f", "b": "#0b0b0d"}
BUG_INK = {  # (on a white tile, on a black tile)
    "Q": ("#a87400", "#ffcc33"), "S": ("#8b4513", "#f0a868"), "B": ("#6a3d9a", "#cfa8ff"),
    "G": ("#2e7d32", "#85e07a"), "A": ("#1459b3", "#74b9ff"), "M": ("#546270", "#c7d0d9"),
    "L": ("#c62828", "#ff8080"), "P": ("#00808c", "#63e3ea"),
}
SELECTED, TARGET, TARGET_FILL, LAST = "#f2b600", "#1f8a4c", "#bfe6bf", "#e4572e"


# --- layout -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Layout:
    """Where everything is drawn; the image and the hit-test share it."""

    width: int
    height: int
    size: float
    origin: tuple[float, float]
    shown: frozenset[Hex]
    slots: dict[str, tuple[float, float]]
    pass_box: tuple[int, int, int, int] | None
    panels: dict[str, tuple[int, int, int, int]]
    """Each colour's reserve area (x0, y0, x1, y1)."""
    narrow: bool = False

    def centre(self, where: Hex) -> tuple[float, float]:
        q, r = where
        return (self.origin[0] + self.size * ROOT3 * (q + r / 2),
                self.origin[1] + self.size * 1.5 * r)

    def hex_at(self, x: float, y: float) -> Hex:
        px, py = (x - self.origin[0]) / self.size, (y - self.origin[1]) / self.size
        return _round_hex(ROOT3 / 3 * px - py / 3, 2 / 3 * py)


def _round_hex(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def layout(position: Position, tiles: list[str], *, only_pass: bool,
           narrow: bool = False) -> Layout:
    """Fit the hive and the empty hexes around it in the board area, between the reserves
    (beside it, or above and below it when ``narrow``)."""
    shown = frozenset(set(position.stacks) | position.frontier())
    xs = [ROOT3 * (q + r / 2) for q, r in shown]
    ys = [1.5 * r for _, r in shown]
    span_x, span_y = max(xs) - min(xs) + ROOT3 + 0.4, max(ys) - min(ys) + 2.4
    least = NARROW_BOARD if narrow else BOARD
    room_h = least[1] - (0 if narrow else LEGEND)
    size = min(LARGEST, (least[0] - 16) / span_x, (room_h - 16) / span_y)
    size = max(size, SMALLEST)
    most = max(sum(1 for t in tiles if t[0] == c) for c in hive.COLOURS)
    board_w = max(least[0], math.ceil(span_x * size + 16),
                  (40 + most * SLOT_STEP) if narrow else 0)
    room_h = max(room_h, math.ceil(span_y * size + 16))
    if narrow:
        width, height = board_w, HEADER + 2 * ROW_PANEL + room_h + LEGEND
        top, left = HEADER + ROW_PANEL, 0
        panels = {"b": (0, HEADER, width, HEADER + ROW_PANEL),
                  "w": (0, top + room_h, width, top + room_h + ROW_PANEL)}
    else:
        width, height = board_w + 2 * PANEL, HEADER + room_h + LEGEND
        top, left = HEADER, PANEL
        panels = {"w": (0, HEADER, PANEL, height), "b": (width - PANEL, HEADER, width, height)}
    middle_x = left + board_w / 2 - size * (max(xs) + min(xs)) / 2
    middle_y = top + room_h / 2 - size * (max(ys) + min(ys)) / 2
    slots: dict[str, tuple[float, float]] = {}
    for colour in hive.COLOURS:
        x0, y0 = panels[colour][:2]
        own = [t for t in tiles if t[0] == colour]
        rows = list(dict.fromkeys(hive.bug(t) for t in own))
        for i, tile in enumerate(own):
            if narrow:
                slots[tile] = (x0 + 32 + i * SLOT_STEP, y0 + 54)
                continue
            row = rows.index(hive.bug(tile))
            column = int(tile[2]) - 1 if len(tile) > 2 else 0
            slots[tile] = (x0 + 40 + column * SLOT_STEP, HEADER + 58 + row * SLOT_ROW)
    right = width if narrow else width - PANEL
    pass_box = (right - 190, 8, right - 10, HEADER - 8) if only_pass else None
    return Layout(width, height, size, (middle_x, middle_y), shown, slots, pass_box, panels,
                  narrow)


def _hex_corners(x: float, y: float, size: float) -> list[tuple[float, float]]:
    return [(x + size * math.cos(math.radians(60 * k - 30)),
             y + size * math.sin(math.radians(60 * k - 30))) for k in range(6)]


# --- what a state shows --------------------------------------------------------------------

@dataclass(frozen=True)
class Board:
    """A state as the renderer needs it."""

    position: Position
    choices: hive.Choices
    tiles: list[str]
    reserves: dict[str, list[str]]
    layout: Layout


def board(state: pyspiel.State, *, narrow: bool = False) -> Board:
    """What ``state`` shows, and where (remembered for recent states: a click and the
    image after it lay out the same board)."""
    key = (str(state.get_game()), tuple(state.history()), narrow)
    shown = _BOARDS.get(key)
    if shown is None:
        found = hive.choices(state)
        only_pass = not state.is_terminal() and found.only_pass
        tiles = hive.tile_set(dict(state.get_game().get_parameters()))
        shown = board_for(found.position, tiles, found, only_pass=only_pass, narrow=narrow)
        _BOARDS.put(key, shown)
    return shown


_BOARDS: hive.Bounded[tuple[str, tuple[int, ...], bool], Board] = hive.Bounded(64)


def board_for(position: Position, tiles: list[str], found: hive.Choices | None = None, *,
              only_pass: bool = False, narrow: bool = False) -> Board:
    """The board of any position; ``found`` are its legal actions (none by default)."""
    placed = set(position.tiles())
    reserves = {c: [t for t in tiles if t[0] == c and t not in placed] for c in hive.COLOURS}
    found = found if found is not None else hive.Choices(position, {})
    return Board(position, found, tiles, reserves,
                 layout(position, tiles, only_pass=only_pass, narrow=narrow))


def target_centres(state: pyspiel.State, seat: int, *,
                   narrow: bool = False) -> dict[str, tuple[float, float]]:
    """Every click target in the image and the pixel at its centre: reserve tiles, the top
    tiles of the board, the empty hexes next to the hive, and pass when it is shown."""
    view = board(state, narrow=narrow)
    lay = view.layout
    centres = {t: lay.slots[t] for c in hive.COLOURS for t in view.reserves[c]}
    for where in lay.shown:
        top = view.position.top(where)
        centres[top if top else hive.hex_name(where)] = lay.centre(where)
    if lay.pass_box:
        x0, y0, x1, y1 = lay.pass_box
        centres[hive.PASS] = ((x0 + x1) / 2, (y0 + y1) / 2)
    return centres


def centres(state: pyspiel.State, seat: int, *,
            narrow: bool = False) -> dict[str, tuple[float, float]]:
    """The renderer contract's name for :func:`target_centres`."""
    return target_centres(state, seat, narrow=narrow)


def buttons(state: pyspiel.State, seat: int, legal: list[LegalMove]) -> list[LegalMove]:
    """A forced pass also gets a button under the board (the image draws one too), so it
    can be reached from the keyboard."""
    return [move for move in legal if move.path == (hive.PASS,)]


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = (), narrow: bool = False) -> str | None:
    """The target at pixel (x, y): a reserve tile, a tile on the board, a hex, ``pass``.

    With a tile selected, a click on one of its legal destinations names the hex even when
    a tile lies there (a beetle climbing); any other tile names itself (to select it)."""
    view = board(state, narrow=narrow)
    lay = view.layout
    if lay.pass_box:
        x0, y0, x1, y1 = lay.pass_box
        if x0 <= x <= x1 and y0 <= y <= y1:
            return hive.PASS
    for colour in hive.COLOURS:
        for tile in view.reserves[colour]:
            sx, sy = lay.slots[tile]
            if math.hypot(x - sx, y - sy) <= SLOT:
                return tile
    where = lay.hex_at(x, y)
    if where not in lay.shown:
        return None
    if len(selection) == 1 and where in view.choices.targets(selection[0]):
        return hive.hex_name(where)
    return view.position.top(where) or hive.hex_name(where)


# --- the image ------------------------------------------------------------------------------

def image(state: pyspiel.State, seat: int, *, selection: tuple[str, ...] = (),
          targets: tuple[str, ...] | list[str] = (), last: tuple[str, ...] | None = None,
          coordinates: bool = True, narrow: bool = False,
          watcher: bool = False) -> Image.Image:
    """The board as ``seat`` sees it (the whole game is public): the hive in the middle,
    White's reserve on the left, Black's on the right. ``last=None`` marks the last move
    of the state; ``coordinates`` prints each hex's (q,r) when the hexes are big enough;
    ``watcher``: for a spectator, nobody is marked "(you)"."""
    you = -1 if watcher else seat
    heading = (_status(state, you),
               "" if state.is_terminal() else f"move {len(state.history()) + 1}")
    return draw_board(board(state, narrow=narrow), you, heading, selection=selection,
                      targets=targets,
                      last=last, coordinates=coordinates)


def draw_board(view: Board, seat: int, heading: tuple[str, str], *,
               selection: tuple[str, ...] = (), targets: tuple[str, ...] | list[str] = (),
               last: tuple[str, ...] | None = None, coordinates: bool = True) -> Image.Image:
    """Draw ``view`` (any position, not only one a game reached) with ``heading`` (the
    status on the left, a note on the right) above it."""
    lay = view.layout
    picture = Image.new("RGB", (lay.width, lay.height), BACKGROUND)
    draw = ImageDraw.Draw(picture)
    _header(draw, heading, lay)
    _reserves(draw, view, seat, set(selection[:1]), set(targets))
    hexes = {h for h in map(hive.parse_hex, targets) if h is not None}
    moved = _last_move(view.position, last)
    for where in hexes - set(view.position.stacks):
        _hexagon(draw, lay.centre(where), lay.size, TARGET_FILL, TARGET, 3)
    # single tiles first, then stacks, so the tiles under a stack show around its edge
    ordered = sorted(view.position.stacks.items(),
                     key=lambda item: (len(item[1]) > 1, item[0][1], item[0][0]))
    for where, stack in ordered:
        _stack(draw, lay, where, stack, coordinates)
    for where in hexes - set(view.position.stacks):
        if coordinates and lay.size >= COORDINATES_FROM:
            centred(draw, lay.centre(where), hive.hex_name(where), size=int(lay.size * 0.3),
                    fill=TARGET)
    if moved and moved.origin is not None and moved.origin not in hexes:
        # where the last tile came from: a ring, with a dot when the hex is empty now
        x, y = lay.centre(moved.origin)
        _hexagon(draw, (x, y), lay.size - 2, None, LAST, 3)
        if moved.origin not in view.position.stacks:
            radius = lay.size * 0.16
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=LAST)
    if moved:
        _hexagon(draw, lay.centre(moved.target), lay.size - 2, None, LAST, 5)
    for where in hexes & set(view.position.stacks):
        _hexagon(draw, lay.centre(where), lay.size - 3, None, TARGET, 6)
    for tile in set(selection[:1]) | set(targets):
        spot = view.position.where(tile)
        if spot is not None and view.position.top(spot) == tile:
            colour = SELECTED if tile in selection[:1] else TARGET
            _hexagon(draw, lay.centre(spot), lay.size - 3, None, colour, 6)
    for where, stack in ordered:
        if len(stack) > 1:
            _height_badge(draw, lay, where, len(stack))
    return picture


def _header(draw: ImageDraw.ImageDraw, heading: tuple[str, str], lay: Layout) -> None:
    draw.rectangle((0, 0, lay.width, HEADER), fill=PANEL_FILL)
    centred(draw, (14, HEADER / 2), heading[0], size=19, fill=INK, bold=True, anchor="lm")
    centred(draw, (lay.width - 14, HEADER / 2), heading[1], size=16, fill=INK, anchor="rm")
    if lay.pass_box:
        draw.rounded_rectangle(lay.pass_box, radius=8, fill=SELECTED, outline=INK, width=2)
        x0, y0, x1, y1 = lay.pass_box
        centred(draw, ((x0 + x1) / 2, (y0 + y1) / 2), "Pass (no legal move)", size=15,
                fill=INK, bold=True)


def _status(state: pyspiel.State, seat: int) -> str:
    if state.is_terminal():
        white, black = state.returns()
        if white == black:
            return "Game over: a draw"
        winner = 0 if white > black else 1
        return f"Game over: {SHORT[winner]} wins, {SHORT[1 - winner]}'s queen is surrounded"
    player = state.current_player()
    return f"{SHORT[player]} to move" + (" (you)" if player == seat else "")


def _reserves(draw: ImageDraw.ImageDraw, view: Board, seat: int, selected: set[str],
              targets: set[str]) -> None:
    lay = view.layout
    for player, colour in enumerate(hive.COLOURS):
        x0, y0, x1, y1 = lay.panels[colour]
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=PANEL_FILL)
        title = SHORT[player] + (" (you)" if player == seat else "")
        if lay.narrow:
            centred(draw, (x0 + 12, y0 + 16), title, size=16, fill=INK, bold=True, anchor="lm")
        else:
            centred(draw, ((x0 + x1) / 2, y0 + 18), title, size=16, fill=INK, bold=True)
        left_in_reserve = view.reserves[colour]
        for tile in (t for t in view.tiles if t[0] == colour):
            x, y = lay.slots[tile]
            if tile not in left_in_reserve:
                _hexagon(draw, (x, y), SLOT, None, "#b8c0c9", 1)
                continue
            _tile(draw, (x, y), SLOT, tile)
            if tile in selected or tile in targets:
                _hexagon(draw, (x, y), SLOT + 1, None,
                         SELECTED if tile in selected else TARGET, 4)
        count = len(left_in_reserve)
        if lay.narrow:
            centred(draw, (x1 - 12, y0 + 16), f"{count} in reserve", size=14, fill=INK,
                    anchor="rm")
        else:
            centred(draw, ((x0 + x1) / 2, lay.height - LEGEND - 14), f"{count} in reserve",
                    size=14, fill=INK)
    letters = dict.fromkeys(hive.bug(t) for t in view.tiles)
    legend = "   ".join(f"{letter} {hive.BUG_NAMES[letter]}" for letter in letters)
    centred(draw, (lay.width / 2, lay.height - LEGEND / 2), legend, size=13, fill=INK)


def _stack(draw: ImageDraw.ImageDraw, lay: Layout, where: Hex, stack: tuple[str, ...],
           coordinates: bool) -> None:
    x, y = lay.centre(where)
    shift = max(3.0, lay.size * 0.12)
    for depth, tile in enumerate(stack[:-1][-3:]):  # up to three tiles show below the top
        offset = shift * (min(len(stack) - 1, 3) - depth)
        _hexagon(draw, (x + offset, y + offset), lay.size - 2, TILE_FILL[tile[0]],
                 TILE_EDGE[tile[0]], 2)
    _tile(draw, (x, y), lay.size - 2, stack[-1])
    if coordinates and lay.size >= COORDINATES_FROM:
        ink = BUG_INK[hive.bug(stack[-1])][0 if stack[-1][0] == "w" else 1]
        centred(draw, (x, y + lay.size * 0.6), hive.hex_name(where),
                size=int(lay.size * 0.26), fill=ink)


def _height_badge(draw: ImageDraw.ImageDraw, lay: Layout, where: Hex, height: int) -> None:
    x, y = lay.centre(where)
    bx, by = x + lay.size * 0.55, y - lay.size * 0.6
    radius = max(9.0, lay.size * 0.3)
    draw.ellipse((bx - radius, by - radius, bx + radius, by + radius), fill="#ffffff",
                 outline=INK, width=2)
    centred(draw, (bx, by), f"{height}", size=int(radius * 1.35), fill=INK, bold=True)


def _tile(draw: ImageDraw.ImageDraw, xy: tuple[float, float], size: float, tile: str) -> None:
    colour, letter = tile[0], hive.bug(tile)
    _hexagon(draw, xy, size, TILE_FILL[colour], TILE_EDGE[colour], 2)
    ink = BUG_INK[letter][0 if colour == "w" else 1]
    x, y = xy
    ordinal = tile[2:]
    dx = -size * 0.12 if ordinal else 0.0
    centred(draw, (x + dx, y - size * 0.05), letter, size=int(size * 0.95), fill=ink, bold=True)
    if ordinal:
        centred(draw, (x + size * 0.38, y + size * 0.22), ordinal, size=int(size * 0.45),
                fill=ink, bold=True)


def _hexagon(draw: ImageDraw.ImageDraw, xy: tuple[float, float], size: float,
             fill: str | None, outline: str, width: int) -> None:
    draw.polygon(_hex_corners(xy[0], xy[1], size), fill=fill, outline=outline, width=width)


def _last_move(position: Position, last: tuple[str, ...] | None) -> hive.LastMove | None:
    if last is None:
        return position.last
    if len(last) < 2 or last[0] == hive.PASS:
        return None
    target = hive.parse_hex(last[1])
    if target is None:
        return None
    moved = position.last
    origin = moved.origin if moved and moved.tile == last[0] else None
    return hive.LastMove(last[0], origin, target)


__all__ = ["board", "board_for", "buttons", "centres", "draw_board", "hit_test", "image",
           "target_centres", "text"]


RENDERER = Renderer(
    page="board", text=text, image=image, hit_test=hit_test, watcher=WATCHER, narrow=NARROW,
    sides=tuple(SIDES), centres=centres, buttons=buttons,
)
