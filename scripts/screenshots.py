"""Screenshots of the page, to look at as a player would: python -m scripts.screenshots

Starts the real app (``python app.py``, a fresh data directory) and drives Debian's chromium
with Playwright at 1280 px (desktop) and 390 px (a phone held upright). One game of every
family on the Play tab — board games (tic-tac-toe, Hive), cards, dice and bids (liar's
dice), chance games (Pig), word and social games (Codenames) and GAMA-Bench (Guess 2/3 of
the Average) — before and after the person's first move (Codenames at its first screen),
then the Watch tab with two agents playing and the spectator page of that game:

    tests/artifacts/play-<game>-<width>-before.png, ...-after.png
    tests/artifacts/play-tic_tac_toe-1280-dark.png    (the dark theme)
    tests/artifacts/watch-<width>.png, spectator-<width>.png

(tests/artifacts/ is gitignored: the pictures change with every run, so they are made, not
kept.) ``--games`` picks some of the games (``--games`` with none: only the Watch tab and
the spectator page); ``--no-watch`` leaves those out; ``--out`` another folder.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.gamebench import hive  # noqa: E402
from games.registry import get  # noqa: E402
from renderers import renderer  # noqa: E402
from tests.app_server import running_app  # noqa: E402
from tests.conftest import ARGS, CHROMIUM, WAIT  # noqa: E402
from tests.test_browser import _choose, _click_pixel  # noqa: E402

WIDTHS = {1280: 800, 390: 844}
"""Viewport width -> height (a laptop; an iPhone 12-15 held upright)."""
PHONE = 700


def first_state(game_id: str):  # noqa: ANN201 - a pyspiel state
    spec = get(game_id)
    return spec.load(spec.params()).new_initial_state()


def click_target(page, game_id: str, target: str, state, *, narrow: bool) -> None:
    module = renderer(game_id)
    wide = not (narrow and getattr(module, "NARROW", False))
    centres = module.centres(state, 0) if wide else module.centres(state, 0, narrow=True)
    _click_pixel(page, *centres[target])


def tic_tac_toe(page, narrow: bool) -> None:
    click_target(page, "tic_tac_toe", "C2R2", first_state("tic_tac_toe"), narrow=narrow)


def hive_move(page, narrow: bool) -> None:
    state = first_state("hive")
    click_target(page, "hive", "wA1", state, narrow=narrow)
    page.locator("#notice").filter(has_text="wA1 selected").wait_for()
    target = hive.hex_name(next(iter(hive.choices(state).targets("wA1"))))
    click_target(page, "hive", target, state, narrow=narrow)


def first_button(page, narrow: bool) -> None:
    page.locator("#moves-buttons button").first.click()


def guess(page, narrow: bool) -> None:
    page.locator("#decision input").fill("30")
    page.locator("#decide").click()


Move = Callable[..., None] | None
GAMES: dict[str, tuple[str, Move]] = {
    "tic_tac_toe": ("Board games › Tic-tac-toe", tic_tac_toe),
    "hive": ("Board games › Hive", hive_move),
    "liars_dice": ("Cards, dice and bids › Liar's dice", first_button),
    "pig": ("Chance and repeated games › Pig", first_button),
    "codenames": ("Word and social games › Codenames", None),
    "guess_2_3": ("GAMA-Bench › Guess 2/3 of the Average", guess),
}
"""Game id -> (its label in the game menu, the person's first move; None: no move shot)."""


def open_game(page, game_id: str, label: str) -> None:
    _choose(page, "game", label)
    if game_id == "guess_2_3":
        page.locator("#table-rounds input").fill("5")
        page.locator("#start-table").click()
    elif game_id == "codenames":
        _choose(page, "talk-seat", "Red operative")
        page.locator("#start-talk").click()
        page.locator("#talk-seats").filter(has_text="Red operative: you").wait_for()
    else:
        _choose(page, "opponent", "Beginner · Random")
        page.locator("#start").click()
    page.locator("#board img").wait_for()
    page.locator("#status").filter(has_text=re.compile("Your turn")).wait_for()
    page.wait_for_function("() => document.querySelector('#board img')?.naturalWidth > 0")


def settle(page) -> None:
    page.wait_for_timeout(400)  # let the image and panels settle


def play_shots(browser, url: str, out: Path, games: list[str]) -> list[Path]:
    saved = []
    for width, height in WIDTHS.items():
        for game_id in games:
            label, move = GAMES[game_id]
            context = browser.new_context(viewport={"width": width, "height": height})
            page = context.new_page()
            page.set_default_timeout(WAIT)
            page.goto(url)
            page.get_by_role("button", name="No thanks, just let me play").click()
            open_game(page, game_id, label)
            for when in ("before", "after") if move is not None else ("before",):
                if when == "after" and move is not None:
                    before = page.locator("#moves textarea").input_value()
                    move(page, width < PHONE)
                    page.wait_for_function(
                        "(b) => document.querySelector('#moves textarea').value !== b",
                        arg=before)
                    page.locator("#status").filter(
                        has_text=re.compile("Your turn|Game over")).wait_for()
                settle(page)
                path = out / f"play-{game_id}-{width}-{when}.png"
                page.screenshot(path=str(path), full_page=True)
                saved.append(path)
            context.close()
    if "tic_tac_toe" in games:
        saved.append(dark_shot(browser, url, out))
    return saved


def dark_shot(browser, url: str, out: Path) -> Path:
    """Tic-tac-toe after a move, in the dark theme."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(WAIT)
    page.goto(url + "?__theme=dark")
    page.get_by_role("button", name="No thanks, just let me play").click()
    open_game(page, "tic_tac_toe", GAMES["tic_tac_toe"][0])
    tic_tac_toe(page, False)
    page.wait_for_function(  # the list is hidden: read its value
        "() => document.querySelector('#moves textarea').value.includes('2. ')")
    settle(page)
    path = out / "play-tic_tac_toe-1280-dark.png"
    page.screenshot(path=str(path), full_page=True)
    context.close()
    return path


def pick(page, elem_id: str, option: str) -> None:
    """``option`` in the dropdown ``elem_id`` (the seat pickers offer the same names)."""
    page.locator(f"#{elem_id} input").click()
    page.locator(f"#{elem_id}").get_by_role("option", name=option, exact=True).click()


def watch_shots(browser, url: str, out: Path) -> list[Path]:
    """The Watch tab (MCTS against Random at Connect Four, a few moves in) at each width,
    and that game's spectator page at each width."""
    saved = []
    link = ""
    for width, height in WIDTHS.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(WAIT)
        page.goto(url)
        page.get_by_role("button", name="No thanks, just let me play").click()
        page.get_by_role("tab", name="Watch").click()
        _choose(page, "watch-game", "Board games › Connect Four")
        pick(page, "watch-seat-0", "Strong · MCTS (1000 simulations)")
        pick(page, "watch-seat-1", "Beginner · Random")
        page.locator("#watch-speed").get_by_text("0.5 s", exact=True).click()
        page.locator("#watch-start").click()
        page.wait_for_function("() => (document.querySelector('#watch-moves textarea')"
                               "?.value || '').split('\\n').filter(Boolean).length >= 4")
        settle(page)
        path = out / f"watch-{width}.png"
        page.screenshot(path=str(path), full_page=True)
        saved.append(path)
        link = page.locator("#watch-link a").get_attribute("href") or link
        for size, tall in WIDTHS.items():
            if size != width:
                continue
            viewer = browser.new_context(viewport={"width": size, "height": tall})
            other = viewer.new_page()
            other.set_default_timeout(WAIT)
            other.goto(link)
            other.locator("#watch-board img").wait_for()
            settle(other)
            path = out / f"spectator-{size}.png"
            other.screenshot(path=str(path), full_page=True)
            saved.append(path)
            viewer.close()
        context.close()
    return saved


def shoot(out: Path, games: list[str], watch: bool = True) -> list[Path]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as data, running_app(Path(data)) as app, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=ARGS)
        saved = play_shots(browser, app.url, out, games)
        if watch:
            saved += watch_shots(browser, app.url, out)
        browser.close()
    return saved


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--no-watch", action="store_true",
                        help="leave out the Watch tab and the spectator page")
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "artifacts")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in shoot(args.out, args.games, watch=not args.no_watch):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
