"""Arctic Scavengers' text view: the seat's table in words, for language models, screen
readers and golden files. Built from :func:`games.gamebench.arctic_sight.sight` only."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import pyspiel

from games.gamebench.arctic_cards import CARDS, MERCENARIES, NAMES, SKIRMISH_FROM, price
from games.gamebench.arctic_moves import seat_name
from games.gamebench.arctic_sight import Sight, TribeSight, sight
from games.gamebench.arctic_table import ROUNDS
from games.registry import get

RECENT = 8
"""Lines of the table's log shown."""


def listing(cards: Iterable[int]) -> str:
    """``2 Refugee, Scout`` (canonical order), or ``none``."""
    counts = Counter(cards)
    return ", ".join(f"{n} {NAMES[c]}" if n > 1 else NAMES[c]
                     for c, n in sorted(counts.items())) or "none"


def headline(s: Sight, *, watcher: bool = False) -> str:
    """Whose turn and what the phase asks, from the seat's side (no final full stop; for a
    ``watcher``, every seat named)."""
    if s.over:
        assert s.returns is not None
        mine, best = s.returns[s.seat], max(s.returns)
        winners = " and ".join(seat_name(p) for p, r in enumerate(s.returns) if r == best)
        verdict = "a draw" if len(set(s.returns)) == 1 else f"{winners} won" if watcher else (
            "you won" if mine == best else "you lost")
        sizes = ", ".join(f"{seat_name(t.seat)} {t.people}" for t in s.tribes)
        return f"Game over: {verdict} (tribe sizes: {sizes})"
    if s.actor is None:
        return "Cards are being dealt"
    doing = {"gather": "gather resources", "pick": f"choose cards to {s.pick_kind} with",
             "pay": f"pay for the {NAMES[s.hiring] if s.hiring is not None else 'hire'}",
             "keep": "keep a dug-up card",
             "skirmish": "snipe, sabotage or pass"}[s.phase]
    if s.pick_kind == "trash" and s.phase == "pick":
        doing = "choose cards to trash"
    who = "Your" if s.actor == s.seat and not watcher else \
        f"{seat_name(s.actor).capitalize()}'s"
    return f"{who} turn: {doing}"


def _tribe_line(s: Sight, t: TribeSight, watcher: bool = False) -> str:
    name = "You" if t.seat == s.seat and not watcher else seat_name(t.seat).capitalize()
    bits = [f"{t.people} people in the tribe", f"deck {t.deck_count}",
            f"discard pile {t.discard_count}"]
    if not t.gathered:
        bits.append(f"hand {t.hand_count}")
    if t.food:
        bits.append(f"food {t.food}")
    if t.used:
        bits.append("used " + ", ".join(t.used))
    if t.won:
        bits.append("won " + listing(t.won))
    star = " (initiator)" if t.seat == s.initiator else ""
    return f"{name}{star}: " + "; ".join(bits) + "."


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    """The seat's table in words (for a ``watcher``, a spectator of that seat: the seat
    named, never "you")."""
    s = sight(state, seat)
    me = s.me
    name = seat_name(seat).capitalize()
    you, your = (name, f"{name}'s") if watcher else ("You", "Your")
    who = f"{name}'s view, one of" if watcher else f"You are {seat_name(seat)} of"
    lines = [f"{who} {s.players}. Round {max(s.round, 1)} of "
             f"{ROUNDS} (a skirmish every round from round {SKIRMISH_FROM}).",
             headline(s, watcher=watcher) + "."]
    lines.append(_tribe_line(s, me, watcher))
    if me.hand is not None and not me.gathered and not s.over:
        lines.append(f"{your} hand ({len(me.hand)}): {listing(me.hand)}.")
    if me.played:
        lines.append(f"{you} played this round: {listing(me.played)}.")
    if me.gathered and me.force is not None:
        goes = "to the skirmish" if s.round >= SKIRMISH_FROM else "back (no skirmish yet)"
        fight = f" (fight {me.fight})" if me.fight is not None else ""
        lines.append(f"Cards {you if watcher else 'you'} kept {goes}{fight}: "
                     f"{listing(me.force)}.")
    if me.deck is not None:
        lines.append(f"{your} deck ({me.deck_count}, order unknown): {listing(me.deck)}.")
    lines.append(f"{your} discard pile ({me.discard_count}): {listing(me.discard_seen)}.")
    lines += _now(s)
    for t in s.tribes:
        if t.seat != seat:
            lines.append(_tribe_line(s, t, watcher))
            lines += _others_cards(s, t)
    lines.append("Mercenary piles (hire cost; what the card does): " + "; ".join(
        f"{NAMES[c]} x{n} ({price(c).text()}; "
        f"{_does(c)})" for c, n in zip(MERCENARIES, s.mercs, strict=True)) + ".")
    lines.append(f"Junkyard: {len(s.junk) + len(s.bottom)} cards, shuffled: {listing(s.junk)}"
                 + (f"; known at the bottom, in order: {', '.join(NAMES[c] for c in s.bottom)}"
                    if s.bottom else "") + ".")
    lines.append(f"Contested resources left ({len(s.contested)}): {listing(s.contested)}."
                 + (f" {you} peeked: the next one is the {NAMES[s.peeked]}."
                    if s.peeked is not None else ""))
    if s.log:
        lines.append("Recent events:")
        lines += [f"  {line}" for line in s.log[-RECENT:]]
    if s.actor == seat:
        legal = [get("arctic_scavengers").grammar.label(state, seat, a)
                 for a in state.legal_actions(seat)]
        lines.append(f"{you} may now: " + " | ".join(legal) + ".")
    return "\n".join(lines)


def _does(card: int) -> str:
    info = CARDS[card]
    bits = [f"{info.people} {'person' if info.people == 1 else 'people'}"]
    bits += [f"{skill} {value}" for skill, value in info.skills.items()]
    bits += [f"+{value} {skill}" for skill, value in info.boosts.items()]
    if info.special:
        bits.append(info.special)
    return ", ".join(bits)


def _now(s: Sight) -> list[str]:
    """The action being built, the hire being paid, the cards dug up."""
    if s.phase == "pick" and s.pick_kind:
        return [f"Building a {s.pick_kind} with: {listing(s.picked)}."]
    if s.phase == "pay" and s.hiring is not None:
        return [f"Hiring a {NAMES[s.hiring]}: {s.due} medicine due, paid so far: "
                f"{listing(s.paid)}."]
    if s.phase == "keep" and s.dug:
        return [f"Dug up from the junkyard: {listing(s.dug)} (keep one; the rest go under "
                "the junkyard)."]
    return []


def _others_cards(s: Sight, t: TribeSight) -> list[str]:
    lines = []
    if t.played:
        lines.append(f"  played this round: {listing(t.played)}.")
    if t.gathered:
        if t.force is not None:
            fight = f" (fight {t.fight})" if t.fight is not None else ""
            lines.append(f"  in the skirmish{fight}: {listing(t.force)}.")
        else:
            lines.append(f"  kept {t.force_count} cards in hand, face down.")
    seen = listing(t.discard_seen)
    hidden = t.discard_count - len(t.discard_seen)
    lines.append(f"  discard pile: {seen}" + (f" and {hidden} face down" if hidden else "") + ".")
    return lines
