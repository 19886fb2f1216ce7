"""A person at a GAMA-Bench table, timed the three ways they can play: headless, through the
app's API and in the page.

    python benchmarks/gama_ui.py [--rounds 20] [--page-rounds 10] [--no-page]

Guess 2/3 of the Average, ten seats: the person and nine bots (equilibrium, adaptive and
random in turn). Prints

- headless: a whole session driven through sessions.web.play.PlaySession, with the screen the
  page draws after every round (results table, plot PNG, text view) and without it;
- API: a whole session through gradio_client against the real app (python app.py on a free
  loopback port): wall time from /new_game to the last /move, and each /move's latency;
- page: Playwright driving Debian's chromium: per round, from clicking Submit to the page
  showing the new row of the results table and "Your turn" again.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import percentile  # noqa: E402
from games.actions import Text  # noqa: E402
from sessions.web.play import PlaySession  # noqa: E402
from sessions.web.players import Person, new_player_id  # noqa: E402
from tests.app_server import running_app  # noqa: E402
from tests.conftest import ARGS, CHROMIUM  # noqa: E402

MIX = ["equilibrium", "adaptive", "random"] * 3
SEAT = 4


def summary(label: str, seconds: list[float]) -> str:
    p95 = percentile(seconds, 95)
    return (f"{label:<44} n={len(seconds):3d}  median {statistics.median(seconds) * 1000:7.1f} ms"
            f"  p95 {p95 * 1000:7.1f} ms  max {max(seconds) * 1000:7.1f} ms")


def headless(rounds: int, *, screens: bool) -> tuple[float, list[float]]:
    session = PlaySession("guess_2_3", MIX, person=Person(new_player_id()), seat=SEAT, seed=1,
                          params={"num_rounds": rounds})
    start = time.perf_counter()
    each = []
    session.run_agents()
    while not session.over:
        t = time.perf_counter()
        session.submit(Text(text="20"))
        session.run_agents()
        if screens:
            session.screen()
        each.append(time.perf_counter() - t)
    return time.perf_counter() - start, each


def through_api(url: str) -> tuple[float, list[float]]:
    """A whole session through /new_game and /move: the API plays the game's default
    number of rounds (it has no rounds field)."""
    from gradio_client import Client

    client = Client(url, verbose=False)
    start = time.perf_counter()
    state = client.predict("guess_2_3", ",".join(MIX), str(SEAT), "", False, "",
                           api_name="/new_game")
    each = []
    while not state["over"]:
        t = time.perf_counter()
        state = client.predict("20", api_name="/move")
        each.append(time.perf_counter() - t)
    assert len(state["results"]["rows"]) == len(each), state["results"]
    return time.perf_counter() - start, each


def in_page(url: str, rounds: int) -> list[float]:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=ARGS)
        page = browser.new_context(viewport={"width": 1280, "height": 1100}).new_page()
        page.set_default_timeout(30_000)
        page.goto(url)
        page.locator("#game input").click()
        page.get_by_role("option", name="GAMA-Bench › Guess 2/3 of the Average").click()
        page.locator("#table-rounds input").fill(str(rounds))
        page.locator("#start-table").click()
        expect(page.locator("#status")).to_contain_text("Your turn")
        rows = page.locator("#results").get_by_role("row")
        each = []
        for done in range(1, rounds + 1):
            page.locator("#decision input").fill("20")
            t = time.perf_counter()
            page.locator("#decide").click()
            expect(rows).to_have_count(done + 1)
            expect(page.locator("#status")).to_contain_text(
                "Your turn" if done < rounds else "Game over")
            each.append(time.perf_counter() - t)
        browser.close()
        return each


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--page-rounds", type=int, default=10)
    parser.add_argument("--no-page", action="store_true")
    args = parser.parse_args()
    print(f"Guess 2/3 of the Average: the person in seat {SEAT} and nine bots ({', '.join(MIX[:3])}"
          " in turn)")
    for screens in (False, True):
        total, each = headless(args.rounds, screens=screens)
        label = "headless round" + (" + screen (plot PNG, table)" if screens else "")
        print(f"{label:<44} whole {args.rounds}-round session {total:6.2f} s")
        print(summary("  per round", each))
    with tempfile.TemporaryDirectory() as data, running_app(Path(data)) as app:
        total, each = through_api(app.url)
        print(f"{'API (gradio_client)':<44} whole {len(each)}-round session {total:6.2f} s")
        print(summary("  per /move (the person's move + agents)", each))
        if not args.no_page:
            each = in_page(app.url, args.page_rounds)
            print(summary("page: Submit -> new results row, Your turn", each))


if __name__ == "__main__":
    main()
