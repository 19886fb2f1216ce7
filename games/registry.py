"""The game registry: one entry per playable game, as data.

An entry says what the game is (title, rules, taxonomy), how to load it as a pyspiel game
with our default parameters, and how its moves are written (the move grammar). Rules
never import presentation: views and images live in ``renderers/``.
"""

from __future__ import annotations

import functools
import importlib
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Literal

import pyspiel

from games.grammar import MoveGrammar

ParamValue = int | float | bool | str
RuleValuesFn = Callable[[Mapping[str, ParamValue]], Mapping[str, str]]
MetricsFn = Callable[[pyspiel.State, Sequence[str]], dict[str, Any]]
TeamsFn = Callable[[pyspiel.State], list[str | None]]
PublicLabelFn = Callable[[pyspiel.State, int, int], str | None]


@dataclass(frozen=True)
class Taxonomy:
    """GTBench's taxonomy: information, chance, dynamics, and the number of players."""

    information: Literal["complete", "incomplete"]
    chance: Literal["deterministic", "probabilistic"]
    dynamics: Literal["sequential", "simultaneous"]
    players: int

    def describe(self) -> str:
        return (
            f"{self.information} information, {self.chance}, {self.dynamics}, "
            f"{self.players} players"
        )


@dataclass(frozen=True)
class Visibility:
    """Which parts of the history every seat sees.

    ``moves``: other seats' moves are shown when made (False in sealed-bid games, where they
    are revealed only at the end). ``chance``: chance outcomes (dice rolls) are public
    (False when chance deals private cards or dice).
    """

    moves: bool = True
    chance: bool = True


@dataclass(frozen=True)
class GameSpec:
    """A registry entry. ``openspiel`` is the pyspiel short name the game loads from."""

    id: str
    title: str
    summary: str
    openspiel: str
    taxonomy: Taxonomy
    grammar: MoveGrammar
    default_params: Mapping[str, ParamValue] = field(default_factory=dict)
    param_notes: str = ""
    benchmark: str = "GTBench"
    board: Literal["grid", "table"] = "table"
    visibility: Visibility = Visibility()
    seed_param: str | None = None
    """A game parameter that seeds the game's own sampling (set from the match seed)."""
    max_seats: int | None = None
    objective: Literal["beat", "earn"] = "beat"
    """GTBench's two protocols: "beat" the opponent (win 1, draw ½, loss 0) or "earn" rewards
    (the returns are the score). NRA scores a game by it (sessions/ratings/nra.py)."""
    rule_values: RuleValuesFn | None = None
    """``$name`` values for the rules text from a session's parameters (``$players`` ...)."""
    metrics: MetricsFn | None = None
    """Benchmark scores of a session from its last state and each seat's entity, stored with
    the record (GAMA-Bench's 0-100 scores)."""
    teams: TeamsFn | None = None
    """Team games: each seat's side (``red``/``blue``, ``good``/``evil``) from a state past
    the deal, or None for a seat on its own. Written into the record when the game ends;
    seats are scored against opposing seats only (``sessions.record.team_scores``)."""
    public_label: PublicLabelFn | None = None
    """Games whose moves (or chance outcomes) are hidden by ``visibility`` but partly public
    under the rules: given the state *before* the move, the seat (-1 for chance) and the
    action, what every other seat is told of it (``play a card face-down to Air``), or None
    when nothing at all is seen. Without it a hidden move is unseen until the game ends (a
    sealed bid). Every seat's move list, prompt history, replay and the spectators' public
    view show this label in place of the hidden one."""

    public_seat: int | None = None
    """A seat whose view holds nothing private although the game hides things from others
    (Codenames' operatives see only what the whole table sees): spectators' public view
    draws that seat's view instead of no board at all."""

    @property
    def rules(self) -> str:
        """Rules written for a person (with the default parameters)."""
        return self.rules_with()

    @property
    def rules_for_llm(self) -> str:
        """Rules written for a language model: terse, exact, with the move format."""
        return self.rules_with(for_llm=True)

    def rules_with(self, params: Mapping[str, ParamValue] | None = None, *,
                   for_llm: bool = False) -> str:
        """The rules with a session's parameters filled in (``$name`` placeholders)."""
        text = _rules(self.id)[1 if for_llm else 0]
        if self.rule_values is None:
            return text
        values = self.rule_values(self.params() if params is None else params)
        return string.Template(text).safe_substitute(values)

    def params(self, overrides: Mapping[str, Any] | None = None) -> dict[str, ParamValue]:
        """Default parameters with ``overrides`` applied; unknown names are an error."""
        merged: dict[str, ParamValue] = dict(self.default_params)
        known = set(self.openspiel_defaults()) | set(merged)
        for name, value in (overrides or {}).items():
            if name not in known:
                raise ValueError(
                    f"{self.id} has no parameter {name!r}; parameters: {', '.join(sorted(known))}"
                )
            merged[name] = _coerce(value, self.openspiel_defaults().get(name, merged.get(name)))
        return merged

    def openspiel_defaults(self) -> dict[str, ParamValue]:
        return _openspiel_defaults(self.openspiel)

    def load(self, params: Mapping[str, Any] | None = None) -> pyspiel.Game:
        """The pyspiel game with these parameters (defaults when ``params`` is None).

        Games seeded by a parameter keep a random generator inside the game object, so each
        call returns a fresh object for them (a shared one would make replays diverge).
        """
        frozen = _freeze(self.params() if params is None else params)
        if self.seed_param is not None:
            _register_python_games()
            return pyspiel.load_game(self.openspiel, dict(frozen))
        return _load(self.openspiel, frozen)


