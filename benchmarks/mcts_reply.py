"""Search reply time against the 2-second budget: MCTS on Hive and Santorini, IS-MCTS on
Air, Land & Sea.

Plays the search agent (GTBench's 1000 simulations, capped at 2 s a reply) against random for
a few seeded matches per game and prints the reply times. The budget is met when max <= 2 s.

    python benchmarks/mcts_reply.py [--matches 3] [--replies 25]
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time

import numpy as np

from agents.search import ISMCTSAgent, MCTSAgent
from benchmarks import percentile
from games.actions import ActionId
from sessions.match import Match
from sessions.record import SeatRecord

SEARCHES = (("hive", "mcts"), ("santorini", "mcts"), ("air_land_sea", "ismcts"))



def replies(game_id: str, matches: int, per_match: int, kind: str = "mcts"
            ) -> tuple[list[float], collections.Counter, list[int]]:
    times: list[float] = []
    sims: list[int] = []
    how: collections.Counter = collections.Counter()
    for seed in range(matches):
        seats = [SeatRecord(kind=kind, spec=kind, entity=f"{kind}:1000:2s"),
                 SeatRecord(kind="random", spec="random", entity="random")]
        match = Match(game_id, seats, seed=seed)
        agent = (MCTSAgent if kind == "mcts" else ISMCTSAgent)(match.game, seed=seed)
        rng = np.random.default_rng(seed)
        played = 0
        while not match.over and played < per_match:
            seat = match.to_move()[0]
            view = match.view(seat)
            if seat == 0:
                start = time.perf_counter()
                decision = agent.act(view)
                times.append(time.perf_counter() - start)
                stopped = decision.meta.get("stopped")  # MCTS: count, clock or solved
                if stopped is None:  # IS-MCTS: its count, or the clock before it
                    stopped = "count" if decision.meta["simulations"] >= 1000 else "clock"
                how[str(stopped)] += 1
                sims.append(decision.meta["simulations"])
                match.submit(seat, decision.proposal)
                played += 1
            else:
                move = view.legal[int(rng.integers(len(view.legal)))]
                match.submit(seat, ActionId(action=move.action))
    return times, how, sims


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=3)
    parser.add_argument("--replies", type=int, default=25, help="search replies per match")
    parser.add_argument("--games", nargs="*", default=None, metavar="ID",
                        help="only these games (default: hive santorini air_land_sea)")
    args = parser.parse_args()
    for game_id, kind in SEARCHES:
        if args.games and game_id not in args.games:
            continue
        times, how, sims = replies(game_id, args.matches, args.replies, kind)
        p95 = percentile(times, 95)
        print(f"{game_id:<12} {kind:<6} {len(times):>3} replies  mean {statistics.mean(times):.3f} s  "
              f"p95 {p95:.3f} s  max {max(times):.3f} s  "
              f"simulations median {statistics.median(sims):.0f} max {max(sims)}  "
              f"(stopped by: {', '.join(f'{k} x{v}' for k, v in sorted(how.items()))})")


if __name__ == "__main__":
    main()
