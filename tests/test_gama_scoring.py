"""GAMA-Bench's raw scores S1-S8 and their 0-100 rescaling, against hand-worked numbers."""

from __future__ import annotations

from fractions import Fraction

import pytest

from games.actions import ActionId, Text
from games.gama import scoring
from games.gama.pirate import optimal_plan
from sessions.match import Match
from sessions.record import SeatRecord


def test_s1_guess():
    # Choices 0, 50 and 100 with MIN 0, MAX 100: S1 = 50.
    assert scoring.s1([0, 50, 100], 0) == 50
    assert scoring.rescale_s1(50, Fraction(2, 3), 0, 100) == 50
    assert scoring.rescale_s1(50, Fraction(4, 3), 0, 100) == 50
    assert scoring.rescale_s1(0, Fraction(2, 3), 0, 100) == 100  # everyone at MIN
    assert scoring.rescale_s1(100, Fraction(4, 3), 0, 100) == 100  # everyone at MAX
    # R = 1 rewards the extremes: S1 = 10 -> |20 - 100| / 100 = 80.
    assert scoring.rescale_s1(10, Fraction(1), 0, 100) == pytest.approx(80)
    # MIN 10, MAX 60: choices 10 and 20 -> S1 = 5 -> (50 - 5) / 50 = 90 (the paper's
    # (MAX - S1)/(MAX - MIN) would give 110 here; it agrees only at MIN = 0).
    assert scoring.s1([10, 20], 10) == 5
    assert scoring.rescale_s1(5, Fraction(2, 3), 10, 60) == pytest.approx(90)


def test_s2_el_farol():
    # R = 60%: 2 of 5 went (|0.4 - 0.6| = 0.2), then all 5 (0.4): S2 = 0.3 -> 50.
    rows = [[1, 1, 0, 0, 0], [1, 1, 1, 1, 1]]
    assert scoring.s2(rows, 0.6) == pytest.approx(0.3)
    assert scoring.rescale_s2(0.3, 0.6) == pytest.approx(50)
    # One seat is scored on how often it went: 2 of 3 rounds -> |0.667 - 0.6| -> 88.9.
    single = scoring.s2([[1], [0], [1]], 0.6)
    assert single == pytest.approx(2 / 3 - 0.6)
    assert scoring.rescale_s2(single, 0.6) == pytest.approx(88.888, abs=1e-2)
    assert scoring.rescale_s2(0.0, 0.6) == 100


def test_s3_divide_the_dollar():
    # N = 4, G = 100: sums 100 and 160 -> S3 = 30 -> 70.
    assert scoring.s3([[25, 25, 25, 25], [40, 40, 40, 40]], 4, 100) == 30
    assert scoring.rescale_s3(30, 100) == 70
    # Two of four seats: their bids count N/|E| = 2 times: 50 -> 100 (0), 100 -> 200 (100).
    assert scoring.s3([[20, 30], [50, 50]], 4, 100) == 50
    # Bids summing to 400: S3 = 300 -> (100 - 300)/100 < 0, clipped to 0.
    assert scoring.rescale_s3(scoring.s3([[100] * 4], 4, 100), 100) == 0


def test_s4_to_s7():
    assert scoring.s4([0, 10, 20]) == 10
    assert scoring.rescale_s4(10, 20) == 50
    assert scoring.rescale_s4(0, 20) == 100
    assert scoring.s5([True, False, False, False]) == 0.25
    assert scoring.rescale_s5(0.25) == 75
    assert scoring.s6([10, 30]) == 20
    assert scoring.rescale_s6(20, 200) == 10
    assert scoring.s7([True, False, True, True]) == 0.75
    assert scoring.rescale_s7(0.75) == 75


def test_s8_combines_proposals_and_votes():
    result = scoring.s8([0, 10], [True, True, False, True], golds=100)
    assert result.parts == {"S8P": 5, "S8V": 0.75}
    assert result.score == pytest.approx((200 - 5) / 200 * 50 + 0.75 * 50)
    assert scoring.s8([], [True, False], golds=100).score == 50  # votes only
    assert scoring.s8([0], [], golds=100).score == 100  # a proposal only
    assert scoring.s8([], [], golds=100).score is None


