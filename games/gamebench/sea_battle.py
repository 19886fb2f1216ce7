"""Sea Battle's registry entry: the move grammar of a seat's three orders and the GameSpec.

The rules are in :mod:`games.gamebench.sea_battle_rules`. A move is the seat's whole turn,
one order per ship afloat: ``ship 1: forward, shoot left; ship 2: left, shoot right; ship 3:
stay, shoot left`` (a sunk ship gets none). A person clicks one order per ship on the order
picker under the sea, ship 1 first; each click is the ship's part of the label.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pyspiel

from games.gamebench import sea_battle_rules as rules
from games.grammar import WORD_END, WORD_START, MoveGrammar
from games.registry import GameSpec, ParamValue, Taxonomy, register

_MOVE = (r"(?:(?:move|sail|turn|go)\s+)?(?P<m{i}>left|forward|ahead|straight|right|stay|wait"
         r"|hold|don'?t\s+move|do\s+not\s+move)")
_ONE = (r"ship\s*(?P<n{i}>[1-3])\s*[:=.)-]?\s*" + _MOVE +
        r"\s*(?:[,;&+]|\band\b|\bthen\b)?\s*(?:(?:and|then)\s+)?(?:shoot|fire)\s+"
        r"(?:to\s+(?:the\s+|its\s+)?)?(?P<s{i}>left|right)")
_SEP = r"\s*(?:[;,|/]|\band\b)?\s*(?:and\s+)?"
_PATTERN = re.compile(
    rf"{WORD_START}{_ONE.format(i=0)}(?:{_SEP}{_ONE.format(i=1)})?(?:{_SEP}{_ONE.format(i=2)})?"
    rf"{WORD_END}", re.IGNORECASE)
_MOVE_KEYS = {"left": "l", "right": "r", "forward": "f", "ahead": "f", "straight": "f",
              "stay": "s", "wait": "s", "hold": "s"}

HINT = ("one order for each of your ships afloat, as ship <number>: <left|forward|right|stay>, "
        "shoot <left|right>, joined by '; ', e.g. ship 1: forward, shoot left; ship 2: left, "
        "shoot right; ship 3: stay, shoot left (a sunk ship gets no order)")


def _key(match: re.Match[str]) -> str:
    """Ship number, move and side of each order, by ship; a ship named twice never matches."""
    parts: dict[str, str] = {}
    repeated = False
    for i in range(rules.SHIPS):
        number = match.group(f"n{i}")
        if number is None:
            continue
        move = " ".join(match.group(f"m{i}").lower().split())
        side = match.group(f"s{i}").lower()
        repeated |= number in parts
        parts[number] = f"{number}{_MOVE_KEYS.get(move, 's')}{side[0]}"
    key = "".join(parts[n] for n in sorted(parts))
    return key + "!" if repeated else key


def _label(state: pyspiel.State, player: int, action: int) -> str:
    return state.label(player, action)


def _path(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    return tuple(f"ship {n}: {o.text()}" for n, o in state.orders(player, action))


def _summary(actions: list[int], labels: list[str]) -> str:
    ships = [f"ship {n}" for n in re.findall(r"ship (\d)", labels[0])]
    return (f"one order for each of {', '.join(ships)}: {len(labels)} combinations, "
            f"e.g. {labels[0]}")


def _values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    return {"max_turns": str(params["max_turns"]), "inner_rocks": str(params["inner_rocks"])}


def _metrics(state: pyspiel.State, entities: Sequence[str]) -> dict[str, Any]:
    """How the session ended, besides its win/draw/loss: by a sunk fleet or the turn cap,
    after how many turns, and each seat's ships afloat and hull left."""
    return {"sea_battle": {
        "ended_by": state.ended_by(), "turns": state.turn,
        "ships_afloat": [len(state.afloat(s)) for s in (0, 1)],
        "hull": [state.hull(s) for s in (0, 1)],
    }}


SEA_BATTLE = GameSpec(
    id="sea_battle",
    title="Sea Battle",
    summary="Command three ships at once against three; sink the other fleet first.",
    openspiel="python_sea_battle",
    taxonomy=Taxonomy("complete", "probabilistic", "simultaneous", 2),
    default_params=dict(rules.DEFAULTS),
    param_notes=(
        "GameBench's 24x24 sea with a rock border and 14 inner rocks, ships, headings and rocks "
        "placed from the match seed (layout_seed; -1 = the match seed). GameBench had no turn "
        "cap; here after max_turns turns the seat with more ships afloat wins, then the one "
        "with more hull left, else a draw."
    ),
    benchmark="GameBench",
    board="grid",
    seed_param="layout_seed",
    rule_values=_values,
    metrics=_metrics,
    grammar=MoveGrammar(
        label=_label,
        pattern=_PATTERN,
        key=_key,
        click_path=_path,
        hint=HINT,
        json_fields=("orders",),
        summary=_summary,
    ),
)


register(SEA_BATTLE)
