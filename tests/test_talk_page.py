"""The table-talk panel without a browser: a person in any Codenames seat with agents in the
others; what was said, by whom, who is speaking; bad words get a notice and change nothing."""

from __future__ import annotations

import pytest

from agents import embedding
from sessions.web.play import PlaySession
from sessions.web.players import Person
from sessions.web.talk import talk_screen, talk_setup

PERSON = Person("player-talk-1", consent=True)
OTHERS = "minilm" if embedding.missing() is None else "random"


def session(seat: int, seed: int = 4) -> PlaySession:
    return PlaySession("codenames", [OTHERS] * 3, person=PERSON, seat=seat, seed=seed)


def _snapshot(s: PlaySession) -> tuple[str, int]:
    return str(s.match.state), len(s.record.moves)


def test_a_person_gives_clues_and_bad_words_change_nothing():
    s = session(0, seed=2)
    s.run_agents()  # blue may start
    assert s.your_turn
    screen = talk_screen(s)
    assert screen.prompt.startswith("Your turn: clue:")
    assert [seat.name for seat in screen.seats] == ["Red spymaster", "Red operative",
                                                    "Blue spymaster", "Blue operative"]
    assert [seat.team for seat in screen.seats] == ["red", "red", "blue", "blue"]
    assert screen.seats[0].you and screen.seats[0].speaking
    before = _snapshot(s)
    board_word = s.match.state.visible_words()[0]
    for bad, notice in ((f"clue: {board_word} 2", "is a card on the board"),
                        ("clue: sea breeze 2", "one word"),
                        ("x" * 20_000, "20,000 characters"),
                        ("clue: wave 30", "cards still hidden; the number is 0 to")):
        said = s.play_text(bad)
        assert notice in said and _snapshot(s) == before
    assert s.play_text("clue: puzzle 1") == "Your move: clue: PUZZLE 1."
    lines = talk_screen(s).lines
    assert (lines[-1].speaker, lines[-1].kind, lines[-1].text, lines[-1].yours) == \
        ("Red spymaster", "clue", "PUZZLE 1", True)
    assert "It is not your turn" in s.play_text("clue: other 1") or s.over


def test_talk_out_of_turn_gets_a_notice():
    s = session(1)
    if s.your_turn:
        s.play_text("end turn")
    notice = s.play_text("clue: wave 2")
    assert "not your turn" in notice or "not a move you may make now" in notice


def test_an_operative_hears_its_spymaster_and_plays_to_the_end():
    s = session(1, seed=6)
    s.run_agents()
    heard = talk_screen(s).lines
    assert heard and heard[-1].speaker == "Red spymaster" and heard[-1].kind == "clue"
    snapshot = s.snapshot()
    assert snapshot["talk"][-1]["speaker"] == "Red spymaster"
    assert [t["team"] for t in snapshot["table"]] == ["red", "red", "blue", "blue"]
    while not s.over:
        legal = s.legal()
        guess = next(m for m in legal if not m.says)
        s.play_label(guess.label)
        s.run_agents()
    assert s.record.outcome == "normal"
    assert [seat.team for seat in s.record.seats] == ["red", "red", "blue", "blue"]
    won = s.record.scores[1] == 1.0
    assert s.result().startswith(f"Game over: your team (red) {'won' if won else 'lost'}.")
    assert s.record.seats[1].kind == "human" and s.record.seats[1].entity == "human"


@pytest.mark.parametrize("seat", [0, 2, 3])
def test_any_seat_may_be_taken(seat):
    s = session(seat)
    s.run_agents()
    assert s.your_turn or s.over
    setup = talk_setup("codenames", None, seat)
    assert setup.players == 4 and len(setup.others) == 3
    assert setup.seat_choices[seat][0] == talk_screen(s).seats[seat].name
