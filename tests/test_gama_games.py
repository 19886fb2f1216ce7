"""GAMA-Bench's eight games: rules on hand-worked rounds, parameters, answers, hidden views."""

from __future__ import annotations

import pytest

from games import registry
from games.actions import ActionId, IllegalMove, MoveError, Text
from games.gama.catalogue import GAMES
from renderers import renderer, text_view
from sessions.match import Match
from sessions.record import SeatRecord

GAMA_IDS = [spec.id for spec in GAMES]


def _seats(n: int = 10) -> list[SeatRecord]:
    return [SeatRecord(kind="random", spec="random", entity="random") for _ in range(n)]


def _round(match: Match, actions: list[int]) -> None:
    for seat, action in enumerate(actions):
        match.submit(seat, ActionId(action=action))


# --- OpenSpiel's own checks ------------------------------------------------------------------

@pytest.mark.parametrize("game_id", GAMA_IDS)
def test_openspiels_random_simulation_test(game_id):
    """OpenSpiel's C++ checks: legal actions, chance, returns = summed rewards, serialization."""
    import pyspiel

    spec = registry.get(game_id)
    game = spec.load(spec.params({"num_rounds": 5} if "num_rounds" in spec.params() else {}))
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


# --- parameters and rules --------------------------------------------------------------------

@pytest.mark.parametrize(("game_id", "params", "message"), [
    ("guess_2_3", {"ratio": "3"}, "ratio must be between 0 and 2, got 3"),
    ("guess_2_3", {"ratio": "two thirds"}, "ratio must be a number or a fraction"),
    ("el_farol", {"capacity": 120}, "between 0 and 100, got 120"),
    ("el_farol", {"information": "both"}, "information must be implicit"),
    ("divide_dollar", {"golds": 10}, "golds must be between 50 and 800, got 10"),
    ("public_goods", {"multiplier": "5"}, "multiplier must be between 0 and 4, got 5"),
    ("diners_dilemma", {"costly_utility": 40}, "dining alone the cheap dish must be the better"),
    ("sealed_bid_auction", {"price": "third"}, "price must be first or second"),
    ("sealed_bid_auction", {"max_valuation": 50}, "max_valuation must be between 100 and 800"),
    ("sealed_bid_auction", {"num_players": 2, "num_rounds": 1, "valuations": "5,500"},
     "valuations must be between 1 and max_valuation"),
    ("sealed_bid_auction", {"valuations": "1,2;3"}, "valuations must give 20 rounds of 10"),
    ("battle_royale", {"min_hit_rate": 5}, "between 10 and 100, got 5"),
    ("pirate_game", {"golds": 3}, "golds must be between 4 and 400, got 3"),
    ("guess_2_3", {"num_players": 1}, "num_players must be between 2 and 20, got 1"),
])
def test_out_of_range_parameters_are_refused_with_the_allowed_range(game_id, params, message):
    spec = registry.get(game_id)
    with pytest.raises(ValueError, match=message):
        spec.load(spec.params(params))


def test_unknown_parameter_names_list_the_known_ones():
    with pytest.raises(ValueError, match="guess_2_3 has no parameter 'target'.*ratio"):
        registry.get("guess_2_3").params({"target": 1})


@pytest.mark.parametrize("game_id", GAMA_IDS)
def test_rules_carry_the_sessions_parameters(game_id):
    spec = registry.get(game_id)
    for text in (spec.rules, spec.rules_for_llm):
        assert "$" not in text and text.strip()
    assert spec.benchmark == "GAMA-Bench"


def test_rules_follow_changed_parameters():
    spec = registry.get("guess_2_3")
    rules = spec.rules_with(spec.params({"ratio": "1/2", "num_players": 5}), for_llm=True)
    assert "The target number is 0.5 of this average." in rules
    assert "played by 5 players" in rules
    farol = registry.get("el_farol")
    assert "do not learn" in farol.rules_for_llm
    explicit = farol.rules_with(farol.params({"information": "explicit"}), for_llm=True)
    assert "Everyone learns how many players went" in explicit


# --- each game on hand-worked rounds ---------------------------------------------------------

def test_guess_ties_all_win():
    match = Match("guess_2_3", _seats(3), seed=0, params={"num_players": 3, "num_rounds": 1})
    _round(match, [10, 50, 30])  # average 30, target 20: 10 and 30 are both 10 away
    assert match.record.returns == [1.0, 0.0, 1.0]


@pytest.mark.parametrize(("goers", "going", "home"), [(6, 10.0, 5.0), (7, 0.0, 5.0)])
def test_el_farol_is_fun_up_to_capacity(goers, going, home):
    match = Match("el_farol", _seats(), seed=0, params={"num_rounds": 1})
    _round(match, [1] * goers + [0] * (10 - goers))
    assert match.record.returns == [going] * goers + [home] * (10 - goers)


