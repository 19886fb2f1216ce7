"""Are You the Traitor?: the official chart, random sides, who knows what, talk through the
adapter, stops and treasure, the end; no seat ever sees a character the rules hide."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from agents.specs import parse_spec
from games import registry, talk
from games.actions import MoveError, Text, resolve
from games.gamebench import are_you_the_traitor as ayt
from renderers import image_view, text_view
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord, replay
from sessions.tournament import play_one

SPEC = registry.get("are_you_the_traitor")
K, G, T, W = ayt.KEYHOLDER, ayt.GUARD, ayt.TRAITOR, ayt.WIZARD


def dealt(characters: list[int], alignments: list[int], **params) -> ayt.TraitorState:
    game = SPEC.load(SPEC.params({"num_players": len(characters), **params}))
    state = game.new_initial_state()
    for action in [*characters, *alignments]:
        state.apply_action(action)
    return state


def say(state: pyspiel.State, text: str) -> None:
    move = resolve(SPEC, state, state.current_player(), Text(text=text))
    talk.apply(state, move.action, move.text)


@pytest.mark.parametrize("players", range(4, 11))
def test_the_official_chart_and_random_sides(players):
    params = SPEC.params({"num_players": players})
    pyspiel.random_sim_test(SPEC.load(params), num_sims=3, serialize=True, verbose=False)
    sides_seen = [set() for _ in range(players)]
    for seed in range(12):
        state = Match("are_you_the_traitor", [SeatRecord("random", "random", "random")] *
                      players, seed=seed, params=params).state
        assert [state.characters.count(c) for c in range(4)] == list(ayt.CHART[players])
        for seat, side in enumerate(state.sides):
            sides_seen[seat].add(side)
    assert all(seen == {ayt.GOOD, ayt.EVIL} for seen in sides_seen)  # never fixed to a side


def test_who_knows_what():
    five = dealt([K, G, T, W, W], [ayt.GOOD, ayt.EVIL])
    assert five.known(1) == {1: "Guard", 3: "Wizard", 4: "Wizard"}  # no Keyholder below 6
    assert five.known(3) == {3: "Good Wizard", 4: "Wizard"}
    six = dealt([K, G, G, T, W, W], [ayt.EVIL, ayt.GOOD])
    assert six.known(3)[0] == "Keyholder" and 0 not in six.known(4)  # not to Wizards
    eight = dealt([K, G, G, G, T, T, W, W], [ayt.GOOD, ayt.EVIL])
    assert eight.known(4)[5] == "Traitor" and 5 not in eight.known(1)


def test_every_seat_sees_the_same_in_worlds_it_cannot_tell_apart():
    """Swapping the characters of two seats a viewer knows nothing about changes nothing in
    its text view or its image; for every seat of several deals and player counts."""
    rng = np.random.default_rng(0)
    for players in (4, 5, 6, 8, 10):
        counts = ayt.CHART[players]
        for _ in range(2):
            deal = [c for c, n in enumerate(counts) for _ in range(n)]
            rng.shuffle(deal)
            wizards = [1] * deal.count(W)
            aligned = [ayt.GOOD if i % 2 == 0 else ayt.EVIL for i in range(len(wizards))]
            state = dealt(list(deal), aligned)
            for seat in range(players):
                known = state.known(seat)
                hidden = [s for s in range(players) if s not in known]
                pairs = [(a, b) for a in hidden for b in hidden
                         if a < b and deal[a] != deal[b]]
                for a, b in pairs[:2]:
                    other = list(deal)
                    other[a], other[b] = other[b], other[a]
                    twin = dealt(other, aligned)
                    assert text_view(SPEC.id, state, seat) == text_view(SPEC.id, twin, seat)
                    assert image_view(SPEC.id, state, seat).tobytes() == \
                        image_view(SPEC.id, twin, seat).tobytes()


def test_questions_answers_and_bad_talk():
    state = dealt([K, G, T, W, W], [ayt.GOOD, ayt.EVIL])
    with pytest.raises(MoveError, match="say whom you ask"):
        resolve(SPEC, state, 0, Text(text="ask: who are you?"))
    with pytest.raises(MoveError, match="there is no player 9"):
        resolve(SPEC, state, 0, Text(text="ask player 9: hello?"))
    with pytest.raises(MoveError, match="characters"):
        resolve(SPEC, state, 0, Text(text="say: " + "x" * 20_000))
    say(state, "ask player 3: Are you the Traitor?")
    assert state.current_player() == 2 and state.legal_actions() == [ayt.ANSWER]
    with pytest.raises(MoveError):
        resolve(SPEC, state, 2, Text(text="pass"))  # the asked player must answer
    say(state, "answer: No, I guard the key.")
    assert state.current_player() == 1
    lines = [(u.speaker, u.kind, u.text) for u in state.talk]
    assert lines == [(0, "asks", "(to player 3) Are you the Traitor?"),
                     (2, "answers", "No, I guard the key.")]


def test_a_right_stop_pays_the_callers_side_and_a_traitor_cannot_stop():
    state = dealt([K, G, T, W, W], [ayt.GOOD, ayt.EVIL])
    say(state, "pass")
    say(state, "stop: accuse player 3")  # the Guard finds the Traitor
    assert state.stop == (1, 2, True)
    payees = state.payees
    assert payees == [0, 1, 3]  # Keyholder, Guard, Good Wizard
    state = dealt([G, K, T, W, W], [ayt.GOOD, ayt.EVIL])
    say(state, "pass")
    say(state, "pass")
    assert state.current_player() == 2
    assert not any(a >= ayt.STOP and a < ayt.PASS for a in state.legal_actions())
    state = dealt([K, G, T, W, W], [ayt.EVIL, ayt.GOOD])
    say(state, "stop: accuse player 4")  # the Keyholder hands the key to the Evil Wizard
    assert state.stop == (0, 3, False) and state.payees == [2, 3]


def test_two_laps_without_a_stop_end_the_round_with_no_treasure():
    state = dealt([K, G, T, W, W], [ayt.GOOD, ayt.EVIL])
    for _ in range(ayt.LAPS * 5):
        say(state, "say: hello")
    assert state.round == 1 and not any(state.treasure)
    assert state.is_chance_node()  # the next deal
    assert state.first == 1


def test_the_move_list_never_shows_the_deal():
    match = Match(SPEC.id, [SeatRecord("random", "random", "random")] * 5, seed=1)
    for seat in range(5):
        shown = [m.label for m in match.visible_moves(seat)]
        assert not any("dealt" in label or " is good" in label or " is evil" in label
                       for label in shown)


def test_whole_games_record_words_and_replay():
    for seed in range(3):
        record = play_one(SPEC.id, [parse_spec("random")] * 5, seed=seed)
        assert record.outcome == "normal"
        said = [m for m in record.moves if m.text is not None]
        assert said
        restored = MatchRecord.from_json(record.to_json())
        state = replay(restored)
        assert state.is_terminal() and list(state.returns()) == record.returns
        assert [u.text for u in state.talk] == [u.text for u in replay(record).talk]
        assert all(s.team is None for s in record.seats)  # sides change every round
