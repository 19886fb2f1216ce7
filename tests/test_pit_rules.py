"""Pit's rules: OpenSpiel's random-simulation checks, the deal, trades by count, corners with
the Bull and the Bear, scoring to the target and the turn cap; then what each seat may see."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from games.actions import ActionId, IllegalMove, MoveError, Text, legal_moves, resolve
from games.gamebench import pit_rules as rules
from games.gamebench.pit_rules import BUNDLES, Bundle
from games.registry import get
from renderers import image_view, text_view
from sessions.match import Match
from sessions.record import SeatRecord, placement_scores
from tests.conftest import random_states

SPEC = get("pit")
WHEAT, BARLEY, COFFEE, CORN = range(4)


def game(**params) -> pyspiel.Game:
    return SPEC.load({**SPEC.params(), **params})


def table(hands: list[dict[str, int]], *, to_move: int = 0, offers=None, scores=None,
          **params) -> rules.PitState:
    state = game(**params).new_initial_state()
    state.set_position(hands, to_move=to_move, offers=offers, scores=scores)
    return state


def play(state: rules.PitState, text: str) -> None:
    """The seat to move plays ``text`` through the adapter."""
    seat = state.current_player()
    state.apply_action(resolve(SPEC, state, seat, Text(text=text)).action)


# Wheat split 5/2/1/1; a Bull corner and a Bear waiting to be handed round.
SPREAD = [{"Wheat": 5, "Barley": 2, "Coffee": 2, "Corn": 1},
          {"Wheat": 2, "Barley": 3, "Coffee": 2, "Corn": 2, "Bull": 1},
          {"Wheat": 1, "Barley": 2, "Coffee": 3, "Corn": 3, "Bear": 1},
          {"Wheat": 1, "Barley": 2, "Coffee": 2, "Corn": 3}]


def test_openspiel_random_simulation_checks():
    pyspiel.random_sim_test(game(max_rounds=25), num_sims=3, serialize=True, verbose=False)
    pyspiel.random_sim_test(game(num_players=8, max_rounds=5), num_sims=1, serialize=True,
                            verbose=False)


@pytest.mark.parametrize("players", [3, 4, 8])
def test_the_deal_is_one_suit_per_seat_and_the_bull_and_bear(players):
    state = game(num_players=players).new_initial_state()
    rng = np.random.default_rng(players)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        state.apply_action(int(outcomes[rng.choice(len(outcomes), p=[p for _, p in outcomes])][0]))
    sizes = [sum(hand) for hand in state.hands]
    assert sorted(sizes) == [9] * (players - 2) + [10, 10]
    assert sizes[0] == sizes[1] == 10  # dealt round from the first seat
    for card in range(players):
        assert sum(hand[card] for hand in state.hands) == 9
    assert sum(hand[rules.BULL] + hand[rules.BEAR] for hand in state.hands) == 2
    assert all(sum(hand[c] for hand in state.hands) == 0 for c in range(players, 8))
    basic = game(num_players=players, bull_bear=False)
    assert sum(basic.deck) == 9 * players


def test_an_offer_says_only_how_many_cards_to_the_others():
    state = table(SPREAD)
    play(state, "offer 2 Barley")
    assert state.offers == {0: Bundle(BARLEY, 2)}
    for seat in (1, 2, 3):
        view = text_view("pit", state, seat)
        assert "player 1 offered 2 cards." in view and "player 1 offers 2 cards" in view
        told = [line for line in view.splitlines()
                if not line.startswith(("Your hand", "Commodities in play"))]
        assert not any("Barley" in line for line in told), told
    assert "You offered 2 Barley." in text_view("pit", state, 0)
    assert state.label(2 + BUNDLES.index(Bundle(BARLEY, 2))) == "offer 2 Barley"


def test_a_trade_swaps_exactly_the_two_bundles_and_only_the_traders_see_them():
    state = table(SPREAD)
    play(state, "offer 2 Barley")
    before = [list(hand) for hand in state.hands]
    play(state, "accept player 1's offer of 2, giving 2 Coffee")
    assert state.hands[0][BARLEY] == before[0][BARLEY] - 2
    assert state.hands[0][COFFEE] == before[0][COFFEE] + 2
    assert state.hands[1][BARLEY] == before[1][BARLEY] + 2
    assert state.hands[1][COFFEE] == before[1][COFFEE] - 2
    assert [sum(h) for h in state.hands] == [sum(h) for h in before]
    assert state.offers == {} and state.to_move == 2
    assert ("player 2 accepted your offer: you gave 2 Barley and got 2 Coffee."
            in text_view("pit", state, 0))
    assert ("You accepted player 1's offer: you gave 2 Coffee and got 2 Barley."
            in text_view("pit", state, 1))
    for seat in (2, 3):
        assert ("player 2 accepted player 1's offer: 2 cards each way."
                in text_view("pit", state, seat))


def test_set_aside_cards_sizes_and_replacements_are_checked():
    state = table(SPREAD, offers={1: Bundle(WHEAT, 2)}, to_move=0)
    play(state, "offer 4 Wheat")
    labels = {m.label for m in legal_moves(SPEC, state, 1)}
    assert "accept player 1's offer of 4, giving 2 Wheat + Bull + Bear" not in labels  # no Bear
    assert "accept player 1's offer of 4, giving 3 Barley + Bull" in labels
    assert not any("giving 2 Wheat" in label for label in labels)  # set aside in its own offer
    assert not any(label.endswith("of 4, giving 2 Barley") for label in labels)  # 2 ≠ 4
    assert "offer 2 Wheat" not in labels  # the same offer again is not a move
    assert "withdraw my offer" in labels
    with pytest.raises(IllegalMove):
        resolve(SPEC, state, 1, Text(text="accept player 1's offer of 4, giving 2 Wheat + "
                                          "Bull + Bear"))
    play(state, "withdraw my offer")
    labels = {m.label for m in legal_moves(SPEC, state, 2)}
    assert "withdraw my offer" not in labels
    assert "accept player 1's offer of 4, giving 2 Wheat + Bull + Bear" not in labels


CORNER_NEXT = [{"Wheat": 8, "Barley": 1, "Coffee": 1},
               {"Wheat": 1, "Barley": 4, "Coffee": 4, "Bull": 1},
               {"Barley": 4, "Coffee": 4, "Corn": 1, "Bear": 1}, {"Corn": 8}]
"""Player 1 corners Wheat by taking player 2's one-card offer of Wheat."""


