"""Hive's rules, as OpenSpiel implements them, seen through our adapter, views and replay.

Each position is reached by typing UHP moves through the adapter (so every move on the way
is checked legal), then the checks go through the same click paths, text view and hit-test
that a person and an LLM use.
"""

from __future__ import annotations

import pytest

from games.actions import Click, IllegalMove, NeedsMore, Text, legal_moves, resolve
from games.gamebench import hive
from games.registry import get
from renderers.gamebench import hive as view

SPEC = get("hive")


def play(*moves: str):
    state = SPEC.load().new_initial_state()
    for text in moves:
        state.apply_action(resolve(SPEC, state, state.current_player(), Text(text=text)).action)
    return state


def first_clicks(state) -> set[str]:
    return {move.path[0] for move in legal_moves(SPEC, state, state.current_player())}


def destinations(state, tile: str) -> set[str]:
    with pytest.raises(NeedsMore) as caught:
        resolve(SPEC, state, state.current_player(), Click(path=(tile,)))
    return set(caught.value.options)


def connected(hexes: set[hive.Hex]) -> bool:
    if not hexes:
        return True
    seen, todo = set(), [next(iter(hexes))]
    while todo:
        here = todo.pop()
        if here not in seen:
            seen.add(here)
            todo += [n for n in hive.neighbours(here) if n in hexes]
    return seen == hexes


# White's beetle climbs onto its own queen; Black's beetle walks over the hive onto it.
BEETLE_CLIMBS = (
    "wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wB1 \\wQ", "bB1 bQ-",
    "wB1 wQ",    # (-1,0): wQ, wB1
    "bB1 bQ",    # bB1 onto its queen at (2,0)
    "wG1 -wB1",  # (-2,0)
    "bB1 bS1",   # (1,0)
    "wG2 -wG1",
    "bB1 wS1",   # (0,0)
    "wG3 -wG2",
    "bB1 wB1",   # (-1,0): wQ, wB1, bB1
)


def test_a_beetle_climbs_on_top_of_a_stack():
    before = play(*BEETLE_CLIMBS[:-1])
    assert "(-1,0)" in destinations(before, "bB1")  # onto the stack, from the hive's top
    state = play(*BEETLE_CLIMBS)
    position = hive.position(state)
    assert position.stack((-1, 0)) == ("wQ", "wB1", "bB1")
    assert position.stack((0, 0)) == ("wS1",)
    text = view.text(state, 0)
    assert "(-1,0) bB1 on top of a stack of 3: wQ, wB1, bB1" in text
    assert "bB1^3" in text  # the map
    # The tiles under the beetle cannot move; White's other tiles can.
    clicks = first_clicks(state)
    assert "wQ" not in clicks and "wB1" not in clicks
    assert {"wG3", "wA1"} <= clicks  # the grasshopper at the end, a reserve ant
    with pytest.raises(IllegalMove):
        resolve(SPEC, state, 0, Click(path=("wB1",)))
    # Clicking the stack picks its top tile; the beetle can climb down or across next turn.
    x, y = view.board(state).layout.centre((-1, 0))
    assert view.hit_test(state, 0, x, y) == "bB1"
    after = play(*BEETLE_CLIMBS, "wA1 \\wG2")
    down = destinations(after, "bB1")
    assert "(0,0)" in down  # back onto wS1
    assert "(-1,-1)" in down  # down to the empty hex north-west of the stack


# White's grasshopper hangs off its queen, which links it to the rest of the hive.
PINNED = ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wG1 -wQ", "bG1 bQ-")


def test_a_pinned_tile_cannot_move():
    state = play(*PINNED)
    position = hive.position(state)
    assert position.where("wQ") == (-1, 0) and position.where("wG1") == (-2, 0)
    rest = set(position.stacks) - {(-1, 0)}
    assert not connected(rest)  # lifting the queen would split the hive
    clicks = first_clicks(state)
    assert "wQ" not in clicks and "wS1" not in clicks  # both hold the hive together
    assert "wG1" in clicks  # the grasshopper at the end can jump along the line
    assert destinations(state, "wG1") == {"(4,0)"}
    with pytest.raises(IllegalMove):  # a plain one-step slide, refused only by the pin
        resolve(SPEC, state, 0, Text(text="wQ \\wS1"))
    # The same queen moves once its grasshopper hangs off the spider instead.
    free = play(*PINNED[:4], "wG1 \\wS1", "bG1 bQ-")
    assert connected(set(hive.position(free).stacks) - {(-1, 0)})
    assert "(-1,-1)" in destinations(free, "wQ")


