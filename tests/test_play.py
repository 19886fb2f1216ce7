"""The Play tab without a browser: sessions.web.play.PlaySession and what it stores."""

from __future__ import annotations

import gc
import threading
import time

import numpy as np
import pytest

from agents.base import Decision, SeatView
from agents.ladder import ladder
from games.actions import ActionId
from games.registry import get
from renderers import renderer
from sessions.store import Store
from sessions.web.play import OpenSessions, PlaySession
from sessions.web.players import (
    Person,
    browser_profile,
    game_menu,
    new_player_id,
    opponents_for,
    profile_person,
)
from tests.conftest import GAME_IDS


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.sqlite3") as opened:
        yield opened


@pytest.fixture
def person():
    return Person(new_player_id(), "Ada", consent=True)


def _centres(session: PlaySession) -> dict[str, tuple[float, float]]:
    return renderer(session.spec.id).centres(session.match.state, session.human)


def _centre(session: PlaySession, target: str) -> tuple[float, float]:
    return _centres(session)[target]


def _snapshot(session: PlaySession) -> tuple:
    return (repr(session.match.state), len(session.record.moves), session.selection,
            session.record.outcome)


class GateAgent:
    """An agent that streams a few words, then waits for the test to let it move."""

    def __init__(self) -> None:
        self.on_event = None
        self.release = threading.Event()
        self.started = threading.Event()

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        self.on_event("reasoning", "Thinking about ")
        self.on_event("reasoning", "the centre.")
        self.started.set()
        assert self.release.wait(10), "the test never released the agent"
        move = view.legal[0]
        return Decision(ActionId(action=move.action), raw=move.label, reasoning="centre")


def _your_move(label: str) -> str:
    return f"Your move: {label}" + ("" if label.endswith((".", "?", "!")) else ".")


def _gated(agent: GateAgent):
    return lambda spec, game, params, *, seed: agent


# --- a whole game --------------------------------------------------------------------------


def test_tic_tac_toe_by_clicks_to_the_end_is_stored_with_the_human_seat(store, person):
    session = PlaySession("tic_tac_toe", "random", person=person, seat="first", store=store,
                          seed=3)
    rng = np.random.default_rng(0)
    while not session.over:
        assert session.your_turn
        move = session.legal()[int(rng.integers(len(session.legal())))]
        notice = session.click(*_centre(session, move.path[0]))
        assert notice == f"Your move: {move.label}."
        assert session.last == move.path
        session.run_agents()
    assert session.result().startswith("Game over:")
    record = store.get(session.id)
    human = record.seats[0]
    assert (human.kind, human.entity, human.player_id, human.display_name) == \
        ("human", "human", person.player_id, "Ada")
    assert record.seats[1].entity == "random"
    assert record.research_use is True and record.outcome == "normal"
    mine = [m for m in record.moves if m.seat == 0]
    assert mine and all(m.meta["input"] == "click" for m in mine)
    assert store.count() == 1


def test_without_consent_the_session_is_stored_not_for_research(store):
    session = PlaySession("nim", "random", person=Person(new_player_id()), store=store, seed=1)
    session.resign()
    assert store.get(session.id).research_use is False


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_plays_to_the_end_through_the_page_paths(game_id, store, person):
    """Clicks on board games (at the renderer's centres, or on the hit-test's targets where
    the renderer has no centres), buttons or the list on tables, the number field and the
    proposal form in GAMA-Bench's games."""
    session = PlaySession(game_id, "random", person=person, seat="second", store=store, seed=5)
    session.run_agents()
    rng = np.random.default_rng(1)
    module = renderer(game_id)
    steps = 0
    while not session.over:
        screen = session.screen()
        assert screen.your_turn and screen.image.mode == "RGB"
        legal = session.legal()
        if hasattr(module, "centres"):
            # Hive lists a move once per neighbouring tile; clicks make the first of
            # them (the others' paths end in a label no click produces)
            spots = set(_centres(session))
            legal = [m for m in legal if set(m.path) <= spots or m.says]
        move = legal[int(rng.integers(len(legal)))]
        table = screen.table
        if move.says:  # words (a clue, a question) go through the talk box
            assert screen.talk is not None and move.label not in screen.buttons
            assert session.play_text(move.label) == _your_move(move.label)
        elif table is not None and table.plan:
            shares = [0] * len(table.plan)
            assert session.play_plan(shares).startswith("You proposed: ")
        elif hasattr(module, "centres") or get(game_id).board == "grid":
            clicks = 0
            while session.your_turn and clicks < len(move.path):
                target = move.path[clicks]  # a move may be fixed by fewer clicks than its path
                if hasattr(module, "centres"):
                    session.click(*_centre(session, target))
                else:
                    session.click_target(target)
                clicks += 1
            same = {m.label for m in legal if m.path[:clicks] == move.path[:clicks]}
            assert session.notice in {_your_move(label) for label in same}, session.notice
        elif table is not None and table.control.kind == "number":
            assert not screen.buttons and not screen.menu
            assert session.play_number(move.action) == _your_move(move.label)
        else:
            assert move.label in screen.buttons + screen.menu
            assert session.play_label(move.label) == _your_move(move.label)
        session.run_agents()
        steps += 1
        assert steps < 500
    assert session.screen().over
    assert store.get(session.id).outcome == "normal"


# --- clicks that are not moves ------------------------------------------------------------


def test_click_outside_the_board_says_so_and_changes_nothing(person):
    session = PlaySession("connect_four", "random", person=person, seed=1)
    before = _snapshot(session)
    assert "not on the board" in session.click(2, 2)
    assert _snapshot(session) == before


def test_click_on_an_occupied_cell_is_refused(person):
    session = PlaySession("tic_tac_toe", "random", person=person, seed=1)
    session.click(*_centre(session, "C2R2"))
    session.run_agents()
    before = _snapshot(session)
    assert session.click(*_centre(session, "C2R2")) == "That cell is taken."
    assert _snapshot(session) == before
    assert session.record.moves[-1].seat == 1


def test_clicks_on_a_table_game_point_to_the_buttons(person):
    session = PlaySession("kuhn_poker", "random", person=person, seed=2)
    session.run_agents()
    before = _snapshot(session)
    assert "buttons" in session.click(100, 200)
    assert _snapshot(session) == before
    assert sorted(session.screen().buttons) == ["bet", "pass"]


def test_a_click_on_a_gama_plot_points_to_the_input_below(person):
    session = PlaySession("guess_2_3", "random", person=person, seed=2)
    session.run_agents()
    before = _snapshot(session)
    assert "decide with the input below" in session.click(300, 200)
    assert _snapshot(session) == before
    screen = session.screen(image=False)
    assert screen.table.control.kind == "number" and screen.buttons == screen.menu == []


def test_negotiation_offers_a_list_instead_of_a_hundred_buttons(person):
    session = PlaySession("negotiation", "random", person=person, seed=2)
    session.run_agents()
    screen = session.screen()
    assert screen.buttons == [] and len(screen.menu) > 16
    assert set(screen.menu) == {m.label for m in session.legal()}


def test_stale_clicks_after_the_game_change_nothing(store, person):
    session = PlaySession("nim", "random", person=person, store=store, seed=4)
    session.resign()
    before = _snapshot(session)
    for act in (lambda: session.click(*_centre(session, "pile 4 take 1")),
                lambda: session.play_text("pile 4 take 1"),
                lambda: session.play_label("pile 4 take 1"), session.resign):
        assert "over" in act()
        assert _snapshot(session) == before
    assert store.count() == 1


def test_not_your_turn_before_the_opponent_moved(person):
    session = PlaySession("tic_tac_toe", "random", person=person, seat="second", seed=1)
    before = _snapshot(session)
    assert session.click(*_centre(session, "C1R1")) == "It is not your turn."
    assert session.play_text("C1R1") == "It is not your turn."
    assert _snapshot(session) == before


# --- two-click moves ----------------------------------------------------------------------


def test_breakthrough_select_highlight_cancel_switch_and_move(person):
    session = PlaySession("breakthrough", "random", person=person, seat="first", seed=1)
    assert session.click(*_centre(session, "b7")).startswith("b7 selected")
    assert session.selection == ("b7",)
    assert set(session.targets) == {"a6", "b6", "c6"}
    assert "Selection cleared" in session.click(*_centre(session, "b7"))
    assert session.selection == () and session.targets == ()
    session.click(*_centre(session, "a7"))
    assert session.click(*_centre(session, "c7")).startswith("c7 selected")  # switch pawn
    assert session.selection == ("c7",)
    before = _snapshot(session)
    assert session.click(*_centre(session, "a4")) == "a4 cannot follow c7."
    assert _snapshot(session) == before
    assert session.click(*_centre(session, "c6")) == "Your move: c7->c6."
    assert session.selection == () and session.last == ("c7", "c6")
    session.run_agents()
    assert session.last is not None and session.last != ("c7", "c6")  # the reply is marked


