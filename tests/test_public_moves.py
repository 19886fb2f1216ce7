"""Hidden moves as the other seats are told them (``GameSpec.public_label``): in Air, Land &
Sea, Pit and Two Rooms and a Boom every seat's move list, agent history, the page, a seat's
replay and the spectators' public view list the other seats' moves in order, as the rules
make them public, and never a card, commodity or role the seat may not know. The blind
auction stays sealed. Records written before ``MoveRecord.public`` still load."""

from __future__ import annotations

import re

import numpy as np
import pytest

from games.actions import ActionId
from games.gamebench import two_rooms_and_a_boom as tr
from games.gamebench.air_land_sea_cards import (
    CARDS,
    REINFORCE,
    move_action,
    play_action,
    return_action,
)
from games.gamebench.air_land_sea_rules import AirLandSeaState
from games.gamebench.air_land_sea_view import public_label
from games.gamebench.pit_cards import COMMODITIES
from games.registry import get
from sessions.match import Match
from sessions.record import CHANCE, MatchRecord, SeatRecord, replay
from sessions.web import replays, spectate
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id

ALS = get("air_land_sea")
RANDOM = SeatRecord("random", "random", "random")
PIT_WORDS = [name for name, _ in COMMODITIES] + ["Bull", "Bear"]
ROLES = list(tr.CARDS)


def _names(text: str) -> set[int]:
    """The Air, Land & Sea cards named in ``text``."""
    return {c.id for c in CARDS if re.search(rf"\b{re.escape(c.name)}\b", text)}


