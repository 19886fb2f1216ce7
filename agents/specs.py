"""Agent specs: the short strings that name an agent on the command line and in the UI.

Grammar::

    spec     := classic | llm
    classic  := NAME [":" ARG [":" ARG]]        random, tit-for-tat, mcts:1000:2s, ismcts:500
    llm      := PROVIDER "/" MODEL ("+" MODE)*  openai/gpt-4o-mini+cot, compat/qwen2.5:7b+sc-cot

Classic names: ``random``; ``tit-for-tat`` (iterated prisoner's dilemma); ``equilibrium`` and
``adaptive`` (GAMA-Bench's games: the game's equilibrium strategy, and a bot that adapts to the
last round it saw); ``mcts`` and
``ismcts`` with optional SIMULATIONS (default 1000, GTBench's setting) and SECONDS, a cap on
one reply's wall-clock time written like ``2s`` (default 2s; ``0s`` = no cap). LLM specs are
recognised by the ``/``; everything after the first ``/`` up to the first ``+`` is the model
name (so it may contain ``:``), and each ``+MODE`` names a reasoning or answer mode. The LLM
package (``agents.llm``, loaded on first use) checks the modes and puts them in canonical
order with their defaults filled in, so the entity names what is actually played.

Each spec has a canonical *entity* (``mcts`` → ``mcts:1000:2s``): the identity under which
ratings count it, so that differently configured agents are never pooled.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pyspiel

from agents.base import Agent
from agents.classic import RandomAgent, TitForTatAgent
from agents.search import DEFAULT_SECONDS, GTBENCH_SIMULATIONS, ISMCTSAgent, MCTSAgent
from games.registry import GameSpec

CLASSIC = ("random", "mcts", "ismcts", "tit-for-tat", "equilibrium", "adaptive")
GAMA_BOTS = ("equilibrium", "adaptive")


class SpecError(ValueError):
    """An agent spec that does not parse, or does not fit the game."""


@dataclass(frozen=True)
class AgentSpec:
    kind: str
    """``random``, ``mcts``, ``ismcts``, ``tit-for-tat``, ``equilibrium``, ``adaptive``,
    ``human`` or ``llm``."""
    text: str
    simulations: int | None = None
    seconds: float | None = None
    provider: str | None = None
    model: str | None = None
    modes: tuple[str, ...] = ()

    @property
    def entity(self) -> str:
        """The canonical name ratings use for this configuration."""
        if self.kind in ("mcts", "ismcts"):
            return f"{self.kind}:{self.simulations}:{_seconds_text(self.seconds or 0.0)}"
        if self.kind == "llm":
            return "+".join([f"{self.provider}/{self.model}", *self.modes])
        return self.kind

    def settings(self) -> dict[str, object]:
        if self.kind in ("mcts", "ismcts"):
            return {"simulations": self.simulations, "seconds": self.seconds, "uct_c": 2.0,
                    "rollouts": 1, **({"solve": True} if self.kind == "mcts" else {})}
        if self.kind == "llm":
            return {"provider": self.provider, "model": self.model, "modes": list(self.modes)}
        return {}


def parse_spec(text: str) -> AgentSpec:
    """Parse an agent spec; the error says what is wrong and what is accepted."""
    spec = text.strip()
    if not spec:
        raise SpecError("empty agent spec; " + _GRAMMAR_HELP)
    if spec == "human":
        return AgentSpec("human", spec)
    if "/" in spec:
        provider, _, rest = spec.partition("/")
        model, *modes = rest.split("+")
        if not provider or not model:
            raise SpecError(f"agent spec {text!r} needs PROVIDER/MODEL; " + _GRAMMAR_HELP)
        parsed = AgentSpec("llm", spec, provider=provider.lower(), model=model,
                           modes=tuple(m.lower() for m in modes if m))
        return _canonical_modes(parsed)
    name, *args = spec.lower().split(":")
    if name not in CLASSIC:
        raise SpecError(f"unknown agent {name!r}; " + _GRAMMAR_HELP)
    if name in ("random", "tit-for-tat", *GAMA_BOTS):
        if args:
            raise SpecError(f"{name} takes no options (got {text!r})")
        return AgentSpec(name, spec)
    if len(args) > 2:
        raise SpecError(f"{name} takes at most SIMULATIONS and SECONDS (got {text!r})")
    try:
        simulations = int(args[0]) if args and args[0] else GTBENCH_SIMULATIONS
        seconds = float(args[1].removesuffix("s")) if len(args) > 1 else DEFAULT_SECONDS
    except ValueError:
        raise SpecError(f"{text!r}: write {name}:SIMULATIONS:SECONDSs, e.g. {name}:1000:2s") \
            from None
    if simulations < 1 or seconds < 0:
        raise SpecError(f"{text!r}: simulations must be ≥ 1 and seconds ≥ 0")
    return AgentSpec(name, spec, simulations=simulations, seconds=seconds)


AgentFactory = Callable[..., Agent]
"""factory(spec, game, params, seed, *, api_key=None, on_event=None, **options) -> Agent: builds
an LLM agent; the keyword options are make_agent's."""


