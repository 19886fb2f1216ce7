"""Codenames: the deal, clue legality through the adapter, guesses, the end, teams, replays,
and what each seat may see."""

from __future__ import annotations

import re

import pyspiel
import pytest

from games import registry
from games.actions import ActionId, IllegalMove, MoveError, Text, TooLongMove, resolve
from games.gamebench import codenames as cn
from games.gamebench.codenames_words import WORDS
from renderers import image_view, png, text_view
from sessions.match import Match
from sessions.record import MatchRecord, SeatRecord, replay

SPEC = registry.get("codenames")
R, B, N, A = cn.RED, cn.BLUE, cn.BYSTANDER, cn.ASSASSIN
KEY = [R] * 9 + [B] * 8 + [N] * 7 + [A]
"""Cards 0-8 red, 9-16 blue, 17-23 bystanders, 24 the assassin (red starts)."""


def dealt(key: list[int] = KEY, first: int = 0, words: range = range(25)) -> cn.CodenamesState:
    state = SPEC.load().new_initial_state()
    for action in [*words, first, *key]:
        state.apply_action(action)
    return state


def play(state: pyspiel.State, text: str) -> None:
    move = resolve(SPEC, state, state.current_player(), Text(text=text))
    from games import talk

    talk.apply(state, move.action, move.text)


def seats() -> list[SeatRecord]:
    return [SeatRecord("random", "random", "random") for _ in range(4)]


def test_the_deal_is_the_official_board_from_the_seed():
    for seed in range(6):
        match = Match("codenames", seats(), seed=seed)
        state = match.state
        assert len(set(state.words)) == 25
        counts = [state.key.count(role) for role in (R, B, N, A)]
        first = state.first
        assert counts[first] == 9 and counts[1 - first] == 8 and counts[2:] == [7, 1]
        assert match.to_move() == [2 * first]  # the starting team's spymaster
    assert len(WORDS) == len(set(WORDS)) == 400
    assert not any(a != b and a in b for a in WORDS for b in WORDS)


@pytest.mark.parametrize("clue,why", [
    ("clue: alien 2", "ALIEN is a card on the board"),
    ("clue: aliens 2", "ALIENS is a form of ALIEN, a card on the board"),
    ("clue: bankers 2", "BANKERS is a form of BANK"),
    ("clue: port 2", "PORT is part of AIRPORT (AIR + PORT), a card on the board"),
    ("clue: airline 2", "AIRLINE is made of AIR + LINE, and AIR is part of AIRPORT"),
    ("clue: ice cream 2", "one word"),
    ("clue: wave 26", "more than the 25 cards still hidden"),
    ("clue: wave many", "not a number (0 to 25) or unlimited"),
    ("clue: wave", "one word and a number"),
    ("clue: r2d2 1", "one word"),
    ("clue: " + "a" * 40 + " 1", "at most 30"),
])
def test_illegal_clues_are_refused_with_the_reason_and_change_nothing(clue, why):
    state = dealt()  # words 0-24 of the list
    with pytest.raises(MoveError) as caught:
        resolve(SPEC, state, 0, Text(text=clue))
    assert why in str(caught.value)
    assert cn.CLUE_HINT in str(caught.value)


def test_words_that_only_hold_a_cards_letters_are_legal_clues():
    """The official rule bars a visible word, its forms and the parts of a compound card;
    INK in THINK, CAT in EDUCATION, HAT in WHAT and LOG in BIOLOGY are only letters."""
    cards = [WORDS.index(w) for w in ("ink", "cat", "hat", "log", "cowboy", "lead", "mouse",
                                          "snow", "wave", "popcorn", "pole", "bee")]
    state = dealt(words=[*cards, *[i for i in range(25) if i not in cards][:25 - len(cards)]])
    assert {"ink", "cat", "hat", "log", "cowboy", "lead"} <= set(state.visible_words())
    for clue in ("THINK", "EDUCATION", "WHAT", "BIOLOGY", "CATER", "SCAT", "COWARD",
                 "CORNER", "POLICY", "BEING"):  # look like forms of POPCORN's CORN, POLE, BEE
        assert resolve(SPEC, state, 0, Text(text=f"clue: {clue} 2")).text == clue
    for clue, why in (("inks", "INKS is a form of INK"), ("led", "LED is a form of LEAD"),
                      ("mice", "MICE is a form of MOUSE"), ("boy", "BOY is part of COWBOY"),
                      ("boyhood", "BOYHOOD is made of BOY + HOOD"),
                      ("snowman", "SNOWMAN is made of SNOW + MAN"),
                      ("backlog", "BACKLOG is made of BACK + LOG")):
        with pytest.raises(IllegalMove, match=re.escape(why)):
            resolve(SPEC, state, 0, Text(text=f"clue: {clue} 1"))


