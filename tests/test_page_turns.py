"""Every input is played or answered, in order: sessions.web.turns without a browser.

Gradio runs a tab's events in worker threads and sends each screen when it is yielded; these
tests drive :func:`respond` the same way (threads, generators resumed one step at a time).
"""

from __future__ import annotations

import threading
import time

from agents.base import Decision, SeatView
from games.actions import ActionId
from renderers import renderer
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id
from sessions.web.turns import Turns, catch_up, respond


def person() -> Person:
    return Person(new_player_id(), "Ada")


def centre(session: PlaySession, target: str) -> tuple[float, float]:
    return renderer(session.spec.id).centres(session.match.state, session.human)[target]


class SlowAgent:
    """Answers (the first legal move) only when the test releases it."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Event()

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        self.started.set()
        assert self.release.wait(10), "the test never released the agent"
        self.release.clear()
        return Decision(ActionId(action=view.legal[0].action), raw=view.legal[0].label)


def drain(screens) -> list:  # noqa: ANN001 - a generator of screens
    return list(screens)


def as_gradio(screens) -> tuple[list, threading.Thread]:  # noqa: ANN001
    """Resume ``screens`` as Gradio does (each right after the last one was sent), in a
    worker thread; the screens collect in the list."""
    sent: list = []
    worker = threading.Thread(target=lambda: sent.extend(screens), daemon=True)
    worker.start()
    return sent, worker


def wait_until(condition, timeout: float = 5.0) -> None:  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_second_click_during_a_quick_reply_is_played_after_it():
    session = PlaySession("tic_tac_toe", "random", person=person(), seat="first", seed=4)
    lock = threading.Lock()
    first = respond(session, lambda s: s.click(*centre(s, "C2R2")), lock)
    shown = [next(first)]  # the turn holds the tab's lock while Gradio sends this screen
    second: list = []
    clicked = threading.Thread(target=lambda: second.extend(
        respond(session, lambda s: s.click(*centre(s, "C1R1")), lock)))
    clicked.start()
    clicked.join(0.3)
    assert clicked.is_alive() and not second, "the second input waited for the first turn"
    shown += drain(first)
    clicked.join(5)
    labels = [(m.seat, m.label) for m in session.record.moves]
    assert labels[0] == (0, "C2R2") and labels[1][0] == 1
    if labels[1][1] == "C1R1":  # Random's reply took the cell: the click is answered
        assert second[-1].notice == "That cell is taken." and len(labels) == 2
    else:  # played on the position after Random's reply, which then answers it
        assert labels[2] == (0, "C1R1") and second[-1].notice == "Your move: C1R1."
        assert len(labels) == 4
    assert shown[-1].notice == "Your move: C2R2." and second[-1].status == "Your turn."


def test_a_click_while_the_opponent_thinks_is_answered_and_the_notice_does_not_go_stale():
    agent = SlowAgent()
    session = PlaySession("tic_tac_toe", "random", person=person(), seat="first", seed=1,
                          build_agent=lambda spec, game, params, *, seed: agent)
    lock = threading.Lock()
    sent, worker = as_gradio(respond(session, lambda s: s.click(*centre(s, "C2R2")), lock,
                                     hold=0.05))
    wait_until(lambda: len(sent) >= 2)  # the agent took longer than `hold`: the turn lets go
    mine, thinking = sent[:2]
    assert mine.image is not None and mine.rows[-1].label == "C2R2"  # drawn at once
    assert thinking.thinking and "Random is thinking" in thinking.status
    [answer] = drain(respond(session, lambda s: s.click(*centre(s, "C1R1")), lock))
    assert answer.notice == "One moment: Random is still thinking."  # answered, not dropped
    assert [m.label for m in session.record.moves] == ["C2R2"]
    agent.release.set()
    worker.join(5)
    final = sent[-1]
    assert final.status == "Your turn." and final.your_turn
    assert "moment" not in final.notice and "thinking" not in final.notice
    assert final.notice == ("Random moved; your click while waiting was not played, so play on "
                            "from here.")


def test_screens_reach_the_page_in_the_order_they_were_computed():
    """A turn yields under the lock, so a later input's screen is computed only after the
    earlier screen was handed over (Gradio queues it before resuming the generator)."""
    session = PlaySession("nim", "random", person=person(), seat="first", seed=2)
    lock = threading.Lock()
    sent: list[str] = []
    first = respond(session, lambda s: s.play_label(s.legal()[0].label), lock)
    sent.append(next(first).notice)
    later = threading.Thread(target=lambda: sent.extend(
        s.notice for s in respond(session, lambda s: s.play_label("not a move"), lock)))
    later.start()
    later.join(0.2)
    assert len(sent) == 1
    drain(first)
    later.join(5)
    assert sent[0].startswith("Your move:") and sent[-1] == "“not a move” cannot be played now."


def test_a_page_that_drew_an_earlier_screen_last_gets_the_current_one_again():
    """The browser applies each event's screens in its own queue, so a late screen of an
    earlier event can be drawn over a later one: the page sends back the number of the
    screen it drew, and catch_up sends the current screen when that is not the last."""
    session = PlaySession("tic_tac_toe", "random", person=person(), seat="first", seed=3)
    lock = threading.Lock()
    first = drain(respond(session, lambda s: s.click(*centre(s, "C1R1")), lock))
    after_first = session.screens_sent
    stale = drain(respond(session, lambda s: s.click(*centre(s, "C3R3"), expected=1), lock))
    assert len(first) >= 2 and after_first == len(first) and len(stale) == 1
    assert stale[0].notice.startswith("The board changed before that arrived")
    assert drain(catch_up(session, lock, session.screens_sent)) == [None]  # up to date
    # the page drew the first event's last screen after the second event's answer
    [again] = drain(catch_up(session, lock, after_first))
    assert again is not None and again.notice == stale[0].notice and again.image is not None
    assert session.screens_sent == after_first + 2
    assert drain(catch_up(session, lock, session.screens_sent)) == [None]


def test_a_replaced_game_sends_nothing_more():
    session = PlaySession("tic_tac_toe", "random", person=person(), seat="first")
    screens = drain(respond(session, lambda s: s.click(*centre(s, "C1R1")), threading.Lock(),
                            current=lambda: False))
    assert screens == [] and session.record.moves  # played, but the tab shows its new game


def test_turns_keep_one_lock_per_tab():
    turns = Turns()
    assert turns.lock("a") is turns.lock("a") and turns.lock("a") is not turns.lock("b")
    turns.forget("a")
    assert len(turns) == 1
