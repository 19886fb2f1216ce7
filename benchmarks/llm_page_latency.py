"""How fast the page shows what a language model streams, and how fast "end the game" stops it.

The real app runs with its OpenAI SDK pointed at tests/fake_llm_server.py; Debian's chromium
(Playwright) plays tic-tac-toe against ``openai/gpt-4o-mini+cot``. The server streams
numbered words (``w01 w02 …``, one every ``--gap`` seconds) and notes the wall-clock time it
wrote each one; a MutationObserver in the page notes when each word first appears in the
thinking panel. Same machine, same clock:

- token -> page: from the server writing a word to the word showing in the panel;
- end the game: from the click on "Stop waiting" to the status saying the game is abandoned,
  to the record's end time (server side), and to the server seeing the streaming call hung
  up (the SDK stream closed by ``agent.cancel()``).

    python benchmarks/llm_page_latency.py [--words 40] [--gap 0.25] [--stops 5]
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import percentile  # noqa: E402
from sessions.store import Store  # noqa: E402
from tests.app_server import running_app  # noqa: E402
from tests.conftest import ARGS, CHROMIUM  # noqa: E402
from tests.fake_llm_server import FakeLLM, Reply, Request  # noqa: E402
from tests.test_browser import _answer_consent, _choose, _click_board  # noqa: E402

WATCH = """() => {
  window.__seen = {};
  window.__abandoned = undefined;
  window.__clicked = undefined;
  if (window.__watching) return;
  window.__watching = true;
  document.addEventListener('click', (e) => {
    if (e.target.closest('#stop-waiting')) window.__clicked = Date.now() / 1000;
  }, true);
  const record = () => {
    const panel = document.querySelector('#llm-panel');
    if (!panel) return;
    for (const word of panel.innerText.match(/w\\d\\d\\b/g) || []) {
      if (!(word in window.__seen)) window.__seen[word] = Date.now() / 1000;
    }
    const status = document.querySelector('#status');
    if (status && /abandoned/.test(status.innerText) && !window.__abandoned) {
      window.__abandoned = Date.now() / 1000;
    }
  };
  new MutationObserver(record).observe(document.body,
    {subtree: true, childList: true, characterData: true});
}"""


def words(count: int) -> str:
    return "".join(f"w{i:02d} " for i in range(1, count + 1))


def summary(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"n={len(ms)}  median {statistics.median(ms):.0f} ms  "
            f"p95 {percentile(ms, 95):.0f} ms  max {max(ms):.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--words", type=int, default=40)
    parser.add_argument("--gap", type=float, default=0.25)
    parser.add_argument("--stops", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import expect, sync_playwright

    state = {"mode": "stream"}

    def respond(request: Request) -> Reply:
        text = words(args.words) if state["mode"] == "stream" else "x" * 2000
        return Reply(text=f"{text}\nFinal answer: {request.legal_moves()[0]}",
                     piece=4, gap=args.gap if state["mode"] == "stream" else 0.05)

    with FakeLLM(respond) as fake, tempfile.TemporaryDirectory() as data:
        env = {"OPENAI_BASE_URL": fake.openai_url, "OPENAI_API_KEY": "sk-bench-000000000000",
               "ARENA_OPPONENTS": None}
        with running_app(Path(data), env=env) as app, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                                 args=ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 1200})
            page.set_default_timeout(60_000)
            page.goto(app.url)
            _answer_consent(page, name="Bench")

            def start() -> None:
                _choose(page, "game", "Board games › Tic-tac-toe")
                _choose(page, "opponent", "GPT-4o mini · language model")
                page.locator("#reasoning-mode").get_by_text("Chain of thought").click()
                page.locator("#start").click()
                expect(page.locator("#moves textarea")).to_have_value("")  # the new game
                expect(page.locator("#status")).to_contain_text("Your turn")
                page.evaluate(WATCH)

            # token -> page
            start()
            _click_board(page, "tic_tac_toe", "C2R2")
            expect(page.locator("#moves textarea")).to_have_value(
                re.compile(r"2\. GPT-4o mini"), timeout=args.words * 1000)
            seen = page.evaluate("() => window.__seen")
            stream = fake.requests[-1]
            sent = stream.sent[1:1 + args.words]  # event 0 is the role; then one word each
            delays = [seen[f"w{i + 1:02d}"] - at for i, at in enumerate(sent)
                      if f"w{i + 1:02d}" in seen]
            print(f"token -> page ({args.words} words, one every {args.gap} s): "
                  f"{summary(delays)}; words never shown: {args.words - len(delays)}")

            # end the game while it streams
            state["mode"] = "stop"
            to_status, to_record, to_hangup = [], [], []
            for _ in range(args.stops):
                start()
                _click_board(page, "tic_tac_toe", "C2R2")
                expect(page.locator("#llm-panel")).to_contain_text("xxxx")
                button = page.locator("#stop-waiting")
                button.click()
                expect(page.locator("#status")).to_contain_text("abandoned")
                pressed = page.evaluate("() => window.__clicked")  # the browser's click
                to_status.append(page.evaluate("() => window.__abandoned") - pressed)
                call = fake.requests[-1]
                deadline = time.monotonic() + 10
                while call.hung_up is None and time.monotonic() < deadline:
                    time.sleep(0.01)
                to_hangup.append((call.hung_up or float("nan")) - pressed)
                with Store(app.store_path) as store:
                    record = max(store.records(), key=lambda r: r.started_at)
                assert record.outcome == "abandoned"
                to_record.append(record.ended_at - pressed)
            print(f"end the game: click -> status shows abandoned: {summary(to_status)}")
            print(f"              click -> record ended (server): {summary(to_record)}")
            print(f"              click -> model call hung up:    {summary(to_hangup)}")
            browser.close()


if __name__ == "__main__":
    main()
