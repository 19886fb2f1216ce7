"""How agents are named: the spec grammar, without building anything.

Grammar::

    spec     := classic | llm
    classic  := NAME [":" ARG [":" ARG]]        random, tit-for-tat, mcts:1000:2s, ismcts:500
    llm      := PROVIDER "/" MODEL ("+" MODE)*  openai/gpt-4o-mini+cot, compat/qwen2.5:7b+sc-cot

Classic names: ``random``; ``bot`` and ``bot:SLIPS`` (a game's hand-written strategy bot,
``agents.bots``; SLIPS percent of its moves random); ``tit-for-tat`` (iterated prisoner's dilemma); ``minilm``
(Codenames' spymaster and operative by word similarity, offline); ``equilibrium``, ``strategic`` and
``adaptive`` (GAMA-Bench's games: the game's equilibrium strategy, and a bot that adapts to the
last round it saw); ``mcts`` and ``ismcts`` with optional SIMULATIONS (default 1000, GTBench's
setting) and SECONDS, a cap on one reply's wall-clock time written like ``2s`` (default 2s;
``0s`` = no cap). LLM specs are recognised by the ``/``; everything after the first ``/`` up to
the first ``+`` is the model name (so it may contain ``:``), and each ``+MODE`` names a
reasoning or answer mode, as written (``agents.specs.parse_spec`` puts them in the canonical
order of the LLM package, with its defaults filled in).

The page and the API accept searches within :data:`MAX_SIMULATIONS` and :data:`MAX_SECONDS`
only (:func:`check_limits`); the command line takes any.

Each spec has a canonical *entity* (``mcts`` → ``mcts:1000:2s``): the identity under which
ratings count it, so that differently configured agents are never pooled. This module
imports nothing of the project; ``agents.specs`` and ``agents.llm`` both build on it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

GTBENCH_SIMULATIONS = 1000
"""GTBench's MCTS setting."""
DEFAULT_SECONDS = 2.0
"""The default cap on one search reply's wall-clock time."""

MAX_SIMULATIONS = 100_000
"""The most simulations a search may be asked for on the page and through the API."""
MAX_SECONDS = 10.0
"""The longest clock a search may be given on the page and through the API (and it must
have one: ``0s``, no clock, is for the command line)."""

CLASSIC = ("random", "mcts", "ismcts", "tit-for-tat", "equilibrium", "adaptive", "strategic",
           "minilm", "bot")
GAMA_BOTS = ("equilibrium", "adaptive", "strategic")
SLIPPING = ("bot", "strategic")
"""Agents that take ``:SLIPS``, the percent of their moves played at random (a ladder's
middle levels)."""


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
    slips: int = 0
    """``bot:SLIPS``: the percent of decisions the bot plays at random (0: none)."""

    @property
    def entity(self) -> str:
        """The canonical name ratings use for this configuration."""
        if self.kind in ("mcts", "ismcts"):
            return f"{self.kind}:{self.simulations}:{_seconds_text(self.seconds or 0.0)}"
        if self.kind == "llm":
            return "+".join([f"{self.provider}/{self.model}", *self.modes])
        if self.kind in SLIPPING and self.slips:
            return f"{self.kind}:{self.slips}"
        return self.kind

    def with_modes(self, modes: tuple[str, ...]) -> AgentSpec:
        """The same spec with ``modes`` (the canonical form of an LLM spec's modes)."""
        return replace(self, modes=modes)

    def settings(self) -> dict[str, object]:
        if self.kind in ("mcts", "ismcts"):
            return {"simulations": self.simulations, "seconds": self.seconds, "uct_c": 2.0,
                    "rollouts": 1, **({"solve": True} if self.kind == "mcts" else {})}
        if self.kind == "llm":
            return {"provider": self.provider, "model": self.model, "modes": list(self.modes)}
        if self.kind in SLIPPING:
            return {"slips": self.slips}
        return {}


def parse(text: str) -> AgentSpec:
    """Parse an agent spec as written (LLM modes not yet canonical); the error says what is
    wrong and what is accepted."""
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
        return parsed
    name, *args = spec.lower().split(":")
    if name not in CLASSIC:
        raise SpecError(f"unknown agent {name!r}; " + _GRAMMAR_HELP)
    if name in SLIPPING:
        return _parse_slipping(name, text, spec, args)
    if name in ("random", "tit-for-tat", "minilm", *GAMA_BOTS):
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
    if simulations < 1 or not seconds >= 0 or seconds == float("inf"):
        raise SpecError(f"{text!r}: simulations must be ≥ 1 and seconds a number ≥ 0")
    return AgentSpec(name, spec, simulations=simulations, seconds=seconds)


def _parse_slipping(name: str, text: str, spec: str, args: list[str]) -> AgentSpec:
    if not args:
        return AgentSpec(name, spec)
    if len(args) > 1 or not args[0].isdigit() or not 0 <= int(args[0]) <= 100:
        raise SpecError(f"{text!r}: write {name}, or {name}:SLIPS with SLIPS the percent "
                        f"(0-100) of moves it plays at random, e.g. {name}:40")
    return AgentSpec(name, spec, slips=int(args[0]))


def check_limits(spec: AgentSpec) -> None:
    """Refuse search settings past the published limits (the page and the API play only
    within them; the command line may go further), saying the limits."""
    if spec.kind not in ("mcts", "ismcts"):
        return
    simulations, seconds = spec.simulations or 0, spec.seconds or 0.0
    if 1 <= simulations <= MAX_SIMULATIONS and 0 < seconds <= MAX_SECONDS:
        return
    raise SpecError(
        f"{spec.text!r} is outside the limits for play here: {spec.kind} takes 1 to "
        f"{MAX_SIMULATIONS:,} simulations and a clock of more than 0 and at most "
        f"{_seconds_text(MAX_SECONDS)} a move, e.g. {spec.kind}:1000:2s")


def _seconds_text(seconds: float) -> str:
    return f"{seconds:g}s"


_GRAMMAR_HELP = (
    "use random, bot[:SLIPS], tit-for-tat, minilm, equilibrium, adaptive, strategic[:SLIPS], mcts[:SIMULATIONS[:SECONDSs]], ismcts[:SIMULATIONS[:SECONDSs]] "
    "or PROVIDER/MODEL[+MODE...] such as openai/gpt-4o-mini+cot"
)
