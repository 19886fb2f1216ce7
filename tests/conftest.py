"""Shared helpers for the test suite."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pyspiel
import pytest

from games.registry import GameSpec, all_games

GAMES = all_games()
GAME_IDS = [spec.id for spec in GAMES]

CHROMIUM = Path("/usr/bin/chromium")
"""The browser of the UI tests (Debian's chromium, driven by Playwright)."""
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
WAIT = 20_000
"""How long a browser test waits for the page to show something (ms)."""
EXPECT = 10_000
"""How long a browser test's ``expect`` waits for what it checks (ms; Playwright's default is
5,000)."""


def fixed_params(spec: GameSpec, seed: int = 7) -> dict[str, object]:
    """The spec's default parameters, with a game-internal seed pinned when it has one."""
    params = spec.params()
    if spec.seed_param:
        params[spec.seed_param] = seed
    return params


def random_states(spec: GameSpec, seed: int, limit: int = 400) -> list[pyspiel.State]:
    """Every state along one random playout of ``spec`` (chance included), last one terminal."""
    rng = np.random.default_rng(seed)
    state = spec.load(fixed_params(spec, seed)).new_initial_state()
    states = [state.clone()]
    while not state.is_terminal() and len(states) < limit:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probs = np.array([p for _, p in outcomes])
            state.apply_action(int(outcomes[rng.choice(len(outcomes), p=probs / probs.sum())][0]))
        elif state.is_simultaneous_node():
            state.apply_actions([int(rng.choice(state.legal_actions(p)))
                                 for p in range(state.num_players())])
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
        states.append(state.clone())
    return states


def acting_players(state: pyspiel.State) -> list[int]:
    if state.is_terminal() or state.is_chance_node():
        return []
    if state.is_simultaneous_node():
        return [p for p in range(state.num_players()) if state.legal_actions(p)]
    return [state.current_player()]


@pytest.fixture(params=GAME_IDS)
def game_spec(request: pytest.FixtureRequest) -> GameSpec:
    return next(spec for spec in GAMES if spec.id == request.param)


# --- the browser tests ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser():
    """Chromium, once per test module."""
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed (scripts/test.sh installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    # what the page shows may take longer than Playwright's 5 s on a busy 2-core machine (the
    # first load of the page, a streamed answer); a wait that ends in time is not slowed
    sync_api.expect.set_options(timeout=EXPECT)
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def viewport() -> dict[str, int]:
    """The browser window of :func:`page` (a test module may ask for a taller one)."""
    return {"width": 1280, "height": 1100}


@pytest.fixture
def page(browser, app, viewport):
    """A fresh browser tab on the test module's ``app`` fixture (a running app)."""
    context = browser.new_context(viewport=viewport)
    opened = context.new_page()
    opened.set_default_timeout(WAIT)
    opened.goto(app.url)
    yield opened
    context.close()


@pytest.fixture
def phone(browser, app):
    """A fresh tab on the test module's ``app`` as a phone held upright: 390 × 844 CSS
    pixels, touch."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    tab = context.new_page()
    tab.set_default_timeout(WAIT)
    tab.goto(app.url)
    yield tab
    context.close()


# --- the store's backends ------------------------------------------------------------------

BACKENDS = ["sqlite", "postgresql"]


@pytest.fixture(scope="session")
def postgres_server():
    """A real PostgreSQL server on a loopback port (tests/postgres.py), once per test run
    (per xdist worker)."""
    from tests import postgres

    if postgres.binaries() is None:
        pytest.skip("Debian's postgresql is not installed (scripts/test.sh installs it)")
    pytest.importorskip("psycopg")
    with postgres.running_postgres() as server:
        yield server


@pytest.fixture(params=BACKENDS)
def store_location(request, tmp_path) -> str:
    """Where a fresh, empty store is: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "arena.sqlite3")
    from tests import postgres

    server = request.getfixturevalue("postgres_server")
    return postgres.database(server, f"t{abs(hash(request.node.nodeid)) % 10**12}")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On CI (``CI=true``) a browser test, and only a browser test, may be run once more
    after a failure (pytest-rerunfailures): each retry is printed in the summary as RERUN
    (scripts/test.sh asks pytest for ``-r R``). A test that needs its retry often is a
    defect to fix, not to hide."""
    if os.environ.get("CI") != "true" or not config.pluginmanager.hasplugin("rerunfailures"):
        return
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.flaky(reruns=1))
