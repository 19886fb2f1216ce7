"""The Bradley–Terry / Plackett–Luce fit: against choix, hand-worked cases, known strengths."""

from __future__ import annotations

import math
import warnings

import choix
import numpy as np
import pytest
from scipy.stats import spearmanr

from sessions.ratings import bradley_terry as bt
from sessions.ratings import resample
from sessions.ratings.report import Settings, cells_of, overlap_ranks, rate
from sessions.ratings.results import MatchResult


def two_item_rating_gap(wins: float, losses: float, alpha: float) -> float:
    """θ_A − θ_B for two items by hand: with π_A + π_B = 2 and π_A = 1 + u, the regularised
    fixed point (x − y − u(x + y))/2 = α·n·u (n = 2) gives u = (x − y)/(x + y + 4α)."""
    u = (wins - losses) / (wins + losses + 4 * alpha)
    return math.log((1 + u) / (1 - u))


def results(*rows: tuple[str, str, str, float, float]) -> list[MatchResult]:
    return [MatchResult(game, (a, b), (sa, sb)) for game, a, b, sa, sb in rows]


def point_fit(rows: list[MatchResult], ties: str = "half", alpha: float = 0.01) -> dict:
    report = rate(rows, Settings(bootstrap=20, ties=ties, alpha=alpha), per_game=False)
    return {r.entity: r.fit for r in report.overall.rows}


def synthetic(rng: np.random.Generator, strengths: np.ndarray, per_game: list[int],
              draw_rate: float = 0.1) -> list[MatchResult]:
    """Two-seat matches between random pairs with Bradley–Terry expected scores.

    Draws take probability mass equally from the win and the loss (up to ``draw_rate`` for
    even pairs), so E[score of a] = P(a beats b) still holds, as the fractional model needs.
    """
    out = []
    n = len(strengths)
    for g, count in enumerate(per_game):
        a = rng.integers(0, n, count)
        b = (a + rng.integers(1, n, count)) % n
        p = 1 / (1 + np.exp(strengths[b] - strengths[a]))
        draw = draw_rate * np.minimum(p, 1 - p)
        u = rng.random(count)
        score = np.where(u < p - draw, 1.0, np.where(u < p + draw, 0.5, 0.0))
        out += [MatchResult(f"game{g}", (f"agent{a[i]}", f"agent{b[i]}"), (s, 1 - s))
                for i, s in enumerate(score)]
    return out


# --- our Newton fitter against choix --------------------------------------------------------

def random_cells(rng: np.random.Generator, n: int = 7, matches: int = 300) -> resample.Cells:
    a = rng.integers(0, n, matches)
    b = (a + rng.integers(1, n, matches)) % n
    share = rng.choice([0.0, 0.25, 0.5, 0.8, 1.0], matches)
    weight = rng.choice([1 / 10, 1 / 40, 1 / 90], matches)
    return resample.collapse(n, a, b, share, 1 - share, weight)


@pytest.mark.parametrize("alpha", [0.001, 0.01, 0.5])
def test_newton_fit_equals_choix_on_the_weighted_data_and_on_resamples(alpha):
    rng = np.random.default_rng(3)
    cells = random_cells(rng)
    assert np.allclose(bt.fit(cells, cells.expected(), alpha=alpha)[0],
                       bt.fit_choix(cells, alpha=alpha), atol=1e-6)
    sample = resample.draw(cells, 5, rng)
    ours = bt.fit(cells, sample, alpha=alpha, start=bt.fit_choix(cells, alpha=alpha))
    for b, row in enumerate(ours):
        assert np.allclose(row, bt.fit_choix(cells, sample.row(b), alpha=alpha), atol=1e-6)


def test_if_choix_does_not_converge_newton_gives_the_same_fit(monkeypatch):
    rows = synthetic(np.random.default_rng(17), np.linspace(-2, 2, 5), [60, 30])
    expected = rate(rows, Settings(bootstrap=30)).to_dict()

    def no_convergence(*args, **kwargs):
        raise RuntimeError("Did not converge after 100 iterations")

    monkeypatch.setattr(choix, "ilsr_pairwise_dense", no_convergence)
    fallback = rate(rows, Settings(bootstrap=30)).to_dict()
    for got, want in zip(fallback["overall"]["ratings"], expected["overall"]["ratings"],
                         strict=True):
        assert got["entity"] == want["entity"]
        assert got["fit"] == pytest.approx(want["fit"], abs=1e-6)
        assert got["rating"] == pytest.approx(want["rating"], abs=1e-6)


