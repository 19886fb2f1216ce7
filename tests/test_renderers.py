"""Renderer images and hit-tests, for every registered game.

Images: RGB, one size per game and parameters, legible marks for the last move and the
selection. Hit-tests: the inverse of the layout (every target's centre maps back to it),
and every step of every legal click path is a target. Hidden information: a seat's image
is identical in every world that seat cannot tell apart from the real one.
"""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageChops

from agents.search import consistent_worlds
from games.actions import legal_moves
from games.registry import get
from renderers import click_target, drawing, image_view, renderer
from tests.conftest import GAME_IDS, acting_players, fixed_params, random_states

CLICKED = [g for g in GAME_IDS if hasattr(renderer(g), "centres")]


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def _diff_box(a: Image.Image, b: Image.Image) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(a, b).getbbox()


def test_every_game_has_image_and_hit_test(game_spec):
    module = renderer(game_spec.id)
    assert callable(module.image) and callable(module.hit_test) and callable(module.text)


@pytest.mark.parametrize("seed", [0, 1])
def test_images_are_rgb_with_one_size_per_game(game_spec, seed):
    states = random_states(game_spec, seed)
    players = states[0].num_players()
    seats = list(range(players))
    if players > 2:  # ten seats at every step would be thousands of plots: a spread of both
        states, seats = states[:: max(1, len(states) // 6)] + states[-1:], [0, 1, players - 1]
    sizes = set()
    for state in states:
        for seat in seats:
            image = image_view(game_spec.id, state, seat)
            assert image.mode == "RGB"
            sizes.add(image.size)
    assert len(sizes) == 1, sizes
    width, height = sizes.pop()
    assert 300 <= width <= 1000 and 300 <= height <= 900


def test_every_seat_sees_its_own_image(game_spec):
    """Each image says whose view it is (the header or the plot's title names the seat)."""
    state = random_states(game_spec, 4)[2]
    images = [image_view(game_spec.id, state, seat).tobytes()
              for seat in range(state.num_players())]
    assert len(set(images)) == len(images)


@pytest.mark.parametrize("game_id", CLICKED)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_hit_test_is_the_inverse_of_the_layout(game_id, seed):
    spec = get(game_id)
    module = renderer(game_id)
    for state in random_states(spec, seed):
        for seat in range(state.num_players()):
            image = image_view(game_id, state, seat)
            for target, (x, y) in module.centres(state, seat).items():
                assert 0 <= x < image.width and 0 <= y < image.height
                assert module.hit_test(state, seat, x, y) == target, (target, x, y)
                assert module.hit_test(state, seat, int(x), int(y)) == target


@pytest.mark.parametrize("game_id", CLICKED)
def test_every_click_path_step_is_a_target(game_id):
    spec = get(game_id)
    module = renderer(game_id)
    for seed in (0, 1, 2):
        for state in random_states(spec, seed):
            for seat in acting_players(state):
                spots = module.centres(state, seat)
                legal = legal_moves(spec, state, seat)
                paths = {move.path for move in legal}
                extra = getattr(module, "buttons", None)
                pressed = {m.action for m in extra(state, seat, legal)} if extra else set()
                for move in legal:
                    if move.says or move.action in pressed:
                        continue  # words (a clue form) and buttons are not on the board
                    # Hive lists one move once per neighbouring tile: the twins' paths end
                    # in their own label, and clicks play the twin whose path is shorter
                    twin = move.path[:-1] in paths and move.path[-1] == move.label
                    clicked = move.path[:-1] if twin else move.path
                    for i, step in enumerate(clicked):
                        # a target may be named by what was selected before (a Hive beetle
                        # climbing names the hex, where a click alone names the tile on it)
                        assert step in spots or any(
                            module.hit_test(state, seat, x, y, selection=clicked[:i]) == step
                            for x, y in spots.values()), (move, sorted(spots))


@pytest.mark.parametrize("game_id", CLICKED)
def test_clicks_off_the_board_hit_nothing(game_id):
    state = random_states(get(game_id), 0)[3]
    image = image_view(game_id, state, 0)
    for x, y in [(1, 1), (image.width - 2, 2), (2, image.height - 2), (-5, 40),
                 (image.width + 10, image.height / 2), (image.width / 2, 10)]:
        assert click_target(game_id, state, 0, x, y) is None, (x, y)


def test_table_games_have_no_click_targets():
    for game_id in GAME_IDS:
        spec = get(game_id)
        if spec.board != "table" or game_id in CLICKED:
            continue
        state = random_states(spec, 0)[2]
        image = image_view(game_id, state, 0)
        hits = {click_target(game_id, state, 0, x, y)
                for x in range(0, image.width, 37) for y in range(0, image.height, 29)}
        assert hits == {None}, game_id


# --- what the marks show ---------------------------------------------------------------------


def test_the_last_move_is_marked_where_it_was_played():
    spec = get("tic_tac_toe")
    state = spec.load().new_initial_state()
    state.apply_action(4)  # C2R2
    module = renderer("tic_tac_toe")
    box = _diff_box(module.image(state, 1), module.image(state, 1, last=("C2R2",)))
    cell = module.layout(state).box(1, 1)
    assert box is not None
    assert cell[0] - 2 <= box[0] and box[2] <= cell[2] + 2
    assert cell[1] - 2 <= box[1] and box[3] <= cell[3] + 2


def test_connect_four_marks_the_top_disc_of_the_last_column():
    spec = get("connect_four")
    state = spec.load().new_initial_state()
    for action in (3, 3, 3):
        state.apply_action(action)
    module = renderer("connect_four")
    grid = module.layout(state)
    box = _diff_box(module.image(state, 0), module.image(state, 0, last=("C4",)))
    assert box is not None
    x0, y0, x1, y1 = grid.box(3, grid.rows - 3)  # the third disc from the bottom
    assert y0 - 4 <= box[3] and box[1] >= grid.top - module.LABELS - 8
    assert box[1] <= y1 and x0 - 4 <= box[0] <= x1


def test_breakthrough_highlights_selection_and_destinations():
    spec = get("breakthrough")
    state = spec.load(spec.params()).new_initial_state()
    module = renderer("breakthrough")
    plain = module.image(state, 0)
    chosen = module.image(state, 0, selection=("b7",), targets=("a6", "b6", "c6"))
    centres = module.centres(state, 0)
    corner = module.CELL * 0.4  # the square's own colour, beside the pawn
    assert plain.getpixel((int(centres["b7"][0] - corner), int(centres["b7"][1] - corner))) \
        != chosen.getpixel((int(centres["b7"][0] - corner), int(centres["b7"][1] - corner)))
    for square in ("a6", "b6", "c6"):  # empty squares get a dot in their centre
        x, y = centres[square]
        assert plain.getpixel((int(x), int(y))) != chosen.getpixel((int(x), int(y))), square
    for square in ("a2", "a7", "c7"):
        x, y = centres[square]
        assert plain.getpixel((int(x - corner), int(y - corner))) \
            == chosen.getpixel((int(x - corner), int(y - corner)))


def test_nim_shows_the_sticks_just_taken():
    spec = get("nim")
    state = spec.load(spec.params()).new_initial_state()
    move = next(m for m in legal_moves(spec, state, 0) if m.label == "pile 4 take 3")
    state.apply_action(move.action)
    module = renderer("nim")
    box = _diff_box(module.image(state, 1), module.image(state, 1, last=(move.label,)))
    assert box is not None
    top_removed = module.stick_box(state, 3, 6)
    assert box[1] <= top_removed[1] + 2 and box[0] >= module.stick_box(state, 3, 0)[0] - 3


# --- hidden information -------------------------------------------------------------------


HIDDEN = [g for g in GAME_IDS if get(g).taxonomy.information == "incomplete"]
SIMULTANEOUS = [g for g in HIDDEN if get(g).taxonomy.dynamics == "simultaneous"]
"""Hidden-information games of N simultaneous seats: too many worlds to enumerate (2^9 ways
the others chose in one El Farol round), so the test builds some by the rules instead."""


ENUMERABLE = [g for g in HIDDEN if g not in ("negotiation", "arctic_scavengers", *SIMULTANEOUS)
              and get(g).load().get_type().provides_information_state_string]
"""Games whose worlds can be enumerated from information states; the social games (a deal
of 25 words from 400, shuffled roles) and Pit (astronomically many deals, no information
states) test each seat's view by the rules instead (tests/test_codenames.py, test_pit_*...); Arctic
Scavengers' 400-move playouts would take minutes here: tests/test_arctic_views.py checks its
images over redealt worlds at a spread of states."""


@pytest.mark.parametrize("game_id", ENUMERABLE)
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_a_seat_image_is_the_same_in_every_world_it_cannot_tell_apart(game_id, seed):
    spec = get(game_id)
    distinct_worlds = 0
    for state in random_states(spec, seed):
        if state.is_chance_node() or state.is_terminal():
            continue
        for seat in range(state.num_players()):
            worlds, _ = consistent_worlds(state, seat)
            distinct_worlds += len({str(w) for w in worlds}) > 1
            seen = image_view(game_id, state, seat)
            for world in worlds:
                assert _same(seen, image_view(game_id, world, seat)), (str(state), str(world))
    assert distinct_worlds, "no state had hidden information to hide"


def _farol_others(twin, seat: int, joint: list[int], rng) -> list[int]:
    """Others' choices El Farol does not tell ``seat``: anything if it stayed home, the same
    number of goers in another order if it went."""
    from games.gama.cooperative import GO

    others = [p for p in range(len(joint)) if p != seat]
    values = (rng.permutation([joint[p] for p in others]) if joint[seat] == GO
              else rng.integers(0, 2, len(others)))
    changed = list(joint)
    for p, value in zip(others, values, strict=True):
        changed[p] = int(value)
    return changed


def _auction_others(twin, seat: int, joint: list[int], rng) -> list[int]:
    """Others' bids the auction does not tell ``seat``: any bid below the two highest (the
    winning bid and the price stay what they were)."""
    second = sorted(joint, reverse=True)[1]
    changed = list(joint)
    for p, bid in enumerate(joint):
        if p != seat and bid < second:
            cap = min(second - 1, twin.valuation(p, len(twin.choices)))
            changed[p] = int(rng.integers(0, cap + 1))
    return changed


TWINS = {"el_farol": _farol_others, "sealed_bid_auction": _auction_others}


def _twin(game_id: str, state, seat: int, rng):
    """``state`` replayed with other seats' choices changed where the rules hide them."""
    twin = state.get_game().new_initial_state()
    history, i, n = list(state.full_history()), 0, state.num_players()
    while i < len(history):
        if twin.is_simultaneous_node():
            joint = [item.action for item in history[i:i + n]]
            twin.apply_actions(TWINS[game_id](twin, seat, joint, rng))
            i += n
        else:
            twin.apply_action(history[i].action)
            i += 1
    return twin


def test_every_simultaneous_hidden_game_has_twin_worlds():
    assert sorted(SIMULTANEOUS) == sorted(TWINS)


@pytest.mark.parametrize("game_id", SIMULTANEOUS)
@pytest.mark.parametrize("seed", [0, 1])
def test_a_seat_image_is_the_same_when_others_choose_otherwise_unseen(game_id, seed):
    spec = get(game_id)
    rng = np.random.default_rng(seed)
    states = [s for s in random_states(spec, seed) if not s.is_chance_node()]
    distinct_worlds = 0
    for state in (states[1], states[len(states) // 2], states[-1]):
        for seat in range(0, state.num_players(), 4):
            seen = image_view(game_id, state, seat)
            for _ in range(2):
                twin = _twin(game_id, state, seat, rng)
                distinct_worlds += str(twin) != str(state)
                assert _same(seen, image_view(game_id, twin, seat)), (seat, str(state))
    assert distinct_worlds, "no twin differed from the real history"


def test_the_other_seat_hidden_card_changes_its_own_image_only():
    """Kuhn poker: swapping the opponent's card changes nothing in my image."""
    spec = get("kuhn_poker")
    game = spec.load()
    images = {}
    for other in (1, 2):  # I hold J (0); the opponent holds Q or K
        state = game.new_initial_state()
        state.apply_action(0)
        state.apply_action(other)
        images[other] = (image_view("kuhn_poker", state, 0), image_view("kuhn_poker", state, 1))
    assert _same(images[1][0], images[2][0])
    assert not _same(images[1][1], images[2][1])


def _twin_negotiations(seat: int) -> tuple[int, int]:
    """Two rng seeds whose negotiations look the same to ``seat`` but not to the other."""
    spec = get("negotiation")
    seen: dict[tuple[str, ...], tuple[int, str]] = {}
    for seed in range(20_000):
        state = spec.load({**spec.params(), "rng_seed": seed}).new_initial_state()
        state.apply_action(state.legal_actions()[0])
        mine = tuple(state.observation_string(seat).splitlines()[:3])
        theirs = state.observation_string(1 - seat).splitlines()[2]
        if mine in seen and seen[mine][1] != theirs:
            return seen[mine][0], seed
        seen.setdefault(mine, (seed, theirs))
    pytest.fail("no two negotiations differ only in the other seat's values")


@pytest.mark.parametrize("seat", [0, 1])
def test_negotiation_image_hides_the_other_seats_values(seat):
    spec = get("negotiation")
    first, second = _twin_negotiations(seat)
    states = []
    for seed in (first, second):
        state = spec.load({**spec.params(), "rng_seed": seed}).new_initial_state()
        state.apply_action(state.legal_actions()[0])
        states.append(state)
    rng = np.random.default_rng(seat)
    for _ in range(6):
        assert _same(image_view("negotiation", states[0], seat),
                     image_view("negotiation", states[1], seat))
        assert not _same(image_view("negotiation", states[0], 1 - seat),
                         image_view("negotiation", states[1], 1 - seat))
        if states[0].is_terminal():
            break
        action = int(rng.choice(states[0].legal_actions()))
        for state in states:
            state.apply_action(action)


def test_auction_bids_stay_sealed_until_the_end():
    spec = get("first_sealed_auction")
    game = spec.load()
    images = []
    for bid in (0, 3):
        state = game.new_initial_state()
        state.apply_action(5)  # player 0 values the item at 6
        state.apply_action(6)  # player 1 values it at 7
        state.apply_action(bid)
        images.append(image_view("first_sealed_auction", state, 1))
    assert _same(*images)


# --- fonts --------------------------------------------------------------------------------


def test_drawing_works_without_system_fonts(monkeypatch):
    """A bare image without DejaVu/Liberation falls back to Pillow's scalable font."""
    monkeypatch.setattr(drawing, "_FONT_DIRS", ())
    drawing.font.cache_clear()
    try:
        image = image_view("tic_tac_toe", get("tic_tac_toe").load().new_initial_state(), 0)
        assert image.mode == "RGB"
        assert drawing.font(20).size == 20
    finally:
        drawing.font.cache_clear()


def test_fixed_params_are_respected_by_renderers():
    spec = get("breakthrough")
    state = spec.load({**fixed_params(spec), "rows": 6, "columns": 5}).new_initial_state()
    module = renderer("breakthrough")
    assert len(module.centres(state, 0)) == 30
    assert module.hit_test(state, 0, *module.centres(state, 0)["e6"]) == "e6"
