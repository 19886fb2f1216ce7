"""Arctic Scavengers' strategy bot: builds its tribe and fights for the contested resources.

Each gathering turn it plans the whole turn at once: which cards of its hand dig, hunt (to
hire), get trashed and which stay in hand for the skirmish, and whether to draw first. A
plan is worth what it gains (the people and the later use of a hired or dug card, less what
a weak card costs by diluting the deck) plus the skirmish: the chance that the cards it
keeps beat the other tribes', times what the contested resource is worth (won by it, or
lost to another tribe). The other tribes' hands are dealt again from what the seat knows
(``resample_from_infostate``), never read. The plan is then played in as few steps as the
rules allow: start the action, add its cards, confirm.
"""

from __future__ import annotations

import functools
import itertools
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.gamebench import arctic_moves as mv
from games.gamebench.arctic_cards import (
    CARDS,
    HAND_SIZE,
    MERCENARIES,
    NAMES,
    SABOTEUR,
    SNIPER,
    action_value,
    fits,
    helps,
    names,
    people,
    price,
)
from games.gamebench.arctic_sight import Sight, sight
from games.gamebench.arctic_table import ROUNDS
from games.registry import GameSpec

WORTH = {
    "Refugee": 0.2, "Scavenger": 1.2, "Brawler": 2.0, "Hunter": 1.3, "Saboteur": 1.4,
    "Scout": 2.3, "Group Leaders": 2.0, "Sniper Team": 2.2, "Thugs": 3.0, "Junk": 0.0,
    "Multitool": 1.2, "Net": 1.0, "Spear": 1.8, "Pickaxe": 1.8, "Shovel": 1.4,
    "Medkit": 0.7, "Pills": 0.35, "Wolf Pack": 2.0, "Grenade": 2.5, "Sled Team": 1.5,
    "Field Crew": 2.4, "Tribe Family (3)": 0.0, "Tribe Family (4)": 0.0,
    "Tribe Family (5)": 0.0,
}
"""What a card adds to a hand each time it is drawn, in fight points (its use in digs,
hunts and hires counted in)."""
_WORTH = [WORTH[name] for name in NAMES]
WORLDS = 48
"""Deals of the other tribes' hidden cards a turn's skirmish chances are counted over."""
DRAW_SAMPLES = 8
MARGIN = 0.05
ROLES = ("keep", "dig", "hunt", "trash")


@dataclass(frozen=True)
class Tuning:
    """The bot's judgement, in numbers (the defaults are the calibrated bot)."""

    future: float = 0.6
    """People a fight point of a hand is worth, for the cards a plan adds to the tribe."""
    trash_people: int = 1
    """The most people a card it trashes may count (weak members make a deck weaker)."""
    skirmish: float = 1.4
    """How much a skirmish's stake counts against what the turn's actions gain."""


class Values:
    """What each card is worth to the seat's tribe now: its people, plus its use in the
    hands to come against the tribe's average card."""

    def __init__(self, owned: Sequence[int], round_: int, tuning: Tuning) -> None:
        average = sum(_WORTH[c] for c in owned) / max(1, len(owned))
        uses = max(0, ROUNDS - round_) * HAND_SIZE / (len(owned) + 1)
        raw = [card.people + tuning.future * uses * (_WORTH[i] - average)
               for i, card in enumerate(CARDS)]
        self.trashable = [raw[i] < 0 and card.people <= tuning.trash_people
                          for i, card in enumerate(CARDS)]
        self.gains = [gain if card.people <= tuning.trash_people else max(gain, card.people)
                      for gain, card in zip(raw, CARDS, strict=True)]
        """Cards it would not trash are worth at least their people."""
        self.weight = tuning.skirmish

    def gain(self, card: int) -> float:
        return self.gains[card]

    def prize(self, card: int) -> float:
        """A contested resource's worth (to whoever wins it)."""
        return max(0.5, self.gains[card]) * self.weight


@dataclass(frozen=True)
class Plan:
    """One turn: the cards of each action (empty: not done), the hire, and its worth."""

    value: float
    dig: tuple[int, ...] = ()
    hunt: tuple[int, ...] = ()
    trash: tuple[int, ...] = ()
    keep: tuple[int, ...] = ()
    hire: int | None = None
    draw: tuple[int, ...] = ()


@dataclass
class Others:
    """The other tribes' skirmish, dealt ``WORLDS`` times: arrays of shape (worlds, tribes)."""

    fight: np.ndarray
    sniped: np.ndarray
    """Their fight once one of our Sniper Teams has sniped their best fighter."""
    sabotaged: np.ndarray
    crowd: np.ndarray
    snipers: np.ndarray
    saboteurs: np.ndarray
    prize: np.ndarray
    """What the contested resource is worth, per world."""


