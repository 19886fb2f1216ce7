"""GAMA-Bench's Pirate Game: the most senior pirate proposes how to split G golds, all vote.

Pirates are ranked by seniority: seat 0 is pirate 1, the most senior. The proposal is made in
steps, one per pirate below the proposer in order of rank ("pirate 3 gets 1"), each a whole
number of golds from 0 to what is left; the proposer keeps the rest, and once nothing is left
the others get 0. This keeps every decision a single number, so a person enters it in a
number field and a language model answers one JSON field, through the same adapter as every
other game (a whole plan as one action would need C(G+N-1, N-1) action ids).

Then every pirate still aboard votes at once (one simultaneous node): the proposer's vote is
an automatic accept and pirates already overboard have one no-op action, which the match
engine records without asking. GAMA's rule: the plan passes if at least half of the pirates
aboard, the proposer included, accept; otherwise the proposer goes overboard and the next
most senior pirate proposes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pyspiel

from games.gama.common import DEFAULT_PLAYERS, MAX_PLAYERS, check_range, common_info, game_type

PIRATE_PARAMS: dict[str, Any] = {"num_players": DEFAULT_PLAYERS, "golds": 100}
_TYPE = game_type("python_gama_pirate_game", "GAMA-Bench Pirate Game", PIRATE_PARAMS)


class PirateGame(pyspiel.Game):
    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        chosen = {**PIRATE_PARAMS, **(params or {})}
        players = int(chosen["num_players"])
        check_range("num_players", players, 2, MAX_PLAYERS)
        self.golds = int(chosen["golds"])
        needed = (players - 1) // 2
        check_range("golds", self.golds, max(4, needed), 400)
        self.accept, self.reject, self.no_vote = self.golds + 1, self.golds + 2, self.golds + 3
        super().__init__(_TYPE, common_info(
            players=players, actions=self.golds + 4, length=players * players,
            utility=(-1, self.golds)), chosen)

    def new_initial_state(self) -> PirateState:
        return PirateState(self)


@dataclass(frozen=True)
class Proposal:
    """A plan put to the vote: golds per seat (0 for those overboard) and each vote."""

    proposer: int
    plan: tuple[int, ...]
    votes: tuple[bool | None, ...]
    """True accept, False reject, None for the proposer and those overboard."""
    accepted: bool

    @property
    def accepts(self) -> int:
        """Accepting pirates, the proposer included."""
        return 1 + sum(1 for vote in self.votes if vote)

    @property
    def aboard(self) -> int:
        return len(self.plan) - self.proposer


def optimal_plan(proposer: int, players: int, golds: int) -> tuple[int, ...]:
    """Stewart's solution: one gold to each pirate whose rank has the proposer's parity,
    the rest to the proposer, nothing to the others (GAMA's reference plan)."""
    plan = [0] * players
    for seat in range(proposer + 2, players, 2):
        plan[seat] = 1
    plan[proposer] = golds - sum(plan)
    return tuple(plan)


def share_if_overboard(proposer: int, seat: int, players: int, golds: int) -> int:
    """What ``seat`` gets if this proposer goes overboard and everyone plays optimally."""
    return optimal_plan(proposer + 1, players, golds)[seat]


class PirateState(pyspiel.State):
    def __init__(self, game: PirateGame) -> None:
        super().__init__(game)
        players = game.num_players()
        self.proposer = 0
        self.plan = [0] * players
        self.deciding: int | None = 1 if players > 1 else None
        """The seat whose share the proposer is setting now; None while the pirates vote."""
        self.proposals: list[Proposal] = []
        self.finished = False
        self._rewards = [0.0] * players

    # --- reading ----------------------------------------------------------------------------

    def gold_left(self) -> int:
        return self.get_game().golds - sum(self.plan)

    def voting(self) -> bool:
        return not self.finished and self.deciding is None

    def final_plan(self) -> tuple[int, ...] | None:
        accepted = [p for p in self.proposals if p.accepted]
        return accepted[-1].plan if accepted else None

    # --- OpenSpiel --------------------------------------------------------------------------

    def current_player(self) -> int:
        if self.finished:
            return pyspiel.PlayerId.TERMINAL
        return self.proposer if self.deciding is not None else pyspiel.PlayerId.SIMULTANEOUS

    def is_terminal(self) -> bool:
        return self.finished

    def _legal_actions(self, player: int) -> list[int]:
        game = self.get_game()
        if self.finished:
            return []
        if self.deciding is not None:
            return list(range(self.gold_left() + 1)) if player == self.proposer else []
        if player < self.proposer:
            return [game.no_vote]
        if player == self.proposer:
            return [game.accept]
        return [game.accept, game.reject]

    def _apply_action(self, action: int) -> None:
        before = self.returns()
        self._act(action)
        self._rewards = [a - b for a, b in zip(self.returns(), before, strict=True)]

    def rewards(self) -> list[float]:
        return list(self._rewards)

    def _act(self, action: int) -> None:
        assert self.deciding is not None
        self.plan[self.deciding] = int(action)
        self.deciding += 1
        if self.deciding >= len(self.plan) or self.gold_left() == 0:
            self.plan[self.proposer] += self.gold_left()
            self.deciding = None

    def _apply_actions(self, actions: Sequence[int]) -> None:
        before = self.returns()
        self._vote(actions)
        self._rewards = [a - b for a, b in zip(self.returns(), before, strict=True)]

    def _vote(self, actions: Sequence[int]) -> None:
        game = self.get_game()
        votes = tuple(None if seat <= self.proposer else action == game.accept
                      for seat, action in enumerate(actions))
        aboard = len(self.plan) - self.proposer
        accepts = 1 + sum(1 for vote in votes if vote)
        accepted = 2 * accepts >= aboard
        self.proposals.append(Proposal(self.proposer, tuple(self.plan), votes, accepted))
        if accepted:
            self.finished = True
            return
        self.proposer += 1
        self.plan = [0] * len(self.plan)
        self.deciding = self.proposer + 1
        if self.deciding >= len(self.plan):  # the last pirate aboard takes everything
            self.plan[self.proposer] = game.golds
            self.proposals.append(Proposal(self.proposer, tuple(self.plan),
                                           (None,) * len(self.plan), True))
            self.finished = True

    def _action_to_string(self, player: int, action: int) -> str:
        return self.move_label(action)

    def move_label(self, action: int) -> str:
        """``pirate 3 gets 1`` while proposing; ``accept``/``reject``/``overboard`` when voting."""
        game = self.get_game()
        if action == game.accept:
            return "accept"
        if action == game.reject:
            return "reject"
        if action == game.no_vote:
            return "overboard"
        rank = (self.deciding if self.deciding is not None else self.proposer) + 1
        return f"pirate {rank} gets {action}"

    def returns(self) -> list[float]:
        """Golds received; -1 for a pirate thrown overboard (survival comes first)."""
        plan = self.final_plan()
        if plan is None:
            return [0.0] * len(self.plan)
        return [-1.0 if seat < self.proposer else float(plan[seat]) for seat in range(len(plan))]

    def __str__(self) -> str:
        lines = [f"pirate {p.proposer + 1} proposed {list(p.plan)}: {p.accepts} of {p.aboard} "
                 f"accepted" for p in self.proposals]
        if not self.finished:
            lines.append(f"pirate {self.proposer + 1} proposing {self.plan}")
        return "\n".join(lines)


pyspiel.register_game(_TYPE, PirateGame)
