"""Arctic Scavengers' table, what its two layouts share: the spots a layout places (a card,
a chip, a pile, a button, a panel...), the words on them, and how each spot is drawn in a
layout's type sizes (:data:`WIDE_LOOK` for the desktop table and vision models,
:data:`NARROW_LOOK` for a phone held upright, see :mod:`renderers.gamebench.arctic_narrow`).

A layout is a list of :class:`Spot`; the image draws them in order and the hit-test reads
the same boxes, so what is drawn is what is clicked.
"""

from __future__ import annotations

from dataclasses import dataclass

import pyspiel

from games.gamebench.arctic_cards import CARDS, NAMES, SKIRMISH_FROM, action_value
from games.gamebench.arctic_moves import seat_name
from games.gamebench.arctic_sight import Sight, TribeSight
from games.registry import get
from renderers import drawing as d

KIND_FILL = {"person": (222, 234, 247), "tool": (250, 232, 208), "medicine": (248, 220, 224),
             "junk": (226, 226, 226)}
ICE = (229, 238, 244)
PANEL = (255, 255, 255)
DISABLED = (200, 205, 210)
BUTTONS = ("dig", "draw", "hunt", "trash", "end gathering")

Chip = tuple[int, str | None, str]
"""A card shown small: the card, the move clicking it plays (or None), and its note
(``played``, ``chosen``, ``fights``, ``dug``)."""


@dataclass(frozen=True)
class Spot:
    """A drawn thing: its box, what it is, and the move label it plays (if any)."""

    box: d.Box
    kind: str
    """card, chip, pile, button, panel, heading, caption, note; the narrow layout adds
    ``lines`` (a panel of lines, each ``label: rest``) and ``log`` (events, one a line,
    wrapped, the latest kept when they do not all fit)"""
    text: str
    card: int | None = None
    move: str | None = None
    note: str = ""


@dataclass(frozen=True)
class Look:
    """A layout's type sizes (px) and where text sits in its boxes."""

    heading: int
    caption: int
    note: int
    title: int
    """A panel's title, at ``title_y`` below its top."""
    title_y: int
    facts: int
    """A panel's facts, from ``facts_y``, wrapped to at most ``facts_lines`` lines
    ``facts_step`` apart (one line, cut short, when ``facts_step`` is 0)."""
    facts_y: int
    facts_step: int
    facts_lines: int
    button: int
    chip: int
    big_chip: int
    big_chip_h: int
    """Chips at least this tall use ``big_chip``."""
    pile_title: int
    pile_text: int
    """A mercenary pile's cost at ``pile_y``, its abilities from ``pile_lines_y``,
    ``pile_step`` apart."""
    pile_y: int
    pile_lines_y: int
    pile_step: int
    card_title: int
    card_text: int
    """A card's abilities, from ``card_y``, ``card_step`` apart."""
    card_y: int
    card_step: int
    wrap: bool
    """Headings and captions wrap to the lines their box holds, and a card's name too long
    for it is drawn smaller (else one line, cut short)."""


WIDE_LOOK = Look(heading=14, caption=12, note=13, title=15, title_y=7, facts=13, facts_y=27,
            facts_step=0, facts_lines=1, button=14, chip=12, big_chip=14, big_chip_h=28,
            pile_title=14, pile_text=12, pile_y=23, pile_lines_y=40, pile_step=15,
            card_title=14, card_text=12, card_y=26, card_step=16, wrap=False)
NARROW_LOOK = Look(heading=16, caption=14, note=15, title=17, title_y=8, facts=14, facts_y=31,
              facts_step=18, facts_lines=2, button=16, chip=14, big_chip=15, big_chip_h=40,
              pile_title=16, pile_text=14, pile_y=27, pile_lines_y=46, pile_step=17,
              card_title=16, card_text=13, card_y=27, card_step=17, wrap=True)


# --- what the table says -------------------------------------------------------------------


def legal_labels(state: pyspiel.State, seat: int) -> list[str]:
    """The seat's legal move labels (none when it is not its turn)."""
    if state.is_terminal() or state.current_player() != seat:
        return []
    label = get("arctic_scavengers").grammar.label
    return [label(state, seat, a) for a in state.legal_actions(seat)]


def opponent_name(s: Sight, t: TribeSight) -> str:
    return seat_name(t.seat).capitalize() + (" (initiator)" if t.seat == s.initiator else "")


