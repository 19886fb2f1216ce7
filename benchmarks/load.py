"""A crowd on one machine: the app (``python app.py``) and a load generator side by side.

    python -m benchmarks.load [--players 50] [--pace 2] [--seconds 60] [--app-root DIR]
                              [--skip-saturation] [--database-url URL]

Targets (issue 15), for a 2-core machine running both the app and this generator:

1. **cheap**: server CPU per ``/move`` of tic-tac-toe against random, one client playing
   without pause: <= 5 ms.
2. **crowd**: 50 players at a person's pace (a move every 2 s each, open loop: a move is due
   2 s after the previous one was due, and its latency counts from when it was due) against
   MCTS (the app's default ``mcts``: 1000 simulations, 2 s cap), half on connect four, half
   on tic-tac-toe: ``/move`` p95 <= 300 ms, and no MCTS reply cut short by its clock: each
   runs its 1000 simulations, or fewer only when its solver proved the position (read from
   the stored records, where each MCTS move says how its search ended).
3. **saturation**: the same mix at rising rates; the largest rate (moves/s) whose ``/move``
   p95 stays <= 1 s.

Server CPU is the app process's own (``/proc/PID/stat``: all its threads); the generator's
CPU is this process's (``getrusage``); both are printed per request so the figures mean
something on a shared machine. The generator speaks Gradio's queue protocol (``POST
/gradio_api/queue/join``, then the session's SSE stream) over one pooled asyncio HTTP
client, as a browser tab would, instead of gradio_client (which opens new HTTP clients per
call and costs ~40 ms of CPU per request, more than the server).

``--app-root`` runs another checkout's app (to measure a "before"); ``--database-url`` runs
the app on PostgreSQL instead of SQLite; ``--nice -10`` (root) raises the priority of the
app, the generator and their session on a machine shared with other jobs. "Serving a crowd"
in docs/benchmarks.md has the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from benchmarks import percentile

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")


# --- the app and its CPU -------------------------------------------------------------------


@dataclass
class App:
    proc: subprocess.Popen[bytes]
    url: str
    data_dir: Path

    def cpu(self) -> float:
        """CPU seconds the app process has used (user + system, every thread)."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICK

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def start_app(root: Path, data_dir: Path, *, env: dict[str, str] | None = None,
              nice: int = 0) -> App:
    port = free_port()
    environ = {**os.environ, "ARENA_DATA_DIR": str(data_dir), "GRADIO_SERVER_NAME": "127.0.0.1",
               "GRADIO_SERVER_PORT": str(port), "PYTHONPATH": str(root),
               "PYTHONUNBUFFERED": "1", **(env or {})}
    data_dir.mkdir(parents=True, exist_ok=True)
    log = (data_dir / "app.log").open("w")
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=root, env=environ, stdout=log,
                            stderr=subprocess.STDOUT,
                            preexec_fn=(lambda: os.setpriority(os.PRIO_PROCESS, 0, nice))
                            if nice else None)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the app exited:\n{(data_dir / 'app.log').read_text()}")
        try:
            if httpx.get(url + "/config", timeout=2).status_code == 200:
                return App(proc, url, data_dir)
        except httpx.HTTPError:
            time.sleep(0.3)
    proc.kill()
    raise RuntimeError("the app did not start within 120 s")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def machine_cpu() -> float:
    """CPU seconds every process on the machine has used (all cores; /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / TICK


def own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# --- Gradio's queue protocol, lean ----------------------------------------------------------


class Api:
    """Calls the app's named endpoints as one browser tab (session) would."""

    def __init__(self, url: str) -> None:
        self.url = url
        config = httpx.get(url + "/config", timeout=30).json()
        self.prefix = config.get("api_prefix", "/gradio_api")
        kinds = {c["id"]: c["type"] for c in config["components"]}
        self.endpoints: dict[str, tuple[int, list[bool]]] = {
            d["api_name"]: (d["id"], [kinds[i] == "state" for i in d["inputs"]])
            for d in config["dependencies"] if d.get("api_name")}

    async def call(self, http: httpx.AsyncClient, session: str, name: str, *args: Any) -> Any:
        fn, states = self.endpoints[name]
        given = iter(args)  # inputs not given (optional ones) are sent empty
        data = [None if state else next(given, None) for state in states]
        joined = await http.post(f"{self.url}{self.prefix}/queue/join", json={
            "data": data, "fn_index": fn, "trigger_id": None, "event_data": None,
            "session_hash": session})
        joined.raise_for_status()
        event = joined.json()["event_id"]
        async with http.stream("GET", f"{self.url}{self.prefix}/queue/data",
                               params={"session_hash": session}) as stream:
            async for line in stream.aiter_lines():
                if not line.startswith("data:"):
                    continue
                message = json.loads(line[5:])
                if message.get("event_id") != event or message["msg"] != "process_completed":
                    continue
                if not message.get("success"):
                    raise RuntimeError(f"/{name} failed: {message.get('output')}")
                return [x for x in message["output"]["data"] if x is not None][-1]
        raise RuntimeError(f"/{name}: the stream ended without a result")


