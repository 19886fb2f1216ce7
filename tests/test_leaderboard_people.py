"""The Leaderboard's main tables: "beats X% of people" with its 95% interval beside each
rating, rows listed by their interval's lower bound, and entries below the minimum
labelled "provisional, N more games needed" (sessions.web.standings)."""

from __future__ import annotations

from sessions.ratings.leaderboard import Filters, LeaderboardView
from sessions.ratings.report import Settings, rate
from sessions.ratings.results import MatchResult
from sessions.ratings.versus_people import versus_people
from sessions.web import standings


def _played(game: str, a: str, b: str, wins: int, losses: int) -> list[MatchResult]:
    return ([MatchResult(game, (a, b), (1.0, 0.0)) for _ in range(wins)]
            + [MatchResult(game, (a, b), (0.0, 1.0)) for _ in range(losses)])


def _view() -> LeaderboardView:
    results = (_played("nim", "mcts:1000:2s", "human", 15, 5)
               + _played("nim", "random", "human", 4, 16)
               + _played("nim", "mcts:1000:2s", "random", 30, 10)
               + _played("pig", "openai/gpt-4o-mini+prompt", "human", 3, 1))
    report = rate(results, Settings(bootstrap=200))
    return LeaderboardView(Filters(), (1, 0, 0), report, [],
                           people=tuple(versus_people(results, by_game=True)))


def test_beats_people_column_beside_the_rating_sorted_by_lower_bound_and_provisional():
    view = _view()
    table = standings.overall(view, 10)
    assert table.headers[:6] == ["rank", "player", "rating", "90% interval",
                                 "beats people (95% interval)", "matches"]
    rows = {r[1].split(">")[1].split("<")[0]: r for r in table.rows}
    mcts = rows["MCTS (1000 simulations)"]
    assert mcts[4] == "75% (53–89%), 20 games"  # 15 of 20, Wilson's 95% interval
    assert rows["Random"][4] == "20% (8–42%), 20 games"
    assert rows["People"][4] == ""  # people do not beat themselves
    model = rows["GPT-4o mini"]
    assert model[0] == "provisional, 6 more games needed"  # 4 rated matches of 10
    assert model[4] == "75% (30–95%), 4 games; provisional, 6 more games needed"
    ranked = [r for r in table.rows if isinstance(r[0], int)]
    lows = [float(r[3].split(" to ")[0]) for r in ranked]
    assert lows == sorted(lows, reverse=True) and table.rows[-1] is model
    per_game = standings.per_game(view, 10)
    nim = [r for r in per_game.rows if r[0].startswith("Nim")]
    assert any(r[5] == "75% (53–89%), 20 games" for r in nim)
    pig = [r for r in per_game.rows if r[0] == "Pig"]
    assert {r[0] for r in pig} == {"Pig"} and all(
        str(r[1]).startswith("provisional, 6 more games needed") for r in pig)
    assert "listed by the interval's lower bound" in standings.note(10, view.report.overall)


def test_the_api_gives_beats_people_as_data_with_raw_ids():
    from sessions.web.tabs.leaderboard import versus_people_table

    table = versus_people_table(_view())
    assert table.headers[:3] == ["entity", "game", "sessions"]
    found = {(row[0], row[1]): row for row in table.rows}
    assert found[("mcts:1000:2s", "")][2:5] == [20, 15.0, 0.75]
    assert found[("openai/gpt-4o-mini+prompt", "pig")][-1] is True  # 4 sessions: provisional
