"""What the store's checks cost on a big store: opening a 100,000-session SQLite store for
writing (``PRAGMA quick_check`` included) and read-only (no check), and the calls the app
makes often (``revision``, one player's History list).

    python -m benchmarks.store [--sessions 100000] [--keep DIR]

The sessions are copies (new ids) of real records of tic-tac-toe, connect four and Kuhn
poker between MCTS and random, so the file has the size and shape of real use.
"""

from __future__ import annotations

import argparse
import dataclasses
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

from agents.specs import parse_spec
from sessions.store import Store
from sessions.tournament import play_one


def build(path: Path, sessions: int) -> None:
    """A store of ``sessions`` sessions (copies of 60 real ones under new ids)."""
    seats = {"tic_tac_toe": ["mcts:100:0s", "random"], "connect_four": ["mcts:100:0s", "random"],
             "kuhn_poker": ["ismcts:100:0s", "random"]}
    samples = [play_one(game, [parse_spec(s) for s in specs], seed=seed)
               for game, specs in seats.items() for seed in range(20)]
    with Store(path) as store:
        store.save(samples[0])
    db = sqlite3.connect(path)
    with db:
        for start in range(0, sessions, 10_000):
            matches, rows = [], []
            for i in range(start, min(sessions, start + 10_000)):
                record = dataclasses.replace(samples[i % len(samples)], id=uuid.uuid4().hex,
                                             ended_at=1.7e9 + i)
                matches.append((record.id, record.game, record.outcome, 1, record.started_at,
                                record.ended_at, record.to_json()))
                rows += [(record.id, seat, s.kind, s.entity, f"player-{i % 5000:05d}",
                          record.scores[seat] if record.scores else None,
                          record.returns[seat] if record.returns else None)
                         for seat, s in enumerate(record.seats)]
            db.executemany("INSERT INTO matches (id, game, outcome, research_use, started_at, "
                           "ended_at, record) VALUES (?, ?, ?, ?, ?, ?, ?)", matches)
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def timed(call, repeat: int = 3) -> float:  # noqa: ANN001
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=100_000)
    parser.add_argument("--keep", type=Path, default=None, help="build the store here")
    args = parser.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="arena-store-"))
    path = folder / "arena.sqlite3"
    if not path.exists():
        start = time.perf_counter()
        build(path, args.sessions)
        print(f"built {args.sessions} sessions in {time.perf_counter() - start:.1f} s")
    size = path.stat().st_size / 2**20
    with Store(path) as store:
        count = store.count()
    print(f"store: {path} ({count} sessions, {size:.0f} MiB)")
    write = timed(lambda: Store(path).close())
    read = timed(lambda: Store(path, readonly=True).close())

    def check_only() -> None:
        db = sqlite3.connect(path)
        db.execute("PRAGMA quick_check(5)").fetchall()
        db.close()

    check = timed(check_only)
    print(f"open for writing (quick_check included): {write * 1000:.0f} ms")
    print(f"  of which PRAGMA quick_check: {check * 1000:.0f} ms "
          f"({check / max(count, 1) * 1e6:.1f} µs per session)")
    print(f"open read-only (no check): {read * 1000:.1f} ms")
    with Store(path) as store:
        print(f"revision(): {timed(store.revision, 20) * 1000:.2f} ms;  one player's History "
              f"list: {timed(lambda: store.summaries(player_id='player-00042'), 20) * 1000:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
