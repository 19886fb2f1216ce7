"""What gets rated: records and store rows to results, filters, GameBench's format, NRA."""

from __future__ import annotations

import io
import json
import math

import pytest

from games.actions import ActionId
from sessions.match import Match
from sessions.ratings.gamebench_format import (
    GameBenchFormatError,
    parse_gamebench,
    to_gamebench,
    write_gamebench,
)
from sessions.ratings.nra import nra, nra_matrix, nra_table, objective_of, pair_scores
from sessions.ratings.report import Settings, rate
from sessions.ratings.results import (
    HUMAN,
    MatchResult,
    by_player,
    result_of,
    results_from_records,
    results_from_store,
    select,
)
from sessions.record import MatchRecord, SeatRecord
from sessions.store import Store


def seat(entity: str, kind: str | None = None, player: str | None = None) -> SeatRecord:
    return SeatRecord(kind=kind or entity.split(":")[0], spec=entity, entity=entity,
                      player_id=player)


def record(game: str = "tic_tac_toe", seats: tuple[SeatRecord, ...] = (), *,
           scores: list[float] | None = (1.0, 0.0), returns: list[float] | None = None,
           outcome: str | None = "normal", research_use: bool = True,
           ended_at: float = 1000.0) -> MatchRecord:
    seats = seats or (seat("mcts:1000:2s"), seat("random"))
    return MatchRecord(game=game, params={}, seed=0, seats=list(seats),
                       scores=None if scores is None else list(scores),
                       returns=returns if returns is not None else
                       (None if scores is None else [2 * s - 1 for s in scores]),
                       outcome=outcome, research_use=research_use, ended_at=ended_at)


def play_out(match: Match) -> MatchRecord:
    """Finish ``match`` by always taking each acting seat's first legal move."""
    while not match.over:
        for s in match.to_move():
            match.submit(s, ActionId(action=match.legal(s)[0].action))
    return match.record


# --- records to results ------------------------------------------------------------------------

@pytest.mark.parametrize(("changes", "reason"), [
    ({"outcome": None, "scores": None}, "unfinished"),
    ({"outcome": "abandoned", "scores": None}, "abandoned"),
    ({"research_use": False}, "not shared for research"),
    ({"scores": [1.5, -0.5]}, "score missing or outside [0, 1]"),
    ({"seats": (seat("mcts:1000:2s"), seat("oracle"))}, "unknown agent"),
    ({"seats": (seat("random"), seat("random"))}, "one entity in every seat"),
])
def test_records_that_cannot_be_rated_say_why(changes, reason):
    assert result_of(record(**changes)) == reason


def test_forfeits_are_rated_with_the_forfeiter_losing():
    match = Match("tic_tac_toe", [seat("random"), seat("mcts:1000:2s")], seed=1)
    match.forfeit(0, "too many invalid answers")
    result = result_of(match.record)
    assert isinstance(result, MatchResult)
    assert result.entities == ("random", "mcts:1000:2s")
    assert result.scores == (0.0, 1.0)
    assert result.returns is None  # a forfeit has no game returns


def test_consenting_humans_are_pooled_as_one_entity_others_are_not_rated():
    alice = record(seats=(seat("human", player="p-alice"), seat("random")))
    bob = record(seats=(seat("random"), seat("human", player="p-bob")), scores=[0.0, 1.0])
    private = record(seats=(seat("human", player="p-carol"), seat("random")),
                     research_use=False)
    found = results_from_records([alice, bob, private])
    assert [r.entities for r in found.results] == [(HUMAN, "random"), ("random", HUMAN)]
    assert found.dropped == {"not shared for research": 1}
    report = rate(found.results, Settings(bootstrap=50))
    assert report.overall.get(HUMAN).matches == 2


def test_regular_players_can_be_rated_apart():
    rows = [result_of(record(seats=(seat("human", player="p-alice"), seat("random"))))
            for _ in range(3)]
    rows.append(result_of(record(seats=(seat("human", player="p-bob"), seat("random")))))
    split = by_player(rows, min_matches=3)
    assert [r.entities[0] for r in split] == ["human:p-alice"] * 3 + [HUMAN]
    assert all(r.has_human for r in split)


