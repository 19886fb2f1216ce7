"""Arctic Scavengers' moves: action ids, their labels, and the grammar that reads them back.

Every decision is small. On your turn to gather you start an action (``dig``, ``draw``,
``hunt``, ``trash``), hire a mercenary (``hire Scout``) or end gathering; an action is built
card by card (``add Shovel``, ``add Brawler``) and then confirmed with a label that names the
cards (``dig with Brawler + Shovel``) or cancelled; a hire is paid medicine card by medicine
card (``pay with Medkit``); a dig ends with ``keep Medkit`` or ``keep nothing``; in a
skirmish a Sniper Team or Saboteur acts with ``snipe Brawler`` / ``sabotage Spear`` (``of
player 3`` at a bigger table) or ``pass``.

Action ids: ``END, DIG, DRAW, HUNT, TRASH``; ``HIRE + pile``; ``ADD + card``; ``CONFIRM``;
``CANCEL``; ``PAY + card``; ``KEEP + card``; ``KEEP_NOTHING``; ``PASS``; ``SNIPE`` and
``SABOTAGE`` ``+ target seat * NUM_CARDS + card``. Chance outcomes reuse 0.. as a card
drawn (or, once, the seat that starts as initiator).
"""

from __future__ import annotations

import re
from typing import Any

from games.gamebench.arctic_cards import INDEX, MAX_PLAYERS, MERCENARIES, NAMES, NUM_CARDS, names
from games.grammar import WORD_END, WORD_START, MoveGrammar

END, DIG, DRAW, HUNT, TRASH = range(5)
KINDS = {DIG: "dig", DRAW: "draw", HUNT: "hunt", TRASH: "trash"}
HIRE = 5
ADD = HIRE + len(MERCENARIES)
CONFIRM = ADD + NUM_CARDS
CANCEL = CONFIRM + 1
PAY = CANCEL + 1
KEEP = PAY + NUM_CARDS
KEEP_NOTHING = KEEP + NUM_CARDS
PASS = KEEP_NOTHING + 1
SNIPE = PASS + 1
SABOTAGE = SNIPE + MAX_PLAYERS * NUM_CARDS
NUM_ACTIONS = SABOTAGE + MAX_PLAYERS * NUM_CARDS


def strike(action: int) -> tuple[str, int, int]:
    """A skirmish action as (``snipe``/``sabotage``, target seat, card)."""
    base, verb = (SNIPE, "snipe") if action < SABOTAGE else (SABOTAGE, "sabotage")
    target, card = divmod(action - base, NUM_CARDS)
    return verb, target, card


def seat_name(seat: int) -> str:
    return f"player {seat + 1}"


def label(state: Any, player: int, action: int) -> str:
    """The canonical label of a legal action of ``player`` in ``state``."""
    if action == END:
        return "end gathering"
    if action in KINDS:
        return KINDS[action]
    if HIRE <= action < ADD:
        return f"hire {NAMES[MERCENARIES[action - HIRE]]}"
    if ADD <= action < CONFIRM:
        return f"add {NAMES[action - ADD]}"
    if action == CONFIRM:
        kind, chosen = state.pick_kind, state.picked
        return f"trash {names(chosen)}" if kind == "trash" else f"{kind} with {names(chosen)}"
    if action == CANCEL:
        return "cancel"
    if PAY <= action < KEEP:
        return f"pay with {NAMES[action - PAY]}"
    if KEEP <= action < KEEP_NOTHING:
        return f"keep {NAMES[action - KEEP]}"
    if action == KEEP_NOTHING:
        return "keep nothing"
    if action == PASS:
        return "pass"
    verb, target, card = strike(action)
    whose = f" of {seat_name(target)}" if state.num_players() > 2 else ""
    return f"{verb} {NAMES[card]}{whose}"


# --- reading moves back -----------------------------------------------------------------------

_CARD = "(?:" + "|".join(re.escape(n).replace(r"\ ", r"\s+")
                         for n in sorted(NAMES, key=len, reverse=True)) + ")"
_CARDS = rf"{_CARD}(?:\s*(?:\+|,|&|and)\s*{_CARD})*"
_PATTERN = re.compile(
    rf"{WORD_START}(?:"
    rf"(?P<kind>dig|draw|hunt)\s+with\s+(?P<cards>{_CARDS})"
    rf"|trash\s+(?P<trashed>{_CARDS})"
    rf"|hire\s+(?:an?\s+|the\s+)?(?P<hire>{_CARD})"
    rf"|add\s+(?:an?\s+|the\s+)?(?P<add>{_CARD})"
    rf"|pay\s+with\s+(?:an?\s+|the\s+)?(?P<pay>{_CARD})"
    rf"|keep\s+(?:an?\s+|the\s+)?(?P<keep>nothing|{_CARD})"
    rf"|(?P<strike>snipe|sabotage)\s+(?:an?\s+|the\s+)?(?P<target>{_CARD})"
    rf"(?:\s+of\s+player\s+(?P<seat>[1-9]))?"
    rf"|(?P<word>end\s+gathering|cancel|pass|dig|draw|hunt|trash)"
    rf"){WORD_END}",
    re.IGNORECASE,
)


def _card(text: str) -> int:
    return INDEX[next(name for name in NAMES if name.lower() == " ".join(text.lower().split()))]


def _cards(text: str) -> str:
    found = re.findall(_CARD, text, re.IGNORECASE)
    return ",".join(str(c) for c in sorted(_card(name) for name in found))


def _key(match: re.Match[str]) -> str:
    if match["kind"]:
        return f"{match['kind'].lower()}:{_cards(match['cards'])}"
    if match["trashed"]:
        return f"trash:{_cards(match['trashed'])}"
    for group in ("hire", "add", "pay"):
        if match[group]:
            return f"{group}:{_card(match[group])}"
    if match["keep"]:
        kept = match["keep"]
        return "keep:-" if kept.lower() == "nothing" else f"keep:{_card(kept)}"
    if match["strike"]:
        seat = match["seat"] or ""
        return f"{match['strike'].lower()}:{_card(match['target'])}:{seat}"
    return " ".join(match["word"].lower().split())


HINT = (
    "one move, as listed: end gathering | dig | draw | hunt | trash | hire <mercenary> "
    "(e.g. hire Scout) | add <card from your hand> | dig with <cards joined by +> (also "
    "draw with, hunt with, trash <cards>), e.g. dig with Brawler + Shovel | cancel | "
    "pay with Medkit | keep <dug card> | keep nothing | snipe <person> | sabotage <tool> | pass"
)


def grammar() -> MoveGrammar:
    return MoveGrammar(label=label, pattern=_PATTERN, key=_key, hint=HINT)
