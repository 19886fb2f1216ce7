"""Ratings that keep up with play: incremental reads, point ratings at once, the bootstrap
in the background, and games that did not change not rated again."""

from __future__ import annotations

import math
import time
from pathlib import Path

import numpy as np
import pytest

from sessions.ratings import bradley_terry as bt
from sessions.ratings.leaderboard import Leaderboard
from sessions.ratings.live import Budget, PointRatings, StoreReader
from sessions.ratings.matches import Matches
from sessions.ratings.report import RateCache, Settings, rate
from sessions.ratings.results import MatchResult, results_from_store
from sessions.record import MatchRecord, SeatRecord
from sessions.store import Store

AGENTS = ("random", "mcts:25:0s", "ismcts:25:0s", "tit-for-tat")


def seat(entity: str) -> SeatRecord:
    return SeatRecord(kind=entity.split(":")[0], spec=entity, entity=entity)


def session(rng: np.random.Generator, when: float, *, game: str | None = None,
            agents: tuple[str, ...] = AGENTS) -> MatchRecord:
    """A finished two-seat match, or (game guess_2_3) a four-seat standing with ties."""
    if game == "guess_2_3":
        who = [agents[i] for i in rng.integers(len(agents), size=4)]
        scores = [float(x) for x in rng.choice([0.0, 0.5, 1.0], size=4)]
        return MatchRecord(game=game, params={}, seed=0, seats=[seat(e) for e in who],
                           scores=scores, returns=scores, outcome="normal", ended_at=when)
    a, b = rng.choice(len(agents), 2, replace=False)
    score = float(rng.choice([0.0, 0.5, 1.0, 1.0]))
    return MatchRecord(game=game or str(rng.choice(["tic_tac_toe", "nim"])), params={},
                       seed=0, seats=[seat(agents[a]), seat(agents[b])],
                       scores=[score, 1 - score], returns=[2 * score - 1, 1 - 2 * score],
                       outcome="normal", ended_at=when)


@pytest.fixture()
def store(tmp_path: Path) -> Store:
    rng = np.random.default_rng(1)
    with Store(tmp_path / "arena.sqlite3") as store:
        for k in range(40):
            store.save(session(rng, 1000.0 + k, game="guess_2_3" if k % 5 == 0 else None))
        yield store


def test_the_reader_reads_only_new_sessions_and_holds_what_a_full_read_gives(store):
    reader = StoreReader(store)
    reader.refresh()
    assert [r.id for r in reader.snapshot().results] == \
        [r.id for r in results_from_store(store).results]
    seq = max(row["seq"] for row in store.results())
    rng = np.random.default_rng(2)
    with Store(store.path) as other:  # another process stores two sessions, one older
        other.save(session(rng, 2000.0))
        other.save(session(rng, 500.0))
    assert [row["ended_at"] for row in store.results(after=seq)] == [500.0, 2000.0]
    reader.refresh()
    snapshot = reader.snapshot()
    assert [r.id for r in snapshot.results] == [r.id for r in results_from_store(store).results]
    assert snapshot.results[0].ended_at == 500.0  # in the store's order, not reading order
    assert reader.reloads == 0  # read incrementally, not again


def test_a_session_saved_again_is_read_again(store):
    reader = StoreReader(store)
    reader.refresh()
    record = session(np.random.default_rng(3), 3000.0, game="nim")
    record.scores, record.returns = [1.0, 0.0], [1.0, -1.0]
    store.save(record)
    reader.refresh()
    flipped = (record.scores[1], record.scores[0])
    record.scores, record.returns = list(flipped), [2 * s - 1 for s in flipped]
    store.save(record)  # the same id (the newest row), other scores
    reader.refresh()
    mine = [r for r in reader.snapshot().results if r.id == record.id]
    assert [r.scores for r in mine] == [flipped]
    assert reader.reloads == 1


@pytest.mark.parametrize("ties", ["half", "drop"])
def test_point_ratings_from_sums_equal_the_fit_on_the_matches(store, ties):
    settings = Settings(bootstrap=20, ties=ties)
    reader = StoreReader(store)
    reader.refresh()
    points = PointRatings(settings)
    points.update(reader)
    results = results_from_store(store).results
    report = rate(results, settings)
    for game in ("tic_tac_toe", "nim", "guess_2_3"):
        fit = points._game(game)
        mine = [r for r in results if r.game == game]
        cells = Matches.of(mine).cells(ties)
        expected = dict(zip(Matches.of(mine).entities, bt.fit_point(cells), strict=True))
        assert dict(zip(fit.entities, fit.point, strict=True)) == pytest.approx(expected,
                                                                               abs=1e-8)
        table = report.games[game]
        assert {e: (p, s) for e, p, s in zip(fit.entities, fit.played, fit.score,
                                               strict=True)} == \
            {r.entity: (r.matches, pytest.approx(r.win_rate)) for r in table.rows}
        assert (fit.ties, fit.matches) == (table.ties, table.matches)
    overall = points._overall(["guess_2_3", "nim", "tic_tac_toe"])
    assert dict(zip(overall.entities, overall.point, strict=True)) == pytest.approx(
        {r.entity: r.fit for r in report.overall.rows}, abs=1e-8)


