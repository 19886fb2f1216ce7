"""Air, Land & Sea: the registry entry, its move grammar and GameBench's VP-share metric.

The rules live in :mod:`games.gamebench.air_land_sea_rules` (the pyspiel game, registered
as ``python_air_land_sea``), the cards in :mod:`~games.gamebench.air_land_sea_cards`, and
what each seat knows, the labels and the click targets in
:mod:`~games.gamebench.air_land_sea_view`.

Moves read like ``play Heavy Tanks face-down to Land``, ``withdraw``, ``flip Transport
(Sea)``, ``flip Blue's face-down card (Air)``, ``move Support from Air to Land``, ``return
face-down Heavy Tanks from Land to hand`` and ``skip Transport``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import pyspiel

from games.gamebench import air_land_sea_rules  # noqa: F401  (registers the pyspiel game)
from games.gamebench.air_land_sea_cards import BY_NAME, CARDS, DEFAULT_TARGET, SEATS, THEATERS
from games.gamebench.air_land_sea_view import action_label, click_path, public_label
from games.grammar import WORD_END, WORD_START, MoveGrammar
from games.registry import GameSpec, Taxonomy, Visibility, register


def _names(words: Sequence[str]) -> str:
    ordered = sorted(words, key=len, reverse=True)
    return "|".join(r"[\s-]+".join(re.escape(part) for part in name.split()) for name in ordered)


_CARD = _names([card.name for card in CARDS])
_THEATER = "air|land|sea"
_FACE = r"face[\s-]*"
_THE = r"(?:the\s+)?"
_PATTERN = re.compile(
    rf"{WORD_START}(?:"
    rf"play\s+{_THE}(?P<pcard>{_CARD})\s+{_FACE}(?P<pface>up|down)\s+(?:to|in|into|on)\s+"
    rf"{_THE}(?P<ptheater>{_THEATER})(?:\s+theater)?"
    rf"|(?P<withdraw>withdraw)"
    rf"|flip\s+{_THE}(?:(?P<fseat>red|blue)(?:'s|s)?\s+{_FACE}down\s+card"
    rf"|(?:{_FACE}(?:up|down)\s+)?(?P<fcard>{_CARD}))"
    rf"\s*(?:\(\s*|\s+in\s+{_THE})?(?P<ftheater>{_THEATER})(?:\s*\))?"
    rf"|move\s+{_THE}(?:{_FACE}(?:up|down)\s+)?(?P<mcard>{_CARD})"
    rf"(?:\s+from\s+{_THE}(?:{_THEATER}))?\s+to\s+{_THE}(?P<mtheater>{_THEATER})"
    rf"|return\s+{_THE}(?:{_FACE}down\s+)?(?P<rcard>{_CARD})"
    rf"(?:\s+from\s+{_THE}(?:{_THEATER}))?\s+to\s+(?:your\s+|their\s+|the\s+)?hand"
    rf"|(?P<skip>skip)(?:\s+(?:transport|redeploy))?"
    rf"){WORD_END}",
    re.IGNORECASE,
)


def _card(text: str) -> int:
    return BY_NAME[" ".join(re.split(r"[\s-]+", text.lower()))].id


def _theater(text: str) -> int:
    return THEATERS.index(text.capitalize())


def _key(match: re.Match[str]) -> str:
    """One key per move: ``play 11 down 1``, ``withdraw``, ``flip 12 2`` or ``flip blue 0``
    (an unknown face-down card), ``move 0 1``, ``return 11``, ``skip``."""
    if match["pcard"]:
        return (f"play {_card(match['pcard'])} {match['pface'].lower()} "
                f"{_theater(match['ptheater'])}")
    if match["withdraw"]:
        return "withdraw"
    if match["ftheater"]:
        who = match["fseat"].lower() if match["fseat"] else str(_card(match["fcard"]))
        return f"flip {who} {_theater(match['ftheater'])}"
    if match["mcard"]:
        return f"move {_card(match['mcard'])} {_theater(match['mtheater'])}"
    if match["rcard"]:
        return f"return {_card(match['rcard'])}"
    return "skip"


def _label(state: pyspiel.State, player: int, action: int) -> str:
    return action_label(state, player, action)


def _path(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    return click_path(state, player, action)


def vp_share(state: pyspiel.State, entities: Sequence[str]) -> dict[str, Any]:
    """GameBench's score beside our win/loss: each seat's share of the victory points."""
    vp = list(state.vp)
    total = sum(vp)
    shares = [v / total if total else 0.5 for v in vp]
    return {"gamebench": {"score": "vp_share", "vp": vp, "share": shares,
                          "battles": len(state.results), "complete": state.is_terminal()}}


AIR_LAND_SEA = GameSpec(
    id="air_land_sea",
    title="Air, Land & Sea",
    summary=("Battles over three theaters with six cards each; withdraw early to give fewer "
             "points; the first to 12 victory points wins the war."),
    openspiel="python_air_land_sea",
    taxonomy=Taxonomy("incomplete", "probabilistic", "sequential", 2),
    default_params={"target": DEFAULT_TARGET},
    param_notes=(
        "The official base game (18 cards, every tactical ability). target: the victory "
        "points that win the war (12; the rulebook's longer game plays to 18). GameBench gave "
        "each player the other Supreme Commander card's withdrawal table and treated Disrupt "
        "as ongoing; here both follow the printed cards."
    ),
    benchmark="GameBench",
    board="table",
    visibility=Visibility(moves=False, chance=False),
    metrics=vp_share,
    public_label=public_label,
    grammar=MoveGrammar(
        label=_label,
        pattern=_PATTERN,
        key=_key,
        click_path=_path,
        hint=(
            "play <card> face-up|face-down to <Air|Land|Sea> (e.g. play Heavy Tanks face-down "
            "to Land), or withdraw; when an ability asks: flip <card> (<theater>) or flip "
            f"{SEATS[1]}'s face-down card (<theater>), move <card> from <theater> to "
            "<theater>, return face-down <card> from <theater> to hand, skip <ability>"
        ),
    ),
)


register(AIR_LAND_SEA)
