"""Two Rooms and a Boom: the deck, rooms and leaders, shares seen only by the two seats, room
talk heard only in the room, hostages, the official win rule, teams in the record."""

from __future__ import annotations

import pyspiel
import pytest

from agents.specs import parse_spec
from games import registry, talk
from games.actions import MoveError, Text, resolve
from games.gamebench import two_rooms_and_a_boom as tr
from renderers import image_view, png, text_view
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord, replay
from sessions.tournament import play_one

SPEC = registry.get("two_rooms_and_a_boom")
R, B, P, X, G = tr.RED_TEAM, tr.BLUE_TEAM, tr.PRESIDENT, tr.BOMBER, tr.GAMBLER


def dealt(cards: list[int], rooms: list[int], leaders: tuple[int, int]) -> tr.TwoRoomsState:
    game = SPEC.load(SPEC.params({"num_players": len(cards)}))
    state = game.new_initial_state()
    for action in [*cards, *rooms, *leaders]:
        state.apply_action(action)
    return state


def play(state: pyspiel.State, text: str) -> None:
    move = resolve(SPEC, state, state.current_player(), Text(text=text))
    talk.apply(state, move.action, move.text)


SIX = ([P, X, R, R, B, B], [0, 0, 0, 1, 1, 1], (0, 3))
"""President and Bomber in room 1 (players 1-3), leaders player 1 and player 4."""


