"""Air, Land & Sea: where everything is on the table image, and what a click there means.

Geometry (the bands from top to bottom, the three theater columns in row order, the stacks,
the hand, the two places to play to under each theater, the buttons) and the click targets
built from what the seat sees: :func:`layout` (from the seat's stacks and hand, so a test
can rebuild it from the text view), :func:`spots`, :func:`centres` and :func:`hit_test`.

The layout for narrow screens (``narrow=True``: a phone held upright) is :func:`narrow_layout`:
the same targets, the theaters stacked as full-width rows in row order (each: a band with the
theater and both strengths, the two sides' stacks side by side under it, the other seat's on
the left, and two wide places to play to), then what is being decided with the buttons, then
the hand as a grid of two columns.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import pyspiel

from games.gamebench.air_land_sea_cards import CARDS, SEATS, THEATERS
from games.gamebench.air_land_sea_rules import AirLandSeaState
from games.gamebench.air_land_sea_view import SeatTable, seat_table, zone
from renderers import drawing as d

WIDTH, HEIGHT = 720, 900
MARGIN, COLUMN, GAP = 12, 224, 12
CARD_W, FULL, STRIP = 212, 92, 28
INFO = (44, 74)
OPPONENT = (74, 100)
THEIR_AREA = (102, 292)
BOARDS = (296, 362)
OUR_AREA = (366, 556)
ZONES = (560, 602)
DECIDE = (606, 652)
HAND = (656, 852)
LOG = (856, 900)
HAND_W = 108

Box = d.Box


def column_x(theater: int, order: Sequence[int]) -> float:
    """The left edge of a theater's column (by its place in the row)."""
    return MARGIN + (order or (0, 1, 2)).index(theater) * (COLUMN + GAP)


def stack_boxes(count: int, x: float, area: tuple[int, int], *, ours: bool) -> list[Box]:
    """Card boxes of a stack, bottom card first: ours cascade down from the board, theirs up."""
    if not count:
        return []
    room = area[1] - area[0]
    step = STRIP if count == 1 else min(STRIP, (room - FULL) / (count - 1))
    left = x + (COLUMN - CARD_W) / 2
    boxes = []
    for i in range(count):
        if ours:
            top = area[0] + i * step
        else:
            top = area[1] - FULL - i * step
        boxes.append((left, top, left + CARD_W, top + FULL))
    return boxes


def visible(boxes: list[Box], *, ours: bool) -> list[Box]:
    """The part of each card not covered by the next one (the whole top card)."""
    shown = []
    for i, (x0, y0, x1, y1) in enumerate(boxes):
        if i == len(boxes) - 1:
            shown.append((x0, y0, x1, y1))
        elif ours:
            shown.append((x0, y0, x1, boxes[i + 1][1]))
        else:
            shown.append((x0, boxes[i + 1][3], x1, y1))
    return shown


def hand_box(slot: int) -> Box:
    step = (WIDTH - 2 * MARGIN - HAND_W) / 5
    x = MARGIN + slot * step
    return (x, HAND[0], x + HAND_W, HAND[1])


def zone_box(order: Sequence[int], theater: int, face_up: bool) -> Box:
    x = column_x(theater, order)
    half = COLUMN / 2
    x0 = x if face_up else x + half
    return (x0 + 3, ZONES[0], x0 + half - 3, ZONES[1])


def board_box(order: Sequence[int], theater: int) -> Box:
    x = column_x(theater, order)
    return (x, BOARDS[0], x + COLUMN, BOARDS[1])


BUTTONS: dict[str, Box] = {
    "withdraw": (WIDTH - MARGIN - 220, DECIDE[0] + 2, WIDTH - MARGIN - 110, DECIDE[1] - 2),
    "skip": (WIDTH - MARGIN - 102, DECIDE[0] + 2, WIDTH - MARGIN, DECIDE[1] - 2),
}


Seen = tuple[tuple[tuple[int | None, ...], ...], ...]
"""[seat][theater]: the cards of each stack as a seat knows them (None: a face-down card it
cannot identify), bottom to top."""


