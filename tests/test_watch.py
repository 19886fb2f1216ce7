"""Agents playing while people watch (sessions/web/watch.py) and what spectators see
(sessions/web/spectate.py), without a browser.

Language-model seats are the real SDK talking to tests/fake_llm_server.py over HTTP.
"""

from __future__ import annotations

import threading
import time

import pytest
from PIL import ImageChops

from agents.base import Decision
from games.actions import ActionId
from games.registry import all_games, get
from renderers import image_view, text_view
from sessions.ratings.results import results_from_store
from sessions.record import CHANCE
from sessions.store import Store
from sessions.web import spectate, watch
from sessions.web.live import LIVE, link
from sessions.web.llm_page import Keyring, Seating, take
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id
from sessions.web.spectate import ALL, FACE_DOWN, PUBLIC, SEALED, public_board, seat_view
from sessions.web.watch import WatchError, WatchSession
from tests.fake_llm_server import FakeLLM, Reply, Request, answer

GPT = "openai/gpt-4o-mini+prompt"
KEY = "sk-test-watch-4b1d5e0c2a"


def wait_for(condition, timeout: float = 20.0, step: float = 0.01):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(step)
    raise AssertionError("timed out waiting")


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.sqlite3") as opened:
        yield opened


class Slow:
    """An agent that takes ``seconds`` to pick its first legal move and can be cancelled."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.cancelled = threading.Event()
        self.asked = 0

    def act(self, view, *, feedback=None) -> Decision:
        self.asked += 1
        if self.cancelled.wait(self.seconds):
            return Decision(None, failure="cancelled")
        return Decision(ActionId(action=view.legal[0].action))

    def cancel(self) -> None:
        self.cancelled.set()


def slow_builder(seconds: float, agents: list[Slow]):
    def build(spec, game, params, *, seed):
        agent = Slow(seconds)
        agents.append(agent)
        return agent
    return build


def step_and_wait(game: WatchSession, moves: int) -> None:
    before = len(game.record.moves)
    game.step()
    wait_for(lambda: len(game.record.moves) >= before + moves or game.over)


# --- playing, pausing, stepping, stopping -----------------------------------------------


def test_a_watched_game_plays_to_the_end_is_stored_and_rated_and_listed_live(store):
    game = WatchSession("tic_tac_toe", ["mcts:50:1s", "random"], seed=3, delay=0.0,
                        store=store)
    assert game.status() == "Ready: press Start." and LIVE.get(game.id) is None
    game.start()
    assert LIVE.get(game.id) is game
    wait_for(lambda: game.over and store.count() == 1)
    stored = store.get(game.id)
    assert stored.outcome == "normal" and stored.tags == ["watch"]
    assert game.status().startswith("Game over: ")
    [result] = results_from_store(store).results
    assert result.entities == ("mcts:50:1s", "random") and result.tags == ("watch",)


def test_pause_step_and_resume(store):
    game = WatchSession("connect_four", ["random", "random"], seed=1, delay=0.0, store=store)
    game.pause()
    game.start()
    time.sleep(0.3)
    assert game.record.moves == [] and game.status().startswith("Paused")
    step_and_wait(game, 1)
    time.sleep(0.2)
    assert len(game.record.moves) == 1 and game.paused
    step_and_wait(game, 1)
    time.sleep(0.2)
    assert len(game.record.moves) == 2
    game.resume()
    wait_for(lambda: game.over)
    assert store.get(game.id).outcome == "normal"


def test_pausing_holds_back_the_move_being_thought_about():
    agents: list[Slow] = []
    game = WatchSession("tic_tac_toe", ["random", "random"], seed=1, delay=0.0,
                        build_agent=slow_builder(0.3, agents))
    game.start()
    wait_for(lambda: agents[0].asked == 1)
    game.pause()  # while seat 0 thinks: its move must not reach the board
    time.sleep(0.8)
    assert game.record.moves == [] and "the move being thought about waits" in game.status()
    game.resume()
    wait_for(lambda: len(game.record.moves) >= 1)
    game.stop()


def test_the_delay_is_the_least_time_between_two_moves():
    game = WatchSession("nim", ["random", "random"], seed=2, delay=0.25)
    game.start()
    wait_for(lambda: game.over)
    ends = [m.ended_at for m in game.record.moves if m.seat != CHANCE]
    assert len(ends) >= 3
    assert min(b - a for a, b in zip(ends, ends[1:], strict=False)) >= 0.24
    with pytest.raises(WatchError, match="0 to 60 s"):
        game.set_delay(-1)
    assert game.delay == 0.25


def test_stop_ends_the_game_as_abandoned_and_stops_a_thinking_agent(store):
    agents: list[Slow] = []
    game = WatchSession("tic_tac_toe", ["random", "random"], seed=1, delay=0.0, store=store,
                        build_agent=slow_builder(30.0, agents))
    game.start()
    wait_for(lambda: agents[0].asked == 1)
    game.stop()
    wait_for(lambda: store.count() == 1)
    assert agents[0].cancelled.is_set()
    stored = store.get(game.id)
    assert stored.outcome == "abandoned" and "stopped by the person watching" in \
        stored.end_reason
    assert game.status().startswith("Stopped") and "not counted" in game.status()
    assert results_from_store(store).dropped["abandoned"] == 1


def test_bad_setups_are_refused_with_what_to_do(monkeypatch):
    with pytest.raises(WatchError, match="has 2 seats: pick an agent for each"):
        WatchSession("tic_tac_toe", ["random"])
    with pytest.raises(WatchError, match="agents only"):
        WatchSession("tic_tac_toe", ["human", "random"])
    with pytest.raises(WatchError, match="unknown game .chess.; registered games: "):
        WatchSession("chess", ["random", "random"])
    with pytest.raises(ValueError, match="mcts would see hidden information"):
        WatchSession("kuhn_poker", ["mcts", "random"])
    with pytest.raises(ValueError, match="outside the limits for play here"):
        WatchSession("nim", ["mcts:1000:0s", "random"])
    monkeypatch.setattr(watch, "MAX_RUNNING", 1)
    agents: list[Slow] = []
    first = WatchSession("nim", ["random", "random"], build_agent=slow_builder(30.0, agents))
    first.start()
    second = WatchSession("nim", ["random", "random"])
    with pytest.raises(WatchError, match="1 watched games are playing"):
        second.start()
    assert not second.started and LIVE.get(second.id) is None
    first.stop()
    wait_for(lambda: watch.running() == 0)
    second.start()
    second.stop()


# --- what spectators see, per kind of game ----------------------------------------------


@pytest.mark.parametrize("spec", all_games(), ids=lambda s: s.id)
def test_the_public_view_shows_only_what_everyone_at_the_table_sees(spec):
    seats = spec.load().num_players()
    game = WatchSession(spec.id, ["random"] * seats, seed=5, delay=0.0)
    game.pause()
    game.start()
    step_and_wait(game, 1)  # one decision (a round in simultaneous games); no game ends there
    wait_for(lambda: not game.thinking)
    try:
        assert not game.over
        state = game.match.state
        public = spectate.spectate(game, PUBLIC)
        if public_board(spec):
            [board] = public.boards
            assert board.text == text_view(spec.id, state, 0, watcher=True) and not public.hidden
        elif spec.public_seat is not None:  # a seat that sees only what everyone sees
            [board] = public.boards
            assert board.seat == spec.public_seat and not public.hidden
            assert board.text == text_view(spec.id, state, spec.public_seat, watcher=True)
        else:  # every seat's view holds something private: no board at all
            assert public.boards == [] and "face down" in public.hidden
        decisions = [m for m in game.record.moves if not m.meta.get("forced")]
        if spec.public_label is not None:  # a hidden move: what the table was told, or nothing
            hidden = [m.seat == CHANCE and not spec.visibility.chance
                      or m.seat != CHANCE and not spec.visibility.moves for m in decisions]
            told = [m.public if h else m.label for m, h in zip(decisions, hidden, strict=True)]
            assert any(h and t is not None for h, t in zip(hidden, told, strict=True))
            decisions = [m for m, t in zip(decisions, told, strict=True) if t is not None]
            told = [t for t in told if t is not None]
            assert len(public.moves) == len(told)
            assert all(line.endswith(t) for line, t in zip(public.moves, told, strict=True))
        assert len(public.moves) == len(decisions)
        for line, move in zip(public.moves, decisions, strict=True):
            if spec.public_label is not None:
                assert SEALED not in line and FACE_DOWN not in line
            elif move.seat == CHANCE:
                assert line.endswith(move.label if spec.visibility.chance else FACE_DOWN)
            else:
                assert line.endswith(move.label if spec.visibility.moves else SEALED)
        everything = spectate.spectate(game, ALL)
        if not public_board(spec):
            assert [b.seat for b in everything.boards] == list(range(seats))
        assert all(SEALED not in line and FACE_DOWN not in line for line in everything.moves)
        one = spectate.spectate(game, seat_view(seats - 1))
        assert [b.text for b in one.boards] == [text_view(spec.id, state, seats - 1,
                                                          watcher=True)]
    finally:
        game.stop()


def person_game(game: str, opponent: str, **options) -> PlaySession:
    return PlaySession(game, opponent, person=Person(new_player_id(), "Ada", consent=True),
                       seed=4, **options)


def test_a_spectator_of_a_persons_hidden_hand_sees_only_the_public_view_until_the_end():
    session = person_game("kuhn_poker", "random", seat="first")
    LIVE.add(session)
    assert LIVE.get(session.id) is session
    session.run_agents()
    mine = session.text()
    card = mine.split("Your card: ")[1].split()[0]
    assert spectate.views(session) == [("Public view", PUBLIC)]
    for asked in (ALL, seat_view(0), seat_view(1), "seat:9", "nonsense", None):
        seen = spectate.spectate(session, asked)
        assert seen.view == PUBLIC and seen.boards == []
        shown = "\n".join([seen.title, seen.status, *seen.moves])
        assert f"Your card: {card}" not in shown and "Deal:" not in shown
        assert "You" not in shown and "Ada" in seen.title
    while not session.over:
        session.play_label(session.legal()[0].label)
        session.run_agents()
    after = spectate.spectate(session, ALL)
    assert after.view == ALL and len(after.boards) == 2 and any("Deal:" in m for m in after.moves)
    assert "You" not in after.status


def test_a_spectator_of_a_persons_codenames_sees_the_operatives_board_never_the_key():
    """A person as the red spymaster: spectators get the board as an operative sees it (the
    words, the clues, the cards turned), never the key the person sees, until the end."""
    session = PlaySession("codenames", ["random"] * 3, seat=0, seed=4,
                          person=Person(new_player_id(), "Ada", consent=True))
    LIVE.add(session)
    session.run_agents()
    key = session.text()
    assert "(red agent)" in key and "(assassin)" in key  # what the person sees
    seen = spectate.spectate(session, ALL)  # refused: public only while a person plays
    [board] = seen.boards
    assert seen.view == PUBLIC and board.seat == 1 and board.caption.startswith("As Red operative")
    assert board.text == text_view("codenames", session.match.state, 1, watcher=True)
    assert "(red agent)" not in board.text and "(assassin)" not in board.text
    assert not ImageChops.difference(
        board.image.convert("RGB"),
        image_view("codenames", session.match.state, 1, watcher=True).convert("RGB")).getbbox()


def test_a_spectator_of_a_persons_board_game_sees_the_board_as_the_person_does():
    session = person_game("connect_four", "random", seat="second")
    session.run_agents()
    session.play_text(session.legal()[0].label)
    session.run_agents()
    seen = spectate.spectate(session, PUBLIC)
    [board] = seen.boards
    mine = session.text().splitlines()  # the same board, said to a spectator, not to "you"
    assert board.text.splitlines()[1:-1] == mine[1:-1] and len(seen.moves) == 3
    assert mine[0] == "You are o (player 1)." and board.text.startswith("Yellow's view.")
    assert seen.moves[1].startswith("2. Ada (yellow): ")


def test_spectator_links_and_ids():
    assert link("http://host:7860/?__theme=dark", "ab" * 16) == \
        f"http://host:7860/?watch={'ab' * 16}"
    assert LIVE.get("../../etc/passwd") is None and LIVE.get("") is None
    from sessions.web.tabs.watch import _base_url

    class Asked:
        def __init__(self, headers):
            self.headers = headers

    assert _base_url(Asked({"host": "127.0.0.1:7860"})) == "http://127.0.0.1:7860/"
    assert _base_url(Asked({"x-forwarded-host": "me-arena.hf.space", "host": "10.0.0.2"})) \
        == "https://me-arena.hf.space/"
    forged = _base_url(Asked({"host": "evil.example/](javascript:alert(1))"}))
    assert forged == "" and link(forged, "ab" * 16) == f"?watch={'ab' * 16}"


# --- thinking panels for spectators -------------------------------------------------------


@pytest.fixture
def fake(monkeypatch, tmp_path):
    with FakeLLM() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.openai_url)
        for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ARENA_OPPONENTS"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
        yield server


def bluffing(request: Request) -> Reply:
    return answer(request, request.legal_moves()[0], reasoning="I hold the Jack: a bluff.")


def watched_llm_game(game: str, seats: list[str]) -> WatchSession:
    keyring = Keyring()
    assert take(GPT, KEY, keyring) == ""
    seating = Seating(keyring)
    watched = WatchSession(game, seats, seed=2, delay=0.0, build_agent=seating.build)
    seating.attach(watched)
    return watched


def test_a_models_words_in_a_hidden_hand_show_in_its_own_view_and_face_up_only(fake):
    fake.responder = bluffing
    game = watched_llm_game("kuhn_poker", [GPT, "random"])
    game.pause()
    game.start()
    step_and_wait(game, 1)
    wait_for(lambda: spectate.spectate(game, ALL).panels[0]["turns"])
    public = spectate.spectate(game, PUBLIC).panels[0]
    assert public["turns"][0]["text_hidden"] and "Jack" not in str(public)
    other_seat = spectate.spectate(game, seat_view(1)).panels[0]
    assert "Jack" not in str(other_seat)
    for view in (ALL, seat_view(0)):
        panes = spectate.spectate(game, view).panels[0]["turns"][0]["attempts"][0]["panes"]
        assert "I hold the Jack" in panes[0]["reasoning"] + panes[0]["answer"]
    game.stop()


def test_one_panel_per_model_seat_each_with_its_own_turns_and_usage(fake):
    fake.responder = lambda request: answer(request, request.legal_moves()[-1],
                                            reasoning="Corners first.")
    game = watched_llm_game("tic_tac_toe", [GPT, GPT.replace("+prompt", "+cot")])
    game.start()
    wait_for(lambda: game.over)
    panels = spectate.spectate(game, PUBLIC).panels
    assert sorted(panels) == [0, 1]
    for seat, panel in panels.items():
        assert {t["seat"] for t in panel["turns"] + panel["earlier"]} == {seat}
        assert {r["seat"] for r in panel["moves"]} == {seat}
        assert list(panel["session"]) == [str(seat)]
    assert "+cot" in game.record.seats[1].entity
    assert get("tic_tac_toe").title in spectate.spectate(game).title


def test_closing_the_tab_that_started_a_game_stops_it_and_a_new_game_replaces_it(store):
    agents: list[Slow] = []
    first = WatchSession("nim", ["random", "random"], store=store,
                         build_agent=slow_builder(30.0, agents))
    first.start()
    watch.HOSTS.attach("tab-1", first)
    second = WatchSession("nim", ["random", "random"], store=store,
                          build_agent=slow_builder(30.0, agents))
    second.start()
    watch.HOSTS.attach("tab-1", second)  # a new game in the same tab: the first one stops
    wait_for(lambda: first.ended.is_set())
    assert store.get(first.id).end_reason == "a new game was started"
    watch.HOSTS.close("tab-1")
    wait_for(lambda: second.ended.is_set())
    assert "tab that started it was closed" in store.get(second.id).end_reason
    assert len(watch.HOSTS) == 0