# --- players --------------------------------------------------------------------------------


@dataclass
class Tally:
    moves: list[float] = field(default_factory=list)
    """/move latency from when the move was due (s)."""
    service: list[float] = field(default_factory=list)
    """/move latency from when it was sent (s)."""
    new_games: list[float] = field(default_factory=list)
    errors: Counter[str] = field(default_factory=Counter)


async def player(api: Api, http: httpx.AsyncClient, game: str, opponent: str, pace: float,
                 start: float, stop: float, tally: Tally, rng: random.Random) -> None:
    """One person: a game against ``opponent``, a move due every ``pace`` seconds."""
    session = uuid.uuid4().hex[:11]
    due = start
    await asyncio.sleep(max(0.0, due - time.monotonic()))
    state = None
    while due < stop:
        try:
            if state is None or state["over"]:
                sent = time.monotonic()
                state = await api.call(http, session, "new_game", game, opponent, "first", "",
                                       True, "")
                tally.new_games.append(time.monotonic() - sent)
            else:
                sent = time.monotonic()
                state = await api.call(http, session, "move", rng.choice(state["legal"]))
                done = time.monotonic()
                tally.moves.append(done - due)
                tally.service.append(done - sent)
        except (httpx.HTTPError, RuntimeError) as err:
            tally.errors[type(err).__name__] += 1
            state = None
        due += pace
        await asyncio.sleep(max(0.0, due - time.monotonic()))
    if state is not None and not state["over"]:
        try:
            await api.call(http, session, "end_game")  # stored as abandoned, with its moves
        except (httpx.HTTPError, RuntimeError):
            pass


async def crowd(api: Api, players: int, pace: float, seconds: float, opponent: str,
                games: list[str], seed: int = 0) -> Tally:
    tally = Tally()
    rng = random.Random(seed)
    limits = httpx.Limits(max_connections=4 * players, max_keepalive_connections=2 * players)
    async with httpx.AsyncClient(timeout=httpx.Timeout(120.0), limits=limits) as http:
        start = time.monotonic() + 1.0
        stop = start + seconds
        await asyncio.gather(*(
            player(api, http, games[i % len(games)], opponent, pace,
                   start + pace * i / players, stop, tally, random.Random(rng.random()))
            for i in range(players)))
    return tally


@dataclass
class Cheap:
    moves: list[float] = field(default_factory=list)
    """/move round trips (s)."""
    move_cpu: float = 0.0
    new_games: int = 0
    new_game_cpu: float = 0.0


async def cheap(api: Api, moves: int, server_cpu: Any) -> Cheap:
    """One client playing tic-tac-toe against random without pause; the server's CPU is
    read around every call (the server does nothing else), so /move and /new_game are
    charged apart (the clock ticks at 100 Hz; over hundreds of calls the sums are fair)."""
    out = Cheap()
    async with httpx.AsyncClient(timeout=60.0) as http:
        session, state = uuid.uuid4().hex[:11], None
        rng = random.Random(1)
        while len(out.moves) < moves:
            before = server_cpu()
            if state is None or state["over"]:
                state = await api.call(http, session, "new_game", "tic_tac_toe", "random",
                                       "first", "", True, "")
                out.new_games += 1
                out.new_game_cpu += server_cpu() - before
                continue
            sent = time.monotonic()
            state = await api.call(http, session, "move", rng.choice(state["legal"]))
            out.moves.append(time.monotonic() - sent)
            out.move_cpu += server_cpu() - before
    return out


