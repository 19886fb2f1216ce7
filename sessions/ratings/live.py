"""Ratings that keep up with a store while people play, at a bounded share of one core.

Three parts, used by :class:`sessions.ratings.leaderboard.Leaderboard` when it is live:

* :class:`StoreReader` reads only the sessions written since it last looked (the store's
  ``seq``), keeps the results sorted as ``Store.results()`` gives them, split by game, with
  the NRA sums and GAMA-Bench's records (without their moves) up to date.
* :class:`PointRatings` turns a finished report into one that already counts the newest
  sessions: matches, win rates and each entity's point fit are exact; the rating (the
  bootstrap mean) and its interval are the last report's, moved by how much the point fit
  moved. Only the games that changed are fitted again (one small Newton fit each).
* :class:`Budget` keeps the full recomputation (the bootstrap) in the background under a
  share of one core: a bucket of CPU seconds filled at that share.
"""

from __future__ import annotations

import bisect
import math
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from sessions.ratings import bradley_terry as bt
from sessions.ratings import gama_table, resample
from sessions.ratings.matches import Matches
from sessions.ratings.nra import NRASums
from sessions.ratings.report import Rating, RatingReport, RatingTable, Settings, overlap_ranks
from sessions.ratings.results import MatchResult, result_of_row

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


class StoreReader:
    """A store's rateable results, read a little at a time.

    Each :meth:`refresh` asks the store for its revision (one small query) and, when it
    moved, reads only the sessions written since (``Store.results(after=seq)``). A session
    saved again under its id, or a store that changed under it, makes it read everything
    again."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._revision: tuple[int, int, int] | None = None
        self._reset()

    def _reset(self) -> None:
        self._seq = 0
        self._seen: dict[str, MatchResult | str] = {}
        self._keys: list[tuple[float, str]] = []
        self._results: list[MatchResult] = []
        self._by_game: dict[str, tuple[list[tuple[float, str]], list[MatchResult]]] = {}
        self._versions: dict[str, int] = {}
        self._dropped: Counter[str] = Counter()
        self._nra = NRASums()
        self._nra_copy: NRASums | None = None
        self._gama: dict[str, MatchRecord] = {}
        self._gama_version = getattr(self, "_gama_version", 0) + 1
        self._gama_sorted: list[MatchRecord] | None = None
        self.reloads = getattr(self, "reloads", -1) + 1

    def refresh(self) -> tuple[int, int, int]:
        """Read what was written since the last call; the store's revision."""
        with self._lock:
            revision = self.store.revision()
            if revision == self._revision:
                return revision
            rows = self.store.results(after=self._seq)
            if (not rows and self._seen) or any(row["id"] in self._seen for row in rows):
                self._reset()  # a session saved again under its id: read everything again
                rows = self.store.results()
            self._add(rows)
            self._revision = revision
            return revision

    def _add(self, rows: list[dict[str, Any]]) -> None:
        before = self._seq
        for row in rows:
            self._seq = max(self._seq, int(row["seq"]))
            result = result_of_row(row)
            self._seen[row["id"]] = result
            if isinstance(result, str):
                self._dropped[result] += 1
                continue
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
        played = {row["game"] for row in rows} & set(gama_table.GAMES)
        for name in sorted(played):  # GAMA-Bench's scores live in the records' metrics
            for record in self.store.records(game=name, after=before):
                self._gama[record.id] = replace(record, moves=[])
        if played:
            self._gama_version += 1
            self._gama_sorted = None

    def snapshot(self) -> Snapshot:
        """What the reader holds now; copies of what later reads change (the NRA sums and
        GAMA-Bench's records are copied once per change, not per snapshot)."""
        with self._lock:
            if self._nra_copy is None:
                self._nra_copy = self._nra.copy()
            if self._gama_sorted is None:
                order = {game: k for k, game in enumerate(gama_table.GAMES)}
                self._gama_sorted = sorted(self._gama.values(), key=lambda r: (
                    order[r.game], -math.inf if r.ended_at is None else r.ended_at, r.id))
            return Snapshot(self._revision or (0, 0, 0), list(self._results),
                            {g: list(rows) for g, (_, rows) in sorted(self._by_game.items())},
                            dict(self._versions), Counter(self._dropped), self._nra_copy,
                            self._gama_sorted, self._gama_version)


@dataclass
class _GamePoint:
    version: int
    ids: set[str]
    matches: Matches
    cells: resample.Cells
    point: np.ndarray
    played: np.ndarray
    score: np.ndarray
    ties: int


