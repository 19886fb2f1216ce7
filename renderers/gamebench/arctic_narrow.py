"""Arctic Scavengers' table for a narrow screen (a phone held upright): one column.

From top to bottom: each other tribe (its facts, what it played, its skirmish cards once
shown: tap one to snipe or sabotage it), the eight mercenary piles as a grid of two columns
(tap one to hire it), one panel with the round, the junkyard and the contested pile, the
cards just dug up (tap one to keep it) or else the latest events, then your tribe: its facts
and the cards chosen for the action being built, your hand as large cards (tap one to add
it, or a medicine to pay with it), and the buttons, at most three to a row.

The same spots as the wide layout (:mod:`renderers.gamebench.arctic_scavengers`), with the
same moves, drawn larger: the image is about 420 px wide, shown at about 380 CSS px on a
phone, so its text stays readable and a tap target is at least 30 CSS px tall. Every section
keeps its place whatever is on the table (crowded rows shrink their cards), so buttons do
not move from one turn to the next.
"""

from __future__ import annotations

from games.gamebench.arctic_cards import MERCENARIES, NAMES, SKIRMISH_FROM
from games.gamebench.arctic_sight import Sight, TribeSight
from games.gamebench.arctic_table import ROUNDS
from renderers import drawing as d
from renderers.gamebench.arctic_draw import (
    Chip,
    Spot,
    button_names,
    caption,
    card_move,
    hand_caption,
    kept_back,
    my_cards,
    my_chips,
    my_facts,
    my_name,
    opponent_caption,
    opponent_chips,
    opponent_facts,
    opponent_name,
    wrap_words,
)

WIDTH = 420
PAD, GAP = 12, 8
INNER = WIDTH - 2 * PAD
OPPONENT_H = 190
"""A tribe's panel: title, two lines of facts, a caption of two lines, two rows of chips."""
OPPONENT_CHIP_H = 34
PILE_H = 100
PILE_W = (INNER - GAP) / 2
PILES_H = 26 + 4 * PILE_H + 3 * GAP
"""The heading and the mercenaries, two to a row."""
INFO_H = 80
"""The round, the junkyard and the contested pile, a line each."""
EVENTS_H = 140
"""The cards just dug up (two rows) or the latest events."""
DUG_H = 44
YOU_H = 164
"""Your panel: title, two lines of facts, a caption, two rows of chips."""
MY_CHIP_H = 30
CAPTION_H = 46
HEADER_H = 70
"""The strip at the top: the game's name, and under it whose turn it is and what it asks
(in two lines when long)."""
CARD_H = 88
BUTTON_H = 54


def regions(players: int = 2) -> dict[str, d.Box]:
    """Where the parts of the table are (as in the wide layout's ``regions``)."""
    top = HEADER_H + PAD
    piles = top + (players - 1) * (OPPONENT_H + GAP)
    table = piles + PILES_H + PAD
    you = table + INFO_H + GAP + EVENTS_H + PAD
    hand = you + YOU_H + GAP + CAPTION_H
    buttons = hand + 2 * CARD_H + GAP + GAP
    return {"opponents": (PAD, top, WIDTH - PAD, piles - GAP),
            "piles": (PAD, piles, WIDTH - PAD, table - PAD),
            "table": (PAD, table, WIDTH - PAD, you - PAD),
            "you": (PAD, you, WIDTH - PAD, hand),
            "hand": (PAD, hand, WIDTH - PAD, buttons - GAP),
            "buttons": (PAD, buttons, WIDTH - PAD, buttons + 2 * BUTTON_H + GAP)}


def height(players: int) -> int:
    """The image height at a table of ``players``."""
    return int(regions(players)["buttons"][3]) + PAD


def spots(s: Sight, legal: set[str]) -> list[Spot]:
    """Every spot of the seat's narrow image, in drawing order."""
    where = regions(s.players)
    found: list[Spot] = []
    y = where["opponents"][1]
    for t in s.tribes:
        if t.seat != s.seat:
            _opponent(found, s, t, legal, y)
            y += OPPONENT_H + GAP
    _piles(found, s, legal, where["piles"][1])
    _table(found, s, legal, where["table"][1])
    _mine(found, s, legal, where["you"][1])
    return found


def _opponent(found: list[Spot], s: Sight, t: TribeSight, legal: set[str], y: float) -> None:
    found.append(Spot((PAD, y, WIDTH - PAD, y + OPPONENT_H), "panel", opponent_name(s, t),
                      note=opponent_facts(t)))
    chips = opponent_chips(s, t, legal)
    said = opponent_caption(t, chips, "tap")
    if kept := kept_back(t):
        said += f" · {kept}"
    found.append(Spot((PAD + 10, y + 68, WIDTH - PAD - 10, y + 104), "caption", said))
    _chips(found, chips, (PAD + 10, y + 110, WIDTH - PAD - 10), rows=2, least=3,
           tall=OPPONENT_CHIP_H)


