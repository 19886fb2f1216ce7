"""The Leaderboard under play: a store of 100,000 sessions and one more stored every second.

Part of ``python -m benchmarks.ratings`` (its third target; ``--play-seconds 0`` skips it).
A writer process stores one synthetic session per second into a copy of a synthetic store
while this process keeps a live :class:`Leaderboard` (the app's) and asks it for the view
every quarter second, as open Leaderboard tabs do (each tab every 3 s). Printed: the CPU
this process spent (the leaderboard's reading, point ratings, background bootstrap and the
polls) as a share of one core, and for each stored session the delay until the view counts
it.

The synthetic store mixes the registry's games as an arena might: nine sessions in ten are
two-seat matches between ten agent configurations (human included) over the twelve
two-player games, one in ten a ten-seat GAMA-Bench session (five configurations, scores
from a random standing). Building it takes about 40 s and is kept (``--store``) for the
next run.
"""

from __future__ import annotations

import multiprocessing
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sessions.ratings.leaderboard import Leaderboard
from sessions.record import MatchRecord, SeatRecord
from sessions.store import Store

TWO_SEAT_GAMES = ("tic_tac_toe", "connect_four", "kuhn_poker", "breakthrough", "liars_dice",
                  "first_sealed_auction", "negotiation", "nim", "pig",
                  "iterated_prisoners_dilemma", "hive", "santorini")
GAMA_GAMES = ("guess_2_3", "el_farol", "divide_dollar", "public_goods", "diners_dilemma",
              "sealed_bid_auction", "battle_royale", "pirate_game")
AGENTS = ("random", "mcts:1000:2s", "mcts:100:0s", "ismcts:1000:2s", "tit-for-tat", "human",
          "llm:openai/gpt-4o-mini+cot", "llm:anthropic/claude-sonnet-4-5",
          "llm:local/smollm2-135m", "llm:compat/qwen2.5:7b+sc-cot")
GAMA_AGENTS = ("equilibrium", "adaptive", "random", "human", "llm:openai/gpt-4o-mini+cot")
POLL = 0.5  # seconds between the simulated tabs' looks (six open tabs poll this often)


def _seat(entity: str) -> SeatRecord:
    kind = entity.split(":")[0]
    return SeatRecord(kind=kind, spec=entity, entity=entity,
                      player_id="p0001" if kind == "human" else None)


def session(rng: np.random.Generator, strengths: np.ndarray, ended_at: float) -> MatchRecord:
    """One finished, shared session: a two-seat match, or (one in ten) a GAMA-Bench table."""
    if rng.random() < 0.9:
        game = TWO_SEAT_GAMES[rng.integers(len(TWO_SEAT_GAMES))]
        a, b = rng.choice(len(AGENTS), 2, replace=False)
        p = 1 / (1 + np.exp(strengths[b] - strengths[a]))
        s = 0.5 if rng.random() < 0.05 else float(rng.random() < p)
        return MatchRecord(game=game, params={}, seed=0, seats=[_seat(AGENTS[a]),
                                                                _seat(AGENTS[b])],
                           scores=[s, 1 - s], returns=[2 * s - 1, 1 - 2 * s],
                           outcome="normal", started_at=ended_at - 60, ended_at=ended_at)
    game = GAMA_GAMES[rng.integers(len(GAMA_GAMES))]
    who = [GAMA_AGENTS[i] for i in rng.integers(len(GAMA_AGENTS), size=10)]
    raw = rng.random(10) * 100
    by_entity: dict[str, list[float]] = {}
    for entity, x in zip(who, raw, strict=True):
        by_entity.setdefault(entity, []).append(float(x))
    gama = {"complete": True, "comparable": True,
            "entities": {e: {"score": float(np.mean(v))} for e, v in by_entity.items()},
            "seats": [{"score": float(x)} for x in raw]}
    return MatchRecord(game=game, params={}, seed=0, seats=[_seat(e) for e in who],
                       scores=list((raw.argsort().argsort() / 9).round(4)), returns=list(raw),
                       outcome="normal", metrics={"gama": gama}, started_at=ended_at - 600,
                       ended_at=ended_at)


