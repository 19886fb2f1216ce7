"""The legal-action adapter on the inputs people and models really write."""

from __future__ import annotations

import pytest

from games import registry
from games.actions import (
    MAX_TYPED_CHARS,
    ActionId,
    AmbiguousMove,
    Click,
    EmptyMove,
    IllegalMove,
    NeedsMore,
    Text,
    TooLongMove,
    UnparseableMove,
    resolve,
)


def _state(game_id: str, actions: list[int], params: dict | None = None):
    spec = registry.get(game_id)
    state = spec.load(spec.params(params)).new_initial_state()
    for action in actions:
        state.apply_action(action)
    return spec, state


def _llm(game_id: str, text: str, actions: list[int] | None = None) -> str:
    spec, state = _state(game_id, actions or [])
    return resolve(spec, state, state.current_player(), Text(text=text, source="llm")).label


@pytest.mark.parametrize("text", [
    "C2R2", "c2r2", " C2 R2 ", "c2, r2", "<C2R2>", "**C2R2**", "`C2R2`", "R2C2",
    "Final answer: C2R2", "final answer : <C2R2>.", "Action: <C2R2>",
    "I considered C1R1.\nThe centre is strongest.\nFinal answer: C2R2",
    '{"move": "C2R2"}', 'Sure! ```json\n{"reasoning": "centre", "move": "C2R2"}\n```',
    "<think>C1R1 or C3R3?</think>C2R2",
    "Thought: the corners C1R1 and C3R3 are weaker.\nI will take the centre, C2R2.",
])
def test_tolerant_reading_finds_the_move(text):
    assert _llm("tic_tac_toe", text) == "C2R2"


def test_the_last_stated_move_wins():
    assert _llm("tic_tac_toe", "Maybe C1R1.\nNo - C3R3 is better.") == "C3R3"
    assert _llm("tic_tac_toe", "Answer: C1R1\nFinal answer: C3R3") == "C3R3"


@pytest.mark.parametrize("text", [
    "Final answer: C1R1 or C3R3",
    "C1R1 C3R3",
    '{"move": "C1R1, C3R3"}',
])
def test_two_moves_in_the_answer_are_ambiguous(text):
    with pytest.raises(AmbiguousMove) as caught:
        _llm("tic_tac_toe", text)
    assert "C1R1" in str(caught.value) and "C3R3" in str(caught.value)


def test_an_answer_line_without_a_move_is_not_repaired_from_earlier_text():
    with pytest.raises(UnparseableMove) as caught:
        _llm("tic_tac_toe", "C1R1 looks good.\nFinal answer: the top left corner")
    assert caught.value.reason == "unparseable"


def test_an_occupied_cell_is_illegal_and_the_message_lists_the_legal_moves():
    spec, state = _state("tic_tac_toe", [4])
    with pytest.raises(IllegalMove) as caught:
        resolve(spec, state, 1, Text(text="C2R2"))
    message = str(caught.value)
    assert "'C2R2'" in message and "not legal" in message
    assert "C1R1" in message and "C2R2," not in message
    assert "C<column>R<row>" in message
    assert caught.value.reason == "illegal"


def test_empty_and_too_long_inputs_name_their_cause():
    spec, state = _state("tic_tac_toe", [])
    with pytest.raises(EmptyMove):
        resolve(spec, state, 0, Text(text="  \n "))
    with pytest.raises(TooLongMove) as caught:
        resolve(spec, state, 0, Text(text="C2R2 " * MAX_TYPED_CHARS))
    assert str(MAX_TYPED_CHARS) in str(caught.value)
    with pytest.raises(TooLongMove):
        resolve(spec, state, 0, Text(text="x" * 20_000, source="llm"))


def test_action_ids_are_checked_against_the_legal_set():
    # OpenSpiel's kuhn_poker accepts some ids it should refuse; the adapter refuses them.
    spec, state = _state("kuhn_poker", [0, 1])
    for bad in (2, 7, -1):
        with pytest.raises(IllegalMove):
            resolve(spec, state, 0, ActionId(action=bad))
    assert resolve(spec, state, 0, ActionId(action=1)).label == "bet"


@pytest.mark.parametrize("game_id,actions,text,label", [
    ("kuhn_poker", [0, 1], "I check.", "pass"),
    ("kuhn_poker", [0, 1, 1], "call", "bet"),
    ("kuhn_poker", [0, 1, 1], "FOLD", "pass"),
    ("connect_four", [], "column 4", "C4"),
    ("connect_four", [], "Final answer: <C4>", "C4"),
    ("breakthrough", [], "a7-a6", "a7->a6"),
    ("breakthrough", [], "A7 to A6", "a7->a6"),
    ("breakthrough", [], "<a7->a6>", "a7->a6"),
    ("nim", [], "<pile:4, take:2>", "pile 4 take 2"),
    ("nim", [], "take 2 from pile 4", "pile 4 take 2"),
    ("liars_dice", [2, 5], "two fives", "2 fives"),
    ("liars_dice", [2, 5], "bid 2x5", "2 fives"),
    ("liars_dice", [2, 5, 3], "Liar!", "liar"),
    ("first_sealed_auction", [6, 3], "4", "bid 4"),
    ("first_sealed_auction", [6, 3], "I bid $4.", "bid 4"),
    ("pig", [], "I'll hold", "stop"),
    ("iterated_prisoners_dilemma", None, "<Silent>", "cooperate"),
    ("iterated_prisoners_dilemma", None, "I testify.", "defect"),
])
def test_each_games_move_forms(game_id, actions, text, label):
    spec, state = _state(game_id, actions or [])
    player = 0 if state.is_simultaneous_node() else state.current_player()
    assert resolve(spec, state, player, Text(text=text, source="llm")).label == label


def test_a_bare_number_is_only_a_bid_when_it_is_the_whole_answer():
    spec, state = _state("first_sealed_auction", [6, 3])
    with pytest.raises(UnparseableMove):
        resolve(spec, state, 0, Text(text="My valuation is 7 and I think 4 is good.\nOk."))


def test_a_bid_above_the_valuation_is_illegal_not_snapped():
    spec, state = _state("first_sealed_auction", [3, 3])  # player 0 values the item at 4
    with pytest.raises(IllegalMove):
        resolve(spec, state, 0, Text(text="bid 9"))


def test_breakthrough_clicks_select_then_move():
    spec, state = _state("breakthrough", [])
    with pytest.raises(NeedsMore) as caught:
        resolve(spec, state, 0, Click(path=("b7",)))
    assert set(caught.value.options) == {"a6", "b6", "c6"}
    assert resolve(spec, state, 0, Click(path=("b7", "c6"))).label == "b7->c6"
    with pytest.raises(IllegalMove) as caught:
        resolve(spec, state, 0, Click(path=("b7", "b5")))
    assert "b5" in str(caught.value)
    with pytest.raises(IllegalMove):
        resolve(spec, state, 0, Click(path=("a2",)))  # the opponent's pawn


def test_rejections_do_not_change_the_state():
    spec, state = _state("connect_four", [3, 3])
    before = (str(state), state.history())
    for text in ("", "C9", "C1 C2", "banana", "x" * 500):
        with pytest.raises(ValueError):
            resolve(spec, state, 0, Text(text=text))
    assert (str(state), state.history()) == before
