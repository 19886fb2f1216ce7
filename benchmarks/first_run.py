"""A newcomer's first run, timed: python -m benchmarks.first_run [--keep DIR]

Clones this repository into a temporary folder, runs the README's one app command there
(read from its Quick start: the first ``python3 -m venv`` line of a code block), and
prints: the seconds until the page serves, how the offline language model is listed from
then on (being prepared, with its step, until ready: never unavailable), the seconds until it
is ready, and a game of tic-tac-toe played against it through the API. Needs the package
registry (as the README's command does); nothing else from outside.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SMOLLM = "local/smollm2-135m"


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", type=Path, default=None, help="clone here and keep it")
    parser.add_argument("--limit", type=float, default=1800.0, help="give up after (s)")
    parser.add_argument("--no-cache", action="store_true",
                        help="as a fresh machine: pip's and uv's caches off (else a wheel of "
                             "llama.cpp built earlier on this machine is reused and nothing "
                             "compiles)")
    args = parser.parse_args()
    where = args.keep or Path(tempfile.mkdtemp(prefix="arena-first-run-"))
    clone = where / "clone"
    subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env.update(GRADIO_SERVER_PORT=str(port), GRADIO_SERVER_NAME="127.0.0.1",
               GRADIO_ANALYTICS_ENABLED="False", ARENA_DATA_DIR=str(where / "data"),
               PATH=os.defpath,
               **({"PIP_NO_CACHE_DIR": "1", "UV_NO_CACHE": "1"} if args.no_cache else {}))
    command = readme_command()
    log = (where / "first-run.log").open("w")
    started = time.monotonic()
    print(f"{0:7.0f} s  {command}  (in {clone})", flush=True)
    app = subprocess.Popen(["bash", "-c", command], cwd=clone, env=env, stdout=log,
                           stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    try:
        served = _wait_page(url, app, started, args.limit)
        print(f"{served:7.0f} s  the page serves", flush=True)
        ready = _watch_model(clone, url, started, args.limit)
        print(f"{ready:7.0f} s  {SMOLLM} is ready ({ready - served:.0f} s after the page)",
              flush=True)
        _play(clone, url, started)
    finally:
        os.killpg(app.pid, 15)
        app.wait(timeout=30)
        log.close()
        if args.keep is None:
            shutil.rmtree(where, ignore_errors=True)


def readme_command() -> str:
    """The README's one app command: the first code-block line that makes the venv."""
    for line in (ROOT / "README.md").read_text().splitlines():
        if line.startswith("python3 -m venv .venv") and "app.py" in line:
            return line.strip()
    raise SystemExit("README.md has no one-line app command (python3 -m venv .venv ... app.py)")


def _wait_page(url: str, app: subprocess.Popen[bytes], started: float, limit: float) -> float:
    while time.monotonic() - started < limit:
        if app.poll() is not None:
            raise SystemExit(f"the app command exited with {app.returncode}")
        try:
            with urllib.request.urlopen(url + "config", timeout=2) as answer:
                if answer.status == 200:
                    return time.monotonic() - started
        except OSError:
            pass
        time.sleep(1)
    raise SystemExit("the page did not serve in time")


def _client_script(clone: Path, code: str) -> str:
    """Run ``code`` with the clone's own Python (its gradio_client); its output."""
    done = subprocess.run([str(clone / ".venv/bin/python"), "-c", code], capture_output=True,
                          text=True, cwd=clone, timeout=600)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return done.stdout


def _watch_model(clone: Path, url: str, started: float, limit: float) -> float:
    code = (f"from gradio_client import Client\nimport json\nc = Client({url!r}, verbose=False)\n"
            "o = [x for x in c.predict('tic_tac_toe', api_name='/opponents')['opponents'] "
            f"if x['spec'].startswith({SMOLLM!r})][0]\nprint(json.dumps(o))")
    import json

    last = ""
    while time.monotonic() - started < limit:
        entry = json.loads(_client_script(clone, code))
        shown = f"{entry['status']}: {entry['label']} | {entry['note'][:90]}"
        if shown != last:
            print(f"{time.monotonic() - started:7.0f} s  listed as {shown}", flush=True)
            last = shown
        if entry["status"] == "ready":
            return time.monotonic() - started
        if entry["status"] == "unavailable":
            raise SystemExit("the offline model was listed as unavailable")
        time.sleep(10)
    raise SystemExit("the offline model was not ready in time")


def _play(clone: Path, url: str, started: float) -> None:
    code = (f"from gradio_client import Client\nc = Client({url!r}, verbose=False)\n"
            f"s = c.predict('tic_tac_toe', {SMOLLM!r}, 'first', 'firstrun01', False, '', "
            "api_name='/new_game')\n"
            "while not s['over']:\n"
            "    s = c.predict(s['legal'][0], None, api_name='/move')\n"
            "print(s['status'], '|', len(s['moves']), 'moves')")
    begun = time.monotonic()
    out = _client_script(clone, code).strip()
    print(f"{time.monotonic() - started:7.0f} s  a game against {SMOLLM} through the API: "
          f"{out} ({time.monotonic() - begun:.0f} s)", flush=True)


if __name__ == "__main__":
    sys.exit(main())
