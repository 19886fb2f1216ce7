"""Air, Land & Sea (base game, two players) as an OpenSpiel Python game: the state and its rules.

A war of battles. Each battle: 6 cards dealt to each player (chance, one card at a time),
players alternate from the 1st Player; a turn plays one card face-up to its matching theater
(deploy), face-down to any theater (improvise, strength 2), or withdraws. Tactical abilities
take effect when a card is played face-up or flipped face-up; every choice an ability asks
for (which card to flip, move or return, where Reinforce's card goes, Disrupt's two flips)
is a decision node of the seat that makes it, so a turn can hold several decisions and even
decisions of the other seat. Instant abilities wait in a queue and resolve one at a time in
the order they were triggered. A battle ends on a withdrawal (the opponent scores by the
withdrawing player's Supreme Commander card) or when both hands are empty (the player who
controls two theaters scores 6). The war ends when a player reaches the target (12 VP).

Chance: who holds the 1st Player commander at first, the row order of the theaters (rotated
one place right each battle), each dealt card, and each card Reinforce draws. The deck's
unseen cards are drawn uniformly (a shuffled deck); destroyed cards go under it in order.

What each seat knows is kept per card (``known``): a seat knows its own cards, every card
that is face-up, and face-down cards it saw face-up before. Views are built from that only
(:mod:`games.gamebench.air_land_sea_view`), and :meth:`AirLandSeaState.resample_from_infostate`
deals the cards a seat cannot see into other places to give IS-MCTS the worlds it searches.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

from games.gamebench.air_land_sea_cards import (
    AERODROME,
    AIR_DROP,
    AMBUSH,
    BATTLE_VP,
    BLOCKADE,
    CARDS,
    CONTAINMENT,
    COVER_FIRE,
    DEFAULT_TARGET,
    DISRUPT,
    ESCALATION,
    FACE_DOWN_STRENGTH,
    FIRST,
    HAND_SIZE,
    MANEUVERS,
    NUM_ACTIONS,
    NUM_CARDS,
    RAISED_STRENGTH,
    REDEPLOY,
    REINFORCE,
    SEATS,
    SECOND,
    SKIP,
    SUPPORT,
    SUPPORT_BONUS,
    THEATERS,
    TRANSPORT,
    WITHDRAW,
    decode,
    flip_action,
    move_action,
    play_action,
    return_action,
    withdrawal_points,
)

MAX_TRIGGERS = 20
"""Instant abilities that may take effect in one turn; later ones are ignored (a bound that
keeps every game finite; no real turn comes near it)."""
ORDERS = tuple(itertools.permutations(range(3)))
"""Chance outcomes of the theater row at the start (left to right)."""
CHANCE_PHASES = frozenset({"commander", "order", "deal", "draw"})

_GAME_TYPE = pyspiel.GameType(
    short_name="python_air_land_sea",
    long_name="Python Air, Land & Sea (base game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"target": DEFAULT_TARGET},
)


def max_game_length(target: int) -> int:
    """A bound: every battle gives someone at least 2 VP, so at most ``target`` battles; each
    has 12 deals and 12 turns, each turn a main action and at most MAX_TRIGGERS abilities of
    at most two decisions and a draw."""
    return 2 + target * (2 * HAND_SIZE + 2 * HAND_SIZE * (1 + 3 * MAX_TRIGGERS))


def _game_info(target: int) -> pyspiel.GameInfo:
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS, max_chance_outcomes=NUM_CARDS, num_players=2,
        min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
        max_game_length=max_game_length(target),
    )


class AirLandSeaGame(pyspiel.Game):
    """The base game; parameter ``target``: the victory points that win the war."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"target": DEFAULT_TARGET, **(params or {})}
        target = int(params["target"])
        if target < 1:
            raise ValueError(f"target must be at least 1 VP, got {target}")
        super().__init__(_GAME_TYPE, _game_info(target), params)
        self.target = target

    def new_initial_state(self) -> AirLandSeaState:
        return AirLandSeaState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Any:
        from games.gamebench.air_land_sea_view import SeatObserver

        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SeatObserver(params, history=recall)


