"""A person's own rating (issue 22, item 21): each person who shared games is rated on the
agents' scale under their anonymous id, per game and overall, with an interval, game count
and place among people; the Leaderboard's People view lists those who chose a display name;
the pooled ``human`` entity of the main table stays."""

from __future__ import annotations

import time

import pytest

from sessions.ratings.results import HUMAN, results_from_store
from sessions.store import Store
from sessions.web import people
from sessions.web.play import PlaySession
from sessions.web.players import Person, new_player_id


@pytest.fixture
def store(tmp_path):
    with Store(tmp_path / "arena.sqlite3") as opened:
        yield opened


def _game(store: Store, person: Person, game: str, seed: int, *, win: bool) -> None:
    """A finished game: played to the end (the person's first legal move each turn; these
    seeds win or draw against Random) or, when not ``win``, resigned at once (a loss)."""
    session = PlaySession(game, "random", person=person, seat="first", store=store, seed=seed)
    session.run_agents()
    if not win:
        session.resign()
        return
    while not session.over:
        session.play_label(session.legal()[0].label)
        session.run_agents()


def test_each_person_gets_their_own_rating_and_place_among_people(store):
    ada = Person(new_player_id(), "Ada", consent=True)
    bob = Person(new_player_id(), "", consent=True)  # no display name: rated, not listed
    cy = Person(new_player_id(), "Cy", consent=False)  # not shared: not rated
    for seed in range(4):
        _game(store, ada, "tic_tac_toe", seed, win=True)
        _game(store, bob, "tic_tac_toe", 10 + seed, win=False)
        _game(store, cy, "tic_tac_toe", 20 + seed, win=False)
    _game(store, ada, "connect_four", 40, win=False)
    ratings = people.compute(store, bootstrap=50)
    overall = ratings.report.overall
    assert overall.get(people.entity(ada.player_id)) is not None
    assert overall.get(people.entity(cy.player_id)) is None and overall.get(HUMAN) is None
    assert ratings.place(bob.player_id) == (2, 2)
    mine = people.your_rating(ratings, ada.player_id, True)
    assert mine[0].startswith("Overall: ") and "over 5 games; 1st of 2 people." in mine[0]
    assert "90% interval" in mine[0]
    assert any(line.startswith("Tic-tac-toe: ") and "over 4 games" in line for line in mine)
    assert any(line.startswith("Connect Four: ") and "over 1 game;" in line for line in mine)
    headers, rows = people.people_table(ratings)
    assert headers[:2] == ["place", "person"] and [row[1] for row in rows] == ["Ada"]
    assert rows[0][0] == 1 and rows[0][4] == 5
    assert "allow research use" in people.your_rating(ratings, cy.player_id, False)[0]
    fresh = people.your_rating(ratings, new_player_id(), True)
    assert fresh == ["No rated games yet: your rating appears after your first finished game."]
    pooled = {e for r in results_from_store(store).results for e in r.entities}
    assert HUMAN in pooled  # the Leaderboard's pooled entity is untouched


def test_the_ratings_are_kept_until_the_store_changes_then_updated_behind_the_answer(store):
    ada = Person(new_player_id(), "Ada", consent=True)
    _game(store, ada, "tic_tac_toe", 1, win=True)
    cache = people.Cache()
    first = cache.get(store)
    assert cache.get(store) is first and not first.updating
    _game(store, ada, "tic_tac_toe", 2, win=False)
    stale = cache.get(store)  # answered at once with what was kept, marked as updating
    assert stale.updating and stale.report is first.report
    assert "being counted" in people.your_rating(stale, ada.player_id, True)[0]
    deadline = time.monotonic() + 20
    while cache.get(store).updating and time.monotonic() < deadline:
        time.sleep(0.05)
    again = cache.get(store)
    assert not again.updating
    assert again.report.overall.get(people.entity(ada.player_id)).matches == 2
    _game(store, ada, "tic_tac_toe", 3, win=False)
    assert cache.get(store, fresh=True).report.overall.get(
        people.entity(ada.player_id)).matches == 3
