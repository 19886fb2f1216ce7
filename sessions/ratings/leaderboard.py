"""What the leaderboard tab shows, read from the store and cached until a session is stored.

The app builds one :class:`Leaderboard` over its store and, in each handler, asks for a
:class:`LeaderboardView` with the user's :class:`Filters`. A view holds the tables (overall
with intervals and per-game columns, per-game ratings, head-to-head win probabilities, NRA)
and GAMA-Bench's 0-100 scores of the multi-player games
as :class:`Table` (``table.value`` goes straight into ``gr.Dataframe``), the figures
(matplotlib ``Figure`` objects built without pyplot, so they are safe in server threads;
``gr.Plot`` renders them) and a CSV download.

Caching: every call asks the store for its revision (one small SQL query), so a session
stored by any process shows up on the next refresh; only the sessions stored since are
read, and only the games they belong to are rated again. A live leaderboard (the app's)
shows new sessions at once and redoes the bootstrap in the background within a CPU
budget (:mod:`sessions.ratings.live`).
"""

from __future__ import annotations

import csv
import io
import logging
import math
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sessions.ratings import gama_table
from sessions.ratings.live import Budget, PointRatings, Snapshot, StoreReader
from sessions.ratings.nra import PairNRA, nra_table
from sessions.ratings.report import RateCache, RatingReport, RatingTable, Settings, rate
from sessions.ratings.results import ResultSet, blind_counted, by_player, parse_when, select
from sessions.ratings.versus_people import VersusPeople, versus_people

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from sessions.record import MatchRecord
    from sessions.store import Store


@dataclass(frozen=True)
class Filters:
    """Which sessions to rate: one game (None = all), only those with a human seat, those
    that ended in [since, until) (seconds since the epoch; None = no bound), and only blind
    battles (a person against a model whose name was hidden until the end)."""

    game: str | None = None
    humans_only: bool = False
    since: float | None = None
    until: float | None = None
    blind_only: bool = False

    @classmethod
    def parse(cls, *, game: str | None = None, humans_only: bool = False,
              since: str | float | None = None, until: str | float | None = None,
              blind_only: bool = False) -> Filters:
        """Filters from UI values: "" or "all" for every game, dates as text."""
        return cls(None if game in (None, "", "all") else game, bool(humans_only),
                   parse_when(since), parse_when(until, end=True), bool(blind_only))

    def slug(self) -> str:
        """A file name stem saying what was chosen: leaderboard-all-humans-from-2025-01-01."""
        def day(when: float) -> str:
            return datetime.fromtimestamp(when, UTC).strftime("%Y-%m-%d")
        parts = ["leaderboard", self.game or "all"]
        parts += ["humans"] if self.humans_only else []
        parts += ["blind"] if self.blind_only else []
        parts += ["from", day(self.since)] if self.since is not None else []
        parts += ["to", day(self.until - 1)] if self.until is not None else []
        return "-".join(parts)


@dataclass(frozen=True)
class Table:
    headers: list[str]
    rows: list[list[Any]]

    @property
    def value(self) -> dict[str, Any]:
        """For ``gr.Dataframe(value=...)``."""
        return {"headers": self.headers, "data": self.rows}

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(self.headers)
        writer.writerows(self.rows)
        return out.getvalue()

    def write_csv(self, path: str | Path) -> Path:
        path = Path(path)
        path.write_text(self.csv(), encoding="utf-8")
        return path


def anchored_settings() -> Settings:
    """The app's settings: every fit holds the ladder's shipped anchors (a broken anchors
    file is logged and leaves the scale centred)."""
    from sessions.ratings import anchors

    try:
        return Settings(anchors=anchors.load())
    except (OSError, ValueError) as err:
        logging.getLogger(__name__).warning("ratings are not anchored: %s", err)
        return Settings()


def anchor_note(settings: Settings) -> str:
    """What the anchors mean, in one phrase for above the table."""
    fixed = len(settings.anchors.overall)
    return (f"anchored scale: the difficulty ladder's levels keep their calibrated ratings "
            f"({fixed} fixed overall, per game where calibrated), so numbers compare across "
            "snapshots")


def _r(x: float, digits: int = 2) -> float | str:
    """Rounded for the page; "" for an interval not computed yet (NaN)."""
    return "" if math.isnan(x) else round(float(x), digits)


