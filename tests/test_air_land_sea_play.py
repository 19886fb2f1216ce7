"""Air, Land & Sea on the Play tab without a browser: a whole war by clicks against random
(also on the table drawn for a phone), what a selected hand card lights, the buttons drawn on
the table, what the page shows of the other seat, and the phone layout: every legal move is
reached by tapping its targets, each big enough for a finger."""

from __future__ import annotations

import numpy as np
import pytest

from games.actions import legal_moves
from games.gamebench.air_land_sea_cards import CARDS, THEATERS, decode
from games.registry import get
from renderers import click_target, drawing, image_view
from renderers.gamebench import air_land_sea as view
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id
from tests.conftest import acting_players, random_states

SPEC = get("air_land_sea")


@pytest.fixture
def person():
    return Person(new_player_id(), "Ada", consent=True)


def _click(session: PlaySession, target: str) -> str:
    spots = view.centres(session.match.state, session.human, narrow=session.narrow)
    return session.click(*spots[target])


@pytest.mark.parametrize("seat,seed,narrow", [("first", 1, False), ("second", 2, False),
                                              ("second", 5, True)])
def test_a_whole_war_is_played_by_clicking_the_table(person, seat, seed, narrow):
    session = PlaySession("air_land_sea", "random", person=person, seat=seat, seed=seed)
    session.narrow = narrow  # a phone: the page draws and hit-tests the narrow table
    rng = np.random.default_rng(seed)
    played = 0
    session.run_agents()
    while not session.over:
        legal = session.legal()
        move = legal[int(rng.integers(len(legal)))]
        for i, target in enumerate(move.path):
            notice = _click(session, target)
            if i < len(move.path) - 1:
                assert notice.startswith(f"{' then '.join(move.path[:i + 1])} selected"), notice
        assert notice == f"Your move: {move.label}.", (move, notice)
        mine = [m for m in session.record.moves if m.seat == session.human]
        assert mine[-1].label == move.label and mine[-1].meta["input"] == "click"
        played += 1
        session.run_agents()
    assert played > 10
    assert session.record.outcome == "normal"
    assert "Game over" in session.status()
    share = session.record.metrics["gamebench"]["share"]
    assert sum(share) == pytest.approx(1.0)


@pytest.mark.parametrize("narrow", [False, True])
def test_a_selected_card_lights_where_it_may_go(person, narrow):
    session = PlaySession("air_land_sea", "random", person=person, seat="first", seed=3)
    session.narrow = narrow
    session.run_agents()
    state = session.match.state
    card = state.hands[session.human][0]
    name = CARDS[card].name
    assert _click(session, name).startswith(f"{name} selected")
    expected = {f"{t} face-down" for t in THEATERS} | {
        f"{THEATERS[CARDS[card].theater]} face-up"}
    assert set(session.targets) >= expected
    image = session.screen().image
    lit = drawing.TARGET
    for target in session.targets:
        x0, y0, x1, _ = next(box for box, spot in view.spots(state, session.human,
                                                             narrow=narrow)
                             if spot == target)
        assert image.getpixel((int((x0 + x1) / 2), int(y0) + 5)) == lit, target
    assert _click(session, name) == "Selection cleared."


def test_withdraw_is_a_button_on_the_table(person):
    session = PlaySession("air_land_sea", "random", person=person, seat="first", seed=4)
    session.run_agents()
    vp_before = list(session.match.state.vp)
    assert _click(session, "withdraw") == "Your move: withdraw."
    state = session.match.state
    assert state.battle == 2 and sum(state.vp) == sum(vp_before) + 2
    session.run_agents()
    assert _click(session, "skip") == "skip cannot be played now."  # no ability to skip now


def test_the_page_lists_the_opponents_play_as_the_rules_tell_it_and_no_deal(person):
    session = PlaySession("air_land_sea", "random", person=person, seat="second", seed=2)
    session.run_agents()  # seed 2: Red (random) is 1st Player and plays a card face-down
    screen = session.screen()
    [played] = [m for m in session.record.moves if m.seat == 0]
    commander, order = screen.moves[:2]
    assert "1st Player Supreme Commander" in commander and "theaters from left to right" in order
    assert screen.moves[2:] == [f"3. {session.seat_name(0)}: {played.public}"]
    assert not any("deal" in line for line in screen.moves)
    assert "face-down" in played.label and played.public.startswith("play a card face-down to ")
    assert CARDS[decode(played.action).card].name not in " ".join(screen.moves)
    other_hand = session.match.state.hands[0]
    for card in other_hand:
        assert CARDS[card].name not in screen.text
        assert all(CARDS[card].name not in label for label in screen.buttons + screen.menu)


# --- the table on a phone ----------------------------------------------------------------------

FINGER = 28
"""The least width and height (image pixels, about CSS pixels at 390) of a tap target."""


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_on_a_phone_every_legal_move_is_reached_by_tapping_the_narrow_table(seed):
    phases = set()
    for state in random_states(SPEC, seed)[::2]:
        for seat in (acting_players(state) or [0]):
            narrow = image_view(SPEC.id, state, seat, narrow=True)
            wide = image_view(SPEC.id, state, seat)
            assert narrow.height > narrow.width and narrow.width < wide.width
            spots = view.spots(state, seat, narrow=True)
            assert sorted(n for _, n in spots) == sorted(n for _, n in view.spots(state, seat))
            for target, (x, y) in view.centres(state, seat, narrow=True).items():
                assert 0 <= x < narrow.width and 0 <= y < narrow.height, target
                assert view.hit_test(state, seat, x, y, narrow=True) == target
                assert click_target(SPEC.id, state, seat, int(x), int(y), narrow=True) == target
            sizes = {name: (x1 - x0, y1 - y0) for (x0, y0, x1, y1), name in spots}
            if not acting_players(state):
                continue
            phases.add(state.phase)
            for move in legal_moves(SPEC, state, seat):
                for step in move.path:  # every click of every legal move: a big target
                    assert min(sizes[step]) >= FINGER, (move.label, step, sizes[step])
    assert {"main", "flip"} <= phases


def test_on_a_phone_every_ability_is_decided_by_tapping_the_narrow_table():
    """Every kind of decision (the ability sub-decisions too), over many random wars: each
    legal move's clicks hit-test back to themselves in the narrow layout."""
    seen = set()
    for seed in range(12):
        for state in random_states(SPEC, 100 + seed):
            if state.is_chance_node() or state.is_terminal() or state.phase == "main":
                continue
            seat = state.current_player()
            seen.add(state.phase)
            centres = view.centres(state, seat, narrow=True)
            for move in legal_moves(SPEC, state, seat):
                for step in move.path:
                    assert view.hit_test(state, seat, *centres[step], narrow=True) == step
    assert seen == {"flip", "transport", "redeploy", "redeploy_play", "reinforce"}