@pytest.mark.parametrize(("bids", "paid"), [([10] * 10, True), ([10] * 9 + [11], False)])
def test_divide_the_dollar_pays_only_up_to_g(bids, paid):
    match = Match("divide_dollar", _seats(), seed=0, params={"num_rounds": 1})
    _round(match, bids)
    assert match.record.returns == ([float(b) for b in bids] if paid else [0.0] * 10)


def test_public_goods_shares_the_doubled_pot():
    match = Match("public_goods", _seats(), seed=0, params={"num_rounds": 1})
    _round(match, [20] + [0] * 9)  # pot 20, doubled 40, 4 each
    assert match.record.returns == [4.0] + [24.0] * 9


def test_diners_split_the_bill():
    match = Match("diners_dilemma", _seats(), seed=0, params={"num_rounds": 1})
    _round(match, [1] + [0] * 9)  # bill 20 + 9 x 10 = 110, 11 each
    assert match.record.returns == [9.0] + [4.0] * 9


def _auction(price: str, seed: int = 5, first_round: tuple[int, ...] | None = None) -> Match:
    params = {"num_players": 3, "num_rounds": 2, "price": price}
    if first_round is not None:
        params["valuations"] = ",".join(map(str, first_round)) + ";10,20,30"
    return Match("sealed_bid_auction", _seats(3), seed=seed, params=params)


@pytest.mark.parametrize(("price", "utility"), [("first", 70), ("second", 90)])
def test_auction_prices(price, utility):
    match = _auction(price, first_round=(120, 90, 60))
    _round(match, [50, 30, 10])
    result = match.state.result(0)
    assert (result.winner, result.winning_bid) == (0, 50)
    assert result.price == (50 if price == "first" else 30)
    assert match.state.returns() == [utility, 0.0, 0.0]


def test_auction_valuations_come_from_the_seed():
    first, again, other = _auction("first", 5), _auction("first", 5), _auction("first", 6)
    draws = [[m.state.valuation(s, r) for r in range(2) for s in range(3)]
             for m in (first, again, other)]
    assert draws[0] == draws[1] != draws[2]
    for r in range(2):
        row = [first.state.valuation(s, r) for s in range(3)]
        assert len(set(row)) == 3 and all(1 <= v <= 200 for v in row)
    seat_value = first.state.valuation(0, 0)
    assert [m.action for m in first.legal(0)] == list(range(seat_value + 1))


def test_auction_ties_are_broken_by_the_recorded_seed():
    match = _auction("first")
    low = min(match.state.valuation(s, 0) for s in range(3))
    _round(match, [low, low, 0])
    chance = [m for m in match.record.moves if m.seat == -1]
    assert len(chance) == 1 and "tie for the highest bid goes to player" in chance[0].label
    assert match.state.result(0).winner in (0, 1)


def test_battle_royale_order_turns_and_returns():
    match = Match("battle_royale", _seats(), seed=3)
    game = match.state.get_game()
    assert game.hit_rates == (35, 40, 45, 50, 55, 60, 65, 70, 75, 80)
    assert match.to_move() == [0]  # the weakest shoots first
    assert [m.label for m in match.legal(0)][-1] == "miss"
    assert "shoot player 0" not in [m.label for m in match.legal(0)]
    match.submit(0, Text(text="miss"))
    assert match.to_move() == [1]
    match.submit(1, Text(text="shoot player 9"))
    shot = [m for m in match.record.moves if m.seat == -1][-1]
    assert shot.label in ("hit", "missed")
    assert match.state.alive[9] is (shot.label == "missed")
    assert match.to_move() == [2]


def test_battle_royale_ends_after_max_turns_with_survivors_tied():
    match = Match("battle_royale", _seats(3), seed=0,
                  params={"num_players": 3, "max_turns": 10})
    while not match.over:
        match.submit(match.to_move()[0], Text(text="miss"))
    assert match.record.returns == [0.0, 0.0, 0.0]
    assert len(match.state.turns) == 10


