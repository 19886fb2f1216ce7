"""Anchored ratings: the ladder's levels keep their calibrated ratings in every fit, so a
number means the same thing in two snapshots of the store."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sessions.ratings import anchors
from sessions.ratings.anchors import Anchors, fit_point_fixed
from sessions.ratings.bradley_terry import _Problem
from sessions.ratings.report import Settings, anchored, cells_of, rate
from sessions.ratings.results import MatchResult

LADDER = Anchors.of({"overall": {"random": -1.0, "mcts": 1.2},
                     "games": {"nim": {"random": -0.8, "mcts": 1.0}}})


def _played(game: str, a: str, b: str, wins: int, losses: int) -> list[MatchResult]:
    return ([MatchResult(game, (a, b), (1.0, 0.0)) for _ in range(wins)]
            + [MatchResult(game, (a, b), (0.0, 1.0)) for _ in range(losses)])


def _snapshots() -> tuple[list[MatchResult], list[MatchResult]]:
    first = (_played("nim", "mcts", "random", 16, 4) + _played("nim", "llm/x", "random", 12, 8)
             + _played("pig", "llm/x", "random", 9, 11))
    later = first + _played("nim", "llm/strong", "mcts", 18, 2) \
        + _played("nim", "llm/strong", "llm/x", 15, 5) + _played("pig", "mcts", "random", 14, 6)
    return first, later


def test_the_ladder_keeps_its_ratings_across_two_snapshots():
    first, later = _snapshots()
    settings = Settings(bootstrap=40, anchors=LADDER)
    for snapshot in (first, later):
        report = rate(snapshot, settings)
        for entity, fixed in LADDER.overall:
            row = report.overall.get(entity)
            assert row is not None
            assert (row.rating, row.low, row.high, row.fit) == pytest.approx((fixed,) * 4,
                                                                             abs=1e-12)
        for entity, fixed in LADDER.scope("nim").items():
            assert report.games["nim"].get(entity).rating == pytest.approx(fixed, abs=1e-12)  # type: ignore[union-attr]
        pig = report.games["pig"]  # no anchors for pig: centred as before
        assert abs(sum(r.fit for r in pig.rows)) < 1e-9
    # centred, a strong newcomer moves the ladder; anchored, it does not
    centred = [rate(s, Settings(bootstrap=40)).games["nim"].get("random") for s in (first,
                                                                                   later)]
    assert abs(centred[0].rating - centred[1].rating) > 0.1  # type: ignore[union-attr]


def test_the_anchored_fit_is_the_best_fit_of_the_free_ratings():
    _, later = _snapshots()
    nim = [r for r in later if r.game == "nim"]
    entities = sorted({e for r in nim for e in r.entities})
    cells = cells_of(nim, entities, "half")
    fixed = anchored(LADDER, "nim", entities)
    point = fit_point_fixed(cells, fixed, alpha=0.01)
    assert {entities[i]: point[i] for i in fixed} == LADDER.scope("nim")
    gradient = _Problem.of(cells, cells.expected(), 0.01).gradient(point[None])[0]
    free = [i for i in range(len(entities)) if i not in fixed]
    assert np.abs(gradient[free]).max() < 1e-8  # the free ratings are at Ψ's maximum
    assert point[entities.index("llm/strong")] > point[entities.index("mcts")]


def test_the_command_line_anchors_stored_ratings_and_refuses_a_bad_file(tmp_path, capsys):
    from agents.specs import parse_spec
    from sessions.cli import main
    from sessions.fanout import play_one
    from sessions.store import Store

    path = tmp_path / "arena.sqlite3"
    with Store(path) as store:
        for seed in range(6):
            store.save(play_one("nim", [parse_spec("random"), parse_spec("mcts:20:0s")],
                                seed=seed))
    file = tmp_path / "anchors.json"
    file.write_text(json.dumps({"overall": {"random": -2.0}, "games": {"nim": {"random": -2.0}}}))
    assert main(["ratings", "--db", str(path), "--anchors", str(file), "--bootstrap", "20",
                 "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["rating"] for r in report["overall"]["ratings"] if r["entity"] == "random"] \
        == [-2.0]
    file.write_text(json.dumps({"overall": {"random": "low"}}))
    assert main(["ratings", "--db", str(path), "--anchors", str(file)]) == 2
    assert "'random' needs a finite rating" in capsys.readouterr().err


def test_the_shipped_anchors_name_ladder_levels():
    from agents.ladder import ladders
    from agents.specs import parse_spec

    shipped = anchors.load()
    levels = {g: {parse_spec(level.spec).entity for level in ladder.levels}
              for g, ladder in ladders().items()}
    assert shipped.games, "sessions/ratings/anchors.json holds no game"
    for game, scope in shipped.games:
        assert {entity for entity, _ in scope} <= levels[game], game
    with pytest.raises(ValueError, match="must map"):
        Anchors.of({"games": {"nim": [1, 2]}})


def test_beats_people_shares_with_intervals_sorted_by_lower_bound_and_provisional():
    from sessions.ratings.versus_people import versus_people, wilson

    rows = (_played("nim", "mcts", "human", 16, 4) + _played("nim", "random", "human", 2, 10)
            + _played("pig", "llm/x", "human", 3, 1)
            + [MatchResult("nim", ("mcts", "human"), (0.5, 0.5))]
            + _played("nim", "mcts", "random", 5, 0))  # no person: not counted
    found = versus_people(rows)
    assert [r.entity for r in found] == ["mcts", "random", "llm/x"]
    mcts = found[0]
    assert (mcts.sessions, mcts.won) == (21, 16.5) and mcts.low < 16.5 / 21 < mcts.high
    assert (mcts.low, mcts.high) == wilson(16.5, 21) and 0.55 < mcts.low < 0.6
    assert found[2].provisional and found[2].needed == 6
    assert found[2].label().startswith("provisional, 6 more games needed: beats 75% of people")
    assert not found[0].provisional and found[0].label().startswith("beats 79% of people")
    per_game = versus_people(rows, by_game=True)
    assert {(r.entity, r.game) for r in per_game} >= {("mcts", "nim"), ("llm/x", "pig")}


def test_active_pairing_aims_at_the_unresolved_top_and_narrows_it_faster():
    from sessions.ratings.matchmaking import fit, next_pairs, unresolved

    rng = np.random.default_rng(3)
    strength = np.array([2.0, 1.9, 1.0, 0.0, -1.0, -2.0])
    wins = np.zeros((6, 6))
    for _ in range(20):  # every pair has played a little
        for i in range(6):
            for j in range(i + 1, 6):
                won = rng.random() < 1 / (1 + np.exp(strength[j] - strength[i]))
                wins[(i, j) if won else (j, i)] += 1
    found = fit(wins)
    open_pairs = unresolved(found, 2)
    assert (0, 1) in open_pairs or (1, 0) in open_pairs  # 2.0 against 1.9: not yet apart
    pairs = next_pairs(found, 10, top=2)
    assert sum(set(p) == {0, 1} for p in pairs) >= 5  # most games go to the close top pair

    def variance_after(chosen):  # of the top difference, once those games are counted
        more = wins.copy()
        for i, j in chosen:
            more[i, j] += 0.5
            more[j, i] += 0.5
        c = fit(more).covariance
        return c[0, 0] + c[1, 1] - 2 * c[0, 1]

    uniform = [(i, j) for i in range(6) for j in range(i + 1, 6)][:10]
    assert variance_after(pairs) < 0.9 * variance_after(uniform)


def test_the_leaderboard_holds_the_shipped_anchors_and_says_so(tmp_path):
    from agents.specs import parse_spec
    from sessions.fanout import play_one
    from sessions.ratings.leaderboard import Leaderboard
    from sessions.store import Store

    with Store(tmp_path / "arena.sqlite3") as store:
        for seed in range(4):
            store.save(play_one("nim", [parse_spec("random"), parse_spec("mcts:50:2s")],
                                seed=seed))
        view = Leaderboard(store).view()
    assert "anchored scale: the difficulty ladder's levels keep" in view.summary()
    shipped = anchors.load().scope("nim")
    for entity in ("random", "mcts:50:2s"):
        assert view.report.games["nim"].get(entity).rating == shipped[entity]  # type: ignore[union-attr]
