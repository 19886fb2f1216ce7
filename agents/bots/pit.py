"""Pit's bot: a trader that collects the commodity it holds most of and corners it.

It reads only what its seat knows (:func:`games.gamebench.pit_view.observe`): its own cards
and standing offer, the size of every offer on the table, and this hand's log as the seat saw
it, where its own trades show what each partner gave it. From that log it remembers, per
hand, what each partner handed over (a partner that handed over its commodity likely holds
more; one that handed over other cards now also holds the bot's junk) and to whom it passed
the Bear. Its commodity is the one it holds most of, nudged towards what partners keep
handing over (nobody else collects that).

On its turn, in this order:

1. With a corner blocked only by the Bear (nine of a commodity, or eight and the Bull), it
   gets rid of the Bear: a 1-card trade corners at once.
2. It accepts the standing offer most likely to hold its commodity, paying with cards it
   does not collect (the Bear first), never with its commodity, if that seat is no worse a
   bet than one it knows nothing about.
3. Otherwise it offers the cards of the commodity it holds fewest of (all of them, up to
   four), with the Bear (and the Bull while its collection is small) attached.
4. Otherwise (that offer already stands) it takes the best offer left; with none it can pay
   for and its offer untaken for a round, it may take its offer back to free its cards;
   else it passes.

A corner is called by the rules the moment a trade makes one.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.gamebench.pit import bundle_of
from games.gamebench.pit_cards import (
    ACCEPT,
    BEAR,
    BULL,
    BUNDLES,
    COMMODITIES,
    MAX_TRADE,
    OFFER,
    PASS,
    SUIT,
    WITHDRAW,
    Bundle,
    seat_name,
)
from games.gamebench.pit_view import Knowledge, observe
from games.registry import GameSpec

KEEP_BULL_FROM = 5
"""The Bull stays in hand once the collection holds this many cards (a Bull corner needs
eight); below that it goes out with the offers, since whoever holds it when another seat
corners loses 20."""

HANDED_WEIGHT = 0.5
"""How much each card of a commodity that partners handed over lately adds to it as a
target: what others keep passing on, nobody else is collecting."""
RECENT = 4
"""The seat's own trades that count as lately."""
TAKE_FROM = 1.0
"""An offer is accepted at once when the chance that it is the target is at least this share
of the chance for a seat it knows nothing about (a partner that handed over other junk
falls below it); otherwise the seat makes its own offer first and takes the offer only when
its own already stands."""
WITHDRAW_CHANCE = 0.5
"""When its offer stood a round untaken and it cannot pay for any offer on the table, the
seat takes its offer back with this probability (not always: traders who all take their
offers back at once would meet an empty table)."""

_MINE = re.compile(r"^You accepted player (\d+)'s offer: you gave (.+) and got (.+)\.$")
_THEIRS = re.compile(r"^player (\d+) accepted your offer: you gave (.+) and got (.+)\.$")
_OTHERS = re.compile(r"^player (\d+) accepted player (\d+)'s offer")


@dataclass(frozen=True)
class Trade:
    """One of the seat's own trades: the partner, what the seat gave and what it got."""

    partner: int
    gave: Bundle
    got: Bundle


@dataclass
class Memory:
    """What the seat learned in this hand from its own trades and the public log."""

    trades: list[Trade] = field(default_factory=list)
    bear_with: int | None = None
    """The seat this seat passed the Bear to, while that seat has not traded since."""

    @classmethod
    def read(cls, log: tuple[str, ...]) -> Memory:
        memory = cls()
        for line in log:
            memory._note(line)
        return memory

    def _note(self, line: str) -> None:
        found = _MINE.match(line) or _THEIRS.match(line)
        if found is not None:
            partner = int(found.group(1)) - 1
            gave, got = bundle_of(found.group(2)), bundle_of(found.group(3))
            if gave is None or got is None:
                return
            self.trades.append(Trade(partner, gave, got))
            if gave.bear:
                self.bear_with = partner
            elif self.bear_with == partner:
                self.bear_with = None  # it may have given the Bear back, or it stays there
            return
        others = _OTHERS.match(line)
        if others is not None and self.bear_with in {int(others.group(1)) - 1,
                                                     int(others.group(2)) - 1}:
            self.bear_with = None  # the Bear may have moved on

    def handed(self) -> Counter[int]:
        """Commodity -> cards partners handed over in the seat's last few trades."""
        counts = Counter[int]()
        for trade in self.trades[-RECENT:]:
            if trade.got.commodity is not None:
                counts[trade.got.commodity] += trade.got.count
        return counts

    def chance_of(self, seat: int, target: int, base: float) -> float:
        """How likely ``seat``'s next offer is cards of ``target``: ``base`` (the target's
        share of the cards out of this seat's hand), raised each time that seat handed the
        target over and lowered each time it handed over something else (it holds other
        junk, and now this seat's junk too)."""
        chance = base
        for trade in self.trades:
            if trade.partner != seat:
                continue
            if trade.got.commodity == target:
                chance = min(0.9, chance + 0.4)
            else:
                chance *= 0.5
        return chance