def test_optimal_plan_is_stewarts():
    assert optimal_plan(0, 10, 100) == (96, 0, 1, 0, 1, 0, 1, 0, 1, 0)
    assert optimal_plan(1, 10, 100) == (0, 96, 0, 1, 0, 1, 0, 1, 0, 1)
    assert optimal_plan(8, 10, 100)[8:] == (100, 0)
    assert optimal_plan(0, 10, 4) == (0, 0, 1, 0, 1, 0, 1, 0, 1, 0)


@pytest.mark.parametrize(("proposer", "voter", "offered", "right"), [
    (0, 3, 2, True), (0, 3, 0, False), (0, 2, 1, True), (0, 3, 1, False), (1, 3, 1, True),
])
def test_the_papers_voting_rule(proposer, voter, offered, right):
    assert scoring.correct_vote(proposer, voter, offered) is right


def _pirates() -> list[SeatRecord]:
    return [SeatRecord(kind="llm", spec="m", entity="m") for _ in range(10)]


def _propose(match: Match, shares: list[int]) -> None:
    """The proposer writes ``shares`` for the pirates below it, one pirate at a time."""
    proposer = match.to_move()[0]
    for share in shares:
        if match.to_move() != [proposer]:
            break
        match.submit(proposer, Text(text=str(share)))


def _vote(match: Match, accepting: set[int]) -> None:
    for seat in match.to_move():
        match.submit(seat, Text(text="accept" if seat + 1 in accepting else "reject"))


def test_the_papers_pirate_game_scores_as_the_paper_says():
    """Table 2 of the paper, replayed: S8P 8, 6 and 94; S8V 1.00, 0.75, 0.57; score 80.6."""
    match = Match("pirate_game", _pirates(), seed=0)
    _propose(match, [0] * 9)  # pirate 1 keeps 100
    _vote(match, set())
    _propose(match, [0, 1, 0, 0, 0, 0, 0, 0])  # pirate 2 keeps 99
    _vote(match, {4, 5, 10})
    _propose(match, [1, 1, 1, 1, 1, 1, 44])  # pirate 3 keeps 50
    _vote(match, {4, 5, 6, 7, 8, 9, 10})
    assert match.over and match.record.returns[:3] == [-1.0, -1.0, 50.0]
    state = match.state
    per_round = []
    for proposer in range(3):
        result = scoring.score(state, [proposer])
        per_round.append(result.parts["S8P"])
    assert per_round == [8, 6, 94]
    voters = [scoring.score(state, [seat]) for seat in range(10)]
    assert voters[3].parts["S8V"] == pytest.approx(2 / 3)  # pirate 4: right, right, wrong
    gama = match.record.metrics["gama"]
    assert gama["formula"] == "S8" and gama["complete"] and gama["comparable"]
    table = gama["table"]
    assert table["parts"]["S8P"] == pytest.approx(36)
    assert table["parts"]["S8V"] == pytest.approx(19 / 24)  # (9 + 6 + 4) / (9 + 8 + 7)
    assert table["score"] == pytest.approx(80.6, abs=0.05)
    assert gama["entities"]["m"]["score"] == pytest.approx(table["score"])


def test_session_metrics_per_seat_and_entity_for_a_hand_worked_guess_round():
    seats = [SeatRecord(kind="a", spec="a", entity="a") for _ in range(2)] + \
            [SeatRecord(kind="b", spec="b", entity="b") for _ in range(2)]
    match = Match("guess_2_3", seats, seed=0, params={"num_players": 4, "num_rounds": 1})
    for seat, number in enumerate([0, 20, 40, 60]):
        match.submit(seat, ActionId(action=number))
    gama = match.record.metrics["gama"]
    assert [s["raw"] for s in gama["seats"]] == [0, 20, 40, 60]
    assert [s["score"] for s in gama["seats"]] == [100, 80, 60, 40]
    assert gama["entities"]["a"] == {"raw": 10, "score": 90, "seats": [0, 1]}
    assert gama["entities"]["b"] == {"raw": 50, "score": 50, "seats": [2, 3]}
    assert gama["table"] == {"raw": 30, "score": 70}
    # Average 30, target 20: seat 1 chose 20 and won the round.
    assert match.record.returns == [0.0, 1.0, 0.0, 0.0]


def test_comparable_follows_the_papers_footnotes():
    assert scoring.comparable("el_farol", {"information": "implicit"})
    assert not scoring.comparable("el_farol", {"information": "explicit"})
    assert scoring.comparable("sealed_bid_auction", {"price": "first"})
    assert not scoring.comparable("sealed_bid_auction", {"price": "second"})
    assert scoring.comparable("guess_2_3", {})
