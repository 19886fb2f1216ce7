"""How well the offline Codenames team plays: python -m benchmarks.codenames_bots [-n N]

A ``minilm`` team (spymaster and operative, reading the word table shipped with the app)
plays N games against each opposing team: ``random`` (random clue numbers, random guesses),
``first`` (always the first legal move: clue 0, then guess the cards in board order) and
``pass`` (clue 0, one guess, end the turn); see :mod:`agents.trivial`. The minilm team sits
red in even games and blue in odd ones (the deal draws which team starts).

Prints per opponent: the minilm team's wins (with the 95% Wilson interval), games lost to
the assassin, and per minilm clue: the number said, the team's own agents found, and
other cards turned; then a few clues from the first boards. Targets: the minilm team wins
>= 90% against each opposing team. (``--workers`` plays games in parallel processes.)
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from benchmarks.ladder import play, wilson
from games.gamebench import codenames as cn
from sessions.record import replay

OPPONENTS = ("random", "first", "pass")


@dataclass
class Game:
    won: bool
    assassin: bool
    clues: list[tuple[str, int, int, int]]
    """The minilm team's clues: (clue text, number said, own agents found, other cards)."""
    seconds: float


def one_game(job: tuple[str, int]) -> Game:
    """One game of a minilm team against ``opponent``, minilm red when ``seed`` is even."""
    opponent, seed = job
    team = seed % 2
    lineup = ["minilm", "minilm", opponent, opponent] if team == 0 else \
        [opponent, opponent, "minilm", "minilm"]
    start = time.perf_counter()
    record = play("codenames", lineup, seed=seed)
    state = replay(record)
    assert isinstance(state, cn.CodenamesState)
    clues: list[tuple[str, int, int, int]] = []
    for seat, kind, text in state.events:
        if seat // 2 != team:
            continue
        if kind == "clue":
            number = text.split()[-1]
            clues.append((text, 9 if number == "unlimited" else int(number), 0, 0))
        elif kind == "guess":
            said, n, found, other = clues[-1]
            own = text.endswith(f": {cn.ROLE_NAMES[team]}")
            clues[-1] = (said, n, found + own, other + (not own))
    won = (record.scores or [0.0] * 4)[2 * team] == 1.0
    return Game(won, state.assassin_hit, clues, time.perf_counter() - start)


def run(opponent: str, games: int, *, seed: int = 0, workers: int = 1) -> list[Game]:
    jobs = [(opponent, seed + g) for g in range(games)]
    if workers <= 1:
        return [one_game(job) for job in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(one_game, jobs))


def report(opponent: str, played: list[Game]) -> str:
    wins = sum(g.won for g in played)
    low, high = wilson(wins / len(played), len(played))
    clues = [c for g in played for c in g.clues]
    mean = (lambda i: statistics.fmean(c[i] for c in clues)) if clues else (lambda i: 0.0)
    return (f"minilm vs {opponent:6s}: won {wins}/{len(played)} ({wins / len(played):.0%}, "
            f"95% CI {low:.0%}-{high:.0%}); lost to the assassin "
            f"{sum(g.assassin and not g.won for g in played)}; per clue: number "
            f"{mean(1):.2f}, own agents found {mean(2):.2f}, other cards {mean(3):.2f} "
            f"({len(clues)} clues; {statistics.fmean(g.seconds for g in played):.2f} s/game)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--games", type=int, default=100, help="games per opponent")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--opponents", nargs="+", default=list(OPPONENTS), choices=OPPONENTS)
    args = parser.parse_args(argv)
    examples: list[str] = []
    met = True
    for opponent in args.opponents:
        played = run(opponent, args.games, seed=args.seed, workers=args.workers)
        print(report(opponent, played), flush=True)
        met &= sum(g.won for g in played) >= 0.9 * len(played)
        examples += [f"{said} -> {found} own, {other} other" for g in played[:2]
                     for said, _, found, other in g.clues[:2]]
    print("clues from the first boards: " + "; ".join(dict.fromkeys(examples)))
    print("target (>= 90% wins against each): " + ("met" if met else "NOT met"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
