"""Ratings that keep up with a store while people play, at a bounded share of one core.

Three parts, used by :class:`sessions.ratings.leaderboard.Leaderboard` when it is live:

* :class:`StoreReader` reads only the sessions written since it last looked (the store's
  ``seq``), keeps the results sorted as ``Store.results()`` gives them, split by game, with
  the NRA sums and GAMA-Bench's records (without their moves) up to date.
* :class:`PointRatings` turns a finished report into one that already counts the newest
  sessions: matches, win rates and each entity's point fit are exact; the rating (the
  bootstrap mean) and its interval are the last report's, moved by how much the point fit
  moved. It keeps each game's matches summed (a comparison matrix, Luce choice events), adds
  new sessions one at a time and refits only the games that changed, from their last fit.
* :class:`Budget` keeps the full recomputation (the bootstrap) in the background under a
  share of one core: a bucket of CPU seconds filled at that share.
"""

from __future__ import annotations

import bisect
import math
import threading
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from sessions.ratings import bradley_terry as bt
from sessions.ratings import gama_table, resample
from sessions.ratings.nra import NRASums
from sessions.ratings.report import (
    Rating,
    RatingReport,
    RatingTable,
    Settings,
    anchored,
    overlap_ranks,
)
from sessions.ratings.results import MatchResult, rated_results, result_of_row

if TYPE_CHECKING:
    from sessions.record import MatchRecord
    from sessions.store import Store


def _order(result: MatchResult) -> tuple[float, str]:
    """Store.results()' order: by end time, then id."""
    return (-math.inf if result.ended_at is None else result.ended_at, result.id)


@dataclass
class Snapshot:
    """A consistent copy of what the reader holds, for a computation in another thread."""

    revision: tuple[int, int, int]
    results: list[MatchResult]
    by_game: dict[str, list[MatchResult]]
    versions: dict[str, int]
    dropped: Counter[str]
    nra: NRASums
    gama: list[MatchRecord]
    gama_version: int
    reloads: int = 0  # how often the reader read the whole store again


class StoreReader:
    """A store's rateable results, read a little at a time.

    Each :meth:`refresh` asks the store for its revision (one small query) and, when it
    moved, reads only the sessions written since (``Store.results(after=seq)``). A session
    saved again under its id (it comes back with a new seq), or a store whose count no
    longer matches what was read, makes it read everything again."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._revision: tuple[int, int, int] | None = None
        self._reset()

    def _reset(self) -> None:
        self._seq = 0
        self._seen: dict[str, list[MatchResult] | str] = {}
        self._keys: list[tuple[float, str]] = []
        self._results: list[MatchResult] = []
        self._by_game: dict[str, tuple[list[tuple[float, str]], list[MatchResult]]] = {}
        self._versions: dict[str, int] = {}
        self._dropped: Counter[str] = Counter()
        self._nra = NRASums()
        self._nra_copy: NRASums | None = None
        self._gama: dict[str, MatchRecord] = {}
        self._gama_version = getattr(self, "_gama_version", 0) + 1
        self._gama_list: list[MatchRecord] | None = None
        self._log: list[MatchResult] = []  # results in the order they were read
        self.reloads = getattr(self, "reloads", -1) + 1

    def refresh(self) -> tuple[int, int, int]:
        """Read what was written since the last call; the store's revision."""
        with self._lock:
            revision = self.store.revision()
            if revision == self._revision:
                return revision
            if not getattr(self.store, "incremental", False):  # an old read-only PostgreSQL store
                self._reset()
                rows = self.store.results()
            else:
                rows = self.store.results(after=self._seq)
                # (no rows and the same count: a session written between the revision and
                # the read last time, already read then)
                if any(row["id"] in self._seen for row in rows) \
                        or (not rows and len(self._seen) != revision[0]):
                    self._reset()  # a session saved again, or a store changed under it
                    rows = self.store.results()
            self._add(rows)
            self._revision = revision
            return revision

    def _add(self, rows: list[dict[str, Any]]) -> None:
        before = self._seq
        for row in rows:
            self._seq = max(self._seq, int(row["seq"]))
            rated = rated_results(result_of_row(row))  # a team game: its opposing pairs
            self._seen[row["id"]] = rated
            if isinstance(rated, str):
                self._dropped[rated] += 1
                continue
            for result in rated:
                key = _order(result)
                at = bisect.bisect(self._keys, key)
                self._keys.insert(at, key)
                self._results.insert(at, result)
                keys, game = self._by_game.setdefault(result.game, ([], []))
                at = bisect.bisect(keys, key)
                keys.insert(at, key)
                game.insert(at, result)
                self._versions[result.game] = self._versions.get(result.game, 0) + 1
                self._nra.add(result)
                self._nra_copy = None
                self._log.append(result)
        played = {row["game"] for row in rows} & set(gama_table.GAMES)
        for name in sorted(played):  # GAMA-Bench's scores live in the records' metrics
            for record in self.store.records(game=name, after=before if before else 0):
                self._gama[record.id] = replace(record, moves=[])
        if played:
            self._gama_version += 1
            self._gama_list = None

    def snapshot(self, *, results: bool = True) -> Snapshot:
        """What the reader holds now; copies of what later reads change (the NRA sums and
        GAMA-Bench's records are copied once per change, not per snapshot). Without
        ``results`` the result lists are left empty (point ratings read :meth:`since`)."""
        with self._lock:
            if self._nra_copy is None:
                self._nra_copy = self._nra.copy()
            if self._gama_list is None:
                self._gama_list = list(self._gama.values())
            by_game = {g: list(rows) if results else [] for g, (_, rows) in
                       sorted(self._by_game.items())}
            return Snapshot(self._revision or (0, 0, 0),
                            list(self._results) if results else [], by_game,
                            dict(self._versions), Counter(self._dropped), self._nra_copy,
                            self._gama_list, self._gama_version, self.reloads)

    def since(self, position: int, reloads: int) -> tuple[list[MatchResult], int, int]:
        """Results read after the first ``position`` (all of them if the reader read the
        store again since ``reloads``): (results, new position, reloads)."""
        with self._lock:
            start = position if reloads == self.reloads else 0
            return self._log[start:], len(self._log), self.reloads


