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
        return (sum(result.returns[i] for i in mine) / len(mine),
                sum(result.returns[j] for j in theirs) / len(theirs))
    s = result.scores
    beat = sum(1.0 if s[i] > s[j] else 0.5 if s[i] == s[j] else 0.0
               for i in mine for j in theirs) / (len(mine) * len(theirs))
    return beat, 1.0 - beat


class NRASums:
    """The sums NRA is made of, per game and pair, added one match at a time (so a live
    leaderboard adds only the sessions stored since it last looked)."""

    def __init__(self, objective: Callable[[str], Objective] = objective_of) -> None:
        self.objective = objective
        self.skipped_in: dict[str, Counter[str]] = {}  # per game: matches left out, by reason
        self.kinds: dict[str, Objective] = {}
        self._games: dict[str, dict[tuple[str, str], list[float]]] = {}
        self._rows: dict[str, list[PairNRA]] = {}  # per game, until the game changes

    def copy(self) -> NRASums:
        """A copy that later :meth:`add` calls do not change (rows already built are
        shared: they are never changed, only replaced)."""
        for game in self._games:  # build missing rows here, so that later copies share them
            if game not in self._rows:
                self._rows[game] = self._game_rows(game)
        other = NRASums(self.objective)
        other._games = {game: {pair: list(acc) for pair, acc in sums.items()}
                        for game, sums in self._games.items()}
        other.skipped_in = {game: Counter(c) for game, c in self.skipped_in.items()}
        other.kinds = dict(self.kinds)
        other._rows = dict(self._rows)
        return other

    @property
    def sums(self) -> dict[tuple[str, str, str], list[float]]:
        """Per (game, entity, opponent): matches, Σf(me), Σf(opp), Σ|f(me)|, Σ|f(opp)|."""
        return {(game, me, opp): acc for game, sums in self._games.items()
                for (me, opp), acc in sums.items()}

    def add(self, result: MatchResult) -> None:
        self._rows.pop(result.game, None)
        kind = self.kinds.get(result.game)
        if kind is None:
            kind = self.kinds[result.game] = self.objective(result.game)
        for me, opp in combinations(sorted(set(result.entities)), 2):
            scores = pair_scores(result, me, opp, kind)
            if scores is None:
                self.skipped_in.setdefault(result.game, Counter())[
                    "no rewards recorded (forfeit) in an earn-rewards game"] += 1
                break
            acc = self._games.setdefault(result.game, {}).setdefault((me, opp),
                                                                      [0, 0.0, 0.0, 0.0, 0.0])
            acc[0] += 1
            acc[1] += scores[0]
            acc[2] += scores[1]
            acc[3] += abs(scores[0])
            acc[4] += abs(scores[1])

    def skipped(self, game: str | None = None) -> Counter[str]:
        """Matches left out (of one game, or all), by reason."""
        out: Counter[str] = Counter()
        for name, counts in self.skipped_in.items():
            if game is None or name == game:
                out += counts
        return out

    def rows(self, game: str | None = None) -> list[PairNRA]:
        """Both directions of every pair (of one game, or all), sorted by game, entity and
        opponent."""
        games = sorted(self._games) if game is None else [game] if game in self._games else []
        out: list[PairNRA] = []
        for name in games:
            if name not in self._rows:
                self._rows[name] = self._game_rows(name)
            out += self._rows[name]
        return out

    def _game_rows(self, game: str) -> list[PairNRA]:
        rows = []
        for (me, opp), (n, f_me, f_opp, abs_me, abs_opp) in sorted(self._games[game].items()):
            value = 0.0 if abs_me + abs_opp == 0 else (f_me - f_opp) / (abs_me + abs_opp)
            rows.append(PairNRA(game, me, opp, int(n), value, self.kinds[game]))
            rows.append(PairNRA(game, opp, me, int(n), -value, self.kinds[game]))
        return rows


def nra_table(results: Iterable[MatchResult],
              objective: Callable[[str], Objective] = objective_of
              ) -> tuple[list[PairNRA], Counter[str]]:
    """NRA of every entity against every opponent it met, per game (both directions), and
    how many matches were left out and why."""
    sums = NRASums(objective)
    for r in results:
        sums.add(r)
    return sums.rows(), sums.skipped()


def nra_matrix(rows: Iterable[PairNRA], game: str) -> tuple[list[str], np.ndarray]:
    """Entities of ``game`` and M[i, j] = NRA(i, j) (NaN where they never met)."""
    rows = [r for r in rows if r.game == game]
    entities = sorted({r.entity for r in rows})
    index = {e: i for i, e in enumerate(entities)}
    matrix = np.full((len(entities), len(entities)), np.nan)
    for r in rows:
        matrix[index[r.entity], index[r.opponent]] = r.nra
    return entities, matrix
