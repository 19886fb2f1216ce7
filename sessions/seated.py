"""A person in one seat, agents in all the others: the driver a page and a test share.

::

    session = SeatedSession.start("guess_2_3", human_seat=3, opponents=["equilibrium"] * 9,
                                  seed=7)
    session.advance()                   # agents play until the person must act, or the end
    session.view()                      # the person's SeatView (text, legal moves, state)
    session.submit(Text(text="37"))     # a MoveError says what is allowed; nothing changes
    session.record                      # once session.over: store it

Agents that act in the same node as the person start answering as soon as the node opens,
so language models think while the person does; the node is applied when the last answer
is in. Agents in nodes without the person are asked concurrently too (every seat of a
simultaneous round at once). The failure policy defaults to a flagged random legal move, so
one agent's bad answers do not end a table of ten for everyone; pass
``FailurePolicy(on_failure="forfeit")`` for rated two-player play.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from agents.base import Agent, SeatView
from agents.specs import AgentSpec, make_agent, parse_spec, seat_seed
from games import registry
from games.actions import LegalMove, Proposal
from sessions.engine import FailurePolicy, play_turn
from sessions.match import Match, NotYourTurn
from sessions.record import MatchRecord, SeatRecord

TABLE_POLICY = FailurePolicy(max_retries=2, on_failure="random")


class SeatedSession:
    """One session with one human seat; every other seat is an agent."""

    def __init__(self, match: Match, human: int, agents: Mapping[int, Agent], *,
                 policy: FailurePolicy = TABLE_POLICY) -> None:
        seats = len(match.record.seats)
        if not 0 <= human < seats:
            raise ValueError(f"human_seat must be between 0 and {seats - 1}, got {human}")
        missing = set(range(seats)) - {human} - set(agents)
        if missing:
            raise ValueError(f"no agent for seats {sorted(missing)}")
        self.match = match
        self.human = human
        self._agents = dict(agents)
        self._policy = policy
        self._pool = ThreadPoolExecutor(max_workers=max(1, seats - 1),
                                        thread_name_prefix="seat")
        self._asked: dict[int, Future[None]] = {}
        self._lock = threading.Lock()

    @classmethod
    def start(cls, game_id: str, *, human_seat: int, opponents: Sequence[str | AgentSpec],
              seed: int, params: Mapping[str, Any] | None = None,
              player_id: str | None = None, display_name: str | None = None,
              research_use: bool = True, policy: FailurePolicy = TABLE_POLICY
              ) -> SeatedSession:
        """A new session: ``opponents`` fill the other seats in order (one spec each)."""
        spec = registry.get(game_id)
        players = spec.load(spec.params(params)).num_players()
        if not 0 <= human_seat < players:
            raise ValueError(f"human_seat must be between 0 and {players - 1}, got {human_seat}")
        if len(opponents) != players - 1:
            raise ValueError(f"{spec.title} with these parameters seats {players}: give "
                             f"{players - 1} opponents, got {len(opponents)}")
        parsed = [parse_spec(o) if isinstance(o, str) else o for o in opponents]
        seats_of = [s for s in range(players) if s != human_seat]
        records = [SeatRecord(kind="human", spec="human", entity="human", player_id=player_id,
                              display_name=display_name) for _ in range(players)]
        for seat, agent in zip(seats_of, parsed, strict=True):
            records[seat] = SeatRecord(kind=agent.kind, spec=agent.text, entity=agent.entity,
                                       settings=agent.settings())
        match = Match(game_id, records, seed=seed, params=params, research_use=research_use)
        agents = {seat: make_agent(agent, spec, match.record.params,
                                   seed=seat_seed(seed, seat, agent.text))
                  for seat, agent in zip(seats_of, parsed, strict=True)}
        return cls(match, human_seat, agents, policy=policy)

    # --- reading ----------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.match.over

    @property
    def record(self) -> MatchRecord:
        return self.match.record

    @property
    def waiting_for_human(self) -> bool:
        return self.human in self.match.to_move()

    def view(self) -> SeatView:
        return self.match.view(self.human)

    def legal(self) -> list[LegalMove]:
        return self.match.legal(self.human) if self.waiting_for_human else []

    # --- playing ----------------------------------------------------------------------------

    def advance(self) -> None:
        """Let the agents play until the person must act or the game is over."""
        while not self.match.over:
            seats = self.match.to_move()
            agent_seats = [s for s in seats if s != self.human]
            for seat in agent_seats:
                self._ask(seat)
            if self.human in seats:
                return
            self._wait(agent_seats)

    def submit(self, proposal: Proposal, *, raw: str | None = None,
               advance: bool = True) -> LegalMove:
        """Play the person's move (a MoveError or NotYourTurn changes nothing), then let the
        agents play on unless ``advance`` is False."""
        move = self.match.submit(self.human, proposal, raw=raw)
        if advance:
            self.advance()
        return move

    def abandon(self, reason: str = "abandoned") -> None:
        """End the session without a result (the person left)."""
        self.match.abandon(reason)
        self.close()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> SeatedSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals --------------------------------------------------------------------------

    def _ask(self, seat: int) -> None:
        """Start asking ``seat``'s agent, unless it is still answering an earlier call."""
        with self._lock:
            running = self._asked.get(seat)
            if running is not None and not running.done():
                return
        if running is not None:
            self._collect(seat)
        with self._lock:
            self._asked[seat] = self._pool.submit(play_turn, self.match, seat,
                                                  self._agents[seat], policy=self._policy)

    def _wait(self, seats: list[int]) -> None:
        for seat in seats:
            self._collect(seat)

    def _collect(self, seat: int) -> None:
        """Wait for ``seat``'s answer; an agent's crash surfaces here."""
        with self._lock:
            future = self._asked.pop(seat, None)
        if future is None:
            return
        try:
            future.result()
        except NotYourTurn:
            pass  # the session ended (a forfeit) while this seat was thinking
