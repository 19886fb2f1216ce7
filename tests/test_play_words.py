"""What the Play tab says to a person (issue 22): refusals in people's words (the record keeps
the adapter's message for models), who plays first, one name per side, the talk box's
prompt and plain sentences, looking back at a finished game, a countdown that never jumps
up, kind words for stale clicks. All without a browser; the page's side is in
tests/test_browser_play_words.py."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

from agents.base import Decision, SeatView
from games.actions import ActionId
from renderers import side_name
from sessions.web.play import PlaySession
from sessions.web.players import Person
from sessions.web.talk import talk_screen

PERSON = Person("player-words-1", consent=True)


def _snapshot(session: PlaySession) -> tuple:
    return (repr(session.match.state), len(session.record.moves), session.selection)


def test_a_taken_cell_a_turned_card_and_a_blocked_withdraw_are_said_plainly():
    ttt = PlaySession("tic_tac_toe", "random", person=PERSON, seed=1)
    ttt.play_text("C2R2")
    ttt.run_agents()
    taken = next(m.label for m in ttt.record.moves if m.seat == 1)
    assert ttt.click_target(taken) == "That cell is taken."

    als = PlaySession("air_land_sea", "random", person=PERSON, seat="first", seed=4)
    als.run_agents()
    card = next(m.path[0] for m in als.legal() if len(m.path) > 1)
    assert "selected" in als.click_target(card)
    before = _snapshot(als)
    assert als.click_target("withdraw") == f"Deselect {card} to withdraw."
    assert _snapshot(als) == before

    cn = PlaySession("codenames", ["random"] * 3, person=PERSON, seat=1, seed=6)
    cn.run_agents()
    for _ in range(40):
        turned = [cn.match.state.word(c) for c in range(len(cn.match.state.words))
                  if cn.match.state.revealed[c]]
        if turned and cn.your_turn and cn.match.state.guessing:
            break
        guess = next(m for m in cn.legal() if not m.says)
        cn.play_label(guess.label)
        cn.run_agents()
    assert turned and cn.your_turn, "no card was turned on the operative's turn"
    before = _snapshot(cn)
    assert cn.click_target(turned[0]) == f"{turned[0]} is already turned."
    assert _snapshot(cn) == before


def test_typed_refusals_are_short_and_the_record_keeps_the_models_message():
    hive = PlaySession("hive", "random", person=PERSON, seed=2)
    hive.run_agents()
    notice = hive.play_text("wZ9 nonsense")
    assert len(notice) < 250 and "Legal moves" not in notice and "(input:" not in notice
    [attempt] = hive.match.attempts(hive.human)
    assert "Legal moves:" in attempt.message and attempt.message == hive.snapshot()["detail"]
    assert hive.play_text("   ") == "Type a move first."


def test_traitor_answering_prompt_lists_only_answers_and_plain_words_are_statements():
    s = PlaySession("are_you_the_traitor", "random", person=PERSON, seat=0, seed=3)
    s.run_agents()
    prompt = talk_screen(s).prompt
    assert prompt.startswith("Your turn: ask player <N>") and "say: <statement>" in prompt
    assert s.play_text("ask player 2").startswith("“ask player 2” has no words: write them "
                                                  "after a colon. Now you may: ask player")
    assert s.play_text("hello everyone") == "Your move: say: hello everyone."
    s.run_agents()
    for _ in range(30):  # until someone asks the person
        if s.legal() and all(m.label.startswith("answer") for m in s.legal()):
            break
        if s.over:
            break
        ask = next((m for m in s.legal() if m.label.startswith("ask")), s.legal()[-1])
        s.play_text(ask.label)
        s.run_agents()
    assert all(m.label.startswith("answer") for m in s.legal()), "nobody asked the person"
    screen = talk_screen(s)
    assert screen.prompt.startswith("Your turn: answer: <words>"), screen.prompt
    assert "ask player" not in screen.prompt and "say:" not in screen.prompt
    before = _snapshot(s)
    refused = s.play_text("say: I am good")
    assert refused.startswith("“say: I am good” cannot be played now. Now you may: answer:")
    assert "say:" not in refused.split("Now you may:")[1] and _snapshot(s) == before
    assert s.play_text("I guard the key").startswith("Your move: answer: I guard the key")


def test_seat_words_match_who_acts_first_and_sea_battle_names_sides_by_colour():
    orders = set()
    for seed in range(3):  # the first initiator is drawn: the person is first or second
        s = PlaySession("arctic_scavengers", "random", person=PERSON, seat=0, seed=seed)
        first = next(m.seat for m in s.record.moves if m.seat >= 0) if any(
            m.seat >= 0 for m in s.record.moves) else s.match.to_move()[0]
        assert s.order_words() == ("first" if first == 0 else "second")
        orders.add(s.order_words())
    assert orders == {"first", "second"}
    assert [side_name("sea_battle", seat) for seat in (0, 1)] == ["Red", "Blue"]
    sea = PlaySession("sea_battle", "random", person=PERSON, seat=0, seed=1)
    assert sea.order_words() == ""  # both sides order at once
    notice = sea.click_target(sea.legal()[0].path[0])
    assert notice.startswith("ship 1: ") and "Now pick ship 2's order" in notice
    assert "highlighted spot" not in notice


def test_looking_back_at_a_finished_game_does_not_say_it_goes_on():
    s = PlaySession("tic_tac_toe", "random", person=PERSON, seed=1)
    s.play_text("C1R1")
    s.run_agents()
    assert s.look("back") == "Looking back: the game goes on; Now » returns to it."
    s.look("last")
    s.resign()
    said = s.look("back")
    assert "goes on" not in said and "finished" in said
    assert "see how it ended" in s.status()


class _Speaking:
    """An LLM-like seat whose deadline moves later once its provider answers."""

    def __init__(self) -> None:
        self.budget = SimpleNamespace(turn_seconds=180.0)
        self.release = threading.Event()
        self.started = threading.Event()
        self.deadline: float | None = None

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        self.deadline = time.monotonic() + 112  # silent so far: the first-token limit
        self.started.set()
        assert self.release.wait(10)
        return Decision(ActionId(action=view.legal[0].action), raw=view.legal[0].label)


def test_the_thinking_countdown_never_jumps_up():
    agent = _Speaking()
    s = PlaySession("tic_tac_toe", "random", person=PERSON, seat="second", seed=1,
                    build_agent=lambda spec, game, params, *, seed: agent)
    progress = s.advance(poll=0.01)
    next(progress)
    assert agent.started.wait(5)
    shown = [s.status()]
    agent.deadline = time.monotonic() + 150  # still silent, with a later limit
    shown.append(s.status())
    agent.deadline = s.agents.since((1,)) + 180  # the provider answers: the move's limit
    shown.append(s.status())
    agent.deadline = time.monotonic() + 500
    shown.append(s.status())
    assert shown[0].endswith("(no answer yet: gives up in 112 s)"), shown
    silent = [int(t.split("gives up in ")[1].split(" s")[0]) for t in shown[:2]]
    most = [int(t.split("at most ")[1].split(" s")[0]) for t in shown[2:]]
    assert silent[1] <= silent[0] and most[1] <= most[0] <= 180, shown
    agent.release.set()
    list(progress)


def test_stale_and_waiting_clicks_get_kind_short_words():
    s = PlaySession("tic_tac_toe", "random", person=PERSON, seat="first", seed=2)
    s.play_text("C1R1", expected=1)
    s.run_agents()
    stale = s.play_text("C2R2", expected=1)
    assert stale == ("The board changed before that arrived, so it was not played: have a "
                     "look and play again.")
    assert "move 1" not in stale and len(stale) < 100


def test_an_agents_turn_built_in_steps_is_one_move_in_the_list_and_the_replay():
    from sessions.web import replays

    s = PlaySession("arctic_scavengers", "random", person=PERSON, seat=0, seed=0)
    s.run_agents()
    while not s.over and len(s.record.moves) < 100:
        ends = [m for m in s.legal() if m.label == "end gathering"]
        s.play_label((ends or s.legal())[0].label)
        s.run_agents()
    steps = [m.label for m in s.record.moves if m.seat == 1]
    assert any(label.startswith("add ") or label == "cancel" for label in steps)  # recorded
    rows = [r for r in s.screen(image=False).rows if r.seat == 1]
    assert rows and not any(r.label.startswith("add ") or r.label == "cancel" for r in rows)
    assert all(r.label.endswith(("end gathering", "pass")) or r.label.startswith(
        ("snipe", "sabotage")) or r is rows[-1] for r in rows), [r.label for r in rows]
    assert len(s.moves()) == len(s.screen(image=False).rows)
    captions = [replays.frame(s.record, k, seat=0).caption for k in range(1, min(8, s.frames()))]
    assert not any(c.endswith(("Random: cancel", "Random: dig")) or "Random: add " in c
                   for c in captions)
