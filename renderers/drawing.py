"""Shared drawing for the board and table images: fonts, colours, a canvas and a grid.

Shapes are drawn at twice their size and reduced, which gives smooth discs and lines without
per-shape anti-aliasing; text is drawn last, on top, at the final size (FreeType already
anti-aliases it, and rendering glyphs at 2x would cost four times as much). All coordinates
given to :class:`Canvas` are in the final image's pixels, so a renderer's ``hit_test``
reads the same numbers it drew with.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

SCALE = 2
"""Shapes are drawn at SCALE × the final size, then reduced (box filter)."""

Colour = tuple[int, int, int]
Box = tuple[float, float, float, float]

# --- colours ------------------------------------------------------------------------------

PAPER: Colour = (250, 248, 243)
INK: Colour = (33, 37, 41)
MUTED: Colour = (108, 117, 125)
RULE: Colour = (206, 212, 218)
HEADER: Colour = (52, 58, 64)
HEADER_INK: Colour = (248, 249, 250)
BOARD: Colour = (238, 226, 200)
BOARD_DARK: Colour = (205, 185, 150)
GRID_BLUE: Colour = (38, 84, 166)
FELT: Colour = (34, 110, 74)
FELT_DARK: Colour = (24, 82, 55)
CARD: Colour = (255, 255, 255)
CARD_BACK: Colour = (150, 40, 52)
PLAYER: tuple[Colour, Colour] = ((200, 45, 60), (30, 100, 200))
"""Seat 0 red, seat 1 blue, everywhere."""
SEAT_COLOURS = ("red", "blue")
"""The names of PLAYER's colours, the sides of the table games (``renderer.SIDES``)."""
PLAYER_LIGHT: tuple[Colour, Colour] = ((246, 205, 208), (200, 220, 246))
GOLD: Colour = (242, 180, 0)
SELECTED: Colour = (255, 214, 64)
TARGET: Colour = (46, 160, 67)
LAST: Colour = (255, 140, 0)
GOOD: Colour = (46, 160, 67)
BAD: Colour = (200, 45, 60)

# --- fonts --------------------------------------------------------------------------------

_FONT_FILES = {
    False: ("DejaVuSans.ttf", "LiberationSans-Regular.ttf"),
    True: ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf"),
}
_FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/truetype/liberation"),
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/share/fonts/TTF"),
)


@functools.cache
def font(size: int, *, bold: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A sans-serif font of ``size`` pixels: DejaVu or Liberation when the system has them,
    else Pillow's built-in scalable font (so a bare Debian image or a Space works)."""
    for name in _FONT_FILES[bold]:
        for folder in _FONT_DIRS:
            path = folder / name
            if path.is_file():
                return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)


def centred(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, *, size: int,
            fill: Colour | str, bold: bool = False, anchor: str = "mm") -> None:
    """Draw ``text`` straight onto ``draw`` centred on ``xy`` (or at another Pillow
    ``anchor``), in :func:`font` of ``size`` pixels (at least 8)."""
    draw.text(xy, text, font=font(max(8, int(size)), bold=bold), fill=fill, anchor=anchor)


# --- canvas -------------------------------------------------------------------------------