@dataclass(frozen=True)
class Plan:
    """What the seat collects and what it wants to be rid of."""

    target: int
    hand: tuple[int, ...]
    free: tuple[int, ...]
    """Cards not set aside in the seat's standing offer."""
    keep_bull: bool
    commodities: int
    """How many commodities are in play (ids 0 to ``commodities`` - 1)."""

    def junk(self, cards: tuple[int, ...]) -> list[int]:
        """Commodities held in ``cards`` other than the target, fewest first."""
        held = [c for c in range(self.commodities) if c != self.target and cards[c] > 0]
        return sorted(held, key=lambda c: (cards[c], -c))

    def may_give(self, bundle: Bundle) -> bool:
        """Whether ``bundle`` gives nothing the seat collects."""
        return (bundle.commodity != self.target or bundle.count == 0) and not (
            bundle.bull and self.keep_bull)

    @property
    def base(self) -> float:
        """The target's share of the cards out of this seat's hand."""
        outside = SUIT - self.hand[self.target]
        return outside / max(1, SUIT * self.commodities - sum(self.hand[:self.commodities]))

    @property
    def blocked_corner(self) -> bool:
        """A corner that only the Bear stands in the way of."""
        return bool(self.hand[BEAR]) and (self.hand[self.target] == SUIT or (
            self.hand[self.target] == SUIT - 1 and bool(self.hand[BULL])))


def plan_for(seen: Knowledge, memory: Memory) -> Plan:
    """The target: the commodity held most of; ties go to the one partners have been
    handing over (they are not collecting it), then to the more valuable."""
    hand = seen.hand
    free = list(hand)
    if seen.offer is not None:
        free = [h - o for h, o in zip(hand, seen.offer.cards(), strict=True)]
    handed = memory.handed()
    target = max(seen.in_play, key=lambda c: (hand[c] + HANDED_WEIGHT * handed[c],
                                              handed[c], COMMODITIES[c][1]))
    keep_bull = hand[target] >= KEEP_BULL_FROM
    return Plan(target, hand, tuple(free), keep_bull, len(seen.in_play))


def decode(action: int) -> tuple[str, int | None, Bundle | None]:
    """(``pass``/``withdraw``/``offer``/``accept``, the seat accepted from, the bundle)."""
    if action == PASS:
        return "pass", None, None
    if action == WITHDRAW:
        return "withdraw", None, None
    if action < ACCEPT:
        return "offer", None, BUNDLES[action - OFFER]
    seat, index = divmod(action - ACCEPT, len(BUNDLES))
    return "accept", seat, BUNDLES[index]


