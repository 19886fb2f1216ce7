"""Santorini (base game, no god powers) as an OpenSpiel Python game.

Rules (the official base game for two players):

- A 5x5 board, files a-e from left to right, ranks 1-5 from bottom to top. Player 0 (Blue)
  places both workers, A then B, on any empty squares; then player 1 (Orange) places X then Y.
- Then, from player 0, each turn one worker of the player's choice moves to one of the eight
  neighbouring squares that holds no worker and no dome, at most one level higher than where
  it stands (any number of levels down), and then builds on a square next to where it
  arrived that holds no worker and no dome: a level on levels 0-2, a dome on level 3.
- A worker that moves up onto level 3 wins at once (no build follows).
- A player who cannot move and then build on their turn loses. (A worker that can move can
  always build on the square it just left, so this means no worker can move.)

Each turn is one action (worker, move direction, build direction), so OpenSpiel's bots, MCTS
and the random-simulation checks see an ordinary two-player sequential game. Actions:
``0-24`` place a worker on square ``rank * 5 + file`` (0-based); ``25 + w*64 + m*8 + b``
moves the player's worker ``w`` (0 or 1) in direction ``m`` and builds in direction ``b``;
``153 + w*8 + m`` is a winning move up onto level 3, which has no build.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from games.grammar import WORD_END, WORD_START, MoveGrammar
from games.registry import GameSpec, Taxonomy, register

SIZE = 5
SQUARES = SIZE * SIZE
FILES = "abcde"
DOME = 4
WORKERS = ("A", "B", "X", "Y")
"""Worker names; player p owns workers 2p and 2p+1."""
PLAYER_NAMES = ("Blue", "Orange")

DIRECTIONS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
"""(file step, rank step): N, NE, E, SE, S, SW, W, NW."""

_PLACE_ACTIONS = SQUARES
_TURN_BASE = _PLACE_ACTIONS
_WIN_BASE = _TURN_BASE + 2 * 8 * 8
NUM_ACTIONS = _WIN_BASE + 2 * 8
MAX_GAME_LENGTH = 4 + SQUARES * DOME + 1
"""Four placements, at most one build per turn and four builds per square, a winning move."""

_GAME_TYPE = pyspiel.GameType(
    short_name="python_santorini",
    long_name="Python Santorini (base game)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={},
)
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=NUM_ACTIONS,
    max_chance_outcomes=0,
    num_players=2,
    min_utility=-1.0,
    max_utility=1.0,
    utility_sum=0.0,
    max_game_length=MAX_GAME_LENGTH,
)


def square_name(square: int) -> str:
    return f"{FILES[square % SIZE]}{square // SIZE + 1}"


def square_of(name: str) -> int:
    """The square index of a name like ``c3`` (ValueError otherwise)."""
    name = name.strip().lower()
    if len(name) != 2 or name[0] not in FILES or name[1] not in "12345":
        raise ValueError(f"not a square: {name!r}; squares are a1..e5")
    return (int(name[1]) - 1) * SIZE + FILES.index(name[0])


def step(square: int, direction: int) -> int | None:
    """The square one step from ``square`` in ``direction``, or None off the board."""
    df, dr = DIRECTIONS[direction]
    f, r = square % SIZE + df, square // SIZE + dr
    return r * SIZE + f if 0 <= f < SIZE and 0 <= r < SIZE else None


def direction_between(origin: int, target: int) -> int:
    for direction in range(8):
        if step(origin, direction) == target:
            return direction
    raise ValueError(f"{square_name(target)} is not next to {square_name(origin)}")


class Turn:
    """A decoded action: placement (``build`` and ``origin`` None) or move (``build`` None
    when the move wins)."""

    __slots__ = ("worker", "origin", "target", "build")

    def __init__(self, worker: int, origin: int | None, target: int,
                 build: int | None) -> None:
        self.worker, self.origin, self.target, self.build = worker, origin, target, build

    @property
    def wins(self) -> bool:
        return self.origin is not None and self.build is None

    def label(self) -> str:
        """``place A at c3``, ``A: b2→c3, build d4`` or ``A: b2→c3, wins``."""
        name = WORKERS[self.worker]
        if self.origin is None:
            return f"place {name} at {square_name(self.target)}"
        moved = f"{name}: {square_name(self.origin)}→{square_name(self.target)}"
        return f"{moved}, wins" if self.build is None else f"{moved}, build {square_name(self.build)}"


class SantoriniGame(pyspiel.Game):
    """The two-player base game."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})

    def new_initial_state(self, position: dict[str, Any] | None = None) -> SantoriniState:
        """A new game, or the position described by ``position`` (see
        :meth:`SantoriniState.set_position`)."""
        state = SantoriniState(self)
        if position is not None:
            state.set_position(**position)
        return state

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info
                                    and not iig_obs_type.perfect_recall):
            return BoardObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class SantoriniState(pyspiel.State):
    """Levels (0-3, 4 = dome) per square, worker squares, whose turn, the winner."""

    def __init__(self, game: SantoriniGame) -> None:
        super().__init__(game)
        self.levels = [0] * SQUARES
        self.workers: list[int | None] = [None] * 4
        self._player = 0
        self._winner: int | None = None
        self._legal: list[int] | None = None
        self.last: Turn | None = None
        """The last action played, decoded."""

    # --- positions ------------------------------------------------------------------------

    def set_position(self, *, levels: list[list[int]], workers: dict[str, str],
                     to_move: int = 0) -> None:
        """Set up a position: ``levels`` as rows of five from rank 5 down to rank 1,
        ``workers`` as ``{"A": "c3", ...}`` (all four), ``to_move`` the player to move.
        For tests and puzzles; the history stays empty."""
        if len(levels) != SIZE or any(len(row) != SIZE for row in levels):
            raise ValueError("levels must be 5 rows of 5")
        self.levels = [levels[SIZE - 1 - rank][f] for rank in range(SIZE) for f in range(SIZE)]
        if any(not 0 <= level <= DOME for level in self.levels):
            raise ValueError("levels are 0-3, or 4 for a dome")
        if sorted(workers) != sorted(WORKERS):
            raise ValueError(f"give all four workers {WORKERS}")
        placed = [square_of(workers[name]) for name in WORKERS]
        if len(set(placed)) != 4 or any(self.levels[s] == DOME for s in placed):
            raise ValueError("workers need four different squares without a dome")
        self.workers = [square for square in placed]
        self._player = to_move
        self._winner = None
        self.last = None
        self._after_turn()

    # --- reading ----------------------------------------------------------------------------

    @property
    def placing(self) -> bool:
        return None in self.workers

    def worker_at(self, square: int) -> int | None:
        for index, where in enumerate(self.workers):
            if where == square:
                return index
        return None

    @property
    def winner(self) -> int | None:
        return self._winner

    def decode(self, action: int) -> Turn:
        """The worker, squares and build of an action id, for the player to move."""
        player = self._player
        if action < _TURN_BASE:
            return Turn(self.workers.index(None), None, action, None)
        if action < _WIN_BASE:
            w, rest = divmod(action - _TURN_BASE, 64)
            move, build = divmod(rest, 8)
        else:
            w, move = divmod(action - _WIN_BASE, 8)
            build = None
        worker = 2 * player + w
        origin = self.workers[worker]
        if origin is None:
            raise ValueError(f"action {action}: worker {WORKERS[worker]} is not placed")
        target = step(origin, move)
        if target is None:
            raise ValueError(f"action {action} moves off the board")
        built = None if build is None else step(target, build)
        if build is not None and built is None:
            raise ValueError(f"action {action} builds off the board")
        return Turn(worker, origin, target, built)

    # --- OpenSpiel hooks ------------------------------------------------------------------

    def current_player(self) -> int:
        return pyspiel.PlayerId.TERMINAL if self._winner is not None else self._player

    def _legal_actions(self, player: int) -> list[int]:
        if self._winner is not None or player != self._player:
            return []
        if self._legal is None:
            self._legal = self._generate()
        return list(self._legal)

    def _generate(self) -> list[int]:
        if self.placing:
            taken = set(self.workers)
            return [s for s in range(SQUARES) if s not in taken]
        occupied = {s for s in self.workers if s is not None}
        actions = []
        wins = []
        for w in range(2):
            origin = self.workers[2 * self._player + w]
            assert origin is not None
            here = self.levels[origin]
            for move in range(8):
                target = step(origin, move)
                if target is None or target in occupied or self.levels[target] == DOME \
                        or self.levels[target] > here + 1:
                    continue
                if self.levels[target] == 3 and here < 3:
                    wins.append(_WIN_BASE + w * 8 + move)
                    continue
                for build in range(8):
                    built = step(target, build)
                    if built is None or self.levels[built] == DOME or (
                            built in occupied and built != origin):
                        continue
                    actions.append(_TURN_BASE + w * 64 + move * 8 + build)
        return sorted(actions + wins)

    def _apply_action(self, action: int) -> None:
        turn = self.decode(action)
        self.last = turn
        self.workers[turn.worker] = turn.target
        if turn.origin is None:  # a placement
            if self.workers.count(None) in (0, 2):
                self._player = 1 - self._player
            self._after_turn()
            return
        if turn.wins:
            self._winner = self._player
            self._legal = None
            return
        assert turn.build is not None
        self.levels[turn.build] += 1
        self._player = 1 - self._player
        self._after_turn()

    def _after_turn(self) -> None:
        self._legal = None
        if not self.placing and not self._generate():
            self._winner = 1 - self._player  # the player to move cannot move: they lose

    def _action_to_string(self, player: int, action: int) -> str:
        return self.decode(action).label()

    def is_terminal(self) -> bool:
        return self._winner is not None

    def returns(self) -> list[float]:
        if self._winner is None:
            return [0.0, 0.0]
        return [1.0, -1.0] if self._winner == 0 else [-1.0, 1.0]

    def __str__(self) -> str:
        return board_string(self)