def test_store_rows_give_the_same_results_as_the_records(tmp_path):
    records = [record(), record(outcome="abandoned", scores=None),
               record(seats=(seat("human", player="p1"), seat("random")), scores=[0.5, 0.5]),
               record(game="kuhn_poker", seats=(seat("ismcts:1000:2s"), seat("random")),
                      scores=[0.0, 1.0], returns=[-2.0, 2.0])]
    with Store(tmp_path / "arena.sqlite3") as store:
        for r in records:
            store.save(r)
        from_store = results_from_store(store)
    from_records = results_from_records(records)
    assert from_store.dropped == from_records.dropped == {"abandoned": 1}
    assert {(r.id, r.entities, r.scores, r.returns) for r in from_store.results} == \
        {(r.id, r.entities, r.scores, r.returns) for r in from_records.results}


def test_store_revision_moves_on_every_save_from_any_connection(tmp_path):
    path = tmp_path / "arena.sqlite3"
    with Store(path) as store, Store(path) as other:
        first = store.revision()
        rec = record()
        store.save(rec)
        second = store.revision()
        store.save(rec)  # the same session stored again (replaced)
        third = store.revision()
        other.save(record())  # another process stores a session
        fourth = store.revision()
        assert [first[0], second[0], third[0], fourth[0]] == [0, 1, 1, 2]
        assert len({first, second, third, fourth}) == 4
        assert store.revision() == fourth  # reading changes nothing


def test_select_by_game_human_seat_and_date():
    rows = [MatchResult("tic_tac_toe", ("mcts", "random"), (1, 0), ended_at=100.0),
            MatchResult("kuhn_poker", (HUMAN, "random"), (1, 0), ended_at=200.0),
            MatchResult("kuhn_poker", ("human:p1", "mcts"), (0, 1), ended_at=300.0)]
    assert select(rows, game="kuhn_poker") == rows[1:]
    assert select(rows, humans_only=True) == rows[1:]
    assert select(rows, since=150.0, until=300.0) == [rows[1]]


# --- GameBench's matches.json --------------------------------------------------------------------

GAMEBENCH = [
    {"game": "hive", "gpt-4": 0.0, "human": 1.0},
    {"game": "hive", "gpt-4": 0.5, "random": 0.5},
    {"game": "sea_battle", "gpt-3": 0.7, "random": 0.3},
    {"game": "sea_battle", "random": 1, "gpt-4-cot": 0},
]


def test_gamebench_entries_become_two_seat_results():
    results = parse_gamebench(json.dumps(GAMEBENCH))
    assert [(r.game, r.entities, r.scores) for r in results] == [
        ("hive", ("gpt-4", "human"), (0.0, 1.0)),
        ("hive", ("gpt-4", "random"), (0.5, 0.5)),
        ("sea_battle", ("gpt-3", "random"), (0.7, 0.3)),
        ("sea_battle", ("random", "gpt-4-cot"), (1.0, 0.0)),
    ]


@pytest.mark.parametrize(("entries", "message"), [
    ({"game": "hive"}, "expected a JSON array"),
    ([["hive", "a", 1]], "entry 0: expected an object"),
    ([{"gpt-4": 1, "human": 0}], 'entry 0: "game" must be a non-empty string'),
    ([{"game": "hive", "a": 1, "b": 0, "c": 0}], "entry 0: expected two agents, got 3"),
    ([{"game": "hive", "a": 1}], "entry 0: expected two agents, got 1"),
    ([{"game": "hive", "a": 1.5, "b": 0}], "entry 0: score of 'a' is 1.5"),
    ([{"game": "hive", "a": True, "b": 0}], "entry 0: score of 'a' is True"),
    ([{"game": "hive", "a": "1", "b": 0}], "entry 0: score of 'a' is '1'"),
])
def test_malformed_gamebench_files_are_refused_with_the_entry_and_the_rule(entries, message):
    with pytest.raises(GameBenchFormatError, match=message.replace("(", r"\(").replace("[", r"\[")):
        parse_gamebench(json.dumps(entries))


def test_a_gamebench_entry_naming_an_agent_twice_is_refused():
    with pytest.raises(GameBenchFormatError, match="entry 1: 'a' appears twice"):
        parse_gamebench('[{"game": "g", "a": 1, "b": 0}, {"game": "g", "a": 1, "a": 0}]')


