"""Air, Land & Sea as text: what a seat knows, for LLM prompts, screen readers and golden files.

Built from :func:`~games.gamebench.air_land_sea_view.seat_table` only. Other seats' moves are
not in a seat's move list (the game's moves can name its own face-down cards), so the view
carries the public events of the battle so far.
"""

from __future__ import annotations

import pyspiel

from games.gamebench.air_land_sea_cards import (
    CARDS,
    FIRST,
    SEATS,
    THEATERS,
    withdrawal_points,
    withdrawal_table,
)
from games.gamebench.air_land_sea_rules import AirLandSeaState
from games.gamebench.air_land_sea_view import SeatTable, TableCard, decision, seat_table
from renderers.common import turn_line

RECENT = 12
"""Events of earlier battles are summed up; this many of the current one are listed."""


def text(state: pyspiel.State, seat: int, *, watcher: bool = False) -> str:
    """What ``seat`` knows, said to that seat ("You are Red"), or for a ``watcher`` (a
    spectator of that seat) with the seat named ("Red's view")."""
    assert isinstance(state, AirLandSeaState)
    table = seat_table(state, seat)
    other = 1 - seat
    me = SEATS[seat]
    lines = [f"{me}'s view; the opponent is {SEATS[other]}." if watcher
             else f"You are {me}; your opponent is {SEATS[other]}.",
             turn_line(state, seat, list(SEATS), watcher=watcher)]
    lines.append(f"Victory points: {SEATS[0]} {table.vp[0]}, {SEATS[1]} {table.vp[1]}; the first "
                 f"to {table.target} wins the war.")
    for number, (winner, points, how) in enumerate(table.results, 1):
        lines.append(f"Battle {number}: {SEATS[winner]} scored {points} ({how}).")
    if table.first < 0 or not table.order:
        lines.append(decision(table))
        return "\n".join(lines)
    lines.append(f"Battle {table.battle}. {SEATS[table.first]} holds the 1st Player Supreme "
                 "Commander: plays first and wins tied theaters (and empty ones).")
    row = [THEATERS[t] for t in table.order]
    lines.append(f"Theaters from left to right: {', '.join(row)} ({row[0]} and {row[1]} are "
                 f"adjacent, {row[1]} and {row[2]} are adjacent).")
    for theater in table.order:
        lines += _theater(table, theater, watcher)
    whose = f"{me}'s" if watcher else "Your"
    lines.append(f"{whose} hand: " + ("; ".join(_card(c) for c in table.hand) or "empty") + ".")
    if table.drawn is not None:
        lines.append(f"{me if watcher else 'You'} drew (Reinforce, to play face-down now): "
                     f"{_card(table.drawn)}.")
    lines.append(f"{SEATS[other]}'s hand: {table.hand_sizes[other]} cards. Deck: {table.deck} "
                 "cards.")
    if table.under:
        under = ", ".join(CARDS[c].name if c is not None else "an unknown card"
                          for c in table.under)
        lines.append(f"Destroyed cards under the deck (a draw takes the deck's unseen cards "
                     f"first, then these in order): {under}.")
    for owner in (seat, other):
        if table.air_drop[owner]:
            who = "Your" if owner == seat and not watcher else f"{SEATS[owner]}'s"
            lines.append(f"Air Drop: {who} next card may be played face-up to any theater.")
    if not table.over:
        lines.append(_withdrawal(table, watcher))
    lines.append(f"Now: {decision(table)}")
    if table.queue:
        waiting = ", ".join(f"{CARDS[c].name} ({SEATS[o]})" for o, c in table.queue)
        lines.append(f"Abilities waiting to take effect, in order: {waiting}.")
    battle_events = _this_battle(table)
    lines.append("Events this battle" + (f" (last {RECENT})" if len(battle_events) > RECENT
                                         else "") + ":")
    lines += [f"- {event}" for event in battle_events[-RECENT:]]
    return "\n".join(lines)


def _theater(table: SeatTable, theater: int, watcher: bool = False) -> list[str]:
    seat, other = table.seat, 1 - table.seat
    mine, theirs = table.strengths[seat][theater], table.strengths[other][theater]
    holder = f"{SEATS[table.control[theater]]} controls it"
    if table.control[theater] == seat and not watcher:
        holder = "you control it"
    lines = [f"{THEATERS[theater]}: {holder} ({mine} to {theirs})."]
    for owner in (seat, other):
        who = f"{SEATS[owner]} (you)" if owner == seat and not watcher else SEATS[owner]
        cards = table.sides[owner][theater]
        listed = ", ".join(_placed(card) for card in cards) or "no cards"
        covered = " (bottom to top; the last is uncovered)" if len(cards) > 1 else ""
        lines.append(f"  {who}{covered}: {listed}")
    return lines


def _placed(card: TableCard) -> str:
    if card.card is None:
        return f"a face-down card (strength {card.strength})"
    face = CARDS[card.card]
    if not card.face_up:
        return f"face-down {face.name} (strength {card.strength})"
    counted = f", counts {card.strength}" if card.strength != face.strength else ""
    return f"{face.name} ({THEATERS[face.theater]} {face.strength}{counted})"


def _card(card: int) -> str:
    face = CARDS[card]
    ability = f"; {face.kind}: {face.text}" if face.kind else ""
    return f"{face.name} ({THEATERS[face.theater]}, strength {face.strength}{ability})"


def _withdrawal(table: SeatTable, watcher: bool = False) -> str:
    role = FIRST if table.first == table.seat else 1 - FIRST
    left = len(table.hand)
    card = "1st" if role == FIRST else "2nd"
    if watcher:
        me = SEATS[table.seat]
        return (f"If {me} withdraws now with {left} cards in hand, {SEATS[1 - table.seat]} "
                f"scores {withdrawal_points(role, left)} VP ({me}'s {card} Player card, by the "
                f"cards left in hand: {withdrawal_table(role)}); a battle fought to the end "
                "gives its winner 6.")
    return (f"If you withdraw now with {left} cards in hand, {SEATS[1 - table.seat]} scores "
            f"{withdrawal_points(role, left)} VP (your {card} Player card, by the cards left in "
            f"your hand: {withdrawal_table(role)}); a battle "
            "fought to the end gives its winner 6.")


def _this_battle(table: SeatTable) -> list[str]:
    start = max((i for i, line in enumerate(table.log) if line.startswith("Battle ")
                 and ": " in line[:12]), default=0)
    return list(table.log[start:])