class _GameSums:
    """One game's matches, summed as its point fit and tallies need them, one at a time.

    Two-seat matches add their shares to a comparison matrix; standings add their Luce
    choice events (counts of seats per entity, the entity chosen) with their weights.
    Each match counts once, as in the report (a game's matches weigh the same)."""

    def __init__(self, ties: str) -> None:
        self.ties = ties
        self.entities: list[str] = []
        self.index: dict[str, int] = {}
        self.wins: dict[tuple[int, int], float] = {}
        self.events: dict[tuple[tuple[tuple[int, int], ...], int], float] = {}
        self.played: list[float] = []
        self.total: list[float] = []
        self.matches = 0
        self.tied = 0
        self.version = 0
        self._data: tuple[int, tuple[np.ndarray, resample.ChoiceGroup | None, np.ndarray]] | \
            None = None

    def _item(self, entity: str) -> int:
        if entity not in self.index:
            self.index[entity] = len(self.entities)
            self.entities.append(entity)
            self.played.append(0.0)
            self.total.append(0.0)
        return self.index[entity]

    def add(self, result: MatchResult) -> None:
        self.matches += 1
        self.version += 1
        items = [self._item(e) for e in result.entities]
        tie = result.tie
        self.tied += tie
        mine: dict[int, list[float]] = {}  # tallies: an entity in several seats counts once
        for item, score in zip(items, result.scores, strict=True):
            mine.setdefault(item, []).append(0.5 if tie else score)
        for item, scores in mine.items():
            self.played[item] += 1
            self.total[item] += sum(scores) / len(scores)
        if len(items) == 2:
            a, b = items
            share = (0.5, 0.5) if tie and self.ties == "half" else (0.0, 0.0) if tie \
                else result.scores
            self.wins[(a, b)] = self.wins.get((a, b), 0.0) + share[0]
            self.wins[(b, a)] = self.wins.get((b, a), 0.0) + share[1]
            return
        if tie and self.ties == "drop":
            return
        standing = tuple(sorted(zip(items, result.scores, strict=True),
                                key=lambda p: (-p[1], p[0])))
        for members, chosen, weight in resample.standing_choices(standing):
            counts = tuple(sorted(Counter(members).items()))
            key = (counts, members[chosen])
            self.events[key] = self.events.get(key, 0.0) + weight

    def data(self) -> tuple[np.ndarray, resample.ChoiceGroup | None, np.ndarray]:
        """(comparison matrix, the choice events as one group, each event's weight), worked
        out again only after a match was added."""
        if self._data is None or self._data[0] != self.version:
            self._data = (self.version, self._arrays())
        return self._data[1]

    def _arrays(self) -> tuple[np.ndarray, resample.ChoiceGroup | None, np.ndarray]:
        n = len(self.entities)
        matrix = np.zeros((n, n))
        if self.wins:
            pairs = np.array(list(self.wins), np.int64)
            np.add.at(matrix, (pairs[:, 0], pairs[:, 1]), list(self.wins.values()))
            matrix[np.arange(n), np.arange(n)] = 0.0
        if not self.events:
            return matrix, None, np.zeros(0)
        items = sorted({i for counts, _ in self.events for i, _ in counts})
        local = {item: k for k, item in enumerate(items)}
        counts = np.zeros((len(self.events), len(items)))
        chosen = np.zeros(len(self.events), np.int64)
        for e, (seats, winner) in enumerate(self.events):
            for item, c in seats:
                counts[e, local[item]] = c
            chosen[e] = local[winner]
        every = np.arange(len(self.events), dtype=np.int64)  # event e is "cell" e, weight 1
        group = resample.ChoiceGroup(np.array(items, np.int64), counts, chosen, every, every,
                                     np.ones(len(every)))
        return matrix, group, np.array(list(self.events.values()))


