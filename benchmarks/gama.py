"""Timings for GAMA-Bench's games at the paper's size (10 players, 20 rounds).

    python benchmarks/gama.py

Prints, per game: a whole session of bots (equilibrium, adaptive, random), the work a page
does for the person at one decision (view, legal moves, control, results table, plot image,
LLM prompt), and how long the adapter takes to read a JSON answer (first time at a state,
then again at the same state).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.specs import parse_spec  # noqa: E402
from games.actions import _TABLES, Text, resolve  # noqa: E402
from games.gama.catalogue import GAMES  # noqa: E402
from renderers import renderer  # noqa: E402
from sessions.record import replay  # noqa: E402
from sessions.tournament import play_one  # noqa: E402

SEATS = ["equilibrium", "adaptive", "random"] * 3 + ["random"]
ANSWER = {"guess_2_3": '{"chosen_number": "33"}', "el_farol": '{"decision": "go"}',
          "divide_dollar": '{"bid_amount": "10"}', "public_goods": '{"tokens_contributed": "3"}',
          "diners_dilemma": '{"chosen_dish": "cheap"}', "sealed_bid_auction": '{"bid": "1"}',
          "battle_royale": '{"target": "miss"}', "pirate_game": '{"decision": "accept"}'}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f} ms"


def _median(call: object, state: object, seat: int, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call(state, seat)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _a_decision(record: object, view: object) -> tuple[object, int]:
    """A state from the second half of the session and a seat that decides there."""
    for upto in range(len(record.moves) // 2, len(record.moves)):
        state = replay(record, upto=upto)
        for seat in range(10):
            if view.VIEW.acting(state, seat):
                return state, seat
    raise RuntimeError("no decision in the second half")


def main() -> int:
    print(f"{'game':20} {'session':>11} {'moves':>6} {'view':>11} {'table':>11} "
          f"{'image':>11} {'prompt':>11} {'answer 1st':>11} {'again':>11}")
    for spec in GAMES:
        start = time.perf_counter()
        record = play_one(spec.id, [parse_spec(s) for s in SEATS], seed=1)
        session = time.perf_counter() - start
        view = renderer(spec.id)
        state, seat = _a_decision(record, view)
        timings = {name: _median(call, state, seat) for name, call in (
            ("view", view.text),
            ("table", view.table), ("image", view.image), ("prompt", view.prompt))}
        _TABLES.clear()
        t = time.perf_counter()
        answer = ANSWER[spec.id] if spec.id != "pirate_game" or state.voting() else '{"gold": 1}'
        resolve(spec, state, seat, Text(text=answer, source="llm"))
        first = time.perf_counter() - t
        t = time.perf_counter()
        resolve(spec, state, seat, Text(text=answer, source="llm"))
        again = time.perf_counter() - t
        print(f"{spec.id:20} {ms(session):>11} {len(record.moves):6d} {ms(timings['view'])} "
              f"{ms(timings['table'])} {ms(timings['image'])} {ms(timings['prompt'])} "
              f"{ms(first)} {ms(again)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
