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

This module places the wide table (760 px, also what a vision model gets); ``narrow=True``
asks for the one-column table for phones (:mod:`renderers.gamebench.arctic_narrow`). Both
are lists of the spots of :mod:`renderers.gamebench.arctic_draw`, which draws them.
"""

from __future__ import annotations

from dataclasses import replace

import pyspiel
from PIL import Image

from games.gamebench.arctic_cards import MERCENARIES, NAMES, SKIRMISH_FROM
from games.gamebench.arctic_moves import seat_name
from games.gamebench.arctic_sight import Sight, TribeSight, sight
from games.gamebench.arctic_table import ROUNDS
from renderers import drawing as d
from renderers.contract import Renderer
from renderers.gamebench import arctic_narrow
from renderers.gamebench.arctic_draw import (
    ICE,
    NARROW_LOOK,
    WIDE_LOOK,
    Chip,
    Spot,
    button_names,
    caption,
    card_move,
    draw,
    hand_caption,
    kept_back,
    legal_labels,
    my_cards,
    my_chips,
    my_facts,
    my_name,
    opponent_caption,
    opponent_chips,
    opponent_facts,
    opponent_name,
)
from renderers.gamebench.arctic_text import headline
from renderers.gamebench.arctic_text import text as text

NARROW = True
"""``image``, ``hit_test`` and ``centres`` take ``narrow=True``: the table in one column for
a phone held upright (:mod:`renderers.gamebench.arctic_narrow`)."""

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


def seat_label(seat: int) -> str:
    return seat_name(seat)


def layout(state: pyspiel.State, seat: int, *,
           narrow: bool = False) -> tuple[Sight, list[Spot], int]:
    """The seat's sight, every spot of its image, and the image height (fixed for a number
    of players: every section keeps its size, crowded rows shrink their cards)."""
    s = sight(state, seat)
    legal = set(legal_labels(state, seat))
    if narrow:
        return s, arctic_narrow.spots(s, legal), arctic_narrow.height(s.players)
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


def height(players: int, *, narrow: bool = False) -> int:
    """The image height at a table of ``players``."""
    return int(regions(players, narrow=narrow)["buttons"][3]) + PAD


def regions(players: int = 2, *, narrow: bool = False) -> dict[str, d.Box]:
    """Where the parts of the table are, whatever is on it: ``opponents``, ``piles`` (the
    mercenaries), ``table`` (junkyard, contested pile, and below them the cards just dug up),
    ``you`` (your tribe's line and what you played), ``hand`` (your cards) and ``buttons``."""
    if narrow:
        return arctic_narrow.regions(players)
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
    spots.append(Spot((PAD, y, WIDTH - PAD, y + OPPONENT_H), "panel", opponent_name(s, t),
                      note=opponent_facts(t)))
    chips = opponent_chips(s, t, legal)
    if kept := kept_back(t):
        spots.append(Spot((WIDTH - PAD - 250, y + 8, WIDTH - PAD - 10, y + 26), "note", kept))
    spots.append(Spot((PAD + 10, y + 44, WIDTH - PAD - 10, y + 60), "caption",
                      opponent_caption(t, chips, "click")))
    _chips(spots, chips, (PAD + 10, y + 62, WIDTH - PAD - 10), rows=2)


def _chips(spots: list[Spot], chips: list[Chip], where: tuple[float, float, float], *,
           rows: int, tall: int = CHIP_H) -> None:
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
    spots.append(Spot((PAD, y, WIDTH - PAD, y + YOU_H), "panel", my_name(s), note=my_facts(s)))
    _chips(spots, my_chips(s), (PAD, y + YOU_H + 6, WIDTH - PAD), rows=1)
    y += YOU_H + 6 + CHIP_H + 6
    cards = my_cards(s)
    spots.append(Spot((PAD, y, WIDTH - PAD, y + 18), "heading", hand_caption(s, "click")))
    y += 20
    per_row = max(6, -(-len(cards) // 2))
    width = min(CARD_W, (WIDTH - 2 * PAD - GAP * (per_row - 1)) / per_row)
    for i, card in enumerate(cards):
        x = PAD + (i % per_row) * (width + GAP)
        top = y + (i // per_row) * (CARD_H + GAP)
        spots.append(Spot((x, top, x + width, top + CARD_H), "card", NAMES[card], card,
                          card_move(card, legal)))
    _buttons(spots, s, legal, y + 2 * (CARD_H + GAP) + 4)


def _buttons(spots: list[Spot], s: Sight, legal: set[str], y: float) -> None:
    names = button_names(s, legal)
    width = (WIDTH - 2 * PAD - (len(names) - 1) * GAP) / max(1, len(names))
    for i, label in enumerate(names):
        x = PAD + i * (width + GAP)
        spots.append(Spot((x, y, x + width, y + BUTTON_H), "button", caption(s, label),
                          move=label if label in legal else None))


# --- the three faces of the table --------------------------------------------------------------


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = (), narrow: bool = False) -> str | None:
    """The move label at (x, y), or the name of a card or pile that is not a move now."""
    for spot in reversed(layout(state, seat, narrow=narrow)[1]):
        x0, y0, x1, y1 = spot.box
        if spot.kind in ("card", "chip", "pile", "button") and x0 <= x < x1 and y0 <= y < y1:
            return spot.move or spot.text
    return None


def centres(state: pyspiel.State, seat: int, *,
            narrow: bool = False) -> dict[str, tuple[float, float]]:
    """Every legal move on the image and the pixel at its centre (the inverse of hit_test)."""
    found: dict[str, tuple[float, float]] = {}
    for spot in layout(state, seat, narrow=narrow)[1]:
        if spot.move is not None and spot.move not in found:
            x0, y0, x1, y1 = spot.box
            found[spot.move] = ((x0 + x1) / 2, (y0 + y1) / 2)
    return found


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the seat
named, never "you")."""


def image(state: pyspiel.State, seat: int, *, selection: tuple[str, ...] = (),
          targets: tuple[str, ...] | list[str] = (),
          last: tuple[str, ...] | None = None, narrow: bool = False,
          watcher: bool = False) -> Image.Image:
    s, spots, tall = layout(state, seat, narrow=narrow)
    if watcher:
        spots = _watched(s, spots, "tap" if narrow else "click")
    canvas = d.Canvas(arctic_narrow.WIDTH if narrow else WIDTH, tall, ICE)
    if narrow:
        arctic_narrow.header(canvas, headline(s, watcher=watcher), d.PLAYER[seat % 2])
    else:
        d.header(canvas, "Arctic Scavengers", headline(s, watcher=watcher),
                 colour=d.PLAYER[seat % 2])
    look = NARROW_LOOK if narrow else WIDE_LOOK
    for spot in spots:
        draw(canvas, spot, look)
    return canvas.finish()


def _watched(s: Sight, spots: list[Spot], verb: str) -> list[Spot]:
    """``spots`` for a watcher: the seat's panel and hand caption name the seat (the spots'
    places, and so the hit-test, are the seat's own)."""
    said = {("panel", my_name(s)): my_name(s, watcher=True),
            ("heading", hand_caption(s, verb)): hand_caption(s, verb, watcher=True)}
    return [replace(spot, text=said.get((spot.kind, spot.text), spot.text)) for spot in spots]


_BUILDING = ("dig", "draw", "hunt", "trash", "cancel")
"""Labels of the steps that build an action (and ``cancel``, which drops it): a turn's
summary leaves them out, with every ``add <card>``."""


def turn_over(label: str) -> bool:
    """Whether the move ``label`` ends the seat's turn (the next move of the same seat, in
    the next round or skirmish, is a turn of its own)."""
    return label in ("end gathering", "pass") or label.startswith(("snipe ", "sabotage "))


def turn_summary(labels: list[str]) -> str:
    """One seat's run of moves in a row (a gathering turn, built step by step) as one move:
    what it did, without the steps that built it or were cancelled (``dig with Shovel +
    Brawler; keep Medkit; end gathering``, not ``dig, add Shovel, cancel, ...``). The move
    list and replays show a turn this way; the record keeps every step."""
    done = [label for label in labels
            if label not in _BUILDING and not label.startswith("add ")]
    return "; ".join(done) if done else (labels[-1] if labels else "")


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER, narrow=NARROW,
    centres=centres, seat_label=seat_label, turn_summary=turn_summary,
    turn_over=turn_over,
)
