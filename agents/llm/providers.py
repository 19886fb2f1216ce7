"""LLM specs → agents: the four providers, their keys and endpoints, and canonical modes.

``PROVIDER/MODEL(+MODE)*`` with PROVIDER one of

- ``openai``: OpenAI's Chat Completions. Key: the ``api_key`` option (a key typed in the
  page), else the entry's ``key_env``, else ``OPENAI_API_KEY``; base URL: the entry's, else
  ``OPENAI_BASE_URL``, else OpenAI's.
- ``anthropic``: Anthropic's Messages API; likewise with ``ANTHROPIC_API_KEY`` and
  ``ANTHROPIC_BASE_URL``.
- ``compat``: any OpenAI-compatible server (Ollama, vLLM, llama.cpp, Hugging Face's router,
  OpenRouter). Base URL: the entry's, else ``ARENA_COMPAT_BASE_URL``, else Ollama's local
  ``http://127.0.0.1:11434/v1``; key: ``api_key``, else the entry's ``key_env``, else
  ``ARENA_COMPAT_API_KEY``, else none (never ``OPENAI_API_KEY``: that key is not sent to
  other servers).
- ``hf``: Hugging Face Inference Providers, the preset of ``compat`` for Hugging Face's
  OpenAI-compatible router (``https://router.huggingface.co/v1``, or ``ARENA_HF_BASE_URL``)
  with the key in ``HF_TOKEN`` (a Space's secret): one token offers many open models, named
  as the router names them (``hf/meta-llama/Llama-3.1-8B-Instruct``).
- ``local``: a model served offline by llama.cpp, started on demand (``agents.llm.local``).

Modes: one reasoning mode (``prompt``, ``cot``, ``sc-cot``, ``tot``), ``json`` for structured
answers, ``vision`` to send the board image. Defaults come from the model's entry in the
opponents file (``mode``, ``vision``); ``+text`` and ``+novision`` turn those defaults off.
The canonical modes — reasoning first, then ``json`` (or ``text`` where json is the
default), then ``vision`` (or ``novision`` where vision is the default) — are part of the
rated entity, and an entity read as a spec means the same agent again: ``openai/gpt-4o-mini`` is ``openai/gpt-4o-mini+prompt+vision`` with the packaged
file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from agents.base import Agent
from agents.llm.agent import LLMAgent
from agents.llm.anthropic_chat import AnthropicChat
from agents.llm.calls import Budget
from agents.llm.chat import Chat
from agents.llm.config import (
    Opponent,
    Opponents,
    compat_url,
    load_opponents,
)
from agents.llm.events import EventSink
from agents.llm.local import LocalModelError, LocalServers, local_servers
from agents.llm.modes import REASONING, base, canonical
from agents.llm.openai_chat import OpenAIChat
from agents.llm.redaction import held_keys
from agents.naming import AgentSpec, SpecError
from games.registry import GameSpec

PROVIDERS = ("openai", "anthropic", "compat", "hf", "local")
"""The providers LLM specs may name (``PROVIDER/MODEL``)."""
FLAGS = ("json", "vision")
OPT_OUT = {"text": "json", "novision": "vision"}
KNOWN_MODES = (*REASONING, *FLAGS, *OPT_OUT)


class MissingKey(SpecError):
    """An opponent that needs an API key and has none (the page asks for one)."""


def canonical_modes(provider: str, model: str, written: tuple[str, ...], *,
                    opponents: Opponents | None = None) -> tuple[str, ...]:
    """``written`` with the entry's defaults filled in, in canonical order."""
    unknown = [mode for mode in written if mode not in KNOWN_MODES and not _reasoning(mode)]
    if unknown:
        raise SpecError(f"unknown mode(s) {', '.join(unknown)} in {provider}/{model}; modes: "
                        f"{' | '.join(REASONING)} (one; rap may be rap:DEPTH:ITERATIONS), "
                        "json or text, vision or novision")
    entry = (opponents or load_opponents()).find(provider, model)
    defaults = tuple(entry.mode.split("+")) if entry.mode else ()
    reasoning = list(dict.fromkeys(canonical(m) for m in written if _reasoning(m)))
    if len(reasoning) > 1:
        raise SpecError(f"{provider}/{model}: choose one reasoning mode, not "
                        f"{' and '.join(reasoning)}")
    chosen = reasoning[:1] or [canonical(m) for m in defaults if _reasoning(m)][:1] \
        or ["prompt"]
    flags = []
    for flag in FLAGS:
        off = next(name for name, target in OPT_OUT.items() if target == flag)
        if flag in written and off in written:
            raise SpecError(f"{provider}/{model}: +{flag} and +{off} contradict each other")
        default = flag in defaults or (flag == "vision" and entry.vision)
        if flag in written or (default and off not in written):
            flags.append(flag)
        elif default:
            flags.append(off)  # keeps the entity a spec that means the same thing
    if "vision" in flags and provider == "local":
        raise SpecError(f"local/{model} reads text only; remove +vision")
    return (chosen[0], *flags)


