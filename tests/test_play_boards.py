"""Hive and Santorini on the Play tab without a browser: multi-step clicks, highlights, the
cancel and reselect rules, and Hive's pass button."""

from __future__ import annotations

from collections.abc import Callable

import pyspiel
import pytest
from PIL import ImageColor

from games.actions import ActionId
from games.gamebench import hive, santorini
from games.registry import get
from renderers.gamebench import hive as hive_view
from renderers.gamebench import santorini as santorini_view
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id
from tests.conftest import random_states


@pytest.fixture
def person():
    return Person(new_player_id(), "Ada", consent=True)


def _click(session: PlaySession, target: str) -> str:
    return session.click(*_centres(session)[target])


def _centres(session: PlaySession) -> dict[str, tuple[float, float]]:
    view = hive_view if session.spec.id == "hive" else santorini_view
    return view.centres(session.match.state, session.human)


def _rgb(colour: str) -> tuple[int, int, int]:
    return ImageColor.getrgb(colour)[:3]


# --- Santorini ------------------------------------------------------------------------------


def _santorini_turn(person: Person, seed: int = 4) -> PlaySession:
    """A session past the placement phase (both workers placed by clicks), the person to
    move with a turn that builds on the square its worker leaves."""
    session = PlaySession("santorini", "random", person=person, seat="first", seed=seed)
    for _ in range(2):
        square = next(m.path[0] for m in session.legal())
        assert _click(session, square).startswith("Your move: place")
    session.run_agents()
    assert session.your_turn and not session.match.state.placing
    return session


def test_santorini_worker_then_destination_then_build_with_highlights(person):
    session = _santorini_turn(person)
    legal = session.legal()
    move = next(m for m in legal if len(m.path) == 3)
    worker, destination, build = move.path
    assert _click(session, worker).startswith(f"{worker} selected")
    assert set(session.targets) == {m.path[1] for m in legal if m.path[0] == worker}
    image = session.screen().image
    for square in session.targets:  # each destination framed in the highlight colour
        x0, y0, _, _ = santorini_view.square_box(santorini.square_of(square))
        assert image.getpixel((x0 + 3, y0 + 50)) == _rgb(santorini_view.TARGET), square
    assert _click(session, destination).startswith(f"{worker} then {destination} selected")
    assert set(session.targets) == {m.path[2] for m in legal
                                    if m.path[:2] == (worker, destination)}
    assert _click(session, build) == f"Your move: {move.label}."
    assert session.record.moves[-1].label == move.label
    assert session.selection == () and session.targets == ()


def test_santorini_builds_on_the_square_the_worker_just_left(person):
    session = _santorini_turn(person)
    move = next(m for m in session.legal() if len(m.path) == 3 and m.path[2] == m.path[0])
    worker, destination, _ = move.path
    _click(session, worker)
    _click(session, destination)
    assert worker in session.targets  # the square it left is free to build on
    assert _click(session, worker) == f"Your move: {move.label}."
    state = session.match.state
    assert state.levels[santorini.square_of(worker)] == 1


def test_santorini_clicking_the_last_selection_again_steps_back(person):
    session = _santorini_turn(person)
    worker, destination, _ = next(m for m in session.legal() if len(m.path) == 3).path
    moves = len(session.record.moves)
    _click(session, worker)
    first_targets = session.targets
    _click(session, destination)
    assert _click(session, destination) == f"Back to {worker}."
    assert session.selection == (worker,) and session.targets == first_targets
    assert _click(session, worker) == "Selection cleared."
    assert session.selection == () and session.targets == ()
    assert len(session.record.moves) == moves


def test_santorini_another_worker_after_a_selection_starts_a_new_one(person):
    session = _santorini_turn(person)
    state = session.match.state
    mine = [santorini.square_name(s) for s in state.workers[0:2]]
    theirs = [santorini.square_name(s) for s in state.workers[2:4]]
    movable = {m.path[0] for m in session.legal()}
    first, other = (mine if mine[1] in movable else mine[::-1])
    _click(session, first)
    destination = session.targets[0]
    _click(session, destination)
    # the other worker's square is occupied: not a build, so it starts a new selection
    assert _click(session, other) == (f"{other} selected: click a highlighted spot, or {other} "
                                      "again to cancel.")
    assert session.selection == (other,)
    assert set(session.targets) == {m.path[1] for m in session.legal() if m.path[0] == other}
    # an opponent's worker starts nothing: the selection stays
    before = session.selection
    assert _click(session, theirs[0]) == f"{theirs[0]} cannot follow {other}."
    assert session.selection == before and len(session.record.moves) == 4