@dataclass
class Turn:
    """What the bot knows and has decided within one round (reset when the round changes)."""

    round: int = -1
    others_key: tuple[Any, ...] = ()
    others: Others | None = None
    intent: tuple[str, tuple[int, ...]] | None = None


class ArcticBot:
    """Plans each gathering turn (dig, draw, hunt and hire, trash, keep for the skirmish) by
    what it gains against its chances in the skirmish; snipes and sabotages where that
    turns the skirmish."""

    def __init__(self, game: GameSpec, params: dict[str, Any], rng: np.random.Generator, *,
                 tuning: Tuning | None = None) -> None:
        self.game = game
        self.params = params
        self.tuning = tuning or Tuning()
        self._rng = rng
        self._turn = Turn()

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        seen = sight(view.state, view.seat)
        if self._turn.round != seen.round:
            self._turn = Turn(round=seen.round)
        legal = {m.action for m in view.legal}
        action, why = self._choose(view, seen, legal)
        if action not in legal:  # never expected: fall back to a legal move
            action, why = min(legal), "No plan fits the legal moves."
        return Decision(ActionId(action=action), raw=view.label(action), reasoning=why,
                        seconds=time.perf_counter() - start)

    # --- by phase -----------------------------------------------------------------------------

    def _choose(self, view: SeatView, seen: Sight, legal: set[int]) -> tuple[int, str]:
        phase = seen.phase
        if phase == "keep":
            return self._keep(seen)
        if phase == "pay":
            return self._pay(seen, legal)
        if phase == "skirmish":
            return self._strike(seen, legal)
        if phase == "pick":
            return self._pick(view, seen, legal)
        return self._gather(view, seen, legal)

    def _gather(self, view: SeatView, seen: Sight, legal: set[int]) -> tuple[int, str]:
        board = self._board(view, seen)
        plan = board.best(list(seen.me.hand or ()), set(seen.me.used), seen.me.food)
        if mv.DRAW in legal:
            drawn = self._best_draw(board, seen)
            if drawn is not None and drawn.value > plan.value + MARGIN:
                self._turn.intent = ("draw", drawn.draw)
                return mv.DRAW, f"Draws with {names(drawn.draw)}: more cards are worth more."
        why = board.explain(plan)
        for kind, cards, action in (("trash", plan.trash, mv.TRASH), ("dig", plan.dig, mv.DIG),
                                    ("hunt", plan.hunt, mv.HUNT)):
            if cards and action in legal:
                self._turn.intent = (kind, cards)
                return action, why
        if plan.hire is not None:
            hire = mv.HIRE + MERCENARIES.index(plan.hire)
            if hire in legal:
                return hire, why
        return mv.END, why

    def _best_draw(self, board: Board, seen: Sight) -> Plan | None:
        hand = list(seen.me.hand or ())
        pool = list(seen.me.deck or ()) or list(seen.me.discard_seen)
        if not pool:
            return None
        used = set(seen.me.used) | {"draw"}
        best: Plan | None = None
        for cards in _subsets([c for c in hand if helps(c, "draw")], 3):
            if not _usable(cards, "draw"):
                continue
            rest = list(hand)
            for c in cards:
                rest.remove(c)
            count = min(_usable(cards, "draw"), len(pool))
            total = 0.0
            outcomes = self._draws(pool, count)
            for drawn, weight in outcomes:
                total += weight * board.best(rest + list(drawn), used, seen.me.food).value
            if best is None or total > best.value:
                best = Plan(value=total, draw=tuple(sorted(cards)))
        return best

    def _draws(self, pool: list[int], count: int) -> list[tuple[tuple[int, ...], float]]:
        if count == 1:
            return [((card, ), n / len(pool)) for card, n in Counter(pool).items()]
        picks = [tuple(self._rng.choice(pool, size=count, replace=False).tolist())
                 for _ in range(DRAW_SAMPLES)]
        return [(pick, 1 / DRAW_SAMPLES) for pick in picks]

    def _pick(self, view: SeatView, seen: Sight, legal: set[int]) -> tuple[int, str]:
        kind, picked, hand = seen.pick_kind, Counter(seen.picked), Counter(seen.me.hand or ())
        intent = self._turn.intent
        if intent is None or intent[0] != kind or picked - Counter(intent[1]) \
                or Counter(intent[1]) - picked - hand:
            intent = self._repair(view, seen, legal)
            if intent is None:
                return mv.CANCEL, f"Gives up the {kind}: it is not worth its cards now."
        wanted = Counter(intent[1]) - picked
        for card in sorted(wanted):
            if mv.ADD + card in legal:
                return mv.ADD + card, f"Adds the {NAMES[card]} to the {kind}."
        if mv.CONFIRM in legal:
            return mv.CONFIRM, f"Confirms the {kind} with {names(seen.picked)}."
        return (mv.CANCEL if mv.CANCEL in legal else min(legal)), f"Cannot finish the {kind}."

    def _repair(self, view: SeatView, seen: Sight,
                legal: set[int]) -> tuple[str, tuple[int, ...]] | None:
        """An action the bot did not plan (a slip): finish it the best way, or give it up."""
        kind, picked = seen.pick_kind, list(seen.picked)
        hand = list(seen.me.hand or ())
        board = self._board(view, seen)
        used = set(seen.me.used)
        free = board.best(hand + picked, used, seen.me.food).value
        if kind == "draw":
            cards = list(picked)
            for card in sorted((c for c in hand if helps(c, "draw")), key=lambda c: _WORTH[c]):
                if _usable(cards, "draw"):
                    break
                cards.append(card)
            chosen: tuple[int, ...] = tuple(sorted(cards))
            worth = -1.0 if mv.CANCEL in legal else free
        else:
            plan = board.best(hand, used, seen.me.food, forced=(kind, tuple(picked)))
            chosen = getattr(plan, kind)
            worth = plan.value
        if worth < free - MARGIN and mv.CANCEL in legal:
            return None
        self._turn.intent = (kind, chosen)
        return self._turn.intent

    def _pay(self, seen: Sight, legal: set[int]) -> tuple[int, str]:
        due = seen.due - sum(CARDS[c].medicine for c in seen.paid)
        options = sorted((a - mv.PAY for a in legal if mv.PAY <= a < mv.KEEP),
                         key=lambda c: (CARDS[c].medicine > due, -CARDS[c].medicine))
        if options:
            return mv.PAY + options[0], f"Pays with the {NAMES[options[0]]}."
        return mv.CANCEL, "Cannot pay for the hire."

    def _keep(self, seen: Sight) -> tuple[int, str]:
        values = self._values(seen)
        best = max(set(seen.dug), key=values.gain)
        if values.gain(best) > 0:
            return mv.KEEP + best, f"Keeps the {NAMES[best]}: the best card dug up."
        return mv.KEEP_NOTHING, "Nothing dug up is worth a place in the deck."

    def _strike(self, seen: Sight, legal: set[int]) -> tuple[int, str]:
        def outcome(action: int) -> tuple[int, int]:
            forces = [list(t.force or ()) for t in seen.tribes]
            spent = [list(t.spent) for t in seen.tribes]
            if action != mv.PASS:
                verb, target, card = mv.strike(action)
                forces[target].remove(card)
                spent[seen.seat][1 if verb == "sabotage" else 0] += 1
            scores = [_skirmish_score(f, spent[p][1]) for p, f in enumerate(forces)]
            mine = scores.pop(seen.seat)
            best = max(scores)
            return (mine > best) - (mine < best), mine - best

        action = max(sorted(legal), key=outcome)
        if action == mv.PASS:
            return mv.PASS, "No strike improves the skirmish."
        verb, _, card = mv.strike(action)
        return action, f"{verb.capitalize()}s the {NAMES[card]}: the skirmish goes better without it."

    # --- the other tribes ---------------------------------------------------------------------

    def _others(self, view: SeatView, seen: Sight) -> Others | None:
        if not seen.skirmish_round or not seen.contested:
            return None
        key = tuple((t.gathered, t.hand_count, t.force_count, len(t.played))
                    for t in seen.tribes if t.seat != seen.seat)
        turn = self._turn
        if turn.others is not None and turn.others_key == key:
            return turn.others
        values = self._values(seen)
        pools = self._hidden(view, seen)
        rows = []
        for _ in range(WORLDS):
            forces = []
            for t, pool in zip((t for t in seen.tribes if t.seat != seen.seat), pools,
                               strict=True):
                size = t.force_count if t.gathered else t.hand_count
                forces.append(sorted(self._rng.permutation(pool)[:size].tolist()))
            prize = seen.peeked if seen.peeked is not None \
                else seen.contested[int(self._rng.integers(len(seen.contested)))]
            rows.append(([_fight(f) for f in forces], [_fight(_snipe(f)) for f in forces],
                         [_fight(_sabotage(f)) for f in forces], [people(f) for f in forces],
                         [f.count(SNIPER) for f in forces], [f.count(SABOTEUR) for f in forces],
                         values.prize(prize)))
        cols = list(zip(*rows, strict=True))
        turn.others_key = key
        turn.others = Others(*(np.array(col, dtype=float) for col in cols))
        return turn.others

    def _values(self, seen: Sight) -> Values:
        return Values(_owned(seen), seen.round, self.tuning)

    def _board(self, view: SeatView, seen: Sight) -> Board:
        return Board(seen, self._others(view, seen), self._values(seen))

    def _hidden(self, view: SeatView, seen: Sight) -> list[list[int]]:
        """Each other tribe's cards the seat cannot place (hand, deck, unseen discards and
        kept cards), sorted: the same in every world the seat cannot tell apart, so one
        world dealt from its knowledge gives them."""
        world = view.state.resample_from_infostate(seen.seat, lambda: float(self._rng.random()))
        pools = []
        for p, t in enumerate(world.tribes):
            if p != seen.seat:
                deck = [c for c in range(len(t.deck)) for _ in range(t.deck[c])]
                hidden = [c for c, shown in t.discard if not shown]
                kept = [] if world.revealed else list(t.force)
                pools.append(sorted(list(t.hand) + deck + hidden + kept))
        return pools


