"""Sea Battle and Pit, row by row: python -m benchmarks.sea_pit [--positions N] [--moves N]

For each game, milliseconds (median, p95) over the positions of seeded random games:

- adapter: the legal-move table of a fresh position (Sea Battle: 512 labelled orders), then
  resolving a typed label and a free LLM answer against it;
- step: ``Match.submit`` of a legal move (a Sea Battle turn applies when both seats are in);
- render: the seat's image, its text view, a hit-test, the image as PNG;
- click: a person's click through ``PlaySession`` to the new screen (as benchmarks.ui_latency);
- agent reply: the random agent, and an LLM seat's own cost per move against an instant local
  server speaking OpenAI's protocol (prompt, SDK, streaming, adapter; no model time).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.specs import make_agent  # noqa: E402
from benchmarks import percentile  # noqa: E402
from benchmarks.ui_latency import measure  # noqa: E402
from games import actions  # noqa: E402
from games.actions import ActionId, Text, legal_moves, resolve  # noqa: E402
from games.registry import get  # noqa: E402
from renderers import image_view, renderer, text_view  # noqa: E402
from sessions.match import Match  # noqa: E402
from sessions.record import SeatRecord  # noqa: E402
from sessions.store import Store  # noqa: E402
from tests.conftest import acting_players, fixed_params, random_states  # noqa: E402
from tests.fake_llm_server import FakeLLM, Reply, Request, answer  # noqa: E402

GAMES = ("sea_battle", "pit")


def timed(samples: list[float], work: Callable[..., Any], *args: Any) -> Any:
    """``work(*args)``, its milliseconds appended to ``samples``."""
    start = time.perf_counter()
    result = work(*args)
    samples.append((time.perf_counter() - start) * 1000)
    return result


def row(name: str, samples: list[float]) -> None:
    print(f"  {name:<34} {statistics.median(samples):9.3f} {percentile(samples, 95):9.3f}"
          f"   ({len(samples)})")


def positions(game_id: str, count: int) -> list:
    spec = get(game_id)
    states = [s for seed in range(3) for s in random_states(spec, seed)
              if acting_players(s)]
    return states[:: max(1, len(states) // count)][:count]


def adapter_and_render(game_id: str, count: int) -> None:
    spec = get(game_id)
    module = renderer(game_id)
    table, typed, llm, image, text, hit, png = ([] for _ in range(7))
    for state in positions(game_id, count):
        seat = acting_players(state)[0]
        actions._TABLES.clear()  # a fresh position: the table is built, as after a move
        moves = timed(table, legal_moves, spec, state, seat)
        move = moves[len(moves) // 2]
        timed(typed, resolve, spec, state, seat, Text(text=move.label))
        said = f"Let me think.\nSeveral moves look fine.\nFinal answer: {move.label}"
        timed(llm, resolve, spec, state, seat, Text(text=said, source="llm"))
        picture = timed(image, image_view, game_id, state, seat)
        timed(text, text_view, game_id, state, seat)
        spots = module.centres(state, seat)
        x, y = next(iter(spots.values()))
        timed(hit, module.hit_test, state, seat, x, y)
        timed(png, picture.save, io.BytesIO(), "PNG")
    for name, samples in (("legal-move table (cold)", table), ("resolve typed label", typed),
                          ("resolve LLM answer", llm), ("image", image), ("text view", text),
                          ("hit-test", hit), ("PNG encode", png)):
        row(name, samples)


def steps(game_id: str, games: int) -> None:
    spec = get(game_id)
    samples: list[float] = []
    players = spec.load(fixed_params(spec)).num_players()
    for seed in range(games):
        match = Match(game_id, [SeatRecord("random", "random", "random")] * players,
                      seed=seed, params=fixed_params(spec))
        rng = np.random.default_rng(seed)
        while not match.over:
            for seat in match.to_move():
                legal = match.legal(seat)
                action = legal[int(rng.integers(len(legal)))].action
                timed(samples, match.submit, seat, ActionId(action=action))
    row("engine step (Match.submit)", samples)


def replies(game_id: str, count: int) -> None:
    spec = get(game_id)
    players = spec.load(fixed_params(spec)).num_players()
    match = Match(game_id, [SeatRecord("random", "random", "random")] * players, seed=5)
    random_agent = make_agent("random", spec, match.record.params, seed=1)
    rng = np.random.default_rng(0)
    fast: list[float] = []
    slow: list[float] = []

    def respond(request: Request) -> Reply:
        return answer(request, str(rng.choice(request.legal_moves())), reasoning="Thinking.")

    with FakeLLM() as fake:
        fake.responder = respond
        env = {"OPENAI_BASE_URL": fake.openai_url, "OPENAI_API_KEY": "sk-bench-000000"}
        llm = make_agent("openai/gpt-4o-mini", spec, match.record.params, seed=1, env=env)
        llm.act(match.view(match.to_move()[0]))  # warm the SDK's lazy imports
        while len(slow) < count and not match.over:
            seat = match.to_move()[0]
            view = match.view(seat)
            timed(fast, random_agent.act, view)
            decision = timed(slow, llm.act, view)
            match.submit(seat, decision.proposal)
    row("random agent reply", fast)
    row("LLM seat's own cost (instant server)", slow)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--moves", type=int, default=60, help="clicks, and LLM replies")
    args = parser.parse_args(argv)
    print(f"{'':<36} {'p50 ms':>9} {'p95 ms':>9}   (samples)")
    with tempfile.TemporaryDirectory() as folder, Store(Path(folder) / "b.sqlite3") as store:
        for game_id in GAMES:
            print(game_id)
            adapter_and_render(game_id, args.positions)
            steps(game_id, 3)
            clicks, _ = measure(game_id, args.moves, 0, store)
            row("click -> new screen (PlaySession)", clicks.wall)
            replies(game_id, args.moves // 3)
    return 0


if __name__ == "__main__":
    sys.exit(main())