def test_every_bad_entry_is_listed_and_nothing_is_rated():
    entries = [*GAMEBENCH, {"game": "x", "a": 2, "b": 0}, {"game": "", "a": 1, "b": 0}]
    with pytest.raises(GameBenchFormatError) as err:
        parse_gamebench(json.dumps(entries))
    assert "2 of 6 entries" in str(err.value)
    assert "entry 4" in str(err.value) and "entry 5" in str(err.value)


def test_our_results_round_trip_through_gamebench_format():
    ours = [MatchResult("tic_tac_toe", ("mcts:1000:2s", "random"), (1.0, 0.0)),
            MatchResult("kuhn_poker", (HUMAN, "random"), (0.5, 0.5)),
            MatchResult("guess_2_3", ("a", "b", "c"), (1.0, 0.5, 0.0))]
    out = io.StringIO()
    count, skipped = write_gamebench(ours, out)
    assert count == 2
    assert skipped == {"3-seat match (the format holds two agents)": 1}
    again = parse_gamebench(out.getvalue())
    assert [(r.game, r.entities, r.scores) for r in again] == \
        [(r.game, r.entities, r.scores) for r in ours[:2]]
    assert to_gamebench(ours[:1])[0] == [{"game": "tic_tac_toe", "mcts:1000:2s": 1.0,
                                          "random": 0.0}]


def test_gamebench_ties_count_half_or_drop_as_published():
    # A beat B once and drew once. Half: 1.5 wins to 0.5. Dropped: 1 win to 0, and the tie
    # still takes its resample draw. Two items by hand: u = (x − y)/(x + y + 4α),
    # gap = log((1 + u)/(1 − u)).
    def gap(x: float, y: float, alpha: float = 0.001) -> float:
        u = (x - y) / (x + y + 4 * alpha)
        return math.log((1 + u) / (1 - u))

    results = parse_gamebench('[{"game": "g", "A": 1, "B": 0}, {"game": "g", "A": 0.5, "B": 0.5}]')
    for ties, expected in (("half", gap(1.5, 0.5)), ("drop", gap(1.0, 0.0))):
        table = rate(results, Settings(bootstrap=50, ties=ties, alpha=0.001)).overall
        assert table.ties == 1
        assert table.get("A").fit - table.get("B").fit == pytest.approx(expected, abs=1e-6)


# --- NRA -----------------------------------------------------------------------------------------

def test_nra_is_gtbench_formula():
    assert nra([1, 1, 0.5, 0], [0, 0, 0.5, 1]) == pytest.approx(0.25)
    assert nra([0, 0], [0, 0]) == 0.0


def test_nra_in_a_beat_the_opponent_game_by_hand():
    # tic-tac-toe: A wins, wins, draws, loses against B → f(A) = 2.5, f(B) = 1.5
    rows = [MatchResult("tic_tac_toe", ("A", "B"), s) for s in
            [(1, 0), (0, 1), (0.5, 0.5), (1, 0)]]
    rows[1] = MatchResult("tic_tac_toe", ("B", "A"), (0, 1))  # seat order does not matter
    rows[3] = MatchResult("tic_tac_toe", ("A", "B"), (0, 1))
    table, skipped = nra_table(rows)
    by_pair = {(r.entity, r.opponent): r for r in table}
    assert by_pair["A", "B"].nra == pytest.approx((2.5 - 1.5) / (2.5 + 1.5))
    assert by_pair["B", "A"].nra == pytest.approx(-0.25)
    assert by_pair["A", "B"].matches == 4 and by_pair["A", "B"].objective == "beat"
    assert not skipped


