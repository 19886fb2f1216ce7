"""Air, Land & Sea: what one seat knows (:class:`SeatTable`), move labels and click targets.

Everything a seat is shown — its information state, its observation, the renderer's image
and text, the labels of its moves — is built from :func:`seat_table`, which reads a card's
identity only where that seat knows it (``Battle.known``): its own cards, face-up
cards, and face-down cards it saw face-up before. The other hand is a count; an unknown
face-down card is just "a face-down card".
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyspiel

from games.gamebench.air_land_sea_battle import Battle
from games.gamebench.air_land_sea_cards import (
    CARDS,
    DISRUPT,
    MANEUVERS,
    ORDERS,
    SEATS,
    THEATERS,
    decode,
)


@dataclass(frozen=True)
class TableCard:
    """A card on the table as one seat sees it. ``card`` is None for a face-down card the
    seat cannot identify."""

    card: int | None
    face_up: bool
    strength: int

    @property
    def name(self) -> str:
        return "face-down card" if self.card is None else CARDS[self.card].name


@dataclass(frozen=True)
class SeatTable:
    """One seat's view of the war. Per-theater tuples are indexed by theater id (Air 0, Land 1,
    Sea 2); ``order`` is the row from left to right."""

    seat: int
    battle: int
    target: int
    vp: tuple[int, int]
    first: int
    order: tuple[int, ...]
    sides: tuple[tuple[tuple[TableCard, ...], ...], ...]
    """[seat][theater]: that side's cards from the bottom (covered) to the top (uncovered)."""
    strengths: tuple[tuple[int, ...], ...]
    """[seat][theater]: total strength, Support included."""
    control: tuple[int, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, int]
    deck: int
    under: tuple[int | None, ...]
    """Destroyed cards under the deck, the next to be drawn first (None: not known)."""
    drawn: int | None
    """The card this seat drew with Reinforce and must play now."""
    air_drop: tuple[bool, bool]
    phase: str
    turn: int
    actor: int
    ability: tuple[int, int, int] | None
    """(owner, card, theater) of the instant ability being resolved."""
    queue: tuple[tuple[int, int], ...]
    """(owner, card) of the instant abilities waiting, in order."""
    winner: int | None
    results: tuple[tuple[int, int, str], ...]
    log: tuple[str, ...]

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def dealing(self) -> bool:
        return self.phase in ("commander", "order", "deal", "draw")


def seat_table(state: Battle, seat: int) -> SeatTable:
    """What ``seat`` knows now (see the module docstring)."""
    known = state.known[seat]
    sides = tuple(
        tuple(tuple(TableCard(card if known[card] or state.face_up[card] else None,
                              state.face_up[card], state.card_strength(owner, theater, i))
                    for i, card in enumerate(state.stacks[owner][theater]))
              for theater in range(3))
        for owner in (0, 1))
    dealt = bool(state.order) and state.first >= 0
    ability = None
    if state.ability is not None:
        owner, card, _ = state.ability
        ability = (owner, card, ability_theater(state))
    return SeatTable(
        seat=seat, battle=state.battle, target=state.target, vp=(state.vp[0], state.vp[1]),
        first=state.first, order=state.order, sides=sides,
        strengths=tuple(tuple(state.strength(s, t) if dealt else 0 for t in range(3))
                        for s in (0, 1)),
        control=tuple(state.controller(t) if dealt else -1 for t in range(3)),
        hand=tuple(state.hands[seat]),
        hand_sizes=(len(state.hands[0]), len(state.hands[1])),
        deck=len(state.pool) + len(state.bottom),
        under=tuple(card if known[card] else None for card in state.bottom),
        drawn=state.held if state.held >= 0 and known[state.held] else None,
        air_drop=(state.air_drop[0], state.air_drop[1]), phase=state.phase, turn=state.turn,
        actor=state.actor, ability=ability,
        queue=tuple((owner, card) for owner, card, _ in state.queue),
        winner=state.winner, results=tuple(state.results), log=tuple(state.log),
    )


def ability_theater(state: Battle) -> int:
    """The theater of the card whose ability is resolving (where it was when triggered, if
    it has left the table since)."""
    assert state.ability is not None
    _, card, theater = state.ability
    spot = state.where(card)
    return spot[1] if spot is not None else theater


def table_string(table: SeatTable, *, history: bool) -> str:
    """The information state (``history``: with the public log of the whole war) or the
    observation of a seat, as one deterministic string."""
    return repr(table if history else replace(table, log=()))


class SeatObserver:
    """OpenSpiel's observer for strings (no tensors: the game provides none)."""

    def __init__(self, params: dict[str, Any] | None, *, history: bool) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.history = history
        self.tensor = np.array([], np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: Battle, player: int) -> None:
        """No tensor to fill."""

    def string_from(self, state: Battle, player: int) -> str:
        return table_string(seat_table(state, player), history=self.history)


# --- what is being decided ----------------------------------------------------------------

def decision(table: SeatTable) -> str:
    """One sentence: who decides what now (public)."""
    if table.over:
        assert table.winner is not None
        return (f"{SEATS[table.winner]} won the war, {table.vp[table.winner]} to "
                f"{table.vp[1 - table.winner]}.")
    if table.dealing:
        return "The cards are being dealt." if table.phase != "draw" else "Reinforce draws a card."
    actor = SEATS[table.actor]
    if table.phase == "main":
        return (f"{actor}'s turn: play a card face-up to its own theater, or face-down to any "
                "theater (strength 2), or withdraw.")
    assert table.ability is not None
    owner, card, theater = table.ability
    head = f"{CARDS[card].name} ({SEATS[owner]}): "
    if table.phase == "flip" and card == DISRUPT:
        then = f"; then {SEATS[1 - owner]} flips one of theirs" if table.actor == owner else ""
        return head + f"{actor} must flip one of their own uncovered cards{then}."
    if table.phase == "flip":
        where = (f"a theater adjacent to {THEATERS[theater]}" if card in MANEUVERS
                 else "any theater")
        return head + f"{actor} must flip an uncovered card (either side) in {where}."
    if table.phase == "transport":
        return head + f"{actor} may move one of their cards to a different theater, or skip."
    if table.phase == "redeploy":
        return head + (f"{actor} may return one of their face-down cards to their hand (and "
                       "then must play a card), or skip.")
    if table.phase == "redeploy_play":
        return head + f"{actor} must now play a card."
    return head + (f"{actor} drew a card and must play it face-down to a theater adjacent to "
                   f"{THEATERS[theater]}.")