_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    if spec.id in _REGISTRY:
        raise ValueError(f"game {spec.id!r} is already registered")
    _REGISTRY[spec.id] = spec
    return spec


def get(game_id: str) -> GameSpec:
    """The spec of ``game_id``; the error lists the registered games."""
    _ensure_loaded()
    try:
        return _REGISTRY[game_id]
    except KeyError:
        raise KeyError(
            f"unknown game {game_id!r}; registered games: {', '.join(sorted(_REGISTRY))}"
        ) from None


def all_games() -> list[GameSpec]:
    """Every registered game, benchmark by benchmark in ``CATALOGUES`` order."""
    _ensure_loaded()
    order = {name: i for i, name in enumerate(BENCHMARKS)}
    return sorted(_REGISTRY.values(), key=lambda spec: order.get(spec.benchmark, len(order)))


CATALOGUES = ("games.gtbench", "games.gamebench", "games.gama")
"""Benchmark packages, in the order their games are listed; importing one registers its games."""
BENCHMARKS = ("GTBench", "GameBench", "GAMA-Bench")
"""The ``GameSpec.benchmark`` of each catalogue, in the same order (a package may be imported
first by a renderer, so the listing does not follow import order)."""


def _ensure_loaded() -> None:
    # Importing the catalogue modules registers their games (one line each, at the end).
    for module in CATALOGUES:
        importlib.import_module(module)


def _coerce(value: Any, like: Any) -> ParamValue:
    if isinstance(like, bool):
        if isinstance(value, str):
            return value.strip().lower() in {"1", "true", "yes", "on"}
        return bool(value)
    if isinstance(like, int):
        return int(value)
    if isinstance(like, float):
        return float(value)
    return str(value)


def _freeze(params: Mapping[str, Any]) -> tuple[tuple[str, ParamValue], ...]:
    return tuple(sorted(params.items()))


@functools.cache
def _load(name: str, params: tuple[tuple[str, ParamValue], ...]) -> pyspiel.Game:
    _register_python_games()
    return pyspiel.load_game(name, dict(params))


@functools.cache
def _openspiel_defaults(name: str) -> dict[str, ParamValue]:
    _register_python_games()
    return dict(pyspiel.load_game(name).get_parameters())


@functools.cache
def _register_python_games() -> None:
    import open_spiel.python.games  # noqa: F401  (registers python_iterated_prisoners_dilemma)


@functools.cache
def _rules(game_id: str) -> tuple[str, str]:
    text = (resources.files("games") / "rules" / f"{game_id}.md").read_text("utf-8")
    person, _, llm = text.partition("\n## For language models\n")
    person = person.split("\n## For people\n", 1)[-1].strip()
    return person, llm.strip()
