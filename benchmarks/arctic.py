"""Arctic Scavengers' timings: python -m benchmarks.arctic [--matches 2] [--replies 15]

Prints, for the two-player game: the table image (wide, and the phone's narrow one), the
text view and a hit-test (each builds what the seat knows and its legal moves) at a
gathering turn, while an action is built, at a
dig's choice and in a skirmish; the adapter's resolve time for a label and for a free LLM
answer; the engine's step (Match.submit, chance included); and IS-MCTS's reply time at the
default budget (1000 simulations capped at 2 s) in matches against random, with how many
simulations fitted. The reply budget is met when max <= 2 s (plus the world redeal).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

from agents.specs import make_agent
from benchmarks import percentile
from benchmarks.core import adapter_times, engine_times
from games.actions import ActionId
from games.registry import get
from renderers.gamebench import arctic_scavengers as view
from sessions.match import Match
from sessions.record import SeatRecord
from tests.conftest import random_states
from tests.test_arctic_rules import skirmish

SPEC = get("arctic_scavengers")


def _ms(run: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def _states() -> dict[str, object]:
    """One state per kind of decision, from seeded random games."""
    found: dict[str, object] = {}
    for seed in range(20):
        for state in random_states(SPEC, seed, limit=2000):
            if state.is_chance_node() or state.is_terminal():
                continue
            found.setdefault(state.phase, state)
        if {"gather", "pick", "keep", "pay"} <= set(found):
            break
    # random tribes rarely take a Sniper Team to a skirmish: set one up (as the rules tests do)
    found["skirmish"] = skirmish({0: ["Sniper Team", "Brawler", "Shovel", "Saboteur"],
                                  1: ["Saboteur", "Thugs", "Spear", "Grenade", "Refugee"]})
    return found


def _replies(matches: int, per_match: int) -> tuple[list[float], list[int]]:
    times, simulations = [], []
    for seed in range(matches):
        seats = [SeatRecord("ismcts", "ismcts", "ismcts"), SeatRecord("random", "random", "random")]
        match = Match(SPEC.id, seats, seed=seed)
        agent = make_agent("ismcts", SPEC, match.record.params, seed=seed)
        rng = np.random.default_rng(seed)
        while not match.over and len(times) < per_match * (seed + 1):
            seat = match.to_move()[0]
            seen = match.view(seat)
            if seat == 0 and len(seen.legal) > 1:
                start = time.perf_counter()
                decision = agent.act(seen)
                times.append(time.perf_counter() - start)
                simulations.append(int(decision.meta["simulations"]))
                match.submit(seat, decision.proposal)
            else:
                move = seen.legal[int(rng.integers(len(seen.legal)))]
                match.submit(seat, ActionId(action=move.action))
    return times, simulations


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--matches", type=int, default=2)
    parser.add_argument("--replies", type=int, default=15, help="IS-MCTS replies per match")
    args = parser.parse_args()
    print(f"{'arctic_scavengers':<34}  median    worst   ({args.repeat} runs)")
    for phase, state in _states().items():
        seat = state.current_player()  # type: ignore[attr-defined]
        x, y = next(iter(view.centres(state, seat).values()))
        u, v = next(iter(view.centres(state, seat, narrow=True).values()))
        for what, run in (
                ("image", lambda s=state, p=seat: view.image(s, p)),
                ("image (phone)", lambda s=state, p=seat: view.image(s, p, narrow=True)),
                ("text view", lambda s=state, p=seat: view.text(s, p)),
                ("hit-test", lambda s=state, p=seat, a=x, b=y: view.hit_test(s, p, a, b)),
                ("hit-test (phone)", lambda s=state, p=seat, a=u, b=v:
                    view.hit_test(s, p, a, b, narrow=True))):
            median, worst = _ms(run, args.repeat)
            print(f"{what + ', ' + phase:<34}  {median:6.2f} ms {worst:6.2f} ms")
    typed, llm = adapter_times(SPEC, 60)
    steps = engine_times(SPEC, 5)
    print(f"{'resolve a label':<34}  {statistics.median(typed) * 1e3:6.3f} ms")
    print(f"{'resolve an LLM answer':<34}  {statistics.median(llm) * 1e3:6.3f} ms")
    print(f"{'engine step (Match.submit)':<34}  {statistics.median(steps) * 1e3:6.3f} ms "
          f"(p95 {percentile(steps, 95) * 1e3:.3f} ms)")
    times, sims = _replies(args.matches, args.replies)
    print(f"IS-MCTS (1000 sims, 2 s cap) vs random: {len(times)} replies  "
          f"mean {statistics.mean(times):.3f} s  p95 {percentile(times, 95):.3f} s  "
          f"max {max(times):.3f} s  simulations median {statistics.median(sims):.0f} "
          f"(min {min(sims)}, max {max(sims)})")


if __name__ == "__main__":
    main()