def test_an_empty_square_is_not_a_first_click(person):
    session = PlaySession("breakthrough", "random", person=person, seed=1)
    assert session.click(*_centre(session, "b5")) == "b5 cannot be played now."
    assert session.selection == ()


# --- typed moves and buttons --------------------------------------------------------------


def test_typed_moves_are_read_like_answers_and_rejections_are_recorded(store, person):
    session = PlaySession("tic_tac_toe", "random", person=person, store=store, seed=1)
    notice = session.play_text("somewhere nice")
    assert notice == ("“somewhere nice” is not a move. For example: C1R1, C2R1, C3R1 (9 moves "
                      "in all). Moves look like a cell as C<column>R<row>, columns and rows "
                      "numbered from 1, e.g. C2R3.")
    [attempt] = session.match.attempts(0)  # the record keeps the adapter's message for models
    assert "no move found" in attempt.message and "Legal moves:" in attempt.message
    assert session.snapshot()["detail"] == attempt.message
    assert session.play_text("") == "Type a move first."
    assert session.record.moves == []
    assert session.play_text("  c2 r2 ") == "Your move: C2R2."
    first = session.record.moves[0]
    assert first.raw == "  c2 r2 " and first.meta["input"] == "typed"
    assert [a.reason for a in first.rejected] == ["unparseable", "empty"]


def test_a_stale_button_label_is_refused(person):
    session = PlaySession("pig", "random", person=person, seed=1)
    assert session.play_label("bet") == "“bet” cannot be played now."
    assert session.play_label("") == "Pick a move first."
    assert session.play_label("roll") == "Your move: roll."


def test_prisoners_dilemma_against_tit_for_tat(store, person):
    session = PlaySession("iterated_prisoners_dilemma", "tit-for-tat", person=person,
                          store=store, seed=8)
    choices = []
    while not session.over:
        session.run_agents()
        if session.over:
            break
        choice = "defect" if len(choices) % 2 == 0 else "cooperate"
        assert sorted(session.screen().buttons) == ["cooperate", "defect"]
        assert session.play_label(choice) == f"Your move: {choice}."
        choices.append(choice)
        session.run_agents()
    record = store.get(session.id)
    theirs = [m.label for m in record.moves if m.seat == 1]
    assert theirs[0] == "cooperate" and theirs[1:] == choices[: len(theirs) - 1]


# --- the opponent thinking ----------------------------------------------------------------


def test_a_slow_opponent_shows_thinking_streams_and_blocks_clicks(person):
    agent = GateAgent()
    session = PlaySession("tic_tac_toe", "random", person=person, seat="second", seed=1,
                          build_agent=_gated(agent))
    progress = session.advance(poll=0.01)
    first = next(progress)
    assert first.seats == (0,) and session.thinking
    assert agent.started.wait(5)
    assert "Random is thinking" in session.status()
    before = _snapshot(session)
    assert session.click(*_centre(session, "C1R1")) == "One moment: Random is still thinking."
    assert session.play_text("C1R1") == "One moment: Random is still thinking."
    assert _snapshot(session) == before
    assert list(session.advance()) == []  # a second runner does not start
    seen = next(progress)
    assert seen.streamed == "Thinking about the centre."
    agent.release.set()
    list(progress)
    assert not session.thinking and session.your_turn
    assert session.moves() == ["1. Random: C1R1"]
    assert session.screen().reasoning == "Thinking about the centre."


def test_resigning_while_the_opponent_thinks_ends_the_game(store, person):
    agent = GateAgent()
    session = PlaySession("tic_tac_toe", "random", person=person, seat="second", seed=1,
                          store=store, build_agent=_gated(agent))
    progress = session.advance(poll=0.01)
    next(progress)
    assert agent.started.wait(5)
    assert session.resign() == "You resigned."
    agent.release.set()
    list(progress)
    record = store.get(session.id)
    assert record.outcome == "forfeit" and record.ended_by == 1 and record.scores == [1.0, 0.0]
    assert record.moves == []  # the late answer was not applied
    assert "You resigned" in session.result()