def test_the_rulebooks_own_examples_of_barred_clues():
    for clue in ("break", "broken", "breakage", "breaks"):
        assert cn.clashes(clue, ["break"]) is not None, clue
    for clue in ("horse", "shoe", "unhorsed", "snowshoe", "horseshoes"):
        assert cn.clashes(clue, ["horseshoe"]) is not None, clue
    assert cn.clashes("snowshoe", ["horseshoe"]) == (
        "SNOWSHOE is made of SNOW + SHOE, and SHOE is part of HORSESHOE (HORSE + SHOE), a card "
        "on the board")
    for clue in ("breakfast", "horsefly"):  # BREAKFAST: BREAK + FAST is a compound too
        assert cn.clashes(clue, ["break", "horseshoe"]) is not None


def test_a_clue_number_may_be_any_up_to_the_cards_still_hidden():
    state = dealt()
    move = resolve(SPEC, state, 0, Text(text="OCEAN 12"))
    assert (move.action, move.label) == (cn.clue_action(12), "clue: OCEAN 12")
    assert resolve(SPEC, state, 0, Text(text=move.label)).action == move.action
    assert cn.clue_action(25) in state.legal_actions() and cn.UNLIMITED == cn.CLUE + 10
    play(state, "clue: ocean 12")
    assert state.guess_limit() == 13
    play(state, f"guess {WORDS[0]}")  # two red agents, then red stops: 23 cards hidden
    play(state, f"guess {WORDS[1]}")
    play(state, "end turn")
    assert cn.clue_action(24) not in state.legal_actions()
    assert cn.clue_action(23) in state.legal_actions()
    with pytest.raises(IllegalMove, match="24 is more than the 23 cards still hidden"):
        resolve(SPEC, state, 2, Text(text="clue: ocean 24"))


def test_a_refused_clue_changes_nothing_and_is_recorded_as_an_attempt():
    match = Match("codenames", seats(), seed=0)
    before = (str(match.state), len(match.record.moves))
    seat = match.to_move()[0]
    board_word = match.state.visible_words()[0]
    for clue in (f"clue: {board_word} 2", "clue: two words 1", "x" * 20_000):
        with pytest.raises(MoveError):
            match.submit(seat, Text(text=clue))
    assert (str(match.state), len(match.record.moves)) == before
    assert [a.reason for a in match.attempts(seat)] == ["illegal", "illegal", "too_long"]


def test_twenty_thousand_characters_of_talk_are_refused():
    with pytest.raises(TooLongMove):
        resolve(SPEC, dealt(), 0, Text(text="clue: " + "x" * 20_000 + " 2"))


def test_a_legal_clue_carries_its_word_and_number():
    state = dealt()
    move = resolve(SPEC, state, 0, Text(text="Clue:  wave 2"))
    assert (move.action, move.text, move.label) == (cn.CLUE + 2, "WAVE", "clue: WAVE 2")
    again = resolve(SPEC, state, 0, Text(text=move.label))
    assert (again.action, again.text) == (move.action, move.text)  # the label round-trips
    for written in ("wave unlimited", "clue: wave ∞", "WAVE, unlimited"):
        assert resolve(SPEC, state, 0, Text(text=written)).action == cn.UNLIMITED
    llm = "The best link is the sea.\nFinal answer: clue: WAVE 0"
    assert resolve(SPEC, state, 0, Text(text=llm, source="llm")).text == "WAVE"
    assert resolve(SPEC, state, 0, Text(text='{"move": "clue: tide 3"}',
                                        source="llm")).text == "TIDE"


def test_a_revealed_cards_word_may_be_a_clue():
    state = dealt()
    word = WORDS[0].upper()
    with pytest.raises(IllegalMove):
        resolve(SPEC, state, 0, Text(text=f"clue: {word} 1"))
    play(state, "clue: zebu 1")
    play(state, f"guess {word}")  # red agent: red goes on
    play(state, "end turn")
    play(state, "clue: zebu 1")
    play(state, f"guess {WORDS[9]}")  # blue agent
    play(state, "end turn")
    assert resolve(SPEC, state, 0, Text(text=f"clue: {word} 1")).text == word


def test_operatives_guess_up_to_n_plus_one_and_must_guess_once():
    state = dealt()
    play(state, "clue: ocean 1")
    assert cn.END_TURN not in state.legal_actions()  # at least one guess first
    with pytest.raises(IllegalMove):
        resolve(SPEC, state, 1, Text(text="end turn"))
    play(state, f"guess {WORDS[0]}")
    assert state.current_player() == 1 and cn.END_TURN in state.legal_actions()
    play(state, f"guess {WORDS[1]}")  # the +1 guess, then the turn passes
    assert state.current_player() == 2
    play(state, "clue: ocean 0")  # 0: any number of guesses
    for card in range(9, 16):
        play(state, f"guess {WORDS[card]}")
        assert state.current_player() == 3
    play(state, f"guess {WORDS[17]}")  # a bystander ends the turn
    assert state.current_player() == 0