def _piles(found: list[Spot], s: Sight, legal: set[str], y: float) -> None:
    found.append(Spot((PAD, y, WIDTH - PAD, y + 24), "heading",
                      "Mercenaries: tap a pile to hire it"))
    y += 26
    for i, (card, count) in enumerate(zip(MERCENARIES, s.mercs, strict=True)):
        x = PAD + (i % 2) * (PILE_W + GAP)
        top = y + (i // 2) * (PILE_H + GAP)
        move = f"hire {NAMES[card]}"
        found.append(Spot((x, top, x + PILE_W, top + PILE_H), "pile", NAMES[card], card,
                          move if move in legal else None, f"x{count}"))


def _table(found: list[Spot], s: Sight, legal: set[str], y: float) -> None:
    """The round, junkyard and contested pile; below them the cards just dug up (to keep
    one) or the latest events."""
    phase = ("a skirmish every round" if s.round >= SKIRMISH_FROM
             else f"first skirmish in round {SKIRMISH_FROM}")
    bottom = ", ".join(NAMES[c] for c in s.bottom[-3:])
    peek = f" · next: {NAMES[s.peeked]}" if s.peeked is not None else ""
    lines = (f"Round {max(s.round, 1)} of {ROUNDS}: {phase}",
             f"Junkyard: {len(s.junk) + len(s.bottom)} cards"
             + (f" · bottom: …{bottom}" if bottom else ""),
             f"Contested resources: {len(s.contested)} left{peek}")
    found.append(Spot((PAD, y, WIDTH - PAD, y + INFO_H), "lines", "\n".join(lines)))
    y += INFO_H + GAP
    if s.dug:
        found.append(Spot((PAD, y, WIDTH - PAD, y + 22), "heading", "Dug up: tap the card to keep"))
        found.append(Spot((PAD, y + 22, WIDTH - PAD, y + 40), "caption",
                          "the rest go under the junkyard"))
        chips = [(c, f"keep {NAMES[c]}" if f"keep {NAMES[c]}" in legal else None, "dug")
                 for c in s.dug]
        _chips(found, chips, (PAD, y + 44, WIDTH - PAD), rows=2, least=3, tall=DUG_H)
        return
    found.append(Spot((PAD, y, WIDTH - PAD, y + 22), "heading", "Latest"))
    found.append(Spot((PAD, y + 26, WIDTH - PAD, y + EVENTS_H), "log",
                      "\n".join(s.log[-4:]) or "Nothing has happened yet."))


def _mine(found: list[Spot], s: Sight, legal: set[str], y: float) -> None:
    found.append(Spot((PAD, y, WIDTH - PAD, y + YOU_H), "panel", my_name(s), note=my_facts(s)))
    chips = my_chips(s)
    played = any(note == "played" for _, _, note in chips)
    chosen = any(note == "chosen" for _, _, note in chips)
    said = ("Played this round, and chosen now (outlined)" if played and chosen else
            "Played this round" if played else "Chosen now (outlined)" if chosen else
            "Nothing played yet this round")
    found.append(Spot((PAD + 10, y + 70, WIDTH - PAD - 10, y + 88), "caption", said))
    _chips(found, chips, (PAD + 10, y + 92, WIDTH - PAD - 10), rows=2, least=3,
           tall=MY_CHIP_H)
    y += YOU_H + GAP
    found.append(Spot((PAD, y, WIDTH - PAD, y + CAPTION_H), "heading", hand_caption(s, "tap")))
    y += CAPTION_H
    cards = my_cards(s)
    per_row = max(3, -(-len(cards) // 2))
    width = (INNER - GAP * (per_row - 1)) / per_row
    for i, card in enumerate(cards):
        x = PAD + (i % per_row) * (width + GAP)
        top = y + (i // per_row) * (CARD_H + GAP)
        found.append(Spot((x, top, x + width, top + CARD_H), "card", NAMES[card], card,
                          card_move(card, legal)))
    _buttons(found, s, legal, y + 2 * CARD_H + 2 * GAP)


def _buttons(found: list[Spot], s: Sight, legal: set[str], y: float) -> None:
    """The buttons in at most two rows, at most three to a row (gathering's five: dig, draw,
    hunt; trash, end gathering), each row spread over the width."""
    names = button_names(s, legal)
    per_row = len(names) if len(names) <= 3 else -(-len(names) // 2)
    for start in range(0, len(names), max(1, per_row)):
        row = names[start:start + per_row]
        width = (INNER - GAP * (len(row) - 1)) / len(row)
        for i, label in enumerate(row):
            x = PAD + i * (width + GAP)
            found.append(Spot((x, y, x + width, y + BUTTON_H), "button", caption(s, label),
                              move=label if label in legal else None))
        y += BUTTON_H + GAP


def header(canvas: d.Canvas, status: str, colour: d.Colour) -> None:
    """The strip at the top, in two lines so the status is never cut short on a phone."""
    canvas.rect((0, 0, WIDTH, HEADER_H), fill=d.HEADER)
    canvas.circle((22, 20), 10, fill=d.HEADER_INK)
    canvas.circle((22, 20), 7, fill=colour)
    canvas.text((40, 20), "Arctic Scavengers", size=16, bold=True, fill=d.HEADER_INK,
                anchor="lm")
    if canvas.text_width(status, size=16, bold=True) <= WIDTH - 28:
        canvas.text((14, 47), status, size=16, bold=True, fill=d.HEADER_INK, anchor="lm")
        return
    lines = wrap_words(canvas, status, WIDTH - 28, 14, False)  # the final tribe sizes
    for i, line in enumerate(lines[:2]):
        canvas.text((14, 40 + i * 18), line, size=14, fill=d.HEADER_INK, anchor="lm")


def _chips(found: list[Spot], chips: list[Chip], where: tuple[float, float, float], *,
           rows: int, least: int, tall: int) -> None:
    """Chips in at most ``rows`` rows from (left, top) to ``right``, ``least`` to a row or
    more (narrower) when crowded."""
    left, top, right = where
    if not chips:
        return
    per_row = max(least, -(-len(chips) // rows))
    width = (right - left - 6 * (per_row - 1)) / per_row
    for i, (card, move, note) in enumerate(chips):
        x = left + (i % per_row) * (width + 6)
        y = top + (i // per_row) * (tall + 6)
        found.append(Spot((x, y, x + width, y + tall), "chip", NAMES[card], card, move, note))
