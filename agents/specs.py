"""Agent specs → agents: parse the short strings that name an agent on the command line and
in the UI (the grammar is :mod:`agents.naming`), and build the agent a spec names for a game.

Classic agents are built here; LLM specs go to ``agents.llm.providers`` (imported on first use,
so a table of classic agents never loads the SDKs), which also puts their modes in canonical
order with the entry's defaults filled in, so the entity names what is actually played.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from agents.base import Agent
from agents.classic import RandomAgent, TitForTatAgent
from agents.naming import CLASSIC, GAMA_BOTS, AgentSpec, SpecError, parse
from agents.search import ISMCTSAgent, MCTSAgent
from games.registry import GameSpec

WORD_GAMES = ("codenames",)
"""The games the offline word-similarity agent (``minilm``) plays."""

__all__ = ["CLASSIC", "GAMA_BOTS", "WORD_GAMES", "AgentSpec", "SpecError", "agents_for", "check_fits",
           "make_agent", "parse_spec", "seat_seed"]


def parse_spec(text: str) -> AgentSpec:
    """Parse an agent spec; the error says what is wrong and what is accepted. An LLM spec's
    modes come back canonical (``openai/m+json+cot`` and ``openai/m+cot+json`` are one
    entity)."""
    spec = parse(text)
    if spec.kind != "llm":
        return spec
    from agents.llm.providers import PROVIDERS, canonical_modes

    if spec.provider not in PROVIDERS:
        return spec  # make_agent says which providers exist
    return spec.with_modes(canonical_modes(spec.provider or "", spec.model or "", spec.modes))


def make_agent(spec: AgentSpec | str, game: GameSpec, params: dict[str, object], *,
               seed: int, api_key: str | None = None,
               on_event: Callable[[Any], None] | None = None, **options: Any) -> Agent:
    """Build the agent ``spec`` names for ``game``, seeded with ``seed``.

    The keyword options reach LLM providers only (classic agents ignore them): ``api_key`` a
    key typed by the person (kept in memory only, never recorded), ``on_event`` a callback
    that receives the model's streamed tokens and progress (see ``agents.llm.events``), and
    provider options such as ``client=`` (an injected SDK client).
    """
    spec = parse_spec(spec) if isinstance(spec, str) else spec
    check_fits(spec, game)
    if spec.kind == "random":
        return RandomAgent(np.random.default_rng(seed))
    if spec.kind == "tit-for-tat":
        return TitForTatAgent()
    if spec.kind == "bot":
        from agents.bots import make_bot as make_strategy_bot

        return make_strategy_bot(game, params, seed=seed, slips=spec.slips)
    if spec.kind == "minilm":
        from agents.associations import AssociationAgent

        return AssociationAgent()
    if spec.kind in GAMA_BOTS:
        from agents.bots import Slipping
        from agents.gama import make_bot

        bot = make_bot(spec.kind, game, np.random.default_rng(seed))
        return Slipping(bot, spec.slips, np.random.default_rng(seed + 1)) if spec.slips else bot
    if spec.kind in ("mcts", "ismcts"):
        cls = MCTSAgent if spec.kind == "mcts" else ISMCTSAgent
        return cls(game.load(params), seed=seed % 2**31, simulations=spec.simulations or 1,
                   seconds=spec.seconds or 0.0)
    if spec.kind == "llm":
        from agents.llm.providers import PROVIDERS, build_agent  # the SDKs load on first use

        if spec.provider not in PROVIDERS:
            known = ", ".join(sorted(PROVIDERS))
            raise SpecError(f"unknown LLM provider {spec.provider!r} (known: {known})")
        return build_agent(spec, game, params, seed, api_key=api_key, on_event=on_event,
                           **options)
    raise SpecError(f"{spec.text!r} cannot be built as an agent here (the browser seats humans)")


def check_fits(spec: AgentSpec, game: GameSpec) -> None:
    """Refuse agents that cannot play ``game`` honestly, saying what can."""
    loaded = game.load()
    kind = loaded.get_type()
    if spec.kind == "tit-for-tat" and game.id != "iterated_prisoners_dilemma":
        raise SpecError("tit-for-tat plays only iterated_prisoners_dilemma")
    if spec.kind == "minilm":
        if game.id not in WORD_GAMES:
            raise SpecError(f"minilm plays only {', '.join(WORD_GAMES)}, not {game.id}")
        from agents.embedding import missing

        problem = missing()
        if problem is not None:
            raise SpecError(f"minilm is unavailable: {problem}")
    if spec.kind == "bot":
        from agents.bots import bot_games

        if game.id not in bot_games():
            raise SpecError(f"bot plays only {', '.join(bot_games())}, not {game.id}")
        if game.id in WORD_GAMES:
            from agents.embedding import missing as words_missing

            problem = words_missing()
            if problem is not None:
                raise SpecError(f"bot is unavailable: {problem}")
    if spec.kind in GAMA_BOTS and game.benchmark != "GAMA-Bench":
        raise SpecError(f"{spec.kind} plays only GAMA-Bench's games, not {game.id}")
    simultaneous_nodes = kind.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    if spec.kind == "mcts":
        if game.taxonomy.dynamics == "simultaneous" or simultaneous_nodes:
            raise SpecError(f"mcts cannot play the simultaneous game {game.id}")
        if game.taxonomy.information == "incomplete":
            raise SpecError(
                f"mcts would see hidden information in {game.id}; use ismcts instead"
            )
    if spec.kind == "ismcts" and not kind.provides_information_state_string:
        raise SpecError(
            f"ismcts needs information states, which {game.id} does not provide; "
            "use random or an LLM"
        )
    if spec.kind == "ismcts" and game.taxonomy.information == "complete":
        raise SpecError(f"{game.id} hides nothing; use mcts (ismcts is for hidden information)")
    if spec.kind == "ismcts" and (game.taxonomy.dynamics == "simultaneous" or simultaneous_nodes):
        raise SpecError(f"ismcts cannot play the simultaneous game {game.id}")


def agents_for(game: GameSpec) -> list[str]:
    """The classic agent specs that can play ``game``."""
    fits = []
    for name in CLASSIC:
        try:
            check_fits(parse_spec(name), game)
        except SpecError:
            continue
        fits.append(name)
    return fits


def seat_seed(match_seed: int, seat: int, spec: str) -> int:
    """A per-seat seed derived from the match seed (stable across runs and platforms)."""
    return (match_seed * 1_000_003 + seat * 7919 + zlib.crc32(spec.encode())) % 2**31
