"""Teams: every seat of a team game has a team in its record, scores and ratings compare
opposing seats only, and one agent spec may sit in several seats."""

from __future__ import annotations

import sqlite3

from agents.specs import parse_spec
from sessions.ratings.report import rate
from sessions.ratings.results import (
    MatchResult,
    opposing_pairs,
    results_from_records,
    results_from_store,
)
from sessions.record import SeatRecord, team_scores
from sessions.store import Store
from sessions.tournament import play_one, run_tournament


def test_team_scores_compare_opposing_seats_only():
    assert team_scores([1, 1, -1, -1], ["red", "red", "blue", "blue"]) == [1, 1, 0, 0]
    assert team_scores([0, 0, 0, 0], ["red", "red", "blue", "blue"]) == [0.5] * 4
    assert team_scores([1, -1, 1], ["good", "evil", "good"]) == [1, 0, 1]


def test_a_team_game_is_one_comparison_per_pair_of_opposing_seats():
    result = MatchResult("codenames", ("human", "openai/m", "random", "minilm"),
                         (1.0, 1.0, 0.0, 0.0), players=("p1", None, None, None), id="x",
                         teams=("red", "red", "blue", "blue"))
    pairs = opposing_pairs(result)
    assert sorted((p.entities, p.scores) for p in pairs) == sorted([
        (("human", "random"), (1.0, 0.0)), (("human", "minilm"), (1.0, 0.0)),
        (("openai/m", "random"), (1.0, 0.0)), (("openai/m", "minilm"), (1.0, 0.0))])
    assert all(p.id == "x" and not p.teams for p in pairs)
    assert [p.players for p in pairs if p.entities[0] == "human"] == [("p1", None)] * 2
    same = MatchResult("codenames", ("random", "minilm", "random", "minilm"), (1, 1, 0, 0),
                       teams=("red", "red", "blue", "blue"))
    assert [p.entities for p in opposing_pairs(same)] == [("random", "minilm"),
                                                          ("minilm", "random")]


def _codenames(seed: int, specs: list[str]):
    return play_one("codenames", [parse_spec(s) for s in specs], seed=seed)


def test_records_and_the_store_give_the_same_pairs_and_the_leaderboard_rates_them(tmp_path):
    records = [_codenames(seed, ["random", "random", "random", "random"]) for seed in range(3)]
    for record in records:  # one spec in every seat: each seat its own agent
        assert [s.team for s in record.seats] == ["red", "red", "blue", "blue"]
        assert sorted(record.scores) == [0.0, 0.0, 1.0, 1.0]
    human = _codenames(5, ["random", "random", "random", "random"])
    human.seats[1] = SeatRecord("human", "human", "human", player_id="anon-12345",
                                team="red")
    records.append(human)
    found = results_from_records(records)
    assert found.dropped["one entity in every seat"] == 3
    assert [r.entities for r in found.results] == [("human", "random")] * 2
    with Store(tmp_path / "t.sqlite3") as store:
        for record in records:
            store.save(record)
        stored = results_from_store(store)
    assert stored.results == found.results and stored.dropped == found.dropped
    report = rate(found.results)
    assert {r.entity for r in report.overall.rows} == {"human", "random"}


def test_a_tournament_seats_one_spec_in_several_seats(tmp_path):
    with Store(tmp_path / "t.sqlite3") as store:
        result = run_tournament("codenames", ["random"] * 4, matches=2, seed=1, store=store,
                                progress=False)
        assert len(result.record_ids) == 2
        for record_id in result.record_ids:
            record = store.get(record_id)
            assert [s.spec for s in record.seats] == ["random"] * 4
            assert {s.team for s in record.seats} == {"red", "blue"}


def test_a_store_of_schema_1_is_upgraded_with_empty_teams(tmp_path):
    path = tmp_path / "old.sqlite3"
    record = play_one("tic_tac_toe", [parse_spec("random"), parse_spec("mcts:10:0s")], seed=1)
    db = sqlite3.connect(path)
    db.executescript("""
        CREATE TABLE matches (id TEXT PRIMARY KEY, game TEXT NOT NULL, outcome TEXT NOT NULL,
            research_use INTEGER NOT NULL, started_at REAL NOT NULL, ended_at REAL,
            record TEXT NOT NULL);
        CREATE TABLE seats (match_id TEXT NOT NULL REFERENCES matches(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL, kind TEXT NOT NULL, entity TEXT NOT NULL, player_id TEXT,
            score REAL, return REAL, PRIMARY KEY (match_id, seat));
        PRAGMA application_id = 1279738194;
        PRAGMA user_version = 1;
    """)
    old = record.to_dict()
    for seat in old["seats"]:
        del seat["team"]
    import json
    db.execute("INSERT INTO matches VALUES (?, ?, ?, 1, 0, 1, ?)",
               (record.id, record.game, record.outcome, json.dumps(old)))
    for i, seat in enumerate(record.seats):
        db.execute("INSERT INTO seats VALUES (?, ?, ?, ?, NULL, ?, ?)",
                   (record.id, i, seat.kind, seat.entity, record.scores[i], record.returns[i]))
    db.commit()
    db.close()
    with Store(path) as store:
        assert store.get(record.id) == record
        assert [s["team"] for s in store.results()[0]["seats"]] == [None, None]
        store.save(_codenames(2, ["random"] * 4))
        assert store.count() == 2


def test_the_leaderboard_rates_the_talking_games(tmp_path):
    """Sessions of the three games (one seat made a consenting person's) reach the
    Leaderboard's tables: per game and overall."""
    from sessions.ratings.leaderboard import Filters, Leaderboard

    with Store(tmp_path / "lb.sqlite3") as store:
        for game, players, params in (("codenames", 4, None),
                                      ("are_you_the_traitor", 5, None),
                                      ("two_rooms_and_a_boom", 6, None)):
            for seed in range(3):
                record = play_one(game, [parse_spec("random")] * players, seed=seed,
                                  params=params)
                team = record.seats[0].team
                record.seats[0] = SeatRecord("human", "human", "human",
                                             player_id="anon-lb-0001", team=team)
                store.save(record)
        view = Leaderboard(store).view(Filters())
        assert set(view.report.games) == {"codenames", "are_you_the_traitor",
                                          "two_rooms_and_a_boom"}
        assert {r.entity for r in view.report.overall.rows} == {"human", "random"}
        assert view.overall.rows and "9 game" not in view.summary()


def test_history_replays_show_a_seat_only_what_it_knew():
    """A replay frame before the end is the seat's own view (no dealt card of another seat
    in the move list, the same text the seat saw); the last frame reveals the cards."""
    from renderers import text_view
    from sessions.record import replay
    from sessions.web.replays import boundaries, frame

    for game, players in (("codenames", 4), ("are_you_the_traitor", 5),
                          ("two_rooms_and_a_boom", 6)):
        record = play_one(game, [parse_spec("random")] * players, seed=4)
        points = boundaries(record)
        for index in (1, len(points) // 2):
            shown = frame(record, index, seat=1)
            assert shown.text == text_view(game, replay(record, upto=points[index]), 1)
            assert not any("dealt" in line or "key: card" in line for line in shown.moves)
        last = frame(record, -1, seat=1)
        assert "Game over" in last.text