# --- reading the records ----------------------------------------------------------------------


def mcts_searches(data_dir: Path, database_url: str | None, since: float) -> Counter[str]:
    """How every stored MCTS reply since ``since`` ended: ``count`` (its full simulation
    count), ``solved`` (fewer: the search proved the position, nothing left to search),
    ``clock`` (cut by its time cap), from each move's meta (older versions of the app
    recorded only ``simulations``: the count, ``time-capped`` or ``probe only``)."""
    found: Counter[str] = Counter()
    if database_url:
        import psycopg

        with psycopg.connect(database_url) as conn:
            rows = conn.execute("SELECT record FROM matches WHERE started_at >= %s",
                                (since,)).fetchall()
    else:
        db = sqlite3.connect(data_dir / "arena.sqlite3")
        rows = db.execute("SELECT record FROM matches WHERE started_at >= ?", (since,)).fetchall()
        db.close()
    for (text,) in rows:
        record = json.loads(text)
        mcts = {i for i, s in enumerate(record["seats"]) if s["kind"] == "mcts"}
        for move in record["moves"]:
            if move["seat"] in mcts:
                meta = move["meta"]
                how = meta.get("stopped") or ("count" if isinstance(meta.get("simulations"), int)
                                              else "clock")
                found[how] += 1
    return found


def searched(searches: Counter[str]) -> str:
    """How the MCTS replies searched, in one line."""
    total = sum(searches.values())
    parts = [f"{searches.get(k, 0)} {label}" for k, label in (
        ("count", "ran their 1000 simulations"),
        ("solved", "proved the position sooner (solver: nothing left to search)"),
        ("clock", "were cut short by the 2 s clock"))]
    other = {k: n for k, n in searches.items() if k not in ("count", "solved", "clock")}
    return (f"MCTS replies stored: {total}: " + ", ".join(parts)
            + (f", other: {other}" if other else ""))


# --- the report ---------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def line(label: str, times: list[float]) -> str:
    if not times:
        return f"{label}: none"
    return (f"{label}: n={len(times)}  p50 {ms(percentile(times, 50))}  "
            f"p95 {ms(percentile(times, 95))}  max {ms(max(times))}")


@dataclass
class Cpu:
    """CPU seconds over one run: the app, this generator, everything else on the machine."""

    server: float
    generator: float
    others: float
    wall: float

    def cores(self) -> str:
        return (f"CPU in cores: app {self.server / self.wall:.2f}, generator "
                f"{self.generator / self.wall:.2f}, other processes {self.others / self.wall:.2f}")


