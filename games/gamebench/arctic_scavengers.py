"""Arctic Scavengers (Rio Grande Games' base game, 2-5 tribes) as an OpenSpiel Python game.

The rules are :mod:`games.gamebench.arctic_table` (the state is a ``Table``), the cards
:mod:`games.gamebench.arctic_cards`, the moves and their labels
:mod:`games.gamebench.arctic_moves`. Hidden information: hands, the order of every deck, of
the junkyard and of the contested pile, what a tribe discarded without showing it, and the
card the initiator peeked at. What one seat knows is
:func:`games.gamebench.arctic_sight.sight`; its information state string is built from that
alone, and :meth:`ArcticState.resample_from_infostate` deals the rest again for search
agents (far too many hidden deals to enumerate).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyspiel

from games.gamebench import arctic_moves as mv
from games.gamebench.arctic_cards import CARDS, MAX_PLAYERS, MIN_PLAYERS, NAMES, NUM_CARDS
from games.gamebench.arctic_sight import redeal, sight_key
from games.gamebench.arctic_table import CANCELS, ROUNDS, Table
from games.registry import GameSpec, Taxonomy, Visibility, register

_GAME_TYPE = pyspiel.GameType(
    short_name="python_arctic_scavengers",
    long_name="Python Arctic Scavengers (base game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"players": 2},
)


def _game_info(players: int) -> pyspiel.GameInfo:
    box = sum(card.count for card in CARDS)
    per_round = 6 + 2 * box + 2 * CANCELS + 2 * MAX_PLAYERS * 5 + 2
    return pyspiel.GameInfo(
        num_distinct_actions=mv.NUM_ACTIONS, max_chance_outcomes=max(NUM_CARDS, MAX_PLAYERS),
        num_players=players, min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
        max_game_length=ROUNDS * players * per_round)


class ArcticGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {"players": 2, **(params or {})}
        players = int(params["players"])
        fitting = min(max(players, MIN_PLAYERS), MAX_PLAYERS)
        super().__init__(_GAME_TYPE, _game_info(fitting), params)  # a whole object, even
        if players != fitting:  # when refused (a half-built one crashes when printed)
            raise ValueError(f"players must be {MIN_PLAYERS}-{MAX_PLAYERS}, got {players}")

    def new_initial_state(self) -> ArcticState:
        return ArcticState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> SightObserver:
        return SightObserver(params)


class ArcticState(Table, pyspiel.State):
    """The OpenSpiel state: a :class:`Table` with labels, information states and resampling."""

    def __init__(self, game: ArcticGame) -> None:
        pyspiel.State.__init__(self, game)
        Table.__init__(self, game.num_players())

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            kind, seat, _ = self.pending[0] if self.pending else ("?", -1, 0)
            if kind == "initiator":
                return f"{mv.seat_name(action)} is the first initiator"
            what = {"deal": f"{mv.seat_name(seat)} draws", "dig": "the junkyard gives",
                    "peek": "the contested pile's top is"}.get(kind, "chance:")
            return f"{what} {NAMES[action]}"
        return mv.label(self, player, action)

    def information_state_string(self, player: int | None = None) -> str:
        return sight_key(self, self.actor if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def resample_from_infostate(self, player: int,
                                sampler: Callable[[], float]) -> ArcticState:
        """A state ``player`` cannot tell from this one (see :func:`arctic_sight.redeal`)."""
        world = copy.deepcopy(self)
        redeal(world, player, sampler)
        return world


class SightObserver:
    """The seat's information state as a string (no tensor)."""

    def __init__(self, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, np.ndarray] = {}

    def set_from(self, state: ArcticState, player: int) -> None:
        pass

    def string_from(self, state: ArcticState, player: int) -> str:
        return sight_key(state, player)


pyspiel.register_game(_GAME_TYPE, ArcticGame)


# --- the registry entry -----------------------------------------------------------------------

def _metrics(state: pyspiel.State, entities: Sequence[str]) -> dict[str, Any]:
    """GameBench's score beside our win/draw/loss: GameBench gave this game's point to the
    largest tribe (no share of points), so its score is 1 to the winner, 0 to the others
    (½ each for tied largest tribes here; GameBench gave ties to its second player). The
    tribe sizes and contested resources won are kept with it."""
    assert isinstance(state, ArcticState)
    sizes = state.tribe_sizes()
    best = [p for p, size in enumerate(sizes) if size == max(sizes)]
    share = [1.0 / len(best) if p in best else 0.0 for p in range(len(sizes))]
    return {"gamebench": {
        "score": "largest_tribe", "share": share, "tribe_size": sizes,
        "contested_won": [[NAMES[c] for c in t.won] for t in state.tribes],
        "rounds": state.round, "complete": state.is_terminal(),
    }}


ARCTIC_SCAVENGERS = GameSpec(
    id="arctic_scavengers",
    title="Arctic Scavengers",
    summary="Build the largest tribe: dig the junkyard, hire mercenaries, win skirmishes.",
    openspiel="python_arctic_scavengers",
    taxonomy=Taxonomy("incomplete", "probabilistic", "sequential", 2),
    grammar=mv.grammar(),
    default_params={"players": 2},
    param_notes=(
        "The Rio Grande Games base game (no HQ or Recon expansion, no tribal leaders) for "
        "2-5 tribes (parameter players). Hires are paid with your own food and medicine, "
        "snipers and saboteurs work, cards go to a discard pile, and the winner is the "
        "largest tribe counted over every card it owns (GameBench charged the opponent's "
        "hand, never sniped, had no discard pile and counted one hand)."
    ),
    benchmark="GameBench",
    board="table",
    visibility=Visibility(moves=True, chance=False),
    max_seats=MAX_PLAYERS,
    rule_values=lambda params: {"players": str(params.get("players", 2))},
    metrics=_metrics,
)

register(ARCTIC_SCAVENGERS)