def test_a_corner_scores_its_value_and_the_bear_and_bull_holders_pay():
    state = table(CORNER_NEXT, offers={1: Bundle(WHEAT, 1)}, to_move=0)
    play(state, "accept player 2's offer of 1, giving 1 Barley")
    corner = state.corners[-1]
    assert (corner.seat, corner.commodity, corner.kind, corner.points) == (0, WHEAT, "corner",
                                                                            100)
    assert sorted(corner.penalties) == [(1, "Bull"), (2, "Bear")]
    assert state.scores == [100, -20, -20, 0]
    assert state.hand == 2 and state.is_chance_node()  # the next hand is being dealt
    assert state.offers == {}
    seen = text_view("pit", state, 3)
    assert "player 1 cornered Wheat (corner): +100. player 2 held the Bull: -20. player 3 held " \
           "the Bear: -20." in seen


VALUES = {"Wheat": 100, "Barley": 85, "Coffee": 80, "Corn": 75, "Sugar": 65, "Oats": 60,
          "Soybeans": 55, "Oranges": 50}
"""Each commodity's corner points, as games/rules/pit.md cites them (Winning Moves' rules for
Wheat, Corn and Oats; GameBench's table, in the rulebook's order, for the rest)."""


def test_every_commodity_corners_for_its_cited_value():
    names = [name for name, _ in rules.COMMODITIES]
    assert dict(rules.COMMODITIES) == VALUES
    cited = SPEC.rules
    for name, points in VALUES.items():
        assert f"{name} {points}" in cited  # the rules page gives each value with its source
    for commodity, name in enumerate(names):
        other = names[(commodity + 1) % 8]
        rest = [n for n in names if n not in (name, other)]  # 5 and 4 of two suits each
        hands = [{name: 8, other: 1}, {name: 1, other: 8}] + [
            {rest[i]: 5, rest[(i + 1) % 6]: 4} for i in range(6)]
        state = table(hands, offers={1: Bundle(commodity, 1)}, to_move=0, num_players=8,
                      bull_bear=False)
        play(state, f"accept player 2's offer of 1, giving 1 {other}")
        assert (state.corners[-1].seat, state.corners[-1].points) == (0, VALUES[name])
        assert state.scores[0] == VALUES[name]


