"""Pit: the seat's table (traders, their offers by count, the seat's own hand with count chips,
the action buttons, the hand's events) as an image to click, and the same as text.

Everything is drawn from :func:`games.gamebench.pit_view.observe`, the seat's own knowledge,
so no view can hold another seat's cards. Click targets are the steps of the move grammar's
click paths: ``2 Wheat`` (a count chip of a commodity row), ``Bull``, ``Bear``, ``make the
offer``, ``player 3's offer`` (an offer on the table), ``pass``, ``withdraw my offer``.
"""

from __future__ import annotations

import pyspiel
from PIL import Image

from games.gamebench.pit import (
    MAKE_OFFER,
    PASS_TARGET,
    WITHDRAW_TARGET,
    bundle_of,
    offer_target,
)
from games.gamebench.pit_cards import BEAR, BULL, COMMODITIES, MAX_TRADE, seat_name
from games.gamebench.pit_rules import PitState
from games.gamebench.pit_view import LOG_LINES, Knowledge, observe
from renderers.contract import Renderer
from renderers.drawing import (
    GOLD,
    HEADER_HEIGHT,
    INK,
    MUTED,
    PLAYER,
    RULE,
    SELECTED,
    TARGET,
    Box,
    Canvas,
    Colour,
    header,
    history_panel,
)

WIDTH = 600
PAD = 12
ROW = 28
"""Height of a trader's row."""
HAND_ROW = 40
CHIP_W, CHIP_H, CHIP_GAP = 64, 32, 8
CHIPS_LEFT = WIDTH - PAD - 10 - MAX_TRADE * CHIP_W - (MAX_TRADE - 1) * CHIP_GAP
BUTTON_H = 40
LOG_ROWS = 8

COLOURS: dict[int, Colour] = {
    0: (201, 140, 20), 1: (166, 124, 82), 2: (111, 78, 55), 3: (222, 184, 30),
    4: (214, 96, 140), 5: (76, 140, 64), 6: (128, 128, 40), 7: (238, 128, 24),
    BULL: (180, 40, 40), BEAR: (70, 70, 78),
}
OFFER_TAG: Colour = (255, 244, 214)


OFF_TARGET = ("Click a count chip in your hand, an offer on the table or a button; or pick a "
              "move from the list.")
"""The notice for a click off every target."""


def seat_label(seat: int) -> str:
    return seat_name(seat)


WATCHER = True
"""``text`` and ``image`` take ``watcher=True``: the seat's view for a spectator (the seat
named, never "you")."""


# --- layout ----------------------------------------------------------------------------------

class Layout:
    """Where everything of one seat's table sits (depends only on the number of players)."""

    def __init__(self, players: int, specials: bool) -> None:
        self.players = players
        self.traders_top = HEADER_HEIGHT + PAD
        self.traders_bottom = self.traders_top + 34 + ROW * players + 6
        self.hand_top = self.traders_bottom + PAD
        self.rows = list(range(players)) + ([BULL, BEAR] if specials else [])
        self.hand_bottom = self.hand_top + 34 + HAND_ROW * len(self.rows) + 4
        self.buttons_top = self.hand_bottom + 34
        self.log_top = self.buttons_top + BUTTON_H + PAD
        self.height = self.log_top + 36 + 22 * LOG_ROWS + PAD

    def trader_row(self, seat: int) -> Box:
        y0 = self.traders_top + 34 + ROW * seat
        return (PAD + 6, y0, WIDTH - PAD - 6, y0 + ROW)

    def offer_tag(self, seat: int) -> Box:
        _, y0, x1, y1 = self.trader_row(seat)
        return (x1 - 150, y0 + 3, x1 - 4, y1 - 3)

    def hand_row(self, card: int) -> Box:
        y0 = self.hand_top + 34 + HAND_ROW * self.rows.index(card)
        return (PAD + 6, y0, WIDTH - PAD - 6, y0 + HAND_ROW - 4)

    def chip(self, card: int, count: int) -> Box:
        """The chip giving ``count`` cards of a commodity, or (count 1) the Bull/Bear chip."""
        _, y0, _, y1 = self.hand_row(card)
        if card in (BULL, BEAR):
            x1 = WIDTH - PAD - 10
            return (x1 - 2 * CHIP_W - CHIP_GAP, y0 + 2, x1, y1 - 2)
        x0 = CHIPS_LEFT + (count - 1) * (CHIP_W + CHIP_GAP)
        return (x0, y0 + 2, x0 + CHIP_W, y1 - 2)

    def button(self, target: str) -> Box:
        order = (MAKE_OFFER, PASS_TARGET, WITHDRAW_TARGET)
        width = (WIDTH - 2 * PAD - 2 * 10) / 3
        x0 = PAD + order.index(target) * (width + 10)
        return (x0, self.buttons_top, x0 + width, self.buttons_top + BUTTON_H)