def test_comparison_matrix_goes_to_ilsr_pairwise_dense_unchanged():
    # Two-seat data is exactly choix.ilsr_pairwise_dense on the fractional comparison matrix.
    rng = np.random.default_rng(4)
    cells = random_cells(rng, n=5, matches=80)
    matrix = cells.expected().comparisons[0]
    assert np.allclose(bt.fit_choix(cells, alpha=0.01),
                       choix.ilsr_pairwise_dense(matrix, alpha=0.01, max_iter=1000), atol=1e-9)


# --- hand-worked cases -------------------------------------------------------------------------

def test_a_draw_is_half_a_win_each_way_and_drop_ignores_it():
    rows = results(("g", "A", "B", 1, 0), ("g", "A", "B", 0.5, 0.5))
    half = point_fit(rows, ties="half")
    # n = 2 matches, resample weight ½ each: A has 1 + ½ wins, B has ½.
    assert half["A"] - half["B"] == pytest.approx(two_item_rating_gap(1.5, 0.5, 0.01), abs=1e-6)
    dropped = point_fit(rows, ties="drop")
    assert dropped["A"] - dropped["B"] == pytest.approx(two_item_rating_gap(1, 0, 0.01), abs=1e-6)


def test_a_zero_zero_result_is_a_tie_too():
    # GameBench stored some Hive draws as 0–0; they are ties, not nothing.
    half = point_fit(results(("g", "A", "B", 1, 0), ("g", "A", "B", 0, 0)))
    assert half["A"] - half["B"] == pytest.approx(two_item_rating_gap(1.5, 0.5, 0.01), abs=1e-6)


def test_fractional_scores_are_fractional_wins():
    fit = point_fit(results(("g", "A", "B", 0.7, 0.3)))
    assert fit["A"] - fit["B"] == pytest.approx(two_item_rating_gap(0.7, 0.3, 0.01), abs=1e-6)
    # and scale with the count: ten 0.7–0.3 matches are seven wins and three losses.
    ten = point_fit(results(*[("g", "A", "B", 0.7, 0.3)] * 10))
    assert ten["A"] - ten["B"] == pytest.approx(two_item_rating_gap(7, 3, 0.01), abs=1e-6)


def test_regularisation_keeps_an_unbeaten_agent_finite():
    rows = results(*[("g", "A", "B", 1, 0)] * 5)
    gaps = []
    for alpha in (0.5, 0.01, 0.001):
        fit = point_fit(rows, alpha=alpha)
        gap = fit["A"] - fit["B"]
        assert math.isfinite(gap)
        assert gap == pytest.approx(two_item_rating_gap(5, 0, alpha), abs=1e-6)
        gaps.append(gap)
    assert gaps[0] < gaps[1] < gaps[2]  # less regularisation, larger gap
    with pytest.raises(ValueError, match="alpha must be > 0"):
        rate(rows, Settings(alpha=0.0))


def test_matches_are_weighted_one_over_the_games_match_count():
    # A beat B once in game x; B beat A three times in game y. Each game counts equally.
    rows = results(("x", "A", "B", 1, 0), *[("y", "A", "B", 0, 1)] * 3)
    fit = point_fit(rows)
    assert fit["A"] == pytest.approx(fit["B"], abs=1e-9)
    pooled = cells_of(rows, ["A", "B"], "half")
    by_game = resample.stack([(cells_of(rows[:1], ["A", "B"], "half"), np.array([0, 1])),
                        (cells_of(rows[1:], ["A", "B"], "half"), np.array([0, 1]))], 2)
    for cells in (pooled, by_game):
        assert cells.expected().comparisons[0] == pytest.approx(np.array([[0, 2], [2, 0]]))
    # GameBench: four draws, each game equally likely
    draws = resample.counts(pooled, 4000, np.random.default_rng(0))
    assert draws.sum(axis=1) == pytest.approx(np.full(4000, 4))  # n matches per resample
    assert draws.mean(axis=0) == pytest.approx([2, 2], abs=0.05)
    # by game: x's one match is drawn once and y's three thrice, each game scaled to weigh 2
    draws = resample.counts(by_game, 4000, np.random.default_rng(0))
    assert draws.sum(axis=1) == pytest.approx(np.full(4000, 4))
    assert np.unique(draws[:, 0]).tolist() == [2.0]
    # without the weighting (one game), B would be ahead.
    unweighted = point_fit(results(("x", "A", "B", 1, 0), *[("x", "A", "B", 0, 1)] * 3))
    assert unweighted["B"] > unweighted["A"]