class PitTrader:
    """Collects the commodity it holds most of, trades the rest away, corners."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        self.game = game
        self._rng = rng

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        action, why = self.choose(view)
        return Decision(ActionId(action=action), raw=view.label(action), reasoning=why,
                        seconds=time.perf_counter() - start)

    def choose(self, view: SeatView) -> tuple[int, str]:
        """The move and one sentence why."""
        seen = observe(view.state, view.seat)
        memory = Memory.read(seen.log)
        plan = plan_for(seen, memory)
        legal = {move.action: decode(move.action) for move in view.legal}
        name = COMMODITIES[plan.target][0]
        held = f"collecting {name} ({plan.hand[plan.target]} of {SUIT})"
        if plan.blocked_corner:
            found = _shed_bear(plan, legal)
            if found is not None:
                return found, f"holds a {name} corner but for the Bear: gets rid of the Bear"
        accept, chance = _best_accept(plan, memory, legal)
        offer = _best_offer(plan, seen.offer, legal)
        if accept is not None and (chance >= TAKE_FROM * plan.base or offer is None):
            _, seat, _ = legal[accept]
            assert seat is not None
            return accept, f"{held}: trades cards it does not need for {seat_name(seat)}'s offer"
        if offer is not None:
            _, _, bundle = legal[offer]
            assert bundle is not None
            return offer, f"{held}: offers {bundle.text()}, which it does not need"
        if (WITHDRAW in legal and _stood(seen.log) >= len(seen.table) and _stuck(plan, legal)
                and self._rng.random() < WITHDRAW_CHANCE):
            return WITHDRAW, (f"{held}: its offer stood a round untaken and it cannot pay for "
                              "the offers on the table: takes its cards back to trade them")
        return PASS, f"{held}: its offer stands and no offer on the table is worth taking"


def _stood(log: tuple[str, ...]) -> int:
    """How many turns others have taken since the seat's standing offer was made."""
    turns = 0
    for line in reversed(log):
        if line.startswith("You offered"):
            return turns
        if not line.startswith("You"):
            turns += 1
    return turns


def _stuck(plan: Plan, legal: dict[int, tuple[str, int | None, Bundle | None]]) -> bool:
    """Whether no offer on the table can be paid for with free junk."""
    return not any(kind == "accept" and b is not None and plan.may_give(b)
                   for kind, _, b in legal.values())


def _shed_bear(plan: Plan, legal: dict[int, tuple[str, int | None, Bundle | None]]
               ) -> int | None:
    """A move that passes the Bear on without breaking the corner: a trade giving it (with
    junk if the size needs it), else an offer of it."""
    for kind in ("accept", "offer"):
        moves = [a for a, (k, _, b) in legal.items()
                 if k == kind and b is not None and b.bear and not b.bull and plan.may_give(b)]
        if moves:
            return min(moves, key=lambda a: _size(legal[a][2]))
    return None


def _size(bundle: Bundle | None) -> int:
    return bundle.size if bundle is not None else 0


def _best_accept(plan: Plan, memory: Memory,
                 legal: dict[int, tuple[str, int | None, Bundle | None]]
                 ) -> tuple[int | None, float]:
    """The acceptance worth most (the expected cards of the target it brings), and the
    chance that it is the target; paid with junk only, the Bear first. None when none is
    worth anything."""
    best, best_score = None, 0.0
    base = plan.base
    for action, (kind, seat, bundle) in legal.items():
        if kind != "accept" or seat is None or bundle is None or not plan.may_give(bundle):
            continue
        worth = memory.chance_of(seat, plan.target, base) * bundle.size
        if memory.bear_with == seat:
            worth -= 1.0  # it likely offers the Bear back
        bonus = 0.5 * bundle.bear + _clears(plan, bundle)
        if worth > 0 and (best is None or worth + bonus > best_score):
            best, best_score = action, worth + bonus
    if best is None:
        return None, 0.0
    _, seat, bundle = legal[best]
    assert seat is not None and bundle is not None
    return best, memory.chance_of(seat, plan.target, base)


def _clears(plan: Plan, bundle: Bundle) -> float:
    """A small bonus for paying with all the cards of a commodity (fewer kinds in hand)."""
    if bundle.commodity is None:
        return 0.0
    return 0.1 if plan.free[bundle.commodity] == bundle.count else 0.0


def _best_offer(plan: Plan, standing: Bundle | None,
                legal: dict[int, tuple[str, int | None, Bundle | None]]) -> int | None:
    """The offer of the junk held fewest of (all of it, up to four), with the Bear and a
    Bull that is not kept; None when that offer already stands."""
    wanted = _wanted_offer(plan)
    if wanted is None or wanted == standing:
        return None
    for action, (kind, _, bundle) in legal.items():
        if kind == "offer" and bundle == wanted:
            return action
    return None


def _wanted_offer(plan: Plan) -> Bundle | None:
    bear = bool(plan.hand[BEAR])
    bull = bool(plan.hand[BULL]) and not plan.keep_bull
    junk = plan.junk(plan.hand)
    room = MAX_TRADE - bear - bull
    if not junk:
        return Bundle(None, 0, bull, bear) if bull or bear else None
    commodity = junk[0]
    return Bundle(commodity, min(room, plan.hand[commodity]), bull, bear)
