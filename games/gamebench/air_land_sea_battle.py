"""Air, Land & Sea: a battle on the table — strength, control, playing, flipping, moving, the
tactical abilities and how battles end.

:class:`Battle` holds the table (hands, deck, both sides of the three theaters, who knows
which card, the queue of instant abilities) and the rules that change it; the OpenSpiel state
(:mod:`games.gamebench.air_land_sea_rules`) adds chance, the decision hooks and resampling.
Instant abilities wait in ``queue`` and resolve one at a time, each fully, in the order they
were triggered; one that needs a choice sets ``phase`` and ``actor`` (the seat that chooses,
which is the other seat for Disrupt's second flip) and waits for the next action.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.gamebench.air_land_sea_cards import (
    AERODROME,
    AIR_DROP,
    AMBUSH,
    BATTLE_VP,
    BLOCKADE,
    CARDS,
    CONTAINMENT,
    COVER_FIRE,
    DISRUPT,
    ESCALATION,
    FACE_DOWN_STRENGTH,
    FIRST,
    MANEUVERS,
    NUM_CARDS,
    RAISED_STRENGTH,
    REDEPLOY,
    REINFORCE,
    SEATS,
    SECOND,
    SUPPORT,
    SUPPORT_BONUS,
    THEATERS,
    TRANSPORT,
    withdrawal_points,
)

MAX_TRIGGERS = 20
"""Instant abilities that may take effect in one turn; later ones are ignored (a bound that
keeps every game finite; no real turn comes near it)."""


class Battle:
    """The table of a war and the rules of a battle (see the module docstring)."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.vp = [0, 0]
        self.first = -1
        """The seat holding the 1st Player Supreme Commander this battle (wins ties)."""
        self.order: tuple[int, ...] = ()
        """Theater ids in the row, left to right."""
        self.battle = 0
        self.hands: list[list[int]] = [[], []]
        self.pool: list[int] = list(range(NUM_CARDS))
        """The deck's cards nobody has seen (their order is unknown: a draw is chance)."""
        self.bottom: list[int] = []
        """Destroyed cards under the deck, in the order they went there."""
        self.stacks: list[list[list[int]]] = [[[], [], []], [[], [], []]]
        """[seat][theater id]: that side's cards, bottom (covered) to top (uncovered)."""
        self.face_up = [False] * NUM_CARDS
        self.known = [[False] * NUM_CARDS, [False] * NUM_CARDS]
        """known[seat][card]: the seat knows which card this is, where it is now."""
        self.phase = "commander"
        self.turn = -1
        """The seat whose turn it is."""
        self.actor = -1
        """The seat deciding now (the other seat during Disrupt's second flip)."""
        self.queue: list[tuple[int, int, int]] = []
        """Triggered instant abilities waiting: (owner, card, theater when triggered)."""
        self.ability: tuple[int, int, int] | None = None
        """The instant ability being resolved: (owner, card, theater when triggered)."""
        self.held = -1
        """The card Reinforce drew, until it is played."""
        self.air_drop = [False, False]
        """Air Drop took effect: the seat's next play may go to a non-matching theater."""
        self.triggers = 0
        self.log: list[str] = []
        """Public events, the same for both seats."""
        self.results: list[tuple[int, int, str]] = []
        """Battles fought: (winner, points, how)."""
        self.winner: int | None = None

    # --- reading the table -------------------------------------------------------------------

    def where(self, card: int) -> tuple[int, int] | None:
        """(seat, theater) of a card on the table, or None."""
        for seat in (0, 1):
            for theater in range(3):
                if card in self.stacks[seat][theater]:
                    return seat, theater
        return None

    def adjacent(self, theater: int) -> list[int]:
        """The theaters next to ``theater`` in the row."""
        at = self.order.index(theater)
        return [self.order[i] for i in (at - 1, at + 1) if 0 <= i < 3]

    def active(self, card: int, seat: int | None = None) -> bool:
        """The card is on the table face-up (on ``seat``'s side, if given): its ongoing
        ability is in effect, covered or not."""
        spot = self.where(card)
        return spot is not None and self.face_up[card] and seat in (None, spot[0])

    def card_strength(self, seat: int, theater: int, index: int) -> int:
        """What the card at ``index`` of that stack counts for now."""
        stack = self.stacks[seat][theater]
        card = stack[index]
        if COVER_FIRE in stack[index + 1:] and self.face_up[COVER_FIRE]:
            return RAISED_STRENGTH
        if self.face_up[card]:
            return CARDS[card].strength
        return RAISED_STRENGTH if self.active(ESCALATION, seat) else FACE_DOWN_STRENGTH

    def strength(self, seat: int, theater: int) -> int:
        """The seat's total strength in a theater, Support's bonus included."""
        total = sum(self.card_strength(seat, theater, i)
                    for i in range(len(self.stacks[seat][theater])))
        spot = self.where(SUPPORT)
        if spot is not None and spot[0] == seat and self.face_up[SUPPORT] \
                and spot[1] in self.adjacent(theater):
            total += SUPPORT_BONUS
        return total

    def controller(self, theater: int) -> int:
        """Who controls a theater: the higher strength; ties (and empty theaters) go to the
        1st Player."""
        ours, theirs = self.strength(self.first, theater), self.strength(1 - self.first, theater)
        return self.first if ours >= theirs else 1 - self.first

    def uncovered(self, seat: int, theaters: Sequence[int] = (0, 1, 2)) -> list[tuple[int, int]]:
        """(seat, theater) of the seat's uncovered cards in those theaters."""
        return [(seat, t) for t in theaters if self.stacks[seat][t]]

    def flip_targets(self) -> list[tuple[int, int]]:
        """The cards the ability being resolved may flip now, as (seat, theater)."""
        assert self.ability is not None
        owner, card, theater = self.ability
        if card == DISRUPT:
            return self.uncovered(self.actor)
        spot = self.where(card)
        here = spot[1] if spot is not None else theater
        theaters = self.adjacent(here) if card in MANEUVERS else [0, 1, 2]
        return sorted(self.uncovered(0, theaters) + self.uncovered(1, theaters))

    def may_play_face_up(self, seat: int, card: int, theater: int) -> bool:
        return (CARDS[card].theater == theater or self.air_drop[seat]
                or (self.active(AERODROME, seat) and CARDS[card].strength <= 3))

    def role(self, seat: int) -> int:
        return FIRST if seat == self.first else SECOND

    def _start_battle(self) -> None:
        self.battle += 1
        self.phase = "deal"
        self.log.append(
            f"Battle {self.battle}: {SEATS[self.first]} holds the 1st Player Supreme Commander "
            f"(plays first, wins tied theaters); theaters from left to right: "
            f"{', '.join(THEATERS[t] for t in self.order)}. Six cards are dealt to each player.")

    # --- playing, flipping, moving ---------------------------------------------------------------

    def _play(self, seat: int, card: int, theater: int, face_up: bool) -> None:
        """A card played from the hand (or Reinforce's drawn card) to the seat's side."""
        drawn = card == self.held
        if drawn:
            self.held = -1
        else:
            self.hands[seat].remove(card)
        self.air_drop[seat] = False  # "the next time you play a card": this is that time
        occupied = len(self.stacks[0][theater]) + len(self.stacks[1][theater])
        self.stacks[seat][theater].append(card)
        self.face_up[card] = face_up
        self.known[seat][card], self.known[1 - seat][card] = True, face_up
        what = CARDS[card].name + " face-up" if face_up else "a card face-down"
        event = f"{SEATS[seat]} played {what} to {THEATERS[theater]}"
        if drawn:
            event = f"{SEATS[seat]} drew a card and played it face-down to {THEATERS[theater]} " \
                    "(Reinforce)"
        destroyer = None
        if not face_up and self.active(CONTAINMENT):
            destroyer = CARDS[CONTAINMENT].name
        elif occupied >= 3 and self._blockaded(theater):
            destroyer = CARDS[BLOCKADE].name
        if destroyer is not None:
            self.stacks[seat][theater].pop()
            self.bottom.append(card)
            self.log.append(f"{event}; {destroyer} destroyed it (it goes under the deck).")
            return
        self.log.append(event + ".")
        if face_up:
            self._revealed(seat, card, theater)

    def _blockaded(self, theater: int) -> bool:
        """A face-up Blockade (either side) stands in a theater next to ``theater``."""
        spot = self.where(BLOCKADE)
        return spot is not None and self.face_up[BLOCKADE] and spot[1] in self.adjacent(theater)

    def _flip(self, seat: int, owner: int, theater: int) -> None:
        card = self.stacks[owner][theater][-1]
        self.face_up[card] = not self.face_up[card]
        assert self.ability is not None
        whose = "their own" if owner == seat else f"{SEATS[owner]}'s"
        side = "face-up" if self.face_up[card] else "face-down"
        self.log.append(f"{SEATS[seat]} flipped {whose} {CARDS[card].name} {side} in "
                        f"{THEATERS[theater]} ({CARDS[self.ability[1]].name}).")
        if self.face_up[card]:
            self.known[0][card] = self.known[1][card] = True
            self._revealed(owner, card, theater)

    def _move(self, seat: int, card: int, theater: int) -> None:
        spot = self.where(card)
        assert spot is not None and spot[0] == seat
        self.stacks[seat][spot[1]].remove(card)
        self.stacks[seat][theater].append(card)
        what = CARDS[card].name if self.face_up[card] else "a face-down card"
        self.log.append(f"{SEATS[seat]} moved {what} from {THEATERS[spot[1]]} to "
                        f"{THEATERS[theater]} (Transport).")

    def _return(self, seat: int, card: int) -> None:
        spot = self.where(card)
        assert spot is not None and spot[0] == seat and not self.face_up[card]
        self.stacks[seat][spot[1]].remove(card)
        self.hands[seat].append(card)
        self.hands[seat].sort()
        self.known[1 - seat][card] = False
        self.log.append(f"{SEATS[seat]} returned a face-down card from {THEATERS[spot[1]]} to "
                        "their hand (Redeploy) and must now play a card.")

    def _revealed(self, seat: int, card: int, theater: int) -> None:
        """A card turned face-up: its instant ability waits its turn in the queue."""
        if CARDS[card].kind != "instant":
            return
        if self.triggers >= MAX_TRIGGERS:
            self.log.append(f"{CARDS[card].name}'s ability is ignored: {MAX_TRIGGERS} abilities "
                            "have already taken effect this turn.")
            return
        self.triggers += 1
        self.queue.append((seat, card, theater))

    # --- resolving abilities -------------------------------------------------------------------

    def _resolve(self) -> None:
        """Resolve waiting instant abilities until one needs a decision or a draw; then end
        the turn."""
        self.ability = None
        while self.queue:
            self.ability = self.queue.pop(0)
            if self._start(*self.ability):
                return
            self.ability = None
        self._end_turn()

    def _start(self, owner: int, card: int, theater: int) -> bool:
        """Start one instant ability; True when it waits for a decision or a draw."""
        self.actor = owner
        if card == AIR_DROP:
            self.air_drop[owner] = True
            self.log.append(f"{SEATS[owner]} may play their next card to any theater (Air Drop).")
            return False
        if card in MANEUVERS or card == AMBUSH:
            self.phase = "flip"
            return bool(self.flip_targets())
        if card == DISRUPT:
            self.phase = "flip"
            if self.uncovered(owner):
                return True
            self.actor = 1 - owner
            return bool(self.uncovered(self.actor))
        if card == TRANSPORT:
            self.phase = "transport"
            return any(self.stacks[owner][t] for t in range(3))
        if card == REDEPLOY:
            self.phase = "redeploy"
            return any(not self.face_up[c] for t in range(3) for c in self.stacks[owner][t])
        if card == REINFORCE:
            if self.pool:
                self.phase = "draw"
                return True
            if self.bottom:
                self._hold(self.bottom.pop(0))
                return True
            return False
        raise RuntimeError(f"{CARDS[card].name} has no instant ability")

    def _hold(self, card: int) -> None:
        assert self.ability is not None
        owner = self.ability[0]
        self.held = card
        self.known[owner][card] = True
        self.known[1 - owner][card] = False
        self.phase, self.actor = "reinforce", owner

    def _end_turn(self) -> None:
        self.triggers = 0
        if not self.hands[0] and not self.hands[1]:
            self._battle_by_control()
            return
        following = 1 - self.turn
        if not self.hands[following]:
            following = self.turn
        self.turn = self.actor = following
        self.phase = "main"

    # --- ending battles --------------------------------------------------------------------------

    def _withdraw(self, seat: int) -> None:
        left = len(self.hands[seat])
        points = withdrawal_points(self.role(seat), left)
        role = "1st" if self.role(seat) == FIRST else "2nd"
        self._battle_won(1 - seat, points,
                         f"{SEATS[seat]} withdrew with {left} card{'s' * (left != 1)} in hand "
                         f"({role} Player card)")

    def _battle_by_control(self) -> None:
        parts = []
        for theater in self.order:
            red, blue = self.strength(0, theater), self.strength(1, theater)
            tie = " tie to the 1st Player" if red == blue else ""
            parts.append(f"{THEATERS[theater]} {SEATS[self.controller(theater)]} ({red}-{blue}"
                         f"{tie})")
        winner = 0 if sum(self.controller(t) == 0 for t in range(3)) >= 2 else 1
        self._battle_won(winner, BATTLE_VP, "control: " + ", ".join(parts))

    def _battle_won(self, winner: int, points: int, how: str) -> None:
        self.vp[winner] += points
        self.results.append((winner, points, how))
        self.log.append(f"Battle {self.battle} to {SEATS[winner]}, {points} VP ({how}). "
                        f"Score: Red {self.vp[0]}, Blue {self.vp[1]}.")
        if self.vp[winner] >= self.target:
            self.winner = winner
            self.phase = "over"
            self.log.append(f"{SEATS[winner]} wins the war.")
            return
        self.order = (self.order[2], self.order[0], self.order[1])  # rotate one place right
        self.first = 1 - self.first
        self.hands = [[], []]
        self.pool = list(range(NUM_CARDS))
        self.bottom = []
        self.stacks = [[[], [], []], [[], [], []]]
        self.face_up = [False] * NUM_CARDS
        self.known = [[False] * NUM_CARDS, [False] * NUM_CARDS]
        self.queue, self.ability, self.held = [], None, -1
        self.air_drop, self.triggers = [False, False], 0
        self._start_battle()
