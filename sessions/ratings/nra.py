"""GTBench's Normalized Relative Advantage (NRA), for every pair of entities in every game.

    NRA(me, opp) = (Σ_m f(me, m) − Σ_m f(opp, m)) / (Σ_m |f(me, m)| + Σ_m |f(opp, m)|)

over the matches m both played (GTBench §2.2). In beat-the-opponent games f is 1 for a win,
0 for a loss and ½ for a draw; in earn-rewards games f is the reward (the match's returns).
Which kind a game is lives in its registry entry (``GameSpec.objective``); games the
registry does not know (a GameBench file) are scored as beat-the-opponent from their
scores. NRA lies in [−1, 1]; it is 0 when both sums are 0 (e.g. negotiations that never
reached a deal). In a match with more than two seats each pair of entities is compared on
its own (an entity in several seats counts with its mean).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

import numpy as np

from games import registry
from sessions.ratings.results import MatchResult

Objective = Literal["beat", "earn"]


def objective_of(game: str) -> Objective:
    """The registry's objective for ``game``; "beat" for games it does not know."""
    try:
        return registry.get(game).objective
    except KeyError:
        return "beat"


@dataclass(frozen=True)
class PairNRA:
    game: str
    entity: str
    opponent: str
    matches: int
    nra: float
    objective: Objective


def nra(mine: Iterable[float], theirs: Iterable[float]) -> float:
    """The NRA of per-match scores ``mine`` against the opponent's ``theirs``."""
    mine, theirs = list(mine), list(theirs)
    denominator = sum(abs(x) for x in mine) + sum(abs(x) for x in theirs)
    return 0.0 if denominator == 0 else (sum(mine) - sum(theirs)) / denominator


def pair_scores(result: MatchResult, me: str, opponent: str, objective: Objective
                ) -> tuple[float, float] | None:
    """(f(me), f(opponent)) in one match; None when an earn-rewards match has no rewards."""
    mine = [i for i, e in enumerate(result.entities) if e == me]
    theirs = [i for i, e in enumerate(result.entities) if e == opponent]
    if objective == "earn":
        if result.returns is None:
            return None
        return (float(np.mean([result.returns[i] for i in mine])),
                float(np.mean([result.returns[j] for j in theirs])))
    s = result.scores
    beat = float(np.mean([1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0
                          for i in mine for j in theirs]))
    return beat, 1.0 - beat


def nra_table(results: Iterable[MatchResult],
              objective: Callable[[str], Objective] = objective_of
              ) -> tuple[list[PairNRA], Counter[str]]:
    """NRA of every entity against every opponent it met, per game (both directions), and
    how many matches were left out and why."""
    sums: dict[tuple[str, str, str], list[float]] = {}
    skipped: Counter[str] = Counter()
    kinds: dict[str, Objective] = {}
    for r in results:
        kind = kinds.setdefault(r.game, objective(r.game))
        for me, opp in combinations(sorted(set(r.entities)), 2):
            scores = pair_scores(r, me, opp, kind)
            if scores is None:
                skipped["no rewards recorded (forfeit) in an earn-rewards game"] += 1
                break
            acc = sums.setdefault((r.game, me, opp), [0, 0.0, 0.0, 0.0, 0.0])
            acc[0] += 1
            acc[1] += scores[0]
            acc[2] += scores[1]
            acc[3] += abs(scores[0])
            acc[4] += abs(scores[1])
    rows = []
    for (game, me, opp), (n, f_me, f_opp, abs_me, abs_opp) in sorted(sums.items()):
        value = 0.0 if abs_me + abs_opp == 0 else (f_me - f_opp) / (abs_me + abs_opp)
        rows.append(PairNRA(game, me, opp, int(n), value, kinds[game]))
        rows.append(PairNRA(game, opp, me, int(n), -value, kinds[game]))
    return rows, skipped


def nra_matrix(rows: Iterable[PairNRA], game: str) -> tuple[list[str], np.ndarray]:
    """Entities of ``game`` and M[i, j] = NRA(i, j) (NaN where they never met)."""
    rows = [r for r in rows if r.game == game]
    entities = sorted({r.entity for r in rows})
    index = {e: i for i, e in enumerate(entities)}
    matrix = np.full((len(entities), len(entities)), np.nan)
    for r in rows:
        matrix[index[r.entity], index[r.opponent]] = r.nra
    return entities, matrix