def test_an_opponent_that_crashes_abandons_the_game(store, person):
    class Broken:
        def act(self, view, *, feedback=None):
            raise RuntimeError("model server gone")

    session = PlaySession("tic_tac_toe", "random", person=person, seat="second", store=store,
                          seed=1, build_agent=lambda *a, **k: Broken())
    session.run_agents()
    assert session.over and "model server gone" in session.notice
    assert store.get(session.id).outcome == "abandoned"


# --- ending without a result --------------------------------------------------------------


def test_resign_is_a_stored_loss(store, person):
    session = PlaySession("connect_four", "random", person=person, seed=1, store=store)
    session.click(*_centre(session, "C4"))
    session.run_agents()
    session.resign()
    record = store.get(session.id)
    assert record.outcome == "forfeit" and record.scores == [0.0, 1.0]
    assert record.ended_by == 0 and record.end_reason == "resigned"


def test_abandon_is_stored_as_abandoned_not_a_loss(store, person):
    session = PlaySession("connect_four", "random", person=person, seed=1, store=store)
    session.click(*_centre(session, "C4"))
    session.run_agents()
    session.abandon("tab closed")
    session.abandon("tab closed")  # idempotent
    record = store.get(session.id)
    assert record.outcome == "abandoned" and record.scores is None
    assert record.end_reason == "tab closed" and len(record.moves) == 2
    assert "does not count as a loss" in session.result()
    assert store.count() == 1


def test_open_sessions_abandon_replaced_and_closed_games(store, person):
    games = OpenSessions()
    first = PlaySession("nim", "random", person=person, store=store, seed=1)
    second = PlaySession("nim", "random", person=person, store=store, seed=2)
    other = PlaySession("nim", "random", person=person, store=store, seed=3)
    games.attach("browser-a", first)
    games.attach("browser-b", other)
    games.attach("browser-a", second)  # a new game in the same tab
    assert first.record.outcome == "abandoned" and first.record.end_reason.startswith("a new")
    assert second.record.outcome is None and other.record.outcome is None
    assert games.close("browser-a") is second
    assert second.record.outcome == "abandoned" and second.record.end_reason == "tab closed"
    assert other.record.outcome is None  # another browser's game is untouched
    assert games.close("browser-a") is None
    del other
    gc.collect()
    assert len(games) == 0  # held weakly: the page's state owns the game
    assert {r.outcome for r in store.records()} == {"abandoned"} and store.count() == 2


# --- choices and the profile --------------------------------------------------------------


def test_opponents_are_the_agents_that_fit_each_game():
    def classic(game_id):
        return [o.spec for o in opponents_for(get(game_id)) if not o.llm]

    assert "mcts" in classic("connect_four") and "random" in classic("connect_four")
    assert "ismcts" in classic("kuhn_poker") and "mcts" not in classic("kuhn_poker")
    assert "tit-for-tat" in classic("iterated_prisoners_dilemma")
    assert {"equilibrium", "adaptive", "random"} <= set(classic("guess_2_3"))
    for game_id in GAME_IDS:
        offered = opponents_for(get(game_id))
        assert all(o.label and o.note for o in offered)
        levels = ladder(game_id).levels  # every game: its levels first, strongest first
        assert [o.spec for o in offered[:len(levels)]] == [lv.spec for lv in reversed(levels)]
        assert [o.label.split(" · ")[0] for o in offered[:3]] == \
            ["Strong", "Intermediate", "Beginner"], game_id
        assert not any(":" in o.label or o.label == "random" for o in offered[:3]), game_id
        assert {o.spec.split("+")[0] for o in offered if o.llm} >= {
            "openai/gpt-4o-mini", "anthropic/claude-sonnet-4-5", "local/smollm2-135m"}


def test_bad_choices_are_refused_with_what_is_allowed(person):
    with pytest.raises(ValueError, match="mcts would see hidden information"):
        PlaySession("kuhn_poker", "mcts", person=person)
    with pytest.raises(ValueError, match="first, second, random"):
        PlaySession("nim", "random", person=person, seat="middle")
    with pytest.raises(ValueError, match="no opponent chosen"):
        PlaySession("nim", "", person=person)
    with pytest.raises(KeyError, match="registered games"):
        PlaySession("chess960", "random", person=person)


def test_the_menu_lists_every_game_once_grouped():
    menu = game_menu()
    assert sorted(g for _, g in menu) == sorted(GAME_IDS)
    assert menu[0][0].startswith("Board games")