def test_pirate_votes_are_one_simultaneous_round_and_no_choice_is_not_asked():
    match = Match("pirate_game", _seats(4), seed=0, params={"num_players": 4})
    assert match.to_move() == [0]
    assert [m.label for m in match.legal(0)][:2] == ["pirate 2 gets 0", "pirate 2 gets 1"]
    for share in (0, 1, 0):
        match.submit(0, Text(text=str(share)))
    assert match.state.plan == [99, 0, 1, 0]  # the proposer keeps the rest
    assert match.to_move() == [1, 2, 3]  # the proposer's accept is recorded by itself
    match.submit(1, Text(text="reject"))
    match.submit(2, Text(text="accept"))
    assert match.state.voting()
    match.submit(3, Text(text="reject"))  # 2 of 4 accept: exactly half passes
    assert match.over and match.record.returns == [99.0, 0.0, 1.0, 0.0]
    forced = [m for m in match.record.moves if m.meta.get("forced")]
    assert [(m.seat, m.label) for m in forced] == [(0, "accept")]


def test_a_rejected_pirate_goes_overboard_and_stops_voting():
    match = Match("pirate_game", _seats(4), seed=0, params={"num_players": 4})
    match.submit(0, Text(text="0"))
    match.submit(0, Text(text="0"))
    match.submit(0, Text(text="0"))
    for seat in (1, 2, 3):
        match.submit(seat, Text(text="reject"))
    assert match.to_move() == [1]
    match.submit(1, Text(text="100"))  # all to pirate 3: the plan is complete at once
    assert match.state.plan == [0, 0, 100, 0]
    assert match.to_move() == [2, 3]
    overboard = [m for m in match.record.moves if m.label == "overboard"]
    assert overboard == [] or all(m.meta.get("forced") for m in overboard)
    match.submit(2, Text(text="accept"))
    match.submit(3, Text(text="reject"))
    assert match.over and match.record.returns == [-1.0, 0.0, 100.0, 0.0]
    assert [m.seat for m in match.record.moves if m.label == "overboard"] == [0]


# --- answers through the adapter -------------------------------------------------------------

ANSWERS = [
    ("guess_2_3", '{"chosen_number": "37"}', "choose 37"),
    ("guess_2_3", '{"explanation": "2/3 of 50 is 33, so choose 33", "chosen_number": 22}',
     "choose 22"),
    ("guess_2_3", "37", "choose 37"),
    ("el_farol", '{"decision": "go"}', "go"),
    ("el_farol", "Stay home", "stay"),
    ("divide_dollar", '{"bid_amount": 10}', "bid 10"),
    ("public_goods", '{"tokens_contributed": "0"}', "contribute 0"),
    ("diners_dilemma", '{"chosen_dish": "costly"}', "costly"),
    ("diners_dilemma", "the cheap dish", "cheap"),
    ("sealed_bid_auction", '{"bid": "1"}', "bid 1"),
    ("battle_royale", '{"target": "player_9"}', "shoot player 9"),
    ("battle_royale", '{"target": "miss"}', "miss"),
    ("battle_royale", "I will intentionally miss", "miss"),
    ("pirate_game", '{"gold": "1"}', "pirate 2 gets 1"),
]


@pytest.mark.parametrize(("game_id", "answer", "label"), ANSWERS)
def test_gama_json_answers_resolve_through_the_adapter(game_id, answer, label):
    match = Match(game_id, _seats(), seed=1)
    seat = match.to_move()[0]
    assert match.submit(seat, Text(text=answer, source="llm")).label == label


@pytest.mark.parametrize(("game_id", "answer", "allowed"), [
    ("guess_2_3", '{"chosen_number": 150}', "a whole number from 0 to 100"),
    ("guess_2_3", "-3", "a whole number from 0 to 100"),
    ("guess_2_3", "33.5", "a whole number from 0 to 100"),
    ("divide_dollar", "101", "a whole number from 0 to 100"),
    ("public_goods", '{"tokens_contributed": 21}', "a whole number from 0 to 20"),
    ("pirate_game", "101", "pirate 2 gets a whole number of golds from 0 to 100"),
    ("battle_royale", '{"target": "player_0"}', "shoot player 1"),
])
def test_out_of_range_answers_say_the_allowed_range(game_id, answer, allowed):
    match = Match(game_id, _seats(), seed=1)
    seat = match.to_move()[0]
    with pytest.raises(IllegalMove) as caught:
        match.submit(seat, Text(text=answer))
    assert allowed in str(caught.value)
    assert len(str(caught.value)) < 400  # a range, not 101 labels
    assert match.record.moves == [] or all(m.seat == -1 for m in match.record.moves)


def test_auction_bids_above_the_valuation_are_refused_with_the_valuation():
    match = Match("sealed_bid_auction", _seats(), seed=1)
    value = match.state.valuation(0, 0)
    with pytest.raises(IllegalMove, match=f"a whole number from 0 to {value}"):
        match.submit(0, Text(text=str(value + 1)))


