"""GameBench's two abstract board games: Hive (OpenSpiel) and Santorini (our Python game).

GameBench's own versions fell short of the real games (no beetles and a simplified sliding
rule in Hive; Santorini forced the workers to alternate and lost when the forced worker was
stuck). Here Hive is OpenSpiel's implementation of the Universal Hive Protocol rules with
the base set by default, and Santorini is the official base game (``games.santorini``).
"""

from __future__ import annotations

import re

import pyspiel

from games import hive, santorini
from games.grammar import MoveGrammar
from games.registry import GameSpec, Taxonomy, register

_I = re.IGNORECASE
_L = r"(?<![0-9A-Za-z])"
_R = r"(?![0-9A-Za-z])"


# --- Hive: UHP moves ----------------------------------------------------------------------

def _uhp_label(state: pyspiel.State, player: int, action: int) -> str:
    return state.action_to_string(player, action)


def _tile_key(text: str) -> str:
    return text[0].lower() + text[1:].upper()


def _uhp_key(match: re.Match[str]) -> str:
    if match["pass"]:
        return hive.PASS
    tile = _tile_key(match["tile"])
    if not match["ref"]:
        return tile
    return f"{tile} {match['pre'] or ''}{_tile_key(match['ref'])}{match['post'] or ''}"


_UHP = re.compile(
    rf"{_L}(?:(?P<pass>pass)|(?P<tile>{hive.TILE})"
    rf"(?:[ \t]+(?P<pre>[\\/-])?(?P<ref>{hive.TILE})(?P<post>[\\/-])?)?)(?![0-9A-Za-z\\/-])",
    _I,
)


def _hive_path(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    """Click the tile (in the reserve or on the board), then its destination hex.

    OpenSpiel lists one move once per tile next to the destination; the first of those
    actions is the two-click path, the others add their own UHP label as a third step that
    no click produces (so every path stays unique, and two clicks always pick one move).
    """
    choice = hive.choices(state).by_action[action]
    if choice.tile is None or choice.target is None:
        return (hive.PASS,)
    path = (choice.tile, hive.hex_name(choice.target))
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
        "outgrows its grid of radius board_size (8) after re-centring."
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


# --- Santorini: "A: b2→c3, build d4" ------------------------------------------------------

def _santorini_label(state: pyspiel.State, player: int, action: int) -> str:
    return state.action_to_string(player, action)


_SQ = r"[a-e][1-5]"
_SANTORINI = re.compile(
    rf"{_L}(?:place\s+(?:[abxy]\s+)?(?:(?:at|on)\s+)?(?P<place>{_SQ})"
    rf"|(?:[abxy]\s*:\s*)?(?P<origin>{_SQ})\s*(?:→|->|-+>?|>|to|,|\s)\s*(?P<target>{_SQ})"
    rf"(?:\s*,?\s*(?:and\s+)?(?:then\s+)?(?:builds?\s*(?:(?:at|on)\s+)?)?(?P<build>{_SQ})"
    rf"|\s*,?\s*(?:and\s+)?(?P<wins>wins?))?){_R}",
    _I,
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
    return tuple(santorini.square_name(s) for s in squares if s is not None)


def _santorini_aliases(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    turn = state.decode(action)
    return (santorini.square_name(turn.target),) if turn.origin is None else ()


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


register(HIVE)
register(SANTORINI)