def test_profiles_and_people_are_validated():
    assert profile_person(None).consent is False
    kept = profile_person({"player_id": "abcdef0123456789", "consent": True, "name": " Bo  b "})
    assert (kept.player_id, kept.consent, kept.display_name) == ("abcdef0123456789", True, "Bo b")
    with pytest.raises(ValueError, match="8-64 letters, digits"):
        profile_person({"player_id": "x' OR 1=1"})  # refused with the rule, never swapped
    with pytest.raises(ValueError, match="at most 40"):
        profile_person({"player_id": "abcdef0123456789", "name": "n" * 41})  # never cut
    repaired = browser_profile({"player_id": "x' OR 1=1", "consent": True, "name": "n" * 41})
    assert Person(repaired["player_id"]) and repaired["consent"] is True  # a fresh valid id
    assert repaired["player_id"] != "x' OR 1=1" and repaired["name"] == ""
    with pytest.raises(ValueError, match="player id"):
        Person("short")
    with pytest.raises(ValueError, match="at most 40"):
        Person(new_player_id(), "n" * 41)


def test_seat_random_and_numbers(person):
    seats = {PlaySession("nim", "random", person=person, seat="random").human
             for _ in range(30)}
    assert seats == {0, 1}
    assert PlaySession("nim", "random", person=person, seat=1).human == 1


def test_the_sealed_bid_stays_out_of_the_move_list_until_the_end(person):
    session = PlaySession("first_sealed_auction", "random", person=person, seat="second",
                          seed=3)
    session.run_agents()
    assert session.record.moves[-1].seat == 0  # the agent has bid
    assert session.moves() == [] and session.last is None
    assert "bid" not in session.reasoning()
    session.play_label(session.legal()[0].label)
    session.run_agents()
    assert session.over
    assert session.moves()[0].startswith("1. Random: bid ")


def test_stop_waiting_for_a_slow_opponent_abandons_without_a_loss(store, person):
    agent = GateAgent()
    session = PlaySession("tic_tac_toe", "random", person=person, seat="second", seed=1,
                          store=store, build_agent=_gated(agent))
    progress = session.advance(poll=0.01)
    next(progress)
    assert agent.started.wait(5) and session.screen(image=False).thinking
    session.abandon("the person stopped waiting for the opponent")
    agent.release.set()
    list(progress)
    record = store.get(session.id)
    assert record.outcome == "abandoned" and record.scores is None and record.moves == []
    assert not session.thinking and "does not count as a loss" in session.status()


def test_reasoning_in_hidden_information_games_is_shown_only_after_the_game(person):
    class Talkative:
        on_event = None

        def act(self, view, *, feedback=None):
            self.on_event("reasoning", "I hold the king, so I bet.")
            move = next(m for m in view.legal if m.label == "bet")
            return Decision(ActionId(action=move.action), raw="bet",
                            reasoning="I hold the king, so I bet.")

    session = PlaySession("kuhn_poker", "random", person=person, seat="second", seed=1,
                          build_agent=lambda *a, **k: Talkative())
    session.run_agents()
    assert session.reasoning() == "" and session.screen().reasoning == ""
    session.play_label("pass")  # fold
    assert session.over and session.reasoning() == "I hold the king, so I bet."


class Announcer:
    """An agent that streams which move it is about to play, then plays it."""

    on_event = None

    def act(self, view, *, feedback=None):
        move = view.legal[-1]
        self.on_event("reasoning", f"I will play {move.label}.")
        return Decision(ActionId(action=move.action), raw=move.label,
                        reasoning=f"I will play {move.label}.")


def test_reasoning_never_tells_the_person_a_choice_of_the_round_they_are_deciding(person):
    session = PlaySession("iterated_prisoners_dilemma", "random", person=person, seed=2,
                          build_agent=lambda *a, **k: Announcer())
    session.run_agents()
    while session.agents.busy():  # the agent answers while the person thinks
        time.sleep(0.01)
    assert session.agents.streamed([1]) == "I will play defect."
    assert session.your_turn and session.record.moves == []
    assert session.reasoning() == ""  # the agent has chosen, but the person has not
    session.play_label("cooperate")
    session.run_agents()
    assert session.reasoning() == "I will play defect."  # the round is over: moves are public


def test_reasoning_in_sealed_rounds_waits_for_the_end(person):
    session = PlaySession("guess_2_3", "random", person=person, seed=2,
                          params={"num_rounds": 2}, build_agent=lambda *a, **k: Announcer())
    session.run_agents()
    for _ in range(2):
        while session.agents.busy():
            time.sleep(0.01)
        assert session.reasoning() == "" and session.screen().reasoning == ""
        session.play_number(10)
        session.run_agents()
    assert session.over and session.reasoning().startswith("I will play choose 100.")