# --- labels and click targets ------------------------------------------------------------

def card_target(state: Battle, seat: int, owner: int, theater: int, index: int) -> str:
    """The click target (and the name in labels) of a table card, as ``seat`` knows it."""
    card = state.stacks[owner][theater][index]
    if state.face_up[card] or state.known[seat][card]:
        return CARDS[card].name
    return f"{SEATS[owner]}'s face-down card ({THEATERS[theater]})"


def zone(theater: int, face_up: bool) -> str:
    """The click target where a card is played: ``Land face-up`` / ``Land face-down``."""
    return f"{THEATERS[theater]} {'face-up' if face_up else 'face-down'}"


def action_label(state: Battle, player: int, action: int) -> str:
    """The label of ``action`` for ``player`` (chance outcomes for chance)."""
    if player == pyspiel.PlayerId.CHANCE:
        return _chance_label(state, action)
    move = decode(action)
    if move.kind == "play":
        side = "face-up" if move.face_up else "face-down"
        return f"play {CARDS[move.card].name} {side} to {THEATERS[move.theater]}"
    if move.kind == "withdraw":
        return "withdraw"
    if move.kind == "flip":
        stack = state.stacks[move.seat][move.theater]
        if not stack:
            return f"flip {SEATS[move.seat]}'s card ({THEATERS[move.theater]})"
        card = stack[-1]
        if state.face_up[card]:
            what = CARDS[card].name
        elif state.known[player][card]:
            what = f"face-down {CARDS[card].name}"
        else:
            what = f"{SEATS[move.seat]}'s face-down card"
        return f"flip {what} ({THEATERS[move.theater]})"
    if move.kind == "move":
        spot = state.where(move.card)
        down = "" if state.face_up[move.card] else "face-down "
        origin = f" from {THEATERS[spot[1]]}" if spot is not None else ""
        return f"move {down}{CARDS[move.card].name}{origin} to {THEATERS[move.theater]}"
    if move.kind == "return":
        spot = state.where(move.card)
        origin = f" from {THEATERS[spot[1]]}" if spot is not None else ""
        return f"return face-down {CARDS[move.card].name}{origin} to hand"
    ability = state.ability
    return f"skip {CARDS[ability[1]].name}" if ability is not None else "skip"


def public_label(state: Battle, player: int, action: int) -> str | None:
    """What the other seat is told of ``player``'s ``action`` (``state`` before it), as the
    public log tells it: a face-up card, a withdrawal, a skip in full; a face-down card
    as ``a card`` (its theater is seen); a flipped card by name, since the flip shows it
    face-up or it already was. Chance: the 1st Player and the theaters' order are public;
    dealt and drawn cards are seen by nobody else (None)."""
    if player == pyspiel.PlayerId.CHANCE:
        return _chance_label(state, action) if state.phase in ("commander", "order") else None
    move = decode(action)
    if move.kind == "play" and not move.face_up:
        what = "the card Reinforce drew" if state.phase == "reinforce" else "a card"
        return f"play {what} face-down to {THEATERS[move.theater]}"
    if move.kind == "flip":
        card = state.stacks[move.seat][move.theater][-1]
        down = "" if state.face_up[card] else "face-down "
        return f"flip {down}{CARDS[card].name} ({THEATERS[move.theater]})"
    if move.kind in ("move", "return") and not state.face_up[move.card]:
        spot = state.where(move.card)
        origin = f" from {THEATERS[spot[1]]}" if spot is not None else ""
        to = "hand" if move.kind == "return" else THEATERS[move.theater]
        return f"{move.kind} a face-down card{origin} to {to}"
    return action_label(state, player, action)


def click_path(state: Battle, player: int, action: int) -> tuple[str, ...]:
    """What a person clicks: a hand card then where it goes (``Land face-down``); a table card
    to flip or return; a table card then the theater it moves to; a button."""
    move = decode(action)
    if move.kind == "play":
        return (CARDS[move.card].name, zone(move.theater, move.face_up))
    if move.kind == "flip":
        index = len(state.stacks[move.seat][move.theater]) - 1
        return (card_target(state, player, move.seat, move.theater, index),)
    if move.kind == "move":
        return (CARDS[move.card].name, THEATERS[move.theater])
    if move.kind == "return":
        return (CARDS[move.card].name,)
    return ("withdraw",) if move.kind == "withdraw" else ("skip",)


def _chance_label(state: Battle, outcome: int) -> str:
    if state.phase == "commander":
        return f"{SEATS[outcome]} holds the 1st Player Supreme Commander"
    if state.phase == "order":
        return "theaters from left to right: " + ", ".join(THEATERS[t] for t in ORDERS[outcome])
    if state.phase == "deal":
        seat = state.first if len(state.hands[state.first]) < 6 else 1 - state.first
        return f"deal {CARDS[outcome].name} to {SEATS[seat]}"
    owner = state.ability[0] if state.ability is not None else state.actor
    return f"{SEATS[owner]} draws {CARDS[outcome].name} (Reinforce)"

