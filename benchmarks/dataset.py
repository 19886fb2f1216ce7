"""How long ``python -m sessions dataset`` takes, and how much memory, on a big store.

    python -m benchmarks.dataset [--sessions 100000] [--mix all|people] [--keep DIR]

The store holds copies (new ids, a person in seat 0 of most, one in ten not shared for
research, five thousand people) of real sessions between random agents: ``--mix all`` one
of every game in turn (all 27 games, GAMA-Bench's ten-seat tables of 200 moves and Pit's
400 included: about 100 moves a session), ``--mix people`` the two-seat games people play
on the page (tic-tac-toe, Connect Four, Kuhn poker, nim, liar's dice, breakthrough; about
20 moves a session). The dataset is built in a child process (``python -m sessions
dataset``, ``--workers N`` passed on), whose wall
time, CPU time (user + system of it and its workers; with one worker, what it takes on an
idle machine; the wall time grows with the machine's load, printed too) and peak resident
memory (the sum over it and its workers, sampled every 0.2 s) are printed. Target: <= 60 s
and <= 1 GB for 100,000 sessions.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from agents.specs import parse_spec
from games import registry
from sessions.fanout import play_one
from sessions.store import Store

PEOPLE_GAMES = ("tic_tac_toe", "connect_four", "kuhn_poker", "nim", "liars_dice",
                "breakthrough")


def samples(mix: str) -> list:
    games = [g.id for g in registry.all_games()] if mix == "all" else list(PEOPLE_GAMES)
    out = []
    for seed in range(2):
        for game in games:
            players = registry.get(game).taxonomy.players
            out.append(play_one(game, [parse_spec("random")] * players, seed=seed))
    return out


def build_store(path: Path, sessions: int, mix: str) -> None:
    base = samples(mix)
    with Store(path) as store:
        store.save(base[0])
    dicts = [record.to_dict() for record in base]
    db = sqlite3.connect(path)
    with db:
        for start in range(0, sessions, 5_000):
            matches, rows = [], []
            for i in range(start, min(sessions, start + 5_000)):
                record = dict(dicts[i % len(dicts)])
                seats = [dict(seat) for seat in record["seats"]]
                shared = i % 10 != 0
                if i % 4 != 3:  # three sessions in four have a person in seat 0
                    seats[0].update(kind="human", spec="human", entity="human",
                                    player_id=f"player-{i % 5000:05d}",
                                    display_name=f"Name {i % 5000}",
                                    settings={"consent": shared, "talk": i % 3 == 0})
                record.update(id=uuid.uuid4().hex, seats=seats, ended_at=1.7e9 + i * 60,
                              research_use=shared)
                matches.append((record["id"], record["game"], record["outcome"], int(shared),
                                record["started_at"], record["ended_at"],
                                json.dumps(record, separators=(",", ":"), sort_keys=True), "",
                                i + 2))
                scores, returns = record["scores"], record["returns"]
                rows += [(record["id"], n, s["kind"], s["entity"], s["player_id"],
                          scores[n] if scores else None, returns[n] if returns else None,
                          s["team"]) for n, s in enumerate(seats)]
            db.executemany("INSERT INTO matches (id, game, outcome, research_use, started_at, "
                           "ended_at, record, tags, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           matches)
            db.executemany("INSERT INTO seats (match_id, seat, kind, entity, player_id, score, "
                           "return, team) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sessions", type=int, default=100_000)
    parser.add_argument("--mix", choices=["all", "people"], default="all")
    parser.add_argument("--keep", type=Path, default=None, help="build the store here")
    parser.add_argument("--workers", type=int, default=None,
                        help="passed to python -m sessions dataset (default 1: no workers)")
    parser.add_argument("--check", action="store_true",
                        help="then load every table with the datasets library and look for "
                             "page ids and display names in every text column")
    args = parser.parse_args(argv)
    folder = args.keep or Path(tempfile.mkdtemp(prefix="arena-dataset-"))
    path = folder / f"arena-{args.mix}-{args.sessions}.sqlite3"
    if not path.exists():
        start = time.perf_counter()
        build_store(path, args.sessions, args.mix)
        print(f"built a store of {args.sessions:,} sessions ({args.mix}) in "
              f"{time.perf_counter() - start:.0f} s")
    print(f"store: {path} ({path.stat().st_size / 2**20:.0f} MiB)")
    out = folder / f"dataset-{args.mix}"
    start = time.perf_counter()
    command = [sys.executable, "-m", "sessions", "dataset", str(out), "--db", str(path)]
    if args.workers is not None:
        command += ["--workers", str(args.workers)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=_env(folder))
    peak_bytes = 0
    while child.poll() is None:
        peak_bytes = max(peak_bytes, tree_rss(child.pid))
        time.sleep(0.2)
    stdout, stderr = child.communicate()
    seconds = time.perf_counter() - start
    if child.returncode:
        print(stderr, file=sys.stderr)
        return child.returncode
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the workers' time included
    largest = usage.ru_maxrss / 2**20  # KiB -> GiB
    peak = max(peak_bytes / 2**30, largest)
    cpu = usage.ru_utime + usage.ru_stime
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file()) / 2**20
    print(stderr.strip())
    workers = args.workers or 1
    print(json.dumps({"sessions": args.sessions, "mix": args.mix, "workers": workers,
                      "seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1),
                      "load_average": os.getloadavg()[0], "peak_rss_gib": round(peak, 2),
                      "largest_process_gib": round(largest, 2), "dataset_mib": round(size, 1)}))
    if args.check:
        check(out)
    cores = os.cpu_count() or 1
    print(f"target (<= 60 s and <= 1 GB at {args.sessions:,} sessions): wall "
          f"{'met' if seconds <= 60 else 'NOT met'} ({seconds:.0f} s with {workers} "
          f"worker{'s' if workers != 1 else ''} at a load average of "
          f"{os.getloadavg()[0]:.1f} on {cores} cores), CPU "
          f"{'met' if cpu <= 60 else 'NOT met'} ({cpu:.0f} s: "
          + ("the wall time on an idle machine" if workers == 1 else
             f"spread over {workers} workers on an idle machine")
          + f"), memory {'met' if peak <= 1 else 'NOT met'} ({peak:.2f} GiB, every "
          "process together)")
    return 0


def tree_rss(pid: int) -> int:
    """Resident bytes of process ``pid`` and its descendants (Linux /proc; 0 elsewhere)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    tree, grown = {pid}, True
    while grown:
        more = {child for child, parent in parents.items() if parent in tree} - tree
        grown = bool(more)
        tree |= more
    total = 0
    for member in tree:
        try:
            total += int((Path("/proc") / str(member) / "statm").read_text().split()[1])
        except (OSError, IndexError, ValueError):
            continue
    return total * os.sysconf("SC_PAGE_SIZE")


def check(out: Path) -> None:
    """Load each table with ``datasets`` and scan its text columns for what must not be
    there (the benchmark's page ids are ``player-NNNNN``, its display names ``Name N``)."""
    import datasets
    import pyarrow as pa
    import pyarrow.compute as pc

    cache = tempfile.mkdtemp(prefix="arena-dataset-cache-")
    for table in ("sessions", "seats", "moves", "rejected", "talk", "llm_calls"):
        if not (out / "data" / table).exists():
            print(f"check: {table}: no rows (no configuration)")
            continue
        loaded = datasets.load_dataset(str(out), table, cache_dir=cache)["train"]
        arrow = loaded.data.table
        leaks = 0
        for column in arrow.columns:
            if pa.types.is_string(column.type) or pa.types.is_large_string(column.type):
                for bad in ("player-", "Name "):
                    leaks += pc.sum(pc.match_substring(column, bad)).as_py() or 0
        games = len(set(loaded["session_id"])) if table == "sessions" else None
        print(f"check: {table}: {loaded.num_rows:,} rows loaded with datasets"
              + (f" ({games:,} sessions)" if games is not None else "")
              + f", page ids or display names found: {leaks}")
    first = datasets.load_dataset(str(out), cache_dir=cache)["train"]
    print(f"check: games in the dataset: {len(set(first['game']))}")


def _env(folder: Path) -> dict[str, str]:
    return {**os.environ, "ARENA_DATASET_SALT": "benchmark-salt-not-secret-0123456789"}


if __name__ == "__main__":
    sys.exit(main())
