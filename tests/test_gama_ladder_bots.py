"""The ``strategic`` GAMA bot (agents/gama.py): what a player would notice it doing in each
game, a short check against seats that play a trivial strategy, and that it decides from what
its seat may know only (the round results the rules reveal, its own valuations).

The games are played here directly on the OpenSpiel state (no match engine), so the whole
module runs in a few seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from statistics import fmean

import numpy as np
import pytest

import games.gama.catalogue  # noqa: F401  (registers the games)
from agents.gama import STRATEGIES, GamaBot, StrategicBot
from agents.trivial import passive
from games import registry
from games.gama.battle_royale import HIT, MISSED
from games.gama.betraying import COSTLY
from games.gama.cooperative import GO, STAY
from games.gama.pirate import optimal_plan

Seat = Callable[[object, int], int]


def _state(game_id: str, **params: object):
    spec = registry.get(game_id)
    return spec.load(spec.params(params)).new_initial_state()


def _strategic(game_id: str, state, seat: int, seed: int = 0) -> int:
    action, why = STRATEGIES["strategic"][game_id](state, seat, np.random.default_rng(seed))
    assert why  # every decision says why
    return action


def _seat(name: str, game_id: str, seed: int) -> Seat:
    rng = np.random.default_rng(seed)
    if name in STRATEGIES:
        strategy = STRATEGIES[name][game_id]
        return lambda state, seat: strategy(state, seat, rng)[0]
    if name == "first":
        return lambda state, seat: state.legal_actions(seat)[0]
    if name == "pass":
        def do_nothing(state, seat: int) -> int:
            legal = state.legal_actions(seat)
            return next((a for a in legal if passive(state.action_to_string(seat, a))), legal[0])
        return do_nothing
    assert name == "random"
    return lambda state, seat: int(rng.choice(state.legal_actions(seat)))


def _play(game_id: str, lineup: Sequence[str], seed: int) -> list[float]:
    """One game with one strategy name per seat; chance from ``seed``."""
    spec = registry.get(game_id)
    params = spec.params({spec.seed_param: seed} if spec.seed_param else {})
    state = spec.load(params).new_initial_state()
    chance = np.random.default_rng(seed)
    seats = [_seat(name, game_id, seed * 100 + i) for i, name in enumerate(lineup)]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            pick = chance.choice(len(outcomes), p=[p for _, p in outcomes])
            state.apply_action(outcomes[pick][0])
        elif state.is_simultaneous_node():
            state.apply_actions([seats[p](state, p) if len(state.legal_actions(p)) > 1
                                 else state.legal_actions(p)[0] for p in range(len(seats))])
        else:
            seat = state.current_player()
            state.apply_action(seats[seat](state, seat))
    return state.returns()


def _return(game_id: str, me: str, others: str, seat: int, seed: int) -> float:
    n = registry.get(game_id).load().num_players()
    return _play(game_id, [me if i == seat else others for i in range(n)], seed)[seat]


# --- Guess 2/3 of the Average ----------------------------------------------------------------

def test_guess_opens_with_the_equilibrium_then_aims_at_two_thirds_of_the_expected_average():
    state = _state("guess_2_3")
    assert _strategic("guess_2_3", state, 0) == 0  # nothing seen: nobody beats 0 outright
    for mine in (0, 20):
        state.apply_actions([mine] + [50] * 9)
    number = _strategic("guess_2_3", state, 0)
    # The others kept choosing 50: it picks the number that is 2/3 of the average it makes.
    assert 25 < number < 40
    assert abs(number - 2 / 3 * (9 * 50 + number) / 10) <= 1


def test_guess_undercuts_a_table_that_aims_at_two_thirds_of_last_rounds_average():
    state = _state("guess_2_3")
    adaptive = STRATEGIES["adaptive"]["guess_2_3"]
    rng = np.random.default_rng(0)
    for _ in range(4):
        others = [adaptive(state, p, rng)[0] for p in range(1, 10)]
        mine = _strategic("guess_2_3", state, 0)
        state.apply_actions([mine, *others])
        if state.settled() > 1:  # from the second round on it wins the round alone
            assert state.result(state.settled() - 1).winners == (0,)
            assert mine < min(others)


def test_guess_decides_from_the_averages_not_from_the_numbers_it_never_sees():
    one, two = _state("guess_2_3"), _state("guess_2_3")
    one.apply_actions([10] + [50] * 9)
    two.apply_actions([10] + [0, 100] * 4 + [50])  # the same average, other numbers
    assert _strategic("guess_2_3", one, 0) == _strategic("guess_2_3", two, 0)


# --- El Farol Bar ----------------------------------------------------------------------------

def test_el_farol_goes_to_an_empty_bar_and_stays_away_from_a_packed_one():
    empty, packed = _state("el_farol"), _state("el_farol")
    for _ in range(3):
        empty.apply_actions([GO] + [STAY] * 9)
        packed.apply_actions([GO] * 10)
    assert _strategic("el_farol", empty, 0) == GO
    assert [_strategic("el_farol", packed, 0, seed) for seed in range(5)] == [STAY] * 5


def test_el_farol_ignores_the_nights_it_stayed_home_under_implicit_information():
    one, two = _state("el_farol"), _state("el_farol")
    one.apply_actions([GO] + [STAY] * 9)
    two.apply_actions([GO] + [STAY] * 9)
    one.apply_actions([STAY] * 10)  # it stayed home: it was not told how many went
    two.apply_actions([STAY] + [GO] * 9)
    assert _strategic("el_farol", one, 0, seed=3) == _strategic("el_farol", two, 0, seed=3)
    assert _strategic("el_farol", one, 0, seed=3) == _strategic("el_farol", one, 0, seed=3)


# --- Divide the Dollar -----------------------------------------------------------------------

def test_divide_takes_what_the_others_leave():
    state = _state("divide_dollar")
    state.apply_actions([10] + [0] * 9)
    state.apply_actions([10] + [3] * 9)
    assert _strategic("divide_dollar", state, 0) == 100 - 27


def test_divide_tests_once_whether_the_others_give_way_and_then_takes_the_rest():
    returns = _play("divide_dollar", ["strategic"] + ["adaptive"] * 9, seed=0)
    assert returns[0] > 10 * max(returns[1:])
    fair = _play("divide_dollar", ["strategic"] + ["equilibrium"] * 9, seed=0)
    assert fair[0] == max(fair) == min(fair)  # a table that holds its fair share: a tie


def test_divide_decides_from_the_total_not_from_the_bids_it_never_sees():
    one, two = _state("divide_dollar"), _state("divide_dollar")
    one.apply_actions([10] + [5] * 9)
    two.apply_actions([10] + [45] + [0] * 8)
    assert _strategic("divide_dollar", one, 0) == _strategic("divide_dollar", two, 0)


# --- Public Goods and Diner's Dilemma --------------------------------------------------------

def test_public_goods_keeps_its_tokens_unless_the_pot_pays_back_more_than_a_token():
    state = _state("public_goods")
    state.apply_actions([20] * 10)  # a generous table does not change the arithmetic
    assert _strategic("public_goods", state, 0) == 0
    rich = _state("public_goods", num_players=2, multiplier="4")
    assert _strategic("public_goods", rich, 0) == rich.get_game().tokens


def test_diners_orders_the_costly_dish_whatever_the_table_did():
    state = _state("diners_dilemma")
    assert _strategic("diners_dilemma", state, 0) == COSTLY
    state.apply_actions([0] * 10)
    assert _strategic("diners_dilemma", state, 0) == COSTLY


# --- Sealed-Bid Auction ----------------------------------------------------------------------

def _auction(valuations: list[list[int]]):
    table = ";".join(" ".join(map(str, row)) for row in valuations)
    return _state("sealed_bid_auction", num_players=3, num_rounds=len(valuations),
                  valuations=table)


def test_auction_bids_almost_nothing_against_bidders_who_bid_nothing():
    state = _state("sealed_bid_auction", valuation_seed=5)
    for r in range(3):
        state.apply_actions([state.valuation(0, r) * 9 // 10 if r == 0 else 1] + [0] * 9)
    assert _strategic("sealed_bid_auction", state, 0) <= 2


def test_auction_bids_the_equilibrium_shade_against_bidders_who_shade_like_it():
    state = _state("sealed_bid_auction", valuation_seed=5)
    for r in range(6):
        state.apply_actions([9 * state.valuation(p, r) // 10 for p in range(10)])
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    value = state.valuation(0, 6)
    assert abs(_strategic("sealed_bid_auction", state, 0) - 0.9 * value) <= 0.1 * value


def test_auction_bid_does_not_depend_on_another_seats_valuation():
    """Seat 2's valuations differ (this round's too); every bid made and every result seen
    is the same, so seat 0's bid must be the same."""
    mine = [[120, 40, 90], [80, 60, 70], [150, 30, 100], [110, 50, 60]]
    theirs = [[120, 40, 190], [80, 60, 75], [150, 30, 40], [110, 50, 200]]
    bids = [[100, 30, 35], [60, 50, 55], [120, 20, 30]]
    one, two = _auction(mine), _auction(theirs)
    for row in bids:
        one.apply_actions(row)
        two.apply_actions(row)
    assert one.valuation(2, 3) != two.valuation(2, 3)
    assert [_strategic("sealed_bid_auction", one, 0, s) for s in range(3)] == \
        [_strategic("sealed_bid_auction", two, 0, s) for s in range(3)]


