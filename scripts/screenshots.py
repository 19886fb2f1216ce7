"""Screenshots of the Play tab, to look at as a player would: python -m scripts.screenshots

Starts the real app (``python app.py``, a fresh data directory) and drives Debian's chromium
with Playwright at 1280 px (desktop) and 390 px (a phone held upright). For tic-tac-toe, Hive,
liar's dice and a GAMA-Bench table (Guess 2/3 of the Average) it saves the page before and
after the person's first move:

    tests/artifacts/play-<game>-<width>-before.png, ...-after.png

(tests/artifacts/ is gitignored: the pictures change with every run, so they are made, not
kept.) ``--games`` picks some of tic_tac_toe, hive, liars_dice, guess_2_3; ``--out`` another
folder.
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


def liars_dice(page, narrow: bool) -> None:
    page.locator("#moves-buttons button").first.click()


def guess(page, narrow: bool) -> None:
    page.locator("#decision input").fill("30")
    page.locator("#decide").click()


GAMES: dict[str, tuple[str, Callable[..., None]]] = {
    "tic_tac_toe": ("Board games › Tic-tac-toe", tic_tac_toe),
    "hive": ("Board games › Hive", hive_move),
    "liars_dice": ("Cards, dice and bids › Liar's dice", liars_dice),
    "guess_2_3": ("GAMA-Bench › Guess 2/3 of the Average", guess),
}


def open_game(page, game_id: str, label: str) -> None:
    _choose(page, "game", label)
    if game_id == "guess_2_3":
        page.locator("#table-rounds input").fill("5")
        page.locator("#start-table").click()
    else:
        _choose(page, "opponent", "Random")
        page.locator("#start").click()
    page.locator("#board img").wait_for()
    page.locator("#status").filter(has_text=re.compile("Your turn")).wait_for()
    page.wait_for_function("() => document.querySelector('#board img')?.naturalWidth > 0")


def shoot(out: Path, games: list[str]) -> list[Path]:
    from playwright.sync_api import sync_playwright

    saved = []
    with tempfile.TemporaryDirectory() as data, running_app(Path(data)) as app, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=ARGS)
        for width, height in WIDTHS.items():
            for game_id in games:
                label, move = GAMES[game_id]
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.set_default_timeout(WAIT)
                page.goto(app.url)
                page.get_by_role("button", name="No thanks, just let me play").click()
                open_game(page, game_id, label)
                for when in ("before", "after"):
                    if when == "after":
                        before = page.locator("#moves textarea").input_value()
                        move(page, width < PHONE)
                        page.wait_for_function(
                            "(b) => document.querySelector('#moves textarea').value !== b",
                            arg=before)
                        page.locator("#status").filter(
                            has_text=re.compile("Your turn|Game over")).wait_for()
                    page.wait_for_timeout(400)  # let the image and panels settle
                    path = out / f"play-{game_id}-{width}-{when}.png"
                    page.screenshot(path=str(path), full_page=True)
                    saved.append(path)
                context.close()
        browser.close()
    return saved


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--out", type=Path, default=ROOT / "tests" / "artifacts")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for path in shoot(args.out, args.games):
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


if __name__ == "__main__":
    main()
