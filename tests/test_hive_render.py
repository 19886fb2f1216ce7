"""The Hive board image, hit-test and text view."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from games.actions import Click, legal_moves, resolve
from games.gamebench import hive
from games.registry import get
from renderers.gamebench import hive as view
from tests.board_clicks import moves_by_clicking
from tests.conftest import random_states

SPEC = get("hive")


def _centre_of(state):
    lay = view.board(state).layout
    return lambda target: lay.centre(hive.parse_hex(target))


EXPANSIONS = replace(SPEC, default_params={"uses_mosquito": True, "uses_ladybug": True,
                                           "uses_pillbug": True})


@pytest.mark.parametrize(("spec", "seed"), [(SPEC, 0), (SPEC, 2), (SPEC, 4), (EXPANSIONS, 1)],
                         ids=["base-0", "base-2", "base-4", "expansions-1"])
def test_clicking_tile_centres_reaches_exactly_the_legal_moves(spec, seed):
    """Whole random games: at every state, clicking every target in the image and then every
    highlighted destination plays each distinct legal move, and nothing else. (With the
    pillbug a player may move an opponent's tile.)"""
    states = random_states(spec, seed, limit=600)
    assert states[-1].is_terminal()
    theirs = 0  # moves of an opponent's tile, offered by the pillbug
    for state in states[:-1]:
        seat = state.current_player()
        found = hive.choices(state)
        first = view.target_centres(state, seat).items()
        clicked = moves_by_clicking(spec, view, state, seat, first, _centre_of(state))
        assert set(clicked) == {c.action for c in found.distinct()}
        theirs += sum(1 for path in clicked.values() if path[0][0] == "wb"[1 - seat])
        for action, path in clicked.items():
            choice = found.by_action[action]
            assert path == (hive.PASS,) if choice.tile is None else \
                path == (choice.tile, hive.hex_name(choice.target))
        # every other action is the same move written against another neighbour
        legal = {m.action: m for m in legal_moves(spec, state, seat)}
        assert set(legal) == set(found.by_action)
        for action in set(legal) - set(clicked):
            twin = found.by_action[action]
            assert (twin.tile, twin.target) in {(found.by_action[a].tile,
                                                 found.by_action[a].target) for a in clicked}
    assert theirs > 0 if spec is EXPANSIONS else theirs == 0


def test_pass_is_a_button_when_it_is_the_only_move():
    # White's only tile on the board is pinned between its queen and Black, and White has
    # no reserve left that may be placed: search a seeded random game for a pass.
    for seed in range(40):
        for state in random_states(SPEC, seed, limit=600)[:-1]:
            if hive.choices(state).only_pass:
                seat = state.current_player()
                centres = view.target_centres(state, seat)
                x, y = centres[hive.PASS]
                assert view.hit_test(state, seat, x, y) == hive.PASS
                move = resolve(SPEC, state, seat, Click(path=(hive.PASS,)))
                assert move.label == "pass"
                assert "Legal moves: pass" in view.text(state, seat)
                ARTIFACTS.mkdir(exist_ok=True)
                view.image(state, seat).save(ARTIFACTS / "hive_pass_only.png")
                return
    pytest.skip("no random game in 40 seeds reached a forced pass")


def test_image_and_hit_test_share_one_layout():
    state = random_states(SPEC, 4, limit=40)[-1]
    seat = state.current_player()
    picture = view.image(state, seat)
    assert picture.mode == "RGB"
    lay = view.board(state).layout
    assert picture.size == (lay.width, lay.height)
    for target, (x, y) in view.target_centres(state, seat).items():
        assert 0 <= x < picture.width and 0 <= y < picture.height
        assert view.hit_test(state, seat, x, y) == target
    assert view.hit_test(state, seat, 2, 2) is None  # the header
    far = lay.centre((40, 40))
    assert view.hit_test(state, seat, *far) is None


def test_a_long_line_of_tiles_grows_the_image_instead_of_shrinking_letters():
    line = hive.Position.from_stacks({(q, 0): (f"wA{q % 3 + 1}",) for q in range(30)})
    board = view.board_for(line, hive.tile_set({}))
    assert board.layout.size == view.SMALLEST
    assert board.layout.width > 960
    picture = view.draw_board(board, 0, ("a line of 30 tiles", ""))
    assert picture.size == (board.layout.width, board.layout.height)


def test_the_text_view_lists_tiles_reserves_turn_and_legal_moves():
    state = random_states(SPEC, 4, limit=30)[-1]
    seat = state.current_player()
    text = view.text(state, seat)
    position = hive.position(state)
    for where, stack in position.stacks.items():
        assert f"{hive.hex_name(where)} {stack[-1]}" in text
    for colour, name in zip(hive.COLOURS, view.SHORT, strict=True):
        left = hive.reserve(state, colour)
        assert f"{name}'s reserve ({len(left)}): {' '.join(left)}" in text
    assert "Your turn." in text
    for choice in hive.choices(state).distinct():
        assert f": {choice.label}\n" in text + "\n"
    other = view.text(state, 1 - seat)
    assert "Legal moves" not in other and "to move." in other


def test_the_selection_and_its_destinations_are_drawn():
    state = random_states(SPEC, 4, limit=30)[-1]
    seat = state.current_player()
    tile = next(t for t in hive.choices(state).movable() if hive.position(state).where(t))
    targets = tuple(hive.hex_name(h) for h in hive.choices(state).targets(tile))
    plain = np.asarray(view.image(state, seat))
    chosen = np.asarray(view.image(state, seat, selection=(tile,), targets=targets))
    lay = view.board(state).layout
    for name in targets:
        x, y = lay.centre(hive.parse_hex(name))
        if hive.position(state).top(hive.parse_hex(name)) is None:
            assert tuple(chosen[int(y) - 8, int(x)]) == (0xBF, 0xE6, 0xBF)  # green fill
            assert tuple(plain[int(y) - 8, int(x)]) != (0xBF, 0xE6, 0xBF)
    x, y = lay.centre(hive.position(state).where(tile))
    ring = chosen[int(y - lay.size + 6), int(x)]  # just inside the top corner
    assert tuple(ring) == (0xF2, 0xB6, 0x00)


def test_clicks_on_a_destination_with_a_tile_name_the_hex_only_for_the_selection():
    from tests.test_hive_rules import BEETLE_CLIMBS, play

    state = play(*BEETLE_CLIMBS[:-1])  # Black's beetle may climb onto the stack at (-1,0)
    x, y = view.board(state).layout.centre((-1, 0))
    assert view.hit_test(state, 1, x, y) == "wB1"  # nothing selected: the top tile
    assert view.hit_test(state, 1, x, y, selection=("bB1",)) == "(-1,0)"
    assert view.hit_test(state, 1, x, y, selection=("bS1",)) == "wB1"  # not bS1's target
    move = resolve(SPEC, state, 1, Click(path=("bB1", "(-1,0)")))
    assert move.label == "bB1 wB1"


ARTIFACTS = Path(__file__).parent / "artifacts"


def grown_hive(tiles: int, seed: int) -> hive.Position:
    """A compact made-up hive of ``tiles`` tiles with some beetle stacks (real Hive has at
    most 28 tiles; this checks that larger boards stay legible)."""
    rng = np.random.default_rng(seed)
    stacks: dict[hive.Hex, tuple[str, ...]] = {(0, 0): ("wQ",)}
    letters = "QSBGAMLP"
    count = 1
    while count < tiles:
        name = f"{'wb'[count % 2]}{letters[count % 8]}{count // 16 + 1}"
        if count % 9 == 0:
            under = list(stacks)[int(rng.integers(len(stacks)))]
            stacks[under] = (*stacks[under], name)
        else:
            frontier = sorted({n for h in stacks for n in hive.neighbours(h)} - set(stacks))
            crowded = [h for h in frontier
                       if sum(n in stacks for n in hive.neighbours(h)) >= 2] or frontier
            stacks[crowded[int(rng.integers(len(crowded)))]] = (name,)
        count += 1
    return hive.Position.from_stacks(stacks)


def test_screenshots_for_people_to_look_at():
    ARTIFACTS.mkdir(exist_ok=True)
    # mid-game, a tile selected with its destinations lit
    state = random_states(SPEC, 0, limit=60)[-1]
    seat = state.current_player()
    found = hive.choices(state)
    tile = next(t for t in found.movable() if hive.position(state).where(t))
    targets = tuple(hive.hex_name(h) for h in found.targets(tile))
    view.image(state, seat, selection=(tile,), targets=targets).save(
        ARTIFACTS / "hive_midgame_selected.png")
    # every expansion, as many tiles as a random game places
    params = {"uses_mosquito": True, "uses_ladybug": True, "uses_pillbug": True}
    crowded = max(random_states(replace(SPEC, default_params=params), 1),
                  key=lambda s: len(hive.position(s).tiles()))
    view.image(crowded, 0).save(ARTIFACTS / "hive_expansions_crowded.png")
    for tiles in (44, 80):
        board = view.board_for(grown_hive(tiles, 3), hive.tile_set({}))
        picture = view.draw_board(board, 0, (f"{tiles} tiles (made up)", ""))
        picture.save(ARTIFACTS / f"hive_{tiles}_tiles.png")
        assert board.layout.size >= view.SMALLEST
