"""Ratings: Bradley–Terry over stored matches, per game and overall, with bootstrap intervals.

GameBench's method (paper §3.3), done as published and with its bugs fixed:

* every completed match contributes its seats' scores in [0, 1] (win 1, draw ½, loss 0,
  fractional where a game awards shares); N-seat matches contribute their final standing
  (Plackett–Luce, on the same scale: see :mod:`sessions.ratings.bradley_terry`);
* matches are weighted 1/N_game, so each game counts equally overall;
* the rating is the mean over B bootstrap resamples (1000 by default), the interval their
  5th–95th percentiles; the rank counts the entities whose interval lies wholly above:
  1 + #{j : low_j > high_i};
* resamples are drawn within each game (stratified) by default; GameBench drew n matches
  across games with weights 1/N_game ("pooled"), whose intervals fall short of their
  level when games have unequal match counts (measured 90% coverage: by game 0.85-0.89 in
  every design tried, pooled 0.52-0.89; README "Ratings", tests/test_ratings.py). Games of
  ``resample.BAYESIAN_FROM`` matches or more are redrawn by the Bayesian bootstrap.

Who is rated and what is left out: :mod:`sessions.ratings.results`.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import numpy as np

from sessions.ratings import bradley_terry as bt
from sessions.ratings import resample
from sessions.ratings.anchors import NONE as NO_ANCHORS
from sessions.ratings.anchors import Anchors, fit_fixed, fit_point_fixed
from sessions.ratings.matches import Matches, Ties
from sessions.ratings.results import MatchResult

Resampling = Literal["game", "pooled"]


@dataclass(frozen=True)
class Settings:
    bootstrap: int = 1000
    seed: int = 0
    ties: Ties = "half"
    alpha: float = bt.DEFAULT_ALPHA
    level: float = 0.90
    resampling: Resampling = "game"
    """"game": each game's matches are redrawn within the game (a stratified bootstrap; its
    intervals hold their level when games have unequal match counts). "pooled": n matches
    drawn across games with weights 1/N_game, as GameBench did."""
    anchors: Anchors = NO_ANCHORS
    """Ratings held fixed per table (the ladder's levels: :mod:`sessions.ratings.anchors`);
    none by default (every table centred)."""

    def check(self) -> None:
        if self.bootstrap < 1:
            raise ValueError(f"--bootstrap must be at least 1 (got {self.bootstrap})")
        if self.ties not in ("half", "drop"):
            raise ValueError(f"ties must be 'half' or 'drop' (got {self.ties!r})")
        if not 0.0 < self.level < 1.0:
            raise ValueError(f"the interval level must be in (0, 1) (got {self.level})")
        if self.resampling not in ("game", "pooled"):
            raise ValueError(f"resampling must be 'game' or 'pooled' (got {self.resampling!r})")
        if not self.alpha > 0:
            raise ValueError(f"alpha must be > 0 (got {self.alpha})")


@dataclass(frozen=True)
class Rating:
    entity: str
    rating: float
    low: float
    high: float
    rank: int
    matches: int
    win_rate: float
    fit: float
    """The fit on the whole weighted data (choix), for reference; ``rating`` is the mean."""


@dataclass(frozen=True)
class RatingTable:
    """Ratings within one scope: one game, or all games (``game`` None)."""

    game: str | None
    matches: int
    ties: int
    rows: list[Rating]  # best first
    samples: np.ndarray = field(repr=False)  # (B, entities) in row order
    game_ids: tuple[str, ...] = ()  # the games the matches come from

    def get(self, entity: str) -> Rating | None:
        return next((r for r in self.rows if r.entity == entity), None)

    @property
    def entities(self) -> list[str]:
        return [r.entity for r in self.rows]

    def win_probability(self) -> np.ndarray:
        """P[i, j] that row i beats row j, from the ratings (½ on the diagonal)."""
        return bt.win_probability(np.array([r.rating for r in self.rows]))


@dataclass(frozen=True)
class RatingReport:
    overall: RatingTable
    games: dict[str, RatingTable]
    dropped: dict[str, int]
    settings: Settings

    def to_dict(self) -> dict[str, Any]:
        def table(t: RatingTable) -> dict[str, Any]:
            return {"game": t.game, "matches": t.matches, "ties": t.ties,
                    "games": list(t.game_ids), "ratings": [asdict(r) for r in t.rows]}
        settings = {k: v for k, v in asdict(self.settings).items() if k != "anchors"}
        out = {"settings": settings, "dropped": dict(self.dropped),
               "overall": table(self.overall),
               "games": {g: table(t) for g, t in self.games.items()}}
        if self.settings.anchors:
            out["anchors"] = self.settings.anchors.to_dict()
        return out


@dataclass
class RateCache:
    """What :func:`rate` may reuse from its previous call with the same cache: the tables
    and resamples of games whose matches did not change (a game's table depends on its own
    matches only), and the overall resample fits as starting points for the new ones. The
    report is the one ``rate`` gives without a cache (to the fit's precision, 1e-9); only
    the work differs. A game counts as unchanged when it holds the very same result objects
    in the same order (results are immutable), as a caller that keeps them gives."""

    games: dict[tuple[Settings, str], _GamePart] = field(default_factory=dict)
    overall: dict[Settings, tuple[list[str], np.ndarray]] = field(default_factory=dict)
    reused: int = 0  # games whose work the last call reused, for tests and benchmarks


@dataclass
class _GamePart:
    rows: list[MatchResult]
    matches: Matches
    cells: resample.Cells
    sample: resample.Sample | None  # kept between calls with a cache only
    played: np.ndarray
    score: np.ndarray
    table: RatingTable | None = None


def rate(results: Sequence[MatchResult], settings: Settings = Settings(), *,
         dropped: Counter[str] | dict[str, int] | None = None,
         per_game: bool = True, cache: RateCache | None = None) -> RatingReport:
    """Ratings over ``results`` (all games, matches weighted 1/N_game) and per game.

    Each game's resamples come from its own random stream (seed and game id), so a game's
    table is the same whichever other games are rated with it, and the overall by-game
    resample is made of exactly those draws. ``cache`` (kept by the caller between calls)
    spares the work of games that did not change.
    """
    settings.check()
    with bt.one_blas_thread():
        return _rate(results, settings, dropped, per_game, cache)


def _rate(results: Sequence[MatchResult], settings: Settings,
          dropped: Counter[str] | dict[str, int] | None, per_game: bool,
          cache: RateCache | None) -> RatingReport:
    if not results:
        overall = RatingTable(None, 0, 0, [], np.zeros((settings.bootstrap, 0)))
        return RatingReport(overall, {}, dict(dropped or {}), settings)
    if not (per_game or settings.resampling == "game"):  # GameBench's overall alone
        alone = Matches.of(results)
        cells = alone.cells(settings.ties)
        overall = _table(None, alone.entities, alone.tallies(), alone.ties(), len(alone),
                         tuple(alone.games), cells, _draws(cells, settings, None), settings,
                         _warm_start(cache, settings, alone.entities))
        return RatingReport(overall, {}, dict(dropped or {}), settings)
    everything: Matches | None = None
    if cache is None:  # one pass over the results, split by game in arrays
        everything = Matches.of(results)
        split: list[tuple[str, Matches | None, list[MatchResult] | None]] = [
            (game, matches, None) for game, matches in everything.by_game()]
    else:  # by game as lists, so that unchanged games are recognised by their results
        games: dict[str, list[MatchResult]] = {}
        for r in results:
            games.setdefault(r.game, []).append(r)
        split = [(game, None, games[game]) for game in sorted(games)]
    kept: dict[tuple[Settings, str], _GamePart] = {}
    reused = 0
    for game, matches, rows in split:
        part = cache.games.get((settings, game)) if cache is not None else None
        if part is not None and rows is not None and _same(part.rows, rows):
            reused += 1
        else:
            matches = Matches.of(rows or []) if matches is None else matches
            part = _GamePart(rows or [], matches, matches.cells(settings.ties), None,
                             *matches.tallies())
        kept[(settings, game)] = part
    if cache is not None:
        cache.games, cache.reused = kept, reused
    parts = list(kept.values())
    entities = sorted({e for p in parts for e in p.matches.entities})
    index = {e: i for i, e in enumerate(entities)}
    items = [np.array([index[e] for e in p.matches.entities], np.int64) for p in parts]
    by_game = settings.resampling == "game"
    stack = resample.SampleStack([p.cells for p in parts], len(entities), settings.bootstrap) \
        if by_game else None
    tables: dict[str, RatingTable] = {}
    for ((_, game), part), where in zip(kept.items(), items, strict=True):
        # game after game: its resamples, its table, its share of the overall resamples;
        # they are kept only for the cache (the next call's unchanged games)
        sample = part.sample if part.sample is not None else _draws(part.cells, settings, game)
        if per_game:
            if part.table is None:
                m = part.matches
                part.table = _table(game, m.entities, (part.played, part.score), m.ties(),
                                    len(m), tuple(m.games), part.cells, sample, settings)
            tables[game] = part.table
        if stack is not None:
            stack.add(part.cells, where, sample)
        part.sample = sample if cache is not None else None
    played, total = np.zeros(len(entities)), np.zeros(len(entities))
    for part, where in zip(parts, items, strict=True):  # an entity's matches, game by game
        np.add.at(played, where, part.played)
        np.add.at(total, where, part.score * part.played)
    tallies = (played, total / np.maximum(played, 1))
    ties = sum(p.matches.ties() for p in parts)
    start = _warm_start(cache, settings, entities)
    if stack is not None:
        cells = resample.stack([(p.cells, where) for p, where in zip(parts, items, strict=True)],
                               len(entities))
        sample = stack.sample()
    else:
        cells = (everything or Matches.of(results, entities)).cells(settings.ties)
        sample = _draws(cells, settings, None)
    overall = _table(None, entities, tallies, ties, len(results),
                     tuple(game for game, _, _ in split), cells, sample, settings, start)
    if cache is not None:
        cache.overall = {settings: (overall.entities, overall.samples)}
    return RatingReport(overall, tables, dict(dropped or {}), settings)


def _same(before: list[MatchResult], now: list[MatchResult]) -> bool:
    return len(before) == len(now) and all(a is b for a, b in zip(before, now, strict=True))


def _warm_start(cache: RateCache | None, settings: Settings, entities: list[str]
                ) -> np.ndarray | None:
    """The previous overall fits, per resample, over ``entities`` (0 for a new one)."""
    if cache is None or settings not in cache.overall:
        return None
    names, samples = cache.overall[settings]
    if len(samples) != settings.bootstrap:
        return None
    where = {e: i for i, e in enumerate(names)}
    start = np.zeros((len(samples), len(entities)))
    for j, e in enumerate(entities):
        if e in where:
            start[:, j] = samples[:, where[e]]
    return start


BLOCK = 100
"""Resamples per random stream: draws do not depend on how the fit chunks its work."""


def _draws(cells: resample.Cells, settings: Settings, game: str | None) -> resample.Sample:
    key = 0 if game is None else zlib.crc32(game.encode()) + 1
    n, b = cells.n_items, settings.bootstrap
    sample = resample.Sample(np.zeros((b, n, n)), np.zeros((b, cells.n_cells - len(cells.pair))))
    for lo in range(0, b, BLOCK):
        resample.draw(cells, min(BLOCK, b - lo),
                      np.random.default_rng([settings.seed, key, lo // BLOCK]),
                      out=sample.rows(lo, lo + BLOCK))
    return sample


def _table(game: str | None, entities: list[str], tallies: tuple[np.ndarray, np.ndarray],
           ties: int, matches: int, game_ids: tuple[str, ...], cells: resample.Cells,
           sample: resample.Sample, settings: Settings,
           start: np.ndarray | None = None) -> RatingTable:
    # a table of one game's matches (the overall one of a single game too) takes its anchors
    fixed = anchored(settings.anchors, game if game is not None or len(game_ids) != 1
                     else game_ids[0], entities)
    if fixed:
        point = fit_point_fixed(cells, fixed, alpha=settings.alpha)
        samples = fit_fixed(cells, sample, fixed, alpha=settings.alpha)
    else:
        point = bt.fit_point(cells, alpha=settings.alpha)
        samples = bt.fit(cells, sample, alpha=settings.alpha,
                         start=point if start is None else start)
    tail = (1.0 - settings.level) / 2 * 100
    low, high = np.percentile(samples, [tail, 100 - tail], axis=0)
    mean = samples.mean(axis=0)
    for i, value in fixed.items():  # exactly, not a mean's rounding of it
        mean[i] = low[i] = high[i] = value
    played, score = tallies
    ranks = overlap_ranks(low, high)
    order = np.argsort(-mean, kind="stable")
    rows = [Rating(entities[i], float(mean[i]), float(low[i]), float(high[i]), int(ranks[i]),
                   int(played[i]), float(score[i]), float(point[i])) for i in order]
    return RatingTable(game, matches, ties, rows, samples[:, order], game_ids)


def anchored(anchors: Anchors, game: str | None, entities: Sequence[str]) -> dict[int, float]:
    """The fixed ratings of one table, by the entities' places in ``entities``."""
    scope = anchors.scope(game) if anchors else {}
    return {i: scope[e] for i, e in enumerate(entities) if e in scope}


def cells_of(results: Sequence[MatchResult], entities: list[str], ties: Ties
             ) -> resample.Cells:
    """The fit's cells, pooled in one stratum: two-seat matches as fractional comparisons,
    others as standings, each match weighted 1/N_game (:meth:`Matches.cells`)."""
    return Matches.of(results, entities).cells(ties)


def overlap_ranks(low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Rank by interval overlap: 1 + the number of entities whose low end beats my high end."""
    low, high = np.asarray(low), np.asarray(high)
    return 1 + (low[None, :] > high[:, None]).sum(axis=1)


# --- the printed table -------------------------------------------------------------------

def format_report(report: RatingReport) -> str:
    """The leaderboard as text: rank, entity, rating, interval, matches, win rate, and one
    column per game (headers taken from the data)."""
    s = report.settings
    overall = report.overall
    games = list(report.games)
    played = len(overall.game_ids)
    level = f"{s.level:.0%} CI"
    lines = [
        f"Bradley–Terry ratings: {overall.matches} matches in {played} "
        f"game{'s' if played != 1 else ''}, {s.bootstrap} bootstraps (seed {s.seed}) "
        f"{'within each game' if s.resampling == 'game' else 'pooled across games'}, "
        f"{level}, alpha {s.alpha:g}; each game weighted equally (1/N_game)."]
    if not overall.rows:
        lines.append("No rated matches.")
    else:
        head = ["rank", "entity", "rating", level, "matches", "win rate", *games]
        rows = [head] + [
            [str(r.rank), r.entity, f"{r.rating:+.2f}", f"[{r.low:+.2f}, {r.high:+.2f}]",
             str(r.matches), f"{r.win_rate:.2f}",
             *(_cell(report.games[g].get(r.entity)) for g in games)]
            for r in overall.rows]
        widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
        lines += ["  ".join(c.rjust(w) if i != 1 else c.ljust(w)
                            for i, (c, w) in enumerate(zip(row, widths, strict=True))).rstrip()
                  for row in rows]
    notes = _notes(report)
    return "\n".join([*lines, notes] if notes else lines)


def _cell(rating: Rating | None) -> str:
    return "–" if rating is None else f"{rating.rating:+.2f}"


def _notes(report: RatingReport) -> str:
    notes = []
    if report.games:
        notes.append("matches per game: " + ", ".join(
            f"{g} {t.matches}" for g, t in report.games.items()))
    ties = report.overall.ties
    if ties:
        verb = "count" if ties != 1 else "counts"
        how = (f"{verb} as half a win each way" if report.settings.ties == "half"
               else "left out of the fit (GameBench's convention)")
        notes.append(f"{ties} tie{'s' if ties != 1 else ''} {how}")
    dropped = sum(report.dropped.values())
    if dropped:
        notes.append(f"not rated: {dropped} session{'s' if dropped != 1 else ''} (" + ", ".join(
            f"{n} {why}" for why, n in sorted(report.dropped.items())) + ")")
    return "\n".join(notes)

