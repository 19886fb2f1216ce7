"""Strategy bots of the board games where search with random play-outs plays badly (Hive,
Santorini): what a player would notice in a built position (a winning move is taken, a move
that hands the opponent the win is not), moves that pass the one adapter, and games won
against the trivial plans and random play."""

from __future__ import annotations

import pyspiel
import pytest

from agents.bots import make_bot
from agents.trivial import FirstMove
from games import registry
from games.actions import ActionId, legal_moves, resolve
from games.gamebench import hive as hive_rules
from games.seat_view import SeatView
from sessions.engine import play_match
from sessions.match import Match
from sessions.record import SeatRecord


def _view(game_id: str, state: pyspiel.State) -> SeatView:
    spec = registry.get(game_id)
    seat = state.current_player()
    return SeatView(spec, seat, "", tuple(legal_moves(spec, state, seat)), (), state.clone())


def _decide(game_id: str, state: pyspiel.State, seed: int = 0) -> int:
    """The bot's move in ``state`` for the seat to move, checked by the adapter."""
    spec = registry.get(game_id)
    params: dict[str, object] = dict(spec.params())
    decision = make_bot(spec, params, seed=seed).act(_view(game_id, state))
    assert isinstance(decision.proposal, ActionId)
    assert decision.reasoning
    return resolve(spec, state, state.current_player(), decision.proposal).action


def _winner_after(state: pyspiel.State, action: int) -> int | None:
    child = state.clone()
    child.apply_action(action)
    if not child.is_terminal():
        return None
    returns = child.returns()
    return 0 if returns[0] > returns[1] else 1 if returns[1] > returns[0] else -1


# --- Santorini -----------------------------------------------------------------------------

def _santorini(levels: list[list[int]], workers: dict[str, str], to_move: int = 0
               ) -> pyspiel.State:
    return registry.get("santorini").load().new_initial_state(
        {"levels": levels, "workers": workers, "to_move": to_move})


def test_santorini_climbs_onto_level_3_when_it_can():
    state = _santorini([[0, 0, 0, 0, 0],
                        [0, 0, 0, 0, 0],
                        [0, 0, 2, 3, 0],
                        [0, 0, 0, 0, 0],
                        [0, 0, 0, 0, 0]], {"A": "c3", "B": "a1", "X": "e5", "Y": "e1"})
    assert _winner_after(state, _decide("santorini", state)) == 0


@pytest.mark.parametrize("seed", range(3))
def test_santorini_domes_or_blocks_the_opponents_winning_climb(seed):
    """Orange's X stands on level 2 beside a level-3 square: Blue must stop the climb
    (a dome on it, or a worker on it); every other turn loses at once."""
    state = _santorini([[0, 0, 0, 0, 0],
                        [0, 0, 0, 0, 0],
                        [0, 0, 1, 0, 0],
                        [0, 2, 3, 0, 0],
                        [0, 0, 0, 0, 0]], {"A": "c3", "B": "e5", "X": "b2", "Y": "e1"})
    child = state.clone()
    child.apply_action(_decide("santorini", state, seed))
    assert not any(_winner_after(child, a) == 1 for a in child.legal_actions())


# --- Hive ----------------------------------------------------------------------------------

# Positions from a seeded random game (OpenSpiel action ids, default parameters).
_OPENING = [1021, 3955, 1606, 4845, 57, 3085, 1803, 2917, 452, 3241, 1826, 3306, 500, 4410,
            495, 3278, 1179, 3641]
"""White to move can surround Black's queen (3 of its 66 distinct moves do)."""
_MIDDLE = [*_OPENING, 241, 2948, 1803]
"""Black to move: 6 of its 66 distinct moves let White surround Black's queen at once."""
_LATER = [*_MIDDLE, 4270, 1431, 3595]
"""Black to move: 4 of its 76 distinct moves let White surround Black's queen at once."""


def _hive(history: list[int]) -> pyspiel.State:
    state = registry.get("hive").load().new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def test_hive_surrounds_the_queen_when_one_move_does():
    state = _hive(_OPENING)
    assert _winner_after(state, _decide("hive", state)) == 0


@pytest.mark.parametrize("history", [_MIDDLE, _LATER])
def test_hive_never_plays_a_move_that_lets_the_opponent_surround_its_queen(history):
    state = _hive(history)
    me = state.current_player()
    losing = set()
    for choice in hive_rules.choices(state).distinct():
        child = state.clone()
        child.apply_action(choice.action)
        if not child.is_terminal() and any(_winner_after(child, a) == 1 - me
                                           for a in child.legal_actions()):
            losing.add(choice.action)
    chosen = _decide("hive", state)
    assert hive_rules.choices(state).by_action[chosen].first
    assert chosen not in losing


# --- whole games -----------------------------------------------------------------------------

@pytest.mark.parametrize("game_id", ["santorini", "hive"])
def test_the_bot_beats_the_first_legal_move_and_random(game_id):
    spec = registry.get(game_id)
    for seed, (bot_seat, other) in enumerate([(1, "first"), (0, "random")]):
        names = ["bot", other] if bot_seat == 0 else [other, "bot"]
        match = Match(game_id, [SeatRecord(kind=n, spec=n, entity=n) for n in names],
                      seed=seed)
        agents = [FirstMove() if name == "first" else
                  make_bot(spec, match.record.params, seed=seed) if name == "bot" else
                  _random(spec, match, seed) for name in names]
        record = play_match(match, agents)
        assert record.scores is not None and record.scores[bot_seat] == 1.0, (seed, names)


def _random(spec: registry.GameSpec, match: Match, seed: int):
    from agents.specs import make_agent
    return make_agent("random", spec, match.record.params, seed=seed)
