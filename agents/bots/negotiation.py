"""Negotiation's bot: proposes splits worth much to it that the other side may accept, concedes
as the deadline nears, and agrees when an offer is worth what it can expect from going on.

It reads only what its seat knows: the item pool, its own values and the number of proposals
allowed (its observation string), and the proposals made so far (public). The other side's
values are unknown; the bot keeps a belief over all of them (every value vector 0-10 per
item, uniform, not all zero), sharpened by the other side's proposals (a side keeps, more
often, what it values). From that belief it estimates how likely a split is to be accepted:
a side agrees when what it gets is a large enough share of what the pool is worth to it,
and that share falls as the deadline nears (at its last chance, anything above nothing).

Each of its proposals maximizes what it expects: the chance of agreement times the split's
value, plus, if refused, what the rest of the game is worth (found backwards from the
deadline: the last proposal that can still be agreed to is an ultimatum). It agrees to the
last proposal when that is worth at least as much as proposing, and at its very last chance
whenever it is worth anything, since no agreement pays both sides nothing.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass

import numpy as np
import pyspiel

from agents.base import Decision, SeatView
from games.actions import ActionId
from games.gtbench.catalogue import negotiation_move
from games.registry import GameSpec

MAX_VALUE = 10
"""OpenSpiel's item values are 0-10."""
KEEPS = 4.0
"""How strongly a side's proposals show its values (the softmax sharpness over the share of
the pool's worth a proposal keeps)."""
ASKS = (0.6, 0.25)
"""The share of the pool's worth the other side is expected to need, first and at its last
chance to agree (in between it falls linearly)."""
SPREAD = 0.1
"""How soft that need is (the logistic scale of a side's acceptance)."""
REPEAT = 0.8
"""A refused side's next proposal is expected to be worth this share of its best offer so far
to this seat (it may harden, and the deadline comes nearer)."""
STINGY = 0.6
"""A last proposal the other side makes (an ultimatum to this seat) is expected to be worth
this share of its best offer so far."""


@dataclass(frozen=True)
class Table:
    """What this seat knows: the pool, its values, the deadline and the proposals so far."""

    seat: int
    pool: np.ndarray
    values: np.ndarray
    max_steps: int
    proposals: tuple[tuple[int, tuple[int, ...]], ...]
    """(who proposed, what that side keeps), oldest first."""
    utterance: bool

    @property
    def worth(self) -> int:
        """What the whole pool is worth to this seat."""
        return int(self.values @ self.pool)

    def gets(self, keep: tuple[int, ...] | np.ndarray, by: int) -> int:
        """What this seat gets, by its values, from a split where ``by`` keeps ``keep``."""
        mine = np.asarray(keep) if by == self.seat else self.pool - np.asarray(keep)
        return int(self.values @ mine)

    @property
    def theirs(self) -> list[tuple[int, ...]]:
        """The other side's proposals (what it keeps)."""
        return [keep for by, keep in self.proposals if by != self.seat]


def read_table(state: pyspiel.State, seat: int) -> Table:
    """The seat's observation string and the public proposals, read into a :class:`Table`."""
    fields = {}
    for line in state.observation_string(seat).splitlines():
        name, _, value = line.partition(":")
        fields[name.strip()] = value.strip()
    pool = np.array([int(n) for n in fields["Item pool"].split()])
    values = np.array([int(n) for n in fields[f"Agent {seat} util vec"].split()])
    proposals = []
    for item in state.full_history():
        if item.player < 0:
            continue
        verb, numbers = negotiation_move(state, item.action)
        if verb == "propose":
            proposals.append((item.player, tuple(numbers)))
    return Table(seat, pool, values, int(fields["Max steps"]), tuple(proposals),
                 fields.get("Turn Type") == "Utterance")


def _all_values(items: int) -> np.ndarray:
    grid = np.array(list(itertools.product(range(MAX_VALUE + 1), repeat=items)))
    return grid[grid.sum(axis=1) > 0]


