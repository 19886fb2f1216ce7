"""Liar's dice: bids and calls by the odds, reading the opponent's bids as evidence.

The bot knows its own dice and the bids made so far (its information state), never the
opponent's dice. It keeps a belief over who the opponent may be and what they may hold:

- a *reader*, who bids what its own dice make likely and calls bids its dice make unlikely;
- a *gambler*, who picks any legal move at random;
- a *climber*, who always makes the smallest raise and calls only when it must.

Each of the opponent's bids reweighs those guesses by how likely that opponent would have
made it. The bot then looks ahead through every bid still possible: its own moves chosen
to win, the opponent's as its belief expects, and calling "liar" scored by the chance, under
the belief, that the last bid is false. It plays the move with the best chance of winning.
While more than 12 bids are still possible (more dice than one each), it does not look
ahead: it calls when the last bid is more likely false than true and otherwise makes the
raise most likely to be true.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pyspiel

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.registry import GameSpec

LIAR = "Liar"
TYPES = {"reader": 0.5, "gambler": 0.2, "climber": 0.3}
"""The kinds of opponent the bot allows for, with its prior belief in each."""
MAX_LOOKAHEAD_BIDS = 12
"""Look ahead only while at most this many bids remain (one die each: 12 bids in all)."""
CALL_BY_ODDS = {0.0: 1.0, 1 / 6: 0.8, 1 / 3: 0.5}
"""A reader calls a bid it believes true with chance p with this probability (p as with one
die each; in between, the next lower entry; sure bids are never called)."""
JUMP = 0.6
"""A reader's raise is less likely by this factor for every bid it skips."""
CLOSE = 0.05
"""Moves whose chance of winning is within this of the best are played at random."""


@dataclass(frozen=True)
class Bid:
    count: int
    face: int


def parse_bid(text: str, rule: str) -> Bid | None:
    """OpenSpiel's action string ("2-5" or "Liar") as a bid, None for liar."""
    if text == LIAR:
        return None
    first, second = (int(part) for part in text.split("-"))
    return Bid(second, first) if rule == "reset-quantity" else Bid(first, second)


class Table:
    """The dice rules of one game: which bids hold for which dice."""

    def __init__(self, game: pyspiel.Game) -> None:
        params = game.get_parameters()
        self.sides = int(params["dice_sides"])
        self.dice = int(params["numdice"])
        self.rule = str(params.get("bidding_rule", "reset-face"))
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        self.bids: dict[int, Bid] = {}
        for action in range(game.num_distinct_actions()):
            bid = parse_bid(state.action_to_string(state.current_player(), action), self.rule)
            if bid is not None:
                self.bids[action] = bid
        self.liar = next(a for a in range(game.num_distinct_actions()) if a not in self.bids)

    def holds(self, bid: Bid, mine: tuple[int, ...], theirs: tuple[int, ...]) -> bool:
        """Whether at least ``bid.count`` dice show ``bid.face`` (the highest face is wild)."""
        wild = self.sides
        shown = sum(1 for d in (*mine, *theirs) if d == bid.face or d == wild)
        return shown >= bid.count

    @cached_property
    def hands(self) -> list[tuple[tuple[int, ...], float]]:
        """Every roll of one player's dice (sorted) with its probability."""
        counts: dict[tuple[int, ...], int] = {}
        for roll in itertools.product(range(1, self.sides + 1), repeat=self.dice):
            key = tuple(sorted(roll))
            counts[key] = counts.get(key, 0) + 1
        total = self.sides ** self.dice
        return [(hand, n / total) for hand, n in sorted(counts.items())]

    def odds(self, bid: Bid, mine: tuple[int, ...]) -> float:
        """The chance that ``bid`` holds, for dice ``mine`` and an unknown other hand."""
        return sum(p for hand, p in self.hands if self.holds(bid, mine, hand))


class LiarsDiceBot:
    """Bids and calls by its chance of winning, with the opponent's bids read as evidence."""

    def __init__(self, game: GameSpec, params: dict[str, object],
                 rng: np.random.Generator) -> None:
        self._table = Table(game.load(params))
        self._rng = rng

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        start = time.perf_counter()
        mine, bids = self._read(view)
        legal = [m.action for m in view.legal]
        plan = Plan(self._table, mine, seat=view.seat, bids=bids)
        values = plan.values(legal)
        best = max(values.values())
        choices = [a for a, v in values.items() if v >= best - CLOSE - 1e-9]
        action = choices[int(self._rng.integers(len(choices)))]
        label = view.label(action)
        return Decision(ActionId(action=action), raw=label,
                        reasoning=f"{label}: about {best:.0%} to win by my reading of the bids",
                        seconds=time.perf_counter() - start)

    def _read(self, view: SeatView) -> tuple[tuple[int, ...], list[int]]:
        """My dice and the bids so far (action ids), from my information state only."""
        tokens = view.state.information_state_string(view.seat).split()  # "35 1-2 1-4"
        faces = tokens[0]  # one digit per die ("35": a three and a five)
        mine = tuple(sorted(int(c) for c in faces) if len(faces) == self._table.dice
                     else [int(faces)])
        by_bid = {(b.count, b.face): a for a, b in self._table.bids.items()}
        bids = []
        for token in tokens:
            if "-" in token:
                bid = parse_bid(token, self._table.rule)
                assert bid is not None
                bids.append(by_bid[(bid.count, bid.face)])
        return mine, bids


