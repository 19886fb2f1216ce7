"""Air, Land & Sea hides what each seat may not know: the other hand, the deck and the other
seat's face-down cards, in the text view, the image, the information state, the labels and
click targets, the move list, and IS-MCTS's search. The owner always sees its own
face-down cards."""

from __future__ import annotations

import re

import numpy as np
import pyspiel
import pytest
from PIL import ImageChops

from agents.base import SeatView
from agents.search import ISMCTSAgent, consistent_worlds
from games.actions import ActionId, legal_moves
from games.gamebench.air_land_sea_cards import CARDS
from games.gamebench.air_land_sea_rules import AirLandSeaState
from games.registry import get
from renderers import drawing, image_view, text_view
from renderers.gamebench import air_land_sea as view
from sessions.match import Match
from sessions.record import SeatRecord
from tests.conftest import random_states

SPEC = get("air_land_sea")
RED, BLUE = 0, 1
AIR, LAND, SEA = 0, 1, 2
SUPPORT, HEAVY_TANKS, TRANSPORT, AMBUSH, SUPER_BATTLESHIP = 0, 11, 12, 7, 17
LAND_MANEUVER, HEAVY_BOMBERS, ESCALATION, REDEPLOY = 8, 5, 13, 15


def _same(a, b) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def _seen_by(state: AirLandSeaState, seat: int) -> dict[str, object]:
    """Everything ``seat`` is shown."""
    shown: dict[str, object] = {
        "text": text_view(SPEC.id, state, seat),
        "image": image_view(SPEC.id, state, seat),
        "phone image": image_view(SPEC.id, state, seat, narrow=True),
        "information": state.information_state_string(seat),
        "observation": state.observation_string(seat),
        "targets": view.centres(state, seat),
        "phone targets": view.centres(state, seat, narrow=True),
    }
    if state.current_player() == seat:
        shown["moves"] = [(m.label, m.path) for m in legal_moves(SPEC, state, seat)]
    return shown