def _layout(state: PitState) -> Layout:
    game = state.get_game()
    return Layout(game.players, game.bull_bear)


def _targets(known: Knowledge, layout: Layout) -> dict[str, Box]:
    """Every click target drawn for this seat, with its box."""
    found: dict[str, Box] = {name: layout.button(name)
                             for name in (MAKE_OFFER, PASS_TARGET, WITHDRAW_TARGET)}
    for spot in known.table:
        if spot.seat != known.seat and spot.offer is not None:
            found[offer_target(spot.seat)] = layout.offer_tag(spot.seat)
    for card in layout.rows:
        held = known.hand[card]
        if card in (BULL, BEAR):
            if held:
                found["Bull" if card == BULL else "Bear"] = layout.chip(card, 1)
            continue
        for count in range(1, min(MAX_TRADE, held) + 1):
            found[f"{count} {COMMODITIES[card][0]}"] = layout.chip(card, count)
    return found


def centres(state: pyspiel.State, seat: int) -> dict[str, tuple[float, float]]:
    """Every click target at its centre: the inverse of :func:`hit_test`."""
    assert isinstance(state, PitState)
    return {name: ((x0 + x1) / 2, (y0 + y1) / 2)
            for name, (x0, y0, x1, y1) in _targets(observe(state, seat, events=False),
                                                   _layout(state)).items()}


def hit_test(state: pyspiel.State, seat: int, x: float, y: float, *,
             selection: tuple[str, ...] = ()) -> str | None:
    assert isinstance(state, PitState)
    for name, (x0, y0, x1, y1) in _targets(observe(state, seat, events=False),
                                           _layout(state)).items():
        if x0 <= x < x1 and y0 <= y < y1:
            return name
    return None


# --- the image ---------------------------------------------------------------------------------

def image(state: pyspiel.State, seat: int, *, selection: tuple[str, ...] = (),
          targets: tuple[str, ...] | list[str] = (),
          last: tuple[str, ...] | None = None, watcher: bool = False) -> Image.Image:
    assert isinstance(state, PitState)
    known = observe(state, seat, watcher=watcher)
    layout = _layout(state)
    canvas = Canvas(WIDTH, layout.height)
    title = f"Pit · {seat_name(seat)}'s view" if watcher else f"Pit · you are {seat_name(seat)}"
    header(canvas, title, _status(known, watcher), colour=GOLD)
    lit = set(targets)
    _traders(canvas, known, layout, selection, lit, watcher)
    _hand(canvas, known, layout, selection, lit, watcher)
    _buttons(canvas, known, layout, selection, lit, watcher)
    lines = ([f"Last hand: {known.last_corner}"] if known.last_corner else []) + list(known.log)
    history_panel(canvas, (PAD, layout.log_top, WIDTH - PAD, layout.height - PAD),
                  f"Hand {known.hand_number}", lines, last_marked=True, size=13)
    return canvas.finish()


def _status(known: Knowledge, watcher: bool = False) -> str:
    if known.over:
        best = max(known.scores)
        tied = [t.seat for t in known.table if t.score == best]
        if watcher:
            verdict = " and ".join(seat_name(s) for s in tied) + " won"
            verdict = verdict[:1].upper() + verdict[1:]
        elif known.seat in tied:
            verdict = "you won" if len(tied) == 1 else "you tied for first"
        else:
            verdict = f"{seat_name(tied[0])} won"
        how = "target reached" if known.ended_by == "target" else "turn limit"
        return f"Game over: {verdict} · {how}"
    where = f"Hand {known.hand_number} · round {known.round}/{known.max_rounds}"
    if known.to_move == known.seat and not watcher:
        return f"{where} · your turn"
    return f"{where} · {seat_name(known.to_move or 0)} to move"


