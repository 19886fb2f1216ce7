"""Sea Battle's rules: OpenSpiel's random-simulation checks, then hand-built positions on an
open sea (no inner rocks unless a test lays some)."""

from __future__ import annotations

import pyspiel
import pytest

from games.actions import IllegalMove, Text, legal_moves, resolve
from games.gamebench import sea_battle_rules as rules
from games.gamebench.sea_battle_rules import NO_ORDER, joint
from games.registry import get
from renderers import text_view
from sessions.match import Match
from sessions.record import SeatRecord

SPEC = get("sea_battle")
MOVE = {"left": 0, "forward": 1, "right": 2, "stay": 3}
SIDE = {"left": 0, "right": 1}
FAR = {"R1": (2, 2, "north", 0), "R2": (2, 4, "north", 0), "R3": (2, 6, "north", 0),
       "B1": (21, 21, "south", 0), "B2": (21, 19, "south", 0), "B3": (21, 17, "south", 0)}
"""Every ship parked out of everyone's reach; a test moves the ships it needs."""


def game(rocks: str = "", max_turns: int = 100) -> pyspiel.Game:
    params = {**SPEC.params(), "layout_seed": 1, "max_turns": max_turns, "rocks": rocks}
    if not rocks:
        params["inner_rocks"] = 0
    return SPEC.load(params)


def sea(ships: dict, *, rocks: str = "", max_turns: int = 100) -> rules.SeaBattleState:
    state = game(rocks, max_turns).new_initial_state()
    state.set_position({**FAR, **ships})
    return state


def order(move: str = "stay", side: str = "left") -> int:
    return MOVE[move] * 2 + SIDE[side]


def play(state: rules.SeaBattleState, red: dict[int, tuple[str, str]] | None = None,
         blue: dict[int, tuple[str, str]] | None = None) -> None:
    """One turn: the named ships' (move, side) orders; everyone else stays and fires left."""
    actions = []
    for seat, given in ((0, red or {}), (1, blue or {})):
        digits = []
        for ship in state.fleet(seat):
            if not ship.afloat:
                digits.append(NO_ORDER)
            else:
                digits.append(order(*given.get(ship.number, ("stay", "left"))))
        actions.append(joint(digits))
    state.apply_actions(actions)


def ship(state: rules.SeaBattleState, name: str) -> rules.Ship:
    seat, number = "RB".index(name[0]), int(name[1])
    return state.fleet(seat)[number - 1]


def test_openspiel_random_simulation_checks():
    pyspiel.random_sim_test(SPEC.load(), num_sims=5, serialize=True, verbose=False)


def test_forward_and_the_two_square_turns():
    state = sea({"R1": (10, 10, "north", 0), "R2": (5, 10, "east", 0), "R3": (15, 10, "west", 0)})
    play(state, {1: ("forward", "left"), 2: ("left", "left"), 3: ("right", "left")})
    assert (ship(state, "R1").cell, ship(state, "R1").heading) == ((10, 11), 0)
    assert (ship(state, "R2").cell, rules.HEADING_NAMES[ship(state, "R2").heading]) == \
        ((6, 11), "north")  # one east, turn left to north, one north
    assert (ship(state, "R3").cell, rules.HEADING_NAMES[ship(state, "R3").heading]) == \
        ((14, 11), "north")  # one west, turn right to north, one north
    assert all(ship(state, n).damage == 0 for n in ("R1", "R2", "R3"))


def test_sailing_into_a_rock_stays_put_with_one_damage_and_still_turns():
    state = sea({"R1": (10, 10, "north", 0), "R2": (1, 5, "west", 0)}, rocks="10 11")
    play(state, {1: ("forward", "left"), 2: ("left", "left")})
    assert ship(state, "R1").cell == (10, 10) and ship(state, "R1").damage == 1
    r2 = ship(state, "R2")  # the border is rock: blocked, turns to the south, then sails
    assert (r2.cell, rules.HEADING_NAMES[r2.heading], r2.damage) == ((1, 4), "south", 1)


def test_ships_ending_in_one_square_both_stay_and_take_one_damage():
    state = sea({"R1": (10, 10, "east", 0), "B1": (12, 10, "west", 0)})
    play(state, {1: ("forward", "left")}, {1: ("forward", "left")})  # both into (11, 10)
    assert (ship(state, "R1").cell, ship(state, "R1").damage) == ((10, 10), 1)
    assert (ship(state, "B1").cell, ship(state, "B1").damage) == ((12, 10), 1)


def test_head_on_ships_cannot_pass_through_each_other():
    state = sea({"R1": (10, 10, "east", 0), "B1": (11, 10, "west", 0)})
    play(state, {1: ("forward", "right")}, {1: ("forward", "right")})
    assert (ship(state, "R1").cell, ship(state, "B1").cell) == ((10, 10), (11, 10))
    assert ship(state, "R1").damage == ship(state, "B1").damage == 1


