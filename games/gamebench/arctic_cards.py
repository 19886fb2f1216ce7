"""Arctic Scavengers' base-game cards, their counts, and the arithmetic of an action.

The cards of the Rio Grande Games base game (149 cards: 20 refugees, 69 mercenaries in eight
piles, 46 junkyard cards, 14 contested resources), each with the people it counts as, the
actions it performs on its own (a *skill*: dig, draw, hunt, fight), the bonus it gives a
tribe member as a tool or as Group Leaders (a *boost*), its medicine, and its hiring cost.

An action's value (:func:`action_value`) is the skills of the tribe members that take part,
plus at most one piece of equipment (a tool, the Grenade or the Wolf Pack) per member and at
most one Group Leaders per member, assigned to give the most. A card without the skill
cannot carry a tool for it ("a card must have a base ability in order to improve it with a
tool"), which is why a Refugee (dig 0, hunt 0) can dig with a Shovel but not fight with a
Spear.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

SKILLS = ("dig", "draw", "hunt", "fight")
Skill = Literal["dig", "draw", "hunt", "fight"]


@dataclass(frozen=True)
class Cost:
    """What a mercenary costs: food, medicine, and an amount payable in either."""

    food: int = 0
    medicine: int = 0
    either: int = 0

    def affordable(self, food: int, medicine: int) -> bool:
        return (food >= self.food and medicine >= self.medicine
                and food - self.food + medicine - self.medicine >= self.either)

    def medicine_due(self, food: int) -> int:
        """Medicine still to pay once ``food`` (spent first) has covered what it can."""
        return self.medicine + max(0, self.either - max(0, food - self.food))

    def food_spent(self, food: int) -> int:
        return self.food + min(self.either, max(0, food - self.food))

    def text(self) -> str:
        if self.either:
            return f"{self.either} food or medicine"
        parts = [f"{self.food} food"] * bool(self.food) + [f"{self.medicine} medicine"] * bool(
            self.medicine)
        return " + ".join(parts) or "free"

    def short(self) -> str:
        if self.either:
            return f"{self.either} F/M"
        return " ".join([f"{self.food}F"] * bool(self.food) + [f"{self.medicine}M"] * bool(
            self.medicine))


@dataclass(frozen=True)
class Card:
    name: str
    kind: Literal["person", "tool", "medicine", "junk"]
    origin: Literal["refugee", "mercenary", "junkyard", "contested"]
    count: int
    """How many the box holds."""
    people: int = 0
    skills: dict[str, int] = field(default_factory=dict)
    boosts: dict[str, int] = field(default_factory=dict)
    medicine: int = 0
    cost: Cost | None = None
    special: Literal["snipe", "sabotage"] | None = None
    disarmable: bool = False
    """A tool a Saboteur can disarm (the Wolf Pack is an animal, not a tool)."""
    leader: bool = False

    @property
    def equipment(self) -> bool:
        """Carried by one tribe member (tools, the Grenade, the Wolf Pack)."""
        return self.kind == "tool"

    def describe(self) -> str:
        """One line: what the card is and does (for rules, views and prompts)."""
        bits: list[str] = [self.kind]
        if self.people:
            bits.append(f"{self.people} {'person' if self.people == 1 else 'people'}")
        bits += [f"{skill} {value}" for skill, value in self.skills.items()]
        bits += [f"{skill} +{value}" for skill, value in self.boosts.items()]
        if self.medicine:
            bits.append(f"medicine {self.medicine}")
        if self.special:
            bits.append(self.special)
        if self.cost is not None:
            bits.append(f"costs {self.cost.text()}")
        return ", ".join(bits)


_ALL = {skill: 2 for skill in SKILLS}
TRIBE_FAMILIES = (3, 4, 5)
"""The six Tribe Families count 3, 4 or 5 people, two of each (printed "Tribe Family" on
every card; the people tell them apart here): see ``games/rules/arctic_scavengers.md``."""

CARDS: tuple[Card, ...] = (
    Card("Refugee", "person", "refugee", 20, people=1, skills={"dig": 0, "hunt": 0}),
    Card("Scavenger", "person", "mercenary", 20, people=1,
         skills={"dig": 1, "draw": 1, "hunt": 1, "fight": 1}, cost=Cost(food=1)),
    Card("Brawler", "person", "mercenary", 10, people=1, skills={"dig": 1, "fight": 2},
         cost=Cost(food=2)),
    Card("Hunter", "person", "mercenary", 8, people=1, skills={"hunt": 2, "fight": 1},
         cost=Cost(medicine=1)),
    Card("Saboteur", "person", "mercenary", 8, people=1, skills={"dig": 1, "fight": 1},
         cost=Cost(food=1, medicine=1), special="sabotage"),
    Card("Scout", "person", "mercenary", 8, people=1, skills={"draw": 2, "fight": 2},
         cost=Cost(food=2, medicine=1)),
    Card("Group Leaders", "person", "mercenary", 5, people=2, boosts=dict(_ALL),
         cost=Cost(food=2, medicine=2), leader=True),
    Card("Sniper Team", "person", "mercenary", 5, people=2, cost=Cost(food=2, medicine=2),
         special="snipe"),
    Card("Thugs", "person", "mercenary", 5, people=3, skills={"dig": 1, "fight": 3},
         cost=Cost(either=6)),
    Card("Junk", "junk", "junkyard", 7),
    Card("Multitool", "tool", "junkyard", 4, boosts={"dig": 1, "hunt": 1, "fight": 1},
         disarmable=True),
    Card("Net", "tool", "junkyard", 4, boosts={"hunt": 2, "fight": 1}, disarmable=True),
    Card("Spear", "tool", "junkyard", 6, boosts={"hunt": 1, "fight": 2}, disarmable=True),
    Card("Pickaxe", "tool", "junkyard", 4, boosts={"dig": 1, "fight": 2}, disarmable=True),
    Card("Shovel", "tool", "junkyard", 6, boosts={"dig": 2, "fight": 1}, disarmable=True),
    Card("Medkit", "medicine", "junkyard", 6, medicine=2),
    Card("Pills", "medicine", "junkyard", 9, medicine=1),
    Card("Wolf Pack", "tool", "contested", 2, boosts={"hunt": 3, "fight": 2}),
    Card("Grenade", "tool", "contested", 2, boosts={"fight": 3}, disarmable=True),
    Card("Sled Team", "person", "contested", 2, people=2, skills={"draw": 2, "fight": 1}),
    Card("Field Crew", "person", "contested", 2, people=4,
         skills={"dig": 2, "hunt": 2, "fight": 2}),
    *(Card(f"Tribe Family ({n})", "person", "contested", 2, people=n,
           skills={"hunt": 0, "fight": 0}) for n in TRIBE_FAMILIES),
)
NUM_CARDS = len(CARDS)
NAMES = tuple(card.name for card in CARDS)
INDEX = {card.name: i for i, card in enumerate(CARDS)}
REFUGEE, SCAVENGER, BRAWLER = INDEX["Refugee"], INDEX["Scavenger"], INDEX["Brawler"]
SABOTEUR, SNIPER = INDEX["Saboteur"], INDEX["Sniper Team"]
SPEAR, SHOVEL = INDEX["Spear"], INDEX["Shovel"]
MERCENARIES = tuple(i for i, card in enumerate(CARDS) if card.origin == "mercenary")
"""The eight mercenary piles, in the order they are shown."""
MEDICINES = tuple(i for i, card in enumerate(CARDS) if card.kind == "medicine")

STARTING_DECK = {REFUGEE: 4, SCAVENGER: 3, BRAWLER: 1, SPEAR: 1, SHOVEL: 1}
"""Each tribe's first ten cards, taken from the refugees, the piles and the junkyard."""
HAND_SIZE = 5
SKIRMISH_FROM = 3
"""The first round with a skirmish (the initiator peeks at the contested pile from then on)."""
MIN_PLAYERS, MAX_PLAYERS = 2, 5


