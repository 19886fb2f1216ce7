"""How long a person (or a tournament) waits for a provider that never answers.

tests/fake_llm_server.py accepts every connection, reads the request and never sends a
byte back (``Reply(silent=True)``). Three paths play tic-tac-toe with the language model
seated first, and the time is taken until the game ends (the model forfeits):

- CLI, compat: ``python -m sessions play tic_tac_toe compat/silent-model random`` with
  ``ARENA_COMPAT_BASE_URL`` at the server (the process's wall time, Python's start and
  imports included, and the time from the server receiving the first request to the end);
- CLI, anthropic: the same with ``anthropic/claude-haiku-4-5`` and ``ANTHROPIC_BASE_URL``;
- app: the real app (``python app.py``), ``/new_game`` through gradio_client with the
  model in the first seat, the page's own path (``PlaySession`` and its agent seats); from
  the call to its answer.

The three run at the same time. ``--code DIR`` runs the CLI and the app from another
checkout (e.g. the main branch, to measure before a change); the fake server is this one's.

    python -m benchmarks.silent_provider [--code DIR] [--limit 900]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.app_server import _wait, free_port  # noqa: E402
from tests.fake_llm_server import FakeLLM, Reply  # noqa: E402


def _env(code: Path, data: Path, fake: FakeLLM) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items()
           if not name.endswith(("_API_KEY", "_BASE_URL")) and name != "ARENA_OPPONENTS"}
    return {**env, "PYTHONPATH": str(code), "ARENA_DATA_DIR": str(data),
            "ARENA_COMPAT_BASE_URL": fake.openai_url, "ANTHROPIC_BASE_URL": fake.url,
            "ANTHROPIC_API_KEY": "sk-ant-bench-0000000000", "GRADIO_ANALYTICS_ENABLED": "False",
            "PYTHONUNBUFFERED": "1"}


def _asked(fake: FakeLLM, model: str) -> float | None:
    """When the silent server first received a request for ``model`` (time.monotonic)."""
    return min((r.at for r in fake.requests if r.body.get("model") == model), default=None)


def cli(code: Path, spec: str, fake: FakeLLM, limit: float) -> tuple[float, float, str]:
    """(wall seconds of the process, seconds from the first request to the end, the end)"""
    from sessions.store import Store

    with tempfile.TemporaryDirectory() as folder:
        command = [sys.executable, "-m", "sessions", "play", "tic_tac_toe", spec, "random",
                   "--matches", "1", "--quiet", "--db", f"{folder}/arena.sqlite3"]
        started = time.monotonic()
        try:
            done = subprocess.run(command, cwd=code, env=_env(code, Path(folder), fake),
                                  capture_output=True, text=True, timeout=limit)
        except subprocess.TimeoutExpired:
            return time.monotonic() - started, 0.0, f"still waiting after {limit:g} s"
        ended = time.monotonic()
        asked = _asked(fake, spec.split("/", 1)[1]) or started
        if done.returncode:
            return ended - started, ended - asked, done.stderr.strip()[-120:]
        with Store(Path(folder) / "arena.sqlite3") as store:
            [record] = store.records()
        return ended - started, ended - asked, f"{record.outcome}: {record.end_reason}"[:120]


def app(code: Path, fake: FakeLLM, limit: float) -> tuple[float, float, str]:
    from gradio_client import Client

    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        env = {**_env(code, Path(folder), fake), "GRADIO_SERVER_NAME": "127.0.0.1",
               "GRADIO_SERVER_PORT": str(port)}
        log = Path(folder) / "app.log"
        with log.open("w") as out:
            proc = subprocess.Popen([sys.executable, "app.py"], cwd=code, env=env, stdout=out,
                                    stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}/"
        try:
            _wait(url, proc, log, 120)
            client = Client(url, verbose=False)
            job = client.submit("tic_tac_toe", "compat/silent-app", "second",
                                "silent-benchmark", False, "", api_name="/new_game")
            started = time.monotonic()
            try:
                state = job.result(timeout=limit)
            except TimeoutError:
                return time.monotonic() - started, 0.0, f"still waiting after {limit:g} s"
            ended = time.monotonic()
            asked = _asked(fake, "silent-app") or started
            return ended - started, ended - asked, state["result"][:120]
        finally:
            proc.kill()
            proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="checkout to run (default: this)")
    parser.add_argument("--limit", type=float, default=900.0, help="give up after (seconds)")
    args = parser.parse_args()
    code = args.code.resolve()
    results: dict[str, tuple[float, float, str]] = {}
    with FakeLLM(lambda request: Reply(silent=True)) as fake:
        runs = {"CLI, compat": lambda: cli(code, "compat/silent-model", fake, args.limit),
                "CLI, anthropic": lambda: cli(code, "anthropic/claude-haiku-4-5", fake,
                                              args.limit),
                "app, /new_game": lambda: app(code, fake, args.limit)}
        threads = [threading.Thread(target=lambda n=n, r=r: results.__setitem__(n, r()))
                   for n, r in runs.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        asked = len(fake.requests)
    print(f"A provider that never answers; code from {code}")
    print(f"  {'path':<16} {'wall':>8} {'asked->end':>11}   how it ended")
    for name in runs:
        seconds, waited, said = results[name]
        print(f"  {name:<16} {seconds:7.1f}s {waited:10.1f}s   {said}")
    print(f"  requests the silent server received: {asked}")


if __name__ == "__main__":
    main()