def test_nra_in_earn_rewards_games_uses_the_rewards():
    # Kuhn poker (zero-sum chips): A +2, +1, −1 against B −2, −1, +1 → (2 − −2)/(4 + 4)
    kuhn = [MatchResult("kuhn_poker", ("A", "B"), (1, 0), (2.0, -2.0)),
            MatchResult("kuhn_poker", ("B", "A"), (0, 1), (-1.0, 1.0)),
            MatchResult("kuhn_poker", ("A", "B"), (0, 1), (-1.0, 1.0))]
    # prisoner's dilemma (not zero-sum): A 10, 1, 5 against B 0, 1, 5 → (16 − 6)/(16 + 6)
    ipd = [MatchResult("iterated_prisoners_dilemma", ("A", "B"), (1, 0), (10.0, 0.0)),
           MatchResult("iterated_prisoners_dilemma", ("A", "B"), (0.5, 0.5), (1.0, 1.0)),
           MatchResult("iterated_prisoners_dilemma", ("B", "A"), (0.5, 0.5), (5.0, 5.0))]
    forfeit = MatchResult("kuhn_poker", ("A", "B"), (0, 1), None)
    table, skipped = nra_table([*kuhn, *ipd, forfeit])
    by_pair = {(r.game, r.entity, r.opponent): r for r in table}
    assert by_pair["kuhn_poker", "A", "B"].nra == pytest.approx(0.5)
    assert by_pair["kuhn_poker", "A", "B"].matches == 3
    assert by_pair["iterated_prisoners_dilemma", "A", "B"].nra == pytest.approx(10 / 22)
    assert by_pair["iterated_prisoners_dilemma", "A", "B"].objective == "earn"
    assert skipped == {"no rewards recorded (forfeit) in an earn-rewards game": 1}


def test_objective_comes_from_the_registry():
    assert objective_of("tic_tac_toe") == "beat"
    assert objective_of("pig") == "beat"
    assert objective_of("kuhn_poker") == "earn"
    assert objective_of("negotiation") == "earn"
    assert objective_of("first_sealed_auction") == "earn"
    assert objective_of("sea_battle") == "beat"  # not ours (a GameBench file): by scores


def test_nra_between_every_pair_of_a_many_seat_match():
    result = MatchResult("crowd", ("A", "B", "C", "A"), (1.0, 0.5, 0.0, 0.5))
    assert pair_scores(result, "A", "B", "beat") == pytest.approx((0.75, 0.25))
    table, _ = nra_table([result])
    entities, matrix = nra_matrix(table, "crowd")
    assert entities == ["A", "B", "C"]
    assert matrix[0, 2] == pytest.approx(1.0) and matrix[2, 0] == pytest.approx(-1.0)


def test_nra_from_a_real_match_record():
    # Both seats take their first legal move: X plays 0, 2, 4, 6 and wins on the diagonal.
    record = play_out(Match("tic_tac_toe", [seat("random"), seat("mcts:1000:2s")], seed=3))
    assert record.scores == [1.0, 0.0]
    table, _ = nra_table([result_of(record)])
    assert {(r.entity, r.nra) for r in table} == {("random", 1.0), ("mcts:1000:2s", -1.0)}


# --- GAMA-Bench's table ---------------------------------------------------------------------

def gama_record(game: str, scores: dict[str, float]) -> MatchRecord:
    """A finished GAMA-Bench session whose entities scored ``scores`` (0-100)."""
    rec = record(game, tuple(seat(e) for e in scores), scores=[1.0] * len(scores),
                 returns=[0.0] * len(scores))
    rec.metrics["gama"] = {"complete": True, "comparable": True,
                           "entities": {e: {"score": s} for e, s in scores.items()},
                           "seats": [{"score": s} for s in scores.values()]}
    return rec


def test_gama_cells_show_the_sample_sd_and_none_for_a_single_session():
    from sessions.ratings.gama_table import gama_table

    rows = gama_table([gama_record("guess_2_3", {"random": 40.0, "equilibrium": 90.0}),
                       gama_record("guess_2_3", {"random": 60.0, "equilibrium": 90.0}),
                       gama_record("el_farol", {"random": 70.0})])
    cells = {row.entity: row.cells for row in rows}
    guess = cells["random"]["guess_2_3"]
    # GAMA-Bench reports the sample SD: √(((40−50)² + (60−50)²) / (2 − 1)) = 14.1, where
    # the population SD would say 10.0.
    assert (guess.mean, guess.std) == (50.0, pytest.approx(math.sqrt(200)))
    assert guess.text() == "50.0 ± 14.1 (2)"
    assert cells["equilibrium"]["guess_2_3"].text() == "90.0 ± 0.0 (2)"
    one = cells["random"]["el_farol"]
    assert one.std is None and one.text() == "70.0 ± — (1)"  # one session has no spread