def price(card: int) -> Cost:
    """What hiring ``card`` costs (a mercenary)."""
    cost = CARDS[card].cost
    if cost is None:
        raise ValueError(f"{NAMES[card]} is not for hire")
    return cost


def supply(players: int, origin: str) -> list[int]:
    """Counts per card of one supply (mercenary piles, junkyard, contested resources) once
    ``players`` starting decks are taken out of the box."""
    counts = [card.count if card.origin == origin else 0 for card in CARDS]
    if origin in ("mercenary", "junkyard"):
        for card, each in STARTING_DECK.items():
            if CARDS[card].origin == origin:
                counts[card] -= each * players
    return counts


def counted(cards: Iterable[int]) -> list[int]:
    counts = [0] * NUM_CARDS
    for card in cards:
        counts[card] += 1
    return counts


def names(cards: Iterable[int]) -> str:
    """``Brawler + Shovel``: cards in canonical order, repeats repeated."""
    return " + ".join(NAMES[card] for card in sorted(cards))


def people(cards: Iterable[int]) -> int:
    return sum(CARDS[card].people for card in cards)


def medicine(cards: Iterable[int]) -> int:
    return sum(CARDS[card].medicine for card in cards)


def action_value(cards: Sequence[int], skill: str) -> int:
    """The value of ``cards`` performing ``skill`` together (best equipment assignment)."""
    able = [CARDS[c].skills[skill] for c in cards if skill in CARDS[c].skills]
    gear = sorted((CARDS[c].boosts.get(skill, 0) for c in cards if CARDS[c].equipment),
                  reverse=True)
    leaders = sorted((CARDS[c].boosts.get(skill, 0) for c in cards if CARDS[c].leader),
                     reverse=True)
    return sum(able) + sum(gear[:len(able)]) + sum(leaders[:len(able)])


def carriers(cards: Iterable[int], skill: str) -> int:
    return sum(1 for c in cards if skill in CARDS[c].skills)


def helps(card: int, skill: str) -> bool:
    """Whether ``card`` can take part in ``skill`` (as a member, equipment or leader)."""
    info = CARDS[card]
    return skill in info.skills or info.boosts.get(skill, 0) > 0


def needs_carrier(card: int) -> bool:
    return CARDS[card].equipment or CARDS[card].leader


def fits(chosen: Sequence[int], skill: str) -> bool:
    """Every piece of equipment and every Group Leaders has its own tribe member."""
    able = carriers(chosen, skill)
    gear = sum(1 for c in chosen if CARDS[c].equipment)
    leaders = sum(1 for c in chosen if CARDS[c].leader)
    return gear <= able and leaders <= able
