"""Core timings per game: python -m benchmarks.core [--positions N] [--games ID ...]

Prints, per game: the adapter's resolve time for a typed label and for a free LLM answer,
the engine's step time (Match.submit of a legal move, chance resolution included), and the
search agent's reply time at the default budget (1000 simulations capped at 2 s) and at
exactly 1000 simulations (GTBench's setting, no clock).
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from agents.base import SeatView
from agents.specs import agents_for, make_agent
from games import registry
from games.actions import ActionId, Text, legal_moves, resolve
from sessions.match import Match
from sessions.record import SeatRecord
from tests.conftest import acting_players, fixed_params, random_states


def _micro(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1e6:8.1f}"


def adapter_times(spec: registry.GameSpec, positions: int) -> tuple[list[float], list[float]]:
    typed, llm = [], []
    for state in random_states(spec, 0)[:positions]:
        for player in acting_players(state):
            move = legal_moves(spec, state, player)[0]
            answer = f"Let me think.\nThe options are many.\nFinal answer: <{move.label}>"
            for text, bucket, source in ((move.label, typed, "typed"), (answer, llm, "llm")):
                start = time.perf_counter()
                resolve(spec, state, player, Text(text=text, source=source))
                bucket.append(time.perf_counter() - start)
    return typed, llm


def engine_times(spec: registry.GameSpec, games: int) -> list[float]:
    samples = []
    players = spec.load(fixed_params(spec)).num_players()
    for seed in range(games):
        seats = [SeatRecord("random", "random", "random")] * players
        match = Match(spec.id, seats, seed=seed, params=fixed_params(spec))
        rng = np.random.default_rng(seed)
        while not match.over:
            for seat in match.to_move():
                legal = match.legal(seat)
                action = legal[int(rng.integers(len(legal)))].action
                start = time.perf_counter()
                match.submit(seat, ActionId(action=action))
                samples.append(time.perf_counter() - start)
    return samples


def search_times(spec: registry.GameSpec, agent_spec: str, moves: int) -> list[float]:
    params = fixed_params(spec)
    agent = make_agent(agent_spec, spec, params, seed=1)
    samples = []
    for state in random_states(spec, 5)[:-1]:
        players = acting_players(state)
        if len(players) != 1:
            continue
        view = SeatView(spec, players[0], "", tuple(legal_moves(spec, state, players[0])), (),
                        state.clone())
        start = time.perf_counter()
        agent.act(view)
        samples.append(time.perf_counter() - start)
        if len(samples) >= moves:
            break
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--search-moves", type=int, default=5)
    parser.add_argument("--games", nargs="*", default=None, metavar="ID",
                        help="only these games (default: every registered game)")
    args = parser.parse_args()
    print(f"{'game':<28}{'resolve label µs':>17}{'resolve LLM µs':>15}{'engine step µs':>15}"
          f"{'agent':>8}{'default s (max)':>17}{'1000 sims s (max)':>19}")
    specs = [registry.get(g) for g in args.games] if args.games else registry.all_games()
    for spec in specs:
        typed, llm = adapter_times(spec, args.positions)
        steps = engine_times(spec, 5)
        search = [a for a in agents_for(spec) if a in ("mcts", "ismcts")]
        line = f"{spec.id:<28}{_micro(typed):>17}{_micro(llm):>15}{_micro(steps):>15}"
        if search:
            default = search_times(spec, search[0], args.search_moves)
            exact = search_times(spec, f"{search[0]}:1000:0s", args.search_moves)
            line += (f"{search[0]:>8}{statistics.median(default):>10.3f} ({max(default):.3f})"
                     f"{statistics.median(exact):>11.3f} ({max(exact):.3f})")
        else:
            line += f"{'-':>8}{'-':>17}{'-':>19}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
