"""Pit's registry entry: the move grammar (offers, acceptances, pass, withdraw) and the spec.

The rules are in :mod:`games.gamebench.pit_rules` (cards and actions in ``pit_cards``), what
a seat knows in
:mod:`games.gamebench.pit_view`. Labels are the acting seat's: ``offer 2 Wheat``, ``offer 1
Corn + Bear``, ``accept player 3's offer of 2, giving 2 Corn``, ``withdraw my offer``,
``pass``. Only the acting seat ever sees its own label before the game ends
(``Visibility(moves=False)``): the others are told ``offer 2 cards``, ``accept player 3's
offer of 2 cards`` (``public_label``).

A person clicks: for an offer, the cards (``2 Wheat``, then ``Bull``/``Bear`` if wanted), then
``make the offer``; to accept, the offer on the table (``player 3's offer``), then the cards
to give (as many as it holds); ``pass`` and ``withdraw my offer`` are one click each.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import pyspiel

from games.gamebench import pit_cards as cards
from games.gamebench import pit_rules  # noqa: F401  (registers python_pit with pyspiel)
from games.gamebench.pit_cards import COMMODITIES, Bundle, seat_name
from games.grammar import WORD_END, WORD_START, MoveGrammar
from games.registry import GameSpec, ParamValue, Taxonomy, Visibility, register

_COMMODITY = r"wheat|barley|coffee|corn|sugar|oats?|soy\s*beans?|oranges?"
_SPECIAL = r"(?:the\s+)?(?:bull|bear)"
_JOIN = r"\s*(?:\+|&|,|\band\b|\bwith\b|\bplus\b)\s*"
_BUNDLE = (rf"(?:[1-4]\s*(?:x\s*)?(?:{_COMMODITY})(?:{_JOIN}{_SPECIAL}){{0,2}}"
           rf"|{_SPECIAL}(?:{_JOIN}{_SPECIAL})?)")
_PATTERN = re.compile(
    rf"{WORD_START}(?:(?P<pass>pass|ignore)"
    rf"|(?P<withdraw>withdraw(?:\s+(?:my|the))?(?:\s+offer)?)"
    rf"|offer\s+(?P<offer>{_BUNDLE})"
    rf"|accept\s+(?:player\s*)?(?P<seat>[1-8])(?:'s)?(?:\s+offer)?"
    rf"(?:\s+of\s+[1-4](?:\s+cards?)?)?\s*[,:;]?\s*(?:(?:and\s+)?(?:giv(?:e|ing)|for|with"
    rf"|paying)\s+)?(?P<give>{_BUNDLE})){WORD_END}",
    re.IGNORECASE)
_NAMES = {name.lower(): i for i, (name, _) in enumerate(COMMODITIES)}

HINT = ("one of: pass; withdraw my offer; offer <1-4> <commodity>, the Bull or the Bear may "
        "go with them or alone (e.g. offer 2 Wheat, offer 1 Corn + Bear, offer Bull); "
        "accept player <n>'s offer of <k>, giving <k cards: one commodity, with the Bull or "
        "Bear if you like> (e.g. accept player 3's offer of 2, giving 2 Corn)")


def bundle_of(text: str) -> Bundle | None:
    """The bundle written in ``text`` (``2 Wheat + Bull``), or None if it is not one."""
    lower = text.lower()
    found = re.search(rf"([1-4])\s*(?:x\s*)?({_COMMODITY})", lower)
    commodity, count = None, 0
    if found:
        word = re.sub(r"\s+", "", found.group(2))
        word = {"oat": "oats", "soybean": "soybeans", "orange": "oranges"}.get(word, word)
        commodity, count = _NAMES.get(word), int(found.group(1))
        if commodity is None:
            return None
    bull, bear = len(re.findall(r"\bbull\b", lower)), len(re.findall(r"\bbear\b", lower))
    if bull > 1 or bear > 1:
        return None
    return Bundle(commodity, count, bool(bull), bool(bear))


def _key(match: re.Match[str]) -> str:
    if match.group("pass"):
        return "pass"
    if match.group("withdraw"):
        return "withdraw"
    text = match.group("offer") or match.group("give")
    bundle = bundle_of(text)
    code = "?" if bundle is None else f"{bundle.commodity}.{bundle.count}.{bundle.bull:d}{bundle.bear:d}"
    if match.group("offer"):
        return f"offer {code}"
    return f"accept {int(match.group('seat')) - 1} {code}"


def _label(state: pyspiel.State, player: int, action: int) -> str:
    return state.label(action)


def _public_label(state: pyspiel.State, player: int, action: int) -> str | None:
    """What the other traders are told of a move: how many cards an offer or a trade
    moves, never which (the deal: nothing)."""
    if player == pyspiel.PlayerId.CHANCE:
        return None
    kind, seat, bundle = state.decode(action)
    if bundle is None:
        return _label(state, player, action)  # pass, withdraw: public as they are
    cards = f"{bundle.size} card{'s' * (bundle.size != 1)}"
    if kind == "offer":
        return f"offer {cards}"
    assert seat is not None
    return f"accept {seat_name(seat)}'s offer of {cards}"


def chip(bundle: Bundle) -> tuple[str, ...]:
    """The click targets that pick ``bundle``'s cards: the commodity's count chip, then the
    Bull, then the Bear."""
    parts = [] if bundle.commodity is None else [f"{bundle.count} {COMMODITIES[bundle.commodity][0]}"]
    return tuple(parts + [name for name, held in (("Bull", bundle.bull), ("Bear", bundle.bear))
                          if held])


MAKE_OFFER = "make the offer"
PASS_TARGET = "pass"
WITHDRAW_TARGET = "withdraw my offer"


def offer_target(seat: int) -> str:
    return f"{seat_name(seat)}'s offer"


def _path(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    kind, seat, bundle = state.decode(action)
    if kind == "pass":
        return (PASS_TARGET,)
    if kind == "withdraw":
        return (WITHDRAW_TARGET,)
    assert bundle is not None
    if kind == "offer":
        return (*chip(bundle), MAKE_OFFER)
    return (offer_target(seat), *chip(bundle))


def _values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    players = int(params["num_players"])
    names = ", ".join(f"{name} {value}" for name, value in COMMODITIES[:players])
    specials = (" Also in the deck: the Bull and the Bear." if params["bull_bear"]
                else " The Bull and the Bear are left out (the basic game).")
    return {"players": str(players), "target": str(params["target"]),
            "max_rounds": str(params["max_rounds"]), "commodities": names,
            "specials": specials}


def _metrics(state: pyspiel.State, entities: Sequence[str]) -> dict[str, Any]:
    """Points, how the game ended and the hands played, and GameBench's score: each seat's
    share of all points (GameBench's Pit returned score / total; None when the total is not
    positive, where a share means nothing)."""
    total = sum(state.scores)
    return {"pit": {
        "points": list(state.scores), "ended_by": state.ended_by(),
        "hands": len([c for c in state.corners if c.seat is not None]),
        "rounds": min(state.round, state.get_game().max_rounds),
        "gamebench_share": [s / total for s in state.scores] if total > 0 else None,
    }}


PIT = GameSpec(
    id="pit",
    title="Pit",
    summary="Trade cards blind, by count only, to corner a commodity; first to 500 wins.",
    openspiel="python_pit",
    taxonomy=Taxonomy("incomplete", "probabilistic", "sequential", 4),
    default_params=dict(cards.DEFAULTS),
    param_notes=(
        "The official deck (one 9-card suit per seat, Bull and Bear) and target (500 points); "
        "turns instead of open outcry, one action a turn, and a cap of max_rounds rounds "
        "(100: most games end there, the highest score winning). num_players 3-8."
    ),
    benchmark="GameBench",
    board="table",
    visibility=Visibility(moves=False, chance=False),
    max_seats=cards.MAX_PLAYERS,
    rule_values=_values,
    metrics=_metrics,
    public_label=_public_label,
    grammar=MoveGrammar(
        label=_label,
        pattern=_PATTERN,
        key=_key,
        click_path=_path,
        hint=HINT,
    ),
)


register(PIT)
