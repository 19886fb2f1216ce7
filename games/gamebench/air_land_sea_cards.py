"""Air, Land & Sea: the card table, the Supreme Commander cards and the action numbering.

The 18 battle cards of the base game (Arcane Wonders, 2019; rulebook revised 2020) as
printed: type, strength, tactical ability and its text. The three Maneuvers share a name on
the cards; here they are called Air, Land and Sea Maneuver so that every card has a name of
its own (moves name cards). Card ids are 0-5 Air, 6-11 Land, 12-17 Sea, by strength.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Literal

AIR, LAND, SEA = 0, 1, 2
THEATERS = ("Air", "Land", "Sea")
"""Theater (and card type) names by id; the row order on the table is chosen by chance."""
ORDERS = tuple(itertools.permutations(range(3)))
"""The six rows of theaters, left to right (the chance outcomes of the first battle's row)."""
SEATS = ("Red", "Blue")
"""How labels and texts name the two seats (the 1st/2nd Player roles alternate per battle)."""
HAND_SIZE = 6
DEFAULT_TARGET = 12
"""Victory points that win the war (the rulebook's longer game plays to 18)."""
FACE_DOWN_STRENGTH = 2
RAISED_STRENGTH = 4
"""Escalation's face-down strength and Cover Fire's covered strength."""
SUPPORT_BONUS = 3
BATTLE_VP = 6
"""Victory points for a battle won without a withdrawal."""

Kind = Literal["instant", "ongoing", ""]


@dataclass(frozen=True)
class Card:
    id: int
    name: str
    theater: int
    strength: int
    kind: Kind
    text: str

    @property
    def ability(self) -> str:
        """The tactical ability's name ("" for the strength-6 cards, which have none)."""
        if not self.kind:
            return ""
        return "Maneuver" if self.name.endswith("Maneuver") else self.name


def _cards() -> tuple[Card, ...]:
    rows: list[tuple[str, int, int, Kind, str]] = [
        ("Support", AIR, 1, "ongoing", "You gain +3 strength in each adjacent theater."),
        ("Air Drop", AIR, 2, "instant",
         "The next time you play a card, you may play it to a non-matching theater."),
        ("Air Maneuver", AIR, 3, "instant", "Flip an uncovered card in an adjacent theater."),
        ("Aerodrome", AIR, 4, "ongoing",
         "You may play cards of strength 3 or less to non-matching theaters."),
        ("Containment", AIR, 5, "ongoing",
         "If any player plays a card face-down, destroy that card."),
        ("Heavy Bombers", AIR, 6, "", ""),
        ("Reinforce", LAND, 1, "instant",
         "Draw 1 card and play it face-down to an adjacent theater."),
        ("Ambush", LAND, 2, "instant", "Flip an uncovered card in any theater."),
        ("Land Maneuver", LAND, 3, "instant", "Flip an uncovered card in an adjacent theater."),
        ("Cover Fire", LAND, 4, "ongoing", "All cards covered by this card are now strength 4."),
        ("Disrupt", LAND, 5, "instant",
         "Starting with you, both players choose and flip 1 of their uncovered cards."),
        ("Heavy Tanks", LAND, 6, "", ""),
        ("Transport", SEA, 1, "instant", "You may move 1 of your cards to a different theater."),
        ("Escalation", SEA, 2, "ongoing", "All of your face-down cards are now strength 4."),
        ("Sea Maneuver", SEA, 3, "instant", "Flip an uncovered card in an adjacent theater."),
        ("Redeploy", SEA, 4, "instant",
         "You may return 1 of your face-down cards to your hand. If you do, play a card."),
        ("Blockade", SEA, 5, "ongoing",
         "If a card is played in an adjacent theater with 3 or more cards already in it "
         "(count both players' cards), destroy that card."),
        ("Super Battleship", SEA, 6, "", ""),
    ]
    return tuple(Card(i, *row) for i, row in enumerate(rows))


CARDS = _cards()
BY_NAME = {card.name.lower(): card for card in CARDS}
NUM_CARDS = len(CARDS)

SUPPORT, AIR_DROP, AERODROME, CONTAINMENT = 0, 1, 3, 4
REINFORCE, AMBUSH, COVER_FIRE, DISRUPT = 6, 7, 9, 10
TRANSPORT, ESCALATION, REDEPLOY, BLOCKADE = 12, 13, 15, 16
MANEUVERS = frozenset({2, 8, 14})


# --- the Supreme Commander cards ---------------------------------------------------------

FIRST, SECOND = 0, 1
WITHDRAWAL_VP: tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]] = (
    ((4, 2), (2, 3), (1, 4), (0, 6)),
    ((5, 2), (3, 3), (2, 4), (0, 6)),
)
"""What the opponent scores when a player withdraws, as printed on the withdrawing player's
Supreme Commander card: (at least this many cards left in your hand, points). 1st Player:
4+ → 2, 2-3 → 3, 1 → 4, 0 → 6. 2nd Player: 5+ → 2, 3-4 → 3, 2 → 4, 0-1 → 6. (GameBench
gave each player the other card's table.)"""


