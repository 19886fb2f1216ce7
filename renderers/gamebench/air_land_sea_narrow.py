"""Air, Land & Sea: the table drawn for a narrow screen (a phone held upright), where the wide
table scaled down to 390 pixels has unreadable cards and tiny targets.

From the top: the score, the 1st Player, the deck and the other seat's hand (card backs);
then each theater in row order as a full-width row — its band (the theater, each side's
strength, who controls it), the other seat's stack on the left and yours on the right
(bottom card first, the uncovered card last and whole, with its text), and two wide places
to play to (face-up, face-down); then what is being decided with the Withdraw and Skip
buttons, your hand as a grid of two columns, and the last public events. The targets and
their names are the wide layout's (see ``air_land_sea_layout.narrow_layout``); everything
drawn comes from the seat's :class:`~games.gamebench.air_land_sea_view.SeatTable`.
"""

from __future__ import annotations

from collections.abc import Sequence

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
from renderers.gamebench.air_land_sea_draw import (
    BACK,
    BACK_INK,
    BUTTON,
    NARROW,
    OFF,
    PALE,
    TYPE_COLOURS,
    marks,
    status,
    table_card,
    wrap,
    wrapped,
)
from renderers.gamebench.air_land_sea_layout import (
    N_EMPTY,
    N_HALF,
    N_INFO,
    N_MARGIN,
    N_ROW_GAP,
    N_WIDTH,
    Narrow,
    hand_cards,
    narrow_layout,
    seen,
)

BAND_INK: d.Colour = (255, 255, 255)
STRIP_BAND: d.Colour = (226, 222, 212)


def narrow_image(state: AirLandSeaState, seat: int, *, selection: Sequence[str] = (),
                 targets: Sequence[str] = (),
                 last: Sequence[str] | None = None, watcher: bool = False) -> Image.Image:
    """The table as ``seat`` sees it, laid out for a narrow screen (marks as in the wide
    image: the selection, what may come next, the last move; ``watcher``: for a spectator,
    the seat named, not "you")."""
    table = seat_table(state, seat)
    hand = tuple(hand_cards(table))
    lay = narrow_layout(seat, table.order, seen(table), hand)
    canvas = d.Canvas(N_WIDTH, lay.height, background=PALE)
    legal = state.legal_actions(seat) if not state.is_terminal() else []
    d.header(canvas, f"{SEATS[seat]}'s view" if watcher else f"You are {SEATS[seat]}",
             status(state, table, watcher=watcher), colour=d.PLAYER[seat])
    _info(canvas, table)
    marked = marks(state, seat, legal, selection, targets, last)
    rows = table.order or (0, 1, 2)
    for i, theater in enumerate(rows):
        _theater(canvas, table, lay, theater, marked, shown=bool(table.order), watcher=watcher)
        if table.order and i < len(rows) - 1:
            below = lay.rows[theater][3]
            canvas.text((N_WIDTH / 2, below + N_ROW_GAP / 2), "↕ adjacent", size=11,
                        fill=d.MUTED, anchor="mm")
    _decide(canvas, table, lay, WITHDRAW in legal, SKIP in legal, marked)
    _hand(canvas, table, lay, hand, marked, watcher)
    _log(canvas, table, lay)
    return canvas.finish()


def _info(canvas: d.Canvas, table: SeatTable) -> None:
    top, bottom = N_INFO
    canvas.rect((0, top, N_WIDTH, bottom), fill=STRIP_BAND)
    right = N_WIDTH - N_MARGIN
    lines = (top + 14, top + 39, top + 65)
    canvas.text((N_MARGIN, lines[0]), f"Battle {max(table.battle, 1)} · VP Red {table.vp[0]} – "
                f"Blue {table.vp[1]}", size=16, bold=True, anchor="lm")
    canvas.text((right, lines[0]), f"war to {table.target}", size=14, fill=d.MUTED, anchor="rm")
    if table.first >= 0:
        canvas.text((N_MARGIN, lines[1]), f"1st Player: {SEATS[table.first]} (wins ties)",
                    size=15, anchor="lm")
    canvas.text((right, lines[1]), f"deck {table.deck}", size=14, fill=d.MUTED, anchor="rm")
    canvas.line([(N_MARGIN, top + 52), (right, top + 52)], fill=d.RULE)
    other = 1 - table.seat
    count = table.hand_sizes[other]
    role = "" if table.first < 0 else (" (1st)" if table.first == other else " (2nd)")
    words = f"{SEATS[other]}{role}: {count} card{'s' * (count != 1)}"
    y = lines[2]
    canvas.circle((N_MARGIN + 8, y), 7, fill=d.PLAYER[other])
    canvas.text((N_MARGIN + 22, y), words, size=15, bold=True, anchor="lm")
    x = N_MARGIN + 30 + canvas.text_width(words, size=15, bold=True)
    for i in range(count):
        canvas.rect((x + i * 13, y - 11, x + i * 13 + 15, y + 11), fill=BACK, outline=BACK_INK,
                    width=1, radius=3)
    notes = []
    if table.air_drop[other]:
        notes.append("Air Drop ready")
    if table.phase == "reinforce" and table.actor == other:
        notes.append("holds a drawn card")
    room = right - (x + count * 13 + 14)
    canvas.text((right, y), canvas.fit(" · ".join(notes), room, size=13), size=13,
                fill=d.MUTED, anchor="rm")


def _theater(canvas: d.Canvas, table: SeatTable, lay: Narrow, theater: int,
             marked: dict[str, d.Colour], *, shown: bool, watcher: bool = False) -> None:
    """One theater's row: its band, both stacks, and the two places to play to."""
    if shown:
        _band(canvas, table, lay, theater, marked.get(THEATERS[theater]))
    for owner in (0, 1):
        cards = table.sides[owner][theater]
        boxes = lay.stacks[owner, theater]
        if not cards:
            x = N_MARGIN if owner != table.seat else N_WIDTH - N_MARGIN - N_HALF
            top = lay.bands[theater][3] + 6
            canvas.rect((x, top, x + N_HALF, top + N_EMPTY), outline=d.RULE, width=1, radius=6)
            who = "you" if owner == table.seat and not watcher else SEATS[owner]
            canvas.text((x + N_HALF / 2, top + N_EMPTY / 2), f"{who}: no cards", size=13,
                        fill=d.MUTED, anchor="mm")
        for i, (box, card) in enumerate(zip(boxes, cards, strict=True)):
            name = (CARDS[card.card].name if card.card is not None
                    else f"{SEATS[owner]}'s face-down card ({THEATERS[theater]})")
            table_card(canvas, box, card, owner, strip_at_top=True,
                       covered=i < len(cards) - 1, mark=marked.get(name), sizes=NARROW)
    if not shown:
        return
    for face_up in (True, False):
        name = zone(theater, face_up)
        box = lay.zones[name]
        lit = marked.get(name) == d.TARGET
        canvas.rect(box, fill=d.TARGET if lit else (246, 244, 238),
                    outline=d.TARGET if lit else d.RULE, width=1.5, radius=8)
        words = f"▲ face-up to {THEATERS[theater]}" if face_up else (
            f"▼ face-down to {THEATERS[theater]}")
        canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), words, size=15,
                    bold=lit, fill=(255, 255, 255) if lit else d.MUTED, anchor="mm")


def _band(canvas: d.Canvas, table: SeatTable, lay: Narrow, theater: int,
          mark: d.Colour | None) -> None:
    x0, y0, x1, y1 = lay.bands[theater]
    middle = (y0 + y1) / 2
    canvas.rect((x0, y0, x1, y1), fill=TYPE_COLOURS[theater], outline=mark or (30, 30, 30),
                width=5 if mark else 1, radius=8)
    canvas.text(((x0 + x1) / 2, middle), THEATERS[theater].upper(), size=21, bold=True,
                fill=BAND_INK, anchor="mm")
    winner = table.control[theater]
    for seat, left in ((1 - table.seat, True), (table.seat, False)):
        strength = str(table.strengths[seat][theater])
        leads = winner == seat
        dot = x0 + 18 if left else x1 - 18
        canvas.circle((dot, middle), 8, fill=d.PLAYER[seat], outline=BAND_INK, width=1.5)
        number_x = dot + 14 if left else dot - 14
        canvas.text((number_x, middle), strength, size=21, bold=True, fill=BAND_INK,
                    anchor="lm" if left else "rm")
        if leads:
            wide = canvas.text_width(strength, size=21, bold=True) + 6
            canvas.text((number_x + wide if left else number_x - wide, middle), "controls",
                        size=13, bold=True, fill=(255, 236, 150), anchor="lm" if left else "rm")


def _decide(canvas: d.Canvas, table: SeatTable, lay: Narrow, can_withdraw: bool,
            can_skip: bool, marked: dict[str, d.Colour]) -> None:
    x0, y0, x1, y1 = lay.decide
    wrapped(canvas, decision(table), (x0, y0 + 4, x1, y1), size=15)
    give = ""
    if table.first >= 0 and not table.over:
        role = 0 if table.first == table.seat else 1
        give = f"gives {SEATS[1 - table.seat]} {withdrawal_points(role, len(table.hand))} VP"
    for name, on, words, below in (("withdraw", can_withdraw, "Withdraw", give),
                                   ("skip", can_skip, "Skip", "")):
        bx0, by0, bx1, by1 = lay.buttons[name]
        canvas.rect((bx0, by0, bx1, by1), fill=BUTTON if on else OFF,
                    outline=marked.get(name) or BUTTON, width=2.5, radius=8)
        y = (by0 + by1) / 2 - (8 if below else 0)
        canvas.text(((bx0 + bx1) / 2, y), words, size=18, bold=True, fill=(255, 255, 255),
                    anchor="mm")
        if below:
            canvas.text(((bx0 + bx1) / 2, y + 18), below, size=13, fill=(230, 230, 230),
                        anchor="mm")


def _hand(canvas: d.Canvas, table: SeatTable, lay: Narrow, hand: tuple[int, ...],
          marked: dict[str, d.Colour], watcher: bool = False) -> None:
    top = lay.hand_area[1]
    count = len(hand)
    whose = f"{SEATS[table.seat]}'s hand" if watcher else "Your hand"
    canvas.text((N_MARGIN, top + 14), f"{whose} ({count} card{'s' * (count != 1)})"
                if count else f"{whose} is empty.", size=15, bold=True, anchor="lm")
    for box, card in zip(lay.hand, hand, strict=True):
        _hand_card(canvas, box, card, marked.get(CARDS[card].name), drawn=card == table.drawn)


def _hand_card(canvas: d.Canvas, box: d.Box, card: int, mark: d.Colour | None, *,
               drawn: bool) -> None:
    face = CARDS[card]
    x0, y0, x1, y1 = box
    canvas.rect(box, fill=d.CARD, outline=mark or (60, 60, 60), width=4 if mark else 1.5,
                radius=8)
    canvas.rect((x0 + 1, y0 + 1, x1 - 1, y0 + 36), fill=TYPE_COLOURS[face.theater], radius=7)
    canvas.text((x0 + 10, y0 + 19), str(face.strength), size=26, bold=True, fill=BAND_INK,
                anchor="lm")
    canvas.text((x1 - 10, y0 + 19), THEATERS[face.theater], size=14, bold=True, fill=BAND_INK,
                anchor="rm")
    canvas.text((x0 + 9, y0 + 52), canvas.fit(face.name, x1 - x0 - 16, size=17, bold=True),
                size=17, bold=True, anchor="lm")
    if face.kind:
        kind = "⚡ Instant" if face.kind == "instant" else "∞ Ongoing"
        canvas.text((x0 + 9, y0 + 74), kind, size=12, bold=True, fill=d.MUTED, anchor="lm")
        wrapped(canvas, face.text, (x0 + 9, y0 + 84, x1 - 7, y1 - 3), size=NARROW.text)
    if drawn:
        canvas.rect((x1 - 108, y0 + 64, x1 - 6, y0 + 84), fill=d.GOLD, radius=5)
        canvas.text((x1 - 57, y0 + 74), "drawn: play it", size=12, bold=True, anchor="mm")


def _log(canvas: d.Canvas, table: SeatTable, lay: Narrow) -> None:
    x0, y0, x1, y1 = lay.log
    canvas.rect((x0, y0, x1, y1), fill=STRIP_BAND)
    width = x1 - x0 - 2 * N_MARGIN
    lines: list[tuple[str, bool]] = []  # whole entries, the newest last (in bold)
    for i, entry in enumerate(reversed(table.log)):
        more = [(line, i == 0) for line in wrap(entry, width, 13, i == 0)]
        if lines and len(more) + len(lines) > 3:
            break
        lines = more + lines
    for i, (line, newest) in enumerate(lines[-3:]):
        canvas.text((N_MARGIN, y0 + 6 + i * 20), canvas.fit(line, width, size=13, bold=newest),
                    size=13, bold=newest, fill=d.INK)
