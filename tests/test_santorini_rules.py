"""Santorini's rules: OpenSpiel's own random-simulation checks, then hand-built positions."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest

from games.actions import IllegalMove, Text, legal_moves, resolve
from games.gamebench import santorini
from games.gamebench.santorini import square_of
from games.registry import get
from renderers import text_view

SPEC = get("santorini")
GAME = SPEC.load()


def position(levels: str, workers: dict[str, str], to_move: int = 0):
    """A position from five rows of levels (rank 5 first; 4 = dome)."""
    rows = [[int(c) for c in row.split()] for row in levels.strip().splitlines()]
    return GAME.new_initial_state({"levels": rows, "workers": workers, "to_move": to_move})


def labels(state) -> set[str]:
    return {m.label for m in legal_moves(SPEC, state, state.current_player())}


def test_openspiel_random_simulation_checks():
    pyspiel.random_sim_test(GAME, num_sims=30, serialize=True, verbose=False)


def test_games_end_within_the_declared_length_and_clones_are_independent():
    for seed in range(30):
        rng = np.random.default_rng(seed)
        state = GAME.new_initial_state()
        while not state.is_terminal():
            copy = state.clone()
            state.apply_action(int(rng.choice(state.legal_actions())))
            assert copy.history() != state.history()
        assert len(state.history()) <= GAME.max_game_length()
        assert sorted(state.returns()) == [-1.0, 1.0]
        assert pickle.loads(pickle.dumps(state)).returns() == state.returns()


def test_placement_blue_places_both_workers_then_orange():
    state = GAME.new_initial_state()
    order = []
    for square in ("c3", "c4", "b2", "d2"):
        order.append(state.current_player())
        state.apply_action(resolve(SPEC, state, state.current_player(),
                                   Text(text=f"place on {square}")).action)
    assert order == [0, 0, 1, 1]
    assert [santorini.square_name(s) for s in state.workers] == ["c3", "c4", "b2", "d2"]
    assert state.current_player() == 0 and not state.placing
    assert "A: c3→b3, build c3" in labels(state)


FLAT = """
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
"""


def test_either_worker_may_move_every_turn():
    state = position(FLAT, {"A": "a1", "B": "e5", "X": "a5", "Y": "e1"})
    movers = {label.split(":")[0] for label in labels(state)}
    assert movers == {"A", "B"}
    state.apply_action(resolve(SPEC, state, 0, Text(text="A: a1->b2, build a1")).action)
    state.apply_action(resolve(SPEC, state, 1, Text(text="X: a5->b5, build a5")).action)
    assert {"A", "B"} == {label.split(":")[0] for label in labels(state)}  # A again is fine
    state.apply_action(resolve(SPEC, state, 0, Text(text="A: b2->c3, build b2")).action)
    assert state.levels[square_of("b2")] == 1 and state.levels[square_of("a1")] == 1


CLIMB = """
0 0 0 0 0
0 0 0 0 0
0 2 3 1 0
0 1 0 0 0
0 0 0 0 0
"""


def test_moving_up_onto_level_3_wins_at_once():
    state = position(CLIMB, {"A": "b3", "B": "e1", "X": "a5", "Y": "e5"})
    assert "A: b3→c3, wins" in labels(state)
    assert not any(label.startswith("A: b3→c3, build") for label in labels(state))
    move = resolve(SPEC, state, 0, Text(text="Final answer: A: b3 -> c3, wins"))
    state.apply_action(move.action)
    assert state.is_terminal() and state.returns() == [1.0, -1.0]
    assert state.levels[square_of("c3")] == 3  # no build followed


def test_a_worker_climbs_at_most_one_level_and_steps_down_any_number():
    state = position(CLIMB, {"A": "b2", "B": "e1", "X": "a5", "Y": "e5"})  # A on level 1
    targets = {label.split(",")[0] for label in labels(state) if label.startswith("A")}
    assert "A: b2→b3" in targets  # level 1 to 2
    assert "A: b2→c3" not in targets  # level 1 to 3 is two up
    with pytest.raises(IllegalMove):
        resolve(SPEC, state, 0, Text(text="A: b2->c3, build d4"))
    high = position(CLIMB, {"A": "c3", "B": "e1", "X": "a5", "Y": "e5"})  # A on level 3
    down = {label.split(",")[0] for label in labels(high) if label.startswith("A")}
    assert {"A: c3→c2", "A: c3→d3", "A: c3→b3"} <= down  # 3 to 0, 3 to 1, 3 to 2
    assert not any("wins" in label for label in labels(high))  # level 3 to 2 is no win


DOMES = """
0 0 0 0 0
0 0 0 0 0
0 4 3 0 0
0 2 2 0 0
0 0 0 0 0
"""


def test_domes_block_moves_and_building_on_level_3_makes_one():
    state = position(DOMES, {"A": "b2", "B": "e1", "X": "a5", "Y": "e5"})  # A on level 2
    options = labels(state)
    assert not any("→b3" in label for label in options)  # a dome: no moving there
    assert not any(label.endswith("build b3") for label in options)  # nor building on it
    assert "A: b2→c2, build c3" in options  # building on level 3 ...
    state.apply_action(resolve(SPEC, state, 0, Text(text="A: b2->c2, build c3")).action)
    assert state.levels[square_of("c3")] == santorini.DOME  # ... puts a dome on it
    assert "3  0.  D.  D.  0.  0." in text_view("santorini", state, 1)
    state.apply_action(resolve(SPEC, state, 1, Text(text="X: a5->a4, build a5")).action)
    assert not any("→c3" in label for label in labels(state))  # the win is gone


BOXED = """
0 0 0 0 0
0 0 0 0 0
0 0 0 0 0
4 4 0 0 3
0 2 0 0 2
"""
WORKERS = {"A": "a1", "B": "e1", "X": "d1", "Y": "c3"}


def test_a_player_who_cannot_move_loses():
    # Blue's A in the corner: domes north and north-east, level 2 east (two up). Blue's B
    # on level 2 at e1 could climb onto e2 (level 3) and win, or step to d2.
    assert "B: e1→e2, wins" in labels(position(BOXED, WORKERS, to_move=0))
    state = position(BOXED, WORKERS, to_move=1)
    # Orange blocks d2 with Y and domes e2: Blue has no move left, and loses at once.
    state.apply_action(resolve(SPEC, state, 1, Text(text="Y: c3->d2, build e2")).action)
    assert state.levels[square_of("e2")] == santorini.DOME
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0]
    assert legal_moves(SPEC, state, 0) == []
    # The same position set up directly with Blue to move is over before it starts.
    walled = BOXED.replace("4 4 0 0 3", "4 4 0 0 4")
    stuck = position(walled, {**WORKERS, "Y": "d2"}, to_move=0)
    assert stuck.is_terminal() and stuck.returns() == [-1.0, 1.0]
    assert "Game over: you lost" in text_view("santorini", stuck, 0)


def test_bad_positions_are_refused():
    with pytest.raises(ValueError, match="four different squares"):
        position(FLAT, {"A": "a1", "B": "a1", "X": "a5", "Y": "e5"})
    with pytest.raises(ValueError, match="all four"):
        position(FLAT, {"A": "a1", "B": "b1"})
    with pytest.raises(ValueError, match="not a square"):
        position(FLAT, {"A": "a1", "B": "f9", "X": "a5", "Y": "e5"})


def test_observation_tensor_marks_levels_and_workers():
    state = position(DOMES, {"A": "b2", "B": "e1", "X": "a5", "Y": "e5"})
    planes = np.array(state.observation_tensor(0)).reshape(8, 5, 5)
    assert planes[4, 2, 1] == 1  # the dome on b3 (rank index 2, file index 1)
    assert planes[2, 1, 1] == 1  # level 2 under A on b2
    assert planes[5, 1, 1] == 1 and planes[6, 4, 0] == 1  # A on b2, X on a5
    assert planes[:5].sum() == 25  # exactly one level per square


def test_mcts_plays_santorini_through_the_python_search():
    """OpenSpiel's C++ MCTS crashes the process on Python games; ours must not."""
    from agents.specs import make_agent, parse_spec
    from sessions.match import Match
    from sessions.record import SeatRecord

    seats = [SeatRecord(kind="mcts", spec="mcts:60:0s", entity="mcts:60:0s"),
             SeatRecord(kind="mcts", spec="mcts:20:1s", entity="mcts:20:1s")]
    match = Match("santorini", seats, seed=3)
    agents = [make_agent(parse_spec(s.spec), SPEC, match.record.params, seed=i)
              for i, s in enumerate(seats)]
    for _ in range(12):
        seat = match.to_move()[0]
        decision = agents[seat].act(match.view(seat))
        match.submit(seat, decision.proposal)
        assert decision.meta["simulations"] <= (60 if seat == 0 else 20)  # never past it
    assert len(match.record.moves) == 12


