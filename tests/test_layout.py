"""The code's shape: imports run downward, no import circles, and a Space can install the app.

ARCHITECTURE.md's layers, bottom up: ``games`` (rules) < ``renderers`` and ``agents`` <
``sessions`` (the match, store, CLI) and ``sessions.ratings`` < ``sessions.web`` (the page's
logic) < ``sessions.web.tabs`` (Gradio) < ``app.py``. Every import counts, also those inside
functions and under ``TYPE_CHECKING``: a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
import re
import tomllib
from collections.abc import Container
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "agents", "renderers", "sessions")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, modules: Container[str] = ()) -> set[str]:
    """Every module ``path`` imports (absolute names, also from inside functions).
    ``from pkg import sub`` counts as an import of ``pkg.sub`` when that is one of
    ``modules``, else of ``pkg``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in modules else node.module)
    return found


def _graph() -> dict[str, set[str]]:
    files = [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")] + [ROOT / "app.py"]
    modules = {_module_name(p): p for p in files}
    graph = {}
    for name, path in modules.items():
        graph[name] = {m for m in _imports(path, modules) if m in modules and m != name}
    return graph


GRAPH = _graph()


def _layer(module: str) -> str:
    for prefix in ("sessions.web.tabs", "sessions.web", "sessions.ratings", "sessions",
                   "agents", "renderers", "games", "app"):
        if module == prefix or module.startswith(prefix + "."):
            return prefix
    raise AssertionError(module)


ALLOWED = {
    "games": {"games"},
    "renderers": {"renderers", "games"},
    "agents": {"agents", "renderers", "games"},
    "sessions.ratings": {"sessions.ratings", "sessions", "games"},
    "sessions": {"sessions", "sessions.ratings", "agents", "renderers", "games"},
    "sessions.web": {"sessions.web", "sessions", "sessions.ratings", "agents", "renderers",
                     "games"},
    "sessions.web.tabs": {"sessions.web.tabs", "sessions.web", "sessions", "sessions.ratings",
                          "agents", "renderers", "games"},
    "app": {"sessions.web.tabs", "sessions.web", "sessions", "sessions.ratings", "agents",
            "renderers", "games"},
}


def test_imports_run_downward():
    wrong = sorted(f"{a} imports {b}" for a, targets in GRAPH.items() for b in targets
                   if _layer(b) not in ALLOWED[_layer(a)])
    assert not wrong, "imports against the layers of ARCHITECTURE.md:\n" + "\n".join(wrong)


def test_sessions_ratings_is_not_imported_by_the_match():
    # sessions' own modules (the match, store, tournaments) never need ratings; only the CLI
    # rates, and it imports them for the commands that rate.
    users = sorted(a for a, targets in GRAPH.items() if _layer(a) == "sessions"
                   and any(_layer(b) == "sessions.ratings" for b in targets))
    assert users == ["sessions.cli"]


def test_no_import_circles():
    seen: dict[str, int] = {}
    stack: list[str] = []
    circles: list[str] = []

    def visit(module: str) -> None:
        seen[module] = 1
        stack.append(module)
        for nxt in sorted(GRAPH[module]):
            if seen.get(nxt) == 1:
                # a parent package importing its own submodules is how packages register
                # their games; only a cycle through two unrelated modules is a circle
                cycle = stack[stack.index(nxt):] + [nxt]
                if not all(b.startswith(a + ".") for a, b in zip(cycle, cycle[1:], strict=False)):
                    circles.append(" -> ".join(cycle))
            elif nxt not in seen:
                visit(nxt)
        stack.pop()
        seen[module] = 2

    for module in sorted(GRAPH):
        if module not in seen:
            visit(module)
    assert not circles, "import circles:\n" + "\n".join(circles)


@pytest.mark.parametrize("layer", ["games", "renderers", "agents", "sessions",
                                   "sessions.ratings", "sessions.web"])
def test_only_the_tabs_import_gradio(layer):
    files = [p for p in ROOT.rglob("*.py") if ".venv" not in p.parts
             and p.is_relative_to(ROOT / layer.split(".")[0])
             and _layer(_module_name(p)) == layer]
    assert files
    users = [str(p.relative_to(ROOT)) for p in files
             if any(m == "gradio" or m.startswith("gradio.") for m in _imports(p))]
    assert not users


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~;\[ ]", requirement.strip(), maxsplit=1)[0].lower().replace("_", "-")


def test_requirements_txt_lists_every_runtime_dependency():
    """A Hugging Face Space installs requirements.txt only, not the package."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    needed = {_name(d) for d in project["dependencies"]}
    lines = (ROOT / "requirements.txt").read_text("utf-8").splitlines()
    listed = {_name(line) for line in lines if line.strip() and not line.startswith("#")}
    assert needed - listed == set(), f"requirements.txt lacks {sorted(needed - listed)}"


def test_license_is_an_spdx_string():
    """setuptools deprecates the table form (builds break after 2027-02-18)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert isinstance(project["license"], str)


def _code_map() -> set[str]:
    """The folders of the code map (docs/code-map.md): a fenced tree, two spaces per level."""
    page = (ROOT / "docs" / "code-map.md").read_text("utf-8")
    block = page.split("# Code map", 1)[1].split("```", 2)[1]
    folders, parents = set(), []
    for line in block.splitlines():
        match = re.match(r"^( *)([A-Za-z_.]+/)(?:\s|$)", line)
        if match:
            depth = len(match[1]) // 2
            parents[depth:] = [match[2]]
            folders.add("".join(parents).rstrip("/"))
    return folders


def test_code_map_matches_the_tree():
    on_disk = {str(p.parent.relative_to(ROOT)) for pkg in PACKAGES
               for p in (ROOT / pkg).rglob("__init__.py")}
    on_disk |= {"games/rules", "tests", "tests/golden", "benchmarks", "scripts"}
    mapped = _code_map()
    assert on_disk - mapped == set(), "folders missing from the code map"
    assert {m for m in mapped if not (ROOT / m).is_dir()} == set(), "mapped but not on disk"