class Plan:
    """The look-ahead from one decision: a belief over (opponent type, opponent hand), the
    opponent's moves as each would make them, and my moves chosen to win."""

    def __init__(self, table: Table, mine: tuple[int, ...], *, seat: int,
                 bids: list[int]) -> None:
        self.table = table
        self.mine = mine
        self.hidden = [(kind, hand) for kind in TYPES for hand, _ in table.hands]
        self.order = sorted(table.bids)
        self._policies: dict[int | None, tuple[list[int], np.ndarray]] = {}
        belief = np.array([TYPES[kind] * p for kind in TYPES for _, p in table.hands])
        last: int | None = None
        for i, action in enumerate(bids):
            if i % 2 != seat:  # the opponent's bid
                moves, probs = self.opponent(last)
                belief = belief * probs[:, moves.index(action)]
            last = action
        self.belief = belief / belief.sum() if belief.sum() > 0 else belief
        self.last = last
        self.true = {a: np.array([table.holds(table.bids[a], mine, hand)
                                  for _, hand in self.hidden], dtype=float)
                     for a in self.order}

    def values(self, legal: list[int]) -> dict[int, float]:
        """Each legal move's chance of winning."""
        raises = [a for a in legal if a != self.table.liar]
        if len(raises) > MAX_LOOKAHEAD_BIDS:
            return self._by_odds(legal)
        return {a: self._after_mine(a, self.belief) for a in legal}

    def _after_mine(self, action: int, belief: np.ndarray) -> float:
        if belief.sum() < 1e-12:
            return 0.0
        if action == self.table.liar:
            assert self.last is not None
            return float(belief @ (1 - self.true[self.last]))
        moves, probs = self.opponent(action)
        value = 0.0
        for j, move in enumerate(moves):
            weight = belief * probs[:, j]
            if move == self.table.liar:
                value += float(weight @ self.true[action])
            elif weight.sum() > 1e-12:
                value += self._my_turn(move, weight)
        return value

    def _my_turn(self, last: int, belief: np.ndarray) -> float:
        saved, self.last = self.last, last
        try:
            options = [self.table.liar, *(a for a in self.order if a > last)]
            return max(self._after_mine(a, belief) for a in options)
        finally:
            self.last = saved

    def opponent(self, last: int | None) -> tuple[list[int], np.ndarray]:
        """The opponent's legal moves after ``last`` and, per hidden (type, hand), how likely
        each is."""
        if last not in self._policies:
            raises = [a for a in self.order if last is None or a > last]
            moves = raises + ([self.table.liar] if last is not None else [])
            rows = [self._model(kind, hand, last, raises, moves) for kind, hand in self.hidden]
            self._policies[last] = (moves, np.array(rows))
        return self._policies[last]

    def _model(self, kind: str, hand: tuple[int, ...], last: int | None, raises: list[int],
               moves: list[int]) -> list[float]:
        if kind == "gambler":
            return [1 / len(moves)] * len(moves)
        if kind == "climber":
            return [1.0 if m == (raises[0] if raises else self.table.liar) else 0.0
                    for m in moves]
        call = 0.0 if last is None else _call_chance(self.table.odds(self.table.bids[last], hand))
        weights = [self.table.odds(self.table.bids[a], hand) * JUMP ** i
                   for i, a in enumerate(raises)]
        total = sum(weights)
        if total == 0:
            call = 1.0
        row = [(1 - call) * w / total if total else 0.0 for w in weights]
        return row + ([call] if last is not None else [])

    def _by_odds(self, legal: list[int]) -> dict[int, float]:
        """Without look-ahead: calling is worth the chance the last bid is false, a raise the
        chance it is true."""
        out = {}
        for a in legal:
            if a == self.table.liar:
                assert self.last is not None
                out[a] = float(self.belief @ (1 - self.true[self.last]))
            else:
                out[a] = float(self.belief @ self.true[a])
        return out


def _call_chance(odds: float) -> float:
    if odds >= 1:
        return 0.0
    return next(chance for level, chance in sorted(CALL_BY_ODDS.items(), reverse=True)
                if odds >= level - 1e-9)
