"""Air, Land & Sea: the seat's table to play by clicking, and (in ``air_land_sea_text``) its
text view.

From the top: the score, the opponent's hand (card backs), their side of the three theaters
(their cards read upright, the uncovered one nearest to them), the theater boards with each
side's strength and who controls it, your side (the uncovered card nearest to you), the two
places to play to in each theater (face-up, face-down), what is being decided with the
Withdraw and Skip buttons, your hand, and the last public events.

Click targets (see ``games.gamebench.air_land_sea_view.click_path``): a card by its name (a
face-down card you cannot identify is ``Blue's face-down card (Land)``), ``Land face-up`` /
``Land face-down`` (where a selected hand card goes), ``Land`` (the board: where a
Transported card goes), ``withdraw`` and ``skip``. Everything drawn comes from
:func:`~games.gamebench.air_land_sea_view.seat_table`, so nothing the seat may not know is
ever on the image.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyspiel
from PIL import Image

from games.gamebench.air_land_sea_cards import (
    CARDS,
    SEATS,
    SKIP,
    THEATERS,
    WITHDRAW,
    withdrawal_points,
)
from games.gamebench.air_land_sea_rules import AirLandSeaState
from games.gamebench.air_land_sea_view import SeatTable, decision, seat_table, zone
from renderers import drawing as d
from renderers.contract import Renderer
from renderers.gamebench.air_land_sea_draw import (
    BACK,
    BACK_INK,
    BUTTON,
    OFF,
    PALE,
    TYPE_COLOURS,
    marks,
    status,
    table_card,
    wrapped,
)
from renderers.gamebench.air_land_sea_layout import (
    BUTTONS,
    DECIDE,
    GAP,
    HAND,
    HEIGHT,
    INFO,
    LOG,
    MARGIN,
    OPPONENT,
    OUR_AREA,
    THEIR_AREA,
    WIDTH,
    Box,
    board_box,
    column_x,
    hand_cards,
    spots,
    stack_boxes,
)
from renderers.gamebench.air_land_sea_layout import N_WIDTH as N_WIDTH  # a phone's width,
from renderers.gamebench.air_land_sea_layout import Seen as Seen  # the renderer's contract:
from renderers.gamebench.air_land_sea_layout import centres as centres  # clicks by target,
from renderers.gamebench.air_land_sea_layout import hit_test as hit_test  # target by pixel,
from renderers.gamebench.air_land_sea_layout import layout as layout  # targets by what is seen
from renderers.gamebench.air_land_sea_layout import narrow_layout as narrow_layout  # its targets
from renderers.gamebench.air_land_sea_narrow import narrow_image
from renderers.gamebench.air_land_sea_text import text  # noqa: F401  (the text view)

NARROW = True
"""``image``, ``hit_test`` and ``centres`` take ``narrow=True``: the theaters as full-width
rows one under another, the hand as a grid of two columns (``air_land_sea_narrow``)."""


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the seat
named, never "you")."""


def image(state: pyspiel.State, seat: int, *, selection: Sequence[str] = (),
          targets: Sequence[str] = (), last: Sequence[str] | None = None,
          narrow: bool = False, watcher: bool = False) -> Image.Image:
    """The table as ``seat`` sees it (``narrow``: laid out for a phone held upright). Without
    a selection, the first clicks of the seat's legal moves are outlined; ``targets`` (what
    may come next) are lit green. ``watcher``: for a spectator, the seat named, not "you"."""
    assert isinstance(state, AirLandSeaState)
    if narrow:
        return narrow_image(state, seat, selection=selection, targets=targets, last=last,
                            watcher=watcher)
    table = seat_table(state, seat)
    canvas = d.Canvas(WIDTH, HEIGHT, background=PALE)
    legal = state.legal_actions(seat) if not state.is_terminal() else []
    title = f"{SEATS[seat]}'s view" if watcher else f"you are {SEATS[seat]}"
    d.header(canvas, f"Air, Land & Sea · {title}", status(state, table, watcher=watcher),
             colour=d.PLAYER[seat])
    _info(canvas, table)
    _opponent(canvas, table)
    marked = marks(state, seat, legal, selection, targets, last)
    boxes = {name: box for box, name in spots(state, seat)}
    _stacks(canvas, table, marked)
    _boards(canvas, table, marked)
    _zones(canvas, table, boxes, marked)
    _decide(canvas, table, WITHDRAW in legal, SKIP in legal, marked)
    _hand(canvas, table, boxes, marked, watcher)
    _log(canvas, table)
    return canvas.finish()