def overall_table(report: RatingReport) -> Table:
    """Rank, entity, rating, interval, matches, win rate, then one rating column per game."""
    level = f"{report.settings.level:.0%}"
    games = list(report.games)
    rows = []
    for r in report.overall.rows:
        per_game = [report.games[g].get(r.entity) for g in games]
        rows.append([r.rank, r.entity, _r(r.rating), _r(r.low), _r(r.high), r.matches,
                     _r(r.win_rate), *("" if x is None else _r(x.rating) for x in per_game)])
    return Table(["rank", "entity", "rating", f"{level} low", f"{level} high", "matches",
                  "win rate", *games], rows)


def game_table(report: RatingReport) -> Table:
    """Every game's ratings, one row per (game, entity)."""
    level = f"{report.settings.level:.0%}"
    rows = [[game, r.rank, r.entity, _r(r.rating), _r(r.low), _r(r.high), r.matches,
             _r(r.win_rate)]
            for game, table in report.games.items() for r in table.rows]
    return Table(["game", "rank", "entity", "rating", f"{level} low", f"{level} high",
                  "matches", "win rate"], rows)


def win_probability_table(table: RatingTable) -> Table:
    """P(row beats column) from the ratings."""
    p = table.win_probability()
    return Table(["entity", *table.entities],
                 [[e, *(_r(x) for x in p[i])] for i, e in enumerate(table.entities)])


def nra_rows(rows: list[PairNRA]) -> Table:
    return Table(["game", "entity", "opponent", "matches", "NRA", "scored by"],
                 [[r.game, r.entity, r.opponent, r.matches, _r(r.nra, 3),
                   "win/draw/loss" if r.objective == "beat" else "rewards"] for r in rows])


def forest_plot(table: RatingTable, *, level: float = 0.90, title: str | None = None) -> Figure:
    """Ratings with their intervals, best at the top."""
    from matplotlib.figure import Figure

    n = len(table.rows)
    fig = Figure(figsize=(7, 1.2 + 0.35 * max(n, 1)), layout="constrained")
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    rating = np.array([r.rating for r in table.rows])
    low = np.array([r.rating if math.isnan(r.low) else r.low for r in table.rows])
    high = np.array([r.rating if math.isnan(r.high) else r.high for r in table.rows])
    # the rating is the bootstrap mean, which a skewed bootstrap (or rounding, when every
    # resample agrees) can put a hair outside its own percentile interval
    below, above = np.clip(rating - low, 0.0, None), np.clip(high - rating, 0.0, None)
    ax.errorbar(rating, y, xerr=[below, above], fmt="o", color="#1f4e79",
                ecolor="#7aa6d6", elinewidth=3, capsize=0)
    ax.set_yticks(y, [f"{r.rank}. {r.entity}" for r in table.rows])
    ax.axvline(0.0, color="#999999", linewidth=0.8, linestyle=":")
    ax.set_xlabel(f"Bradley–Terry rating (bootstrap mean, {level:.0%} interval)")
    ax.set_title(title or (table.game or "All games"))
    if n == 0:
        ax.text(0.5, 0.5, "no rated matches", ha="center", va="center", transform=ax.transAxes)
    return fig


LABELLED_CELLS = 12
"""Heat maps of up to this many entities print each probability in its cell (beyond that
the labels are unreadable and slow to draw; the head-to-head table has the numbers)."""


def win_probability_plot(table: RatingTable, *, title: str | None = None) -> Figure:
    """Heat map of P(row beats column)."""
    from matplotlib.figure import Figure

    entities = table.entities
    n = len(entities)
    size = 3.0 + 0.45 * max(n, 1)
    fig = Figure(figsize=(size + 1.5, size), layout="constrained")
    ax = fig.add_subplot()
    p = table.win_probability() if n else np.zeros((0, 0))
    image = ax.imshow(p, cmap="RdBu", vmin=0.0, vmax=1.0)
    ax.set_xticks(range(n), entities, rotation=45, ha="right")
    ax.set_yticks(range(n), entities)
    for i in range(n if n <= LABELLED_CELLS else 0):
        for j in range(n):
            if i != j:
                ax.text(j, i, f"{p[i, j]:.2f}", ha="center", va="center", fontsize=8,
                        color="white" if abs(p[i, j] - 0.5) > 0.3 else "black")
    ax.set_xlabel("opponent")
    ax.set_title(title or f"P(row beats column) · {table.game or 'all games'}")
    fig.colorbar(image, ax=ax, shrink=0.8)
    return fig