def opponent_facts(t: TribeSight) -> str:
    return (f"tribe {t.people} people · deck {t.deck_count} · discard {t.discard_count}"
            + (f" · hand {t.hand_count}" if not t.gathered else "")
            + (f" · food {t.food}" if t.food else "")
            + (f" · fight {t.fight}" if t.fight is not None else "")
            + (f" · won {len(t.won)}" if t.won else ""))


def opponent_chips(s: Sight, t: TribeSight, legal: set[str]) -> list[Chip]:
    """What a tribe played this round, then its skirmish cards once shown (a snipe or a
    sabotage where that is a legal move)."""
    chips: list[Chip] = [(c, None, "played") for c in t.played]
    if t.gathered and t.force is not None:
        whose = "" if s.players == 2 else f" of {seat_name(t.seat)}"
        for card in t.force:
            move = next((m for m in (f"snipe {NAMES[card]}{whose}",
                                     f"sabotage {NAMES[card]}{whose}") if m in legal), None)
            chips.append((card, move, "fights"))
    return chips


def kept_back(t: TribeSight) -> str:
    """``keeps 2 cards face down`` while a tribe's skirmish cards are hidden, else ''."""
    if not t.gathered or t.force is not None:
        return ""
    return f"keeps {t.force_count} card{'s' * (t.force_count != 1)} face down"


def opponent_caption(t: TribeSight, chips: list[Chip], verb: str) -> str:
    caption = ("Played this round, and in the skirmish (bold)" if t.force and t.played else
               "In the skirmish" if t.force else
               "Played this round" if chips else "Nothing played yet this round")
    if t.force and any(move for _, move, _ in chips):
        caption += f": {verb} a person to snipe it, a tool to sabotage it"
    return caption


def my_name(s: Sight, *, watcher: bool = False) -> str:
    """The seat's panel title: ``You, player 1``; for a watcher ``Player 1``."""
    name = seat_name(s.seat).capitalize() if watcher else "You, " + seat_name(s.seat)
    return name + (" (initiator)" if s.seat == s.initiator else "")


def my_facts(s: Sight) -> str:
    me = s.me
    return (f"tribe {me.people} people · deck {me.deck_count} · discard {me.discard_count}"
            + f" · food {me.food}" + (f" · fight {me.fight}" if me.fight is not None else "")
            + (f" · used {', '.join(me.used)}" if me.used else ""))


def my_chips(s: Sight) -> list[Chip]:
    """What you played this round, then the cards chosen for the action being built."""
    chips: list[Chip] = [(c, None, "played") for c in s.me.played]
    return chips + [(c, None, "chosen") for c in s.picked + s.paid]


def my_cards(s: Sight) -> list[int]:
    """Your hand while gathering, then the cards you keep for the skirmish."""
    me = s.me
    return list(me.hand or ()) if not me.gathered else list(me.force or ())


def hand_caption(s: Sight, verb: str, *, watcher: bool = False) -> str:
    """What the row of your cards is, and what clicking one does now (for a ``watcher``,
    whose cards they are, and what the seat is choosing)."""
    whose = f"{seat_name(s.seat).capitalize()}'s" if watcher else "Your"
    caption = (f"{whose} hand" if not s.me.gathered else
               f"{whose} skirmish cards" if s.round >= SKIRMISH_FROM else "Kept in hand")
    if s.over:
        caption = "Final tribes (every card counts): " + ", ".join(
            f"{'you' if t.seat == s.seat and not watcher else seat_name(t.seat)} "
            f"{t.people} people" for t in s.tribes)
    if watcher:
        verb = "choosing"
    if s.phase == "pick" and s.actor == s.seat:
        caption += f": {verb} cards to {s.pick_kind} with" if s.pick_kind != "trash" else (
            f": {verb} cards to trash")
    elif s.phase == "pay" and s.actor == s.seat and s.hiring is not None:
        caption += f": {verb} medicine to pay ({s.due} due for the {NAMES[s.hiring]})"
    return caption


def card_move(card: int, legal: set[str]) -> str | None:
    """The move clicking a card of your hand plays now, if any."""
    return next((m for m in (f"add {NAMES[card]}", f"pay with {NAMES[card]}") if m in legal),
                None)


