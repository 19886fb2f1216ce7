"""Arctic Scavengers: the seat's table as an image played by clicking; text view; hit-test.

From top to bottom: the other tribes (size, deck, discard, hand; the cards they played this
round; their skirmish cards once revealed, which are snipe and sabotage targets), the eight
mercenary piles with cost, count and what each does (click one to hire it), the junkyard,
the contested pile (with the card you peeked at, if you are the initiator) and the cards just
dug up (click one to keep it), then your tribe: your hand (click a card to add it to the
action being built, or a medicine to pay with it), the action in progress and a row of
buttons (dig, draw, hunt, trash, end gathering; confirm and cancel; keep nothing; pass).

Click targets are move labels: every spot of :func:`layout` that is a legal move names it,
so :func:`hit_test` and :func:`centres` read the same boxes :func:`image` draws. (It is a
table game for the page: every legal move also gets a button below the image.) Everything
comes from :func:`games.gamebench.arctic_sight.sight`, so the image shows only what the seat
may know.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel
from PIL import Image

from games.gamebench.arctic_cards import CARDS, MERCENARIES, NAMES, SKIRMISH_FROM, action_value
from games.gamebench.arctic_moves import seat_name
from games.gamebench.arctic_sight import Sight, TribeSight, sight
from games.gamebench.arctic_table import ROUNDS
from games.registry import get
from renderers import drawing as d
from renderers.gamebench.arctic_text import headline
from renderers.gamebench.arctic_text import text as text

WIDTH = 760
PAD = 12
CARD_W, CARD_H, GAP = 116, 80, 8
PILE_W, PILE_H = (WIDTH - 2 * PAD - 3 * GAP) // 4, 84
CHIP_W, CHIP_H, BIG_CHIP_H = 104, 26, 28
ROW_H = 52
"""The junkyard, contested pile and round panels."""
YOU_H = 42
BUTTON_H = 38
OPPONENT_H = 62 + 2 * (CHIP_H + 6) + 2
TABLE_H = ROW_H + GAP + 24 + 2 * (BIG_CHIP_H + 6)

KIND_FILL = {"person": (222, 234, 247), "tool": (250, 232, 208), "medicine": (248, 220, 224),
             "junk": (226, 226, 226)}
ICE = (229, 238, 244)
PANEL = (255, 255, 255)
DISABLED = (200, 205, 210)
BUTTONS = ("dig", "draw", "hunt", "trash", "end gathering")


@dataclass(frozen=True)
class Spot:
    """A drawn thing: its box, what it is, and the move label it plays (if any)."""

    box: d.Box
    kind: str
    """card, chip, pile, button, panel, heading, caption, note"""
    text: str
    card: int | None = None
    move: str | None = None
    note: str = ""


def seat_label(seat: int) -> str:
    return seat_name(seat)


def _legal(state: pyspiel.State, seat: int) -> list[str]:
    if state.is_terminal() or state.current_player() != seat:
        return []
    label = get("arctic_scavengers").grammar.label
    return [label(state, seat, a) for a in state.legal_actions(seat)]


def layout(state: pyspiel.State, seat: int) -> tuple[Sight, list[Spot], int]:
    """The seat's sight, every spot of its image, and the image height (fixed for a number
    of players: every section keeps its size, crowded rows shrink their cards)."""
    s = sight(state, seat)
    legal = set(_legal(state, seat))
    spots: list[Spot] = []
    y = d.HEADER_HEIGHT + PAD
    for t in s.tribes:
        if t.seat != seat:
            _opponent(spots, s, t, legal, y)
            y += OPPONENT_H + GAP
    spots.append(Spot((PAD, y, WIDTH - PAD, y + 22), "heading", "Mercenaries: click a pile to "
                      "hire (cost; people; what it does)"))
    y += 24
    for i, (card, count) in enumerate(zip(MERCENARIES, s.mercs, strict=True)):
        x = PAD + (i % 4) * (PILE_W + GAP)
        top = y + (i // 4) * (PILE_H + GAP)
        move = f"hire {NAMES[card]}"
        spots.append(Spot((x, top, x + PILE_W, top + PILE_H), "pile", NAMES[card], card,
                          move if move in legal else None, f"x{count}"))
    y += 2 * PILE_H + GAP + PAD
    _table(spots, s, legal, y)
    y += TABLE_H + PAD
    _mine(spots, s, legal, y)
    return s, spots, height(s.players)


def height(players: int) -> int:
    """The image height at a table of ``players``."""
    return int(regions(players)["buttons"][3]) + PAD


def regions(players: int = 2) -> dict[str, d.Box]:
    """Where the parts of the table are, whatever is on it: ``opponents``, ``piles`` (the
    mercenaries), ``table`` (junkyard, contested pile, and below them the cards just dug up),
    ``you`` (your tribe's line and what you played), ``hand`` (your cards) and ``buttons``."""
    top = d.HEADER_HEIGHT + PAD
    piles = top + (players - 1) * (OPPONENT_H + GAP)
    table = piles + 24 + 2 * PILE_H + GAP + PAD
    you = table + TABLE_H + PAD
    hand = you + YOU_H + 6 + CHIP_H + 6 + 20
    buttons = hand + 2 * (CARD_H + GAP) + 4
    return {"opponents": (PAD, top, WIDTH - PAD, piles - GAP),
            "piles": (PAD, piles, WIDTH - PAD, table - PAD),
            "table": (PAD, table, WIDTH - PAD, you - PAD),
            "you": (PAD, you, WIDTH - PAD, hand),
            "hand": (PAD, hand, WIDTH - PAD, buttons - 4),
            "buttons": (PAD, buttons, WIDTH - PAD, buttons + BUTTON_H)}


def _opponent(spots: list[Spot], s: Sight, t: TribeSight, legal: set[str], y: int) -> None:
    name = seat_name(t.seat).capitalize() + (" (initiator)" if t.seat == s.initiator else "")
    facts = (f"tribe {t.people} people · deck {t.deck_count} · discard {t.discard_count}"
             + (f" · hand {t.hand_count}" if not t.gathered else "")
             + (f" · food {t.food}" if t.food else "")
             + (f" · fight {t.fight}" if t.fight is not None else "")
             + (f" · won {len(t.won)}" if t.won else ""))
    spots.append(Spot((PAD, y, WIDTH - PAD, y + OPPONENT_H), "panel", name, note=facts))
    chips: list[tuple[int, str | None, str]] = [(c, None, "played") for c in t.played]
    if t.gathered and t.force is not None:
        whose = "" if s.players == 2 else f" of {seat_name(t.seat)}"
        for card in t.force:
            move = next((m for m in (f"snipe {NAMES[card]}{whose}",
                                     f"sabotage {NAMES[card]}{whose}") if m in legal), None)
            chips.append((card, move, "fights"))
    elif t.gathered:
        kept = f"keeps {t.force_count} card{'s' * (t.force_count != 1)} face down"
        spots.append(Spot((WIDTH - PAD - 250, y + 8, WIDTH - PAD - 10, y + 26), "note", kept))
    caption = ("Played this round, and in the skirmish (bold)" if t.force and t.played else
               "In the skirmish" if t.force else
               "Played this round" if chips else "Nothing played yet this round")
    if t.force and any(move for _, move, _ in chips):
        caption += ": click a person to snipe it, a tool to sabotage it"
    spots.append(Spot((PAD + 10, y + 44, WIDTH - PAD - 10, y + 60), "caption", caption))
    _chips(spots, chips, (PAD + 10, y + 62, WIDTH - PAD - 10), rows=2)


def _chips(spots: list[Spot], chips: list[tuple[int, str | None, str]],
           where: tuple[float, float, float], *, rows: int, tall: int = CHIP_H) -> None:
    """Chips in at most ``rows`` rows from (left, top) to ``right``, narrower when crowded."""
    left, top, right = where
    if not chips:
        return
    per_row = max(int((right - left + 6) // (CHIP_W + 6)), -(-len(chips) // rows))
    width = min(CHIP_W, (right - left - 6 * (per_row - 1)) / per_row)
    for i, (card, move, note) in enumerate(chips):
        x = left + (i % per_row) * (width + 6)
        y = top + (i // per_row) * (tall + 6)
        spots.append(Spot((x, y, x + width, y + tall), "chip", NAMES[card], card, move, note))


def _table(spots: list[Spot], s: Sight, legal: set[str], y: int) -> None:
    """The junkyard, the contested pile and the round; below them what was just dug up (to
    keep one) or the latest events."""
    third = (WIDTH - 2 * PAD - 2 * GAP) // 3
    junk = len(s.junk) + len(s.bottom)
    bottom = ", ".join(NAMES[c] for c in s.bottom[-3:])
    spots.append(Spot((PAD, y, PAD + third, y + ROW_H), "panel", "Junkyard",
                      note=f"{junk} cards" + (f" · bottom: …{bottom}" if bottom else "")))
    peek = f" · next: {NAMES[s.peeked]}" if s.peeked is not None else ""
    spots.append(Spot((PAD + third + GAP, y, PAD + 2 * third + GAP, y + ROW_H), "panel",
                      "Contested resources", note=f"{len(s.contested)} left{peek}"))
    phase = ("a skirmish every round" if s.round >= SKIRMISH_FROM
             else f"first skirmish in round {SKIRMISH_FROM}")
    spots.append(Spot((PAD + 2 * (third + GAP), y, WIDTH - PAD, y + ROW_H), "panel",
                      f"Round {max(s.round, 1)} of {ROUNDS}", note=phase))
    y += ROW_H + GAP
    if s.dug:
        spots.append(Spot((PAD, y, WIDTH - PAD, y + 20), "heading",
                          "Dug up: click the card to keep (the rest go under the junkyard)"))
        chips = [(c, f"keep {NAMES[c]}" if f"keep {NAMES[c]}" in legal else None, "dug")
                 for c in s.dug]
        _chips(spots, chips, (PAD, y + 24, WIDTH - PAD), rows=2, tall=BIG_CHIP_H)
        return
    spots.append(Spot((PAD, y, WIDTH - PAD, y + 20), "heading", "Latest"))
    for i, line in enumerate(s.log[-3:]):
        spots.append(Spot((PAD, y + 24 + i * 20, WIDTH - PAD, y + 42 + i * 20), "note", line))


def _mine(spots: list[Spot], s: Sight, legal: set[str], y: int) -> None:
    me = s.me
    name = "You, " + seat_name(s.seat) + (" (initiator)" if s.seat == s.initiator else "")
    facts = (f"tribe {me.people} people · deck {me.deck_count} · discard {me.discard_count}"
             + f" · food {me.food}" + (f" · fight {me.fight}" if me.fight is not None else "")
             + (f" · used {', '.join(me.used)}" if me.used else ""))
    spots.append(Spot((PAD, y, WIDTH - PAD, y + YOU_H), "panel", name, note=facts))
    chips: list[tuple[int, str | None, str]] = [(c, None, "played") for c in me.played]
    chips += [(c, None, "chosen") for c in s.picked + s.paid]
    _chips(spots, chips, (PAD, y + YOU_H + 6, WIDTH - PAD), rows=1)
    y += YOU_H + 6 + CHIP_H + 6
    cards = list(me.hand or ()) if not me.gathered else list(me.force or ())
    caption = ("Your hand" if not me.gathered else
               "Your skirmish cards" if s.round >= SKIRMISH_FROM else "Kept in hand")
    if s.over:
        caption = "Final tribes (every card counts): " + ", ".join(
            f"{'you' if t.seat == s.seat else seat_name(t.seat)} {t.people} people"
            for t in s.tribes)
    if s.phase == "pick" and s.actor == s.seat:
        caption += f": click cards to {s.pick_kind} with" if s.pick_kind != "trash" else (
            ": click cards to trash")
    elif s.phase == "pay" and s.actor == s.seat and s.hiring is not None:
        caption += f": click medicine to pay ({s.due} due for the {NAMES[s.hiring]})"
    spots.append(Spot((PAD, y, WIDTH - PAD, y + 18), "heading", caption))
    y += 20
    per_row = max(6, -(-len(cards) // 2))
    width = min(CARD_W, (WIDTH - 2 * PAD - GAP * (per_row - 1)) / per_row)
    for i, card in enumerate(cards):
        x = PAD + (i % per_row) * (width + GAP)
        top = y + (i // per_row) * (CARD_H + GAP)
        move = next((m for m in (f"add {NAMES[card]}", f"pay with {NAMES[card]}")
                     if m in legal), None)
        spots.append(Spot((x, top, x + width, top + CARD_H), "card", NAMES[card], card, move))
    _buttons(spots, s, legal, y + 2 * (CARD_H + GAP) + 4)


def _buttons(spots: list[Spot], s: Sight, legal: set[str], y: float) -> None:
    if s.actor != s.seat:
        return
    if s.phase == "gather":
        names = list(BUTTONS)
    else:
        names = [m for m in legal if not _on_cards(m)]
    width = (WIDTH - 2 * PAD - (len(names) - 1) * GAP) / max(1, len(names))
    for i, label in enumerate(sorted(names, key=_button_order)):
        x = PAD + i * (width + GAP)
        spots.append(Spot((x, y, x + width, y + BUTTON_H), "button", _caption(s, label),
                          move=label if label in legal else None))


def _caption(s: Sight, label: str) -> str:
    """What a button says: its move, or for a confirmation what the action will do."""
    kind = s.pick_kind
    if s.phase != "pick" or label in ("cancel", kind) or not label.startswith(kind):
        return label[:1].upper() + label[1:]
    if kind == "trash":
        return f"Trash {len(s.picked)} card{'s' * (len(s.picked) != 1)}"
    value = action_value(s.picked, kind)
    what = {"dig": f"turn up {value} card{'s' * (value != 1)}", "draw": f"draw {value}",
            "hunt": f"{value} food"}[kind]
    return f"{kind.capitalize()}: {what}"


def _on_cards(label: str) -> bool:
    """A move played by clicking a card or a pile rather than a button."""
    if label == "keep nothing":
        return False
    return label.startswith(("add ", "pay with ", "keep ", "snipe ", "sabotage ", "hire "))


def _button_order(label: str) -> int:
    if label in BUTTONS:
        return BUTTONS.index(label)
    return {"cancel": 9, "pass": 8, "keep nothing": 7}.get(label, 6)


# --- the three faces of the table --------------------------------------------------------------


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = ()) -> str | None:
    """The move label at (x, y), or the name of a card or pile that is not a move now."""
    for spot in reversed(layout(state, seat)[1]):
        x0, y0, x1, y1 = spot.box
        if spot.kind in ("card", "chip", "pile", "button") and x0 <= x < x1 and y0 <= y < y1:
            return spot.move or spot.text
    return None


def centres(state: pyspiel.State, seat: int) -> dict[str, tuple[float, float]]:
    """Every legal move on the image and the pixel at its centre (the inverse of hit_test)."""
    found: dict[str, tuple[float, float]] = {}
    for spot in layout(state, seat)[1]:
        if spot.move is not None and spot.move not in found:
            x0, y0, x1, y1 = spot.box
            found[spot.move] = ((x0 + x1) / 2, (y0 + y1) / 2)
    return found


def image(state: pyspiel.State, seat: int, *, selection: tuple[str, ...] = (),
          targets: tuple[str, ...] | list[str] = (),
          last: tuple[str, ...] | None = None) -> Image.Image:
    s, spots, tall = layout(state, seat)
    canvas = d.Canvas(WIDTH, tall, ICE)
    d.header(canvas, "Arctic Scavengers", headline(s), colour=d.PLAYER[seat % 2])
    for spot in spots:
        _draw(canvas, spot)
    return canvas.finish()


def _draw(canvas: d.Canvas, spot: Spot) -> None:
    x0, y0, x1, y1 = spot.box
    live = spot.move is not None
    if spot.kind == "heading":
        canvas.text((x0, y0 + 2), canvas.fit(spot.text, x1 - x0, size=14), size=14,
                    fill=d.MUTED, bold=True)
    elif spot.kind == "caption":
        canvas.text((x0, y0), canvas.fit(spot.text, x1 - x0, size=12), size=12, fill=d.MUTED)
    elif spot.kind == "note":
        canvas.text((x0, y0 + 2), canvas.fit(spot.text, x1 - x0, size=13), size=13, fill=d.INK)
    elif spot.kind == "panel":
        canvas.rect(spot.box, fill=PANEL, outline=d.RULE, radius=8)
        canvas.text((x0 + 10, y0 + 7), spot.text, size=15, bold=True)
        canvas.text((x0 + 10, y0 + 27), canvas.fit(spot.note, x1 - x0 - 20, size=13), size=13,
                    fill=d.MUTED)
    elif spot.kind == "button":
        fill = d.GRID_BLUE if live else DISABLED
        canvas.rect(spot.box, fill=fill, radius=8)
        canvas.text(((x0 + x1) / 2, (y0 + y1) / 2),
                    canvas.fit(spot.text, x1 - x0 - 12, size=14, bold=True),
                    size=14, bold=True, fill=d.HEADER_INK, anchor="mm")
    elif spot.kind == "chip":
        assert spot.card is not None
        fill = KIND_FILL[CARDS[spot.card].kind]
        chosen = spot.note == "chosen"
        outline = d.TARGET if live else d.SELECTED if chosen else d.RULE
        canvas.rect(spot.box, fill=fill, outline=outline, width=3 if live or chosen else 1,
                    radius=6)
        size = 14 if y1 - y0 >= BIG_CHIP_H else 12
        canvas.text(((x0 + x1) / 2, (y0 + y1) / 2),
                    canvas.fit(spot.text, x1 - x0 - 8, size=size, bold=spot.note != "played"),
                    size=size, bold=spot.note != "played", anchor="mm")
    elif spot.kind == "pile":
        _pile(canvas, spot)
    else:
        _card(canvas, spot)


def _pile(canvas: d.Canvas, spot: Spot) -> None:
    x0, y0, x1, y1 = spot.box
    card = spot.card
    assert card is not None
    info = CARDS[card]
    live = spot.move is not None
    canvas.rect(spot.box, fill=PANEL if spot.note != "x0" else DISABLED,
                outline=d.TARGET if live else d.RULE, width=3 if live else 1, radius=8)
    canvas.text((x0 + 8, y0 + 5), info.name, size=14, bold=True)
    canvas.text((x1 - 8, y0 + 5), spot.note, size=14, bold=True, fill=d.MUTED, anchor="ra")
    cost = info.cost.text() if info.cost else ""
    canvas.text((x0 + 8, y0 + 23), canvas.fit(cost, x1 - x0 - 16, size=12), size=12,
                fill=d.BAD)
    for i, line in enumerate(_wrapped(canvas, _abilities(card), x1 - x0 - 16)[:3]):
        canvas.text((x0 + 8, y0 + 40 + i * 15), line, size=12, fill=d.INK)


def _card(canvas: d.Canvas, spot: Spot) -> None:
    x0, y0, x1, y1 = spot.box
    card = spot.card
    assert card is not None
    live = spot.move is not None
    canvas.rect(spot.box, fill=KIND_FILL[CARDS[card].kind],
                outline=d.TARGET if live else d.INK, width=3 if live else 1, radius=8)
    canvas.text((x0 + 7, y0 + 6), canvas.fit(spot.text, x1 - x0 - 12, size=14), size=14,
                bold=True)
    for i, line in enumerate(_wrapped(canvas, _abilities(card), x1 - x0 - 12)[:3]):
        canvas.text((x0 + 7, y0 + 26 + i * 16), line, size=12)


def _abilities(card: int) -> list[list[str]]:
    """Groups of short words: people, special and skills; boosts; medicine."""
    info = CARDS[card]
    groups = []
    if info.people:
        groups.append([f"{info.people} {'person' if info.people == 1 else 'people'}"]
                      + ([info.special] if info.special else [])
                      + [f"{k} {v}" for k, v in info.skills.items()])
    if info.boosts:
        groups.append([f"+{v} {k}" for k, v in info.boosts.items()] if not info.leader
                      else ["+2 to one action"])
    if info.medicine:
        groups.append([f"medicine {info.medicine}"])
    if info.kind == "junk":
        groups.append(["no use"])
    return groups


def _wrapped(canvas: d.Canvas, groups: list[list[str]], width: float) -> list[str]:
    """Each group on its own lines, words joined by ' · ' while they fit in ``width``."""
    lines: list[str] = []
    for words in groups:
        line = ""
        for word in words:
            joined = f"{line} · {word}" if line else word
            if line and canvas.text_width(joined, size=12) > width:
                lines.append(line)
                joined = word
            line = joined
        lines.append(canvas.fit(line, width, size=12))
    return lines