class Board:
    """The plans of one hand, valued against the seat's knowledge of the round."""

    def __init__(self, seen: Sight, others: Others | None, values: Values) -> None:
        self.seen = seen
        self.others = others
        self.values = values
        self.memo: dict[Any, float] = {}
        self.junkyard = list(seen.junk) or list(seen.bottom)

    def best(self, hand: list[int], used: set[str], food: int, *,
             forced: tuple[str, tuple[int, ...]] | None = None) -> Plan:
        """The best plan for ``hand``; ``forced``: an action under way and its cards so far
        (the plan must do it, with those cards)."""
        kinds = Counter(hand)
        roles = [(card, self._roles(card, used)) for card in sorted(kinds)]
        best: Plan | None = None
        splits = [list(_splits(kinds[card], len(r))) for card, r in roles]
        for choice in itertools.product(*splits):
            parts: dict[str, list[int]] = {role: [] for role in ROLES}
            for (card, r), counts in zip(roles, choice, strict=True):
                for role, n in zip(r, counts, strict=True):
                    parts[role] += [card] * n
            if forced is not None:
                if not parts[forced[0]] and not forced[1]:
                    continue
                parts[forced[0]] += list(forced[1])
            plan = self._value(parts, used, food)
            if plan is not None and (best is None or plan.value > best.value):
                best = plan
        return best or Plan(value=-99.0, keep=tuple(hand))

    def _roles(self, card: int, used: set[str]) -> tuple[str, ...]:
        roles = ["keep"]
        if "dig" not in used and self.junkyard and helps(card, "dig"):
            roles.append("dig")
        if not {"hunt", "hire"} & used and helps(card, "hunt"):
            roles.append("hunt")
        if "trash" not in used and self.values.trashable[card]:
            roles.append("trash")
        return tuple(roles)

    def _value(self, parts: dict[str, list[int]], used: set[str], food: int) -> Plan | None:
        dig, hunt, trash = parts["dig"], parts["hunt"], parts["trash"]
        value = 0.0
        if dig:
            count = _usable(dig, "dig")
            if not count:
                return None
            value += self._dig(count)
        if hunt:
            hunted = _usable(hunt, "hunt")
            if not hunted:
                return None
            food += hunted
        keep = sorted(parts["keep"])
        meds = sum(CARDS[c].medicine for c in keep)
        hire = None
        if "hire" not in used:
            worth, hire = self._hire(food, meds)
            if hunt and hire is None:
                return None
            value += worth
        value -= sum(self.values.gain(c) for c in trash)
        value += self._skirmish(keep)
        return Plan(value=value, dig=tuple(sorted(dig)), hunt=tuple(sorted(hunt)),
                    trash=tuple(sorted(trash)), keep=tuple(keep), hire=hire)

    def _dig(self, count: int) -> float:
        """The expected worth of the best of ``count`` junkyard cards (or of keeping none)."""
        key = ("dig", count)
        if key not in self.memo:
            pile = self.junkyard
            count = min(count, len(pile))
            gains = sorted(max(0.0, self.values.gain(c)) for c in pile)
            total, n = 0.0, len(gains)
            for i, g in enumerate(gains):  # P(best is the i-th smallest) by counting
                total += g * (comb(i + 1, count) - comb(i, count)) / comb(n, count)
            self.memo[key] = total
        return self.memo[key]

    def _hire(self, food: int, meds: int) -> tuple[float, int | None]:
        best: tuple[float, int | None] = (0.0, None)
        for card, left in zip(MERCENARIES, self.seen.mercs, strict=True):
            if left and price(card).affordable(food, meds):
                worth = self.values.gain(card)
                if worth > best[0]:
                    best = (worth, card)
        return best

    def _skirmish(self, keep: list[int]) -> float:
        others = self.others
        if others is None:
            return 0.0
        key = ("fight", tuple(keep))
        if key in self.memo:
            return self.memo[key]
        mine = float(_fight(keep))
        crowd = float(people(keep))
        hit = float(_fight(_snipe(keep)))
        broken = float(_fight(_sabotage(keep)))
        theirs = others.fight
        if SNIPER in keep:
            theirs = others.sniped
        my = mine - (others.snipers.sum(1) > 0) * (mine - hit) \
            - (others.saboteurs.sum(1) > 0) * (mine - broken)
        result = self._result(my, crowd, theirs, others)
        if SABOTEUR in keep:
            sab = np.minimum(theirs, others.sabotaged)
            result = np.maximum(result, self._result(my - 1, crowd, sab, others))
        value = float(np.mean(result * others.prize))
        self.memo[key] = value
        return value

    def _share(self) -> float:
        return 1.0 / max(1, self.seen.players - 1)

    def _result(self, my: np.ndarray, crowd: float, theirs: np.ndarray,
                others: Others) -> np.ndarray:
        me = my * 100 + crowd
        best = (theirs * 100 + others.crowd).max(1)
        return np.where(me > best, 1.0, np.where(me < best, -self._share(), 0.0))

    def explain(self, plan: Plan) -> str:
        bits = []
        if plan.trash:
            bits.append(f"trash {names(plan.trash)}")
        if plan.dig:
            bits.append(f"dig {action_value(plan.dig, 'dig')}")
        if plan.hire is not None:
            bits.append(f"hire a {NAMES[plan.hire]}")
        if self.others is not None:
            bits.append(f"fight {_fight(list(plan.keep))} in the skirmish")
        if not bits:
            return "Nothing more is worth doing this round."
        return "Plans to " + ", ".join(bits) + "."


