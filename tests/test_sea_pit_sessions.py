"""Sea Battle and Pit sessions as the page plays them, stored, then rated: a person against
random agents (Pit: one person among three), short games by parameters, the store and the
ratings read back."""

from __future__ import annotations

import numpy as np
import pytest

from games.actions import ActionId
from sessions.ratings.report import Settings, rate
from sessions.ratings.results import results_from_store
from sessions.store import Store
from sessions.web.play import PlaySession
from sessions.web.players import Person


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.sqlite3") as opened:
        yield opened


def _play(store: Store, game: str, seat: int, seed: int, params: dict) -> PlaySession:
    person = Person(f"player-{game}-{seed:04d}", consent=True)
    session = PlaySession(game, "random", person=person, seat=seat, seed=seed, params=params,
                          store=store)
    rng = np.random.default_rng(seed)
    session.run_agents()
    while not session.over:
        legal = session.legal()
        session.submit(ActionId(action=legal[int(rng.integers(len(legal)))].action))
        session.run_agents()
    return session


def test_sessions_of_both_games_are_stored_and_rated(store):
    for seed in range(3):
        sea = _play(store, "sea_battle", seed % 2, seed, {"max_turns": 6})
        assert sea.record.outcome == "normal" and len(sea.record.seats) == 2
        assert sea.record.metrics["sea_battle"]["turns"] <= 6
        pit = _play(store, "pit", seed, seed, {"max_rounds": 4})
        assert len(pit.record.seats) == 4 and pit.record.seats[seed].kind == "human"
        assert pit.record.metrics["pit"]["rounds"] == 4
        assert sea.result() and pit.result().startswith("Game over: you placed")
    found = results_from_store(store)
    games = {r.game for r in found.results}
    assert games == {"sea_battle", "pit"}, found.dropped
    pits = [r for r in found.results if r.game == "pit"]
    assert all(len(r.entities) == 4 and sorted(set(r.entities)) == ["human", "random"]
               for r in pits)
    report = rate(found.results, Settings(bootstrap=50, seed=0))
    assert set(report.games) == {"sea_battle", "pit"}
    for game in ("sea_battle", "pit"):
        rated = {row.entity for row in report.games[game].rows}
        assert rated == {"human", "random"}, (game, rated)


def test_a_table_of_one_entity_is_stored_but_not_rated(store):
    from agents.specs import parse_spec
    from sessions.tournament import play_one

    record = play_one("pit", [parse_spec("random")] * 4, seed=1, params={"max_rounds": 2})
    store.save(record)
    found = results_from_store(store)
    assert not found.results and found.dropped["one entity in every seat"] == 1


@pytest.mark.parametrize(("game", "words"), [("sea_battle", "buttons under it"),
                                             ("pit", "count chip")])
def test_a_click_off_every_target_says_how_to_move(game, words):
    session = PlaySession(game, "random", person=Person("player-offtarget"), seed=3)
    session.run_agents()
    moves = len(session.record.moves)
    notice = session.click(2, 2)  # the header's corner
    assert words in notice and len(session.record.moves) == moves