def _info(canvas: d.Canvas, table: SeatTable) -> None:
    canvas.rect((0, INFO[0], WIDTH, INFO[1]), fill=(226, 222, 212))
    first = f"1st Player: {SEATS[table.first]} (wins ties)" if table.first >= 0 else ""
    score = (f"Battle {max(table.battle, 1)} · VP Red {table.vp[0]} – Blue {table.vp[1]} "
             f"(war to {table.target})")
    canvas.text((MARGIN, sum(INFO) / 2), score, size=15, bold=True, anchor="lm")
    canvas.text((WIDTH - MARGIN, sum(INFO) / 2), first, size=14, anchor="rm", fill=d.INK)


def _opponent(canvas: d.Canvas, table: SeatTable) -> None:
    other = 1 - table.seat
    count = table.hand_sizes[other]
    y = sum(OPPONENT) / 2
    role = "" if table.first < 0 else (" (1st Player)" if table.first == other
                                       else " (2nd Player)")
    words = f"{SEATS[other]}{role}: {count} card{'s' * (count != 1)} in hand"
    canvas.circle((MARGIN + 8, y), 7, fill=d.PLAYER[other])
    canvas.text((MARGIN + 22, y), words, size=14, bold=True, anchor="lm")
    x = MARGIN + 30 + canvas.text_width(words, size=14, bold=True)
    for i in range(count):
        canvas.rect((x + i * 14, OPPONENT[0] + 3, x + i * 14 + 16, OPPONENT[1] - 3), fill=BACK,
                    outline=BACK_INK, width=1, radius=3)
    notes = [f"deck {table.deck}"]
    if table.air_drop[other]:
        notes.append("Air Drop ready")
    if table.phase == "reinforce" and table.actor == other:
        notes.append("holds a drawn card")
    canvas.text((WIDTH - MARGIN, y), " · ".join(notes), size=13, anchor="rm", fill=d.MUTED)


def _stacks(canvas: d.Canvas, table: SeatTable, marks: dict[str, d.Colour]) -> None:
    for owner in (0, 1):
        ours = owner == table.seat
        for theater in range(3):
            cards = table.sides[owner][theater]
            drawn = stack_boxes(len(cards), column_x(theater, table.order),
                                OUR_AREA if ours else THEIR_AREA, ours=ours)
            for i, (box, card) in enumerate(zip(drawn, cards, strict=True)):
                name = (CARDS[card.card].name if card.card is not None
                        else f"{SEATS[owner]}'s face-down card ({THEATERS[theater]})")
                table_card(canvas, box, card, owner, strip_at_top=ours,
                           covered=i < len(cards) - 1, mark=marks.get(name))


def _boards(canvas: d.Canvas, table: SeatTable, marks: dict[str, d.Colour]) -> None:
    if not table.order:
        return
    other = 1 - table.seat
    for theater in range(3):
        x0, y0, x1, y1 = board_box(table.order, theater)
        mark = marks.get(THEATERS[theater])
        canvas.rect((x0, y0, x1, y1), fill=TYPE_COLOURS[theater],
                    outline=mark or (30, 30, 30), width=4 if mark else 1, radius=8)
        canvas.text(((x0 + x1) / 2, (y0 + y1) / 2), f"— {THEATERS[theater].upper()} —",
                    size=18, bold=True, fill=(255, 255, 255), anchor="mm")
        winner = table.control[theater]
        for seat, y in ((other, y0 + 13), (table.seat, y1 - 13)):
            strength = table.strengths[seat][theater]
            leads = winner == seat
            canvas.circle((x0 + 16, y), 6, fill=d.PLAYER[seat])
            canvas.text((x0 + 28, y), f"{strength}" + ("  controls" if leads else ""), size=15,
                        bold=leads, fill=(255, 255, 255), anchor="lm")
        if table.order.index(theater) < 2:
            canvas.text((x1 + GAP / 2, (y0 + y1) / 2), "↔", size=12, fill=d.MUTED, anchor="mm")