class Canvas:
    """A drawing surface in final-image pixels (drawn at :data:`SCALE`, then reduced)."""

    def __init__(self, width: int, height: int, background: Colour = PAPER) -> None:
        self.width = width
        self.height = height
        self._image = Image.new("RGB", (width * SCALE, height * SCALE), background)
        self._draw = ImageDraw.Draw(self._image)
        self._texts: list[tuple[tuple[float, float], str, int, bool, Colour, str]] = []

    def rect(self, box: Box, *, fill: Colour | None = None, outline: Colour | None = None,
             width: float = 1, radius: float = 0) -> None:
        scaled = _scale_box(box)
        line = max(1, round(width * SCALE)) if outline is not None else 0
        if radius:
            self._draw.rounded_rectangle(scaled, radius * SCALE, fill=fill, outline=outline,
                                         width=line)
        else:
            self._draw.rectangle(scaled, fill=fill, outline=outline, width=line)

    def ellipse(self, box: Box, *, fill: Colour | None = None, outline: Colour | None = None,
                width: float = 1) -> None:
        line = max(1, round(width * SCALE)) if outline is not None else 0
        self._draw.ellipse(_scale_box(box), fill=fill, outline=outline, width=line)

    def circle(self, centre: tuple[float, float], radius: float, **style: object) -> None:
        x, y = centre
        self.ellipse((x - radius, y - radius, x + radius, y + radius), **style)  # type: ignore[arg-type]

    def line(self, points: Sequence[tuple[float, float]], *, fill: Colour,
             width: float = 1) -> None:
        self._draw.line([(x * SCALE, y * SCALE) for x, y in points], fill=fill,
                        width=max(1, round(width * SCALE)), joint="curve")

    def polygon(self, points: Sequence[tuple[float, float]], *, fill: Colour | None = None,
                outline: Colour | None = None) -> None:
        self._draw.polygon([(x * SCALE, y * SCALE) for x, y in points], fill=fill,
                           outline=outline)

    def text(self, xy: tuple[float, float], text: str, *, size: int = 16, fill: Colour = INK,
             bold: bool = False, anchor: str = "la") -> None:
        """Draw ``text`` at ``xy`` (on top of every shape); ``anchor`` as in Pillow ("la"
        top-left, "mm" centre...)."""
        if text:
            self._texts.append((xy, text, size, bold, fill, anchor))

    def text_width(self, text: str, *, size: int = 16, bold: bool = False) -> float:
        return _width(text, size, bold)

    def fit(self, text: str, width: float, *, size: int = 16, bold: bool = False) -> str:
        """``text`` shortened with an ellipsis so it fits in ``width`` pixels."""
        if self.text_width(text, size=size, bold=bold) <= width:
            return text
        while text and self.text_width(text + "…", size=size, bold=bold) > width:
            text = text[:-1]
        return text + "…"

    def finish(self) -> Image.Image:
        """The final RGB image."""
        image = self._image.reduce(SCALE)
        for (x, y), text, size, bold, fill, anchor in self._texts:
            mask, (left, top) = _lettering(text, size, bold, anchor)
            x0, y0 = round(x + left), round(y + top)
            image.paste(fill, (x0, y0, x0 + mask.width, y0 + mask.height), mask)
        return image


@functools.lru_cache(maxsize=8192)
def _width(text: str, size: int, bold: bool) -> float:
    """How wide ``text`` is drawn (labels repeat from image to image; fitting them measures
    the same strings again and again)."""
    return float(font(size, bold=bold).getlength(text))


@functools.lru_cache(maxsize=4096)
def _lettering(text: str, size: int, bold: bool, anchor: str) -> tuple[Image.Image, tuple[int, int]]:
    """``text`` rendered once as a coverage mask, with its offset from the anchor point.

    Glyph rendering is the costliest part of an image; labels repeat from move to move."""
    face = font(size, bold=bold)
    left, top, right, bottom = face.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=face, fill=255, anchor=anchor)
    return mask, (int(left), int(top))


def _scale_box(box: Box) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = box
    return (x0 * SCALE, y0 * SCALE, x1 * SCALE - 1, y1 * SCALE - 1)


# --- shared pieces ------------------------------------------------------------------------

HEADER_HEIGHT = 44


def header(canvas: Canvas, title: str, status: str, *, colour: Colour | None = None) -> None:
    """The strip at the top: who you are (with your colour) and the game's status."""
    canvas.rect((0, 0, canvas.width, HEADER_HEIGHT), fill=HEADER)
    x = 14
    if colour is not None:
        canvas.circle((x + 8, HEADER_HEIGHT / 2), 10, fill=HEADER_INK)  # a light ring, so
        canvas.circle((x + 8, HEADER_HEIGHT / 2), 7, fill=colour)  # dark pieces show too
        x += 24
    canvas.text((x, HEADER_HEIGHT / 2), title, size=16, bold=True, fill=HEADER_INK, anchor="lm")
    used = x + canvas.text_width(title, size=16, bold=True) + 16
    shown = canvas.fit(status, canvas.width - used - 14, size=15)
    canvas.text((canvas.width - 14, HEADER_HEIGHT / 2), shown, size=15, fill=HEADER_INK,
                anchor="rm")