def _traders(canvas: Canvas, known: Knowledge, layout: Layout, selection: tuple[str, ...],
             lit: set[str], watcher: bool) -> None:
    box = (PAD, layout.traders_top, WIDTH - PAD, layout.traders_bottom)
    canvas.rect(box, fill=(255, 255, 255), outline=RULE, radius=8)
    canvas.text((PAD + 12, layout.traders_top + 10), f"Traders · first to {known.target} wins",
                size=14, bold=True, fill=MUTED)
    for spot in known.table:
        x0, y0, x1, y1 = layout.trader_row(spot.seat)
        mid = (y0 + y1) / 2
        you = spot.seat == known.seat
        if known.to_move == spot.seat:
            canvas.rect((x0, y0 + 1, x1, y1 - 1), fill=(255, 236, 204), radius=5)
            canvas.text((x0 + 4, mid), "▶", size=12, fill=INK, anchor="lm")
        canvas.text((x0 + 22, mid), seat_name(spot.seat) + (" (you)" if you and not watcher
                                                              else ""), size=14,
                    bold=you, fill=PLAYER[0] if you else INK, anchor="lm")
        canvas.text((x0 + 200, mid), f"{spot.score} pts", size=14, bold=True, fill=INK,
                    anchor="rm")
        canvas.text((x0 + 290, mid), f"{spot.cards} cards", size=13, fill=MUTED, anchor="rm")
        tag = layout.offer_tag(spot.seat)
        if spot.offer is None:
            canvas.text(((tag[0] + tag[2]) / 2, mid), "no offer", size=12, fill=MUTED,
                        anchor="mm")
            continue
        target = offer_target(spot.seat)
        chosen = target in selection
        canvas.rect(tag, fill=SELECTED if chosen else OFFER_TAG,
                    outline=TARGET if target in lit else GOLD, width=2.5 if target in lit else 1,
                    radius=6)
        mine = "you offer" if not watcher else "offers"
        words = (f"{mine} {known.offer.text()}" if you and known.offer
                 else f"offers {_cards(spot.offer)}")
        canvas.text(((tag[0] + tag[2]) / 2, mid), canvas.fit(words, tag[2] - tag[0] - 8, size=13,
                                                             bold=True),
                    size=13, bold=True, fill=INK, anchor="mm")


def _hand(canvas: Canvas, known: Knowledge, layout: Layout, selection: tuple[str, ...],
          lit: set[str], watcher: bool) -> None:
    box = (PAD, layout.hand_top, WIDTH - PAD, layout.hand_bottom)
    canvas.rect(box, fill=(255, 255, 255), outline=RULE, radius=8)
    total = sum(known.hand)
    whose = f"{seat_name(known.seat).capitalize()}'s hand" if watcher else "Your hand"
    canvas.text((PAD + 12, layout.hand_top + 10), f"{whose} · {total} cards", size=14,
                bold=True, fill=MUTED)
    offered = known.offer.cards() if known.offer else [0] * len(known.hand)
    for card in layout.rows:
        x0, y0, x1, y1 = layout.hand_row(card)
        held = known.hand[card]
        name = "Bull" if card == BULL else "Bear" if card == BEAR else COMMODITIES[card][0]
        note = ("wild" if card == BULL else "-20" if card == BEAR
                else str(COMMODITIES[card][1]))
        colour = COLOURS[card] if held else (222, 226, 230)
        canvas.rect((x0, y0 + 2, x0 + 150, y1 - 2), fill=colour, radius=6)
        canvas.text((x0 + 10, (y0 + y1) / 2), name, size=15, bold=True,
                    fill=(255, 255, 255) if held else MUTED, anchor="lm")
        canvas.text((x0 + 142, (y0 + y1) / 2), note, size=12, fill=(255, 255, 255)
                    if held else MUTED, anchor="rm")
        count = f"× {held}" + (f" ({offered[card]} offered)" if offered[card] else "")
        canvas.text((x0 + 160, (y0 + y1) / 2), count, size=14 if not offered[card] else 12,
                    bold=True, fill=INK if held else MUTED, anchor="lm")
        if card in (BULL, BEAR):
            if held:
                _chip(canvas, layout.chip(card, 1), f"add the {name}", name, selection, lit)
            continue
        for n in range(1, min(MAX_TRADE, held) + 1):
            target = f"{n} {name}"
            _chip(canvas, layout.chip(card, n), str(n), target, selection, lit)


def _chip(canvas: Canvas, box: Box, text: str, target: str, selection: tuple[str, ...],
          lit: set[str]) -> None:
    chosen = target in selection
    canvas.rect(box, fill=SELECTED if chosen else (248, 249, 250),
                outline=TARGET if target in lit else RULE, width=2.5 if target in lit else 1,
                radius=6)
    canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), text, size=14, bold=True,
                fill=INK, anchor="mm")


