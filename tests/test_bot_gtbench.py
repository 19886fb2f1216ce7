"""Strategy bots of GTBench's chance, hidden-information and repeated games (agents/bots):
what a player would notice in a built position, decisions that never depend on what the
seat cannot see, and a short check that each plays better than a random player would."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability

from agents.base import Agent, SeatView
from agents.bots import make_bot
from agents.specs import make_agent, seat_seed
from agents.trivial import FirstMove
from games import registry
from games.actions import legal_moves
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord

COOPERATE, DEFECT = 0, 1
PASS, BET = 0, 1


def _state(game_id: str, actions: list[int], params: dict[str, object] | None = None
           ) -> pyspiel.State:
    state = registry.get(game_id).load(params or {}).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return state


def _view(game_id: str, state: pyspiel.State, seat: int) -> SeatView:
    spec = registry.get(game_id)
    return SeatView(spec, seat, "", tuple(legal_moves(spec, state, seat)), (), state.clone())


def _bot(game_id: str, seed: int = 0, params: dict[str, object] | None = None) -> Agent:
    spec = registry.get(game_id)
    return make_bot(spec, spec.params(params), seed=seed)


def _decide(game_id: str, state: pyspiel.State, seat: int, seed: int = 0,
            params: dict[str, object] | None = None) -> str:
    decision = _bot(game_id, seed, params).act(_view(game_id, state, seat))
    assert decision.proposal is not None
    return _view(game_id, state, seat).label(decision.proposal.action)


def _play(game_id: str, bot_seat: int, opponent: str, seed: int) -> MatchRecord:
    """One match of the bot against ``opponent`` ("first" or an agent spec)."""
    spec = registry.get(game_id)
    names = ["bot", opponent] if bot_seat == 0 else [opponent, "bot"]
    match = Match(game_id, [SeatRecord(kind=n, spec=n, entity=n) for n in names], seed=seed)
    agents = [FirstMove() if name == "first" else
              make_agent(name, spec, match.record.params, seed=seat_seed(seed, i, name))
              for i, name in enumerate(names)]
    return play_match(match, agents)


def _scores(game_id: str, opponent: str, games: int) -> list[float]:
    """The bot's score (1 win, 1/2 draw, 0 loss) in each game, seats alternating."""
    out = []
    for seed in range(games):
        record = _play(game_id, seed % 2, opponent, seed)
        assert record.scores is not None
        out.append(record.scores[seed % 2])
    return out


# --- Kuhn poker ---------------------------------------------------------------------------

JACK, QUEEN, KING = 0, 1, 2


@pytest.mark.parametrize("seed", range(5))
def test_kuhn_calls_a_bet_with_the_king_and_folds_the_jack(seed):
    assert _decide("kuhn_poker", _state("kuhn_poker", [QUEEN, KING, BET]), 1, seed) == "bet"
    assert _decide("kuhn_poker", _state("kuhn_poker", [QUEEN, JACK, BET]), 1, seed) == "pass"
    # the first player checked the King and was bet into: it calls
    assert _decide("kuhn_poker", _state("kuhn_poker", [KING, QUEEN, PASS, BET]), 0, seed) == "bet"


def test_kuhn_decision_does_not_depend_on_the_opponents_card():
    """Seat 1 holds the Queen facing a bet (it calls a third of the time, drawn from its own
    generator): the same draws whether the bettor holds the Jack or the King."""
    for seed in range(20):
        picks = {_decide("kuhn_poker", _state("kuhn_poker", [other, QUEEN, BET]), 1, seed)
                 for other in (JACK, KING)}
        assert len(picks) == 1
    for seed in range(20):  # seat 0 opening with the Jack: bluffs or not, whatever seat 1 holds
        picks = {_decide("kuhn_poker", _state("kuhn_poker", [JACK, other]), 0, seed)
                 for other in (QUEEN, KING)}
        assert len(picks) == 1


def test_kuhn_strategy_measured_from_its_moves_cannot_be_exploited():
    """Its betting frequencies, measured over 300 decisions in each of the 12 situations,
    form a strategy that a best-responding opponent beats by almost nothing (OpenSpiel's
    exploitability, chips a hand); a random player's is 0.46."""
    game = pyspiel.load_game("kuhn_poker")
    measured = openspiel_policy.TabularPolicy(game)
    bot = _bot("kuhn_poker", seed=3)
    for card in (JACK, QUEEN, KING):
        for betting in ([], [PASS, BET], [PASS], [BET]):
            seat = len(betting) % 2
            other = (card + 1) % 3
            state = _state("kuhn_poker", [card, other] if seat == 0 else [other, card])
            for action in betting:
                state.apply_action(action)
            bets = sum(bot.act(_view("kuhn_poker", state, seat)).proposal.action == BET
                       for _ in range(300))
            key = state.information_state_string(seat)
            measured.policy_for_key(key)[:] = [1 - bets / 300, bets / 300]
    assert exploitability.exploitability(game, measured) < 0.05


# --- Liar's dice --------------------------------------------------------------------------

def _dice_state(mine: int, theirs: int, bids: list[str], seat: int = 1) -> pyspiel.State:
    """Dice are faces 1-6 (actions 0-5); bids as OpenSpiel writes them ("2-5")."""
    dice = [mine - 1, theirs - 1] if seat == 0 else [theirs - 1, mine - 1]
    state = _state("liars_dice", dice)
    for bid in bids:
        state.apply_action(next(a for a in state.legal_actions()
                                if state.action_to_string(state.current_player(), a) == bid))
    return state