def withdrawal_points(role: int, cards_left: int) -> int:
    """Points the opponent of a withdrawing ``role`` (FIRST or SECOND) scores."""
    for at_least, points in WITHDRAWAL_VP[role]:
        if cards_left >= at_least:
            return points
    raise ValueError(f"cards left must be >= 0, got {cards_left}")


def withdrawal_table(role: int) -> str:
    """The card's table in words: ``4+ cards: 2 VP, 2-3: 3 VP, 1: 4 VP, 0: 6 VP``."""
    parts: list[str] = []
    upper: int | None = None
    for at_least, points in WITHDRAWAL_VP[role]:
        if upper is None:
            span = f"{at_least}+"
        else:
            span = str(at_least) if at_least == upper else f"{at_least}-{upper}"
        parts.append(f"{span}{' cards' if not parts else ''}: {points} VP")
        upper = at_least - 1
    return ", ".join(parts)


# --- actions -----------------------------------------------------------------------------
# play card c to theater t face-up (c*6 + t*2) or face-down (+1); withdraw; flip the
# uncovered card of seat s in theater t; move own card c to theater t (Transport); return
# own face-down card c to hand (Redeploy); skip a "may" ability.

PLAY_BASE = 0
WITHDRAW = NUM_CARDS * 6
FLIP_BASE = WITHDRAW + 1
MOVE_BASE = FLIP_BASE + 6
RETURN_BASE = MOVE_BASE + NUM_CARDS * 3
SKIP = RETURN_BASE + NUM_CARDS
NUM_ACTIONS = SKIP + 1


@dataclass(frozen=True)
class Action:
    """A decoded action id. ``seat`` is the flipped card's owner (flips only)."""

    kind: Literal["play", "withdraw", "flip", "move", "return", "skip"]
    card: int = -1
    theater: int = -1
    face_up: bool = True
    seat: int = -1


def play_action(card: int, theater: int, face_up: bool) -> int:
    return PLAY_BASE + card * 6 + theater * 2 + (0 if face_up else 1)


def flip_action(seat: int, theater: int) -> int:
    return FLIP_BASE + seat * 3 + theater


def move_action(card: int, theater: int) -> int:
    return MOVE_BASE + card * 3 + theater


def return_action(card: int) -> int:
    return RETURN_BASE + card


def decode(action: int) -> Action:
    if PLAY_BASE <= action < WITHDRAW:
        card, rest = divmod(action - PLAY_BASE, 6)
        theater, down = divmod(rest, 2)
        return Action("play", card, theater, face_up=not down)
    if action == WITHDRAW:
        return Action("withdraw")
    if FLIP_BASE <= action < MOVE_BASE:
        seat, theater = divmod(action - FLIP_BASE, 3)
        return Action("flip", theater=theater, seat=seat)
    if MOVE_BASE <= action < RETURN_BASE:
        card, theater = divmod(action - MOVE_BASE, 3)
        return Action("move", card, theater)
    if RETURN_BASE <= action < SKIP:
        return Action("return", action - RETURN_BASE)
    if action == SKIP:
        return Action("skip")
    raise ValueError(f"not an Air, Land & Sea action id: {action}")
