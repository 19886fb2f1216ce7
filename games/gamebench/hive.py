"""Hive positions, rebuilt from OpenSpiel's move list.

OpenSpiel's ``hive`` state prints as its Universal Hive Protocol (UHP) game string, which is
the list of moves played; it does not expose tile coordinates. This module replays that list
on axial hex coordinates, in one place, for the move grammar (click paths name destination
hexes), the renderer and the text view.

Coordinates are axial ``(q, r)`` on pointy-top hexes, the first tile at ``(0, 0)``, ``r``
growing downwards: the east neighbour of ``(q, r)`` is ``(q + 1, r)``, north-east
``(q + 1, r - 1)``, north-west ``(q, r - 1)``, west ``(q - 1, r)``, south-west
``(q - 1, r + 1)``, south-east ``(q, r + 1)``. These are OpenSpiel's own axial offsets, so
our coordinates are OpenSpiel's until it re-centres its bounded internal grid.

A UHP move names the tile that moves and, except for the very first move, a reference tile
next to the destination: ``wA1 bQ/`` is White's first ant to the north-east of Black's queen
(``bQ-`` east, ``bQ\\`` south-east, ``/bQ`` south-west, ``-bQ`` west, ``\\bQ`` north-west,
plain ``bQ`` on top of it). Any tile next to the destination may be the reference, so
OpenSpiel lists the same move once per neighbouring tile, as distinct actions.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TypeVar

import pyspiel

from games.grammar import WORD_START, MoveGrammar
from games.registry import GameSpec, Taxonomy, register

Hex = tuple[int, int]
K = TypeVar("K")
V = TypeVar("V")

PASS = "pass"
ORIGIN: Hex = (0, 0)
DIRECTIONS: dict[str, Hex] = {
    "NE": (1, -1), "E": (1, 0), "SE": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (0, -1),
}
"""The six neighbours, clockwise from the top right (OpenSpiel's order)."""

_SUFFIX = {"/": "NE", "-": "E", "\\": "SE"}
_PREFIX = {"/": "SW", "-": "W", "\\": "NW"}

BUG_NAMES = {
    "Q": "queen", "S": "spider", "B": "beetle", "G": "grasshopper", "A": "ant",
    "M": "mosquito", "L": "ladybug", "P": "pillbug",
}
_BASE_SET = {"Q": 1, "S": 2, "B": 2, "G": 3, "A": 3}
_EXPANSIONS = {"M": "uses_mosquito", "L": "uses_ladybug", "P": "uses_pillbug"}
COLOURS = ("w", "b")
"""Tile colour letters by player: White (player 0) moves first."""

TILE = r"[wb](?:[QMLP]|[SBGA][1-3])"
_TILE_RE = re.compile(TILE)
_MOVE_RE = re.compile(
    rf"(?P<tile>{TILE})(?:\s+(?P<pre>[\\/-])?(?P<ref>{TILE})(?P<post>[\\/-])?)?"
)


@dataclass(frozen=True)
class Move:
    """A parsed UHP move. ``tile`` is None for a pass; ``direction`` is one of
    :data:`DIRECTIONS`, ``"above"`` (on top of the reference), or None for the opening move."""

    tile: str | None
    reference: str | None = None
    direction: str | None = None


def parse_move(text: str) -> Move:
    """Parse one UHP move as OpenSpiel writes it (``wA1``, ``bS2 wQ/``, ``pass``)."""
    text = text.strip()
    if text == PASS:
        return Move(None)
    match = _MOVE_RE.fullmatch(text)
    if match is None or (match["pre"] and match["post"]):
        raise ValueError(f"not a UHP move: {text!r}")
    if match["ref"] is None:
        return Move(match["tile"])
    if match["pre"]:
        direction = _PREFIX[match["pre"]]
    elif match["post"]:
        direction = _SUFFIX[match["post"]]
    else:
        direction = "above"
    return Move(match["tile"], match["ref"], direction)


def neighbour(where: Hex, direction: str) -> Hex:
    dq, dr = DIRECTIONS[direction]
    return (where[0] + dq, where[1] + dr)


def neighbours(where: Hex) -> list[Hex]:
    return [neighbour(where, direction) for direction in DIRECTIONS]


def hex_name(where: Hex) -> str:
    """The click target and text name of a hex: ``(q,r)``."""
    return f"({where[0]},{where[1]})"


_HEX_NAME = re.compile(r"\((-?\d+),(-?\d+)\)")


def parse_hex(name: str) -> Hex | None:
    """The hex a :func:`hex_name` names, or None for anything else."""
    match = _HEX_NAME.fullmatch(name)
    return (int(match[1]), int(match[2])) if match else None


def bug(tile: str) -> str:
    """The bug letter of a tile name (``wA2`` -> ``A``)."""
    return tile[1]


def tile_set(params: dict[str, object]) -> list[str]:
    """Every tile in a game with these OpenSpiel parameters, White's first, in UHP order."""
    counts = dict(_BASE_SET)
    for letter, flag in _EXPANSIONS.items():
        if params.get(flag, True):
            counts[letter] = 1
    tiles = []
    for colour in COLOURS:
        for letter, count in counts.items():
            tiles += [f"{colour}{letter}"] if letter in "QMLP" else [
                f"{colour}{letter}{n}" for n in range(1, count + 1)
            ]
    return tiles


@dataclass(frozen=True)
class LastMove:
    """The last tile moved: from ``origin`` (None when placed from the reserve) to ``target``."""

    tile: str
    origin: Hex | None
    target: Hex


class Position:
    """The tiles on the board after a list of UHP moves. Read-only once built."""

    def __init__(self) -> None:
        self._stacks: dict[Hex, tuple[str, ...]] = {}
        self._where: dict[str, Hex] = {}
        self.last: LastMove | None = None
        self.passes = 0

    @classmethod
    def replay(cls, moves: Iterable[str]) -> Position:
        position = cls()
        for text in moves:
            position._play(parse_move(text))
        return position

    @classmethod
    def from_stacks(cls, stacks: dict[Hex, tuple[str, ...]]) -> Position:
        """A position laid out directly (for pictures and benchmarks of any size)."""
        position = cls()
        position._stacks = {where: tuple(stack) for where, stack in stacks.items() if stack}
        position._where = {t: where for where, stack in position._stacks.items() for t in stack}
        return position

    def after(self, move: str) -> Position:
        """A new position: this one with ``move`` played."""
        child = Position()
        child._stacks = dict(self._stacks)
        child._where = dict(self._where)
        child.passes = self.passes
        child._play(parse_move(move))
        return child

    # --- reading ----------------------------------------------------------------------

    @property
    def stacks(self) -> dict[Hex, tuple[str, ...]]:
        """Occupied hexes -> their tiles, bottom first."""
        return dict(self._stacks)

    def tiles(self) -> list[str]:
        """The tiles on the board."""
        return list(self._where)

    def where(self, tile: str) -> Hex | None:
        return self._where.get(tile)

    def stack(self, where: Hex) -> tuple[str, ...]:
        return self._stacks.get(where, ())

    def top(self, where: Hex) -> str | None:
        stack = self._stacks.get(where)
        return stack[-1] if stack else None

    def height(self, where: Hex) -> int:
        return len(self._stacks.get(where, ()))

    def frontier(self) -> set[Hex]:
        """Empty hexes next to the hive: every hex a tile can be placed or moved to."""
        if not self._stacks:
            return {ORIGIN}
        return {n for h in self._stacks for n in neighbours(h) if n not in self._stacks}

    def destination(self, move: Move) -> Hex:
        """The hex ``move`` puts its tile on (the tile's own hex when it moves on top)."""
        if move.tile is None:
            raise ValueError("a pass has no destination")
        if move.reference is None:
            return ORIGIN
        anchor = self._where.get(move.reference)
        if anchor is None:
            raise ValueError(f"{move.reference} is not on the board")
        return anchor if move.direction == "above" else neighbour(anchor, str(move.direction))

    def queen_neighbours(self, colour: str) -> int | None:
        """How many of a queen's six neighbours are occupied (None if not placed)."""
        where = self._where.get(f"{colour}Q")
        if where is None:
            return None
        return sum(1 for n in neighbours(where) if n in self._stacks)

    # --- building ---------------------------------------------------------------------

    def _play(self, move: Move) -> None:
        if move.tile is None:
            self.last = None
            self.passes += 1
            return
        target = self.destination(move)
        origin = self._where.get(move.tile)
        if origin is not None:
            below = self._stacks[origin][:-1]
            if self._stacks[origin][-1] != move.tile:
                raise ValueError(f"{move.tile} is covered and cannot move")
            if below:
                self._stacks[origin] = below
            else:
                del self._stacks[origin]
        self._stacks[target] = (*self._stacks.get(target, ()), move.tile)
        self._where[move.tile] = target
        self.last = LastMove(move.tile, origin, target)


# --- positions of OpenSpiel states ---------------------------------------------------------


def moves_of(state: pyspiel.State) -> tuple[str, ...]:
    """The UHP moves played so far (OpenSpiel's action strings of the history)."""
    return tuple(state.action_to_string(action) for action in state.history())


def position(state: pyspiel.State) -> Position:
    """The position of an OpenSpiel ``hive`` state."""
    return _position(state, tuple(state.history()))


class Bounded(dict[K, V]):
    """A dict that forgets its oldest entries beyond ``size``: a cache shared by threads
    (entries are immutable, so a race costs at most a recomputation)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self._lock = threading.Lock()

    def put(self, key: K, value: V) -> None:
        with self._lock:
            while len(self) >= self.size:
                self.pop(next(iter(self)), None)
            self[key] = value


_POSITIONS: Bounded[tuple[int, ...], Position] = Bounded(1024)
_CHOICES: Bounded[tuple[str, tuple[int, ...]], Choices] = Bounded(256)


def _position(state: pyspiel.State, history: tuple[int, ...]) -> Position:
    """Replays the moves, starting from the cached position one move earlier when there is
    one, so following a game costs one move per state. (Action ids decode to the same UHP
    move whatever the parameters, so the history alone is the key.)"""
    cached = _POSITIONS.get(history)
    if cached is None:
        parent = _POSITIONS.get(history[:-1]) if history else None
        if parent is not None:
            cached = parent.after(state.action_to_string(history[-1]))
        else:
            cached = Position.replay(state.action_to_string(a) for a in history)
        _POSITIONS.put(history, cached)
    return cached


@dataclass(frozen=True)
class Choice:
    """One legal action as a person sees it: ``tile`` to ``target``.

    ``first`` is True for exactly one action per (tile, target): OpenSpiel lists a move once
    per neighbouring reference tile, and all of them put the tile on the same hex.
    """

    action: int
    label: str
    tile: str | None
    target: Hex | None
    first: bool


@dataclass(frozen=True)
class Choices:
    """The legal actions of one state, with the position they apply to."""

    position: Position
    by_action: dict[int, Choice]

    def targets(self, tile: str) -> list[Hex]:
        """The legal destinations of ``tile``, each once, in action order."""
        return list(dict.fromkeys(
            c.target for c in self.by_action.values() if c.tile == tile and c.target is not None
        ))

    def movable(self) -> list[str]:
        """Tiles that have a legal move, each once, in action order."""
        return list(dict.fromkeys(c.tile for c in self.by_action.values() if c.tile))

    def distinct(self) -> list[Choice]:
        """One action per distinct move (tile and destination), in action order."""
        return [c for c in self.by_action.values() if c.first]

    @property
    def only_pass(self) -> bool:
        return [c.tile for c in self.by_action.values()] == [None]


def choices(state: pyspiel.State) -> Choices:
    """The legal actions of ``state`` with their tiles and destination hexes (cached)."""
    history = tuple(state.history())
    key = (str(state.get_game()), history)
    cached = _CHOICES.get(key)
    if cached is None:
        cached = _build_choices(state, _position(state, history))
        _CHOICES.put(key, cached)
    return cached


def _build_choices(state: pyspiel.State, where: Position) -> Choices:
    by_action: dict[int, Choice] = {}
    seen: set[tuple[str, Hex]] = set()
    if state.is_terminal():
        return Choices(where, by_action)
    player = state.current_player()
    for action in state.legal_actions(player):
        label = state.action_to_string(player, action)
        move = parse_move(label)
        if move.tile is None:
            by_action[action] = Choice(action, label, None, None, True)
            continue
        target = where.destination(move)
        first = (move.tile, target) not in seen
        seen.add((move.tile, target))
        by_action[action] = Choice(action, label, move.tile, target, first)
    return Choices(where, by_action)


def reserve(state: pyspiel.State, colour: str) -> list[str]:
    """``colour``'s tiles not yet placed, in UHP order."""
    placed = set(position(state).tiles())
    params = dict(state.get_game().get_parameters())
    return [t for t in tile_set(params) if t[0] == colour and t not in placed]


# --- Hive: UHP moves ----------------------------------------------------------------------

def _uhp_label(state: pyspiel.State, player: int, action: int) -> str:
    return state.action_to_string(player, action)


def _tile_key(text: str) -> str:
    return text[0].lower() + text[1:].upper()


def _uhp_key(match: re.Match[str]) -> str:
    if match["pass"]:
        return PASS
    tile = _tile_key(match["tile"])
    if not match["ref"]:
        return tile
    return f"{tile} {match['pre'] or ''}{_tile_key(match['ref'])}{match['post'] or ''}"


_UHP = re.compile(
    rf"{WORD_START}(?:(?P<pass>pass)|(?P<tile>{TILE})"
    rf"(?:[ \t]+(?P<pre>[\\/-])?(?P<ref>{TILE})(?P<post>[\\/-])?)?)(?![0-9A-Za-z\\/-])",
    re.IGNORECASE,
)


def _hive_path(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    """Click the tile (in the reserve or on the board), then its destination hex.

    OpenSpiel lists one move once per tile next to the destination; the first of those
    actions is the two-click path, the others add their own UHP label as a third step that
    no click produces (so every path stays unique, and two clicks always pick one move).
    """
    choice = choices(state).by_action[action]
    if choice.tile is None or choice.target is None:
        return (PASS,)
    path = (choice.tile, hex_name(choice.target))
    return path if choice.first else (*path, choice.label)


HIVE = GameSpec(
    id="hive",
    title="Hive",
    summary="Surround the opposing queen bee with tiles; no board, the tiles are the board.",
    openspiel="hive",
    taxonomy=Taxonomy("complete", "deterministic", "sequential", 2),
    default_params={"uses_mosquito": False, "uses_ladybug": False, "uses_pillbug": False},
    param_notes=(
        "The base game: a queen, 2 spiders, 2 beetles, 3 grasshoppers and 3 ants each. "
        "uses_mosquito, uses_ladybug and uses_pillbug add the expansion tiles (OpenSpiel's "
        "default is all three). OpenSpiel declares a draw after 500 moves, and when the hive "
        "outgrows its grid of radius board_size (8) after re-centring. The queen may not be "
        "placed on a player's first turn (the tournament rule; the printed rulebook allows "
        "turns 1-4): OpenSpiel plays only this rule and has no parameter for it."
    ),
    benchmark="GameBench",
    board="grid",
    grammar=MoveGrammar(
        label=_uhp_label,
        pattern=_UHP,
        key=_uhp_key,
        click_path=_hive_path,
        hint=(
            "a UHP move: the tile to play, a space, then a tile next to its destination with "
            "the side marked (wA1 bQ/ north-east of bQ, bQ- east, bQ\\ south-east, /bQ "
            "south-west, -bQ west, \\bQ north-west; wB1 bQ on top of bQ), e.g. bS2 wQ/; the "
            "very first move is the tile alone, e.g. wA1; pass only when nothing else is legal"
        ),
    ),
)


register(HIVE)