# --- Hive ---------------------------------------------------------------------------------


def test_hive_reserve_tile_then_highlighted_hex_and_reselect(person):
    session = PlaySession("hive", "random", person=person, seat="first", seed=2)
    session.click(*_centres(session)[session.legal()[0].path[0]])
    session.click(*_centres(session)[session.targets[0]])  # the first tile, at the centre
    session.run_agents()
    assert session.your_turn and len(session.record.moves) == 2
    legal = session.legal()
    tiles = list(dict.fromkeys(m.path[0] for m in legal))
    first, second = tiles[0], tiles[1]
    assert _click(session, first).startswith(f"{first} selected")
    found = hive.choices(session.match.state)
    assert session.targets == tuple(hive.hex_name(h) for h in found.targets(first))
    image = session.screen().image
    for name in session.targets:  # empty destination hexes are filled in the target colour
        x, y = hive_view.board(session.match.state).layout.centre(hive.parse_hex(name))
        assert image.getpixel((int(x), int(y) - 14)) == _rgb(hive_view.TARGET_FILL), name
    assert _click(session, first) == "Selection cleared."
    _click(session, first)
    assert _click(session, second).startswith(f"{second} selected")  # a new selection
    assert session.selection == (second,)
    destination = session.targets[-1]
    expected = next(m for m in legal if m.path == (second, destination))
    assert _click(session, destination) == f"Your move: {expected.label}."
    assert session.last == (second, destination)


def test_hive_a_click_off_the_targets_keeps_the_selection(person):
    session = PlaySession("hive", "random", person=person, seat="first", seed=2)
    tile = session.legal()[0].path[0]
    _click(session, tile)
    before = (session.selection, session.targets)
    far = hive_view.board(session.match.state).layout
    notice = session.click(far.width / 2, far.height - 60)  # an empty spot below the hive
    assert "not on the board" in notice or "not a legal move" in notice
    assert (session.selection, session.targets) == before


def _first_position(found: Callable[[pyspiel.State], object], what: str,
                    limit: int = 600) -> tuple[list[int], int, object]:
    """The actions of the first state of seeded random Hive games where ``found`` gives
    something, who is to move there, and what it gave."""
    for seed in range(40):
        for state in random_states(get("hive"), seed, limit=limit)[:-1]:
            thing = found(state)
            if thing:
                return list(state.history()), state.current_player(), thing
    pytest.skip(f"no random game in 40 seeds reached {what}")


def _replayed(person: Person, history: list[int], seat: int) -> PlaySession:
    """A Hive session in ``seat`` after ``history`` (both sides' moves, as made)."""
    session = PlaySession("hive", "random", person=person, seat=seat, seed=1)
    for action in history:
        session.match.submit(session.match.to_move()[0], ActionId(action=action))
    assert session.your_turn
    return session


def _at_forced_pass(person: Person) -> PlaySession:
    history, seat, _ = _first_position(lambda s: hive.choices(s).only_pass, "a forced pass")
    return _replayed(person, history, seat)


def test_hive_forced_pass_is_a_button_and_a_spot_in_the_image(person):
    session = _at_forced_pass(person)
    screen = session.screen()
    assert screen.buttons == ["pass"]
    assert _click(session, hive.PASS) == "Your move: pass."
    assert session.record.moves[-1].meta["input"] == "click"
    again = _at_forced_pass(person)
    assert again.play_label("pass") == "Your move: pass."
    assert again.record.moves[-1].meta["input"] == "button"


def test_hive_a_beetle_climbs_by_clicking_the_tile_it_lands_on(person):
    """With a beetle selected, a click on an occupied destination names the hex."""
    def climbing(state: pyspiel.State) -> hive.Choice | None:
        choices = hive.choices(state)
        return next((c for c in choices.distinct()
                     if c.tile and c.target in choices.position.stacks), None)

    history, seat, climb = _first_position(climbing, "a beetle climbing", limit=150)
    session = _replayed(person, history, seat)
    state = session.match.state
    x, y = hive_view.board(state).layout.centre(climb.target)
    under = hive_view.board(state).position.top(climb.target)
    assert hive_view.hit_test(state, seat, x, y) == under  # alone, the click names the tile
    _click(session, climb.tile)
    assert hive.hex_name(climb.target) in session.targets
    assert session.click(x, y) == f"Your move: {climb.label}."
    assert session.record.moves[-1].meta["input"] == "click"