@dataclass
class _Point:
    """A point fit with what the table shows beside it."""

    entities: list[str]
    games: tuple[str, ...]
    point: np.ndarray
    played: np.ndarray
    score: np.ndarray
    ties: int
    matches: int


def _point_fit(n: int, matrix: np.ndarray, groups: list[resample.ChoiceGroup],
               weights: list[np.ndarray], alpha: float, start: np.ndarray | None,
               fixed: dict[int, float] | None = None) -> np.ndarray:
    """The fit on the whole weighted data given as sums: the same fixed point as
    ``bt.fit_point`` on the matches' cells (with ``fixed``: the anchored fit, centred by
    the caller only when nothing is fixed)."""
    events = sum(len(w) for w in weights)
    cells = resample.Cells(n, np.zeros((0, 2), np.int64), np.zeros((0, 2)), tuple(groups),
                           np.ones(events), np.zeros(events, np.int64),
                           np.array([max(events, 1)], np.int64))
    sample = resample.Sample(matrix[None], np.concatenate(weights or [np.zeros(0)])[None])
    if fixed:
        from sessions.ratings.anchors import fit_fixed

        return fit_fixed(cells, sample, fixed, alpha=alpha, tol=bt.POINT_STOP)[0]
    return bt.fit(cells, sample, alpha=alpha, start=start, tol=bt.POINT_STOP)[0]


def _centred(point: np.ndarray, fixed: dict[int, float]) -> np.ndarray:
    return point if fixed else point - point.mean()


