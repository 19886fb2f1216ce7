"""LLM seat timings: python -m benchmarks.llm [--delay SECONDS] [--moves N] [--local]

Against the scripted server of the tests (real HTTP on 127.0.0.1, real SDK clients), prints:

- the agent's own cost per move (prompt building, SDK, streaming, adapter, record) with an
  instant server, per SDK;
- the wall time of one decision per reasoning mode when every call takes ``--delay``
  seconds: SC-CoT's five samples run at once (≈ 1 delay, not 5), ToT's 12 calls run in
  4 rounds of 3 (≈ 4 delays);
- with ``--local``, the offline model's start-up time and its seconds per tic-tac-toe move.
"""

from __future__ import annotations

import argparse
import statistics
import time

from agents.llm import LocalServers
from agents.specs import make_agent
from games import registry
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import SeatRecord
from tests.fake_llm_server import FakeLLM, Reply, Request, answer

TIC = registry.get("tic_tac_toe")


def view():
    return Match("tic_tac_toe", [SeatRecord("llm", "x", "x")] * 2, seed=1).view(0)


def env(fake: FakeLLM) -> dict[str, str]:
    return {"OPENAI_BASE_URL": fake.openai_url, "OPENAI_API_KEY": "sk-bench-000000",
            "ANTHROPIC_BASE_URL": fake.url, "ANTHROPIC_API_KEY": "sk-ant-bench-000000"}


def overhead(moves: int) -> None:
    print("agent cost per move, instant server (median over moves):")
    with FakeLLM() as fake:
        for spec in ("openai/gpt-4o-mini", "anthropic/claude-haiku-4-5",
                     "openai/gpt-4o-mini+cot+json"):
            agent = make_agent(spec, TIC, TIC.params(), seed=1, env=env(fake))
            agent.act(view())  # warm up the client and the SDK's lazy imports
            times = []
            for _ in range(moves):
                started = time.perf_counter()
                agent.act(view())
                times.append(time.perf_counter() - started)
            print(f"  {spec:34s} {statistics.median(times) * 1e3:7.1f} ms")


def mode_walls(delay: float) -> None:
    def slow(request: Request) -> Reply:
        prompt = request.prompt
        if "The best choice is <number>" in prompt:
            reply = Reply(text="The best choice is 1")
        elif "Do not choose a move yet" in prompt:
            reply = Reply(text=f"Analysis {request.body.get('seed')}")
        else:
            reply = answer(request, request.legal_moves()[0])
        reply.delay = delay
        return reply

    print(f"one decision's wall time, every call taking {delay:g} s:")
    with FakeLLM(slow) as fake:
        for mode in ("prompt", "cot", "sc-cot", "tot"):
            agent = make_agent(f"openai/gpt-4o-mini+{mode}", TIC, TIC.params(), seed=1,
                               env=env(fake))
            before = len(fake.requests)
            started = time.perf_counter()
            agent.act(view())
            wall = time.perf_counter() - started
            calls = len(fake.requests) - before
            print(f"  {mode:7s} {calls:2d} calls  {wall:5.2f} s  "
                  f"({wall / delay:4.1f} × one call; sequential would be {calls:.0f} ×)")


def local_model() -> None:
    print("offline model (SmolLM2-135M, llama.cpp server, structured answers):")
    with LocalServers() as servers:
        started = time.perf_counter()
        agent = make_agent("local/smollm2-135m", TIC, TIC.params(), seed=1, servers=servers)
        print(f"  server start-up        {time.perf_counter() - started:5.1f} s")
        seats = [SeatRecord("llm", "local/smollm2-135m", "local"),
                 SeatRecord("random", "random", "random")]
        match = Match("tic_tac_toe", seats, seed=11)
        started = time.perf_counter()
        record = play_match(match, [agent, make_agent("random", TIC, {}, seed=2)])
        wall = time.perf_counter() - started
        calls = [m.meta["llm"]["calls"][0]["seconds"] for m in record.moves if m.seat == 0]
        print(f"  one game               {wall:5.1f} s, {len(calls)} model moves, "
              f"{statistics.median(calls):.1f} s median per move ({record.outcome})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.5)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--local", action="store_true", help="also time the offline model")
    args = parser.parse_args()
    overhead(args.moves)
    mode_walls(args.delay)
    if args.local:
        local_model()


if __name__ == "__main__":
    main()