def run_crowd(app: App, api: Api, args: argparse.Namespace, players: int, pace: float,
              seconds: float) -> tuple[Tally, Cpu]:
    server, mine, machine, wall = app.cpu(), own_cpu(), machine_cpu(), time.monotonic()
    tally = asyncio.run(crowd(api, players, pace, seconds, args.opponent, args.games))
    server, mine = app.cpu() - server, own_cpu() - mine
    others = max(0.0, machine_cpu() - machine - server - mine)
    return tally, Cpu(server, mine, others, time.monotonic() - wall)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--pace", type=float, default=2.0, help="seconds between a player's moves")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of the crowd run")
    parser.add_argument("--opponent", default="mcts")
    parser.add_argument("--games", nargs="+", default=["connect_four", "tic_tac_toe"])
    parser.add_argument("--cheap-moves", type=int, default=300)
    parser.add_argument("--app-root", type=Path, default=ROOT)
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--skip-saturation", action="store_true")
    parser.add_argument("--rates", type=float, nargs="+", default=[25, 50, 75, 100, 150, 200],
                        help="saturation steps, moves per second")
    parser.add_argument("--step-seconds", type=float, default=20.0)
    parser.add_argument("--nice", type=int, default=0,
                        help="run the app and the generator at this niceness, and their "
                             "session's autogroup too (e.g. -10 on a machine shared with other "
                             "jobs, to measure the app as if alone; negative values need root)")
    args = parser.parse_args(argv)
    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)
        autogroup = Path("/proc/self/autogroup")  # Linux shares CPU between sessions first
        if autogroup.exists():
            autogroup.write_text(str(args.nice))

    data_dir = Path(tempfile.mkdtemp(prefix="arena-load-"))
    env = {"DATABASE_URL": args.database_url} if args.database_url else {}
    app = start_app(args.app_root.resolve(), data_dir, env=env, nice=args.nice)
    print(f"app: {args.app_root.resolve()} ({app.url}, pid {app.proc.pid}), "
          f"store: {'PostgreSQL' if args.database_url else data_dir / 'arena.sqlite3'}")
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start"
          + (f"; app and generator at niceness {args.nice}" if args.nice else ""))
    try:
        api = Api(app.url)
        # 1. one client, tic-tac-toe against random
        asyncio.run(cheap(api, 20, app.cpu))  # warm up
        mine, machine, server, wall = own_cpu(), machine_cpu(), app.cpu(), time.monotonic()
        one = asyncio.run(cheap(api, args.cheap_moves, app.cpu))
        mine, server = own_cpu() - mine, app.cpu() - server
        busy = Cpu(server, mine, max(0.0, machine_cpu() - machine - server - mine),
                   time.monotonic() - wall)
        calls = len(one.moves) + one.new_games
        print("\n1. tic-tac-toe vs random, one client without pause")
        print("   " + line("/move round trip", one.moves))
        print(f"   server CPU per /move {one.move_cpu / len(one.moves) * 1000:.1f} ms "
              f"(target <= 5 ms), per /new_game {one.new_game_cpu / one.new_games * 1000:.1f} ms"
              f" ({len(one.moves)} /move, {one.new_games} /new_game); generator CPU per "
              f"request {mine / calls * 1000:.1f} ms")
        print(f"   {busy.cores()}")

        # 2. the crowd
        since = time.time()
        tally, cpu = run_crowd(app, api, args, args.players, args.pace, args.seconds)
        calls = len(tally.moves) + len(tally.new_games)
        print(f"\n2. {args.players} players, a move every {args.pace:g} s each (open loop), "
              f"vs {args.opponent} on {' and '.join(args.games)}, {args.seconds:g} s")
        print("   " + line("/move from when it was due", tally.moves) + "   (target p95 <= 300 ms)")
        print("   " + line("/move from when it was sent", tally.service))
        print("   " + line("/new_game", tally.new_games))
        print(f"   {len(tally.moves) / cpu.wall:.1f} moves/s; server CPU "
              f"{cpu.server / max(calls, 1) * 1000:.1f} ms per request, generator CPU "
              f"{cpu.generator / max(calls, 1) * 1000:.1f} ms per request; errors "
              f"{dict(tally.errors) or 0}")
        print(f"   {cpu.cores()} (of {os.cpu_count()})")
        time.sleep(2)
        print("   " + searched(mcts_searches(data_dir, args.database_url, since)))

        # 3. saturation
        if not args.skip_saturation:
            print(f"\n3. saturation: {args.players} players, the same mix, rising rates "
                  f"({args.step_seconds:g} s each)")
            best = None
            for rate in args.rates:
                pace = args.players / rate
                tally, cpu = run_crowd(app, api, args, args.players, pace, args.step_seconds)
                p95 = percentile(tally.moves, 95) if tally.moves else float("inf")
                achieved = len(tally.moves) / cpu.wall
                print(f"   offered {rate:5.0f} calls/s: {achieved:5.1f} moves/s served, /move p95 "
                      f"{ms(p95)}; {cpu.cores()}")
                if p95 > 1.0:
                    break
                best = achieved
            print(f"   sustained with p95 <= 1 s: {best:.1f} moves/s" if best else
                  "   not even the first rate held p95 <= 1 s")

        # 4. the cheap game again, after all those events (Gradio's queue keeps their timings)
        mine = own_cpu()
        again = asyncio.run(cheap(api, args.cheap_moves, app.cpu))
        mine = own_cpu() - mine
        print("\n4. tic-tac-toe vs random again, after the runs above")
        print("   " + line("/move round trip", again.moves))
        print(f"   server CPU per /move {again.move_cpu / len(again.moves) * 1000:.1f} ms, per "
              f"/new_game {again.new_game_cpu / again.new_games * 1000:.1f} ms; generator CPU "
              f"per request {mine / (len(again.moves) + again.new_games) * 1000:.1f} ms")
    finally:
        app.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