# --- stale, oversized and repeated input --------------------------------------------------------


def test_a_move_sent_for_a_position_that_has_moved_on_is_refused(store, person):
    session = PlaySession("tic_tac_toe", "random", person=person, seat="first", seed=2,
                          store=store)
    assert session.move_number == 1 and session.snapshot()["move_number"] == 1
    assert session.play_text("C1R1", expected=1) == "Your move: C1R1."
    session.run_agents()
    assert session.move_number == 3
    before = _snapshot(session)
    stale = ("The board changed before that arrived, so it was not played: have a look and "
             "play again.")
    legal = [m.label for m in session.legal()]
    assert session.play_text(legal[0], expected=1) == stale
    assert session.click(*_centre(session, legal[0]), expected=2) == stale
    assert session.play_label(legal[0], expected=1) == stale
    assert _snapshot(session) == before and session.match.attempts(0) == []
    assert session.play_text(legal[0], expected=3) == f"Your move: {legal[0]}."


def test_move_text_past_the_cap_is_refused_unread_and_not_recorded(person):
    session = PlaySession("tic_tac_toe", "random", person=person, seat="first", seed=2)
    notice = session.play_text("C1R1 " * 1_000_000)
    assert notice == ("That move has 5,000,000 characters; at most 2,000 are read, so it "
                      "was not played (nothing was recorded).")
    assert session.match.attempts(0) == [] and session.record.moves == []
    session.play_text("x" * 2_000)  # at the cap: read, refused by the adapter, recorded
    [attempt] = session.match.attempts(0)
    assert attempt.reason == "too_long" and len(attempt.raw) == 2_000


def test_records_keep_a_bounded_prefix_of_raw_text_with_its_length_and_hash():
    import hashlib

    from games.actions import MAX_KEPT_CHARS, MoveError, Text
    from sessions.match import Match
    from sessions.record import SeatRecord

    match = Match("tic_tac_toe", [SeatRecord("llm", "x", "x")] * 2, seed=1)
    answer = "I think " * 20_000 + "C1R1"
    with pytest.raises(MoveError):
        match.submit(0, Text(text=answer, source="llm"))
    match.submit(0, Text(text="C2R2", source="llm"), reasoning="why " * 10_000)
    [attempt] = match.record.moves[0].rejected
    assert attempt.raw == answer[:MAX_KEPT_CHARS] and attempt.reason == "too_long"
    assert attempt.meta["raw_cut"] == {
        "characters": len(answer), "kept": MAX_KEPT_CHARS,
        "rest_sha256": hashlib.sha256(answer[MAX_KEPT_CHARS:].encode()).hexdigest()}
    move = match.record.moves[0]
    assert len(move.reasoning) == MAX_KEPT_CHARS
    assert move.meta["reasoning_cut"]["characters"] == 40_000
    assert len(match.record.to_json()) < 3 * MAX_KEPT_CHARS


def test_the_status_counts_down_an_agents_time_limit(person):
    agent = GateAgent()
    agent.deadline = time.monotonic() + 30.4  # as an LLM seat says while it decides
    session = PlaySession("tic_tac_toe", "random", person=person, seat="second", seed=1,
                          build_agent=_gated(agent))
    progress = session.advance(poll=0.01)
    next(progress)
    assert agent.started.wait(5)
    assert session.status() == "Random is thinking… 0 s (at most 30 s more)"
    agent.release.set()
    list(progress)


def test_the_countdown_is_shown_before_a_silent_seat_has_begun_its_first_request(person):
    """An LLM seat says nothing of its deadline until its first request is under way (its
    thread may still be starting, or drawing the board for the prompt); the status counts
    down from its silence limit meanwhile, not from nothing (CI once saw a bare "0 s")."""
    agent = GateAgent()
    agent.deadline = None
    agent.silence_seconds = 2.0
    session = PlaySession("tic_tac_toe", "random", person=person, seat="second", seed=1,
                          build_agent=_gated(agent))
    progress = session.advance(poll=0.01)
    next(progress)
    assert agent.started.wait(5)
    assert session.status() == "Random is thinking… 0 s (at most 2 s more)"
    agent.release.set()
    list(progress)