def _twin(state: AirLandSeaState, seat: int) -> AirLandSeaState | None:
    """The same state with one card ``seat`` cannot see swapped with one from the deck (an
    unknown card of the other hand, or of the other side's face-down cards), or None."""
    other = 1 - seat
    hidden = [("hand", i) for i, c in enumerate(state.hands[other]) if not state.known[seat][c]]
    hidden += [("table", t, i) for t in range(3) for i, c in enumerate(state.stacks[other][t])
               if not state.known[seat][c]]
    if not hidden or not state.pool:
        return None
    twin = state.clone()
    spot = hidden[len(hidden) // 2]
    swap = twin.pool[0]
    if spot[0] == "hand":
        old = twin.hands[other][spot[1]]
        twin.hands[other][spot[1]] = swap
        twin.hands[other].sort()
    else:
        old = twin.stacks[other][spot[1]][spot[2]]
        twin.stacks[other][spot[1]][spot[2]] = swap
    twin.pool[0] = old
    twin.face_up[swap], twin.face_up[old] = twin.face_up[old], twin.face_up[swap]
    for s in (0, 1):
        twin.known[s][swap], twin.known[s][old] = twin.known[s][old], twin.known[s][swap]
    return twin


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_seat_sees_the_same_whatever_the_cards_it_cannot_see(seed):
    checked = 0
    for state in random_states(SPEC, seed)[::3]:
        if state.is_chance_node():
            continue
        for seat in (RED, BLUE):
            twin = _twin(state, seat)
            if twin is None:
                continue
            mine, theirs = _seen_by(state, seat), _seen_by(twin, seat)
            assert _same(mine.pop("image"), theirs.pop("image"))
            assert _same(mine.pop("phone image"), theirs.pop("phone image"))
            assert mine == theirs
            other = 1 - seat  # and the swap was real: the other seat sees it
            assert text_view(SPEC.id, state, other) != text_view(SPEC.id, twin, other)
            checked += 1
    assert checked > 10


@pytest.mark.parametrize("seed", [3, 4])
def test_a_seat_text_never_names_a_card_of_the_deck_or_an_unrevealed_card(seed):
    for state in random_states(SPEC, seed):
        if state.is_chance_node() or state.is_terminal():
            continue
        public = " ".join(state.log)
        for seat in (RED, BLUE):
            text = text_view(SPEC.id, state, seat)
            other = 1 - seat
            secret = [c for c in state.pool]
            secret += [c for c in state.hands[other] if CARDS[c].name not in public]
            secret += [c for t in range(3) for c in state.stacks[other][t]
                       if not state.known[seat][c]]
            for card in secret:
                assert not re.search(rf"\b{CARDS[card].name}\b", text), (seat, CARDS[card].name)


def _secrets(state: AirLandSeaState, seat: int) -> list[str]:
    """The names of the cards ``seat`` may not know: the deck, the other hand (less the
    cards the public log names), the other side's face-down cards it never saw."""
    public = " ".join(state.log)
    other = 1 - seat
    secret = list(state.pool) + [c for c in state.hands[other] if CARDS[c].name not in public]
    secret += [c for t in range(3) for c in state.stacks[other][t] if not state.known[seat][c]]
    return [CARDS[c].name for c in secret]


@pytest.mark.parametrize("narrow", [False, True])
def test_a_seat_image_never_writes_a_card_it_may_not_know(monkeypatch, narrow):
    """Every word drawn on the table (wide, and laid out for a phone) is recorded: none names
    a card of the deck, of the other hand or a face-down card the seat never saw."""
    written: list[str] = []
    draw = drawing.Canvas.text

    def text(canvas, xy, words, **style):
        written.append(words)
        draw(canvas, xy, words, **style)

    monkeypatch.setattr(drawing.Canvas, "text", text)
    checked = 0
    for seed in (5, 6):
        for state in random_states(SPEC, seed)[::2]:
            if state.is_chance_node() or state.is_terminal():
                continue
            drawn = []
            for seat in (RED, BLUE):
                written.clear()
                image_view(SPEC.id, state, seat, narrow=narrow)
                drawn.append("\n".join(written))
            for seat in (RED, BLUE):
                for name in _secrets(state, seat):
                    assert not re.search(rf"\b{name}\b", drawn[seat]), (seat, name)
                hand = [CARDS[c].name for c in state.hands[1 - seat]]
                if hand:  # and the other seat's image does write its own hand
                    assert any(re.search(rf"\b{name}\b", drawn[1 - seat]) for name in hand)
                    checked += 1
    assert checked > 20


def test_the_owner_sees_its_face_down_card_and_the_opponent_sees_a_back():
    state = SPEC.load().new_initial_state()
    state.arrange(hands=([LAND_MANEUVER, HEAVY_BOMBERS], [AMBUSH, ESCALATION]),
                  table=[(BLUE, HEAVY_TANKS, AIR, False), (RED, SUPER_BATTLESHIP, SEA, False)])
    red, blue = text_view(SPEC.id, state, RED), text_view(SPEC.id, state, BLUE)
    assert "face-down Super Battleship" in red and "Heavy Tanks" not in red
    assert "face-down Heavy Tanks" in blue and "Super Battleship" not in blue
    assert "Ambush" not in red and "Land Maneuver" not in blue  # the other hand
    assert "Blue's hand: 2 cards." in red
    state.apply_action(next(a for a in state.legal_actions()
                            if state.action_to_string(RED, a)
                            == "play Land Maneuver face-up to Land"))
    labels = [m.label for m in legal_moves(SPEC, state, RED)]
    assert "flip Blue's face-down card (Air)" in labels
    assert "flip face-down Super Battleship (Sea)" in labels  # Red knows its own card
    assert not any("Heavy Tanks" in label for label in labels)
    targets = view.centres(state, RED)
    assert "Blue's face-down card (Air)" in targets and "Heavy Tanks" not in targets


def test_reinforces_drawn_card_is_seen_by_the_drawer_only():
    state = SPEC.load().new_initial_state()
    state.arrange(hands=([6, AMBUSH], [SUPPORT, ESCALATION]))
    state.apply_action(6 * 6 + LAND * 2)  # Reinforce face-up to Land
    state.apply_action(HEAVY_BOMBERS)  # the draw
    assert "You drew (Reinforce, to play face-down now): Heavy Bombers" in text_view(
        SPEC.id, state, RED)
    assert "Heavy Bombers" not in text_view(SPEC.id, state, BLUE)
    twin = state.clone()
    twin.pool[twin.pool.index(SUPER_BATTLESHIP)] = HEAVY_BOMBERS
    twin.held = SUPER_BATTLESHIP
    twin.known[RED][SUPER_BATTLESHIP], twin.known[RED][HEAVY_BOMBERS] = True, False
    assert _same(image_view(SPEC.id, state, BLUE), image_view(SPEC.id, twin, BLUE))
    assert _same(image_view(SPEC.id, state, BLUE, narrow=True),
                 image_view(SPEC.id, twin, BLUE, narrow=True))


def test_the_move_list_shows_a_seat_the_other_seats_moves_as_the_rules_tell_them():
    seats = [SeatRecord("random", "random", "random")] * 2
    match = Match(SPEC.id, seats, seed=5)
    rng = np.random.default_rng(5)
    for _ in range(8):
        seat = match.to_move()[0]
        legal = match.legal(seat)
        match.submit(seat, ActionId(action=legal[int(rng.integers(len(legal)))].action))
    for seat in (RED, BLUE):
        shown = match.visible_moves(seat)
        decided = [m for m in match.record.moves if m.seat != -1]
        assert [(m.seat, m.label) for m in shown if m.seat != -1] == [
            (m.seat, m.label if m.seat == seat else m.public) for m in decided]
        assert not any("deal" in m.label for m in shown)


def test_resampled_worlds_keep_the_information_state_and_change_the_hidden_cards():
    state = next(s for s in random_states(SPEC, 6)[20:] if not s.is_chance_node())
    seat = state.current_player()
    worlds, weights = consistent_worlds(state, seat)
    assert len(worlds) > 1 and weights.sum() == pytest.approx(1.0)
    for world in worlds:
        assert world.information_state_string(seat) == state.information_state_string(seat)
        assert world.hands[seat] == state.hands[seat]
    assert any(world.hands[1 - seat] != state.hands[1 - seat] for world in worlds)


def test_ismcts_decides_the_same_whatever_the_hidden_cards_are():
    state = next(s for s in random_states(SPEC, 7)[15:] if not s.is_chance_node())
    seat = state.current_player()
    twin = _twin(state, seat)
    assert twin is not None and str(twin) != str(state)
    picks = []
    for world in (state, twin):
        agent = ISMCTSAgent(SPEC.load(), seed=9, simulations=60, seconds=0)
        legal = tuple(legal_moves(SPEC, world, seat))
        decision = agent.act(SeatView(SPEC, seat, "", legal, (), world.clone()))
        picks.append(decision.proposal.action)
    assert picks[0] == picks[1]


def test_information_states_are_openspiel_strings_per_seat():
    state = next(s for s in random_states(SPEC, 8)[14:] if not s.is_chance_node())
    red, blue = (state.information_state_string(s) for s in (RED, BLUE))
    assert red != blue and "seat=0" in red and "seat=1" in blue
    with pytest.raises(pyspiel.SpielError):
        state.information_state_string(2)