@functools.lru_cache(maxsize=64)
def layout(seat: int, order: tuple[int, ...], stacks: Seen,
           hand: tuple[int, ...]) -> tuple[tuple[Box, str], ...]:
    """The click targets of ``seat``'s image with their boxes, from what the seat sees: the
    row ``order``, the ``stacks`` and its ``hand`` (with a card Reinforce drew last). A
    person's test reads these off the text view."""
    spots: list[tuple[Box, str]] = []
    for owner in (0, 1):
        ours = owner == seat
        for theater in range(3):
            cards = stacks[owner][theater]
            boxes = stack_boxes(len(cards), column_x(theater, order),
                                 OUR_AREA if ours else THEIR_AREA, ours=ours)
            spots += stack_spots(visible(boxes, ours=ours), owner, theater, cards)
    for slot, held in enumerate(hand):
        spots.append((hand_box(slot), CARDS[held].name))
    if order:
        for theater in range(3):
            spots.append((board_box(order, theater), THEATERS[theater]))
            for face_up in (True, False):
                spots.append((zone_box(order, theater, face_up), zone(theater, face_up)))
    spots += [(box, name) for name, box in BUTTONS.items()]
    return tuple(spots)


def stack_spots(shown: list[Box], owner: int, theater: int,
                cards: tuple[int | None, ...]) -> list[tuple[Box, str]]:
    """The targets of one stack from the visible part of each card: a card the seat knows by
    its name, and the uncovered card it does not know as ``Blue's face-down card (Land)``."""
    spots = []
    for i, (box, card) in enumerate(zip(shown, cards, strict=True)):
        if card is not None:
            spots.append((box, CARDS[card].name))
        elif i == len(cards) - 1:
            spots.append((box, f"{SEATS[owner]}'s face-down card ({THEATERS[theater]})"))
    return spots


def hand_cards(table: SeatTable) -> list[int]:
    return list(table.hand) + ([table.drawn] if table.drawn is not None else [])


def seen(table: SeatTable) -> Seen:
    """The stacks as ``table``'s seat knows them."""
    return tuple(tuple(tuple(card.card for card in side) for side in sides)
                 for sides in table.sides)


def spots(state: pyspiel.State, seat: int, *,
          narrow: bool = False) -> tuple[tuple[Box, str], ...]:
    """Every click target of ``seat``'s image (the ``narrow`` layout's) with its box."""
    assert isinstance(state, AirLandSeaState)
    table = seat_table(state, seat)
    if narrow:
        return narrow_layout(seat, table.order, seen(table), tuple(hand_cards(table))).spots
    return layout(seat, table.order, seen(table), tuple(hand_cards(table)))


def centres(state: pyspiel.State, seat: int, *,
            narrow: bool = False) -> dict[str, tuple[float, float]]:
    """Every target and the pixel at its centre: the inverse of :func:`hit_test`."""
    return {name: ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
            for b, name in spots(state, seat, narrow=narrow)}


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = (), narrow: bool = False) -> str | None:
    """The card, place, board or button at pixel (x, y), or None."""
    for (x0, y0, x1, y1), name in spots(state, seat, narrow=narrow):
        if x0 <= x < x1 and y0 <= y < y1:
            return name
    return None


# --- the layout for narrow screens -------------------------------------------------------------

N_WIDTH, N_MARGIN, N_GAP = 400, 10, 8
N_HALF = (N_WIDTH - 2 * N_MARGIN - N_GAP) / 2
"""The width of a side's stack, of a place to play to, of a button and of a hand card."""
N_INFO = (44, 124)
"""The score, the 1st Player and the deck, the other seat's hand: three lines."""
N_BAND, N_STRIP, N_TOP, N_EMPTY, N_ZONE, N_ROW_GAP = 48, 30, 118, 34, 46, 16
"""A theater's band, a covered card's strip, an uncovered card (its strip and up to five
lines of text), an empty side, a place to play to, the space between theaters."""
N_TEXT_SIZE = 13
"""Card texts (the longest, Blockade's, takes five lines of a stack's width)."""
N_DECIDE_TEXT, N_BUTTON = 64, 52
N_HAND_H = 170
N_LOG = 70