def test_bull_corners_double_bull_corners_and_the_bear_blocks():
    def corner_after(hands, give, offers, **kwargs):
        state = table(hands, offers=offers, **kwargs)
        play(state, give)
        return state

    rest = [{"Coffee": 3, "Corn": 5}]
    # Eight Wheat and the Bull: a Bull corner, worth the value; nobody else pays the Bull.
    hands = [{"Wheat": 7, "Bull": 1, "Barley": 2}, {"Wheat": 2, "Barley": 3, "Coffee": 3,
                                                    "Corn": 2},
             {"Barley": 4, "Coffee": 3, "Corn": 2, "Bear": 1}, *rest]
    state = corner_after(hands, "accept player 2's offer of 1, giving 1 Barley",
                         {1: Bundle(WHEAT, 1)})
    assert (state.corners[-1].kind, state.scores) == ("Bull corner", [100, 0, -20, 0])
    # Nine and the Bull: double.
    hands = [{"Wheat": 8, "Bull": 1, "Barley": 1}, {"Wheat": 1, "Barley": 4, "Coffee": 3,
                                                    "Corn": 2},
             {"Barley": 4, "Coffee": 3, "Corn": 2, "Bear": 1}, *rest]
    state = corner_after(hands, "accept player 2's offer of 1, giving 1 Barley",
                         {1: Bundle(WHEAT, 1)})
    assert (state.corners[-1].kind, state.scores[0]) == ("double Bull corner", 200)
    # Nine Wheat and the Bear: no corner until the Bear is gone.
    hands = [{"Wheat": 8, "Bear": 1, "Barley": 1}, {"Wheat": 1, "Barley": 4, "Coffee": 3,
                                                    "Corn": 2},
             {"Barley": 4, "Coffee": 3, "Corn": 2, "Bull": 1}, *rest]
    state = corner_after(hands, "accept player 2's offer of 1, giving 1 Barley",
                         {1: Bundle(WHEAT, 1)})
    assert state.hands[0][WHEAT] == 9 and not state.corners and state.scores == [0] * 4
    play(state, "pass")  # player 2
    play(state, "offer Bull")  # player 3
    play(state, "pass")  # player 4
    play(state, "accept player 3's offer of 1, giving Bear")  # player 1 hands the Bear on
    assert state.corners[-1].seat == 0 and state.corners[-1].kind == "double Bull corner"
    assert state.scores == [200, 0, -20, 0]


def test_when_a_trade_gives_both_a_corner_the_accepting_seat_calls_it():
    hands = [{"Wheat": 7, "Barley": 2, "Coffee": 1}, {"Wheat": 2, "Barley": 7, "Coffee": 1},
             {"Coffee": 4, "Corn": 4, "Bull": 1}, {"Coffee": 3, "Corn": 5, "Bear": 1}]
    state = table(hands, offers={0: Bundle(BARLEY, 2)}, to_move=1)
    play(state, "accept player 1's offer of 2, giving 2 Wheat")
    trade = next(e for e in state.events if e.kind == "trade")  # 7 + 2 Wheat, 7 + 2 Barley
    assert trade.private == {1: Bundle(WHEAT, 2), 0: Bundle(BARLEY, 2)}
    corner = state.corners[-1]
    assert (corner.seat, corner.commodity, corner.points) == (1, BARLEY, 85)
    assert state.scores == [0, 85, -20, -20]


def test_the_first_to_the_target_wins_and_returns_are_points():
    state = table(CORNER_NEXT, offers={1: Bundle(WHEAT, 1)}, scores=[420, 300, 0, 10])
    play(state, "accept player 2's offer of 1, giving 1 Barley")
    assert state.is_terminal() and state.ended_by() == "target"
    assert state.returns() == [520.0, 280.0, -20.0, 10.0]
    assert placement_scores(state.returns())[0] == 1.0
    assert "Game over: you won · target reached." in text_view("pit", state, 0)


def test_the_turn_cap_closes_the_market_and_equal_points_tie():
    state = table(SPREAD, max_rounds=2, scores=[50, 50, 0, 0])
    for _ in range(7):
        play(state, "pass")
    assert not state.is_terminal()
    play(state, "pass")
    assert state.is_terminal() and state.ended_by() == "turn cap"
    assert state.corners[-1].kind == "market closed" and state.scores == [50, 50, 0, 0]
    assert placement_scores(state.returns()) == [5 / 6, 5 / 6, 1 / 6, 1 / 6]
    assert "you tied for first" in text_view("pit", state, 1)


def test_typed_and_llm_moves_in_other_words():
    state = table(SPREAD, offers={2: Bundle(CORN, 3)}, to_move=1)
    for words, label in (
        ("Accept player 3 giving 2 corn + the bull", None),
        ("accept player 3's offer, give 3 Barley", "accept player 3's offer of 3, giving 3 Barley"),
        ("Final answer: offer 2 x Wheat", "offer 2 Wheat"),
        ("I will offer the Bull", "offer Bull"),
        ("ignore", "pass"),
    ):
        if label is None:
            move = resolve(SPEC, state, 1, Text(text=words, source="llm"))
            assert move.label == "accept player 3's offer of 3, giving 2 Corn + Bull"
        else:
            assert resolve(SPEC, state, 1, Text(text=words, source="llm")).label == label
    for bad in ("offer 5 Wheat", "offer 2 Sugar", "accept player 2's offer of 1, giving 1 Corn",
                "offer 2 Wheat + Bear"):
        with pytest.raises(MoveError):
            resolve(SPEC, state, 1, Text(text=bad))