def test_rank_counts_the_intervals_wholly_above():
    low = np.array([2.0, 1.0, -1.0, -3.0])
    high = np.array([4.0, 3.0, 0.5, -2.0])
    # A and B overlap (both 1st); C is below both (3rd); D is below all three (4th).
    assert overlap_ranks(low, high).tolist() == [1, 1, 3, 4]


def test_report_rows_are_best_first_with_overlap_ranks_and_tallies():
    rows = results(*[("g", "A", "B", 1, 0)] * 6, *[("g", "B", "C", 1, 0)] * 6,
                   ("g", "A", "C", 0.5, 0.5))
    table = rate(rows, Settings(bootstrap=300)).overall
    assert [r.entity for r in table.rows] == ["A", "B", "C"]
    a, b, c = table.rows
    assert a.low <= a.rating <= a.high
    assert (a.matches, a.win_rate) == (7, pytest.approx(6.5 / 7))
    assert c.win_rate == pytest.approx(0.5 / 7)
    assert [r.rank for r in table.rows] == overlap_ranks(
        [r.low for r in table.rows], [r.high for r in table.rows]).tolist()
    assert table.samples.shape == (300, 3)


def test_same_seed_same_report_other_seed_other_resamples():
    rows = synthetic(np.random.default_rng(5), np.linspace(-1, 1, 4), [40, 25])
    first = rate(rows, Settings(bootstrap=200, seed=9))
    again = rate(rows, Settings(bootstrap=200, seed=9))
    other = rate(rows, Settings(bootstrap=200, seed=10))
    assert first.to_dict() == again.to_dict()
    assert not np.array_equal(first.overall.samples, other.overall.samples)
    # a game's resamples do not depend on which other games are in the data
    alone = rate([r for r in rows if r.game == "game1"], Settings(bootstrap=200, seed=9))
    assert np.array_equal(alone.games["game1"].samples, first.games["game1"].samples)


def test_overall_ratings_do_not_depend_on_asking_for_the_game_tables():
    rows = synthetic(np.random.default_rng(15), np.linspace(-1, 1, 5), [60, 30, 10])
    for resampling in ("game", "pooled"):
        settings = Settings(bootstrap=150, resampling=resampling)
        with_games = rate(rows, settings)
        alone = rate(rows, settings, per_game=False)
        assert alone.games == {}
        assert np.array_equal(alone.overall.samples, with_games.overall.samples)


def test_both_resamplings_centre_on_the_same_weighted_fit():
    rows = synthetic(np.random.default_rng(16), np.linspace(-1, 1, 5), [80, 20])
    game = rate(rows, Settings(bootstrap=50, resampling="game")).overall
    pooled = rate(rows, Settings(bootstrap=50, resampling="pooled")).overall
    assert {r.entity: r.fit for r in game.rows} == pytest.approx(
        {r.entity: r.fit for r in pooled.rows}, abs=1e-9)


# --- N-seat standings: Plackett–Luce in the same fit --------------------------------------

def pl_standings(rng: np.random.Generator, strengths: np.ndarray, count: int, seats: int
                 ) -> list[tuple[list[int], list[float]]]:
    """Standings drawn from Plackett–Luce (Gumbel trick); scores = placement shares."""
    out = []
    for _ in range(count):
        items = rng.choice(len(strengths), seats, replace=False)
        noisy = strengths[items] + rng.gumbel(size=seats)
        out.append((list(items), list(noisy.argsort().argsort() / (seats - 1))))
    return out


def test_standings_alone_equal_choix_ilsr_rankings():
    rng = np.random.default_rng(6)
    standings = pl_standings(rng, rng.normal(size=6), 60, 4)
    cells = resample.collapse(6, [], [], [], [], [], standings=[(i, s, 1.0, 0) for i, s in standings])
    rankings = [[i for _, i in sorted(zip(s, items, strict=True), reverse=True)]
                for items, s in standings]
    reference = choix.ilsr_rankings(6, rankings, alpha=0.01, max_iter=1000)
    assert np.allclose(bt.fit(cells, cells.expected())[0], reference, atol=1e-6)
    assert np.allclose(bt.fit_choix(cells), reference, atol=1e-6)


