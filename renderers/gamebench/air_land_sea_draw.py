"""Air, Land & Sea: what both layouts of the table draw alike — colours, a card on the table
(face-up with its type strip and text, or a back), wrapped card text, what is lit or marked,
and the header's status. Sizes come in a :class:`CardSizes` (the narrow layout's are larger).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from games.gamebench.air_land_sea_cards import CARDS, SEATS
from games.gamebench.air_land_sea_rules import AirLandSeaState
from games.gamebench.air_land_sea_view import SeatTable, TableCard, click_path
from renderers import drawing as d

Box = d.Box

TYPE_COLOURS: tuple[d.Colour, d.Colour, d.Colour] = ((104, 112, 124), (74, 128, 62),
                                                     (38, 104, 160))
BACK: d.Colour = (44, 48, 54)
BACK_INK: d.Colour = (214, 218, 224)
PALE: d.Colour = (236, 233, 226)
BUTTON: d.Colour = (52, 58, 64)
OFF: d.Colour = (190, 194, 199)


@dataclass(frozen=True)
class CardSizes:
    """How a table card is drawn: its strip's height, font sizes, and the height of the text
    of an uncovered card; ``down_words``: a face-down card the seat knows says "face-down"
    before its name in the strip (the narrow layout has no room: its dark back says it)."""

    strip: int
    strength: int
    name: int
    text: int
    text_height: int
    down_words: bool


WIDE = CardSizes(strip=26, strength=19, name=14, text=11, text_height=58, down_words=True)
NARROW = CardSizes(strip=30, strength=20, name=15, text=13, text_height=82, down_words=False)


def marks(state: AirLandSeaState, seat: int, legal: Sequence[int], selection: Sequence[str],
          targets: Sequence[str], last: Sequence[str] | None) -> dict[str, d.Colour]:
    """The colour of each marked target: the selection, then what may come next (without a
    selection: the first clicks of the seat's legal moves), then the last move's clicks."""
    marked = {name: d.SELECTED for name in selection}
    if not selection:
        for action in legal:
            marked.setdefault(click_path(state, seat, action)[0], d.TARGET)
    for name in targets:
        marked[name] = d.TARGET
    for name in last or ():
        marked.setdefault(name, d.LAST)
    return marked


def status(state: AirLandSeaState, table: SeatTable, *, watcher: bool = False) -> str:
    """The header's right-hand words (for a ``watcher``, the sides by name)."""
    if table.over:
        if watcher:
            return f"Game over: {SEATS[table.winner or 0]} won"
        return "Game over: you won" if table.winner == table.seat else "Game over: you lost"
    if state.is_chance_node():
        return "Dealing"
    if table.actor == table.seat and not watcher:
        return "Your turn"
    return f"{SEATS[table.actor]} to move"


def table_card(canvas: d.Canvas, box: Box, card: TableCard, owner: int, *, strip_at_top: bool,
               covered: bool, mark: d.Colour | None, sizes: CardSizes = WIDE) -> None:
    """A card on the table: its strip (strength and name) on the side that stays visible when
    covered, and on an uncovered face-up card its text."""
    x0, y0, x1, y1 = box
    high = sizes.strip
    strip = (y0, y0 + high) if strip_at_top else (y1 - high, y1)
    outline = mark or (d.PLAYER[owner])
    width = 3.5 if mark else 1.5
    middle = sum(strip) / 2
    if not card.face_up:
        canvas.rect(box, fill=BACK, outline=outline, width=width, radius=7)
        known = CARDS[card.card].name if card.card is not None else ""
        tag = ("face-down " + known if sizes.down_words else known) if known else "face-down"
        canvas.text((x0 + 10, middle), str(card.strength), size=sizes.strength, bold=True,
                    fill=(255, 255, 255), anchor="lm")
        canvas.text((x0 + 34, middle), canvas.fit(tag, x1 - x0 - 44, size=sizes.name),
                    size=sizes.name, fill=BACK_INK, anchor="lm")
        if not covered:
            mid = (y0 + high + y1) / 2 if strip_at_top else (y0 + y1 - high) / 2
            words = "AIR LAND & SEA" if sizes.down_words or not known else "FACE-DOWN"
            canvas.text(((x0 + x1) / 2, mid), words, size=12, bold=True,
                        fill=(120, 126, 134), anchor="mm")
        return
    face = CARDS[card.card] if card.card is not None else None
    assert face is not None
    canvas.rect(box, fill=d.CARD, outline=outline, width=width, radius=7)
    canvas.rect((x0 + 1, strip[0], x1 - 1, strip[1]), fill=TYPE_COLOURS[face.theater], radius=6)
    canvas.text((x0 + 10, middle), str(face.strength), size=sizes.strength, bold=True,
                fill=(255, 255, 255), anchor="lm")
    kind = {"instant": "⚡", "ongoing": "∞"}.get(face.kind, "")
    changed = card.strength != face.strength
    room = x1 - x0 - 40 - (30 if changed else 0)
    canvas.text((x0 + 32, middle), canvas.fit(f"{face.name} {kind}".strip(), room,
                                              size=sizes.name, bold=True),
                size=sizes.name, bold=True, fill=(255, 255, 255), anchor="lm")
    if changed:
        canvas.text((x1 - 8, middle), f"={card.strength}", size=sizes.name - 1, bold=True,
                    fill=(255, 236, 150), anchor="rm")
    if not covered and face.text:
        top = y0 + high + 4 if strip_at_top else y0 + 5
        wrapped(canvas, face.text, (x0 + 8, top, x1 - 8, top + sizes.text_height),
                size=sizes.text)


def wrapped(canvas: d.Canvas, words: str, box: Box, *, size: int, fill: d.Colour = d.INK,
            bold: bool = False) -> None:
    """``words`` in ``box``, broken into lines; what does not fit ends in an ellipsis."""
    x0, y0, x1, y1 = box
    lines = list(wrap(words, x1 - x0, size, bold))
    height = size + 3
    room = max(1, int((y1 - y0) // height))
    if len(lines) > room:
        lines = lines[:room]
        lines[-1] = canvas.fit(lines[-1] + " …", x1 - x0, size=size, bold=bold)
    for i, line in enumerate(lines):
        canvas.text((x0, y0 + i * height), line, size=size, fill=fill, bold=bold)


@functools.lru_cache(maxsize=512)
def wrap(words: str, width: float, size: int, bold: bool = False) -> tuple[str, ...]:
    """``words`` broken into lines of at most ``width`` pixels (card texts repeat: cached)."""
    face = d.font(size, bold=bold)
    lines: list[str] = []
    line = ""
    for word in words.split():
        trial = f"{line} {word}".strip()
        if line and face.getlength(trial) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return tuple(lines + ([line] if line else []))