def _reasoning(mode: str) -> bool:
    """Whether ``mode`` names a reasoning mode (a SpecError if its settings are out of range)."""
    try:
        return base(mode) is not None
    except ValueError as err:
        raise SpecError(str(err)) from None


def build_agent(spec: AgentSpec, game: GameSpec, params: dict[str, object], seed: int, *,
                api_key: str | None = None, on_event: EventSink | None = None,
                client: Any = None, opponents: Opponents | None = None,
                budget: Budget | None = None, servers: LocalServers | None = None,
                env: Mapping[str, str] | None = None) -> Agent:
    """The LLM agent ``spec`` names (the factory ``make_agent`` calls for LLM specs).

    ``client`` injects a ready SDK client (``openai.OpenAI`` / ``anthropic.Anthropic``);
    otherwise one is made for this agent, holding ``api_key`` in memory only.
    """
    opponents = opponents or load_opponents()
    provider, model = spec.provider or "", spec.model or ""
    modes = canonical_modes(provider, model, spec.modes, opponents=opponents)
    entry = opponents.find(provider, model)
    if budget is None:
        budget = Budget()
        if entry.first_token_seconds is not None:  # a model that thinks before it writes
            wait = entry.first_token_seconds
            budget = Budget(first_token_seconds=wait,
                            request_timeout=max(budget.request_timeout, wait))
    env = os.environ if env is None else env
    chat = _chat(entry, api_key=api_key, client=client, budget=budget, servers=servers,
                 env=env)
    own = str(getattr(getattr(chat, "client", None), "api_key", None) or "")
    names = [name for known in opponents for name in known.key_names()]

    def keys() -> frozenset[str]:  # every key the process holds, this seat's own included
        return held_keys(env={**os.environ, **env}, names=names) | {own}

    return LLMAgent(chat, entry, entity="+".join([f"{provider}/{model}", *modes]),
                    reasoning=modes[0], structured="json" in modes, vision="vision" in modes,
                    seed=seed, budget=budget, on_event=on_event, keys=keys)


def _chat(entry: Opponent, *, api_key: str | None, client: Any, budget: Budget,
          servers: LocalServers | None, env: Mapping[str, str]) -> Chat:
    # The SDKs take seconds to import: only the one an agent uses is loaded.
    timeout = budget.request_timeout
    if entry.provider != "anthropic":
        import openai
    if entry.provider == "anthropic":
        import anthropic

        client = client or anthropic.Anthropic(
            api_key=_key(entry, api_key, env, required=True),
            base_url=entry.base_url or env.get("ANTHROPIC_BASE_URL") or None,
            max_retries=0, timeout=timeout)
        return AnthropicChat(client, entry.model)
    if entry.provider == "openai":
        client = client or openai.OpenAI(
            api_key=_key(entry, api_key, env, required=True),
            base_url=entry.base_url or env.get("OPENAI_BASE_URL") or None,
            max_retries=0, timeout=timeout)
        return OpenAIChat(client, entry.model, provider="openai",
                          structured=entry.structured_style)
    if entry.provider in ("compat", "hf"):
        url = compat_url(entry, env)
        client = client or openai.OpenAI(
            api_key=_key(entry, api_key, env, required=entry.provider == "hf") or "none",
            base_url=url, max_retries=0, timeout=timeout)
        return OpenAIChat(client, entry.model, provider=entry.provider,
                          structured=entry.structured_style, token_limit_field="max_tokens")
    if entry.provider == "local":
        if client is None:
            try:
                url = (servers or local_servers()).ensure(entry)
            except LocalModelError as err:
                raise SpecError(str(err)) from None
            client = openai.OpenAI(api_key="local", base_url=url, max_retries=0,
                                   timeout=timeout)
        return OpenAIChat(client, entry.model, provider="local", structured="json_object",
                          token_limit_field="max_tokens")
    raise SpecError(f"unknown LLM provider {entry.provider!r}")


def _key(entry: Opponent, api_key: str | None, env: Mapping[str, str], *,
         required: bool) -> str | None:
    if api_key:
        return api_key
    for name in entry.key_names():
        if env.get(name):
            return env[name]
    if required:
        names = " or ".join(entry.key_names())
        raise MissingKey(f"{entry.spec} needs an API key: set {names}, or enter a key "
                         "(kept in memory for this session only)")
    return None