class Belief:
    """Weights over the other side's value vectors, and the acceptance model they give."""

    def __init__(self, table: Table, splits: np.ndarray) -> None:
        self.table = table
        self.splits = splits
        """Every split, as what this seat keeps (rows)."""
        self.vectors = _all_values(len(table.pool))
        total = self.vectors @ table.pool
        self._total = np.where(total > 0, total, 1)
        self._blind = total == 0
        # the other side's share of its own worth, for every (vector, split of this seat)
        given = self.vectors @ (table.pool - splits).T
        self.share = np.where(self._blind[:, None], 0.5, given / self._total[:, None])
        self.weights = self._posterior()

    def _posterior(self) -> np.ndarray:
        """The prior (uniform), times the likelihood of the other side's proposals: a
        softmax over every split of the share of its worth it keeps."""
        log = np.zeros(len(self.vectors))
        kept_shares = 1.0 - self.share  # what the other side keeps if this seat keeps a split
        norm = np.log(np.exp(KEEPS * kept_shares).sum(axis=1))
        for keep in self.table.theirs:
            kept = self.vectors @ np.asarray(keep)
            share = np.where(self._blind, 0.5, kept / self._total)
            log += KEEPS * share - norm
        weights = np.exp(log - log.max())
        return weights / weights.sum()

    def accepts(self, need: float) -> np.ndarray:
        """For every split, the chance the other side agrees to it when it needs ``need`` of
        its worth."""
        agree = 1.0 / (1.0 + np.exp(-(self.share - need) / SPREAD))
        return self.weights @ np.where(self.share > 0, agree, 0.0)


class Negotiator:
    """Proposes and agrees by expected value under a belief about the other side's values."""

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
        table = read_table(view.state, view.seat)
        moves = {move.action: negotiation_move(view.state, move.action) for move in view.legal}
        if table.utterance:
            action = min(moves)
            return action, "the symbols carry no agreed meaning: says the first"
        agree = next((a for a, (verb, _) in moves.items() if verb == "agree"), None)
        offers = {a: tuple(numbers) for a, (verb, numbers) in moves.items() if verb == "propose"}
        return decide(table, offers, agree)


def decide(table: Table, offers: dict[int, tuple[int, ...]], agree: int | None
           ) -> tuple[int, str]:
    """On a proposal turn: agree (``agree`` is its action, None before any proposal) or the
    proposal among ``offers`` (action -> what this seat keeps) worth most."""
    made = len(table.proposals)
    last = table.proposals[-1] if table.proposals else None
    offered = table.gets(last[1], last[0]) if last is not None else 0
    worth = table.worth
    everything = max(offers, key=lambda a: table.gets(offers[a], table.seat))
    if worth == 0:
        return everything, "nothing in the pool is worth anything to it: keeps it all"
    if made + 1 >= table.max_steps:  # a proposal now would end the game unagreed
        if agree is not None and offered > 0:
            return agree, f"the last chance to agree: {offered} points beat no deal's 0"
        return everything, "the last proposal cannot be agreed to: no deal"
    actions = list(offers)
    splits = np.array([offers[a] for a in actions])
    belief = Belief(table, splits)
    mine = splits @ table.values
    best, value = _plan(table, belief, mine, made + 1, _best_offer(table))
    if agree is not None and offered >= value:
        return agree, (f"{offered} of {worth} points now is worth at least the {value:.0f} "
                       "it can expect from going on")
    keep = offers[actions[best]]
    return actions[best], (f"keeps {list(keep)}, {int(mine[best])} of {worth} points, "
                           "leaving the other side what it seems to value")


def _best_offer(table: Table) -> int:
    """The most the other side has offered this seat so far (0 before any offer)."""
    return max((table.gets(keep, by) for by, keep in table.proposals if by != table.seat),
               default=0)


def _need(step: int, max_steps: int) -> float:
    """The share the other side needs to agree to proposal ``step`` (1-based): falling from
    ``ASKS[0]`` to ``ASKS[1]`` at the last proposal it can agree to (``max_steps - 1``)."""
    last = max_steps - 1
    if step >= last:
        return ASKS[1]
    return ASKS[0] + (ASKS[1] - ASKS[0]) * (step - 1) / max(1, last - 1)


def _plan(table: Table, belief: Belief, mine: np.ndarray, step: int, best_offer: int
          ) -> tuple[int, float]:
    """The split to propose as proposal ``step`` and the value expected from it: backwards
    from the deadline, each of this seat's proposals is worth the chance of agreement times
    the split, plus, if refused, the other side's next proposal (worth to this seat about its
    best offer so far, less for an ultimatum) or this seat's next proposal, whichever is more."""
    later = 0.0
    for own in range(_last_own(step, table.max_steps), step - 1, -2):
        counter = own + 1  # the other side's reply
        if counter >= table.max_steps:
            fallback = 0.0  # its reply would be the last proposal: unagreeable
        elif counter == table.max_steps - 1:
            fallback = STINGY * best_offer  # its reply is an ultimatum to this seat
        else:
            fallback = max(REPEAT * best_offer, later)
        accept = belief.accepts(_need(own, table.max_steps))
        expected = accept * mine + (1 - accept) * fallback
        index = int(np.argmax(expected))
        later = float(expected[index])
    return index, later


def _last_own(step: int, max_steps: int) -> int:
    """This seat's last proposal that can still be agreed to (proposals alternate)."""
    last = step
    while last + 2 <= max_steps - 1:
        last += 2
    return last