def test_pairs_and_standings_make_one_fit_the_same_as_choix_on_all_rankings():
    # A two-seat win is a ranking of two, so choix.ilsr_rankings on every match (pairs as
    # 2-rankings) is the joint fit of both kinds of data.
    rng = np.random.default_rng(7)
    strengths = rng.normal(size=6)
    standings = pl_standings(rng, strengths, 40, 5)
    a = rng.integers(0, 6, 150)
    b = (a + rng.integers(1, 6, 150)) % 6
    win = (rng.random(150) < 1 / (1 + np.exp(strengths[b] - strengths[a]))).astype(float)
    cells = resample.collapse(6, a, b, win, 1 - win, np.ones(150),
                        standings=[(i, s, 1.0, 0) for i, s in standings])
    rankings = [[i for _, i in sorted(zip(s, items, strict=True), reverse=True)]
                for items, s in standings]
    rankings += [[x, y] if w else [y, x] for x, y, w in zip(a, b, win, strict=True)]
    reference = choix.ilsr_rankings(6, rankings, alpha=0.01, max_iter=1000)
    assert np.allclose(bt.fit(cells, cells.expected())[0], reference, atol=1e-6)
    assert np.allclose(bt.fit_choix(cells), reference, atol=1e-6)


def test_a_two_seat_standing_is_a_pairwise_comparison_ties_included():
    pairwise = resample.collapse(3, [0, 1], [1, 2], [1.0, 0.5], [0.0, 0.5], [1.0, 1.0])
    as_standings = resample.collapse(3, [], [], [], [], [], standings=[
        ([0, 1], [1.0, 0.0], 1.0, 0), ([1, 2], [0.5, 0.5], 1.0, 0)])
    assert np.allclose(bt.fit_choix(pairwise), bt.fit_choix(as_standings), atol=1e-9)


def test_seats_tied_in_a_standing_get_the_same_rating():
    standings = [([0, 1, 2, 3], [1.0, 1.0, 0.3, 0.0], 1.0, 0)] * 5 + [([2, 3], [1, 0], 1.0, 0)]
    fit = bt.fit_choix(resample.collapse(4, [], [], [], [], [], standings=standings))
    assert fit[0] == pytest.approx(fit[1], abs=1e-9)
    assert fit[1] > fit[2] > fit[3]


def test_standings_and_pairs_from_the_same_strengths_land_on_the_same_scale():
    rng = np.random.default_rng(8)
    strengths = np.linspace(-1.5, 1.5, 8)
    truth = strengths - strengths.mean()
    standings = pl_standings(rng, strengths, 600, 6)
    only_standings = bt.fit_choix(resample.collapse(8, [], [], [], [], [], standings=[
        (i, s, 1.0, 0) for i, s in standings]))
    pairs = synthetic(rng, strengths, [3000], draw_rate=0.0)
    only_pairs = point_fit(pairs)
    only_pairs = np.array([only_pairs[f"agent{i}"] for i in range(8)])
    for estimate in (only_standings, only_pairs):
        slope = np.polyfit(truth, estimate, 1)[0]
        assert slope == pytest.approx(1.0, abs=0.12)


def test_n_seat_results_are_rated_with_two_seat_ones():
    rng = np.random.default_rng(9)
    strengths = np.linspace(-1, 1, 5)
    rows = synthetic(rng, strengths, [200])
    for items, scores in pl_standings(rng, strengths, 80, 4):
        rows.append(MatchResult("crowd", tuple(f"agent{i}" for i in items), tuple(scores)))
    report = rate(rows, Settings(bootstrap=200))
    assert set(report.games) == {"game0", "crowd"}
    order = [r.entity for r in report.overall.rows]
    assert order[0] == "agent4" and order[-1] == "agent0"


# --- recovery and coverage from known strengths --------------------------------------------

def test_ratings_recover_known_strengths():
    rng = np.random.default_rng(11)
    strengths = rng.normal(0, 1, 10)
    rows = synthetic(rng, strengths, [1500, 400, 900, 150])  # unequal games
    report = rate(rows, Settings(bootstrap=300, seed=1))
    estimate = [report.overall.get(f"agent{i}").rating for i in range(10)]
    assert spearmanr(estimate, strengths).statistic >= 0.95


def coverage(sizes: list[int], resampling: str, reps: int, seed: int) -> float:
    """Share of 90% intervals holding the true (centred) strength over ``reps`` data sets."""
    rng = np.random.default_rng(seed)
    strengths = np.linspace(-1.2, 1.2, 8)
    truth = strengths - strengths.mean()
    covered = []
    for rep in range(reps):
        rows = synthetic(rng, strengths, sizes, draw_rate=0.2)
        table = rate(rows, Settings(bootstrap=300, seed=rep, resampling=resampling),
                     per_game=False).overall
        covered += [table.get(f"agent{i}").low <= truth[i] <= table.get(f"agent{i}").high
                    for i in range(8)]
    return float(np.mean(covered))