# --- card arithmetic ------------------------------------------------------------------------------

def _owned(seen: Sight) -> list[int]:
    me = seen.me
    return [*(me.hand or ()), *(me.deck or ()), *me.discard_seen, *me.played, *(me.force or ()),
            *seen.picked, *seen.paid]


def _fight(cards: Sequence[int]) -> int:
    return _value_of(tuple(sorted(cards)), "fight")


@functools.lru_cache(maxsize=65536)
def _value_of(cards: tuple[int, ...], skill: str) -> int:
    return action_value(cards, skill)


def _usable(cards: Sequence[int], skill: str) -> int:
    """What ``cards`` do together for ``skill``, or 0 when the rules refuse the action
    (equipment without a member to carry it, or nothing done)."""
    key = tuple(sorted(cards))
    return _value_of(key, skill) if fits(key, skill) else 0


def _snipe(cards: Sequence[int]) -> list[int]:
    """``cards`` after the snipe that costs them the most fight."""
    return _without(cards, [c for c in set(cards) if CARDS[c].kind == "person"])


def _sabotage(cards: Sequence[int]) -> list[int]:
    return _without(cards, [c for c in set(cards) if CARDS[c].disarmable])


def _without(cards: Sequence[int], targets: list[int]) -> list[int]:
    best = list(cards)
    for target in targets:
        rest = list(cards)
        rest.remove(target)
        if _fight(rest) < _fight(best):
            best = rest
    return best


def _skirmish_score(force: Sequence[int], sabotages: int) -> int:
    active = list(force)
    for _ in range(min(sabotages, active.count(SABOTEUR))):
        active.remove(SABOTEUR)
    return _fight(active) * 100 + people(force)


def _splits(total: int, parts: int) -> Iterator[tuple[int, ...]]:
    """Every way to split ``total`` cards among ``parts`` roles."""
    if parts == 1:
        yield (total,)
        return
    for first in range(total, -1, -1):
        for rest in _splits(total - first, parts - 1):
            yield (first, *rest)


def _subsets(cards: list[int], most: int) -> Iterator[list[int]]:
    counts = Counter(cards)
    kinds = sorted(counts)
    for choice in itertools.product(*(range(counts[c] + 1) for c in kinds)):
        chosen = [c for c, n in zip(kinds, choice, strict=True) for _ in range(n)]
        if 0 < len(chosen) <= most:
            yield chosen

