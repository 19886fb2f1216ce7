"""A read-only data folder at start: every page says so in a banner and every request that
needs the store gets the store's own one-line reason, not Gradio's generic error (issue 24,
item 3). Run as a process that cannot write the folder (root loses its file-mode override)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = """
import json
import gradio as gr
from sessions.web.tabs import site
banner = site.store_notice()
try:
    site.store()
    error = None
except gr.Error as err:
    error = err.message
print(json.dumps({"banner": banner, "error": error}))
"""


def test_a_read_only_data_folder_gives_a_banner_and_a_clear_error(tmp_path):
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o555)
    command = [sys.executable, "-c", SCRIPT]
    if os.geteuid() == 0:
        caps = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}", "--", *command]
    try:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "ARENA_DATA_DIR": str(folder)})
    finally:
        folder.chmod(0o755)
    assert done.returncode == 0, done.stderr
    said = json.loads(done.stdout.strip().splitlines()[-1])
    reason = (f"Games cannot be stored or read on this server now: cannot write the store "
              f"{folder}/arena.sqlite3: the folder {folder} is read-only")
    assert said["banner"]["visible"] is True and reason in said["banner"]["value"]
    assert said["error"].startswith(reason)
    assert list(folder.iterdir()) == []