def test_mcts_finds_the_winning_climb():
    from agents.base import SeatView
    from agents.search import MCTSAgent

    state = position(CLIMB, {"A": "b3", "B": "e1", "X": "a5", "Y": "e5"})
    agent = MCTSAgent(GAME, seed=1, simulations=200, seconds=0)
    legal = tuple(legal_moves(SPEC, state, 0))
    decision = agent.act(SeatView(SPEC, 0, "", legal, (), state))
    assert decision.raw == "A: b3→c3, wins"


@pytest.mark.parametrize("text", [
    "A: b2->c3, build d4", "A: b2→c3, build d4", "a: B2 -> C3, BUILD D4", "b2 c3 d4",
    "b2-c3 d4", "A b2 to c3 and build on d4",
    "I will move A from b2 to c3 and then build d4.", "Final answer: A: b2->c3, build d4",
    '{"move": "b2->c3, build d4"}',
])
def test_typed_and_written_turns_are_read(text):
    state = position(FLAT, {"A": "b2", "B": "e1", "X": "a5", "Y": "e5"})
    assert resolve(SPEC, state, 0, Text(text=text, source="llm")).label == "A: b2→c3, build d4"


def test_a_turn_that_names_two_moves_or_no_build_is_refused():
    from games.actions import AmbiguousMove, MoveError

    state = position(FLAT, {"A": "b2", "B": "e1", "X": "a5", "Y": "e5"})
    with pytest.raises(AmbiguousMove):
        resolve(SPEC, state, 0, Text(text="b2->c3 build d4 or b2->c2 build d3"))
    with pytest.raises(MoveError, match="Expected format"):
        resolve(SPEC, state, 0, Text(text="b2->c3"))  # a move must build unless it wins