def test_ramming_a_ship_that_stays_hurts_both_and_a_follower_may_move_up():
    state = sea({"R1": (10, 10, "east", 0), "B1": (11, 10, "south", 0),
                 "R2": (5, 5, "east", 0), "R3": (4, 5, "east", 0)})
    play(state, {1: ("forward", "right"), 2: ("forward", "right"), 3: ("forward", "right")})
    assert (ship(state, "R1").cell, ship(state, "R1").damage) == ((10, 10), 1)
    assert (ship(state, "B1").cell, ship(state, "B1").damage) == ((11, 10), 1)
    assert (ship(state, "R2").cell, ship(state, "R3").cell) == ((6, 5), (5, 5))  # in line


def test_a_ship_blocked_by_a_ship_on_its_second_square_stays_and_takes_no_damage():
    """GameBench's rule: on the second square, a ship that would collide "will not move, but
    sustain no damage"; a rock there still hurts."""
    # R1 sails east to (11, 10), turns left (north) and would sail into B1, which stays.
    state = sea({"R1": (10, 10, "east", 0), "B1": (11, 11, "south", 0),
                 "R2": (5, 5, "east", 0)}, rocks="6 6")
    play(state, {1: ("left", "right"), 2: ("left", "right")})
    r1 = ship(state, "R1")
    assert (r1.cell, rules.HEADING_NAMES[r1.heading], r1.damage) == ((11, 10), "north", 0)
    assert ship(state, "B1").cell == (11, 11) and ship(state, "B1").damage == 0
    r2 = ship(state, "R2")  # first square (6, 5), turns north, the rock at (6, 6): 1 damage
    assert (r2.cell, r2.damage) == ((6, 5), 1)
    # Two turning ships meeting on their second square: both stay, neither is hurt.
    state = sea({"R1": (10, 10, "east", 0), "B1": (12, 12, "west", 0)})
    play(state, {1: ("left", "right")}, {1: ("left", "right")})  # both into (11, 11)
    assert (ship(state, "R1").cell, ship(state, "R1").damage) == ((11, 10), 0)
    assert (ship(state, "B1").cell, ship(state, "B1").damage) == ((11, 12), 0)


def test_a_ship_blocked_by_a_rock_blocks_the_ship_behind_it():
    state = sea({"R1": (10, 10, "east", 0), "R2": (9, 10, "east", 0)}, rocks="11 10")
    play(state, {1: ("forward", "right"), 2: ("forward", "right")})
    assert ship(state, "R1").cell == (10, 10) and ship(state, "R1").damage == 2  # rock + ram
    assert ship(state, "R2").cell == (9, 10) and ship(state, "R2").damage == 1
    assert len({s.cell for s in state.ships if s.afloat}) == 6  # never two on one square


def test_cannon_range_three_first_ship_only_friends_included():
    # R1 faces north: its left is west. B1 at 3 squares west, B2 behind it at 2 more.
    state = sea({"R1": (10, 10, "north", 0), "B1": (7, 10, "east", 0),
                 "B2": (6, 10, "east", 0), "R2": (10, 14, "east", 0), "R3": (10, 18, "east", 0)})
    play(state, {1: ("stay", "left"), 2: ("stay", "right"), 3: ("stay", "left")})
    assert ship(state, "B1").damage == 2 and ship(state, "B2").damage == 0
    # R2 faces east: its right is south, 4 squares to R1: out of range. R3's left is north.
    assert ship(state, "R1").damage == 0
    state = sea({"R1": (10, 10, "north", 0), "R2": (10, 12, "east", 0)})
    play(state, {2: ("stay", "right")})  # R2 fires south at its own R1, two squares away
    assert ship(state, "R1").damage == 2


def test_rocks_stop_cannonballs():
    state = sea({"R1": (10, 10, "north", 0), "B1": (8, 10, "north", 0)}, rocks="9 10")
    play(state, {1: ("stay", "left")})
    assert ship(state, "B1").damage == 0


def test_shots_are_simultaneous_and_a_ship_sinks_at_ten_damage():
    state = sea({"R1": (10, 10, "north", 8), "B1": (8, 10, "south", 8)})
    # R1's left is west (B1); B1 faces south, its left is east (R1): both fire, both sink.
    play(state, {1: ("stay", "left")}, {1: ("stay", "left")})
    assert not ship(state, "R1").afloat and not ship(state, "B1").afloat
    assert sorted(state.turns[-1].sunk) == [0, 3]
    assert state.ship_at((10, 10)) is None  # a sunk ship leaves the sea


def test_a_ship_sunk_while_sailing_does_not_fire():
    state = sea({"R1": (1, 10, "west", 9), "B1": (1, 12, "north", 0)})
    # R1 sails into the border (its 10th damage); its right (north) would have hit B1.
    play(state, {1: ("forward", "right")})
    assert not ship(state, "R1").afloat and ship(state, "B1").damage == 0
    assert [shot.ship for shot in state.turns[-1].shots if shot.ship == 0] == []