def _zones(canvas: d.Canvas, table: SeatTable, boxes: dict[str, Box],
           marks: dict[str, d.Colour]) -> None:
    if not table.order:
        return
    for theater in range(3):
        for face_up in (True, False):
            name = zone(theater, face_up)
            box = boxes[name]
            lit = marks.get(name) == d.TARGET
            canvas.rect(box, fill=d.TARGET if lit else (246, 244, 238),
                        outline=d.TARGET if lit else d.RULE, width=1.5, radius=6)
            words = ("▲ face-up" if face_up else "▼ face-down")
            canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), words, size=15,
                        bold=lit, fill=(255, 255, 255) if lit else d.MUTED, anchor="mm")


def _decide(canvas: d.Canvas, table: SeatTable, can_withdraw: bool, can_skip: bool,
            marks: dict[str, d.Colour]) -> None:
    wrapped(canvas, decision(table), (MARGIN, DECIDE[0] + 2, BUTTONS["withdraw"][0] - 10,
                                       DECIDE[1]), size=14)
    give = ""
    if table.first >= 0 and not table.over:
        role = 0 if table.first == table.seat else 1
        give = f"{SEATS[1 - table.seat]} +{withdrawal_points(role, len(table.hand))} VP"
    for name, on, words, below in (("withdraw", can_withdraw, "Withdraw", give),
                                   ("skip", can_skip, "Skip", "")):
        x0, y0, x1, y1 = BUTTONS[name]
        canvas.rect((x0, y0, x1, y1), fill=BUTTON if on else OFF,
                    outline=marks.get(name) or BUTTON, width=2, radius=7)
        y = (y0 + y1) / 2 - (6 if below else 0)
        canvas.text(((x0 + x1) / 2, y), words, size=14, bold=True, fill=(255, 255, 255),
                    anchor="mm")
        if below:
            canvas.text(((x0 + x1) / 2, y + 14), below, size=11, fill=(230, 230, 230),
                        anchor="mm")


def _hand(canvas: d.Canvas, table: SeatTable, boxes: dict[str, Box],
          marks: dict[str, d.Colour], watcher: bool = False) -> None:
    cards = hand_cards(table)
    if not cards:
        empty = f"{SEATS[table.seat]}'s hand is empty." if watcher else "Your hand is empty."
        canvas.text((WIDTH / 2, sum(HAND) / 2), empty, size=15, fill=d.MUTED, anchor="mm")
    for card in cards:
        face = CARDS[card]
        box = boxes[face.name]
        x0, y0, x1, y1 = box
        mark = marks.get(face.name)
        canvas.rect(box, fill=d.CARD, outline=mark or (60, 60, 60), width=4 if mark else 1.5,
                    radius=8)
        canvas.rect((x0 + 1, y0 + 1, x1 - 1, y0 + 34), fill=TYPE_COLOURS[face.theater], radius=7)
        canvas.text((x0 + 8, y0 + 18), str(face.strength), size=24, bold=True,
                    fill=(255, 255, 255), anchor="lm")
        canvas.text((x1 - 8, y0 + 18), THEATERS[face.theater], size=12, bold=True,
                    fill=(255, 255, 255), anchor="rm")
        wrapped(canvas, face.name, (x0 + 7, y0 + 39, x1 - 6, y0 + 74), size=14)
        if face.kind:
            kind = "⚡ Instant" if face.kind == "instant" else "∞ Ongoing"
            canvas.text((x0 + 7, y0 + 77), kind, size=11, bold=True, fill=d.MUTED)
            wrapped(canvas, face.text, (x0 + 7, y0 + 93, x1 - 5, y1 - 4), size=11)
        if card == table.drawn:
            canvas.rect((x0 + 6, y1 - 24, x1 - 6, y1 - 6), fill=d.GOLD, radius=5)
            canvas.text(((x0 + x1) / 2, y1 - 15), "drawn: play it", size=11, bold=True,
                        anchor="mm")


def _log(canvas: d.Canvas, table: SeatTable) -> None:
    canvas.rect((0, LOG[0], WIDTH, HEIGHT), fill=(226, 222, 212))
    recent = list(table.log[-2:])
    for i, line in enumerate(recent):
        newest = i == len(recent) - 1
        canvas.text((MARGIN, LOG[0] + 6 + i * 20), canvas.fit(line, WIDTH - 2 * MARGIN,
                                                               size=13, bold=newest),
                    size=13, bold=newest, fill=d.INK)


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER, narrow=NARROW,
    centres=centres,
)
