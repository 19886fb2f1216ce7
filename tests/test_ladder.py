"""The difficulty ladder: every game offers at least three named levels of offline opponents
that can really play it, the strongest never random, and the calibration measures them."""

from __future__ import annotations

import json

import pytest

from agents.ladder import LadderError, ladder, ladders, parse
from agents.naming import SpecError
from agents.specs import check_fits, make_agent, parse_spec
from agents.trivial import PassMove, passive
from benchmarks.ladder import calibrate, wilson
from games import registry
from games.actions import legal_moves
from games.seat_view import SeatView

GAME_IDS = [g.id for g in registry.all_games()]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_has_three_levels_that_fit_it_and_the_strongest_is_not_random(game_id):
    rungs = ladder(game_id)
    assert rungs is not None, f"{game_id} has no ladder"
    assert [lv.name for lv in rungs.levels][:3] == ["Beginner", "Intermediate", "Strong"]
    game = registry.get(game_id)
    for level in rungs.levels:
        check_fits(parse_spec(level.spec), game)  # raises if the agent cannot play it
    assert rungs.levels[-1].spec != "random"
    assert len({parse_spec(lv.spec).entity for lv in rungs.levels}) == len(rungs.levels)


def test_a_broken_ladder_file_says_where():
    with pytest.raises(LadderError, match="nim needs at least three levels"):
        parse({"games": {"nim": {"levels": [{"name": "Beginner", "spec": "random"}]}}})
    with pytest.raises(LadderError, match="level #2 needs a name and a spec"):
        parse({"games": {"nim": {"levels": [{"name": "A", "spec": "random"}, {"name": "B"},
                                            {"name": "C", "spec": "mcts"}]}}})


def test_bot_specs_name_their_slips():
    assert parse_spec("bot").entity == "bot"
    assert parse_spec("bot:40").entity == "bot:40" and parse_spec("bot:40").slips == 40
    for bad in ("bot:140", "bot:x", "bot:1:2"):
        with pytest.raises(SpecError, match="percent"):
            parse_spec(bad)
    assert parse_spec("strategic:15").entity == "strategic:15"
    with pytest.raises(SpecError, match="percent"):
        parse_spec("strategic:x")
    with pytest.raises(SpecError, match="bot plays only"):
        check_fits(parse_spec("bot"), registry.get("tic_tac_toe"))


def test_a_slipping_bot_plays_random_moves_at_its_rate():
    game = registry.get("sea_battle")
    if "bot" not in [lv.spec for lv in ladder("sea_battle").levels]:
        pytest.skip("sea battle has no bot yet")
    state = game.load().new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    seat = 0
    view = SeatView(game, seat, "", tuple(legal_moves(game, state, seat)), (), state.clone())
    agent = make_agent("bot:100", game, game.params(), seed=3)
    assert all(agent.act(view).meta.get("slip") for _ in range(5))
    agent = make_agent("bot:0", game, game.params(), seed=3)
    assert not any(agent.act(view).meta.get("slip") for _ in range(3))


def test_the_pass_strategy_picks_the_do_nothing_move():
    assert passive("end gathering") and passive("stay, stay") and passive("pass")
    assert not passive("cooperate") and not passive("C1R1")
    game = registry.get("kuhn_poker")
    state = game.load().new_initial_state()
    for action in (0, 1):
        state.apply_action(action)
    view = SeatView(game, 0, "", tuple(legal_moves(game, state, 0)), (), state.clone())
    chosen = PassMove().act(view).raw
    assert passive(chosen), chosen


def test_wilson_intervals_behave():
    low, high = wilson(0.5, 100)
    assert 0.39 < low < 0.41 and 0.59 < high < 0.61
    assert wilson(1.0, 40)[0] > 0.9 and wilson(0.0, 10) == (0.0, pytest.approx(0.2775, abs=1e-3))


def test_the_calibration_measures_each_level_and_the_trivial_plans():
    rows = calibrate("tic_tac_toe", 4)
    levels = ladder("tic_tac_toe").levels
    assert len(rows) == len(levels) - 1 + 2
    assert all(row.games == 4 and 0.0 <= row.low <= row.mean <= row.high <= 1.0 for row in rows)
    assert "vs always the first legal move" in rows[-2].pairing
    assert rows[-1].mean >= 0.75  # MCTS (1000) does not lose to a do-nothing plan


def test_the_packaged_file_is_valid_json_with_a_ladder_per_game():
    assert set(ladders()) == set(GAME_IDS)
    from importlib import resources

    json.loads(resources.files("agents").joinpath("ladder.json").read_text("utf-8"))


def test_the_trivial_pairings_may_use_fewer_games():
    parsed = parse({"games": {"nim": {"levels": [
        {"name": "A", "spec": "random"}, {"name": "B", "spec": "mcts:10"},
        {"name": "C", "spec": "mcts"}], "games": 400, "trivial_games": 40}}})
    assert parsed["nim"].games == 400 and parsed["nim"].trivial_games == 40
    rows = calibrate("tic_tac_toe", 2, trivial_games=1)
    assert [row.games for row in rows] == [2, 2, 1, 1]


def test_the_stored_table_lists_every_game_and_says_why_a_target_cannot_be_met(capsys,
                                                                              monkeypatch):
    import sys

    from benchmarks import ladder as bench

    monkeypatch.setattr(sys, "argv", ["ladder", "--stored"])
    bench.main()
    out = capsys.readouterr().out
    for game_id in GAME_IDS:
        assert game_id in out
    assert "why: at the goal of 20 'always roll' is perfect play" in out  # pig vs 'first'
    # Pit: tables that never trade are ties, said so; its bot is also measured among random
    # traders, a row beside the targets (the Leaderboard reads only steps and trivial plans).
    assert "why: nobody else trades" in out and "Strong (bot) among 3 x random" in out
    assert not any("x random" in row["pairing"] for row in ladder("pit").measured)
    assert "target(s) not met" in out
    monkeypatch.setattr(sys, "argv", ["ladder", "--stored", "--markdown", "--games", "pig"])
    bench.main()
    table = capsys.readouterr().out.splitlines()
    assert table[0].startswith("| game | pairing |")
    assert any("**NOT MET**" in line and "perfect play" in line for line in table)