def gama_scores(records: list[MatchRecord], filters: Filters,
                tally: gama_table.GamaTally | None = None) -> Table:
    """GAMA-Bench's table (mean ± std (sessions) of the 0-100 score per game, and overall)
    over the sessions the filters and their players' consent let in. ``tally`` (for
    filters of at most a game) holds the sessions counted before: only new ones are added."""
    if tally is not None and not (filters.humans_only or filters.blind_only
                                  or filters.since is not None or filters.until is not None):
        for record in records:
            if record.research_use and record.id not in tally.seen:
                tally.add(record)
        rows = tally.rows(filters.game)
    else:
        rows = gama_table.gama_table(r for r in records if r.research_use and _passes(r, filters))
    headers, body = gama_table.table_rows(rows)
    return Table(headers, body)


def _passes(record: MatchRecord, filters: Filters) -> bool:
    ended = record.ended_at
    return ((filters.game is None or record.game == filters.game)
            and (not filters.humans_only or any(s.kind == "human" for s in record.seats))
            and (not filters.blind_only or blind_counted(record.tags))
            and (filters.since is None or (ended is not None and ended >= filters.since))
            and (filters.until is None or (ended is not None and ended < filters.until)))


@dataclass(frozen=True)
class LeaderboardView:
    """Everything the tab shows for one set of filters."""

    filters: Filters
    revision: tuple[int, int, int]
    report: RatingReport
    nra: list[PairNRA]
    nra_skipped: Counter[str] = field(default_factory=Counter)
    gama: Table = field(default_factory=lambda: Table([], []))
    """GAMA-Bench's 0-100 scores (see :func:`gama_scores`)."""
    pending: int = 0
    """Matches the ratings count whose intervals are not computed yet (a live leaderboard
    shows new sessions at once and refreshes the intervals in the background)."""
    people: tuple[VersusPeople, ...] = ()
    """"Beats X% of people" per agent, overall (game None) and per game, best lower bound
    first (:mod:`versus_people`); the page shows it beside each rating."""

    @property
    def version(self) -> tuple[tuple[int, int, int], int]:
        """Differs whenever what the view shows may differ: for the tab's poll."""
        return self.revision, self.pending

    @property
    def overall(self) -> Table:
        return overall_table(self.report)

    @property
    def per_game(self) -> Table:
        return game_table(self.report)

    @property
    def nra_table(self) -> Table:
        return nra_rows(self.nra)

    def scope(self, game: str | None = None) -> RatingTable:
        """The overall ratings, or one game's (KeyError if the game has no rated match)."""
        if game in (None, "", "all"):
            return self.report.overall
        if game not in self.report.games:
            raise KeyError(f"no rated matches of {game!r}; games: "
                           f"{', '.join(self.report.games) or 'none'}")
        return self.report.games[game]

    def win_probabilities(self, game: str | None = None) -> Table:
        return win_probability_table(self.scope(game))

    def forest(self, game: str | None = None) -> Figure:
        return forest_plot(self.scope(game), level=self.report.settings.level)

    def heatmap(self, game: str | None = None) -> Figure:
        return win_probability_plot(self.scope(game))

    def summary(self) -> str:
        """One line for above the table: how much was rated and what was left out."""
        s = self.report.settings
        matches, games = self.report.overall.matches, len(self.report.games)
        parts = [f"{matches} rated match{'es' if matches != 1 else ''}",
                 f"{games} game{'s' if games != 1 else ''}",
                 f"{s.bootstrap} bootstraps", f"{s.level:.0%} intervals",
                 "ties count half" if s.ties == "half" else "ties dropped"]
        if s.anchors:
            parts.append(anchor_note(s))
        if self.pending:
            parts.append(f"intervals refreshing for the newest {self.pending} "
                         f"match{'es' if self.pending != 1 else ''}")
        dropped = sum(self.report.dropped.values())
        if dropped:
            parts.append(f"not rated: {dropped} (" + ", ".join(
                f"{n} {why}" for why, n in sorted(self.report.dropped.items())) + ")")
        return " · ".join(parts)

    def csv(self, directory: str | Path) -> Path:
        """Write the overall table as CSV into ``directory``; the path, for a download."""
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        return self.overall.write_csv(directory / f"{self.filters.slug()}-{self.revision[0]}"
                                                  "-sessions.csv")


