"""Start the real app (``python app.py``) on a free loopback port with its own data directory.

Used by the gradio_client and browser tests; ``running_app`` is a context manager that stops
the server (only the process it started) when the block ends.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class RunningApp:
    url: str
    data_dir: Path
    log: Path
    pid: int

    @property
    def store_path(self) -> Path:
        return self.data_dir / "arena.sqlite3"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def running_app(data_dir: Path, *, timeout: float = 90.0,
                env: dict[str, str] | None = None) -> Iterator[RunningApp]:
    """The app on a free port; ``env`` adds to (or, with a None value, removes from) its
    environment, e.g. to point the LLM providers at a test server."""
    port = free_port()
    log = data_dir / "app.log"
    base = {**os.environ, "ARENA_DATA_DIR": str(data_dir), "GRADIO_SERVER_NAME": "127.0.0.1",
            "GRADIO_SERVER_PORT": str(port), "GRADIO_ANALYTICS_ENABLED": "False",
            "PYTHONUNBUFFERED": "1"}
    for name, value in (env or {}).items():
        base.pop(name, None)
        if value is not None:
            base[name] = value
    env = base
    data_dir.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    try:
        _wait(url, proc, log, timeout)
        yield RunningApp(url, data_dir, log, proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the app exited with {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url + "config", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"the app did not answer at {url} within {timeout} s:\n{log.read_text()}")
