"""Air, Land & Sea on the Play tab without a browser: a whole war by clicks against random,
what a selected hand card lights, the buttons drawn on the table, and what the page shows of
the other seat."""

from __future__ import annotations

import numpy as np
import pytest

from games.gamebench.air_land_sea_cards import CARDS, THEATERS, decode
from renderers import drawing
from renderers.gamebench import air_land_sea as view
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id


@pytest.fixture
def person():
    return Person(new_player_id(), "Ada", consent=True)


def _click(session: PlaySession, target: str) -> str:
    spots = view.centres(session.match.state, session.human)
    return session.click(*spots[target])


@pytest.mark.parametrize("seat,seed", [("first", 1), ("second", 2)])
def test_a_whole_war_is_played_by_clicking_the_table(person, seat, seed):
    session = PlaySession("air_land_sea", "random", person=person, seat=seat, seed=seed)
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


def test_a_selected_card_lights_where_it_may_go(person):
    session = PlaySession("air_land_sea", "random", person=person, seat="first", seed=3)
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
        x0, y0, x1, _ = next(box for box, spot in view.spots(state, session.human)
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
    assert _click(session, "skip") == "skip is not a legal move."  # no ability to skip now


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
