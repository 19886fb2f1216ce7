"""GAMA-Bench's eight games, with GAMA's default settings and our move labels.

Defaults are the paper's (§3): 10 players and 20 rounds; Guess 2/3 of the Average on 0-100
with R = 2/3; El Farol with capacity 60%, utilities 10 / 0 / 5 and implicit information;
Divide the Dollar with G = 100; Public Goods with 20 tokens a round and R = 2; Diner's
Dilemma with the cheap dish 10 (utility 15) and the costly one 20 (utility 20); Sealed-Bid
Auction with valuations 1-200 drawn from the match seed, first price; Battle Royale with hit
rates 35%-80%; Pirate Game with G = 100. Each can be changed within the ranges of the
paper's Table 8 (the games refuse other values with a message saying what is allowed).

Numbers are OpenSpiel action ids (choosing 37 is action 37), so a person's number field, a
typed "37" and a model's ``{"chosen_number": 37}`` all resolve to the same move through the
adapter; an out-of-range number is rejected with the allowed range.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pyspiel

from games.gama import scoring
from games.gama.battle_royale import BATTLE_ROYALE_PARAMS
from games.gama.betraying import AUCTION_PARAMS, DINERS_PARAMS, PUBLIC_GOODS_PARAMS
from games.gama.common import parse_ratio, ratio_text
from games.gama.cooperative import DIVIDE_PARAMS, EL_FAROL_PARAMS, GUESS_PARAMS
from games.gama.pirate import PIRATE_PARAMS
from games.grammar import MoveGrammar
from games.registry import GameSpec, ParamValue, Taxonomy, Visibility, register

_I = re.IGNORECASE | re.MULTILINE
_L = r"(?<![0-9A-Za-z_])"
_R = r"(?![0-9A-Za-z_])"
_NUMBER = r"-?\d+(?:\.\d+)?"
_QUOTE = r"""["']?\s*[:=]?\s*["']?\s*"""
_ALONE = rf"^\s*(?P<alone>{_NUMBER})\s*$"
"""A line that is nothing but a number: the whole answer of a number field."""


def _pattern(body: str) -> re.Pattern[str]:
    return re.compile(body, _I)


def _number_key(text: str) -> str:
    value = float(text)
    return f"n{int(value)}" if value.is_integer() else f"n{text}"


def _range_summary(kind: str, example: str) -> Callable[[list[int], list[str]], str]:
    def summary(actions: list[int], labels: list[str]) -> str:
        low, high = min(actions), max(actions)
        if actions == list(range(low, high + 1)):
            return f"{kind} from {low} to {high}, e.g. {example.format(n=(low + high) // 2)}"
        return ", ".join(labels)
    return summary


def number_grammar(verb: str, field: str, what: str, synonyms: Sequence[str] = ()
                   ) -> MoveGrammar:
    """Moves that are one whole number: labelled ``<verb> <n>``; found as that label, as the
    JSON field ``field``, or as an answer that is only the number."""
    names = "|".join(re.escape(name) for name in (verb, field, *synonyms))
    pattern = _pattern(rf"{_L}(?:{names}){_QUOTE}(?P<n>{_NUMBER}){_R}|{_ALONE}")
    return MoveGrammar(
        label=lambda state, player, action: f"{verb} {action}",
        pattern=pattern,
        key=lambda match: _number_key(match.group("n") or match.group("alone")),
        hint=f'{what} as a whole number, e.g. 37 or "{verb} 37" (JSON: {{"{field}": 37}})',
        json_fields=(field,),
        summary=_range_summary(f"{what}: a whole number", verb + " {n}"),
    )


def word_grammar(words: Mapping[str, str], labels: Mapping[int, str], field: str,
                 hint: str) -> MoveGrammar:
    """Moves named by words (``go``/``stay``); ``words`` maps each accepted phrase to a key."""
    body = "|".join(sorted((r"[\s_]+".join(map(re.escape, w.split())) for w in words),
                           key=len, reverse=True))
    return MoveGrammar(
        label=lambda state, player, action: labels[action],
        pattern=_pattern(rf"{_L}(?:{body}){_R}"),
        key=lambda match: words[re.sub(r"[\s_]+", " ", match.group(0).lower())],
        hint=hint,
        json_fields=(field,),
    )


# --- Guess 2/3 of the Average ----------------------------------------------------------------

def _guess_values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    ratio = parse_ratio("ratio", str(params["ratio"]))
    return {**_common_values(params), "min": str(params["min_number"]),
            "max": str(params["max_number"]), "ratio": ratio_text(ratio)}


def _common_values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    return {"players": str(params.get("num_players", 10)),
            "rounds": str(params.get("num_rounds", 20))}


_SIMULTANEOUS = Visibility(moves=False, chance=False)


def _spec(game_id: str, title: str, summary: str, openspiel: str, taxonomy: Taxonomy,
          grammar: MoveGrammar, defaults: Mapping[str, Any], notes: str,
          values: Callable[[Mapping[str, ParamValue]], dict[str, str]], *,
          visibility: Visibility = _SIMULTANEOUS, seed_param: str | None = None) -> GameSpec:
    def metrics(state: pyspiel.State, entities: Sequence[str]) -> dict[str, Any]:
        return scoring.session_metrics(game_id, state, entities)

    return GameSpec(
        id=game_id, title=title, summary=summary, openspiel=openspiel, taxonomy=taxonomy,
        grammar=grammar, default_params=dict(defaults), param_notes=notes,
        benchmark="GAMA-Bench", visibility=visibility, seed_param=seed_param,
        rule_values=values, metrics=metrics,
    )


def _taxonomy(information: str = "complete", chance: str = "deterministic",
              dynamics: str = "simultaneous") -> Taxonomy:
    return Taxonomy(information, chance, dynamics, 10)  # type: ignore[arg-type]


GUESS = _spec(
    "guess_2_3", "Guess 2/3 of the Average",
    "Everyone picks a number; closest to 2/3 of the average wins the round.",
    "python_gama_guess_2_3", _taxonomy(),
    number_grammar("choose", "chosen_number", "your number", ("number", "guess")),
    GUESS_PARAMS,
    "GAMA: 10 players, 20 rounds, numbers 0-100, R = 2/3; R may be 0-2 (Table 8), as 2/3 or "
    "0.5.", _guess_values,
)


# --- El Farol Bar ---------------------------------------------------------------------------

def _el_farol_values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    implicit = str(params["information"]) == "implicit"
    return {**_common_values(params), "capacity": f"{params['capacity']}%",
            "fun": str(params["fun_utility"]), "crowded": str(params["crowded_utility"]),
            "home": str(params["home_utility"]),
            "information_rule": (
                "Those who stay home do not learn how many players went to the bar."
                if implicit else "Everyone learns how many players went to the bar."),
            "information_for_people": (
                "those who went learn how many went. Those who stayed home learn only their "
                "own utility: they do not find out how busy the bar was." if implicit else
                "everyone learns how many went and whether the bar was fun.")}


EL_FAROL = _spec(
    "el_farol", "El Farol Bar",
    "Go to the bar or stay home; the bar is fun only if at most 60% go.",
    "python_gama_el_farol", _taxonomy(information="incomplete"),
    word_grammar({"go": "go", "going": "go", "go to the bar": "go", "stay": "stay",
                  "stay home": "stay", "stay at home": "stay", "home": "stay"},
                 {0: "stay", 1: "go"}, "decision",
                 'go or stay (JSON: {"decision": "go"})'),
    EL_FAROL_PARAMS,
    "GAMA: capacity 60%, utilities 10 (fun) / 0 (crowded) / 5 (home), implicit information "
    "(those who stay home do not learn the attendance); capacity may be 0-100%.",
    _el_farol_values,
)


# --- Divide the Dollar ----------------------------------------------------------------------

def _divide_values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    return {**_common_values(params), "golds": str(params["golds"])}


DIVIDE = _spec(
    "divide_dollar", "Divide the Dollar",
    "Everyone bids for a share of 100 golds; if the bids add up to more, nobody gets any.",
    "python_gama_divide_dollar", _taxonomy(),
    number_grammar("bid", "bid_amount", "your bid", ("bid amount",)),
    DIVIDE_PARAMS, "GAMA: G = 100 golds; G may be 50-800 (Table 8).", _divide_values,
)


# --- Public Goods Game ----------------------------------------------------------------------

def _public_goods_values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    ratio = parse_ratio("multiplier", str(params["multiplier"]))
    return {**_common_values(params), "tokens": str(params["tokens"]),
            "multiplier": ratio_text(ratio)}


PUBLIC_GOODS = _spec(
    "public_goods", "Public Goods Game",
    "Put tokens in a pot that is doubled and shared by all; keep the rest.",
    "python_gama_public_goods", _taxonomy(),
    number_grammar("contribute", "tokens_contributed", "your contribution",
                   ("contribution", "tokens")),
    PUBLIC_GOODS_PARAMS,
    "GAMA: 20 tokens each round, pot multiplied by R = 2; R may be 0-4 (Table 8).",
    _public_goods_values, visibility=Visibility(moves=True, chance=False),
)


# --- Diner's Dilemma ------------------------------------------------------------------------

def _diners_values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    return {**_common_values(params), "cheap_price": str(params["cheap_price"]),
            "cheap_utility": str(params["cheap_utility"]),
            "costly_price": str(params["costly_price"]),
            "costly_utility": str(params["costly_utility"])}


DINERS = _spec(
    "diners_dilemma", "Diner's Dilemma",
    "Order the cheap or the costly dish; the bill is split equally.",
    "python_gama_diners_dilemma", _taxonomy(),
    word_grammar({"cheap": "cheap", "cheap dish": "cheap", "costly": "costly",
                  "costly dish": "costly", "expensive": "costly",
                  "expensive dish": "costly"},
                 {0: "cheap", 1: "costly"}, "chosen_dish",
                 'cheap or costly (JSON: {"chosen_dish": "costly"})'),
    DINERS_PARAMS,
    "GAMA: cheap dish price 10, utility 15; costly dish price 20, utility 20. Other values "
    "must keep the dilemma (alone the cheap dish is better, shared the costly one).",
    _diners_values,
)


# --- Sealed-Bid Auction ---------------------------------------------------------------------

def _auction_values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    price = str(params["price"])
    return {**_common_values(params), "max_valuation": str(params["max_valuation"]),
            "price_rule": "the highest bid" if price == "first" else "the second highest bid",
            "price": price}


AUCTION = _spec(
    "sealed_bid_auction", "Sealed-Bid Auction",
    "Each round bid for an item you value privately; the highest bid wins.",
    "python_gama_sealed_bid_auction",
    _taxonomy(information="incomplete", chance="probabilistic"),
    number_grammar("bid", "bid", "your bid", ("bid amount", "bid_amount")),
    AUCTION_PARAMS,
    "GAMA: valuations 1-200 drawn from the match seed, first price (the winner pays its bid); "
    "price=second for the Vickrey auction; valuations up to 100-800 (Table 8).",
    _auction_values, seed_param="valuation_seed",
)


# --- Battle Royale --------------------------------------------------------------------------

def _battle_label(state: pyspiel.State, player: int, action: int) -> str:
    return "miss" if action == state.get_game().miss else f"shoot player {action}"


def _battle_key(match: re.Match[str]) -> str:
    if match.group("miss"):
        return "miss"
    return f"t{int(match.group('n') or match.group('alone'))}"


def _battle_values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    return {"players": str(params["num_players"]), "max_turns": str(params["max_turns"]),
            "min_rate": f"{params['min_hit_rate']}%", "max_rate": f"{params['max_hit_rate']}%"}


BATTLE_ROYALE = _spec(
    "battle_royale", "Battle Royale",
    "Take turns shooting at each other; the last one standing wins.",
    "python_gama_battle_royale",
    _taxonomy(chance="probabilistic", dynamics="sequential"),
    MoveGrammar(
        label=_battle_label,
        pattern=_pattern(
            rf"{_L}(?P<miss>(?:intentionally\s+|deliberately\s+)?miss(?:\s+(?:the|my)\s+shot)?)"
            rf"{_R}|{_L}(?:shoot(?:\s+at)?|target){_QUOTE}player[\s_]*(?P<n>\d+){_R}"
            rf"|^\s*(?:player[\s_]*)?(?P<alone>\d+)\s*$"
        ),
        key=_battle_key,
        hint='shoot player <number> or miss (JSON: {"target": "player_3"} or '
             '{"target": "miss"})',
        json_fields=("target",),
    ),
    BATTLE_ROYALE_PARAMS,
    "GAMA: hit rates 35% to 80% spread evenly over the seats (seat 0 lowest, shooting first); "
    "the range may be anywhere in 10%-100% (Table 8). The game ends when one player remains "
    "or after max_turns turns.",
    _battle_values, visibility=Visibility(moves=True, chance=True),
)


# --- Pirate Game ----------------------------------------------------------------------------

def _pirate_label(state: pyspiel.State, player: int, action: int) -> str:
    return state.move_label(action)


def _pirate_key(match: re.Match[str]) -> str:
    for word in ("accept", "reject", "overboard"):
        if match.group(word):
            return word
    if match.group("pirate"):
        return f"p{int(match.group('pirate'))}g{int(match.group('gets'))}"
    return f"g{_number_key(match.group('n') or match.group('alone'))[1:]}"


def _pirate_aliases(state: pyspiel.State, player: int, action: int) -> tuple[str, ...]:
    game = state.get_game()
    if action == game.accept:
        return ("yes",)
    if action == game.reject:
        return ("no",)
    if action <= game.golds:
        return (str(action), f"give {action}")
    return ()


def _pirate_summary(actions: list[int], labels: list[str]) -> str:
    if labels[0].startswith("pirate"):
        pirate = labels[0].rsplit(" gets ", 1)[0]
        return (f"{pirate} gets a whole number of golds from {min(actions)} to "
                f"{max(actions)}, e.g. 1")
    return ", ".join(labels)


def _pirate_values(params: Mapping[str, ParamValue]) -> dict[str, str]:
    return {"players": str(params["num_players"]), "golds": str(params["golds"])}


PIRATE = _spec(
    "pirate_game", "Pirate Game",
    "The most senior pirate proposes how to split 100 golds; if half reject, overboard.",
    "python_gama_pirate_game", _taxonomy(dynamics="sequential"),
    MoveGrammar(
        label=_pirate_label,
        pattern=_pattern(
            rf"{_L}(?:(?P<accept>accept(?:ed)?)|(?P<reject>reject(?:ed)?)"
            rf"|(?P<overboard>overboard)){_R}"
            rf"|{_L}pirate\s*(?P<pirate>\d+)\s*(?:gets|receives|:|=)\s*(?P<gets>\d+){_R}"
            rf"|{_L}(?:give|gold|golds){_QUOTE}(?P<n>{_NUMBER}){_R}|{_ALONE}"
        ),
        key=_pirate_key,
        aliases=_pirate_aliases,
        hint='when proposing, the golds for the pirate named, e.g. 1 (JSON: {"gold": 1}); '
             'when voting, accept or reject (JSON: {"decision": "accept"})',
        json_fields=("gold", "decision"),
        summary=_pirate_summary,
    ),
    PIRATE_PARAMS,
    "GAMA: 10 pirates, G = 100 golds; G may be 4-400 (Table 8). A plan passes with the votes "
    "of at least half of the pirates aboard, the proposer's included.",
    _pirate_values,
)


GAMES = (GUESS, EL_FAROL, DIVIDE, PUBLIC_GOODS, DINERS, AUCTION, BATTLE_ROYALE, PIRATE)

for _spec_entry in GAMES:
    register(_spec_entry)

__all__ = ["GAMES", "number_grammar", "word_grammar"]