@dataclass(frozen=True)
class Narrow:
    """Where everything is in the narrow layout; ``spots`` are its click targets."""

    height: int
    rows: dict[int, Box]
    """theater -> its whole row (band, stacks and places to play to)."""
    bands: dict[int, Box]
    stacks: dict[tuple[int, int], list[Box]]
    """(owner, theater) -> card boxes, bottom card first (each cascades down from the band)."""
    zones: dict[str, Box]
    decide: Box
    buttons: dict[str, Box]
    hand_area: Box
    hand: list[Box]
    log: Box
    spots: tuple[tuple[Box, str], ...]


def narrow_stack(count: int, x: float, top: float) -> list[Box]:
    """Card boxes of a stack in the narrow layout, bottom card first, the uncovered last."""
    return [(x, top + i * N_STRIP, x + N_HALF, top + i * N_STRIP + N_TOP)
            for i in range(count)]


def narrow_stack_height(count: int) -> float:
    return N_EMPTY if not count else (count - 1) * N_STRIP + N_TOP


@functools.lru_cache(maxsize=64)
def narrow_layout(seat: int, order: tuple[int, ...], stacks: Seen,
                  hand: tuple[int, ...]) -> Narrow:
    """The narrow layout of ``seat``'s image from what the seat sees (as :func:`layout`):
    its height grows with the stacks and the hand."""
    left, right = N_MARGIN, N_WIDTH - N_MARGIN - N_HALF
    sides = {1 - seat: left, seat: right}  # the other seat's cards on the left
    y: float = N_INFO[1] + 6
    rows: dict[int, Box] = {}
    bands: dict[int, Box] = {}
    boxes: dict[tuple[int, int], list[Box]] = {}
    zones: dict[str, Box] = {}
    spots: list[tuple[Box, str]] = []
    for theater in order or (0, 1, 2):
        top = y
        bands[theater] = (N_MARGIN, y, N_WIDTH - N_MARGIN, y + N_BAND)
        y += N_BAND + 6
        for owner in (0, 1):
            cards = stacks[owner][theater]
            boxes[owner, theater] = narrow_stack(len(cards), sides[owner], y)
            spots += stack_spots(visible(boxes[owner, theater], ours=True), owner, theater,
                                 cards)
        y += max(narrow_stack_height(len(stacks[owner][theater])) for owner in (0, 1)) + 6
        for face_up, x in ((True, left), (False, right)):
            zones[zone(theater, face_up)] = (x, y, x + N_HALF, y + N_ZONE)
        y += N_ZONE
        rows[theater] = (0, top, N_WIDTH, y)
        y += N_ROW_GAP
    decide = (N_MARGIN, y, N_WIDTH - N_MARGIN, y + N_DECIDE_TEXT)
    y += N_DECIDE_TEXT
    buttons: dict[str, Box] = {"withdraw": (left, y, left + N_HALF, y + N_BUTTON),
                               "skip": (right, y, right + N_HALF, y + N_BUTTON)}
    y += N_BUTTON + N_ROW_GAP
    lines = math.ceil(len(hand) / 2)
    hand_area = (0, y, N_WIDTH, y + 30 + lines * (N_HAND_H + N_GAP))
    hand_boxes: list[Box] = []
    for slot in range(len(hand)):
        x = left if slot % 2 == 0 else right
        top = y + 30 + (slot // 2) * (N_HAND_H + N_GAP)
        hand_boxes.append((x, top, x + N_HALF, top + N_HAND_H))
    bottom = math.ceil(hand_area[3]) + 4
    spots += [(box, CARDS[held].name) for box, held in zip(hand_boxes, hand, strict=True)]
    if order:
        for theater in order:
            spots.append((bands[theater], THEATERS[theater]))
        spots += [(box, name) for name, box in zones.items()]
    spots += [(box, name) for name, box in buttons.items()]
    return Narrow(height=bottom + N_LOG, rows=rows, bands=bands, stacks=boxes, zones=zones,
                  decide=decide, buttons=buttons, hand_area=hand_area, hand=hand_boxes,
                  log=(0, bottom, N_WIDTH, bottom + N_LOG), spots=tuple(spots))