def test_the_assassin_loses_and_the_last_agent_wins_for_its_team():
    state = dealt()
    play(state, "clue: ocean 2")
    play(state, f"guess {WORDS[24]}")
    assert state.is_terminal() and state.returns() == [-1.0, -1.0, 1.0, 1.0]
    state = dealt(key=[R] * 9 + [B] * 8 + [N] * 7 + [A])
    for card in range(9):  # red finds all but the last... then blue reveals red's last
        if card < 8:
            play(state, "clue: ocean unlimited")
            play(state, f"guess {WORDS[card]}")
            play(state, "end turn")
            play(state, "clue: ocean 1")
            play(state, f"guess {WORDS[17 + card % 7]}" if card < 7 else f"guess {WORDS[9]}")
            if state.current_player() == 3:
                play(state, "end turn")
    assert state.current_player() == 0
    play(state, "clue: ocean 1")
    play(state, f"guess {WORDS[8]}")
    assert state.is_terminal() and state.winner == 0


def test_a_match_records_words_teams_and_team_scores_and_replays():
    match = Match("codenames", seats(), seed=3)
    first = match.state.first
    while not match.over:
        seat = match.to_move()[0]
        state = match.state
        if not state.guessing:
            word = "zebu" if not cn.clashes("zebu", state.visible_words()) else "gnu"
            match.submit(seat, Text(text=f"clue: {word} 1"))
        else:
            own = [c for c in hidden_cards(state) if state.key[c] == state.team]
            match.submit(seat, ActionId(action=own[0] if own else cn.END_TURN))
    record = match.record
    assert [s.team for s in record.seats] == ["red", "red", "blue", "blue"]
    winner = match.state.winner
    assert record.scores == ([1.0, 1.0, 0.0, 0.0] if winner == 0 else [0.0, 0.0, 1.0, 1.0])
    assert first in (0, 1)
    clues = [m for m in record.moves if m.text is not None]
    assert clues and all(m.text in ("ZEBU", "GNU") for m in clues)
    restored = MatchRecord.from_json(record.to_json())
    assert restored == record
    state = replay(restored)
    assert state.events == match.state.events and state.returns() == match.state.returns()


def hidden_cards(state: cn.CodenamesState) -> list[int]:
    return [c for c in range(25) if not state.revealed[c]]


def test_operatives_never_see_the_key_until_it_is_revealed():
    """Two deals that differ only in hidden roles look the same to both operatives (text and
    image), and different to the spymasters."""
    other = list(KEY)
    other[0], other[24] = other[24], other[0]  # the assassin moves
    states = [dealt(KEY), dealt(other)]
    for state in states:
        play(state, "clue: ocean 2")
    for seat in (1, 3):
        assert text_view("codenames", states[0], seat) == text_view("codenames", states[1], seat)
        images = [png(image_view("codenames", s, seat)) for s in states]
        assert images[0] == images[1]
        assert "assassin" not in text_view("codenames", states[0], seat).split("Clues")[0]
    for seat in (0, 2):
        assert text_view("codenames", states[0], seat) != text_view("codenames", states[1], seat)
    play(states[0], f"guess {WORDS[1]}")
    assert f"{WORDS[1].upper()} = red agent (revealed)" in text_view("codenames", states[0], 3)


def test_every_seats_view_and_prompt_hide_the_key_along_a_game():
    """Along a seeded game, the operatives' views, move lists and prompts never name a hidden
    card's role."""
    from agents.llm import prompts
    from agents.specs import make_agent
    from sessions.engine import play_match

    match = Match("codenames", seats(), seed=11)
    agents = [make_agent("random", SPEC, match.record.params, seed=s) for s in range(4)]
    views = []

    def look(m: Match) -> None:
        state = m.state
        if state.is_terminal():
            return  # the rules reveal the key at the end
        for seat in (1, 3):
            view = m.view(seat)
            hidden = {state.word(c) for c in hidden_cards(state)}
            text = view.text + "\n".join(mv.label for mv in view.history)
            if view.legal:
                text += prompts.position(view, image=False).context
            for word in hidden:
                for role in cn.ROLE_NAMES:
                    assert f"{word} ({role})" not in text and f"{word}: {role}" not in text
            views.append(text)

    play_match(match, agents, on_move=look)
    assert views
