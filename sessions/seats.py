"""The agent seats of a session with a person: who is asked, when, and what they stream.

An agent is asked as soon as its seat must act, in a worker thread, and keeps answering
while anything else happens: agents that act in the same node as the person (every seat of
a simultaneous round) think while the person does, and the node is applied when the last
answer is in. Agents in nodes without the person are asked concurrently too; the session
waits for them with :meth:`AgentSeats.wait`.

An agent object with an ``on_event`` attribute gets it set, before each of its turns, to a
callable ``on_event(kind, text)``; every call appends ``text`` to what that seat has
streamed (``kind`` is e.g. ``"reasoning"`` or ``"answer"``; ``"reset"`` clears it, for a
retried answer).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from concurrent.futures import Future, ThreadPoolExecutor, wait

from agents.base import Agent
from sessions.engine import FailurePolicy, play_turn
from sessions.match import Match, NotYourTurn


class AgentSeats:
    """The agents of one match, by seat, asked concurrently as their seats come up."""

    def __init__(self, match: Match, agents: Mapping[int, Agent], policy: FailurePolicy) -> None:
        self.match = match
        self.by_seat = dict(agents)
        self.policy = policy
        self._asked: dict[int, Future[None]] = {}
        self._since: dict[int, float] = {}
        self._streamed: dict[int, list[str]] = {}
        self._failures: list[BaseException] = []
        self._pool: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def to_move(self) -> tuple[int, ...]:
        """The agent seats that must act now."""
        return tuple(s for s in self.match.to_move() if s in self.by_seat)

    def ask(self, seats: Iterable[int]) -> None:
        """Start asking each of ``seats`` that is not answering already."""
        for seat in seats:
            with self._lock:
                running = self._asked.get(seat)
                if running is not None and not running.done():
                    continue
                if running is not None and self._collect(seat):
                    continue  # it crashed: the session hears of it from failures()
                if self._pool is None:
                    self._pool = ThreadPoolExecutor(max_workers=max(1, len(self.by_seat)),
                                                    thread_name_prefix="seat")
                self._streamed[seat] = []
                self._since[seat] = time.monotonic()
                self._asked[seat] = self._pool.submit(self._turn, seat)

    def busy(self) -> tuple[int, ...]:
        """The seats whose agent is answering now."""
        with self._lock:
            return tuple(s for s, f in self._asked.items() if not f.done())

    def since(self, seats: Iterable[int]) -> float:
        """When the earliest of ``seats`` was asked (``time.monotonic``)."""
        return min((self._since[s] for s in seats if s in self._since), default=time.monotonic())

    def deadline(self, seats: Iterable[int]) -> float | None:
        """When the last of ``seats`` whose agent has a time limit must have answered
        (``time.monotonic``; an LLM seat's ``deadline``), or None when none has one. Pass
        seats that are thinking: one whose agent has not begun deciding yet (its thread is
        starting) counts its ``silence_seconds`` from now, as it cannot take longer without
        a word from its provider."""
        now = time.monotonic()
        known = []
        for seat in seats:
            agent = self.by_seat.get(seat)
            limit = getattr(agent, "deadline", None)
            if limit is None:
                quiet = getattr(agent, "silence_seconds", None)
                limit = None if quiet is None else now + quiet
            if isinstance(limit, float | int):
                known.append(limit)
        return max(known) if known else None

    def wait(self, seats: tuple[int, ...], poll: float) -> Iterator[None]:
        """Wait for the answers of ``seats``, yielding every ``poll`` seconds until all are in.
        An agent that crashed is reported by :meth:`failures`, not raised."""
        futures = [self._asked[s] for s in seats if s in self._asked]
        while wait(futures, timeout=poll).not_done:
            if self.match.over:
                break  # ended while they thought: do not wait for a late answer
            yield
        with self._lock:
            for seat in seats:
                self._collect(seat)

    def failures(self) -> list[BaseException]:
        """Errors raised by agents so far (each reported once)."""
        with self._lock:
            found, self._failures = self._failures, []
            return found

    def streamed(self, seats: Iterable[int]) -> str:
        """What ``seats`` streamed during their latest turn, in seat order."""
        with self._lock:
            return "".join(text for s in sorted(seats) for text in self._streamed.get(s, ()))

    def forget_streams(self) -> None:
        """Drop the streamed text of agents that are not answering now."""
        with self._lock:
            self._streamed = {s: t for s, t in self._streamed.items()
                              if s in self._asked and not self._asked[s].done()}

    def cancel(self) -> None:
        """Stop agents that can be stopped (an LLM call in flight ends at its next token)."""
        for agent in self.by_seat.values():
            cancel = getattr(agent, "cancel", None)
            if callable(cancel):
                cancel()

    def close(self) -> None:
        """Stop taking new work; answers still being computed are dropped when they arrive."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    # --- internals --------------------------------------------------------------------------

    def _turn(self, seat: int) -> None:
        agent = self.by_seat[seat]
        if hasattr(agent, "on_event"):
            agent.on_event = lambda kind, text: self._heard(seat, kind, text)
        try:
            play_turn(self.match, seat, agent, policy=self.policy)
        except NotYourTurn:
            pass  # the game ended while the agent thought (resigned, abandoned, a forfeit)

    def _heard(self, seat: int, kind: str, text: str) -> None:
        with self._lock:
            lines = self._streamed.setdefault(seat, [])
            if kind == "reset":
                lines.clear()
            else:
                lines.append(text)

    def _collect(self, seat: int) -> bool:
        """Forget ``seat``'s finished call, keeping its error (call with the lock held);
        True if it crashed."""
        future = self._asked.get(seat)
        if future is None or not future.done():
            return False
        del self._asked[seat]
        error = None if future.cancelled() else future.exception()
        if error is not None:
            self._failures.append(error)
        return error is not None
