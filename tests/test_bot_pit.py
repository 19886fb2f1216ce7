"""Pit's bot: it frees a corner the Bear blocks and corners, offers the cards it holds fewest
of (never its commodity), pays for offers with cards it does not collect, goes back to a
partner that handed it its commodity, decides the same whatever the others hold, and
out-trades random traders."""

from __future__ import annotations

import numpy as np
import pytest

from agents.bots.pit import PitTrader
from games.actions import ActionId, Text, legal_moves, resolve
from games.gamebench import pit_rules as rules
from games.gamebench.pit_rules import BULL, BUNDLES, Bundle
from games.registry import get
from games.seat_view import SeatView

SPEC = get("pit")
WHEAT, BARLEY, COFFEE, CORN = range(4)


def table(hands: list[dict[str, int]], *, to_move: int = 0, offers=None,
          **params) -> rules.PitState:
    state = SPEC.load({**SPEC.params(), **params}).new_initial_state()
    state.set_position(hands, to_move=to_move, offers=offers)
    return state


def view(state: rules.PitState, seat: int) -> SeatView:
    return SeatView(SPEC, seat, "", tuple(legal_moves(SPEC, state, seat)), (), state.clone())


def bot(seed: int = 0) -> PitTrader:
    return PitTrader(SPEC, SPEC.params(), np.random.default_rng(seed))


def move(state: rules.PitState, seed: int = 0) -> str:
    """The bot, in the seat to move, decides; its move is played. Its label."""
    decision = bot(seed).act(view(state, state.current_player()))
    assert decision.reasoning
    state.apply_action(decision.proposal.action)
    return decision.raw


def play(state: rules.PitState, text: str) -> None:
    """The seat to move plays ``text`` through the adapter."""
    seat = state.current_player()
    state.apply_action(resolve(SPEC, state, seat, Text(text=text)).action)


# Player 1 collects Wheat (6) and holds 2 Corn, 1 Barley and the Bull.
COLLECTOR = [{"Wheat": 6, "Corn": 2, "Barley": 1, "Bull": 1},
             {"Wheat": 2, "Barley": 4, "Coffee": 2, "Corn": 2},
             {"Wheat": 1, "Barley": 2, "Coffee": 4, "Corn": 2, "Bear": 1},
             {"Barley": 2, "Coffee": 3, "Corn": 3}]


def test_the_bear_in_a_full_hand_goes_out_with_the_first_trade_and_it_corners():
    """Nine Wheat and the Bear: the Bear blocks the corner. Player 3 offers one card; the bot
    pays with the Bear and the corner is called for it at once."""
    hands = [{"Wheat": 9, "Bear": 1},
             {"Barley": 4, "Coffee": 3, "Corn": 2, "Bull": 1},
             {"Barley": 3, "Coffee": 3, "Corn": 3},
             {"Barley": 2, "Coffee": 3, "Corn": 4}]
    state = table(hands, to_move=0, offers={2: Bundle(CORN, 1)})
    assert move(state) == "accept player 3's offer of 1, giving Bear"
    corner = state.corners[-1]
    assert (corner.seat, corner.commodity, corner.points) == (0, WHEAT, 100)


def test_with_no_offer_to_take_it_offers_the_bear_alone():
    hands = [{"Wheat": 9, "Bear": 1},
             {"Barley": 4, "Coffee": 3, "Corn": 2, "Bull": 1},
             {"Barley": 3, "Coffee": 3, "Corn": 3},
             {"Barley": 2, "Coffee": 3, "Corn": 4}]
    assert move(table(hands)) == "offer Bear"


def test_it_offers_all_the_cards_of_the_commodity_it_holds_fewest_of():
    """Wheat 6, Corn 2, Barley 1, and the Bull (kept: a Bull corner needs only eight)."""
    assert move(table(COLLECTOR)) == "offer 1 Barley"


def test_it_offers_the_bull_and_the_bear_while_its_collection_is_small():
    hands = [{"Wheat": 4, "Corn": 3, "Barley": 1, "Bull": 1, "Bear": 1},
             {"Wheat": 3, "Barley": 4, "Coffee": 2, "Corn": 1},
             {"Wheat": 1, "Barley": 2, "Coffee": 4, "Corn": 2},
             {"Wheat": 1, "Barley": 2, "Coffee": 3, "Corn": 3}]
    assert move(table(hands)) == "offer 1 Barley + Bull + Bear"