def status_text(over: bool, verdict: str | None, to_move: str | None, seat_to_move: bool) -> str:
    """The header's right-hand text."""
    if over:
        return f"Game over: {verdict.lower()}" if verdict else "Game over"
    if seat_to_move:
        return "Your turn"
    return f"{to_move} to move" if to_move else ""


def verdict(returns: Sequence[float], seat: int) -> str:
    """'You won' / 'You lost' / 'Draw' from final returns."""
    if all(r == returns[0] for r in returns):
        return "Draw"
    return "You won" if returns[seat] == max(returns) else "You lost"


def pips(canvas: Canvas, box: Box, face: int, *, fill: Colour = CARD,
         ink: Colour = INK, outline: Colour = INK, highlight: Colour | None = None) -> None:
    """A die showing ``face`` (1–6) in ``box`` (square)."""
    x0, y0, x1, y1 = box
    side = x1 - x0
    canvas.rect(box, fill=fill, outline=highlight or outline,
                width=3 if highlight else 1.5, radius=side * 0.16)
    spots = {
        1: [(0.5, 0.5)], 2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
        6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
    }[face]
    for fx, fy in spots:
        canvas.circle((x0 + fx * side, y0 + fy * side), side * 0.085, fill=ink)


def history_panel(canvas: Canvas, box: Box, title: str, lines: Sequence[str], *,
                  last_marked: bool = False, size: int = 14) -> None:
    """A titled list of past moves, newest at the bottom; the newest may be marked as the last
    move. Older lines are dropped when they do not fit."""
    x0, y0, x1, y1 = box
    canvas.rect(box, fill=CARD, outline=RULE, radius=8)
    canvas.text((x0 + 12, y0 + 10), title, size=14, bold=True, fill=MUTED)
    step = size + 8
    room = max(1, int((y1 - y0 - 40) // step))
    shown = list(lines)[-room:]
    if not shown:
        canvas.text((x0 + 12, y0 + 36), "nothing yet", size=size, fill=MUTED)
    for i, line in enumerate(shown):
        y = y0 + 34 + i * step
        newest = i == len(shown) - 1 and last_marked
        if newest:
            canvas.rect((x0 + 6, y - 3, x1 - 6, y + step - 5), fill=(255, 236, 204), radius=4)
        canvas.text((x0 + 12, y), canvas.fit(line, x1 - x0 - 24, size=size, bold=newest),
                    size=size, fill=INK, bold=newest)


# --- grids --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grid:
    """A board of ``columns`` × ``rows`` square cells; column 0 is the left, row 0 the top."""

    columns: int
    rows: int
    cell: int
    left: int
    top: int

    @property
    def right(self) -> int:
        return self.left + self.columns * self.cell

    @property
    def bottom(self) -> int:
        return self.top + self.rows * self.cell

    def box(self, column: int, row: int) -> Box:
        x, y = self.left + column * self.cell, self.top + row * self.cell
        return (x, y, x + self.cell, y + self.cell)

    def centre(self, column: int, row: int) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box(column, row)
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def at(self, x: float, y: float) -> tuple[int, int] | None:
        """The (column, row) under pixel (x, y), or None off the board."""
        if not (self.left <= x < self.right and self.top <= y < self.bottom):
            return None
        return (int((x - self.left) // self.cell), int((y - self.top) // self.cell))

    def cells(self) -> list[tuple[int, int]]:
        return [(c, r) for r in range(self.rows) for c in range(self.columns)]


# --- tables (games played with buttons) ---------------------------------------------------

TABLE_WIDTH = 740
TABLE_HEIGHT = 420
FELT_BOX: Box = (16, HEADER_HEIGHT + 16, 452, TABLE_HEIGHT - 16)
PANEL_BOX: Box = (468, HEADER_HEIGHT + 16, TABLE_WIDTH - 16, TABLE_HEIGHT - 16)


def table_status(state: object, seat: int, *, watcher: bool = False) -> str:
    """The header status of a two-seat table game, from ``seat``'s side (for a ``watcher``,
    the sides by colour: ``Blue to move``, ``Game over: red won``)."""
    if state.is_terminal():  # type: ignore[attr-defined]
        returns = state.returns()  # type: ignore[attr-defined]
        said = winner(returns, SEAT_COLOURS) if watcher else verdict(returns, seat)
        return status_text(True, said, None, False)
    if state.is_simultaneous_node():  # type: ignore[attr-defined]
        return "Both choose now" if watcher else "Choose now"
    player = state.current_player()  # type: ignore[attr-defined]
    if player < 0:
        return ""
    if watcher:
        return status_text(False, None, SEAT_COLOURS[player].title(), False)
    return status_text(False, None, "Opponent", player == seat)


def board_status(state: object, seat: int, sides: Sequence[str], *,
                 watcher: bool = False) -> str:
    """The header status of a two-seat board game from ``seat``'s side (``Your turn``,
    ``White to move``, ``Game over: you won``); for a ``watcher``, the sides by name
    (``Game over: white won``)."""
    player = state.current_player()  # type: ignore[attr-defined]
    if state.is_terminal():  # type: ignore[attr-defined]
        returns = state.returns()  # type: ignore[attr-defined]
        said = winner(returns, sides) if watcher else verdict(returns, seat)
        return status_text(True, said, None, False)
    return status_text(False, None, sides[player] if player >= 0 else None,
                       player == seat and not watcher)


def winner(returns: Sequence[float], names: Sequence[str]) -> str:
    """'Red won' (the seats with the best return, by name) or 'Draw', for a watcher."""
    if all(r == returns[0] for r in returns):
        return "Draw"
    best = max(returns)
    said = " and ".join(str(names[p]) for p, r in enumerate(returns) if r == best)
    return f"{said[:1].upper()}{said[1:]} won"


def table(title: str, status: str, seat: int) -> Canvas:
    """A fresh table image: header, felt on the left, room for a panel on the right."""
    canvas = Canvas(TABLE_WIDTH, TABLE_HEIGHT)
    header(canvas, title, status, colour=PLAYER[seat])
    canvas.rect(FELT_BOX, fill=FELT, outline=FELT_DARK, width=4, radius=22)
    return canvas


def seat_title(seat: int, *, watcher: bool = False) -> str:
    """The header's title for a two-seat table: ``You play first (red)``; for a watcher,
    ``Red's view (plays first)``."""
    if watcher:
        return f"{SEAT_COLOURS[seat].title()}'s view (plays {('first', 'second')[seat]})"
    return f"You play {('first', 'second')[seat]} ({SEAT_COLOURS[seat]})"


def who(player: int, seat: int, *, watcher: bool = False) -> str:
    """``player`` as ``seat``'s view names it: You / Opponent, for a watcher Red / Blue."""
    if watcher:
        return SEAT_COLOURS[player].title()
    return "You" if player == seat else "Opponent"


def card(canvas: Canvas, box: Box, rank: str | None, *, highlight: Colour | None = None) -> None:
    """A playing card showing ``rank``, or face down when ``rank`` is None."""
    x0, y0, x1, y1 = box
    if rank is None:
        canvas.rect(box, fill=CARD_BACK, outline=CARD, width=4, radius=10)
        canvas.rect((x0 + 10, y0 + 10, x1 - 10, y1 - 10), outline=(220, 150, 150), width=2,
                    radius=6)
        canvas.text(((x0 + x1) / 2, (y0 + y1) / 2), "?", size=34, bold=True, fill=CARD,
                    anchor="mm")
        return
    canvas.rect(box, fill=CARD, outline=highlight or INK, width=3 if highlight else 1.5,
                radius=10)
    canvas.text(((x0 + x1) / 2, (y0 + y1) / 2), rank, size=46, bold=True, fill=INK, anchor="mm")
    canvas.text((x0 + 9, y0 + 7), rank, size=16, bold=True, fill=INK)
    canvas.text((x1 - 9, y1 - 7), rank, size=16, bold=True, fill=INK, anchor="rd")


def label(canvas: Canvas, xy: tuple[float, float], text: str, *, size: int = 15,
          fill: Colour = HEADER_INK, bold: bool = True, anchor: str = "mm") -> None:
    """Text on the felt (light on green)."""
    canvas.text(xy, text, size=size, fill=fill, bold=bold, anchor=anchor)