def test_bad_parameters_and_positions_are_refused():
    for params, message in (({"num_players": 2}, "num_players must be between 3 and 8"),
                            ({"target": 10}, "target must be between"),
                            ({"max_rounds": 0}, "max_rounds must be between")):
        with pytest.raises(ValueError, match=message):
            game(**params)
    state = game().new_initial_state()
    with pytest.raises(ValueError, match="exactly the deck"):
        state.set_position([{"Wheat": 9}] * 4)
    assert state.is_chance_node()  # nothing changed


def test_gamebench_share_is_stored_beside_the_points():
    seats = [SeatRecord("random", "random", "random")] * 4
    match = Match("pit", seats, seed=3, params={"max_rounds": 3})
    rng = np.random.default_rng(0)
    while not match.over:
        seat = match.to_move()[0]
        legal = match.legal(seat)
        match.submit(seat, ActionId(action=legal[int(rng.integers(len(legal)))].action))
    metric = match.record.metrics["pit"]
    assert metric["points"] == [int(r) for r in match.record.returns]
    assert metric["ended_by"] == "turn cap" and metric["rounds"] == 3
    total = sum(metric["points"])
    assert metric["gamebench_share"] == (None if total <= 0 else
                                         [p / total for p in metric["points"]])


# --- what each seat may see ------------------------------------------------------------------

def _twin(state: rules.PitState, seat: int, rng: np.random.Generator) -> rules.PitState:
    """``state`` with every card ``seat`` cannot see moved among the other seats: their hands
    shuffled (sizes kept), their offers re-made from their new hands (sizes kept), and the
    cards of trades the seat was not part of re-written."""
    twin = state.clone()
    others = [s for s in range(len(twin.hands)) if s != seat]
    pool = [card for s in others for card, n in enumerate(twin.hands[s]) for _ in range(n)]
    rng.shuffle(pool)
    at = 0
    for s in others:
        size = sum(twin.hands[s])
        twin.hands[s] = [0] * rules.CARDS
        for card in pool[at:at + size]:
            twin.hands[s][card] += 1
        at += size
        if s in twin.offers:
            held = [card for card, n in enumerate(twin.hands[s]) for _ in range(n)]
            size = twin.offers[s].size
            twin.offers[s] = _any_bundle(held, size)
    for i, event in enumerate(twin.events):
        if event.private and seat not in event.private:
            twin.events[i] = rules.Event(event.kind, event.seat, event.count, event.other,
                                         {s: Bundle(WHEAT, event.count) for s in event.private},
                                         event.corner)
    return twin


def _any_bundle(held: list[int], size: int) -> Bundle:
    """Some bundle of ``size`` cards from ``held`` (the offer's size is public, not its cards)."""
    for bundle in BUNDLES:
        if bundle.size == size and all(held.count(c) >= n for c, n in enumerate(bundle.cards())):
            return bundle
    return BUNDLES[0] if size == 1 else Bundle(WHEAT, size)


@pytest.mark.parametrize("seed", [0, 1])
def test_no_view_of_a_seat_holds_another_seats_cards(seed):
    rng = np.random.default_rng(seed)
    states = [s for s in random_states(SPEC, seed, limit=260) if not s.is_chance_node()]
    differed = 0
    for state in states[:: max(1, len(states) // 12)] + states[-1:]:
        for seat in range(4):
            twin = _twin(state, seat, rng)
            differed += str(twin) != str(state)
            assert text_view("pit", twin, seat) == text_view("pit", state, seat)
            assert image_view("pit", twin, seat).tobytes() == \
                image_view("pit", state, seat).tobytes()
            assert twin.observation_string(seat) == state.observation_string(seat)
    assert differed, "no twin differed from the real table"


def test_a_seat_sees_its_own_cards_and_the_others_see_the_change_in_their_own():
    state = table(SPREAD)
    mine = text_view("pit", state, 0)
    assert "Your hand (10 cards): 5 Wheat, 2 Barley, 2 Coffee, 1 Corn." in mine
    assert "Your hand (10 cards): 2 Wheat, 3 Barley, 2 Coffee, 2 Corn, Bull." in \
        text_view("pit", state, 1)
    for other in (1, 2, 3):
        assert "5 Wheat" not in text_view("pit", state, other)
