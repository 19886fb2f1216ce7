"""The Arctic Scavengers table and the rules that move it (the engine of the OpenSpiel game).

A round: every tribe discards what it played and draws five cards (a chance node per card);
from round 3 on the initiator peeks at the top contested resource. Then each tribe in turn,
starting with the initiator, gathers resources: each of dig, draw, hunt, hire and trash at
most once, one card at a time (see :mod:`games.gamebench.arctic_moves`); what it keeps in
hand goes to the skirmish. From round 3 on the kept cards are revealed, Sniper Teams and
Saboteurs act in turn order, and the highest fight (then the most people) wins the contested
resource into its discard pile; a full tie shuffles it into the junkyard. The initiator
passes on after each skirmish. When the contested pile is empty the largest tribe, counted
over every card the tribe owns, wins; equal largest tribes share the win.

Decks and piles are kept as counts, so each card drawn is a chance node over what is left
(the same as a shuffle, without fixing an order nobody knows); the junkyard's known bottom
(cards returned by digs) is a list.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from games.gamebench import arctic_moves as mv
from games.gamebench.arctic_cards import (
    CARDS,
    HAND_SIZE,
    MEDICINES,
    MERCENARIES,
    NAMES,
    NUM_CARDS,
    SABOTEUR,
    SKIRMISH_FROM,
    SNIPER,
    STARTING_DECK,
    action_value,
    carriers,
    fits,
    helps,
    medicine,
    names,
    people,
    price,
    supply,
)

CANCELS = 2
"""Actions a tribe may cancel half-way per round (a misclick; it keeps games finite)."""
CONTESTED = sum(card.count for card in CARDS if card.origin == "contested")
ROUNDS = SKIRMISH_FROM - 1 + CONTESTED
"""Every round from the third consumes one contested resource: 16 rounds."""
_LOG = 40


class Tribe:
    """One tribe's cards: ``deck`` as counts (its order is chance's), ``discard`` as
    (card, seen by everyone) pairs, ``played`` (face up this round), ``force`` (kept back
    once it ended gathering; revealed at a skirmish), ``spent`` snipes and sabotages."""

    def __init__(self) -> None:
        self.hand: list[int] = []
        self.deck = [0] * NUM_CARDS
        for card, count in STARTING_DECK.items():
            self.deck[card] = count
        self.discard: list[tuple[int, bool]] = []
        self.played: list[int] = []
        self.force: list[int] = []
        self.spent = {SNIPER: 0, SABOTEUR: 0}
        self.food = 0
        self.used: set[str] = set()
        self.won: list[int] = []
        self.gathered = False
        self.cancels = CANCELS

    def cards(self) -> list[int]:
        """Every card the tribe owns."""
        deck = [c for c in range(NUM_CARDS) for _ in range(self.deck[c])]
        return self.hand + deck + [c for c, _ in self.discard] + self.played + self.force

    def strikers(self, card: int) -> int:
        return self.force.count(card) - self.spent[card]


class Table:
    """The whole table, hidden cards included, and the rules that move it. The OpenSpiel
    state (:class:`games.gamebench.arctic_scavengers.ArcticState`) is a ``Table``."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.round = 0
        self.initiator = -1
        self.order: list[int] = []
        self.phase = "gather"
        self.actor = 0
        self.mercs = supply(self.players, "mercenary")
        self.junk = supply(self.players, "junkyard")
        self.bottom: list[int] = []
        """Cards returned under the junkyard by digs, in order (everyone saw them)."""
        self.contested = supply(self.players, "contested")
        self.top: int | None = None
        """The contested resource the initiator peeked at (it is the one fought for)."""
        self.removed: list[int] = []
        self.tribes = [Tribe() for _ in range(self.players)]
        self.pick_kind = ""
        self.picked: list[int] = []
        self.hiring: int | None = None
        self.paid: list[int] = []
        self.due = 0
        self.dug: list[int] = []
        self.revealed = False
        self._strikers: list[int] = []
        self.pending: list[list[Any]] = [["initiator", -1, 1]]
        self.log: tuple[str, ...] = ()
        self.over = False

    # --- OpenSpiel hooks (the state's) --------------------------------------------------

    def current_player(self) -> int:
        if self.over:
            return pyspiel.PlayerId.TERMINAL
        return pyspiel.PlayerId.CHANCE if self.pending else self.actor

    def is_terminal(self) -> bool:
        return self.over

    def returns(self) -> list[float]:
        if not self.over:
            return [0.0] * self.players
        sizes = self.tribe_sizes()
        return [sum((a > b) - (a < b) for b in sizes) / (self.players - 1) for a in sizes]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        kind, seat, _ = self.pending[0]
        if kind == "initiator":
            return [(p, 1.0 / self.players) for p in range(self.players)]
        counts = {"deal": self.tribes[seat].deck if seat >= 0 else [], "dig": self.junk,
                  "peek": self.contested}[kind]
        total = sum(counts)
        return [(c, n / total) for c, n in enumerate(counts) if n]

    def _legal_actions(self, player: int) -> list[int]:
        if self.over or self.pending or player != self.actor:
            return []
        return sorted(getattr(self, f"_legal_{self.phase}")(self.tribes[player]))

    def _apply_action(self, action: int) -> None:
        if self.pending:
            self._deal(action)
        else:
            getattr(self, f"_play_{self.phase}")(self.tribes[self.actor], action)
        self._settle()

    def __str__(self) -> str:
        """Everything, hidden cards included (for tests and debugging; never a seat's view)."""
        lines = [f"round {self.round}, initiator {self.initiator}, phase {self.phase}, "
                 f"actor {self.actor}, pending {self.pending}"]
        for p, t in enumerate(self.tribes):
            lines.append(f"p{p} hand [{names(t.hand)}] deck {t.deck} discard {t.discard} "
                         f"played [{names(t.played)}] force [{names(t.force)}] food {t.food}")
        lines.append(f"junk {self.junk} bottom {self.bottom} contested {self.contested} "
                     f"top {self.top} picked {self.picked} paid {self.paid} dug {self.dug}")
        return "\n".join(lines)

    # --- reading --------------------------------------------------------------------------

    def owned(self, seat: int) -> list[int]:
        """Every card ``seat`` owns, the ones in the action it is building included."""
        building = self.picked + self.paid if seat == self.actor else []
        return self.tribes[seat].cards() + building

    def tribe_sizes(self) -> list[int]:
        return [people(self.owned(p)) for p in range(self.players)]

    def fight(self, seat: int) -> int:
        tribe = self.tribes[seat]
        active = list(tribe.force)
        for _ in range(min(tribe.spent[SABOTEUR], active.count(SABOTEUR))):
            active.remove(SABOTEUR)  # a Saboteur that sabotaged does not also fight
        return action_value(active, "fight")

    def junk_left(self) -> int:
        return sum(self.junk) + len(self.bottom)

    # --- legal moves by phase -------------------------------------------------------------

    def _legal_gather(self, t: Tribe) -> list[int]:
        moves = [mv.END]
        if "dig" not in t.used and self.junk_left() and action_value(t.hand, "dig") >= 1:
            moves.append(mv.DIG)
        if "draw" not in t.used and sum(t.deck) + len(t.discard) > 0 \
                and action_value(t.hand, "draw") >= 1:
            moves.append(mv.DRAW)
        if not {"hunt", "hire"} & t.used and action_value(t.hand, "hunt") >= 1:
            moves.append(mv.HUNT)
        if "trash" not in t.used and t.hand:
            moves.append(mv.TRASH)
        if "hire" not in t.used:
            meds = medicine(t.hand)
            moves += [mv.HIRE + i for i, card in enumerate(MERCENARIES)
                      if self.mercs[card] and price(card).affordable(t.food, meds)]
        return moves

    def _legal_pick(self, t: Tribe) -> list[int]:
        kind = self.pick_kind
        moves = [mv.ADD + c for c in set(t.hand) if kind == "trash" or self._addable(t, c)]
        if self.picked and (kind == "trash" or (fits(self.picked, kind)
                                                and action_value(self.picked, kind) >= 1)):
            moves.append(mv.CONFIRM)
        return moves + [mv.CANCEL] * (t.cancels > 0)

    def _addable(self, t: Tribe, card: int) -> bool:
        kind = self.pick_kind
        if not helps(card, kind):
            return False
        info = CARDS[card]
        if not (info.equipment or info.leader):
            return True
        alike = sum(1 for c in self.picked if CARDS[c].equipment == info.equipment
                    and CARDS[c].leader == info.leader)
        return alike < carriers(self.picked, kind) + carriers(t.hand, kind)

    def _legal_pay(self, t: Tribe) -> list[int]:
        return [mv.PAY + c for c in set(t.hand) if c in MEDICINES] + [mv.CANCEL] * (t.cancels > 0)

    def _legal_keep(self, t: Tribe) -> list[int]:
        return [mv.KEEP + c for c in set(self.dug)] + [mv.KEEP_NOTHING]

    def _legal_skirmish(self, t: Tribe) -> list[int]:
        return self._strikes(self.actor) + [mv.PASS]

    def _strikes(self, seat: int) -> list[int]:
        t = self.tribes[seat]
        moves = []
        for target in range(self.players):
            if target == seat:
                continue
            for card in set(self.tribes[target].force):
                base = target * NUM_CARDS + card
                if t.strikers(SNIPER) > 0 and CARDS[card].kind == "person":
                    moves.append(mv.SNIPE + base)
                if t.strikers(SABOTEUR) > 0 and CARDS[card].disarmable:
                    moves.append(mv.SABOTAGE + base)
        return moves

    # --- playing by phase -----------------------------------------------------------------

    def _play_gather(self, t: Tribe, action: int) -> None:
        if action == mv.END:
            self._end_gathering(t)
        elif action in mv.KINDS:
            self.phase, self.pick_kind, self.picked = "pick", mv.KINDS[action], []
        else:
            card = MERCENARIES[action - mv.HIRE]
            self.hiring, self.paid, self.due = card, [], price(card).medicine_due(t.food)
            self.phase = "pay"
            if self.due == 0:
                self._hire(t)

    def _play_pick(self, t: Tribe, action: int) -> None:
        if action == mv.CANCEL:
            t.hand = sorted(t.hand + self.picked)
            self._cancel(t, f"cancels the {self.pick_kind}")
        elif action == mv.CONFIRM:
            self._perform(t)
        else:
            t.hand.remove(action - mv.ADD)
            self.picked.append(action - mv.ADD)

    def _play_pay(self, t: Tribe, action: int) -> None:
        if action == mv.CANCEL:
            t.hand = sorted(t.hand + self.paid)
            self._cancel(t, f"cancels hiring a {NAMES[self.hiring or 0]}")
            self.hiring = None
            return
        t.hand.remove(action - mv.PAY)
        self.paid.append(action - mv.PAY)
        if medicine(self.paid) >= self.due:
            self._hire(t)

    def _play_keep(self, t: Tribe, action: int) -> None:
        kept = None if action == mv.KEEP_NOTHING else action - mv.KEEP
        if kept is not None:
            self.dug.remove(kept)
            t.discard.append((kept, True))
        self._say(f"{mv.seat_name(self.actor)} keeps {NAMES[kept] if kept is not None else 'nothing'}"
                  + (f"; {names(self.dug)} go under the junkyard" if self.dug else ""))
        self.bottom += self.dug
        self.dug, self.phase = [], "gather"

    def _play_skirmish(self, t: Tribe, action: int) -> None:
        if action == mv.PASS:
            self._next_striker()
            return
        verb, target, card = mv.strike(action)
        victim = self.tribes[target]
        victim.force.remove(card)
        for special in victim.spent:
            victim.spent[special] = min(victim.spent[special], victim.force.count(special))
        victim.discard.append((card, True))
        t.spent[SNIPER if verb == "snipe" else SABOTEUR] += 1
        self._say(f"{mv.seat_name(self.actor)} {verb}s {mv.seat_name(target)}'s {NAMES[card]}")
        if not self._strikes(self.actor):
            self._next_striker()

    # --- what actions do ------------------------------------------------------------------

    def _perform(self, t: Tribe) -> None:
        kind, chosen = self.pick_kind, self.picked
        t.used.add(kind)
        self.phase, self.picked = "gather", []
        who = mv.seat_name(self.actor)
        if kind == "trash":
            for card in chosen:
                self._trash(card)
            self._say(f"{who} trashes {names(chosen)}")
            return
        t.played += chosen
        value = action_value(chosen, kind)
        if kind == "dig":
            count = min(value, self.junk_left())
            self.pending.append(["dig", self.actor, count])
            self.phase = "keep"
            self._say(f"{who} digs {count} with {names(chosen)}")
        elif kind == "draw":
            self.pending.append(["deal", self.actor, value])
            self._say(f"{who} draws {value} with {names(chosen)}")
        else:
            t.food += value
            self._say(f"{who} hunts {value} food with {names(chosen)}")

    def _trash(self, card: int) -> None:
        origin = CARDS[card].origin
        if origin == "mercenary":
            self.mercs[card] += 1
        elif origin == "refugee":
            self.removed.append(card)
        else:  # net new cards in the junkyard: it is shuffled
            self.junk[card] += 1
            self._shuffle_junkyard()

    def _shuffle_junkyard(self) -> None:
        for card in self.bottom:
            self.junk[card] += 1
        self.bottom = []

    def _hire(self, t: Tribe) -> None:
        card = self.hiring
        assert card is not None
        t.food -= price(card).food_spent(t.food)
        t.used.add("hire")
        t.played += self.paid
        t.discard.append((card, True))
        self.mercs[card] -= 1
        paying = f" paying {names(self.paid)}" if self.paid else ""
        self._say(f"{mv.seat_name(self.actor)} hires a {NAMES[card]}{paying}")
        self.hiring, self.paid, self.phase = None, [], "gather"

    def _cancel(self, t: Tribe, what: str) -> None:
        t.cancels -= 1
        self.picked, self.paid, self.phase = [], [], "gather"
        self._say(f"{mv.seat_name(self.actor)} {what}")

    def _end_gathering(self, t: Tribe) -> None:
        t.force, t.hand, t.gathered = t.hand, [], True
        kept = len(t.force)
        self._say(f"{mv.seat_name(self.actor)} ends gathering with {kept} card"
                  f"{'s' * (kept != 1)} in hand")
        waiting = [p for p in self.order if not self.tribes[p].gathered]
        if waiting:
            self.actor = waiting[0]
        elif self.round >= SKIRMISH_FROM:
            self.phase, self.revealed = "skirmish", True
            for p in self.order:
                self._say(f"{mv.seat_name(p)} fights with {names(self.tribes[p].force) or 'nothing'}")
            self._strikers = [p for p in self.order if self._strikes(p)]
            self._next_striker(first=True)
        else:
            self._end_round()

    def _next_striker(self, *, first: bool = False) -> None:
        if not first:
            self._strikers.pop(0)
        self._strikers = [p for p in self._strikers if self._strikes(p)]
        if self._strikers:
            self.actor = self._strikers[0]
        else:
            self._resolve_skirmish()

    def _resolve_skirmish(self) -> None:
        fights = [self.fight(p) for p in range(self.players)]
        best = [p for p in range(self.players) if fights[p] == max(fights)]
        crowd = [people(self.tribes[p].force) for p in best]
        best = [p for p, n in zip(best, crowd, strict=True) if n == max(crowd)]
        prize = self.top
        assert prize is not None
        scores = ", ".join(f"{mv.seat_name(p)} {fights[p]}" for p in range(self.players))
        if len(best) == 1:
            self.tribes[best[0]].discard.append((prize, True))
            self.tribes[best[0]].won.append(prize)
            self._say(f"skirmish (fight {scores}): {mv.seat_name(best[0])} wins the {NAMES[prize]}")
        else:
            self.junk[prize] += 1
            self._shuffle_junkyard()
            self._say(f"skirmish (fight {scores}): a tie; the {NAMES[prize]} is shuffled into "
                      "the junkyard")
        self.top = None
        self.initiator = (self.initiator + 1) % self.players
        self._end_round()

    def _end_round(self) -> None:
        for t in self.tribes:
            t.discard += [(c, True) for c in t.played] + [(c, self.revealed) for c in t.force]
            t.played, t.force, t.food, t.used, t.gathered = [], [], 0, set(), False
            t.spent = {SNIPER: 0, SABOTEUR: 0}
            t.cancels = CANCELS
        self.revealed = False
        if self.round >= SKIRMISH_FROM and not sum(self.contested):
            self.over = True
            return
        self._start_round()

    def _start_round(self) -> None:
        self.round += 1
        self.order = [(self.initiator + i) % self.players for i in range(self.players)]
        self.pending += [["deal", p, HAND_SIZE] for p in self.order]
        if self.round >= SKIRMISH_FROM:
            self.pending.append(["peek", self.initiator, 1])
        self.phase, self.actor = "gather", self.order[0]

    # --- chance -------------------------------------------------------------------------------

    def _deal(self, outcome: int) -> None:
        head = self.pending[0]
        kind, seat = head[0], head[1]
        if kind == "initiator":
            self.pending.pop(0)
            self.initiator = outcome
            self._start_round()
            return
        if kind == "deal":
            t = self.tribes[seat]
            t.deck[outcome] -= 1
            t.hand = sorted(t.hand + [outcome])
        elif kind == "dig":
            self.junk[outcome] -= 1
            self.dug.append(outcome)
        else:
            self.contested[outcome] -= 1
            self.top = outcome
        head[2] -= 1
        if head[2] <= 0:
            self.pending.pop(0)

    def _settle(self) -> None:
        """Do what needs no chance (reshuffles, digging the known bottom of the junkyard);
        stop at the next real chance node."""
        while self.pending:
            kind, seat, count = self.pending[0]
            if kind == "deal" and count > 0:
                t = self.tribes[seat]
                if not sum(t.deck) and t.discard:
                    for card, _ in t.discard:
                        t.deck[card] += 1
                    t.discard = []
                if sum(t.deck):
                    return
            elif kind == "dig" and count > 0 and self.junk_left():
                if sum(self.junk):
                    return
                self.dug.append(self.bottom.pop(0))
                self.pending[0][2] -= 1
                continue
            elif kind == "peek" and sum(self.contested):
                return
            elif kind == "initiator":
                return
            self.pending.pop(0)
        if self.phase == "keep" and not self.dug:
            self.phase = "gather"

    def _say(self, line: str) -> None:
        self.log = (*self.log[-_LOG + 1:], f"round {self.round}: {line}")

    # --- search -------------------------------------------------------------------------------