def build_store(path: Path, sessions: int, seed: int = 1) -> None:
    rng = np.random.default_rng(seed)
    strengths = rng.normal(0, 1, len(AGENTS))
    start = time.time() - sessions - 86400
    with Store(path) as store:
        for k in range(sessions):
            store.save(session(rng, strengths, start + k))


def _writer(path: str, seconds: int, out: multiprocessing.Queue) -> None:
    """Store one session per second; report (sessions stored, when) after each."""
    rng = np.random.default_rng(99)
    strengths = rng.normal(0, 1, len(AGENTS))
    with Store(path) as store:
        first = time.monotonic()
        for k in range(seconds):
            time.sleep(max(0.0, first + k + 1 - time.monotonic()))
            store.save(session(rng, strengths, time.time()))
            out.put((k + 1, time.monotonic()))
    out.put(None)


@dataclass
class PlayResult:
    sessions: int
    first_view: tuple[float, float]  # wall, CPU seconds: the first full view at start-up
    cpu_share: float  # of one core, while sessions were stored
    delays: list[float]  # per stored session: seconds until the view counted it
    refreshes: int  # full (bootstrap) views computed in the background
    pending_max: int  # most matches a view showed without their intervals


def play(store_path: Path | None, sessions: int, seconds: int) -> PlayResult:
    """The scenario; ``store_path`` holds (or will hold) the synthetic store of ``sessions``."""
    base = store_path or Path(tempfile.gettempdir()) / f"arena-ratings-bench-{sessions}.sqlite3"
    if not base.exists():
        print(f"  building a synthetic store of {sessions:,} sessions in {base} ...",
              flush=True)
        build_store(base, sessions)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "arena.sqlite3"
        shutil.copy(base, path)
        with Store(path) as store:
            return _play(store, path, seconds)


def _play(store: Store, path: Path, seconds: int) -> PlayResult:
    board = Leaderboard(store, live=True)
    wall, cpu = time.perf_counter(), time.process_time()
    first = board.view()
    first_view = (time.perf_counter() - wall, time.process_time() - cpu)
    before = first.report.overall.matches
    queue: multiprocessing.Queue = multiprocessing.get_context("spawn").Queue()
    writer = multiprocessing.get_context("spawn").Process(
        target=_writer, args=(str(path), seconds, queue), daemon=True)
    writer.start()
    stored: dict[int, float] = {}
    seen: dict[int, float] = {}
    pending_max = 0
    refreshes_before = board.refreshes
    wall, cpu = time.perf_counter(), time.process_time()
    done = False
    while not done or len(seen) < len(stored):
        while not queue.empty():
            item = queue.get()
            if item is None:
                done = True
            else:
                stored[item[0]] = item[1]
        view = board.view()
        now = time.monotonic()
        counted = view.report.overall.matches - before
        pending_max = max(pending_max, view.pending)
        for k in stored:
            if k <= counted and k not in seen:
                seen[k] = now
        if done and time.perf_counter() - wall > seconds + 30:
            break
        time.sleep(POLL)
    elapsed, spent = time.perf_counter() - wall, time.process_time() - cpu
    writer.join(timeout=10)
    board.close()
    return PlayResult(store.count(), first_view, spent / elapsed,
                      [seen[k] - stored[k] for k in sorted(seen)],
                      board.refreshes - refreshes_before, pending_max)


def report(result: PlayResult) -> list[str]:
    delays = np.array(result.delays) if result.delays else np.array([np.nan])
    return [
        f"  store: {result.sessions:,} sessions at the end; first full view at start-up "
        f"{result.first_view[0]:.1f} s wall, {result.first_view[1]:.1f} s CPU",
        f"  while one session was stored per second: this process used "
        f"{result.cpu_share:.1%} of one core (reading, point ratings, background bootstrap, "
        f"the polls)",
        f"  a stored session counted in the view after: median {np.median(delays):.2f} s, "
        f"max {np.max(delays):.2f} s (polled every {POLL} s; the tab polls every 3 s, so on "
        f"the page at most {np.max(delays) + 3:.1f} s)",
        f"  background bootstraps: {result.refreshes}; a view held at most "
        f"{result.pending_max} matches whose intervals were still being refreshed"]