@pytest.mark.slow
def test_ninety_percent_intervals_cover_the_truth_about_ninety_percent_of_the_time():
    # 8 agents, three games of unequal size; 40 data sets → 320 intervals (s.e. ≈ 1.7%).
    assert 0.83 <= coverage([400, 200, 100], "game", reps=40, seed=12) <= 0.96


@pytest.mark.slow
def test_the_bayesian_bootstrap_of_large_games_covers_as_well(monkeypatch):
    # The draw large games get (resample.BAYESIAN_FROM), forced onto the same designs.
    monkeypatch.setattr(resample, "BAYESIAN_FROM", 0)
    assert 0.83 <= coverage([400, 200, 100], "game", reps=40, seed=12) <= 0.96


def test_large_games_resampled_the_bayesian_way_spread_like_the_classical_bootstrap():
    rng = np.random.default_rng(3)
    rows = synthetic(rng, np.linspace(-1.2, 1.2, 8), [6000, 2000, 400], draw_rate=0.2)
    names = sorted({e for r in rows for e in r.entities})
    games = sorted({r.game for r in rows})
    cells = resample.stack([(cells_of([r for r in rows if r.game == g], names, "half"),
                             np.arange(8)) for g in games], 8)
    assert resample.BAYESIAN_FROM <= 6000 and resample.BAYESIAN_FROM > 2000
    counts = resample.counts(cells, 200, np.random.default_rng(1))
    for s in range(len(cells.strata)):  # every game keeps its third of the weight
        assert counts[:, cells.stratum == s].sum(axis=1) == pytest.approx(
            np.full(200, cells.matches / 3))
    whole = cells.stratum == 0
    assert len(np.unique(counts[:, whole])) > 1000  # Gamma weights, not whole counts
    point = bt.fit_point(cells)
    spread = {}
    for label, start in (("classical", 10**9), ("bayesian", 0)):
        samples = np.concatenate([
            bt.fit(cells, resample.draw(cells, 500, np.random.default_rng(seed),
                                        bayesian_from=start), start=point)
            for seed in range(4)])
        spread[label] = samples.std(axis=0)
        assert samples.mean(axis=0) == pytest.approx(point, abs=0.01)
    # 2000 resamples each: the standard deviations agree to Monte Carlo error (≈ 2%)
    assert spread["bayesian"] == pytest.approx(spread["classical"], rel=0.08)
    assert spread["bayesian"].mean() == pytest.approx(spread["classical"].mean(), rel=0.03)


@pytest.mark.slow
def test_gamebench_pooled_resampling_under_covers_when_games_are_unbalanced():
    # Why "game" is the default: pooled draws give the 60-match game as many draws as the
    # 600-match one, as if it had 330 independent matches, and the intervals come out short.
    by_game = coverage([600, 60], "game", reps=25, seed=13)
    pooled = coverage([600, 60], "pooled", reps=25, seed=13)
    assert by_game >= 0.8
    assert pooled <= by_game - 0.1


# --- the fit stays numerically safe ---------------------------------------------------------

@pytest.mark.parametrize("alpha", [0.01, 0.001])
def test_the_line_search_never_overflows_on_ordinary_data(alpha):
    # Unbalanced small games (some agent unbeaten in a resample) send Newton's first steps
    # far; the line search used to evaluate e^θ there and print "overflow in exp".
    rng = np.random.default_rng(7)
    rows = synthetic(rng, rng.normal(0, 1.5, 7), [60, 25, 12, 40, 8, 30, 20, 55, 27])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any RuntimeWarning fails the test
        for resampling in ("game", "pooled"):
            report = rate(rows, Settings(bootstrap=300, alpha=alpha, resampling=resampling))
            assert all(np.isfinite([r.rating, r.low, r.high, r.fit]).all()
                       for t in [report.overall, *report.games.values()] for r in t.rows)


def test_huge_steps_are_shortened_and_still_reach_choix_fixed_point():
    # One agent unbeaten in 30 matches with a tiny prior: the optimum lies far out.
    rows = results(*[("g", "A", "B", 1, 0)] * 30, *[("g", "B", "C", 1, 0)] * 30,
                   ("g", "A", "C", 0.5, 0.5))
    cells = cells_of(rows, ["A", "B", "C"], "half")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ours = bt.fit(cells, cells.expected(), alpha=1e-4)[0]
    assert np.allclose(ours, bt.fit_choix(cells, alpha=1e-4), atol=1e-6)