@pytest.mark.parametrize("seed", range(3))
def test_liars_dice_calls_an_impossible_bid(seed):
    # "2 fives" needs both dice to be fives or sixes; mine is a three
    assert _decide("liars_dice", _dice_state(3, 5, ["2-5"]), 1, seed) == "liar"
    # "1 four" is certain when I hold a six (wild): never called
    assert _decide("liars_dice", _dice_state(6, 2, ["1-4"]), 1, seed) != "liar"


@pytest.mark.parametrize("bids", [["1-4"], ["1-2"], ["1-3", "1-5", "1-6"], ["1-1", "2-1"]])
def test_liars_dice_decision_does_not_depend_on_the_opponents_die(bids):
    seat = len(bids) % 2
    for seed in range(3):
        for mine in (1, 4, 6):
            picks = {_decide("liars_dice", _dice_state(mine, theirs, bids, seat), seat, seed)
                     for theirs in range(1, 7)}
            assert len(picks) == 1, (bids, mine, picks)


def test_liars_dice_beats_the_smallest_raise():
    """Always making the smallest raise wins 45% against random; the bot beats it."""
    scores = _scores("liars_dice", "first", 24)
    assert sum(scores) >= 18


# --- blind auction ------------------------------------------------------------------------

def _bid(valuation: int, other: int, seat: int, seed: int, their_bid: int = 0) -> int:
    values = [valuation, other] if seat == 0 else [other, valuation]
    state = _state("first_sealed_auction", values + ([their_bid] if seat == 1 else []))
    return int(_decide("first_sealed_auction", state, seat, seed).split()[1])


def test_auction_bids_below_its_valuation_and_more_for_more():
    for seat in (0, 1):
        bids = {v: [_bid(v, 5, seat, seed) for seed in range(10)] for v in range(1, 11)}
        means = [np.mean(bids[v]) for v in range(1, 11)]
        assert all(b < v for v in bids for b in bids[v])  # OpenSpiel allows bids below it
        assert all(b >= 1 for v in range(2, 11) for b in bids[v])  # never gives the item away
        assert all(x <= y for x, y in zip(means, means[1:], strict=False))
        assert max(bids[10]) < 9  # shades its bid when the item is worth much to it


def test_auction_bid_does_not_depend_on_the_opponents_valuation_or_bid():
    for seed in range(5):
        for valuation in (3, 5, 8):
            assert len({_bid(valuation, other, 0, seed) for other in range(1, 11)}) == 1
            assert len({_bid(valuation, other, 1, seed, their_bid=b)
                        for other in (2, 6, 10) for b in range(other)}) == 1


def test_auction_outbids_a_random_bidder():
    scores = _scores("first_sealed_auction", "random", 160)
    assert np.mean(scores) >= 0.6


# --- Pig ----------------------------------------------------------------------------------

ROLL, SIX = 0, 5


def _pig(turn_rolls: list[int], params: dict[str, object] | None = None) -> pyspiel.State:
    state = _state("pig", [], params)
    for face in turn_rolls:  # seat 0 rolls these faces (2-6) this turn
        state.apply_action(ROLL)
        state.apply_action(face - 1)
    return state


def test_pig_goes_for_the_goal_of_20_and_banks_early_with_a_goal_of_40():
    # 18 in hand at 0-0, first to 20: any roll but a 1 wins, while banking 18 hands the
    # opponent the first go at 20
    assert _decide("pig", _pig([6, 6, 6]), 0) == "roll"
    # first to 40: 18 banked is worth more than the risk
    assert _decide("pig", _pig([6, 6, 6], {"winscore": 40}), 0, params={"winscore": 40}) == "stop"
    # a goal of 40 is still far with 6 in hand: keep rolling
    assert _decide("pig", _pig([6], {"winscore": 40}), 0, params={"winscore": 40}) == "roll"


def test_pig_beats_a_random_player():
    assert np.mean(_scores("pig", "random", 40)) >= 0.75


# --- iterated prisoner's dilemma ----------------------------------------------------------

def _rounds(pairs: list[tuple[int, int]]) -> pyspiel.State:
    state = _state("iterated_prisoners_dilemma", [])
    for mine, theirs in pairs:  # the bot sits in seat 0
        state.apply_actions([mine, theirs])
        state.apply_action(0)  # the game goes on
    return state


def test_prisoners_retaliates_cooperates_when_ahead_and_exploits_a_pushover():
    def move(pairs: list[tuple[int, int]]) -> str:
        return _decide("iterated_prisoners_dilemma", _rounds(pairs), 0)

    probe = [(DEFECT, COOPERATE), (DEFECT, DEFECT)]  # opened by defecting; they answered
    assert move(probe) == "cooperate"  # 10 ahead: being cheated once cannot put it behind
    assert move([*probe, (COOPERATE, DEFECT)]) == "defect"  # cheated back to even: retaliates
    assert move([(DEFECT, COOPERATE), (DEFECT, COOPERATE)]) == "defect"  # cooperates regardless
    assert move([(DEFECT, DEFECT), (DEFECT, DEFECT)]) == "defect"


def test_prisoners_never_finishes_behind_and_mostly_wins_against_random():
    scores = _scores("iterated_prisoners_dilemma", "random", 40)
    assert min(scores) >= 0.5
    assert np.mean(scores) >= 0.65
