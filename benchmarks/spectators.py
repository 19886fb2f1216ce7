"""What spectators cost the server: per move, per spectator, for a watched game.

Plays a watched game between two random agents (they cost next to nothing, so what is
measured is the spectators' side) at a fixed pace, with N simulated spectators following
it the way the Watch tab's follow loop does (sessions/web/tabs/watch.py): every 0.25 s each
compares ``spectate.changed(game)`` with what it last drew, and on a change builds its
``Spectated`` (boards and move list come from a cache shared by all spectators, panels are
per spectator) and the image it sends, as Gradio's ``gr.Image`` postprocess does for the
frame's PNG file (hashed, and copied into Gradio's cache once). Prints the process CPU per move for 0, 1, 10 and 50
spectators and the cost per spectator per move.

Target: one spectator costs under 10 ms of server CPU per move, so a 2-core server can
show a game at one move a second to 100 spectators with room to spare.

    python -m benchmarks.spectators [--moves 40] [--game connect_four]
"""

from __future__ import annotations

import argparse
import asyncio
import time

import gradio as gr

from sessions.web import spectate
from sessions.web.watch import WatchSession

POLL = 0.25


async def spectator(game: WatchSession, image: gr.Image, view: str) -> None:
    last = None
    while True:
        key = spectate.changed(game)
        if key != last:
            seen = spectate.spectate(game, view)
            spectate.panels_html(seen)
            if seen.boards:
                image.postprocess(seen.boards[0].png)  # the page's update: a file to cache
            last = key
            if seen.over:
                return
        await asyncio.sleep(POLL)


async def run(game_id: str, moves: int, count: int, delay: float) -> tuple[float, int]:
    game = WatchSession(game_id, ["random", "random"], seed=11, delay=delay)
    image = gr.Image(type="pil", format="png")
    started = time.process_time()
    game.start()
    watchers = [asyncio.create_task(spectator(game, image, spectate.ALL)) for _ in range(count)]
    while len(game.record.moves) < moves and not game.over:
        await asyncio.sleep(0.05)
    game.stop("the benchmark has measured enough")
    await asyncio.gather(*watchers)
    return time.process_time() - started, len(game.record.moves)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--game", default="connect_four")
    parser.add_argument("--delay", type=float, default=0.3)
    args = parser.parse_args(argv)
    asyncio.run(run(args.game, 5, 1, 0.0))  # warm up: imports, fonts, the first drawing
    base = None
    print(f"{args.game}, random vs random, {args.delay:g} s between moves, "
          f"{args.moves} moves; process CPU per move")
    for count in (0, 1, 10, 50):
        cpu, played = asyncio.run(run(args.game, args.moves, count, args.delay))
        per_move = 1000 * cpu / max(played, 1)
        base = per_move if base is None else base
        extra = "" if not count else \
            f"  ({(per_move - base) / count:.2f} ms per spectator per move)"
        print(f"  {count:3d} spectators: {per_move:7.2f} ms per move{extra}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
