"""What spectators cost: the app (``python app.py``) with people playing and hundreds of
spectator pages following their games, on one machine with the load generator.

    python -m benchmarks.spectators [--spectators 500] [--games 20] [--players 50] [--pace 2]
        [--seconds 40] [--ramp 60] [--opponent mcts] [--watched-game santorini:random]
        [--long-poll] [--arrive-while-playing] [--rejoin] [--nice -10]
    python -m benchmarks.spectators --freeze 40 [--app-root DIR]
    python -m benchmarks.spectators --per-move [--moves 30]

**The crowd** (default; issue 24's targets): ``--players`` people play at a person's pace (a
move every ``--pace`` s each, open loop, as ``benchmarks.load``: half connect four, half
tic-tac-toe against ``--opponent``, except the first ``--games`` of them, who play
``--watched-game``: a long game, so that spectators follow it for the whole run);
``--spectators`` spectator pages follow those ``--games`` games, 10 pages per client address
(127.0.0.2, .3, ...: the app admits 10 per address). A spectator page does what a browser
tab does (tests/spectator_pages.py): the link's two page-load events, then one streamed
response carrying every new screen (``--long-poll``: one request per screen, the page's
fallback). The pages arrive over ``--ramp`` s while the people's games wait for their first
move (``--arrive-while-playing``: while they play), then the people play for ``--seconds``;
a spectator whose game ends leaves (``--rejoin``: opens the person's next game 0-10 s later,
a new page each time). Printed: the people's ``/move`` latency (target p95 <= 300 ms), how
long after the person's ``/move`` was answered (and sent) each spectator had the screen
with that move (target p95 <= 1 s), what opening a page took, the app's CPU; then the people
stop (their games wait for them), the spectators wait on idle games, and every spectator
page is closed at once: the app's CPU second by second until it is idle again (target:
within 10 s).

**The freeze** (``--freeze N``): one person's game waits for the person; ``N`` spectator pages
open its link and are closed; then another person's ``/new_game`` is timed (at most 30 s).
``--app-root DIR`` runs another checkout's app, e.g. one from before the broadcast (its pages
follow in a queue event: Gradio has 40 workers).

**Per move** (``--per-move``): in one process, no HTTP: a watched game between random agents
followed by 0, 1, 10, 50 and 500 spectators through the broadcast; process CPU per move.

Server CPU is the app process's (``/proc/PID/stat``); the generator's is this process's; the
rest of the machine's is printed apart, as ``benchmarks.load`` does. On a shared machine,
``--nice -10`` (root) raises the app's and the generator's priority (as ``benchmarks.load``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import percentile
from benchmarks.load import ROOT, App, machine_cpu, own_cpu, start_app
from tests.spectator_pages import Answer, Page, Session
from tests.spectator_pages import App as Pages

PLAYER = "benchmark-person"
PER_ADDRESS = 10
"""Spectator pages per client address (the app's default limit)."""
QUIET = 0.03
"""CPU (cores) above the app's idle that still counts as idle: the clock ticks at 100 Hz and
the machine is shared, so one second's reading wanders by a few hundredths."""


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def line(label: str, times: list[float]) -> str:
    if not times:
        return f"{label}: none"
    return (f"{label}: n={len(times)}  p50 {ms(percentile(times, 50))}  "
            f"p95 {ms(percentile(times, 95))}  max {ms(max(times))}")


def address(index: int) -> str:
    """The client address of spectator page ``index`` (10 pages each from 127.0.0.2 up)."""
    number = 2 + index // PER_ADDRESS
    return f"127.0.{number // 250}.{number % 250 + 2}" if number >= 250 else f"127.0.0.{number}"


# --- the crowd ------------------------------------------------------------------------------


@dataclass
class Crowd:
    games: dict[int, str] = field(default_factory=dict)
    """Each person's game now."""
    moved: list[tuple[str, int, float, float]] = field(default_factory=list)
    """(game, moves after, sent, answered) of every /move."""
    moves: list[tuple[float, float]] = field(default_factory=list)
    """(when it was due, /move latency from then)."""
    opens: list[tuple[float, float]] = field(default_factory=list)
    """(when, how long) of every spectator page's opening (its two page-load events)."""
    seen: dict[tuple[int, str], list[tuple[int, float]]] = field(
        default_factory=lambda: defaultdict(list))
    """(spectator, game) -> (moves on the screen, when it arrived), in order."""
    opened: dict[tuple[int, str], float] = field(default_factory=dict)
    done: dict[tuple[int, str], float] = field(default_factory=dict)
    """(spectator, game) -> when the page stopped following (the game ended, or it left)."""
    refused: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    playing: bool = True
    following: bool = True
    streams: bool = True
    """Pages read their screens as one stream (as the page's script does), else one request
    per screen (its fallback)."""
    go: asyncio.Event | None = None
    """Set when the people start moving (spectators arrive first), at ``go_at``."""
    go_at: float = 0.0
    pages: dict[int, Page] = field(default_factory=dict)


async def person(pages: Pages, index: int, game: str, opponent: str, pace: float, start: float,
                 crowd: Crowd, rng: random.Random, offset: float = 0.0) -> None:
    """One person: a game against ``opponent``, a move due every ``pace`` seconds from
    ``start``; with ``crowd.go`` (spectators arrive first), the game is made at once and the
    first move is due ``offset`` s after it is set."""
    session = Session(pages, "127.0.0.1")
    due, state = start, None
    await asyncio.sleep(max(0.0, due - time.monotonic()))
    if crowd.go is not None:
        state = await session.call("new_game", game, opponent, "first", PLAYER, True,
                                   f"Person {index}")
        crowd.games[index] = state["session"]
        await crowd.go.wait()
        due = crowd.go_at + offset
        await asyncio.sleep(max(0.0, due - time.monotonic()))
    while crowd.playing:
        try:
            if state is None or state["over"]:
                state = await session.call("new_game", game, opponent, "first", PLAYER, True,
                                           f"Person {index}")
                crowd.games[index] = state["session"]
            else:
                sent = time.monotonic()
                state = await session.call("move", rng.choice(state["legal"]))
                done = time.monotonic()
                crowd.moves.append((due, done - due))
                crowd.moved.append((state["session"], len(state["moves"]), sent, done))
        except (OSError, RuntimeError, ValueError) as err:
            crowd.errors[f"person: {type(err).__name__}"] += 1
            state = None
        due += pace
        await asyncio.sleep(max(0.0, due - time.monotonic()))


async def spectator(pages: Pages, index: int, followed: int, start: float, crowd: Crowd,
                    rejoin: bool = True) -> None:
    """One spectator of person ``followed``: opens the link of their game at ``start``; when
    that game ends, the link of their next one a few seconds later (as a person shown the
    new link would), unless not ``rejoin``."""
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    rng, last = random.Random(index), ""
    while crowd.following:
        game = crowd.games.get(followed, "")
        if not game or game == last:
            await asyncio.sleep(0.5)
            continue
        page = Page(pages, game, address(index))
        crowd.pages[index] = page
        try:
            opened = time.monotonic()
            first = await page.open()
            crowd.opens.append((opened, time.monotonic() - opened))
            if not page.ticket:
                over = "This game is over" in first or "Game over" in first
                crowd.refused["the game had ended (its replay)" if over else
                              first.split("<div id='watch-status'>", 1)[-1][:60]] += 1
                last = game if over else last  # wait for the person's next game
                await asyncio.sleep(2.0)
                continue
            key = (index, game)
            crowd.opened[key] = time.monotonic()
            while crowd.following:
                ended = False
                answers = page.screens() if crowd.streams else _one(page)
                async for answer in answers:
                    if answer.html is not None and answer.moves is not None:
                        crowd.seen[key].append((answer.moves, time.monotonic()))
                    ended = answer.done or answer.stopped
                if ended:
                    break
        except (OSError, RuntimeError, ValueError) as err:
            if crowd.following:
                crowd.errors[f"spectator: {type(err).__name__}"] += 1
        finally:
            crowd.done.setdefault((index, game), time.monotonic())
            if crowd.following:
                page.abandon()
        last = game
        if not rejoin:
            return
        await asyncio.sleep(rng.uniform(0.0, 10.0))


async def _one(page: Page) -> AsyncIterator[Answer]:
    yield await page.next()


def delivery(crowd: Crowd, since: float,
             until: float) -> tuple[list[float], list[float], int]:
    """For every move sent between ``since`` and ``until`` while a spectator followed its
    game: from the /move's answer and from its sending to the spectator's first screen with
    it; and how many never arrived."""
    after_answer, after_sending, missed = [], [], 0
    by_game: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for (index, game) in crowd.seen.keys() | crowd.opened.keys():
        by_game[game].append((index, game))
    for game, count, sent, answered in crowd.moved:
        if not since <= sent < until:
            continue
        for key in by_game.get(game, []):
            if crowd.opened.get(key, float("inf")) >= sent:
                continue
            arrivals = crowd.seen.get(key, [])
            shown = [t for moves, t in arrivals if moves >= count]
            if not shown:
                missed += 1
                continue
            after_answer.append(shown[0] - answered)
            after_sending.append(shown[0] - sent)
    return after_answer, after_sending, missed


async def crowd_run(app: App, args: argparse.Namespace) -> None:
    pages = Pages.read(app.url)
    crowd = Crowd(streams=not args.long_poll)
    first = not args.arrive_while_playing  # the spectators arrive before the people move
    if first:
        crowd.go = asyncio.Event()
    rng = random.Random(7)
    start = time.monotonic() + 1.0
    names = ["connect_four", "tic_tac_toe"]
    watched = args.watched_game.split(":") if args.watched_game not in ("", "mix") else []

    def plays(i: int) -> tuple[str, str]:
        if watched and i < args.games:
            return watched[0], watched[1] if len(watched) > 1 else args.opponent
        return names[i % 2], args.opponent

    people = [asyncio.ensure_future(person(
        pages, i, *plays(i), args.pace, start + (0.05 if first else args.pace) * i / args.players,
        crowd, random.Random(rng.random()), args.pace * i / args.players))
        for i in range(args.players)]
    while len(crowd.games) < (args.players if first else min(args.games, args.players)):
        await asyncio.sleep(0.2)
    began = time.monotonic()
    watchers = [asyncio.ensure_future(spectator(pages, i, i % args.games,
                                                began + args.ramp * i / args.spectators, crowd,
                                                args.rejoin))
                for i in range(args.spectators)]
    await asyncio.sleep(max(0.0, began + args.ramp - time.monotonic()))
    if crowd.go is not None:
        while len(crowd.opens) < args.spectators and time.monotonic() < began + 4 * args.ramp:
            await asyncio.sleep(0.5)
        crowd.go_at = time.monotonic() + 1.0
        crowd.go.set()
        await asyncio.sleep(1.0)
    server, mine, machine, wall = app.cpu(), own_cpu(), machine_cpu(), time.monotonic()
    counted = []
    while time.monotonic() < wall + args.seconds:
        await asyncio.sleep(1.0)
        counted.append(sum(1 for key, at in crowd.opened.items() if not crowd.done.get(key)))
    server, mine = app.cpu() - server, own_cpu() - mine
    until = time.monotonic()
    elapsed = until - wall
    others = max(0.0, machine_cpu() - machine - server - mine)
    crowd.playing = False
    await asyncio.gather(*people)
    after_answer, after_sending, missed = delivery(crowd, wall, until)
    following = sum(1 for page in crowd.pages.values() if page.ticket)
    ramp = [t for at, t in crowd.opens if at < wall]
    steady = [t for at, t in crowd.opens if wall <= at < until]
    how_arrive = f"arriving over {args.ramp:g} s" + (" before the people move" if first else "")
    how_end = ("when a game ends, its spectators open the person's next one 0-10 s later"
               if args.rejoin else "when a game ends, its spectators leave")
    watched_games = (f", the followed ones {args.watched_game}"
                     if args.watched_game not in ("", "mix") else "")
    reading = "one request per screen" if args.long_poll else "one stream each"
    print(f"\n1. {args.players} people (a move every {args.pace:g} s each, vs {args.opponent}, "
          f"connect four and tic-tac-toe{watched_games}) and {args.spectators} spectator "
          f"pages ({reading}) on {args.games} of their games ({how_arrive}; {how_end}); measured over the "
          f"{args.seconds:g} s after they arrived")
    print("   " + line("people's /move from when it was due",
                       [t for due, t in crowd.moves if wall <= due < until])
          + "   (target p95 <= 300 ms)")
    print("   " + line("spectators had the move, after /move was answered", after_answer)
          + "   (target p95 <= 1 s)")
    print("   " + line("spectators had the move, after /move was sent", after_sending))
    print(f"   moves never shown to a spectator following the game: {missed}; pages following "
          f"a live game, each second: min {min(counted, default=0)}, mean "
          f"{sum(counted) / max(len(counted), 1):.0f}, max {max(counted, default=0)}")
    print("   " + line("spectator page opening (two events) while arriving", ramp))
    print(f"   spectator pages opened while measured: {len(steady)} "
          f"({len(steady) / elapsed:.1f}/s, for the games that ended); refused: "
          f"{sum(crowd.refused.values())} {dict(crowd.refused) or ''}; errors: "
          f"{dict(crowd.errors) or 0}; pages admitted: {following}")
    print(f"   CPU in cores while measured: app {server / elapsed:.2f}, generator "
          f"{mine / elapsed:.2f}, other processes {others / elapsed:.2f} (of {os.cpu_count()})")

    # the people stop: the games wait for them; the spectators wait on idle games
    await asyncio.sleep(2.0)
    before = app.cpu()
    await asyncio.sleep(3.0)
    waiting = (app.cpu() - before) / 3.0
    crowd.following = False
    for task in watchers:
        task.cancel()
    await asyncio.gather(*watchers, return_exceptions=True)
    closed = time.monotonic()
    for page in crowd.pages.values():
        page.abandon()
    series = []
    for _ in range(15):
        before = app.cpu()
        await asyncio.sleep(1.0)
        series.append(app.cpu() - before)
    idle = args.idle
    quiet = next((i for i in range(len(series)) if all(c <= idle + QUIET for c in series[i:])),
                 None)
    print(f"\n2. the people stopped: {following} spectator pages waiting on idle games cost the "
          f"app {waiting:.3f} cores; then every spectator page was closed at once")
    print("   app CPU per second after: " + " ".join(f"{c:.2f}" for c in series))
    print(f"   idle again (within {QUIET:g} cores of the {idle:.3f} cores the app used before "
          "anything started: Gradio's queue polls) after "
          + (f"{quiet} s (target <= 10 s)" if quiet is not None else "more than 15 s")
          + f"; {time.monotonic() - closed:.0f} s watched")


# --- the freeze -------------------------------------------------------------------------------


async def freeze_run(app: App, count: int) -> None:
    pages = Pages.read(app.url)
    person_ = Session(pages)
    state = await person_.call("new_game", "tic_tac_toe", "random", "first", PLAYER, True, "")
    opened: list[Page] = []
    tasks = []
    for i in range(count):
        page = Page(pages, state["session"], address(i))
        opened.append(page)
        tasks.append(asyncio.ensure_future(page.open()))
    done, waiting = await asyncio.wait(tasks, timeout=30)
    following = sum(1 for page, task in zip(opened, tasks, strict=True)
                    if task in done and not task.exception()
                    and (page.ticket or pages.show is None))
    for task in waiting:
        task.cancel()
    if pages.show is not None:  # each asks for its stream of screens, as a browser does
        await asyncio.gather(*(p.start_screens() for p in opened if p.ticket))
    for page in opened:
        page.abandon()
    await asyncio.sleep(1.0)
    started = time.monotonic()
    try:
        await asyncio.wait_for(Session(pages).call("new_game", "nim", "random", "first", PLAYER,
                                                   True, ""), 30)
        took = f"{time.monotonic() - started:.2f} s"
    except TimeoutError:
        took = "no answer within 30 s"
    kind = "each follows in a queue event" if pages.show is None else "each reads a stream"
    print(f"{count} spectator pages ({kind}) opened: {len(done)} within 30 s, {following} "
          f"following; all closed; another person's /new_game: {took}")


# --- per move, in one process ---------------------------------------------------------------


async def per_move_run(game_id: str, moves: int, count: int, delay: float) -> tuple[float, int]:
    from sessions.web.spectate import ALL
    from sessions.web.spectators import Limits, Spectators
    from sessions.web.tabs.watch import GameSource
    from sessions.web.watch import WatchSession

    game = WatchSession(game_id, ["random", "random"], seed=11, delay=delay)
    people = Spectators(Limits(10**6, 10**6, 10**6))
    started = time.process_time()
    game.start()

    async def follow(index: int) -> None:
        ticket = people.join(game.id, str(index), lambda: ALL, lambda: GameSource(game))
        seen, _ = await people.first(ticket)
        while True:
            waited = await people.wait(ticket.id, seen)
            answer = json.loads(waited.body if waited else b"{}")
            seen = answer.get("version", seen)
            if answer.get("done") or answer.get("stopped"):
                return

    watchers = [asyncio.ensure_future(follow(i)) for i in range(count)]
    while len(game.record.moves) < moves and not game.over:
        await asyncio.sleep(0.05)
    game.stop("the benchmark has measured enough")
    await asyncio.gather(*watchers)
    return time.process_time() - started, len(game.record.moves)


def per_move(args: argparse.Namespace) -> None:
    asyncio.run(per_move_run(args.game, 5, 1, 0.0))  # warm up: imports, fonts, the first drawing
    print(f"{args.game}, random vs random, {args.delay:g} s between moves, {args.moves} moves; "
          "process CPU per move (the broadcast, no HTTP)")
    base = None
    for count in (0, 1, 10, 50, 500):
        cpu, played = asyncio.run(per_move_run(args.game, args.moves, count, args.delay))
        per = 1000 * cpu / max(played, 1)
        base = per if base is None else base
        extra = f"  ({(per - base) / count:.3f} ms per spectator per move)" if count else ""
        print(f"  {count:3d} spectators: {per:7.2f} ms per move{extra}")


# --- the command ----------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--games", type=int, default=20, help="people whose games are followed")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--pace", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=40.0,
                        help="how long the crowd is measured, after the spectators arrived")
    parser.add_argument("--ramp", type=float, default=60.0,
                        help="the spectators arrive over this many seconds")
    parser.add_argument("--opponent", default="mcts")
    parser.add_argument("--watched-game", default="santorini:random", metavar="GAME[:OPPONENT]",
                        help="what the followed people play: a long game, so that the "
                             "spectators follow it for the whole run ('mix': the same games "
                             "as the others)")
    parser.add_argument("--arrive-while-playing", action="store_true",
                        help="the spectators arrive while the people play (default: while "
                             "the people's games wait for them; the people start once every "
                             "page is open)")
    parser.add_argument("--long-poll", action="store_true",
                        help="pages ask for one screen per request (the page's fallback) "
                             "instead of reading one stream")
    parser.add_argument("--rejoin", action="store_true",
                        help="a spectator whose game ended opens the person's next game 0-10 s "
                             "later, on a new page (default: leaves)")
    parser.add_argument("--freeze", type=int, default=0, metavar="N")
    parser.add_argument("--per-move", action="store_true")
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--game", default="connect_four")
    parser.add_argument("--delay", type=float, default=0.3)
    parser.add_argument("--app-root", type=Path, default=ROOT)
    parser.add_argument("--nice", type=int, default=0,
                        help="run the app and this generator at this niceness (and their "
                             "session's autogroup), as benchmarks.load does")
    args = parser.parse_args(argv)
    if args.nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)
        autogroup = Path("/proc/self/autogroup")
        if autogroup.exists():
            autogroup.write_text(str(args.nice))
    if args.per_move:
        per_move(args)
        return 0
    app = start_app(args.app_root.resolve(), Path(tempfile.mkdtemp(prefix="arena-spectators-")),
                    nice=args.nice)
    print(f"app: {args.app_root.resolve()} ({app.url}, pid {app.proc.pid}); machine: "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    try:
        if args.freeze:
            asyncio.run(freeze_run(app, args.freeze))
            return 0
        time.sleep(3.0)
        before = app.cpu()
        time.sleep(5.0)
        args.idle = (app.cpu() - before) / 5.0
        asyncio.run(crowd_run(app, args))
    finally:
        app.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
