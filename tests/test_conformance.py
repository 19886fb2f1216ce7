"""The conformance suite: the same checks on every registered game.

A game is done when it passes this suite. The skip list must stay empty.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.search import consistent_worlds
from games import registry
from games.actions import (
    ActionId,
    AmbiguousMove,
    Click,
    IllegalMove,
    MoveError,
    NeedsMore,
    Text,
    legal_moves,
    resolve,
)
from renderers import text_view
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord, replay
from tests.conftest import GAMES, acting_players, fixed_params, random_states

SEEDS = [0, 1, 2]
SEAT_ORDERS = ["text-first", "click-first"]
VARIED = 12


def _seats(n: int) -> list[SeatRecord]:
    return [SeatRecord(kind="random", spec="random", entity="random") for _ in range(n)]


def _snapshot(match: Match) -> tuple[str, str, int]:
    state = match.state
    return (str(state), repr(state.history()), len(match.record.moves))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("order", SEAT_ORDERS)
def test_random_playout_through_the_adapter_ends(game_spec, seed, order):
    """Play to the end by submitting labels (text) for one seat and click paths for the other."""
    players = game_spec.load(fixed_params(game_spec)).num_players()
    match = Match(game_spec.id, _seats(players), seed=seed, params=fixed_params(game_spec))
    rng = np.random.default_rng(seed)
    steps = 0
    while not match.over:
        for seat in match.to_move():
            move = match.legal(seat)[int(rng.integers(len(match.legal(seat))))]
            by_text = (seat % 2 == 0) == (order == "text-first")
            proposal = Text(text=move.label) if by_text else Click(path=move.path)
            assert match.submit(seat, proposal).action == move.action
        steps += 1
        assert steps < 2000, "playout did not end"
    assert match.record.outcome == "normal"
    assert match.state.is_terminal()
    assert len(match.record.scores) == players
    assert all(0.0 <= s <= 1.0 for s in match.record.scores)


@pytest.mark.parametrize("seed", SEEDS)
def test_every_legal_label_round_trips(game_spec, seed):
    for state in random_states(game_spec, seed):
        for player in acting_players(state):
            moves = legal_moves(game_spec, state, player)
            labels = [m.label for m in moves]
            assert len(set(labels)) == len(labels), f"duplicate labels: {labels}"
            assert len({m.key for m in moves}) == len(moves)
            assert len({m.path for m in moves}) == len(moves)
            # every move by its label, id and click path; the wrapped and shouted forms on
            # an even spread of at most VARIED moves per position (they exercise the same
            # parsing for every move, and wide games have 100-200 moves in each position)
            step = max(1, -(-len(moves) // VARIED))
            for index, move in enumerate(moves):
                proposals = [Text(text=move.label), ActionId(action=move.action),
                             Click(path=move.path)]
                if index % step == 0:
                    proposals += [Text(text=move.label, source="llm"),
                                  Text(text=move.label.upper()), Text(text=f"<{move.label}>"),
                                  Text(text=f"Final answer: {move.label}", source="llm")]
                for proposal in proposals:
                    assert resolve(game_spec, state, player, proposal).action == move.action, \
                        (proposal, move)
                aliases = game_spec.grammar.aliases
                for alias in aliases(state, player, move.action) if aliases else ():
                    assert resolve(game_spec, state, player, Text(text=alias)).action \
                        == move.action


BAD_TEXT = ["", "   ", "\n\t", "banana", "x" * 20_000, "🎲🎲🎲", "{}", "null",
            "Final answer:", "<>", "move 99999", "\x00\x01\x02"]


@pytest.mark.parametrize("seed", SEEDS[:2])
def test_bad_input_is_rejected_and_changes_nothing(game_spec, seed):
    players = game_spec.load(fixed_params(game_spec)).num_players()
    match = Match(game_spec.id, _seats(players), seed=seed, params=fixed_params(game_spec))
    rng = np.random.default_rng(seed)
    checked = 0
    while not match.over and checked < 6:
        for seat in match.to_move():
            legal = match.legal(seat)
            legal_ids = {m.action for m in legal}
            illegal_ids = [a for a in range(-3, match.game.num_distinct_actions() + 3)
                           if a not in legal_ids][:5]
            before = _snapshot(match)
            for text in BAD_TEXT:
                for source in ("typed", "llm"):
                    with pytest.raises(MoveError) as caught:
                        match.submit(seat, Text(text=text, source=source))
                    assert "Legal moves:" in str(caught.value)
                    assert game_spec.grammar.hint in str(caught.value)
            for action in illegal_ids:
                with pytest.raises(IllegalMove):
                    match.submit(seat, ActionId(action=action))
            with pytest.raises(MoveError):
                match.submit(seat, Click(path=("nowhere",)))
            plain = [m for m in legal if not m.says]  # words may name any move
            if len(plain) >= 2:
                both = f"Final answer: {plain[0].label} or {plain[-1].label}"
                with pytest.raises(AmbiguousMove):
                    match.submit(seat, Text(text=both, source="llm"))
            assert _snapshot(match) == before
            rejected = match.attempts(seat)
            assert len(rejected) >= len(BAD_TEXT) * 2 + len(illegal_ids)
            move = legal[int(rng.integers(len(legal)))]
            sequential_node = not match.state.is_simultaneous_node()
            match.submit(seat, ActionId(action=move.action))
            if sequential_node:
                mine = [m for m in match.record.moves if m.seat == seat][-1]
                assert len(mine.rejected) == len(rejected)  # stored with the move played
        checked += 1


def test_click_paths_with_several_steps_ask_for_more(game_spec):
    for state in random_states(game_spec, 3)[:30]:
        for player in acting_players(state):
            for move in legal_moves(game_spec, state, player):
                if len(move.path) > 1:
                    with pytest.raises(NeedsMore) as caught:
                        resolve(game_spec, state, player, Click(path=move.path[:1]))
                    assert move.path[1] in caught.value.options


HIDDEN_INFO_GAMES = [
    spec.id for spec in GAMES
    if spec.taxonomy.information == "incomplete"
    and spec.load(fixed_params(spec)).get_type().provides_information_state_string
]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game_id", HIDDEN_INFO_GAMES)
def test_views_hide_what_the_seat_cannot_know(game_id, seed):
    """A seat's view is the same in every world it cannot tell apart from the real one.

    Games without information states (negotiation) have their own test in test_views.py.
    """
    spec = registry.get(game_id)
    checked = 0
    for state in random_states(spec, seed)[:-1]:
        for seat in acting_players(state):
            worlds, _ = consistent_worlds(state, seat)
            views = {text_view(spec.id, world, seat) for world in worlds}
            assert len(views) == 1, views
            checked += len(worlds) > 1
    assert checked, "no state with hidden information was visited"


@pytest.mark.parametrize("seed", SEEDS)
def test_seeded_runs_are_deterministic(game_spec, seed):
    from agents.specs import parse_spec
    from sessions.tournament import play_one

    seats = [parse_spec("random")] * game_spec.load(fixed_params(game_spec)).num_players()
    first = play_one(game_spec.id, seats, seed=seed, params=fixed_params(game_spec, seed))
    second = play_one(game_spec.id, seats, seed=seed, params=fixed_params(game_spec, seed))
    assert [(m.seat, m.action) for m in first.moves] == [(m.seat, m.action) for m in second.moves]
    assert first.returns == second.returns


@pytest.mark.parametrize("seed", SEEDS)
def test_record_replays_to_the_same_final_state(game_spec, seed):
    from agents.specs import parse_spec
    from sessions.tournament import play_one

    seats = [parse_spec("random")] * game_spec.load(fixed_params(game_spec)).num_players()
    record = play_one(game_spec.id, seats, seed=seed)
    restored = MatchRecord.from_json(record.to_json())
    assert restored == record
    state = replay(restored)
    assert state.is_terminal()
    assert list(state.returns()) == record.returns
    assert repr(state.history()) == repr(replay(record).history())
