"""Arctic Scavengers: what each seat sees (text, image, clicks) and what stays hidden.

The game has far too many hidden deals to enumerate, so "the view is the same in every world
the seat cannot tell apart" is checked over worlds the game deals again itself
(``resample_from_infostate``), after checking that this redeal depends only on what the seat
knows. The table image is checked in both layouts: the wide one and the one for phones
(``narrow=True``).
"""

from __future__ import annotations

from functools import partial
from types import SimpleNamespace

import numpy as np
import pytest

from agents.base import SeatView
from agents.search import ISMCTSAgent
from games.actions import legal_moves
from games.gamebench.arctic_cards import INDEX, NAMES
from games.gamebench.arctic_sight import sight
from games.registry import get
from renderers import renderer
from sessions.match import Match
from sessions.record import CHANCE, SeatRecord
from tests.board_clicks import moves_by_clicking
from tests.conftest import random_states
from tests.test_arctic_rules import dealt, hand, labels, play, skirmish

SPEC = get("arctic_scavengers")
VIEW = renderer("arctic_scavengers")
C = INDEX


def _sampler(seed: int):
    return np.random.default_rng(seed).random


def _decisions(seed: int, every: int = 7) -> list:
    return [s for s in random_states(SPEC, seed)[::every]
            if not s.is_chance_node() and not s.is_terminal()]


@pytest.mark.parametrize("seed", [0, 1])
def test_the_redeal_depends_only_on_what_the_seat_knows(seed):
    for state in _decisions(seed):
        for seat in range(2):
            twin = state.resample_from_infostate(seat, _sampler(99))
            assert twin.information_state_string(seat) == state.information_state_string(seat)
            first = state.resample_from_infostate(seat, _sampler(seed))
            second = twin.resample_from_infostate(seat, _sampler(seed))
            assert str(first) == str(second)  # the truth did not steer the deal


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_text_and_image_are_the_same_in_every_redealt_world(seed):
    differed = 0
    for state in _decisions(seed, every=9):
        for seat in range(2):
            worlds = [state.resample_from_infostate(seat, _sampler(k)) for k in range(3)]
            differed += len({str(w) for w in worlds}) > 1
            text, image = VIEW.text(state, seat), VIEW.image(state, seat)
            phone = VIEW.layout(state, seat, narrow=True)[1]  # what the phone's image draws
            for world in worlds:
                assert VIEW.text(world, seat) == text
                assert VIEW.image(world, seat).tobytes() == image.tobytes()
                assert VIEW.layout(world, seat, narrow=True)[1] == phone
            pixels = VIEW.image(state, seat, narrow=True).tobytes()  # and its pixels, in one
            assert VIEW.image(worlds[0], seat, narrow=True).tobytes() == pixels
    assert differed, "no state had cards to hide"


def test_the_other_hand_is_never_shown():
    state = dealt()
    hand(state, 1, "Medkit", "Medkit", "Medkit")
    seen_by_me, seen_by_them = VIEW.text(state, 0), VIEW.text(state, 1)
    pixels = VIEW.image(state, 0).tobytes()
    phone, theirs = VIEW.image(state, 0, narrow=True), VIEW.image(state, 1, narrow=True)
    hand(state, 1, "Pills", "Pills", "Pills")  # same people, same count: nothing public moved
    assert VIEW.text(state, 0) == seen_by_me
    assert VIEW.image(state, 0).tobytes() == pixels
    assert VIEW.image(state, 0, narrow=True).tobytes() == phone.tobytes()
    assert VIEW.image(state, 1, narrow=True).tobytes() != theirs.tobytes()  # their own hand
    assert VIEW.text(state, 1) != seen_by_them
    assert "Your hand (3): 3 Pills." in VIEW.text(state, 1)
    assert sight(state, 0).tribes[1].hand is None


def test_only_the_initiator_sees_the_peeked_contested_card():
    state = dealt(initiator=1)
    for _ in range(2):  # rounds 1 and 2, then round 3's deal and peek
        play(state, "end gathering", "end gathering")
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    assert state.round == 3 and state.top is not None
    assert f"You peeked: the next one is the {NAMES[state.top]}." in VIEW.text(state, 1)
    assert "peeked" not in VIEW.text(state, 0)
    assert sight(state, 0).peeked is None and sight(state, 1).peeked == state.top


