"""Pit's cards and what happens at the table: the commodities and their points, the Bull and
the Bear, the bundles of cards a trade is made of, the action ids, and the records of events
and corners (see :mod:`pit_rules` for the rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

COMMODITIES = (("Wheat", 100), ("Barley", 85), ("Coffee", 80), ("Corn", 75), ("Sugar", 65),
               ("Oats", 60), ("Soybeans", 55), ("Oranges", 50))
BULL, BEAR = 8, 9
CARDS = 10
SUIT = 9
PENALTY = 20
MAX_TRADE = 4
MIN_PLAYERS, MAX_PLAYERS = 3, 8
DEFAULTS: dict[str, Any] = {"num_players": 4, "target": 500, "bull_bear": True,
                            "max_rounds": 100}
MAX_ROUNDS = 2000


@dataclass(frozen=True)
class Bundle:
    """Cards offered or given: ``count`` of one commodity (None: none) and the specials."""

    commodity: int | None
    count: int
    bull: bool = False
    bear: bool = False

    @property
    def size(self) -> int:
        return self.count + self.bull + self.bear

    def cards(self) -> list[int]:
        """Card counts by card id."""
        counts = [0] * CARDS
        if self.commodity is not None:
            counts[self.commodity] = self.count
        counts[BULL], counts[BEAR] = int(self.bull), int(self.bear)
        return counts

    def text(self) -> str:
        """``2 Wheat``, ``1 Corn + Bear``, ``Bull + Bear``."""
        parts = [] if self.commodity is None else [f"{self.count} {COMMODITIES[self.commodity][0]}"]
        parts += [name for name, held in (("Bull", self.bull), ("Bear", self.bear)) if held]
        return " + ".join(parts)

    def __deepcopy__(self, memo: dict[int, Any]) -> Bundle:
        return self  # immutable: clones of a state share it


def _bundles() -> tuple[Bundle, ...]:
    found = [Bundle(None, 0, bull, bear) for bull, bear in ((True, False), (False, True),
                                                            (True, True))]
    for commodity in range(len(COMMODITIES)):
        for count in range(1, MAX_TRADE + 1):
            for bull, bear in ((False, False), (True, False), (False, True), (True, True)):
                if count + bull + bear <= MAX_TRADE:
                    found.append(Bundle(commodity, count, bull, bear))
    return tuple(found)


BUNDLES = _bundles()
PASS, WITHDRAW = 0, 1
OFFER = 2
ACCEPT = OFFER + len(BUNDLES)
NUM_ACTIONS = ACCEPT + MAX_PLAYERS * len(BUNDLES)


def card_name(card: int) -> str:
    return "Bull" if card == BULL else "Bear" if card == BEAR else COMMODITIES[card][0]


def seat_name(seat: int) -> str:
    return f"player {seat + 1}"


@dataclass(frozen=True)
class Corner:
    """How a hand ended: who cornered what (None: the market closed at the turn cap), the
    points scored and every penalty."""

    hand: int
    seat: int | None
    commodity: int | None
    kind: str
    """``corner``, ``Bull corner``, ``double Bull corner`` or ``market closed``."""
    points: int
    penalties: tuple[tuple[int, str], ...]
    """(seat, ``Bear``/``Bull``), each -20."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Corner:
        return self  # immutable: clones of a state share it


@dataclass(frozen=True)
class Event:
    """Something that happened at the table. ``private`` holds what only the seats named in
    it saw: the cards each of two traders gave, or the cards of an offer (seat -> bundle)."""

    kind: str
    """``deal``, ``offer``, ``withdraw``, ``pass``, ``trade`` or ``corner``."""
    seat: int
    count: int = 0
    other: int | None = None
    private: dict[int, Bundle] = field(default_factory=dict)
    corner: Corner | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> Event:
        return self  # immutable: clones of a state share it