# White's queen is walled in on five sides; its sixth side, (-1,-1), is empty but lies in
# a gap between wG1 at (0,-1) and wG2 at (-2,0).
GATED = (
    "wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wG1 \\wS1", "bG1 bQ-",
    "wG2 -wQ", "bG2 bG1-", "wA1 wQ\\", "bG3 bG2-", "wA2 /wQ", "bA1 bG3-",
)


def test_a_tile_cannot_slide_through_a_gate():
    state = play(*GATED)
    position = hive.position(state)
    queen = position.where("wQ")
    assert queen == (-1, 0)
    empty = [n for n in hive.neighbours(queen) if position.top(n) is None]
    assert empty == [(-1, -1)]
    gate = set(hive.neighbours(queen)) & set(hive.neighbours((-1, -1)))
    assert all(position.top(h) for h in gate)  # both sides of the gap are occupied
    assert connected(set(position.stacks) - {queen})  # the queen is not pinned
    assert "wQ" not in first_clicks(state)  # ... but it cannot squeeze through
    with pytest.raises(IllegalMove):  # (-1,-1) is north-east of wG2
        resolve(SPEC, state, 0, Text(text="wQ wG2/"))
    # An ant walking round the outside reaches the same hex from its open side.
    assert "(-1,-1)" in destinations(state, "wA1")
    assert "move wA1 (-1,1) -> (-1,-1)" in view.text(state, 0)


def test_the_queen_must_be_placed_by_the_fourth_turn():
    state = play("wS1", "bS1 wS1-", "wG1 -wS1", "bG1 bS1-", "wA1 -wG1", "bA1 bG1-")
    assert first_clicks(state) == {"wQ"}
    assert "wQ" in view.text(state, 0)


def test_the_first_move_is_a_tile_alone_at_the_origin():
    state = SPEC.load().new_initial_state()
    moves = legal_moves(SPEC, state, 0)
    assert {m.label for m in moves} >= {"wA1", "wS1", "wG3"}
    assert "wQ" not in {m.label for m in moves}  # no queen on the first turn
    assert all(m.path[1:] == ("(0,0)",) for m in moves)
    assert resolve(SPEC, state, 0, Text(text="I open with my ant: wA1")).label == "wA1"


def test_the_tournament_queen_rule_is_played_and_the_rules_say_so():
    """OpenSpiel has no parameter for the printed rulebook's queen on turns 1-4: the queen
    cannot open for either side, and the page and the models' rules say which rule this is."""
    from sessions.web.rules_html import split_notes

    state = SPEC.load().new_initial_state()
    with pytest.raises(IllegalMove):
        resolve(SPEC, state, 0, Text(text="wQ"))
    state = play("wA1")
    assert not any(m.label.startswith("bQ") for m in legal_moves(SPEC, state, 1))
    assert any(m.label.startswith("wQ") for m in legal_moves(SPEC, play("wA1", "bA1 wA1-"), 0))
    shown, _ = split_notes(SPEC.rules)  # the rules a player reads, outside the notes' fold
    assert "the tournament rule is played" in shown and "printed" in shown
    assert "tournament rule" in SPEC.rules_for_llm and "tournament rule" in SPEC.param_notes
    assert set(SPEC.load().get_type().parameter_specification) == {
        "ansi_color_output", "board_size", "uses_ladybug", "uses_mosquito", "uses_pillbug"}


@pytest.mark.parametrize("text", [
    "wS2 /wQ", "WS2 /WQ", "ws2 /wq", "Final answer: wS2 /wQ", "<move>wS2 /wQ</move>",
    "I place my second spider south-west of my queen: wS2 /wQ.", '{"move": "wS2 /wQ"}',
])
def test_uhp_moves_are_read_from_free_text(text):
    state = play(*PINNED)
    assert resolve(SPEC, state, 0, Text(text=text, source="llm")).label == "wS2 /wQ"


def test_every_written_form_of_one_destination_is_the_same_hex():
    state = play(*PINNED)
    # (-1,-1) touches wQ (its north-west) and wG1 (its north-east): two UHP strings
    a = resolve(SPEC, state, 0, Text(text="wS2 \\wQ"))
    b = resolve(SPEC, state, 0, Text(text="wS2 wG1/"))
    assert a.action != b.action
    assert a.path[:2] == b.path[:2] == ("wS2", "(-1,-1)")
    assert len(a.path) + len(b.path) == 5  # one is the two-click path, one carries a label
    clicked = resolve(SPEC, state, 0, Click(path=("wS2", "(-1,-1)")))
    assert clicked.action in (a.action, b.action)
