"""Air, Land & Sea (base game, two players) as an OpenSpiel Python game: chance, decisions,
positions for tests and resampling; the battle's own rules are in
:mod:`games.gamebench.air_land_sea_battle`.

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

from collections.abc import Callable, Sequence
from typing import Any

import pyspiel

from games.gamebench.air_land_sea_battle import MAX_TRIGGERS, Battle
from games.gamebench.air_land_sea_cards import (
    CARDS,
    DEFAULT_TARGET,
    DISRUPT,
    HAND_SIZE,
    NUM_ACTIONS,
    NUM_CARDS,
    ORDERS,
    REINFORCE,
    SEATS,
    SKIP,
    THEATERS,
    WITHDRAW,
    decode,
    flip_action,
    move_action,
    play_action,
    return_action,
)
from games.gamebench.air_land_sea_view import SeatObserver, action_label

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
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SeatObserver(params, history=recall)


class AirLandSeaState(pyspiel.State, Battle):
    """Hands, the deck, both sides of the three theaters, who knows which card, the queue of
    instant abilities, and the decision being made (``phase``, ``actor``)."""

    def __init__(self, game: AirLandSeaGame) -> None:
        pyspiel.State.__init__(self, game)
        Battle.__init__(self, game.target)

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