def test_cards_kept_back_are_face_down_until_a_skirmish_shows_them():
    state = dealt()
    hand(state, 0, "Grenade", "Brawler")
    play(state, "end gathering")  # round 1: no skirmish, kept face down
    theirs = sight(state, 1).tribes[0]
    assert theirs.force is None and theirs.force_count == 2
    assert "kept 2 cards in hand, face down" in VIEW.text(state, 1)
    play(state, "end gathering")
    assert sight(state, 1).tribes[0].discard_seen == ()
    assert sight(state, 0).tribes[0].discard_seen == (C["Brawler"], C["Grenade"])
    state = skirmish({0: ["Grenade", "Brawler"], 1: ["Scavenger"]})
    assert any("player 1 fights with Brawler + Grenade" in line for line in state.log)
    assert (C["Grenade"], True) in state.tribes[0].discard  # shown at the skirmish


def test_chance_draws_are_not_in_anyones_move_list():
    seats = [SeatRecord("random", "random", "random")] * 2
    match = Match("arctic_scavengers", seats, seed=3)
    assert any(m.seat == CHANCE for m in match.record.moves)
    for seat in range(2):
        assert all(m.seat != CHANCE for m in match.visible_moves(seat))


def test_every_legal_move_is_one_click_on_the_table():
    for seed in (0, 1):
        for state in _decisions(seed, every=3):
            seat = state.current_player()
            legal = {m.action for m in legal_moves(SPEC, state, seat)}
            spots = VIEW.centres(state, seat)
            reached = moves_by_clicking(SPEC, VIEW, state, seat, spots.items(),
                                        spots.__getitem__)
            assert set(reached) == legal, (state.phase, sorted(spots))


def test_clicks_off_the_moves_say_what_was_clicked():
    state = dealt()
    hand(state, 0, "Shovel", "Brawler")
    spots = VIEW.centres(state, 0)
    assert set(spots) >= {"dig", "end gathering", "trash"}
    layout = VIEW.layout(state, 0)[1]
    card = next(s for s in layout if s.kind == "card" and s.text == "Shovel")
    x0, y0, x1, y1 = card.box
    assert VIEW.hit_test(state, 0, (x0 + x1) / 2, (y0 + y1) / 2) == "Shovel"  # not a move now
    assert VIEW.hit_test(state, 0, 2, 2) is None  # the header
    play(state, "dig")
    assert VIEW.hit_test(state, 0, (x0 + x1) / 2, (y0 + y1) / 2) == "add Shovel"


def test_the_table_image_of_a_seat_is_its_own():
    state = dealt()
    assert VIEW.image(state, 0).tobytes() != VIEW.image(state, 1).tobytes()
    assert VIEW.image(state, 0).size[0] == VIEW.WIDTH


def test_ismcts_decides_the_same_whatever_the_hidden_cards():
    game = SPEC.load()
    state = _decisions(2, every=11)[4]
    seat = state.current_player()
    twin = state.resample_from_infostate(seat, _sampler(5))
    assert str(twin) != str(state)
    picks = []
    for world in (state, twin):
        agent = ISMCTSAgent(game, seed=3, simulations=30, seconds=0)
        view = SeatView(SPEC, seat, "", tuple(legal_moves(SPEC, world, seat)), (), world.clone())
        picks.append(agent.act(view).proposal.action)
    assert picks[0] == picks[1]


# --- the table for phones (narrow=True) ---------------------------------------------------------

PHONE = SimpleNamespace(hit_test=partial(VIEW.hit_test, narrow=True))
"""The renderer as a phone's page uses it: hit-tests on the narrow layout."""


def _skirmish_of_three(forces: dict[int, list[str]]):
    """Round 3 at a table of three, everyone done gathering with ``forces`` kept."""
    state = dealt(players=3)
    while state.round < 3 or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        else:
            play(state, "end gathering")
    for seat, cards in forces.items():
        hand(state, seat, *cards)
    while state.phase == "gather" and not state.is_chance_node():
        play(state, "end gathering")
    return state


