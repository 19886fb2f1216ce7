"""LLM opponents: OpenAI, Anthropic, OpenAI-compatible servers and an offline local model.

``agents.specs`` builds ``openai/``, ``anthropic/``, ``compat/`` and ``local/`` specs through
``agents.llm.providers`` (imported when it first meets an LLM spec).

For the page:

- :func:`opponent_choices` lists the named opponents for an opponent picker, each with its
  spec and whether it can be played now (a key in the environment, the local model
  installed) or needs a key typed in.
- ``make_agent(spec, game, params, seed=..., api_key=..., on_event=...)`` builds the seat;
  ``api_key`` is held by that agent's SDK client only, ``on_event`` receives
  :class:`LLMEvent` s (see ``agents.llm.events``). ``agent.cancel()`` stops a seat that is
  thinking; ``agent.usage`` is what the seat has spent in the session;
  ``agent.settings()`` fills the seat record.
- :func:`local_servers` owns the offline model's server (started on demand, stopped at exit).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from agents.llm.agent import LLMAgent
from agents.llm.calls import Budget
from agents.llm.config import ConfigError, Opponent, Opponents, load_opponents
from agents.llm.events import LLMEvent
from agents.llm.local import LocalModelError, LocalServer, LocalServers, local_servers, missing
from agents.llm.providers import MissingKey, build_agent, canonical_modes
from agents.llm.usage import Usage

__all__ = [
    "Budget", "Choice", "ConfigError", "LLMAgent", "LLMEvent", "LocalModelError", "LocalServer",
    "LocalServers", "MissingKey", "Opponent", "Opponents", "Usage", "build_agent",
    "canonical_modes", "load_opponents", "local_servers", "opponent_choices",
]



@dataclass(frozen=True)
class Choice:
    """One entry of the opponent picker.

    ``spec`` is what to pass to ``make_agent``; ``entity`` is the name ratings use.
    ``status`` is ``ready`` (playable now), ``needs_key`` (ask the person for a key; the
    variables that would hold it are ``key_names``), ``preparing`` (the offline model is
    being installed in the background; ``note`` says the step and its progress) or
    ``unavailable`` (``note`` says why).
    """

    id: str
    title: str
    spec: str
    entity: str
    provider: str
    status: str
    key_names: tuple[str, ...] = ()
    note: str = ""
    vision: bool = False
    price_input: float | None = None
    price_output: float | None = None


def opponent_choices(*, env: Mapping[str, str] | None = None,
                     opponents: Opponents | None = None) -> list[Choice]:
    """The named LLM opponents, with whether each can be played now."""
    env = os.environ if env is None else env
    opponents = opponents or load_opponents(env=env)
    return [_choice(entry, env, opponents) for entry in opponents]


def _choice(entry: Opponent, env: Mapping[str, str], opponents: Opponents) -> Choice:
    modes = canonical_modes(entry.provider, entry.model, (), opponents=opponents)
    written = "+".join(m for m in entry.mode.split("+") if m) if entry.mode else ""
    spec = entry.spec + (f"+{written}" if written else "")
    status, note = "ready", ""
    names = tuple(entry.key_names())
    if entry.provider == "local":
        status, note = _local_status(entry)
        names = ()
    elif entry.provider in ("openai", "anthropic", "hf") and not any(env.get(n) for n in names):
        status, note = "needs_key", f"set {' or '.join(names)} or enter a key"
    return Choice(entry.id, entry.name, spec, "+".join([entry.spec, *modes]), entry.provider,
                  status, names, note, "vision" in modes, entry.price_input,
                  entry.price_output)


def _local_status(entry: Opponent) -> tuple[str, str]:
    """An offline opponent's status: ready, being prepared (with the step), or unavailable
    (what is missing, or why its preparation failed)."""
    from agents.llm.prepare import preparation

    problem = missing(entry)
    if problem is None:
        return "ready", ""
    progress = preparation().progress(entry)
    if progress is None:
        return "unavailable", problem
    if progress.state == "failed":
        return "unavailable", f"its preparation failed: {progress.problem}"
    return "preparing", progress.step
