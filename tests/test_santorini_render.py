"""The Santorini board image, hit-test and text view."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from games.actions import Click, NeedsMore, legal_moves, resolve
from games.gamebench import santorini
from games.gamebench.santorini import SIZE, square_name, square_of
from games.registry import get
from renderers.gamebench import santorini as view
from tests.board_clicks import moves_by_clicking
from tests.conftest import random_states

SPEC = get("santorini")


def centre(name: str) -> tuple[float, float]:
    return view.square_centre(square_of(name))


@pytest.mark.parametrize("seed", range(4))
def test_clicking_square_centres_reaches_exactly_the_legal_moves(seed):
    states = random_states(SPEC, seed)
    assert states[-1].is_terminal()
    for state in states[:-1]:
        seat = state.current_player()
        squares = [(square_name(s), centre(square_name(s))) for s in range(SIZE * SIZE)]
        clicked = moves_by_clicking(SPEC, view, state, seat, squares, centre)
        assert set(clicked) == set(state.legal_actions())
        for move in legal_moves(SPEC, state, seat):
            assert clicked[move.action] == move.path


def test_hit_test_inverts_the_layout():
    state = random_states(SPEC, 1)[10]
    picture = view.image(state, 0)
    assert picture.mode == "RGB" and picture.size == (view.WIDTH, view.HEIGHT)
    for square in range(SIZE * SIZE):
        x0, y0, x1, y1 = view.square_box(square)
        for x, y in ((x0 + 2, y0 + 2), (x1 - 2, y1 - 2), ((x0 + x1) / 2, (y0 + y1) / 2)):
            assert view.hit_test(state, 0, x, y) == square_name(square)
    assert view.hit_test(state, 0, 5, 5) is None  # header
    assert view.hit_test(state, 0, view.LEFT - 5, view.TOP + 50) is None  # rank labels
    assert view.hit_test(state, 0, view.WIDTH - 2, view.HEIGHT - 2) is None


def test_each_click_step_highlights_the_next_squares():
    state = random_states(SPEC, 2)[12]
    seat = state.current_player()
    move = legal_moves(SPEC, state, seat)[0]
    assert len(move.path) == 3
    for step in (1, 2):
        with pytest.raises(NeedsMore) as caught:
            resolve(SPEC, state, seat, Click(path=move.path[:step]))
        options = caught.value.options
        picture = np.asarray(view.image(state, seat, selection=move.path[:step],
                                        targets=options))
        for name in options:
            x0, y0, _, _ = view.square_box(square_of(name))
            assert tuple(picture[y0 + 3, x0 + 10]) == (0x13, 0x8A, 0x43)  # green frame
        for name in set(move.path[:step]) - set(options):
            x0, y0, _, _ = view.square_box(square_of(name))
            assert tuple(picture[y0 + 3, x0 + 10]) == (0xF2, 0xB6, 0x00)  # gold frame


def test_the_moved_worker_is_shown_on_its_new_square_while_choosing_the_build():
    state = random_states(SPEC, 2)[12]
    seat = state.current_player()
    origin, target, _ = legal_moves(SPEC, state, seat)[0].path
    picture = np.asarray(view.image(state, seat, selection=(origin, target)))
    blue = tuple(int(c, 16) for c in ("25", "63", "eb"))
    orange = tuple(int(c, 16) for c in ("f0", "8a", "24"))
    worker = blue if seat == 0 else orange
    tx, ty = centre(target)
    ox, oy = centre(origin)
    assert tuple(picture[int(ty) + 12, int(tx) - 12]) == worker
    assert tuple(picture[int(oy) + 12, int(ox) - 12]) != worker


def test_the_text_view_shows_levels_workers_and_grouped_moves():
    state = santorini.SantoriniGame().new_initial_state({
        "levels": [[0, 0, 0, 0, 0], [0, 4, 3, 0, 0], [0, 2, 1, 0, 0], [0, 0, 0, 0, 0],
                   [0, 0, 0, 0, 0]],
        "workers": {"A": "b3", "B": "e1", "X": "a5", "Y": "e5"}, "to_move": 0})
    text = view.text(state, 0)
    assert "4  0.  D.  3.  0.  0." in text
    assert "3  0.  2A  1.  0.  0." in text
    assert "A at b3 (level 2)" in text
    assert "  A: b3→c4, wins (climbs onto level 3)" in text
    assert "A: b3→c3, build one of" in text
    assert "Legal moves" not in view.text(state, 1)


def test_screenshots_for_people_to_look_at():
    artifacts = Path(__file__).parent / "artifacts"
    artifacts.mkdir(exist_ok=True)
    states = random_states(SPEC, 5)
    middle = states[len(states) // 2]
    seat = middle.current_player()
    move = legal_moves(SPEC, middle, seat)[-1]
    view.image(middle, seat).save(artifacts / "santorini_midgame.png")
    with pytest.raises(NeedsMore) as caught:
        resolve(SPEC, middle, seat, Click(path=move.path[:2]))
    view.image(middle, seat, selection=move.path[:2], targets=caught.value.options).save(
        artifacts / "santorini_midgame_building.png")
    view.image(states[-1], 0).save(artifacts / "santorini_game_over.png")