class PointRatings:
    """Each game's sums, point fit and tallies, brought up to date with the sessions read
    since the last call (one at a time), and the overall point fit over them."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.sums: dict[str, _GameSums] = {}
        self.points: dict[str, tuple[int, _Point]] = {}
        self.overall: _Point | None = None
        self.position, self.reloads = 0, -1

    def update(self, reader: StoreReader) -> None:
        new, self.position, reloads = reader.since(self.position, self.reloads)
        if reloads != self.reloads:
            self.sums, self.points, self.reloads = {}, {}, reloads
        for result in new:
            self.sums.setdefault(result.game, _GameSums(self.settings.ties)).add(result)

    def _game(self, game: str) -> _Point:
        sums = self.sums[game]
        held = self.points.get(game)
        if held is not None and held[0] == sums.version:
            return held[1]
        matrix, group, weights = sums.data()
        start = _start(held[1] if held else None, sums.entities)
        fixed = anchored(self.settings.anchors, game, sums.entities)
        point = _point_fit(len(sums.entities), matrix, [group] if group else [],
                           [weights] if group else [], self.settings.alpha, start, fixed)
        made = _Point(list(sums.entities), (game,), _centred(point, fixed),
                      np.array(sums.played),
                      np.array(sums.total) / np.maximum(sums.played, 1), sums.tied,
                      sums.matches)
        self.points[game] = (sums.version, made)
        return made

    def report(self, base: RatingReport, base_counts: dict[str, int], games: list[str],
               dropped: Counter[str]) -> tuple[RatingReport, int]:
        """``base`` with the games whose match counts moved since ``base_counts`` moved:
        (the report, how many of its matches ``base``'s intervals do not hold)."""
        tables: dict[str, RatingTable] = {}
        fits = []
        for game in games:
            fit = self._game(game)
            old = base.games.get(game)
            unchanged = base_counts.get(game) == fit.matches
            tables[game] = old if old is not None and unchanged else _moved(old, game, fit)
            fits.append(fit)
        overall = self._overall(games)
        table = _moved(base.overall if base.overall.rows else None, None, overall)
        pending = overall.matches - base.overall.matches
        return RatingReport(table, tables, dict(dropped), base.settings), max(pending, 0)

    def _overall(self, games: list[str]) -> _Point:
        """The overall point fit: each game's sums weighted so that every game counts the
        same (a match of game g weighs N/(G·N_g), as the report's weights 1/N_g give)."""
        entities = sorted({e for g in games for e in self.sums[g].entities})
        index = {e: i for i, e in enumerate(entities)}
        n, total = len(entities), sum(self.sums[g].matches for g in games)
        matrix, played, score_total = np.zeros((n, n)), np.zeros(n), np.zeros(n)
        groups, weights = [], []
        offset, ties = 0, 0
        for game in games:
            sums = self.sums[game]
            scale = total / (len(games) * sums.matches)
            where = np.array([index[e] for e in sums.entities], np.int64)
            mine, group, kw = sums.data()
            matrix[np.ix_(where, where)] += scale * mine
            if group is not None:
                groups.append(group.placed(where, offset))
                weights.append(scale * kw)
                offset += len(kw)
            fit = self._game(game)
            np.add.at(played, where, fit.played)
            np.add.at(score_total, where, fit.played * fit.score)
            ties += sums.tied
        fixed = anchored(self.settings.anchors, games[0] if len(games) == 1 else None, entities)
        point = _point_fit(n, matrix, groups, weights, self.settings.alpha,
                           _start(self.overall, entities), fixed)
        self.overall = _Point(entities, tuple(games), _centred(point, fixed), played,
                              score_total / np.maximum(played, 1), ties, total)
        return self.overall


def _start(before: _Point | None, entities: list[str]) -> np.ndarray | None:
    """The earlier point fit over ``entities`` (0 for a new one), to start the new fit."""
    if before is None:
        return None
    where = {e: i for i, e in enumerate(before.entities)}
    return np.array([before.point[where[e]] if e in where else 0.0 for e in entities])


def _moved(old: RatingTable | None, game: str | None, fit: _Point) -> RatingTable:
    """``old`` moved by how much each entity's point fit moved; a new entity gets its point
    fit and no interval (NaN) until the bootstrap runs."""
    entities = fit.entities
    before = {r.entity: (k, r) for k, r in enumerate(old.rows)} if old is not None else {}
    n = len(entities)
    rating, low, high = np.array(fit.point, float), np.full(n, np.nan), np.full(n, np.nan)
    samples = np.repeat(fit.point[None, :], old.samples.shape[0] if old else 0, axis=0)
    for i, e in enumerate(entities):
        if e in before and old is not None:
            k, r = before[e]
            shift = fit.point[i] - r.fit
            rating[i], low[i], high[i] = r.rating + shift, r.low + shift, r.high + shift
            samples[:, i] = old.samples[:, k] + shift
    known = ~np.isnan(low)
    ranks = overlap_ranks(np.where(known, low, rating), np.where(known, high, rating))
    order = np.argsort(-rating, kind="stable")
    rows = [Rating(entities[i], float(rating[i]), float(low[i]), float(high[i]), int(ranks[i]),
                   int(fit.played[i]), float(fit.score[i]), float(fit.point[i]))
            for i in order]
    return RatingTable(game, fit.matches, fit.ties, rows, samples[:, order], fit.games)


class Budget:
    """CPU seconds the background work may spend: a bucket filled at ``share`` seconds per
    second that holds at most ``burst``. Work may overdraw it; what follows then waits."""

    def __init__(self, share: float, burst: float = 0.5) -> None:
        self.share, self.burst = share, burst
        self._tokens, self._at = burst, time.monotonic()
        self._lock = threading.Lock()
        self.spent = 0.0

    def _fill(self) -> None:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.share)
        self._at = now

    def spend(self, seconds: float) -> None:
        with self._lock:
            self._fill()
            self._tokens -= seconds
            self.spent += seconds

    def wait(self, seconds: float) -> float:
        """How long until ``seconds`` of CPU may be spent (0: now)."""
        with self._lock:
            self._fill()
            return max(0.0, (seconds - self._tokens) / self.share)