# --- Battle Royale ---------------------------------------------------------------------------

def _shot(state, target: int | None, hit: bool = False) -> None:
    state.apply_action(state.get_game().miss if target is None else target)
    if target is not None:
        state.apply_action(HIT if hit else MISSED)


def test_battle_royale_shoots_the_opponent_that_keeps_shooting_at_it():
    state = _state("battle_royale", num_players=4, min_hit_rate=30, max_hit_rate=90)
    for _ in range(2):  # players 1 and 2 hold fire; player 3 (90%) shoots at player 0
        _shot(state, None), _shot(state, None), _shot(state, None), _shot(state, 0)
    assert {_strategic("battle_royale", state, 0, seed) for seed in range(3)} == {3}


def test_battle_royale_misses_on_purpose_while_the_two_others_duel():
    """The truel: the weakest shooter lets the two strong ones shoot at each other."""
    state = _state("battle_royale", num_players=3, min_hit_rate=30, max_hit_rate=90)
    for _ in range(2):
        _shot(state, None), _shot(state, 2), _shot(state, 1)
    assert {_strategic("battle_royale", state, 0, seed) for seed in range(3)} == \
        {state.get_game().miss}


# --- Pirate Game -----------------------------------------------------------------------------

def _propose(state, shares: Sequence[int]) -> None:
    while state.deciding is not None:
        state.apply_action(min(shares[state.deciding], state.gold_left()))