def test_a_vote_answered_with_a_number_is_refused():
    match = Match("pirate_game", _seats(3), seed=0, params={"num_players": 3})
    match.submit(0, Text(text="1"))
    match.submit(0, Text(text="0"))
    with pytest.raises(MoveError, match="Legal moves: accept, reject"):
        match.submit(1, Text(text="7"))


# --- what each seat sees ---------------------------------------------------------------------

def _farol_world(attendance: list[int], information: str = "implicit") -> Match:
    match = Match("el_farol", _seats(), seed=0,
                  params={"num_rounds": 2, "information": information})
    _round(match, attendance)
    return match


def test_el_farol_hides_the_attendance_from_those_who_stayed_home():
    # Seat 0 stays home in both worlds; the bar is fun in one and crowded in the other.
    quiet = _farol_world([0, 1, 1] + [0] * 7)
    busy = _farol_world([0] + [1] * 9)
    seat_view = renderer("el_farol")
    assert text_view("el_farol", quiet.state, 0) == seat_view.text(quiet.state, 0)
    for name in ("text", "prompt", "table"):
        show = getattr(seat_view, name)
        assert show(quiet.state, 0) == show(busy.state, 0), name
        assert show(quiet.state, 1) != show(busy.state, 1), name  # seat 1 went: it knows
    assert "did not learn" in seat_view.text(quiet.state, 0)
    assert "2 players went to the bar" in seat_view.text(quiet.state, 1)
    assert seat_view.table(busy.state, 0)[1][0][2] == "?"


def test_el_farol_explicit_information_tells_everyone():
    quiet = _farol_world([0, 1, 1] + [0] * 7, "explicit")
    busy = _farol_world([0] + [1] * 9, "explicit")
    view = renderer("el_farol")
    assert view.text(quiet.state, 0) != view.text(busy.state, 0)
    assert "9 players went to the bar" in view.text(busy.state, 0)


def test_auction_views_hide_other_valuations_and_losing_bids():
    def world(low_bid: int, valuation: int) -> Match:
        match = _auction("first", seed=9, first_round=(120, 90, valuation))
        _round(match, [60, 40, low_bid])
        return match

    a, b = world(0, 150), world(5, 160)
    view = renderer("sealed_bid_auction")
    for name in ("text", "prompt", "table"):
        assert getattr(view, name)(a.state, 0) == getattr(view, name)(b.state, 0), name
    assert view.text(a.state, 2) != view.text(b.state, 2)  # seat 2 sees its own valuation
    assert "150" not in view.prompt(a.state, 0) and "150" in view.prompt(a.state, 2)


def test_simultaneous_history_shows_only_the_seats_own_moves():
    match = Match("divide_dollar", _seats(), seed=0)
    _round(match, list(range(10)))
    history = match.view(3).history
    assert [move.seat for move in history] == [3] and history[0].label == "bid 3"


@pytest.mark.parametrize("game_id", GAMA_IDS)
def test_every_game_has_a_control_a_table_and_an_image(game_id):
    match = Match(game_id, _seats(), seed=2)
    seat = match.to_move()[0]
    view = renderer(game_id)
    control = view.control(match.state, seat)
    assert control.kind in ("number", "choice")
    legal = [m.action for m in match.legal(seat)]
    if control.kind == "number":
        assert (control.minimum, control.maximum) == (min(legal), max(legal))
    else:
        assert set(control.options) == {m.label for m in match.legal(seat)}
    headers, rows = view.table(match.state, seat)
    assert headers and rows == []
    image = view.image(match.state, seat)
    assert image.mode == "RGB" and image.size[0] > 300


def test_a_whole_pirate_plan_is_checked_before_it_is_submitted():
    from renderers.gama.pirate_game import plan_moves

    match = Match("pirate_game", _seats(), seed=0)
    state = match.state
    with pytest.raises(ValueError, match="a plan needs 9 shares"):
        plan_moves(state, 0, [1, 2])
    with pytest.raises(ValueError, match="gives away 120 golds; there are 100"):
        plan_moves(state, 0, [60, 60] + [0] * 7)
    with pytest.raises(ValueError, match="not your turn"):
        plan_moves(state, 1, [0] * 9)
    moves = plan_moves(state, 0, [0, 1, 0, 1, 0, 1, 0, 1, 0])
    for text in moves:
        match.submit(0, Text(text=text))
    assert match.state.plan == [96, 0, 1, 0, 1, 0, 1, 0, 1, 0] and match.state.voting()
    generous = Match("pirate_game", _seats(), seed=0)
    texts = plan_moves(generous.state, 0, [100] + [0] * 8)
    assert texts == ["100"]  # nothing left: the others get 0 without asking
    generous.submit(0, Text(text=texts[0]))
    assert generous.state.voting()
