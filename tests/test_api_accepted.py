"""/move's ``accepted`` under concurrent requests: it speaks for the request's own input."""

from __future__ import annotations

import sys
import threading

from sessions.web.play import PlaySession
from sessions.web.players import Person
from sessions.web.tabs.api import api_move


def test_concurrent_moves_with_the_same_expected_number_one_is_accepted_the_rest_say_refused():
    person = Person(player_id="apitester0123456", consent=False)
    session = PlaySession("breakthrough", "random", person=person, seat="first", seed=5)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads take turns often, as requests on a busy server do
    try:
        for _ in range(10):
            before = len(session.record.moves)
            answers = _at_once(session, session.snapshot()["legal"][:9], session.move_number)
            assert sum(a["accepted"] for a in answers) == 1
            if session.over:  # the accepted move won (breakthrough's board is 6 x 6 here)
                break
            assert len(session.record.moves) == before + 2  # the one move and the reply
    finally:
        sys.setswitchinterval(switch)


def _at_once(session: PlaySession, moves: list[str], expected: int) -> list[dict]:
    """Send each move in its own thread, all released together, with the same number."""
    gate, answers = threading.Barrier(len(moves)), []

    def send(move: str) -> None:
        gate.wait()
        answers.append(api_move(session, move, expected))

    threads = [threading.Thread(target=send, args=(m,)) for m in moves]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers
