"""Sea Battle's bot: it keeps off rocks, fires on an enemy in range and beats the do-nothing
and random fleets. Hand-built positions are on an open sea (no inner rocks unless laid)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from agents.bots.sea_battle import SeaBattleBot
from games.actions import legal_moves
from games.gamebench import sea_battle_rules as rules
from games.registry import get
from games.seat_view import SeatView

SPEC = get("sea_battle")
FAR = {"R1": (2, 2, "north", 0), "R2": (2, 4, "north", 0), "R3": (2, 6, "north", 0),
       "B1": (21, 21, "south", 0), "B2": (21, 19, "south", 0), "B3": (21, 17, "south", 0)}
"""Every ship parked out of everyone's reach; a test moves the ships it needs."""
STAY_LEFT = rules.joint([3 * 2 + 0] * rules.SHIPS)


def sea(ships: dict, *, rocks: str = "") -> rules.SeaBattleState:
    params = {**SPEC.params(), "layout_seed": 1, "rocks": rocks}
    if not rocks:
        params["inner_rocks"] = 0
    state = SPEC.load(params).new_initial_state()
    state.set_position({**FAR, **ships})
    return state


def view(state: pyspiel.State, seat: int) -> SeatView:
    return SeatView(SPEC, seat, "", tuple(legal_moves(SPEC, state, seat)), (), state.clone())


def bot(seed: int = 0) -> SeaBattleBot:
    return SeaBattleBot(SPEC, SPEC.params(), np.random.default_rng(seed))


def ship(state: rules.SeaBattleState, name: str) -> rules.Ship:
    return state.fleet("RB".index(name[0]))[int(name[1]) - 1]


def red_turn(state: rules.SeaBattleState, seed: int = 0) -> str:
    """Red's bot orders one turn while Blue stays and fires left; Red's label."""
    decision = bot(seed).act(view(state, 0))
    state.apply_actions([decision.proposal.action, STAY_LEFT])
    return decision.raw


@pytest.mark.parametrize("seed", range(3))
def test_a_shot_never_buys_a_knock_on_a_rock(seed):
    """Left and right would each take Red 1 into a rock and leave Blue 1 in its broadside;
    forward and stay are clear. The bot keeps off the rocks, even for a shot."""
    state = sea({"R1": (10, 10, "north", 0), "B1": (10, 13, "north", 0)},
                rocks="9 11; 11 11")
    label = red_turn(state, seed)
    assert label.startswith(("ship 1: forward", "ship 1: stay")), label
    assert ship(state, "R1").damage == 0


def test_turns_away_from_the_rock_it_is_heading_for():
    """Red 1 sails east along a row of rocks it would hit in two squares: never a knock."""
    state = sea({"R1": (10, 10, "east", 0), "B1": (16, 14, "south", 0)},
                rocks="12 10; 12 9; 12 11; 13 10")
    for turn in range(6):
        red_turn(state, turn)
    assert ship(state, "R1").damage == 0


@pytest.mark.parametrize(("heading", "side"), [("north", "right"), ("south", "left"),
                                              ("east", "left"), ("west", "right")])
def test_fires_on_an_enemy_in_range(heading, side):
    """Blue 1 lies two squares off Red 1's side, out of Red 1's reach of its own broadside:
    the bot fires that side and hits it."""
    dx, dy = {"north": (2, 0), "south": (2, 0), "east": (0, 2), "west": (0, 2)}[heading]
    blue_heading = "east" if heading in ("north", "south") else "north"
    state = sea({"R1": (10, 10, heading, 0), "B1": (10 + dx, 10 + dy, blue_heading, 0)})
    label = red_turn(state)
    assert label.split(";")[0].endswith(f"shoot {side}"), label
    assert ship(state, "B1").damage == rules.CANNON
    assert ship(state, "R1").damage == 0


def test_sea_battle_hides_nothing_so_the_bot_may_read_the_whole_state():
    """The module's note holds: the game is public, both seats see the same sea."""
    game = SPEC.load()
    assert game.get_type().information == pyspiel.GameType.Information.PERFECT_INFORMATION
    state = game.new_initial_state()
    for turn in range(3):
        state.apply_actions([rules.joint([1 * 2] * 3), rules.joint([turn % 8] * 3)])
        assert state.observation_string(0) == state.observation_string(1)


def _stay(state: rules.SeaBattleState, seat: int, rng: np.random.Generator) -> int:
    """agents.trivial's ``pass``: every ship afloat stays and fires left."""
    stay_left = 3 * 2 + 0
    return rules.joint([stay_left if ship.afloat else rules.NO_ORDER
                        for ship in state.fleet(seat)])


def _random(state: rules.SeaBattleState, seat: int, rng: np.random.Generator) -> int:
    """agents.classic's ``random``: any legal turn, uniformly."""
    legal = state.legal_actions(seat)
    return legal[int(rng.integers(len(legal)))]


OPPONENTS = {"pass": _stay, "random": _random}


def _match(opponent: str, seed: int, bot_seat: int) -> float:
    """One whole game (a 60-turn cap), the bot in ``bot_seat``: its score (1, 1/2, 0)."""
    params = {**SPEC.params(), "layout_seed": seed, "max_turns": 60}
    state = SPEC.load(params).new_initial_state()
    player = SeaBattleBot(SPEC, params, np.random.default_rng(seed))
    other, rng = OPPONENTS[opponent], np.random.default_rng(seed + 100)
    while not state.is_terminal():
        mine = player.act(SeatView(SPEC, bot_seat, "", (), (), state.clone()))
        actions = [mine.proposal.action, other(state, 1 - bot_seat, rng)]
        state.apply_actions(actions if bot_seat == 0 else actions[::-1])
    me, them = state.returns()[bot_seat], state.returns()[1 - bot_seat]
    return 1.0 if me > them else 0.5 if me == them else 0.0


@pytest.mark.parametrize("opponent", ["pass", "random"])
def test_beats_the_do_nothing_and_the_random_fleet(opponent):
    """A fleet that never moves beat random fleets, which wreck themselves on rocks; the bot
    sinks both, in either seat. A random fleet in the bot's place loses most of these."""
    scores = [_match(opponent, seed, seed % 2) for seed in range(12)]
    assert sum(scores) >= 10, scores