class Leaderboard:
    """A store's ratings, recomputed only when a session is stored or the filters change.

    Every call reads only the sessions stored since the last one (:class:`StoreReader`);
    a game's table is refitted only when its matches changed (:class:`RateCache`). With
    ``live`` (the app), :meth:`view` never waits for the bootstrap: it returns the last
    full view, moved to count the newest sessions (point ratings, matches, win rates;
    :class:`PointRatings`), and recomputes the intervals in a background thread that
    spends at most ``cpu_share`` of one core on average (:class:`Budget`). Without it
    (tests, scripts), :meth:`view` computes everything before returning.
    """

    def __init__(self, store: Store, *, settings: Settings | None = None,
                 player_min_matches: int | None = None, cache_size: int = 16,
                 live: bool = False, cpu_share: float = 0.04) -> None:
        self.store = store
        settings = settings if settings is not None else anchored_settings()
        self.settings = settings
        self.player_min_matches = player_min_matches
        self.live = live
        self.reader = StoreReader(store)
        self.budget = Budget(cpu_share)
        self._cache_size = cache_size
        self._lock = threading.Lock()
        self._views: OrderedDict[Filters, LeaderboardView] = OrderedDict()  # the last full
        self._quick: dict[Filters, LeaderboardView] = {}
        self._caches: OrderedDict[Filters, RateCache] = OrderedDict()
        self._points = PointRatings(settings)
        self._moving = threading.Lock()
        self._gama: dict[Filters, tuple[int, Table]] = {}
        self._gama_tally = gama_table.GamaTally()  # every shared GAMA-Bench session so far
        self._tally_reloads = 0
        self._tallying = threading.Lock()
        self._wanted: list[Filters] = []
        self._wake = threading.Condition(self._lock)
        self._worker: threading.Thread | None = None
        self._closed = False
        self.refreshes = 0  # full views computed (bootstrap included)

    def results(self) -> tuple[tuple[int, int, int], ResultSet]:
        """(store revision, rateable results), read again only when the revision moved."""
        revision = self.reader.refresh()
        snapshot = self.reader.snapshot()
        found = ResultSet(snapshot.results, snapshot.dropped)
        if self.player_min_matches:
            found.results = by_player(found.results, self.player_min_matches)
        return revision, found

    def gama_records(self) -> list[MatchRecord]:
        """The stored sessions of GAMA-Bench's games (without their moves)."""
        self.reader.refresh()
        return self.reader.snapshot().gama

    def games(self) -> list[str]:
        """Games with at least one rated match, for the game filter."""
        self.reader.refresh()
        return sorted(self.reader.snapshot().by_game)

    def view(self, filters: Filters = Filters()) -> LeaderboardView:
        started = time.thread_time()
        revision = self.reader.refresh()
        with self._lock:
            held = self._views.get(filters)
            if held is not None and held.revision == revision:
                self._views.move_to_end(filters)
                return held
            quick = self._quick.get(filters)
            if self.live and quick is not None and quick.revision == revision:
                return quick
        if not self.live or held is None:
            return self._full(filters)
        with self._moving:
            view = self._moved(filters, held, revision)
        self.budget.spend(time.thread_time() - started)  # reading the new sessions included
        with self._lock:
            self._quick.pop(filters, None)
            self._quick[filters] = view
            while len(self._quick) > self._cache_size:
                self._quick.pop(next(iter(self._quick)))
            if filters not in self._wanted:
                self._wanted.append(filters)
            self._start_worker()
            self._wake.notify()
        return view

    def _moved(self, filters: Filters, base: LeaderboardView,
               revision: tuple[int, int, int]) -> LeaderboardView:
        """The last full view with the newest sessions counted (point ratings), or as it
        was when the filters need the whole bootstrap (people only, dates, by player)."""
        if filters.humans_only or filters.blind_only or filters.since is not None \
                or filters.until is not None or self.player_min_matches:
            return base
        snapshot = self.reader.snapshot(results=False)
        self._points.update(self.reader)
        games = [g for g in snapshot.by_game if filters.game in (None, g)]
        if not games or any(g not in self._points.sums for g in games):
            return base
        counts = {game: table.matches for game, table in base.report.games.items()}
        report, pending = self._points.report(base.report, counts, games, snapshot.dropped)
        return replace(base, revision=snapshot.revision, report=report,
                       nra=snapshot.nra.rows(filters.game),
                       nra_skipped=snapshot.nra.skipped(filters.game),
                       gama=self._gama_table(snapshot, filters), pending=pending)

    def _full(self, filters: Filters, *, paced: bool = False) -> LeaderboardView:
        """Everything for the filters, bootstrap included (games that did not change since
        the last time reuse their tables). ``paced`` work (the background refresh) is paid
        from the CPU budget; a view someone waits for is computed at once."""
        started = time.thread_time()
        snapshot = self.reader.snapshot()
        results = snapshot.results
        if self.player_min_matches:
            results = by_player(results, self.player_min_matches)
        simple = not (filters.humans_only or filters.blind_only or filters.since is not None
                      or filters.until is not None)
        chosen = (snapshot.by_game.get(filters.game, []) if filters.game else results) \
            if simple and not self.player_min_matches else \
            select(results, game=filters.game, humans_only=filters.humans_only,
                   since=filters.since, until=filters.until, blind_only=filters.blind_only)
        if simple and not self.player_min_matches:
            rows, skipped = snapshot.nra.rows(filters.game), snapshot.nra.skipped(filters.game)
        else:
            rows, skipped = nra_table(chosen)
        with self._lock:
            cache = self._caches.pop(filters, None) or RateCache()
        report = rate(chosen, self.settings, dropped=snapshot.dropped, cache=cache)
        view = LeaderboardView(filters, snapshot.revision, report, rows, skipped,
                               self._gama_table(snapshot, filters),
                               people=tuple(versus_people(chosen, by_game=True)))
        with self._lock:
            self._caches[filters] = cache
            while len(self._caches) > _RATE_CACHES:
                self._caches.popitem(last=False)
            self._views[filters] = view
            self._views.move_to_end(filters)
            while len(self._views) > self._cache_size:
                self._views.popitem(last=False)
        if paced:
            self.budget.spend(time.thread_time() - started)
        elif self.live and self.refreshes == 0:  # start-up: sum the games for point ratings
            with self._moving:
                self._points.update(self.reader)
        self.refreshes += 1
        return view

    def _gama_table(self, snapshot: Snapshot, filters: Filters) -> Table:
        with self._tallying:
            if snapshot.reloads != self._tally_reloads:  # sessions may have been replaced
                self._gama_tally, self._tally_reloads = gama_table.GamaTally(), snapshot.reloads
            held = self._gama.get(filters)
            if held is None or held[0] != snapshot.gama_version:
                held = (snapshot.gama_version,
                        gama_scores(snapshot.gama, filters, self._gama_tally))
                self._gama[filters] = held
            return held[1]

    # --- the background refresh (live only) -------------------------------------------------

    def _start_worker(self) -> None:
        if self._worker is None or not self._worker.is_alive():
            self._worker = threading.Thread(target=self._work, name="leaderboard",
                                            daemon=True)
            self._worker.start()

    def _work(self) -> None:
        cost = 0.0
        while True:
            with self._lock:
                while not self._wanted and not self._closed:
                    self._wake.wait()
                if self._closed:
                    return
            delay = self.budget.wait(cost)
            if delay:
                with self._lock:
                    self._wake.wait(timeout=min(delay, 60.0))
                continue
            with self._lock:
                filters = self._wanted.pop(0)
            started = time.thread_time()
            self.reader.refresh()
            self._full(filters, paced=True)
            cost = time.thread_time() - started

    def close(self) -> None:
        """Stop the background refresh (the app never does; tests and benchmarks do)."""
        with self._lock:
            self._closed = True
            self._wake.notify_all()
        if self._worker is not None:
            self._worker.join()


_RATE_CACHES = 2
"""Filters whose per-game resamples are kept between refreshes (each holds B × n² numbers
per game: tens of megabytes on a busy arena)."""