def test_rate_with_a_cache_redoes_only_the_game_that_changed():
    rng = np.random.default_rng(5)
    results = [MatchResult(game, (a, b), (s, 1 - s))
               for game in ("x", "y", "z") for _ in range(30)
               for a, b in [tuple(rng.choice(AGENTS, 2, replace=False))]
               for s in [float(rng.random() < 0.6)]]
    settings = Settings(bootstrap=100)
    cache = RateCache()
    rate(results, settings, cache=cache)
    more = [*results, MatchResult("y", ("random", "mcts:25:0s"), (1.0, 0.0))]
    again = rate(more, settings, cache=cache)
    assert cache.reused == 2  # x and z
    fresh = rate(more, settings)
    for got, want in [(again.overall, fresh.overall),
                      *((again.games[g], fresh.games[g]) for g in fresh.games)]:
        assert [r.entity for r in got.rows] == [r.entity for r in want.rows]
        assert got.matches == want.matches
        for g, w in zip(got.rows, want.rows, strict=True):
            assert (g.rating, g.low, g.high, g.fit) == pytest.approx(
                (w.rating, w.low, w.high, w.fit), abs=1e-8)


def test_matches_read_in_two_parts_are_the_matches_read_at_once():
    rng = np.random.default_rng(6)
    rows = [MatchResult("g", tuple(rng.choice(AGENTS, 2, replace=False)), (1.0, 0.0))
            for _ in range(20)]
    rows.append(MatchResult("g", ("random", "random", "tit-for-tat"), (1.0, 0.5, 0.0)))
    whole = Matches.of(rows)
    parts = Matches.of(rows[:7]).extend(Matches.of(rows[7:]))
    assert parts.entities == whole.entities
    assert np.array_equal(parts.seats, whole.seats) and len(parts.others) == 1
    assert np.allclose(parts.cells("half").expected().comparisons,
                       whole.cells("half").expected().comparisons)
    assert np.allclose(parts.tallies(), whole.tallies())


def test_a_live_leaderboard_counts_a_new_session_at_once_and_its_intervals_soon(store):
    settings = Settings(bootstrap=100)
    board = Leaderboard(store, settings=settings, live=True, cpu_share=1.0)
    try:
        first = board.view()
        assert first.pending == 0
        with Store(store.path) as other:  # someone finishes a game, with a new agent
            other.save(session(np.random.default_rng(7), 5000.0, game="nim",
                               agents=("random", "llm:openai/gpt-4o-mini")))
        quick = board.view()
        assert quick.pending == 1 and quick.version != first.version
        assert quick.report.overall.matches == first.report.overall.matches + 1
        assert "intervals refreshing for the newest 1 match" in quick.summary()
        newcomer = next(row for row in quick.overall.rows
                        if row[1] == "llm:openai/gpt-4o-mini")
        assert newcomer[5] == 1 and newcomer[3] == newcomer[4] == ""  # no interval yet
        exact = Leaderboard(store, settings=settings).view()
        assert {r.entity: r.fit for r in quick.report.overall.rows} == pytest.approx(
            {r.entity: r.fit for r in exact.report.overall.rows}, abs=1e-8)
        deadline = time.monotonic() + 30
        later = board.view()
        while later.pending and time.monotonic() < deadline:
            time.sleep(0.05)
            later = board.view()
        assert later.pending == 0, "the background refresh did not come"
        for got, want in zip(later.report.overall.rows, exact.report.overall.rows,
                             strict=True):
            assert got.entity == want.entity
            assert (got.rating, got.low, got.high) == pytest.approx(
                (want.rating, want.low, want.high), abs=1e-8)
    finally:
        board.close()


def test_the_budget_makes_background_work_wait_its_share():
    budget = Budget(share=0.5, burst=0.0)
    assert budget.wait(0.0) == 0.0
    budget.spend(1.0)  # one second of CPU: two seconds of wall time before the next
    assert budget.wait(0.5) == pytest.approx(3.0, abs=0.05)
    assert math.isclose(budget.spent, 1.0)
