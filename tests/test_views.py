"""Seat views: what each seat is shown, and golden files of the text views."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import registry
from renderers import text_view
from scripts.golden_views import GOLDEN_DIR, golden_text
from tests.conftest import GAME_IDS

CARDS = "JQK"


@pytest.mark.parametrize("mine,theirs", [(a, b) for a in range(3) for b in range(3) if a != b])
@pytest.mark.parametrize("bets", [[], [0], [1], [0, 1]])
def test_kuhn_view_shows_my_card_and_never_the_other(mine, theirs, bets):
    state = registry.get("kuhn_poker").load().new_initial_state()
    for action in [mine, theirs, *bets] if True else []:
        state.apply_action(action)
    seat = state.current_player()
    deal = {0: mine, 1: theirs}
    view = text_view("kuhn_poker", state, seat)
    assert f"Your card: {CARDS[deal[seat]]}" in view
    assert not re.search(rf"\b{CARDS[deal[1 - seat]]}\b", view)


def test_kuhn_showdown_reveals_both_cards_but_a_fold_does_not():
    spec = registry.get("kuhn_poker")
    showdown = spec.load().new_initial_state()
    for action in (2, 0, 1, 1):  # K vs J, bet, call
        showdown.apply_action(action)
    assert "the other player had K" in text_view("kuhn_poker", showdown, 1)
    fold = spec.load().new_initial_state()
    for action in (2, 0, 1, 0):  # bet, fold
        fold.apply_action(action)
    assert not re.search(r"\bK\b", text_view("kuhn_poker", fold, 1))


@pytest.mark.parametrize("mine,theirs", [(0, 4), (5, 1), (2, 3)])
def test_liars_dice_view_shows_only_my_die_until_the_call(mine, theirs):
    state = registry.get("liars_dice").load().new_initial_state()
    for action in (mine, theirs, 3):  # dice, then player 0 bids "1 four"
        state.apply_action(action)
    view = text_view("liars_dice", state, 1)
    assert f"Your dice: {theirs + 1}" in view
    assert "Revealed" not in view
    assert str(mine + 1) not in view.split("Bids so far")[0].split("Your dice")[1]
    state.apply_action(12)  # liar
    assert f"player 0 {mine + 1}, player 1 {theirs + 1}" in text_view("liars_dice", state, 1)


def test_auction_view_hides_the_other_valuation_and_bid_until_the_end():
    state = registry.get("first_sealed_auction").load().new_initial_state()
    for action in (8, 3, 6):  # valuations 8 and 3; player 0 bids 6
        state.apply_action(action)
    view = text_view("first_sealed_auction", state, 1)
    assert "Your valuation of the item: 3" in view
    assert "8" not in view and "6" not in view


def test_negotiation_view_holds_only_my_values():
    spec = registry.get("negotiation")
    for seed in range(5):
        state = spec.load(spec.params({"rng_seed": seed})).new_initial_state()
        state.apply_action(0)
        full = str(state)
        values = {p: re.search(rf"Agent {p} util vec: ([\d ]+)", full).group(1) for p in (0, 1)}
        for seat in (0, 1):
            view = text_view("negotiation", state, seat)
            assert f"Your value per item (type 1, 2, 3): {values[seat]}" in view
            assert f"Agent {1 - seat}" not in view
            if values[0] != values[1]:
                assert values[1 - seat] not in view


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_golden_text_views(game_id):
    path = GOLDEN_DIR / f"{game_id}.txt"
    assert path.exists(), f"missing {path}; run python -m scripts.golden_views"
    assert golden_text(registry.get(game_id)) == path.read_text(encoding="utf-8"), (
        f"{game_id}'s text views changed; if on purpose, run python -m scripts.golden_views"
    )


def test_golden_dir_has_no_stale_files():
    assert {p.stem for p in Path(GOLDEN_DIR).glob("*.txt")} == set(GAME_IDS)