def test_it_pays_for_an_offer_with_cards_it_does_not_collect():
    """Player 3 offers two cards: the bot gives its two Corn, never Wheat nor the Bull."""
    state = table(COLLECTOR, offers={2: Bundle(COFFEE, 2)})
    assert move(state) == "accept player 3's offer of 2, giving 2 Corn"
    assert state.hands[0][WHEAT] == 6 and state.hands[0][BULL] == 1


def test_it_goes_back_to_the_partner_that_handed_it_its_commodity():
    """Player 2 offers 2 Wheat (blind) and the bot takes it, paying 2 Corn, while player 3's
    offer of 2 Coffee stands; when player 2 offers two cards again, the bot takes player
    2's offer, not player 3's, and corners Wheat."""
    hands = [{"Wheat": 5, "Corn": 2, "Barley": 3},
             {"Wheat": 4, "Barley": 2, "Coffee": 2, "Corn": 2, "Bull": 1},
             {"Barley": 2, "Coffee": 4, "Corn": 3, "Bear": 1},
             {"Barley": 2, "Coffee": 3, "Corn": 2}]
    state = table(hands, to_move=1)
    play(state, "offer 2 Wheat")
    play(state, "offer 2 Coffee")
    play(state, "pass")
    assert move(state) == "accept player 2's offer of 2, giving 2 Corn"
    play(state, "offer 2 Wheat")
    play(state, "pass")
    play(state, "pass")
    assert move(state).startswith("accept player 2's offer of 2")
    corner = state.corners[-1]  # nine Wheat: cornered
    assert (corner.seat, corner.commodity) == (0, WHEAT)


def _shuffle_hidden(state: rules.PitState, me: int, rng: np.random.Generator) -> None:
    """Swap cards between the other seats (never their offered cards): every seat keeps
    as many cards, and what ``me`` may know stays the same."""
    others = [s for s in range(len(state.hands)) if s != me]
    for _ in range(20):
        a, b = rng.choice(others, size=2, replace=False)
        free_a, free_b = state.free(int(a)), state.free(int(b))
        x = [c for c in range(len(free_a)) if free_a[c]]
        y = [c for c in range(len(free_b)) if free_b[c]]
        card_a, card_b = int(rng.choice(x)), int(rng.choice(y))
        state.hands[a][card_a] -= 1
        state.hands[b][card_a] += 1
        state.hands[b][card_b] -= 1
        state.hands[a][card_b] += 1


@pytest.mark.parametrize("seed", range(4))
def test_what_the_others_hold_does_not_change_its_decision(seed):
    """Random trading for a while, then the others' cards are reshuffled among them: the
    bot's view is unchanged and so is its move (its own randomness seeded alike)."""
    state = SPEC.load({**SPEC.params(), "max_rounds": 60}).new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node() or len(state.events) < 30 + seed * 7:
        legal = state.legal_actions() if not state.is_chance_node() else [
            a for a, _ in state.chance_outcomes()]
        state.apply_action(int(rng.choice(legal)))
    me = state.current_player()
    other = state.clone()
    _shuffle_hidden(other, me, rng)
    assert other.hands != state.hands
    assert other.observation_string(me) == state.observation_string(me)
    picks = {bot(seed).act(view(s, me)).proposal.action for s in (state, other)}
    assert len(picks) == 1


def _game(seed: int, bot_seat: int) -> list[float]:
    """One game, 40 rounds, the bot in ``bot_seat`` among uniformly random traders."""
    state = SPEC.load({**SPEC.params(), "max_rounds": 40}).new_initial_state()
    player, rng = bot(seed), np.random.default_rng(seed + 100)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
        elif state.current_player() == bot_seat:
            decision = player.act(view(state, bot_seat))
            state.apply_action(ActionId(action=decision.proposal.action).action)
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return state.returns()


def test_it_outscores_random_traders():
    """Eight games, the bot in each seat in turn among three random traders: it corners
    while they shuffle cards, so it has the most points in most games and more points
    than all of them together. A random trader in its place corners almost never."""
    games = [(_game(seed, seed % 4), seed % 4) for seed in range(8)]
    mine = [returns[seat] for returns, seat in games]
    best_other = [max(r for s, r in enumerate(returns) if s != seat) for returns, seat in games]
    assert sum(m > b for m, b in zip(mine, best_other, strict=True)) >= 6, games
    assert sum(mine) > sum(sum(r) - r[s] for r, s in games), games


def test_the_bundles_it_offers_are_the_games_own():
    """The bot's labels name real bundles (a guard against the rules' action numbering
    moving under it)."""
    decision = bot().act(view(table(COLLECTOR), 0))
    assert decision.proposal.action - rules.OFFER in range(len(BUNDLES))
    assert decision.raw == SPEC.grammar.label(table(COLLECTOR), 0, decision.proposal.action)