def _buttons(canvas: Canvas, known: Knowledge, layout: Layout, selection: tuple[str, ...],
             lit: set[str], watcher: bool) -> None:
    acting = known.to_move == known.seat and not known.over
    picked = [s for s in selection if s != MAKE_OFFER]
    if known.over:
        hint = "The game is over."
    elif watcher:
        name = seat_name(known.seat).capitalize()
        hint = f"{name} trades now." if acting else f"{name} waits for their turn."
    elif not acting:
        hint = "Wait for your turn."
    elif picked and picked[0].endswith("'s offer"):
        size = next(t.offer for t in known.table if offer_target(t.seat) == picked[0])
        chosen = bundle_of(" + ".join(picked[1:]))
        have = chosen.size if chosen else 0
        hint = (f"Accepting {picked[0]} ({_cards(size)}): pick {_cards((size or 0) - have)} "
                "more to give.")
    elif picked:
        chosen = bundle_of(" + ".join(picked))
        hint = f"Your offer: {chosen.text() if chosen else ''}. Add the Bull or Bear, or make it."
    else:
        hint = "Pick cards to offer, or click an offer on the table to accept it."
    canvas.text((PAD + 4, layout.buttons_top - 16), hint, size=13, bold=True, fill=INK,
                anchor="lm")
    for name, words in ((MAKE_OFFER, "Make the offer"), (PASS_TARGET, "Pass"),
                        (WITHDRAW_TARGET, "Withdraw my offer")):
        box = layout.button(name)
        usable = acting and (name != WITHDRAW_TARGET or known.offer is not None)
        canvas.rect(box, fill=(255, 255, 255) if usable else (233, 236, 239),
                    outline=TARGET if name in lit else RULE, width=2.5 if name in lit else 1,
                    radius=8)
        canvas.text(((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), words, size=14, bold=True,
                    fill=INK if usable else MUTED, anchor="mm")


# --- the text view -----------------------------------------------------------------------------

def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    """The seat's view: scores, whose turn, its hand and offer, the offers on the table, the
    cards each trader holds, and this hand's events as the seat saw them (for a
    ``watcher``, the seat by name)."""
    assert isinstance(state, PitState)
    known = observe(state, seat, watcher=watcher)
    players = len(known.table)
    name = seat_name(seat).capitalize()
    scores = ", ".join(f"{seat_name(t.seat)}{' (you)' if t.seat == seat and not watcher else ''}"
                       f" {t.score}" for t in known.table)
    who = f"{name}'s view, one of {players}" if watcher else f"You are {seat_name(seat)} of {players}"
    lines = [f"{who}. Scores: {scores}; the first to {known.target} points wins."]
    if known.over:
        lines.append(f"{_status(known, watcher)}.")
    else:
        turn = "Your turn." if known.to_move == seat and not watcher else \
            f"{seat_name(known.to_move or 0)} to move."
        lines.append(f"Hand {known.hand_number}, round {known.round} of {known.max_rounds}. "
                     f"{turn}")
    in_play = ", ".join(f"{COMMODITIES[c][0]} {COMMODITIES[c][1]}" for c in known.in_play)
    lines.append(f"Commodities in play (9 cards each, corner points): {in_play}"
                 + ("; and the Bull and the Bear." if known.bull_bear else "."))
    whose = f"{name}'s" if watcher else "Your"
    lines.append(f"{whose} hand ({sum(known.hand)} cards): {known.hand_text()}.")
    if known.offer is not None:
        lines.append(f"{whose} offer on the table: {known.offer.text()} (set aside until it is "
                     "accepted, withdrawn or replaced).")
    else:
        lines.append(f"{name} has no offer on the table." if watcher
                     else "You have no offer on the table.")
    offers = [f"{seat_name(t.seat)} offers {_cards(t.offer)}"
              for t in known.table if t.offer is not None and t.seat != seat]
    lines.append("Other offers on the table: " + ("; ".join(offers) if offers else "none") + ".")
    lines.append("Cards held: " + ", ".join(f"{seat_name(t.seat)} {t.cards}"
                                            for t in known.table) + ".")
    if known.last_corner:
        lines.append(f"Last hand: {known.last_corner}")
    shown = known.log[-LOG_LINES:]
    skipped = len(known.log) - len(shown)
    lines.append(f"This hand so far{f' (the last {len(shown)} events)' if skipped else ''}:")
    lines += [f"  {line}" for line in shown]
    return "\n".join(lines)


def _cards(count: int | None) -> str:
    return f"{count} card" + ("" if count == 1 else "s")


RENDERER = Renderer(
    page="buttons", text=text, image=image, hit_test=hit_test, watcher=WATCHER,
    off_target=OFF_TARGET, centres=centres, seat_label=seat_label,
)