ModesFn = Callable[[str, tuple[str, ...]], tuple[str, ...]]
"""(model, modes as written) -> canonical modes; raises SpecError for modes it does not know."""

_PROVIDERS: dict[str, AgentFactory] = {}
_MODES: dict[str, ModesFn] = {}


def register_provider(name: str, factory: AgentFactory, *, modes: ModesFn | None = None) -> None:
    """Make ``NAME/MODEL`` specs buildable (the LLM package registers its providers).

    ``modes`` puts a spec's modes in canonical form (defaults filled in, fixed order), so that
    ``openai/m+json+cot`` and ``openai/m+cot+json`` are one rated entity.
    """
    _PROVIDERS[name] = factory
    if modes is not None:
        _MODES[name] = modes


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
    if spec.kind in GAMA_BOTS:
        from agents.gama import make_bot

        return make_bot(spec.kind, game, np.random.default_rng(seed))
    if spec.kind in ("mcts", "ismcts"):
        cls = MCTSAgent if spec.kind == "mcts" else ISMCTSAgent
        return cls(game.load(params), seed=seed % 2**31, simulations=spec.simulations or 1,
                   seconds=spec.seconds or 0.0)
    if spec.kind == "llm":
        _load_providers()
        factory = _PROVIDERS.get(spec.provider or "")
        if factory is None:
            known = ", ".join(sorted(_PROVIDERS)) or "none installed"
            raise SpecError(f"unknown LLM provider {spec.provider!r} (known: {known})")
        return factory(spec, game, params, seed, api_key=api_key, on_event=on_event, **options)
    raise SpecError(f"{spec.text!r} cannot be built as an agent here (the browser seats humans)")


def check_fits(spec: AgentSpec, game: GameSpec) -> None:
    """Refuse agents that cannot play ``game`` honestly, saying what can."""
    loaded = game.load()
    kind = loaded.get_type()
    if spec.kind == "tit-for-tat" and game.id != "iterated_prisoners_dilemma":
        raise SpecError("tit-for-tat plays only iterated_prisoners_dilemma")
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


def _seconds_text(seconds: float) -> str:
    return f"{seconds:g}s"


def _canonical_modes(spec: AgentSpec) -> AgentSpec:
    _load_providers()
    canonical = _MODES.get(spec.provider or "")
    if canonical is None:
        return spec
    return replace(spec, modes=canonical(spec.model or "", spec.modes))


def _load_providers() -> None:
    try:
        import agents.llm  # noqa: F401  (registers its providers)
    except ModuleNotFoundError as err:
        if err.name != "agents.llm":
            raise


_GRAMMAR_HELP = (
    "use random, tit-for-tat, equilibrium, adaptive, mcts[:SIMULATIONS[:SECONDSs]], ismcts[:SIMULATIONS[:SECONDSs]] "
    "or PROVIDER/MODEL[+MODE...] such as openai/gpt-4o-mini+cot"
)
