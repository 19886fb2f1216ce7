"""Sessions of GAMA-Bench's games: a person in one seat among agents, bots, records, table."""

from __future__ import annotations

import math
import threading
import time

import pytest

from agents.base import Decision, SeatView
from agents.specs import agents_for, parse_spec
from games.actions import ActionId, IllegalMove, Text
from games.gama.catalogue import GAMES
from renderers import renderer
from sessions.match import NotYourTurn
from sessions.ratings.gama_table import gama_table, markdown, table_rows
from sessions.record import MatchRecord, replay
from sessions.store import Store
from sessions.tournament import play_one
from sessions.web.play import PlaySession
from sessions.web.players import Person

GAMA_IDS = [spec.id for spec in GAMES]
MIXED = ["equilibrium", "adaptive", "random"] * 3


def _play_as_person(session: PlaySession) -> int:
    """Drive the human seat the way a page would: read the control, type an answer; try one
    out-of-range number first and check it is refused without changing anything."""
    decisions = 0
    view = renderer(session.match.spec.id)
    session.run_agents()
    while not session.over:
        control = view.control(session.match.state, session.human)
        if control.kind == "number":
            before = len(session.record.moves)
            with pytest.raises(IllegalMove) as caught:
                session.submit(Text(text=str(control.maximum + 1)))
            assert f"from {control.minimum} to {control.maximum}" in str(caught.value)
            assert len(session.record.moves) == before
            session.submit(Text(text=str((control.minimum + control.maximum) // 3)))
        else:
            assert control.kind == "choice"
            session.submit(Text(text=control.options[-1]))
        session.run_agents()
        decisions += 1
    return decisions


def _person(player_id: str = "player-01") -> Person:
    return Person(player_id, consent=True)


@pytest.mark.parametrize("game_id", GAMA_IDS)
def test_a_person_plays_one_seat_among_nine_agents(game_id, tmp_path):
    human = 0 if game_id == "battle_royale" else 4
    session = PlaySession(game_id, MIXED, person=_person(), seat=human, seed=11)
    decisions = _play_as_person(session)
    record = session.record
    assert record.outcome == "normal" and decisions >= 1
    assert record.seats[human].kind == "human" and record.seats[human].player_id == "player-01"
    mine = [m for m in record.moves if m.seat == human and not m.meta.get("forced")]
    assert len(mine) == decisions
    numeric = [m for m in mine if m.rejected]
    assert all(a.reason == "illegal" for m in numeric for a in m.rejected)
    gama = record.metrics["gama"]
    assert gama["complete"] and gama["seats"][human]["score"] is not None
    assert set(gama["entities"]) == {"human", "equilibrium", "adaptive", "random"}
    restored = MatchRecord.from_json(record.to_json())
    assert restored == record
    final = replay(restored)
    assert final.is_terminal() and list(final.returns()) == record.returns
    with Store(tmp_path / "arena.sqlite3") as store:
        store.save(record)
        assert store.get(record.id).metrics == record.metrics


class Slow:
    """An agent that takes 0.3 s to answer with its first legal move."""

    def __init__(self, asked: list[float], lock: threading.Lock) -> None:
        self.asked, self.lock = asked, lock

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        with self.lock:
            self.asked.append(time.perf_counter())
        time.sleep(0.3)
        return Decision(ActionId(action=view.legal[0].action))


def test_agents_of_the_persons_round_answer_while_the_person_thinks():
    asked: list[float] = []
    lock = threading.Lock()
    session = PlaySession("guess_2_3", "random", person=_person(), seat=0, seed=1,
                          params={"num_rounds": 2},
                          build_agent=lambda *args, **kwargs: Slow(asked, lock))
    start = time.perf_counter()
    session.run_agents()  # returns at once: the person's round is open
    assert session.your_turn and time.perf_counter() - start < 0.25
    time.sleep(0.4)  # the person thinks; meanwhile all nine agents answer at once
    assert len(asked) == 9 and max(asked) - start < 0.25
    submitted = time.perf_counter()
    session.submit(Text(text="10"))  # round 1 is complete at once
    session.run_agents()  # round 2 opens; its agents start; the person's turn again
    assert session.your_turn and time.perf_counter() - submitted < 0.25
    assert len(session.record.moves) == 10


def test_a_person_who_answers_first_waits_for_the_agents_then_the_round_settles():
    asked: list[float] = []
    session = PlaySession("divide_dollar", "random", person=_person(), seat=2, seed=1,
                          params={"num_rounds": 1},
                          build_agent=lambda *args, **kwargs: Slow(asked, threading.Lock()))
    session.run_agents()
    assert session.play_text("10") == "Your move: bid 10."
    assert session.record.moves == [] and not session.over  # the agents are still thinking
    assert session.play_text("12") == ("Your choice for this round is in: waiting for the "
                                       "other players.")
    progress = list(session.advance(poll=0.05))
    assert progress and progress[0].seats == tuple(s for s in range(10) if s != 2)
    assert session.over and len(session.record.moves) == 10
    assert [m.label for m in session.record.moves if m.seat == 2] == ["bid 10"]


@pytest.mark.parametrize("game_id", ["guess_2_3", "divide_dollar", "public_goods",
                                     "diners_dilemma", "battle_royale", "pirate_game"])
def test_equilibrium_bots_score_100_where_the_paper_says_so(game_id):
    record = play_one(game_id, [parse_spec("equilibrium")] * 10, seed=4)
    gama = record.metrics["gama"]
    assert gama["table"]["score"] == pytest.approx(100)
    assert all(seat["score"] == pytest.approx(100) for seat in gama["seats"]
               if seat["score"] is not None)


def test_everyone_choosing_zero_in_guess_is_the_paper_s_100():
    record = play_one("guess_2_3", [parse_spec("equilibrium")] * 10, seed=0)
    assert {m.label for m in record.moves} == {"choose 0"}
    assert record.metrics["gama"]["table"] == {"raw": 0, "score": 100}


def test_the_optimal_pirate_proposal_has_distance_zero():
    record = play_one("pirate_game", [parse_spec("equilibrium")] * 10, seed=0)
    assert record.returns == [96.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0]
    gama = record.metrics["gama"]
    assert gama["seats"][0]["parts"] == {"S8P": 0}  # the proposer does not vote
    assert gama["table"]["parts"] == {"S8P": 0, "S8V": 1.0}


def test_el_farol_mixed_equilibrium_scores_what_binomial_noise_allows():
    """Everyone going with probability 0.6: the share that goes is Binomial(10, 0.6)/10, so
    the expected S2 is E|X/10 - 0.6| and the expected score 100 (1 - E|X/10 - 0.6| / 0.6)."""
    expected_gap = sum(math.comb(10, k) * 0.6**k * 0.4**(10 - k) * abs(k / 10 - 0.6)
                       for k in range(11))
    expected = 100 * (1 - expected_gap / 0.6)
    scores = [play_one("el_farol", [parse_spec("equilibrium")] * 10, seed=s)
              .metrics["gama"]["table"]["score"] for s in range(12)]
    assert abs(sum(scores) / len(scores) - expected) < 5, (scores, expected)


def test_first_price_equilibrium_shading_scores_as_s6_says():
    record = play_one("sealed_bid_auction", [parse_spec("equilibrium")] * 10, seed=2)
    state = replay(record)
    values = [state.valuation(s, r) for r in range(20) for s in range(10)]
    gaps = [v - (9 * v) // 10 for v in values]
    expected = sum(gaps) / len(gaps) / max(values) * 100
    assert record.metrics["gama"]["table"]["score"] == pytest.approx(expected)
    assert 3 < expected < 8  # about a tenth of the mean valuation: GAMA's models score ~5


def test_second_price_equilibrium_bids_the_valuation_and_is_not_in_gamas_table():
    record = play_one("sealed_bid_auction", [parse_spec("equilibrium")] * 10, seed=2,
                      params={"price": "second"})
    assert record.metrics["gama"]["table"]["raw"] == 0
    assert record.metrics["gama"]["comparable"] is False
    assert gama_table([record]) == []


def test_random_bids_cover_the_whole_legal_range():
    record = play_one("sealed_bid_auction", [parse_spec("random")] * 10, seed=3)
    state = replay(record)
    ratios = [state.choices[r][s] / state.valuation(s, r) for r in range(20) for s in range(10)]
    assert max(ratios) <= 1 and 0.4 < sum(ratios) / len(ratios) < 0.6


@pytest.mark.parametrize("game_id", GAMA_IDS)
def test_the_bots_are_offered_and_search_only_where_it_can_play(game_id):
    offered = agents_for(next(s for s in GAMES if s.id == game_id))
    search = ["mcts"] if game_id == "battle_royale" else []  # sequential, nothing hidden
    assert offered == ["random", *search, "equilibrium", "adaptive", "strategic"]


def test_mcts_is_refused_on_simultaneous_games():
    from agents.specs import SpecError, check_fits
    from games.registry import get

    with pytest.raises(SpecError, match="mcts cannot play the simultaneous game guess_2_3"):
        check_fits(parse_spec("mcts"), get("guess_2_3"))
    with pytest.raises(SpecError, match="simultaneous game pirate_game"):
        check_fits(parse_spec("mcts"), get("pirate_game"))  # the votes are simultaneous


def test_mcts_plays_battle_royale_through_the_python_search():
    """OpenSpiel's C++ MCTS crashes on Python games; the agent uses the Python search."""
    record = play_one("battle_royale", [parse_spec("mcts:30:1s")] + [parse_spec("random")] * 9,
                      seed=4, params={"max_turns": 20})
    assert record.outcome == "normal"
    assert any(move.seat == 0 for move in record.moves)


def test_bots_refuse_other_benchmarks_games():
    from agents.specs import SpecError, check_fits
    from games.registry import get

    with pytest.raises(SpecError, match="equilibrium plays only GAMA-Bench"):
        check_fits(parse_spec("equilibrium"), get("kuhn_poker"))


def test_gama_table_means_per_game_and_overall_only_with_all_eight():
    records = []
    for game_id in GAMA_IDS:
        for seed in (1, 2):
            records.append(play_one(game_id, [parse_spec(s) for s in
                                              ["equilibrium"] * 5 + ["random"] * 5], seed=seed))
    partial = play_one("guess_2_3", [parse_spec("adaptive")] * 10, seed=1)
    rows = gama_table([*records, partial])
    by_entity = {row.entity: row for row in rows}
    assert set(by_entity) == {"equilibrium", "random", "adaptive"}
    eq = by_entity["equilibrium"]
    assert eq.cells["guess_2_3"].sessions == 2 and eq.cells["guess_2_3"].mean == 100
    assert eq.overall == pytest.approx(sum(eq.cells[g].mean for g in GAMA_IDS) / 8)
    assert by_entity["adaptive"].overall is None
    assert rows[-1].entity == "adaptive"
    headers, body = table_rows(rows)
    assert headers[0] == "agent" and headers[-1] == "Overall" and len(body) == 3
    assert "Guess 2/3 of the Average" in markdown(rows)


def test_gama_table_rows_per_person():
    session = PlaySession("divide_dollar", ["equilibrium"] * 9, person=_person("alice-0001"),
                          seat=2, seed=3, params={"num_rounds": 2})
    session.run_agents()
    while not session.over:
        session.submit(Text(text="10"))
        session.run_agents()
    rows = {row.entity: row for row in gama_table([session.record], by_player=True)}
    assert rows["human:alice-0001"].cells["divide_dollar"].mean == pytest.approx(100)
    assert "human" not in rows


def test_end_of_game_summary_lists_every_seat_best_first():
    from sessions.ratings.gama_table import session_summary

    record = play_one("pirate_game", [parse_spec("equilibrium")] * 10, seed=0)
    headers, rows = session_summary(record)
    assert headers == ["seat", "player", "result", "place", "GAMA score"]
    assert rows[0] == ["0", "equilibrium", "96", "1", "100.0"]
    assert [row[0] for row in rows[1:5]] == ["2", "4", "6", "8"]


def test_unfinished_sessions_stay_out_of_the_table():
    session = PlaySession("guess_2_3", "random", person=_person(), seat=0, seed=3)
    session.run_agents()
    session.abandon()
    assert session.record.outcome == "abandoned" and session.record.metrics == {}
    assert gama_table([session.record]) == []


def test_a_forfeit_keeps_the_partial_scores_but_not_in_the_table():
    session = PlaySession("public_goods", "random", person=_person(), seat=0, seed=3)
    session.run_agents()
    session.submit(Text(text="5"))
    session.run_agents()
    assert session.resign() == "You resigned."
    gama = session.record.metrics["gama"]
    assert gama["complete"] is False and gama["seats"][0]["raw"] == 5
    assert gama_table([session.record]) == []


def test_the_human_seat_and_the_agents_must_fit_the_table():
    with pytest.raises(ValueError, match="seat 10 does not exist; seats are 0-9"):
        PlaySession("guess_2_3", "random", person=_person(), seat=10, seed=0)
    with pytest.raises(ValueError, match="9 opponent.s. needed, got 2"):
        PlaySession("guess_2_3", ["random"] * 2, person=_person(), seat=0, seed=0)


def test_a_stale_submit_is_refused():
    session = PlaySession("diners_dilemma", "random", person=_person(), seat=1, seed=0,
                          params={"num_rounds": 1})
    session.run_agents()
    session.submit(Text(text="cheap"))
    session.run_agents()
    assert session.over
    with pytest.raises(NotYourTurn, match="This game is over"):
        session.submit(Text(text="cheap"))
    assert session.play_text("cheap").startswith("This game is over")