def _playout(players: int, seed: int, every: int) -> list:
    """Decisions along a random game at a table of ``players``, every ``every``th."""
    rng = np.random.default_rng(seed)
    state, found, step = SPEC.load({"players": players}).new_initial_state(), [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            continue
        step += 1
        if step % every == 0:
            found.append(state.clone())
        state.apply_action(int(rng.choice(state.legal_actions())))
    return found


def _phone_states() -> list:
    """Decisions of every kind: random games of two and three tribes, a hire paid with
    medicine, and skirmishes with a Sniper Team and a Saboteur to strike with (random
    tribes rarely do either)."""
    paying = dealt()
    hand(paying, 0, "Medkit", "Pills", "Refugee")
    play(paying, "hire Hunter")
    sniping = skirmish({0: ["Sniper Team", "Brawler", "Shovel", "Saboteur"],
                        1: ["Saboteur", "Thugs", "Spear", "Grenade", "Refugee"]})
    three = _skirmish_of_three({0: ["Sniper Team", "Saboteur", "Brawler"],
                                1: ["Thugs", "Spear"], 2: ["Saboteur", "Grenade"]})
    assert "snipe Thugs of player 2" in labels(three)
    return [*_decisions(0, every=4), *_playout(2, 5, every=9), *_playout(3, 6, every=13),
            paying, sniping, three]


def test_every_legal_move_is_one_tap_on_the_phone_table():
    phases = set()
    for state in _phone_states():
        seat = state.current_player()
        phases.add(state.phase)
        legal = {m.action for m in legal_moves(SPEC, state, seat)}
        spots = VIEW.centres(state, seat, narrow=True)
        assert set(spots) == set(VIEW.centres(state, seat))  # the same targets as the wide one
        reached = moves_by_clicking(SPEC, PHONE, state, seat, spots.items(), spots.__getitem__)
        assert set(reached) == legal, (state.phase, sorted(spots))
    assert phases == {"gather", "pick", "pay", "keep", "skirmish"}


def test_the_phone_table_is_one_column_of_large_targets():
    for state in _phone_states()[::3]:
        seat = state.current_player()
        image = VIEW.image(state, seat, narrow=True)
        width, tall = image.size
        assert tall > 2 * width and width == VIEW.arctic_narrow.WIDTH < VIEW.WIDTH
        players = state.num_players()
        assert tall == VIEW.height(players, narrow=True)
        regions = VIEW.regions(players, narrow=True)
        targets = [s for s in VIEW.layout(state, seat, narrow=True)[1]
                   if s.kind in ("card", "chip", "pile", "button")]
        for spot in targets:
            x0, y0, x1, y1 = spot.box
            assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= tall
            assert any(r[0] <= x0 and x1 <= r[2] + 1e-6 and r[1] <= y0 and y1 <= r[3]
                       for r in regions.values()), spot
            if spot.move is not None:  # a thumb's width: about 30 CSS px at 380 px wide
                assert y1 - y0 >= 34 and x1 - x0 >= 60, spot
        for i, a in enumerate(targets):
            for b in targets[i + 1:]:
                assert (a.box[2] <= b.box[0] or b.box[2] <= a.box[0] or a.box[3] <= b.box[1]
                        or b.box[3] <= a.box[1]), (a, b)  # one tap, one thing


def test_the_phone_table_shows_no_hidden_card_where_the_wide_one_hides_it():
    state = dealt()
    hand(state, 0, "Grenade", "Brawler")
    hand(state, 1, "Scavenger", "Shovel", "Refugee")
    play(state, "end gathering")  # round 1: kept face down
    names = {s.text for s in VIEW.layout(state, 1, narrow=True)[1] if s.kind in ("card", "chip")}
    assert not {"Grenade", "Brawler"} & names  # player 1's kept cards: face down
    assert any("keeps 2 cards face down" in s.text
               for s in VIEW.layout(state, 1, narrow=True)[1])
    assert {"Scavenger", "Shovel", "Refugee"} <= names  # its own hand
    phone = VIEW.image(state, 1, narrow=True).tobytes()
    hand(state, 0, "Medkit", "Pills")  # other cards kept back: nothing public moved
    assert VIEW.image(state, 1, narrow=True).tobytes() == phone