class AirLandSeaState(pyspiel.State):
    """Hands, the deck, both sides of the three theaters, who knows which card, the queue of
    instant abilities, and the decision being made (``phase``, ``actor``)."""

    def __init__(self, game: AirLandSeaGame) -> None:
        super().__init__(game)
        self.target = game.target
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

    # --- positions for tests and puzzles ----------------------------------------------------

    def arrange(self, *, hands: Sequence[Sequence[int]],
                table: Sequence[tuple[int, int, int, bool]] = (), first: int = 0,
                order: Sequence[int] = (0, 1, 2), vp: Sequence[int] = (0, 0),
                turn: int | None = None, bottom: Sequence[int] = ()) -> None:
        """Set up a battle in progress: ``hands`` per seat, ``table`` as (seat, card, theater,
        face_up) from the bottom of each stack up, the 1st Player, the row ``order``, the
        score and whose ``turn`` (the 1st Player by default). Other cards are in the deck.
        A face-down card on the table is known to its owner only. The history stays empty."""
        placed = [c for hand in hands for c in hand] + [row[1] for row in table] + list(bottom)
        if len(set(placed)) != len(placed) or not all(0 <= c < NUM_CARDS for c in placed):
            raise ValueError("each card may be placed once; cards are 0-17")
        self.first, self.order, self.vp = first, tuple(order), list(vp)
        self.battle = max(self.battle, 1)
        self.hands = [sorted(hand) for hand in hands]
        self.stacks = [[[], [], []], [[], [], []]]
        self.face_up = [False] * NUM_CARDS
        self.known = [[False] * NUM_CARDS, [False] * NUM_CARDS]
        for seat, hand in enumerate(self.hands):
            for card in hand:
                self.known[seat][card] = True
        for seat, card, theater, face_up in table:
            self.stacks[seat][theater].append(card)
            self.face_up[card] = face_up
            self.known[seat][card] = True
            self.known[1 - seat][card] = face_up
        self.bottom = list(bottom)
        self.pool = [c for c in range(NUM_CARDS) if c not in placed]
        self.turn = self.actor = first if turn is None else turn
        self.phase = "main"
        self.queue, self.ability, self.held = [], None, -1
        self.air_drop, self.triggers, self.winner = [False, False], 0, None

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

    # --- OpenSpiel hooks ---------------------------------------------------------------------

    def current_player(self) -> int:
        if self.winner is not None:
            return pyspiel.PlayerId.TERMINAL
        if self.phase in CHANCE_PHASES:
            return pyspiel.PlayerId.CHANCE
        return self.actor

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> list[float]:
        if self.winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self.winner == 0 else [-1.0, 1.0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == "commander":
            return [(0, 0.5), (1, 0.5)]
        if self.phase == "order":
            return [(i, 1 / len(ORDERS)) for i in range(len(ORDERS))]
        cards = sorted(self.pool)
        return [(card, 1 / len(cards)) for card in cards]

    def _legal_actions(self, player: int) -> list[int]:
        if self.winner is not None or self.phase in CHANCE_PHASES or player != self.actor:
            return []
        if self.phase == "main":
            return self._plays(player, self.hands[player]) + [WITHDRAW]
        if self.phase == "redeploy_play":
            return self._plays(player, self.hands[player])
        if self.phase == "flip":
            return sorted(flip_action(seat, theater) for seat, theater in self.flip_targets())
        if self.phase == "reinforce":
            assert self.ability is not None
            spot = self.where(REINFORCE)
            here = spot[1] if spot is not None else self.ability[2]
            return sorted(play_action(self.held, t, False) for t in self.adjacent(here))
        if self.phase == "transport":
            moves = [move_action(card, t) for theater, stack in enumerate(self.stacks[player])
                     for card in stack for t in range(3) if t != theater]
            return sorted(moves) + [SKIP]
        if self.phase == "redeploy":
            returns = [return_action(card) for stack in self.stacks[player] for card in stack
                       if not self.face_up[card]]
            return sorted(returns) + [SKIP]
        raise RuntimeError(f"unknown phase {self.phase!r}")

    def _plays(self, seat: int, cards: Sequence[int]) -> list[int]:
        actions = []
        for card in cards:
            for theater in range(3):
                if self.may_play_face_up(seat, card, theater):
                    actions.append(play_action(card, theater, True))
                actions.append(play_action(card, theater, False))
        return sorted(actions)

    def _apply_action(self, action: int) -> None:
        if self.phase in CHANCE_PHASES:
            self._chance(action)
            return
        move = decode(action)
        seat = self.actor
        if self.phase == "main" and move.kind == "withdraw":
            self._withdraw(seat)
            return
        if move.kind == "play":
            self._play(seat, move.card, move.theater, move.face_up)
        elif move.kind == "flip":
            self._flip(seat, move.seat, move.theater)
            if self.ability is not None and self.ability[1] == DISRUPT and seat == self.ability[0]:
                self.actor = 1 - seat  # Disrupt: now the other player flips one of theirs
                if self.uncovered(self.actor):
                    return
        elif move.kind == "move":
            self._move(seat, move.card, move.theater)
        elif move.kind == "return":
            self._return(seat, move.card)
            self.phase = "redeploy_play"  # "If you do, play a card."
            return
        else:
            assert self.ability is not None
            self.log.append(f"{SEATS[seat]} did not use {CARDS[self.ability[1]].name}.")
        self._resolve()

    def _action_to_string(self, player: int, action: int) -> str:
        from games.gamebench.air_land_sea_view import action_label

        return action_label(self, player, action)

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> AirLandSeaState:
        """A world ``player_id`` cannot tell apart from this one: the cards it cannot see
        (the other hand, unknown face-down cards, the deck) dealt again at random into the
        same places. Cards whose whereabouts only a deduction could tell (a known card
        returned to a hand) are treated as unseen."""
        world: AirLandSeaState = self.clone()
        slots = world._unseen_slots(player_id)
        flags = [(world.face_up[c], world.known[0][c], world.known[1][c])
                 for c in map(world._slot_card, slots)]  # what each place tells, not the card
        cards = sorted(map(world._slot_card, slots))  # the real places never reach the draw
        for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates with the caller's sampler
            j = min(int(probability_sampler() * (i + 1)), i)
            cards[i], cards[j] = cards[j], cards[i]
        for slot, card, (face_up, known0, known1) in zip(slots, cards, flags, strict=True):
            world._set_slot(slot, card)
            world.face_up[card], world.known[0][card], world.known[1][card] = (
                face_up, known0, known1)
        for hand in world.hands:
            hand.sort()
        return world

    def __str__(self) -> str:
        """Everything, hidden cards included (for debugging; never a seat's view)."""
        def names(cards: Sequence[int]) -> str:
            return ",".join(CARDS[c].name + ("" if self.face_up[c] else "*") for c in cards)

        sides = " | ".join(f"{SEATS[s]} {THEATERS[t]}: {names(self.stacks[s][t])}"
                           for s in (0, 1) for t in range(3))
        return (f"battle {self.battle} phase {self.phase} actor {self.actor} turn {self.turn} "
                f"first {self.first} order {self.order} vp {self.vp} hands "
                f"{names(self.hands[0])} / {names(self.hands[1])} | {sides} | pool "
                f"{names(sorted(self.pool))} | bottom {names(self.bottom)} | held {self.held} "
                f"| queue {self.queue} | air drop {self.air_drop}")

    # --- chance --------------------------------------------------------------------------------

    def _chance(self, outcome: int) -> None:
        if self.phase == "commander":
            self.first = outcome
            self.phase = "order"
        elif self.phase == "order":
            self.order = ORDERS[outcome]
            self._start_battle()
        elif self.phase == "deal":
            seat = self.first if len(self.hands[self.first]) < HAND_SIZE else 1 - self.first
            self.pool.remove(outcome)
            self.hands[seat].append(outcome)
            self.hands[seat].sort()
            self.known[seat][outcome] = True
            if len(self.hands[1 - self.first]) == HAND_SIZE:
                self.phase = "main"
                self.turn = self.actor = self.first
        else:  # Reinforce's draw
            self.pool.remove(outcome)
            self._hold(outcome)

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

    # --- resampling ------------------------------------------------------------------------------

    def _unseen_slots(self, seat: int) -> list[tuple[str, int, int, int]]:
        """Places holding a card ``seat`` cannot identify: ("hand", owner, index, 0),
        ("table", owner, theater, index), ("pool", i, 0, 0), ("bottom", i, 0, 0),
        ("held", 0, 0, 0)."""
        other = 1 - seat
        slots = [("hand", other, i, 0) for i, c in enumerate(self.hands[other])
                 if not self.known[seat][c]]
        slots += [("table", other, t, i) for t in range(3)
                  for i, c in enumerate(self.stacks[other][t]) if not self.known[seat][c]]
        slots += [("pool", i, 0, 0) for i in range(len(self.pool))]
        slots += [("bottom", i, 0, 0) for i, c in enumerate(self.bottom)
                  if not self.known[seat][c]]
        if self.held >= 0 and not self.known[seat][self.held]:
            slots.append(("held", 0, 0, 0))
        return slots

    def _slot_card(self, slot: tuple[str, int, int, int]) -> int:
        kind, a, b, c = slot
        if kind == "hand":
            return self.hands[a][b]
        if kind == "table":
            return self.stacks[a][b][c]
        if kind == "pool":
            return self.pool[a]
        return self.bottom[a] if kind == "bottom" else self.held

    def _set_slot(self, slot: tuple[str, int, int, int], card: int) -> None:
        kind, a, b, c = slot
        if kind == "hand":
            self.hands[a][b] = card
        elif kind == "table":
            self.stacks[a][b][c] = card
        elif kind == "pool":
            self.pool[a] = card
        elif kind == "bottom":
            self.bottom[a] = card
        else:
            self.held = card


pyspiel.register_game(_GAME_TYPE, AirLandSeaGame)