def _played(game: str, players: int, moves: int, seed: int) -> Match:
    """A game part played by seeded random choices (never withdrawing from a battle, so
    that a war of Air, Land & Sea goes on)."""
    match = Match(game, [RANDOM] * players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if match.over:
            break
        seat = match.to_move()[0]
        legal = [m for m in match.legal(seat) if not m.says and m.label != "withdraw"]
        match.submit(seat, ActionId(action=legal[int(rng.integers(len(legal)))].action))
    assert not match.over
    return match


def _others_in_order(match: Match, seat: int) -> None:
    """``seat``'s list holds every decision of the others that they were told of, in order,
    with that label, and its own moves whole."""
    shown = [(m.seat, m.label) for m in match.visible_moves(seat) if m.seat != CHANCE]
    expected = [(m.seat, m.label if m.seat == seat else m.public)
                for m in match.record.moves if m.seat != CHANCE]
    assert shown == [(s, label) for s, label in expected if label is not None]
    assert [(m.seat, m.label) for m in match.view(seat).history] == \
        [(m.seat, m.label) for m in match.visible_moves(seat)]


# --- Air, Land & Sea -------------------------------------------------------------------------


def _als_table() -> AirLandSeaState:
    state = ALS.load().new_initial_state()
    # Red holds Support and Air Drop; Blue has Heavy Tanks face-down in Land, Transport up
    # in Sea and the Super Battleship face-down in Sea on top of it.
    state.arrange(hands=[[0, 3], [1, 2]], table=[(1, 11, 1, False), (1, 12, 2, True),
                                                (1, 17, 2, False)], first=1)
    return state


def test_als_face_down_cards_are_told_as_a_card_and_public_moves_whole():
    state = _als_table()
    assert public_label(state, 1, play_action(1, 0, False)) == "play a card face-down to Air"
    assert public_label(state, 1, play_action(1, 0, True)) == "play Air Drop face-up to Air"
    assert public_label(state, 1, move_action(11, 0)) == \
        "move a face-down card from Land to Air"
    assert public_label(state, 1, move_action(12, 0)) == "move Transport from Sea to Air"
    assert public_label(state, 1, return_action(17)) == \
        "return a face-down card from Sea to hand"
    state.phase, state.held, state.ability = "reinforce", 5, (1, REINFORCE, 0)
    assert public_label(state, 1, play_action(5, 2, False)) == \
        "play the card Reinforce drew face-down to Sea"
    for action in (play_action(1, 0, False), move_action(11, 0), return_action(17),
                   play_action(5, 2, False)):
        assert not _names(public_label(state, 1, action)) - {REINFORCE}


def test_als_a_flip_names_the_card_it_turns_face_up_and_no_other():
    from games.gamebench.air_land_sea_cards import flip_action
    state = _als_table()
    assert public_label(state, 0, flip_action(1, 1)) == "flip face-down Heavy Tanks (Land)"
    assert public_label(state, 0, flip_action(1, 2)) == \
        "flip face-down Super Battleship (Sea)"


@pytest.mark.parametrize("seed", [1, 5, 8])
def test_als_a_seat_sees_the_others_moves_and_no_card_it_does_not_know(seed):
    match = _played("air_land_sea", 2, 20, seed)
    moves = match.record.moves
    assert any(m.public and "face-down" in m.public for m in moves)
    for seat in (0, 1):
        _others_in_order(match, seat)
        for j, move in enumerate(moves):
            if move.seat in (CHANCE, seat) or move.public is None:
                continue
            public_log = " ".join(replay(match.record, upto=j + 1).log)
            assert _names(move.public) <= _names(public_log), move  # named aloud by the rules
            if move.public.startswith("play a card face-down"):
                assert _names(move.label) and not _names(move.public), move


# --- the page, replays and spectators -----------------------------------------------------------


def _page(game: str, seed: int, moves: int, **params) -> PlaySession:
    session = PlaySession(game, "random", person=Person(new_player_id(), "Ada", consent=True),
                          seed=seed, params=params or None)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        session.run_agents()
        if session.over:
            break
        legal = [m for m in session.legal() if not m.says and m.label != "withdraw"]
        session.submit(ActionId(action=legal[int(rng.integers(len(legal)))].action))
    session.run_agents()
    assert not session.over
    return session


def _everything_seat_zero_is_shown(session: PlaySession) -> dict[str, list[str]]:
    """The texts that list moves for the person (seat 0) and for spectators, while the game
    runs: the page's list, its agent history, its replay, the spectators' public view. Only
    other seats' moves, and every move for spectators (they sit at no seat)."""
    match = session.match
    others = [m.label for m in match.visible_moves(0) if m.seat not in (0, CHANCE)]
    page = [line for line in session.moves() if ". You: " not in line]
    history = [m.label for m in match.view(0).history if m.seat not in (0, CHANCE)]
    seat_replay = replays.frame(session.record, -1, seat=0).moves
    public = spectate.spectate(session, spectate.PUBLIC).moves
    return {"list": others, "page": page, "history": history,
            "replay": [line for line in seat_replay if ". You: " not in line],
            "spectators": public}


@pytest.mark.parametrize("game,seed,moves", [("pit", 3, 25), ("two_rooms_and_a_boom", 2, 3),
                                             ("air_land_sea", 2, 4)])
def test_the_page_replay_and_spectators_list_the_others_moves_without_secrets(game, seed, moves):
    session = _page(game, seed, moves)
    seen = _everything_seat_zero_is_shown(session)
    assert seen["list"] and seen["list"] == seen["history"]
    numbers = [int(line.split(".")[0]) for line in session.moves()]
    assert numbers == list(range(1, len(numbers) + 1))
    assert len(seen["page"]) == len(seen["replay"]) == len(seen["list"]) + sum(
        1 for m in session.match.visible_moves(0) if m.seat == CHANCE)
    state = session.match.state
    if game == "pit":
        forbidden = PIT_WORDS
    elif game == "two_rooms_and_a_boom":
        forbidden = ROLES + ["dealt", "accept", "refuse", "share"]
    else:
        forbidden = [CARDS[c].name for c in range(len(CARDS))
                     if not (state.known[0][c] and state.known[1][c]) and not state.face_up[c]]
    for where, lines in seen.items():
        for line in lines:
            assert not any(re.search(rf"\b{re.escape(w)}\b", line) for w in forbidden), \
                (where, line)
    assert all(spectate.SEALED not in line for line in seen["spectators"])


def test_pit_the_others_see_how_many_cards_and_the_trader_sees_which():
    match = _played("pit", 4, 40, 7)
    offers = [m for m in match.record.moves if m.label.startswith("offer ")]
    trades = [m for m in match.record.moves if m.label.startswith("accept ")]
    assert offers and trades
    for move in offers:
        assert re.fullmatch(r"offer [1-4] cards?", move.public)
    for move in trades:
        assert re.fullmatch(r"accept player \d's offer of [1-4] cards?", move.public)
    for seat in range(4):
        _others_in_order(match, seat)
        mine = [m.label for m in match.visible_moves(seat) if m.seat == seat]
        assert mine == [m.label for m in match.record.moves if m.seat == seat]
        others = " ".join(m.label for m in match.visible_moves(seat) if m.seat != seat)
        assert not any(re.search(rf"\b{w}\b", others) for w in PIT_WORDS)


def test_two_rooms_rooms_leaders_and_turns_are_public_and_roles_are_not():
    match = _played("two_rooms_and_a_boom", 6, 30, 4)
    for seat in range(6):
        _others_in_order(match, seat)
        shown = match.visible_moves(seat)
        chance = [m.label for m in shown if m.seat == CHANCE]
        assert sum("starts in room" in c for c in chance) == 6
        assert sum("leads room" in c for c in chance) == 2
        text = " ".join(m.label for m in shown if m.seat != seat)
        assert not any(role in text for role in ROLES) and "dealt" not in text
        assert not re.search(r"\b(accept|refuse|share|say|send player)\b", text)
    assert any(m.public and m.public.startswith("take a turn in room") for m in match.record.moves)


def test_the_blind_auction_stays_sealed_until_the_end():
    spec = get("first_sealed_auction")
    assert spec.public_label is None
    players = spec.load().num_players()
    match = Match(spec.id, [RANDOM] * players, seed=3)
    seat = match.to_move()[0]
    match.submit(seat, ActionId(action=match.legal(seat)[-1].action))
    assert all(m.public is None for m in match.record.moves)
    if not match.over:
        for other in range(players):
            if other != seat:
                assert all(m.seat != seat for m in match.visible_moves(other))


def test_a_record_written_before_public_labels_still_loads_and_replays():
    match = _played("air_land_sea", 2, 12, 5)
    data = match.record.to_dict()
    for move in data["moves"]:
        del move["public"]
    old = MatchRecord.from_dict(data)
    assert all(m.public is None for m in old.moves)
    assert [m.label for m in old.moves] == [m.label for m in match.record.moves]
    assert str(replay(old)) == str(match.state)
    lines = replays.frame(old, -1, seat=0).moves  # the seat sees its own moves, as before
    assert len(lines) == sum(1 for m in old.moves if m.seat == 0)
    assert MatchRecord.from_json(match.record.to_json()).moves == match.record.moves