@pytest.mark.parametrize("players", range(6, 11))
def test_the_basic_deck_and_every_seat_is_told_its_card(players):
    params = SPEC.params({"num_players": players})
    pyspiel.random_sim_test(SPEC.load(params), num_sims=3, serialize=True, verbose=False)
    for seed in range(4):
        match = Match(SPEC.id, [SeatRecord("random", "random", "random")] * players,
                      seed=seed, params=params)
        state = match.state
        assert sorted(state.cards) == sorted(tr.deck(players))
        assert (G in state.cards) == (players % 2 == 1)
        assert sorted([state.rooms.count(0), state.rooms.count(1)]) == \
            [players // 2, (players + 1) // 2]
        for seat in range(players):
            card = tr.CARDS[state.cards[seat]]
            assert f"Your card: {card}" in text_view(SPEC.id, state, seat)
            shown = [m.label for m in match.visible_moves(seat)]
            assert not any("dealt" in label for label in shown)


def test_a_card_share_is_seen_by_the_two_seats_only():
    state = dealt(*SIX)
    play(state, "card share with player 2")
    assert state.current_player() == 1
    play(state, "accept")
    assert state.known(0)[1] == "Bomber" and state.known(1)[0] == "President"
    assert 1 not in state.known(2) and 0 not in state.known(2)
    for seat in (2, 3, 4, 5):
        view = text_view(SPEC.id, state, seat)
        assert "player 2: Bomber" not in view and "shows player" not in view
    assert "shows player 1: Bomber" in text_view(SPEC.id, state, 0)
    assert "shows player 1" not in text_view(SPEC.id, state, 2)
    assert "a card share with player 2" in text_view(SPEC.id, state, 2)  # room sees it happen
    assert "card share" not in text_view(SPEC.id, state, 4)  # the other room does not


def test_the_other_room_is_not_told_that_a_share_was_offered():
    """While player 2 answers player 1's share, the other room's views (text, image, who is
    shown acting) are exactly what they were before the offer: player 1's turn goes on."""
    from renderers import seen_to_move

    state = dealt(*SIX)  # player 1 speaks first; room 1 is players 1-3, room 2 players 4-6
    before = {seat: (text_view(SPEC.id, state, seat), png(image_view(SPEC.id, state, seat)))
              for seat in (3, 4, 5)}
    play(state, "card share with player 2")
    assert state.current_player() == 1  # player 2 answers
    for seat in (3, 4, 5):
        now = text_view(SPEC.id, state, seat)
        assert "Player 1 is to act." in now and "Player 2" not in now.split("\n")[-1]
        assert (now, png(image_view(SPEC.id, state, seat))) == before[seat]
        assert seen_to_move(SPEC.id, state, seat, [1]) == [0]
    assert seen_to_move(SPEC.id, state, None, [1]) == [0]  # spectators: the public view
    for seat in (0, 2):  # the giver's room heard the offer: it sees player 2 answer
        assert "Player 2 is to act." in text_view(SPEC.id, state, seat)
        assert seen_to_move(SPEC.id, state, seat, [1]) == [1]
    assert "Your turn: player 1 offers a card share" in text_view(SPEC.id, state, 1)
    play(state, "accept")
    assert state.current_player() == 1 and "Player 2 is to act." in text_view(SPEC.id, state, 4)


def test_room_talk_stays_in_the_room_and_words_are_checked():
    state = dealt(*SIX)
    with pytest.raises(MoveError, match="say: <statement>"):
        resolve(SPEC, state, 0, Text(text="ask player 2: who are you?"))
    with pytest.raises(MoveError, match="characters"):
        resolve(SPEC, state, 0, Text(text="say: " + "x" * 20_000))
    play(state, "say: I am the President, trust me")
    assert "trust me" in text_view(SPEC.id, state, 2)
    assert "trust me" not in text_view(SPEC.id, state, 3)


def test_a_colour_share_refused_shows_nothing():
    state = dealt(*SIX)
    play(state, "colour share with player 3")
    play(state, "refuse")
    assert 2 not in state.known(0) and 0 not in state.known(2)
    state = dealt(*SIX)
    play(state, "colour share with player 3")
    play(state, "accept")
    assert state.known(0)[2] == "red team" and state.known(2)[0] == "blue team"


def test_seats_see_the_same_whatever_cards_they_were_not_shown():
    """Swapping two cards a seat has not seen changes nothing in its text or image."""
    cards, rooms, leaders = SIX
    for seat in range(6):
        for a, b in ((1, 2), (3, 4), (1, 5)):
            if seat in (a, b):
                continue
            other = list(cards)
            other[a], other[b] = other[b], other[a]
            if other == cards:
                continue
            one, two = dealt(cards, rooms, leaders), dealt(other, rooms, leaders)
            for state in (one, two):
                play(state, "say: hello")
            assert text_view(SPEC.id, one, seat) == text_view(SPEC.id, two, seat)
            assert png(image_view(SPEC.id, one, seat)) == png(image_view(SPEC.id, two, seat))


def test_hostages_then_the_official_win_rule():
    state = dealt(*SIX)
    for round_number in range(3):
        while not state.choosing:
            play(state, "pass")
        assert state.current_player() == 0  # room 1's leader
        with pytest.raises(MoveError):
            resolve(SPEC, state, 0, Text(text="send player 1"))  # not the leader
        mates = [s for s in state.room_of(0) if s != 0]
        play(state, f"send player {mates[0] + 1}")
        assert state.current_player() == 3
        play(state, f"send player {[s for s in state.room_of(3) if s != 3][0] + 1}")
        assert state.round == round_number + 1
    assert state.is_terminal()
    together = state.rooms[1] == state.rooms[0]
    assert state.red_wins() == together
    red = 1.0 if together else -1.0
    assert state.returns() == [-red, red, red, red, -red, -red]


def test_the_gambler_bets_last_and_teams_are_recorded():
    for seed in range(3):
        record = play_one(SPEC.id, [parse_spec("random")] * 7, seed=seed,
                          params={"num_players": 7})
        assert record.outcome == "normal"
        gambler = replay(record).gambler()
        assert record.moves[-1].seat == gambler and "bet" in record.moves[-1].label
        assert record.seats[gambler].team == "grey"
        assert sorted(s.team for s in record.seats) == ["blue"] * 3 + ["grey"] + ["red"] * 3
        restored = MatchRecord.from_json(record.to_json())
        assert list(replay(restored).returns()) == record.returns


def test_the_page_shows_the_other_room_the_givers_turn_during_a_share():
    """A person in the other room: the status line and the talk panel's speaking seat name
    the giver while the offered player answers."""
    from sessions.web.play import PlaySession
    from sessions.web.players import Person
    from sessions.web.talk import talk_screen

    s = PlaySession(SPEC.id, ["random"] * 5, person=Person("player-rooms-1", consent=True),
                    seat=5, seed=0)
    state = s.match.state
    giver = state.current_player()
    assert giver != 5 and state.rooms[5] != state.rooms[giver]  # seed 0: player 1 speaks
    mate = next(x for x in state.room_of(giver) if x != giver)
    s.match.submit(giver, Text(text=f"card share with player {mate + 1}"))
    assert s.match.to_move() == [mate]
    assert s.status() == f"Waiting for player {giver + 1} (Random)."
    speaking = [seat.speaking for seat in talk_screen(s).seats]
    assert speaking == [seat == giver for seat in range(6)]