@dataclass
class PointRatings:
    """Each game's point fit and tallies, kept until the game's matches change."""

    settings: Settings
    parts: dict[str, _GamePoint] = field(default_factory=dict)
    _overall: _GamePoint | None = None

    def _part(self, game: str, rows: list[MatchResult], version: int) -> _GamePoint:
        part = self.parts.get(game)
        if part is None or part.version != version:
            ids = {r.id for r in rows}
            if part is not None and part.ids <= ids:  # sessions added: read only those
                matches = part.matches.extend(Matches.of([r for r in rows
                                                          if r.id not in part.ids]))
            else:
                matches = Matches.of(rows)
            cells = matches.cells(self.settings.ties)
            played, score = matches.tallies()
            part = _GamePoint(version, ids, matches, cells,
                              bt.fit_point(cells, alpha=self.settings.alpha,
                                           start=_start(part, matches.entities)),
                              played, score, matches.ties())
            self.parts[game] = part
        return part

    def report(self, base: RatingReport, base_versions: dict[str, int], snapshot: Snapshot,
               games: list[str], dropped: Counter[str]) -> tuple[RatingReport, int]:
        """``base`` (exact for ``base_versions``) with the games of ``snapshot`` that changed
        since: (the report, how many matches it holds that ``base``'s intervals do not)."""
        tables: dict[str, RatingTable] = {}
        parts = []
        for game in games:
            part = self._part(game, snapshot.by_game[game], snapshot.versions[game])
            old = base.games.get(game)
            unchanged = base_versions.get(game) == snapshot.versions[game]
            tables[game] = old if old is not None and unchanged else _moved(old, game, part)
            parts.append(part)
        entities = sorted({e for p in parts for e in p.matches.entities})
        index = {e: i for i, e in enumerate(entities)}
        items = [np.array([index[e] for e in p.matches.entities], np.int64) for p in parts]
        overall = _GamePoint(
            0, set(), Matches(entities, games, np.zeros(0, np.int64), np.zeros((0, 2), np.int64),
                       np.zeros((0, 2)), ()),
            resample.stack([(p.cells, i) for p, i in zip(parts, items, strict=True)],
                           len(entities)),
            np.zeros(0), *_sum_tallies(parts, items, len(entities)),
            sum(p.ties for p in parts))
        overall.point = bt.fit_point(overall.cells, alpha=self.settings.alpha,
                                     start=_start(self._overall, entities))
        self._overall = overall
        matches = sum(len(p.matches) for p in parts)
        table = _moved(base.overall if base.overall.rows else None, None, overall, matches)
        pending = matches - base.overall.matches
        return RatingReport(table, tables, dict(dropped), base.settings), max(pending, 0)


def _start(before: _GamePoint | None, entities: list[str]) -> np.ndarray | None:
    """The earlier point fit over ``entities`` (0 for a new one), to start the new fit."""
    if before is None:
        return None
    where = {e: i for i, e in enumerate(before.matches.entities)}
    return np.array([before.point[where[e]] if e in where else 0.0 for e in entities])


def _sum_tallies(parts: list[_GamePoint], items: list[np.ndarray], n: int
                 ) -> tuple[np.ndarray, np.ndarray]:
    played, total = np.zeros(n), np.zeros(n)
    for part, where in zip(parts, items, strict=True):
        np.add.at(played, where, part.played)
        np.add.at(total, where, part.score * part.played)
    return played, total / np.maximum(played, 1)


def _moved(old: RatingTable | None, game: str | None, part: _GamePoint,
           matches: int | None = None) -> RatingTable:
    """``old`` moved by how much each entity's point fit moved; a new entity gets its point
    fit and no interval (NaN) until the bootstrap runs."""
    entities = part.matches.entities
    before = {r.entity: (k, r) for k, r in enumerate(old.rows)} if old is not None else {}
    n = len(entities)
    rating, low, high = np.array(part.point, float), np.full(n, np.nan), np.full(n, np.nan)
    batch = old.samples.shape[0] if old is not None else 0
    samples = np.repeat(part.point[None, :], batch, axis=0)
    for i, e in enumerate(entities):
        if e in before:
            k, r = before[e]
            shift = part.point[i] - r.fit
            rating[i], low[i], high[i] = r.rating + shift, r.low + shift, r.high + shift
            samples[:, i] = old.samples[:, k] + shift  # type: ignore[union-attr]
    known = ~np.isnan(low)
    ranks = overlap_ranks(np.where(known, low, rating), np.where(known, high, rating))
    order = np.argsort(-rating, kind="stable")
    rows = [Rating(entities[i], float(rating[i]), float(low[i]), float(high[i]), int(ranks[i]),
                   int(part.played[i]), float(part.score[i]), float(part.point[i]))
            for i in order]
    return RatingTable(game, len(part.matches) if matches is None else matches, part.ties, rows,
                       samples[:, order], tuple(part.matches.games))


class Budget:
    """CPU seconds the background work may spend: a bucket filled at ``share`` seconds per
    second that holds at most ``burst``. Work may overdraw it; what follows then waits."""

    def __init__(self, share: float, burst: float = 2.0) -> None:
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