def _vote(state, accepting: set[int]) -> None:
    game = state.get_game()
    state.apply_actions([game.no_vote if s < state.proposer else
                         game.accept if s == state.proposer or s in accepting else game.reject
                         for s in range(game.num_players())])


def test_pirate_opens_with_stewarts_plan():
    state = _state("pirate_game")
    while state.deciding is not None:
        state.apply_action(_strategic("pirate_game", state, 0))
    assert tuple(state.plan) == optimal_plan(0, 10, 100)


def test_pirate_accepts_nothing_rather_than_go_overboard_among_pirates_who_reject_all():
    state = _state("pirate_game")
    for _ in range(6):  # each proposer keeps everything; nobody else ever accepts
        _propose(state, [0] * 10)
        _vote(state, set())
    _propose(state, [0] * 10)
    assert state.proposer == 6
    # Rejecting would make it the proposer, and such pirates would throw it overboard.
    assert _strategic("pirate_game", state, 7) == state.get_game().accept


def test_pirate_vote_depends_on_how_many_accepted_not_on_who():
    one, two = _state("pirate_game"), _state("pirate_game")
    plan = [91, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    for state, accepting in ((one, {1, 2, 3}), (two, {4, 6, 9})):
        _propose(state, plan)
        _vote(state, accepting)  # four accepts of ten aboard: overboard
        _propose(state, [0, 0, 2, 2, 2, 2, 0, 0, 0, 0])
    assert _strategic("pirate_game", one, 8) == _strategic("pirate_game", two, 8)


# --- against trivial seats -------------------------------------------------------------------

@pytest.mark.parametrize(("game_id", "others", "games", "gain"), [
    ("guess_2_3", "random", 2, 2.0),
    ("el_farol", "first", 2, 20.0),
    ("el_farol", "random", 3, 0.0),
    ("divide_dollar", "first", 2, 1000.0),
    ("divide_dollar", "pass", 2, 1000.0),
    ("public_goods", "random", 2, 0.0),
    ("sealed_bid_auction", "first", 2, 500.0),
    ("pirate_game", "pass", 10, 0.0),
])
def test_strategic_does_at_least_as_well_as_the_equilibrium_among_trivial_seats(
        game_id, others, games, gain):
    """In the same seats and deals, strategic's mean return is the equilibrium's or more
    (by ``gain`` where it exploits the trivial seats)."""
    n = registry.get(game_id).load().num_players()
    seats = [(g * 3) % n for g in range(games)]
    mine = [_return(game_id, "strategic", others, seat, g) for g, seat in enumerate(seats)]
    eq = [_return(game_id, "equilibrium", others, seat, g) for g, seat in enumerate(seats)]
    assert fmean(mine) >= fmean(eq) + gain, (mine, eq)


def test_the_bot_plays_through_the_agent_interface():
    from agents.base import SeatView
    from games.actions import LegalMove

    spec = registry.get("guess_2_3")
    state = _state("guess_2_3")
    legal = tuple(LegalMove(action=a, label=f"choose {a}", key=f"n{a}", path=())
                  for a in state.legal_actions(0))
    view = SeatView(game=spec, seat=0, text="", legal=legal, history=(), state=state)
    for bot in (GamaBot("strategic", STRATEGIES["strategic"]["guess_2_3"],
                        np.random.default_rng(0)),
                StrategicBot(spec, spec.params(), np.random.default_rng(0))):
        decision = bot.act(view)
        assert decision.proposal.action == 0 and decision.reasoning
