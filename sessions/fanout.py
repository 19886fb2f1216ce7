"""Where a tournament's matches are played: here one at a time, in N local processes, or on a
Ray cluster. Only the process that runs the tournament writes to the store, so every
completed match is stored exactly once, whatever runs it.

A :class:`Runner` takes :class:`Job` objects (a match to play: game, seats, seed) and hands
back finished records as they complete. A match's moves depend on its seed alone (agents
are seeded from it), so where and in which order matches run does not change the records.
"""

from __future__ import annotations

import concurrent.futures as futures
import multiprocessing
import os
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from agents.naming import AgentSpec
from agents.specs import make_agent, seat_seed
from games import registry
from sessions.engine import FailurePolicy, play_match
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord


@dataclass(frozen=True)
class Job:
    """One match to play: ``seats[i]`` sits in seat i."""

    game: str
    seats: tuple[AgentSpec, ...]
    seed: int
    params: Mapping[str, Any] = field(default_factory=dict)
    policy: FailurePolicy = FailurePolicy()
    record_id: str | None = None
    """The record's id (a tournament plan names its matches, so a resumed run knows them);
    None for a fresh random id."""
    tag: Any = None
    """Whatever the caller wants back with the record (its index, its providers)."""


def play_job(job: Job) -> MatchRecord:
    """Play one job to the end (in whichever process runs it) and return its record."""
    record = play_one(job.game, job.seats, seed=job.seed, params=job.params, policy=job.policy)
    if job.record_id is not None:
        record.id = job.record_id
    return record


def play_one(game_id: str, seats: Sequence[AgentSpec], *, seed: int,
             params: Mapping[str, Any] | None = None,
             policy: FailurePolicy = FailurePolicy()) -> MatchRecord:
    """Play one match with ``seats[i]`` in seat i and return its record."""
    spec = registry.get(game_id)
    chosen = spec.params(params)
    records = [SeatRecord(kind=a.kind, spec=a.text, entity=a.entity, settings=a.settings())
               for a in seats]
    match = Match(game_id, records, seed=seed, params=chosen)
    agents = [make_agent(a, spec, match.record.params, seed=seat_seed(seed, i, a.text))
              for i, a in enumerate(seats)]
    return play_match(match, agents, policy=policy)


class Runner(Protocol):
    slots: int
    """How many matches it plays at once."""

    def submit(self, job: Job) -> None: ...

    def finished(self) -> Iterator[tuple[Job, MatchRecord]]:
        """Wait for at least one submitted job; yield every one that has finished."""
        ...

    @property
    def running(self) -> int: ...

    def close(self) -> None: ...


class Serial:
    """One match at a time, in this process."""

    slots = 1

    def __init__(self) -> None:
        self._queue: list[Job] = []

    def submit(self, job: Job) -> None:
        self._queue.append(job)

    def finished(self) -> Iterator[tuple[Job, MatchRecord]]:
        job = self._queue.pop(0)
        yield job, play_job(job)

    @property
    def running(self) -> int:
        return len(self._queue)

    def close(self) -> None:
        self._queue.clear()


class Processes:
    """``workers`` matches at once, each in a process of its own on this machine."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError("--workers must be at least 1")
        self.slots = workers
        # spawn: a fresh interpreter per worker, whatever threads this process has started;
        # each worker ends itself when this process dies (kill -9 included)
        self._pool = futures.ProcessPoolExecutor(
            workers, mp_context=multiprocessing.get_context("spawn"),
            initializer=follow_parent, initargs=(os.getpid(),))
        self._futures: dict[futures.Future[MatchRecord], Job] = {}

    def submit(self, job: Job) -> None:
        self._futures[self._pool.submit(play_job, job)] = job

    def finished(self) -> Iterator[tuple[Job, MatchRecord]]:
        done, _ = futures.wait(self._futures, return_when=futures.FIRST_COMPLETED)
        for future in done:
            job = self._futures.pop(future)
            yield job, future.result()

    @property
    def running(self) -> int:
        return len(self._futures)

    def close(self) -> None:
        for future in self._futures:
            future.cancel()
        self._pool.shutdown(wait=True, cancel_futures=True)


PARENT_CHECK = 0.5
"""Seconds between a worker's looks at whether the process that started it still lives."""


def follow_parent(parent: int) -> None:
    """In a worker process: exit as soon as ``parent`` (the tournament) is gone, however it
    ended (a kill -9 runs no cleanup that could stop its workers). A daemon thread watches
    the parent's pid: when this process is handed to another parent, the tournament died."""
    if os.getppid() != parent:
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), name="follow-parent",
                     daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(1)  # no cleanup: the match in hand is lost with its tournament anyway


class RayCluster:
    """Matches as Ray tasks (one CPU each) on the cluster at ``address`` (None: the cluster
    this process already joined, else a local one started here)."""

    def __init__(self, address: str | None = None, *, slots: int | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ValueError("--ray needs Ray: pip install 'llm-game-arena[ray]' "
                             "(or pip install ray)") from None
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            ray.init(address=address or None, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
            self._started = True
        self.slots = slots or max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._task = ray.remote(num_cpus=1, max_retries=2)(play_job)
        self._refs: dict[Any, Job] = {}

    def submit(self, job: Job) -> None:
        self._refs[self._task.remote(job)] = job

    def finished(self) -> Iterator[tuple[Job, MatchRecord]]:
        ready, _ = self._ray.wait(list(self._refs), num_returns=1)
        ready, _ = self._ray.wait(list(self._refs), num_returns=len(self._refs), timeout=0) \
            if len(self._refs) > 1 else (ready, None)
        for ref in ready:
            job = self._refs.pop(ref)
            try:
                record = self._ray.get(ref)
            except self._ray.exceptions.RayTaskError as err:
                raise err.cause from None  # the match's own error (a missing key, a bad spec)
            yield job, record

    @property
    def running(self) -> int:
        return len(self._refs)

    def close(self) -> None:
        for ref in self._refs:
            self._ray.cancel(ref, force=True)
        self._refs.clear()
        if self._started:
            self._ray.shutdown()


def runner(*, workers: int = 1, ray: str | bool | None = None) -> Runner:
    """Serial, N processes, or Ray (``ray`` True: a local cluster; a string: its address)."""
    if ray:
        return RayCluster(ray if isinstance(ray, str) else None,
                          slots=workers if workers > 1 else None)
    return Processes(workers) if workers > 1 else Serial()


class Schedule:
    """Feeds jobs to a runner as slots free up, holding back those ``admit`` refuses for now
    (a provider at its concurrency cap) and starting none once ``stop`` says so (a spending
    cap reached); :meth:`results` yields each finished match once. ``left`` holds the jobs
    never started."""

    def __init__(self, jobs: list[Job], runner: Runner, *,
                 admit: Any = None, stop: Any = None) -> None:
        self.left = list(jobs)
        self._runner = runner
        self._admit = admit or (lambda job: True)
        self._stop = stop or (lambda: False)

    def results(self) -> Iterator[tuple[Job, MatchRecord]]:
        try:
            while True:
                if not self._stop():
                    self._fill()
                if not self._runner.running:
                    return
                yield from self._runner.finished()
        finally:
            self._runner.close()

    def _fill(self) -> None:
        index = 0
        while index < len(self.left) and self._runner.running < self._runner.slots:
            if self._admit(self.left[index]):
                self._runner.submit(self.left.pop(index))
            else:
                index += 1