def test_sunk_ships_take_no_order_and_their_labels_leave_them_out():
    state = sea({"R2": None})
    legal = legal_moves(SPEC, state, 0)
    assert len(legal) == 64
    assert all(rules.digits(m.action)[1] == NO_ORDER for m in legal)
    assert all("ship 2" not in m.label for m in legal)
    assert legal[0].label == "ship 1: left, shoot left; ship 3: left, shoot left"
    with pytest.raises(IllegalMove):
        resolve(SPEC, state, 0, Text(text="ship 1: stay, shoot left; ship 2: stay, shoot left; "
                                          "ship 3: stay, shoot left"))


def test_free_text_orders_in_any_ship_order_and_wording():
    state = sea({})
    move = resolve(SPEC, state, 1, Text(
        text="Final answer: ship 3: don't move then shoot right, ship 1: move left then shoot "
             "left and ship 2: forward, fire right", source="llm"))
    assert move.label == ("ship 1: left, shoot left; ship 2: forward, shoot right; "
                          "ship 3: stay, shoot right")
    for bad in ("ship 1: forward, shoot left; ship 2: forward, shoot left",  # ship 3 missing
                "ship 1: forward, shoot left; ship 1: stay, shoot left; ship 2: forward, "
                "shoot left"):  # ship 1 twice
        with pytest.raises(IllegalMove) as caught:
            resolve(SPEC, state, 0, Text(text=bad))
        assert "one order for each of ship 1, ship 2, ship 3: 512 combinations" in str(caught.value)


def test_a_fleet_sunk_loses_and_both_sunk_in_one_turn_is_a_draw():
    state = sea({"R1": (10, 10, "north", 8), "R2": None, "R3": None, "B2": None, "B3": None,
                 "B1": (8, 10, "north", 0)})
    play(state, {1: ("stay", "left")}, {1: ("stay", "left")})  # B1 fires west: nothing
    assert not state.is_terminal() and ship(state, "B1").damage == 2
    state = sea({"R1": (10, 10, "north", 0), "R2": None, "R3": None, "B2": None, "B3": None,
                 "B1": (8, 10, "north", 8)})
    play(state, {1: ("stay", "left")})
    assert state.is_terminal() and state.returns() == [1.0, -1.0] and state.winner() == 0
    assert state.ended_by() == "fleet sunk"
    state = sea({"R1": (10, 10, "north", 8), "R2": None, "R3": None, "B2": None, "B3": None,
                 "B1": (8, 10, "south", 8)})
    play(state, {1: ("stay", "left")}, {1: ("stay", "left")})
    assert state.is_terminal() and state.returns() == [0.0, 0.0] and state.winner() is None


def test_the_turn_cap_counts_ships_afloat_then_hull_then_draws():
    state = sea({"R3": None}, max_turns=1)
    play(state)
    assert state.is_terminal() and state.ended_by() == "turn cap"
    assert state.returns() == [-1.0, 1.0]  # Blue has three ships afloat, Red two
    state = sea({"R1": (2, 2, "north", 3), "B1": (21, 21, "south", 1)}, max_turns=1)
    play(state)
    assert state.returns() == [-1.0, 1.0]  # three each; hull 27 against 29
    state = sea({"R1": (2, 2, "north", 3), "B1": (21, 21, "south", 1), "B2": (21, 19, "south", 2)},
                max_turns=1)
    play(state)
    assert state.returns() == [0.0, 0.0] and state.winner() is None  # 27 each


def test_the_sea_comes_from_the_seed_and_the_match_seed_sets_it():
    one, again, other = (SPEC.load({**SPEC.params(), "layout_seed": s}) for s in (5, 5, 6))
    assert (one.start, one.rocks) == (again.start, again.rocks)
    assert (one.start, one.rocks) != (other.start, other.rocks)
    assert len(one.rocks) == 14 and not any(rules.is_border(r) for r in one.rocks)
    seats = [SeatRecord("random", "random", "random")] * 2
    first, second = Match("sea_battle", seats, seed=41), Match("sea_battle", seats, seed=41)
    assert first.record.params["layout_seed"] == 41
    assert str(first.state) == str(second.state)


def test_models_are_shown_every_inner_rock_and_not_a_border_sample():
    state = SPEC.load({**SPEC.params(), "layout_seed": 9}).new_initial_state()
    view = text_view("sea_battle", state, 1)
    rocks = state.get_game().rocks
    line = next(line for line in view.splitlines() if line.startswith("Rocks:"))
    assert f"the {len(rocks)} inner rocks at" in line
    for x, y in rocks:
        assert f"({x}, {y})" in line
    assert "(0, 0)" not in line  # the border is described, not listed


def test_bad_parameters_are_refused_with_what_is_allowed():
    for params, message in (({"max_turns": 0}, "max_turns must be between 1 and"),
                            ({"inner_rocks": 500}, "inner_rocks must be between 0 and"),
                            ({"rocks": "0 5"}, "is not an inner square"),
                            ({"rocks": "3,5"}, "pairs separated by ';'")):
        with pytest.raises(ValueError, match=message):
            SPEC.load({**SPEC.params(), **params})
    state = sea({})
    before = str(state)
    with pytest.raises(ValueError, match="two ships afloat on one square"):
        state.set_position({"R1": (21, 21, "north", 0)})
    assert str(state) == before