def board_string(state: SantoriniState) -> str:
    """Ranks 5 down to 1; each square as its level (0-3, 4 = dome) and worker (or ``.``)."""
    rows = []
    for rank in reversed(range(SIZE)):
        cells = []
        for f in range(SIZE):
            square = rank * SIZE + f
            worker = state.worker_at(square)
            cells.append(f"{state.levels[square]}{WORKERS[worker] if worker is not None else '.'}")
        rows.append(" ".join(cells))
    turn = "over" if state.is_terminal() else PLAYER_NAMES[state.current_player()]
    return "\n".join(rows) + f"\nto move: {turn}"


class BoardObserver:
    """Planes: level 0-3 and dome (5), player 0's and player 1's workers (2), the player
    to move (1); each 5x5 with rank 1 first."""

    def __init__(self, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters not supported: {params}")
        shape = (8, SIZE, SIZE)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": np.reshape(self.tensor, shape)}

    def set_from(self, state: SantoriniState, player: int) -> None:
        planes = self.dict["observation"]
        planes.fill(0)
        for square, level in enumerate(state.levels):
            planes[level, square // SIZE, square % SIZE] = 1
        for worker, where in enumerate(state.workers):
            if where is not None:
                planes[5 + worker // 2, where // SIZE, where % SIZE] = 1
        if not state.is_terminal():
            planes[7].fill(state.current_player())

    def string_from(self, state: SantoriniState, player: int) -> str:
        return board_string(state)


pyspiel.register_game(_GAME_TYPE, SantoriniGame)


# --- Santorini: "A: b2→c3, build d4" ------------------------------------------------------

def _santorini_label(state: pyspiel.State, player: int, action: int) -> str:
    return state.action_to_string(player, action)


_SQ = r"[a-e][1-5]"
_SANTORINI = re.compile(
    rf"{WORD_START}(?:place\s+(?:[abxy]\s+)?(?:(?:at|on)\s+)?(?P<place>{_SQ})"
    rf"|(?:[abxy]\s*:\s*)?(?P<origin>{_SQ})\s*(?:→|->|-+>?|>|to|,|\s)\s*(?P<target>{_SQ})"
    rf"(?:\s*,?\s*(?:and\s+)?(?:then\s+)?(?:builds?\s*(?:(?:at|on)\s+)?)?(?P<build>{_SQ})"
    rf"|\s*,?\s*(?:and\s+)?(?P<wins>wins?))?){WORD_END}",
    re.IGNORECASE,
)


def _santorini_key(match: re.Match[str]) -> str:
    if match["place"]:
        return f"place {match['place'].lower()}"
    squares = [match["origin"], match["target"], match["build"] or ""]
    return " ".join(s.lower() for s in squares).strip()


def _santorini_path(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    """Placement: the square. A turn: the worker, its destination, then where it builds
    (a winning climb ends at the destination)."""
    turn = state.decode(action)
    squares = [turn.origin, turn.target, turn.build]
    return tuple(square_name(s) for s in squares if s is not None)


def _santorini_aliases(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    turn = state.decode(action)
    return (square_name(turn.target),) if turn.origin is None else ()


SANTORINI = GameSpec(
    id="santorini",
    title="Santorini",
    summary="Move a worker, then build; the first to climb onto a third level wins.",
    openspiel="python_santorini",
    taxonomy=Taxonomy("complete", "deterministic", "sequential", 2),
    param_notes=(
        "The official two-player base game without god powers: either worker may move each "
        "turn, and a player loses only when no worker can move (GameBench forced the workers "
        "to alternate)."
    ),
    benchmark="GameBench",
    board="grid",
    grammar=MoveGrammar(
        label=_santorini_label,
        pattern=_SANTORINI,
        key=_santorini_key,
        aliases=_santorini_aliases,
        click_path=_santorini_path,
        hint=(
            "<worker>: <from>-><to>, build <square>, squares a1-e5 (files a-e left to right, "
            "ranks 1-5 bottom to top), e.g. A: b2->c3, build d4 (→ works too); a climb onto "
            "level 3 wins at once and has no build: A: b2->c3, wins; while placing workers: "
            "place A at c3"
        ),
    ),
)


register(SANTORINI)