def button_names(s: Sight, legal: set[str]) -> list[str]:
    """The buttons under your hand, in order: the five ways to gather (greyed when not
    legal), else every legal move not played on a card or a pile."""
    if s.actor != s.seat:
        return []
    names = list(BUTTONS) if s.phase == "gather" else [m for m in legal if not _on_cards(m)]
    return sorted(names, key=_button_order)


def caption(s: Sight, label: str) -> str:
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


# --- drawing ---------------------------------------------------------------------------------


def draw(canvas: d.Canvas, spot: Spot, look: Look) -> None:
    x0, y0, x1, y1 = spot.box
    live = spot.move is not None
    if spot.kind in ("heading", "caption"):
        size = look.heading if spot.kind == "heading" else look.caption
        bold, fill = spot.kind == "heading", d.MUTED
        lines = (wrap_words(canvas, spot.text, x1 - x0, size, bold) if look.wrap
                 else [canvas.fit(spot.text, x1 - x0, size=size)])
        top = y0 + (2 if spot.kind == "heading" else 0)
        for i, line in enumerate(lines[:max(1, int((y1 - y0) // (size + 4)))]):
            canvas.text((x0, top + i * (size + 4)), line, size=size, fill=fill, bold=bold)
    elif spot.kind == "note":
        canvas.text((x0, y0 + 2), canvas.fit(spot.text, x1 - x0, size=look.note),
                    size=look.note, fill=d.INK)
    elif spot.kind == "log":
        _log(canvas, spot, look)
    elif spot.kind == "lines":
        _lines(canvas, spot, look)
    elif spot.kind == "panel":
        _panel(canvas, spot, look)
    elif spot.kind == "button":
        canvas.rect(spot.box, fill=d.GRID_BLUE if live else DISABLED, radius=8)
        canvas.text(((x0 + x1) / 2, (y0 + y1) / 2),
                    canvas.fit(spot.text, x1 - x0 - 12, size=look.button, bold=True),
                    size=look.button, bold=True, fill=d.HEADER_INK, anchor="mm")
    elif spot.kind == "chip":
        _chip(canvas, spot, look)
    elif spot.kind == "pile":
        _pile(canvas, spot, look)
    else:
        _card(canvas, spot, look)


def _panel(canvas: d.Canvas, spot: Spot, look: Look) -> None:
    x0, y0, x1, y1 = spot.box
    canvas.rect(spot.box, fill=PANEL, outline=d.RULE, radius=8)
    canvas.text((x0 + 10, y0 + look.title_y), spot.text, size=look.title, bold=True)
    if not look.facts_step:
        canvas.text((x0 + 10, y0 + look.facts_y),
                    canvas.fit(spot.note, x1 - x0 - 20, size=look.facts), size=look.facts,
                    fill=d.MUTED)
        return
    lines = _wrapped(canvas, [spot.note.split(" · ")], x1 - x0 - 20, look.facts)
    for i, line in enumerate(lines[:look.facts_lines]):
        canvas.text((x0 + 10, y0 + look.facts_y + i * look.facts_step), line,
                    size=look.facts, fill=d.MUTED)


def _lines(canvas: d.Canvas, spot: Spot, look: Look) -> None:
    """A panel of lines ``label: rest``, the label bold."""
    x0, y0, x1, _ = spot.box
    canvas.rect(spot.box, fill=PANEL, outline=d.RULE, radius=8)
    size, step = look.note, look.note + 8
    for i, line in enumerate(spot.text.split("\n")):
        label, _, rest = line.partition(": ")
        head = f"{label}:" if rest else label
        y = y0 + 9 + i * step
        canvas.text((x0 + 10, y), head, size=size, bold=True)
        used = canvas.text_width(head + " ", size=size, bold=True)
        canvas.text((x0 + 10 + used, y), canvas.fit(rest, x1 - x0 - 20 - used, size=size),
                    size=size)


def _log(canvas: d.Canvas, spot: Spot, look: Look) -> None:
    """The events, each wrapped, the earliest dropped when the box cannot hold them all."""
    x0, y0, x1, y1 = spot.box
    size, step = look.caption, look.caption + 5
    room = max(1, int((y1 - y0) // step))
    events = [wrap_words(canvas, event, x1 - x0 - 12, size, False)
              for event in spot.text.split("\n") if event]
    shown: list[list[str]] = []
    for lines in reversed(events):
        if sum(map(len, shown)) + len(lines) > room:
            break
        shown.insert(0, lines)
    y = y0
    for lines in shown:
        for i, line in enumerate(lines):
            canvas.text((x0 + (12 if i else 0), y), line, size=size, fill=d.INK)
            y += step


def _chip(canvas: d.Canvas, spot: Spot, look: Look) -> None:
    x0, y0, x1, y1 = spot.box
    assert spot.card is not None
    live, chosen = spot.move is not None, spot.note == "chosen"
    outline = d.TARGET if live else d.SELECTED if chosen else d.RULE
    canvas.rect(spot.box, fill=KIND_FILL[CARDS[spot.card].kind], outline=outline,
                width=3 if live or chosen else 1, radius=6)
    size = look.big_chip if y1 - y0 >= look.big_chip_h else look.chip
    bold = spot.note != "played"
    canvas.text(((x0 + x1) / 2, (y0 + y1) / 2),
                canvas.fit(spot.text, x1 - x0 - 8, size=size, bold=bold),
                size=size, bold=bold, anchor="mm")


def _pile(canvas: d.Canvas, spot: Spot, look: Look) -> None:
    x0, y0, x1, y1 = spot.box
    card = spot.card
    assert card is not None
    info = CARDS[card]
    live = spot.move is not None
    canvas.rect(spot.box, fill=PANEL if spot.note != "x0" else DISABLED,
                outline=d.TARGET if live else d.RULE, width=3 if live else 1, radius=8)
    canvas.text((x0 + 8, y0 + 5), info.name, size=look.pile_title, bold=True)
    canvas.text((x1 - 8, y0 + 5), spot.note, size=look.pile_title, bold=True, fill=d.MUTED,
                anchor="ra")
    cost = info.cost.text() if info.cost else ""
    size = look.pile_text
    canvas.text((x0 + 8, y0 + look.pile_y), canvas.fit(cost, x1 - x0 - 16, size=size),
                size=size, fill=d.BAD)
    lines = _wrapped(canvas, abilities(card), x1 - x0 - 16, size)
    for i, line in enumerate(lines[:3]):
        canvas.text((x0 + 8, y0 + look.pile_lines_y + i * look.pile_step), line, size=size,
                    fill=d.INK)


def _card(canvas: d.Canvas, spot: Spot, look: Look) -> None:
    x0, y0, x1, y1 = spot.box
    card = spot.card
    assert card is not None
    live = spot.move is not None
    canvas.rect(spot.box, fill=KIND_FILL[CARDS[card].kind],
                outline=d.TARGET if live else d.INK, width=3 if live else 1, radius=8)
    size = look.card_title
    if look.wrap and canvas.text_width(spot.text, size=size, bold=True) > x1 - x0 - 12:
        size -= 2
    canvas.text((x0 + 7, y0 + 6), canvas.fit(spot.text, x1 - x0 - 12, size=size), size=size,
                bold=True)
    lines = _wrapped(canvas, abilities(card), x1 - x0 - 12, look.card_text)
    for i, line in enumerate(lines[:3]):
        canvas.text((x0 + 7, y0 + look.card_y + i * look.card_step), line,
                    size=look.card_text)


def abilities(card: int) -> list[list[str]]:
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


def _wrapped(canvas: d.Canvas, groups: list[list[str]], width: float, size: int) -> list[str]:
    """Each group on its own lines, words joined by ' · ' while they fit in ``width``."""
    lines: list[str] = []
    for words in groups:
        line = ""
        for word in words:
            joined = f"{line} · {word}" if line else word
            if line and canvas.text_width(joined, size=size) > width:
                lines.append(line)
                joined = word
            line = joined
        lines.append(canvas.fit(line, width, size=size))
    return lines


def wrap_words(canvas: d.Canvas, text: str, width: float, size: int, bold: bool) -> list[str]:
    """``text`` wrapped at spaces to lines that fit in ``width`` (a word too long is cut)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        joined = f"{line} {word}" if line else word
        if line and canvas.text_width(joined, size=size, bold=bold) > width:
            lines.append(line)
            joined = word
        line = joined
    lines.append(line)
    return [canvas.fit(line, width, size=size, bold=bold) for line in lines]
