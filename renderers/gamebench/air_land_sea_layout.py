"""Air, Land & Sea: where everything is on the table image, and what a click there means.

Geometry (the bands from top to bottom, the three theater columns in row order, the stacks,
the hand, the two places to play to under each theater, the buttons) and the click targets
built from what the seat sees: :func:`layout` (from the seat's stacks and hand, so a test
can rebuild it from the text view), :func:`spots`, :func:`centres` and :func:`hit_test`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

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
            for i, (box, card) in enumerate(zip(visible(boxes, ours=ours), cards, strict=True)):
                if card is not None:
                    spots.append((box, CARDS[card].name))
                elif i == len(cards) - 1:
                    spots.append((box, f"{SEATS[owner]}'s face-down card ({THEATERS[theater]})"))
    for slot, held in enumerate(hand):
        spots.append((hand_box(slot), CARDS[held].name))
    if order:
        for theater in range(3):
            spots.append((board_box(order, theater), THEATERS[theater]))
            for face_up in (True, False):
                spots.append((zone_box(order, theater, face_up), zone(theater, face_up)))
    spots += [(box, name) for name, box in BUTTONS.items()]
    return tuple(spots)


def hand_cards(table: SeatTable) -> list[int]:
    return list(table.hand) + ([table.drawn] if table.drawn is not None else [])


def spots(state: pyspiel.State, seat: int) -> tuple[tuple[Box, str], ...]:
    """Every click target of ``seat``'s image with its box."""
    assert isinstance(state, AirLandSeaState)
    table = seat_table(state, seat)
    stacks = tuple(tuple(tuple(card.card for card in side) for side in sides)
                   for sides in table.sides)
    return layout(seat, table.order, stacks, tuple(hand_cards(table)))


def centres(state: pyspiel.State, seat: int) -> dict[str, tuple[float, float]]:
    """Every target and the pixel at its centre: the inverse of :func:`hit_test`."""
    return {name: ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b, name in spots(state, seat)}


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = ()) -> str | None:
    """The card, place, board or button at pixel (x, y), or None."""
    for (x0, y0, x1, y1), name in spots(state, seat):
        if x0 <= x < x1 and y0 <= y < y1:
            return name
    return None


# --- the image ---------------------------------------------------------------------------------
