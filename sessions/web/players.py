"""Who plays: the opponents the page offers, and the person in the human seat.

:func:`opponents_for` is the single place the list of opponents for a game is built: the
classic agents that fit the game, then the named language models of the opponents file
(``agents.llm.opponent_choices``) with whether each can be played now. :class:`Person` is
the browser's anonymous player: an id that says nothing about them, an optional display
name, and their consent.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agents.naming import DEFAULT_SECONDS
from agents.specs import agents_for
from games import registry
from games.registry import GameSpec
from sessions.record import SeatRecord

SEAT_CHOICES = ("first", "second", "random")
MAX_NAME = 40
STATUS_WORDS = {"ready": "", "preparing": "being prepared", "needs_key": "needs a key",
                "unavailable": "unavailable"}
REASONING_NAMES = {"prompt": "move only", "cot": "chain of thought",
                   "sc-cot": "self-consistency", "tot": "tree of thoughts"}
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Opponent:
    """An opponent the page offers: its agent spec, a short label and one line about it."""

    spec: str
    label: str
    note: str = ""
    status: str = "ready"
    """``ready``; for language models also ``needs_key`` (the person may type one) or
    ``unavailable`` (``note`` says why: the local model is not installed...)."""

    @property
    def llm(self) -> bool:
        return "/" in self.spec


_CLASSIC = {
    "random": ("Random", "plays a uniformly random legal move"),
    "mcts": ("MCTS", "Monte Carlo tree search, 1000 simulations, at most 2 s a move "
                     "(GTBench's setting)"),
    "ismcts": ("IS-MCTS", "information-set MCTS: searches only the deals your view allows, "
                          "never your real cards"),
    "tit-for-tat": ("Tit-for-tat", "cooperates first, then repeats your last choice"),
    "equilibrium": ("Equilibrium", "plays the game's equilibrium, GAMA-Bench's reference "
                                   "(all pick 0, bid G/N, give nothing, Stewart's plan...)"),
    "adaptive": ("Adaptive", "reacts to the last round it saw (best response to the last "
                             "average, the majority dish, retaliation...)"),
    "bot": ("Strategy bot", "a strategy written for this game"),
    "strategic": ("Strategic", "best-responds to what it has seen of the others (level-k "
                               "thinking, attendance and contribution trends, exploits "
                               "seats that never change)"),
    "minilm": ("MiniLM words", "gives clues and guesses by word similarity (the "
                               "all-MiniLM-L6-v2 model, run offline)"),
}


def opponents_for(game: GameSpec) -> list[Opponent]:
    """Every opponent the page offers for ``game``: its difficulty ladder's levels, strongest
    first ("Strong · MCTS (1000 simulations)"), then the other classic agents that fit it,
    then the named language models.

    This is the single place the list is built; language-model opponents join it here.
    """
    from agents.ladder import ladder
    from agents.specs import parse_spec

    order = ["bot", "mcts", "ismcts", "minilm", "strategic", "equilibrium", "adaptive",
             "tit-for-tat",
             "random"]
    fits = sorted(agents_for(game), key=order.index)
    rungs = ladder(game.id)
    levels = [level for level in reversed(rungs.levels) if _fits(level.spec, game)] \
        if rungs else []
    taken = {parse_spec(level.spec).entity for level in levels}
    offered = [Opponent(level.spec, f"{level.name} · {agent_name(level.spec)}",
                        _level_note(game, level.spec, level.note)) for level in levels]
    offered += [Opponent(spec, *_classic(spec, game)) for spec in fits
                if parse_spec(spec).entity not in taken]
    return offered + llm_opponents()


def level_name(game_id: str, spec: str) -> str | None:
    """The difficulty level (``Strong``) that ``spec`` is on ``game_id``'s ladder, or None
    for an agent that is not one of its levels."""
    from agents.ladder import ladder
    from agents.specs import SpecError, parse_spec

    rungs = ladder(game_id)
    try:
        text = parse_spec(spec).text
        return next((level.name for level in rungs.levels
                     if parse_spec(level.spec).text == text), None) if rungs else None
    except SpecError:
        return None


def _fits(spec: str, game: GameSpec) -> bool:
    from agents.specs import SpecError, check_fits, parse_spec

    try:
        check_fits(parse_spec(spec), game)
    except SpecError:
        return False
    return True


def _classic(spec: str, game: GameSpec) -> tuple[str, str]:
    label, note = _CLASSIC[spec.split(":", 1)[0]]
    if spec.split(":", 1)[0] == "bot":
        from agents.bots import NOTES

        note = NOTES.get(game.id, note)
    return label, note


def _level_note(game: GameSpec, spec: str, note: str) -> str:
    """A level's line: what it is, then its settings in people's words."""
    what = _classic(spec, game)[1] if spec.split(":", 1)[0] in _CLASSIC else ""
    return "; ".join(part for part in (note, what) if part)


def llm_opponents() -> list[Opponent]:
    """The named language models (they play every game), playable ones first.

    A broken opponents file leaves the classic agents: the problem is logged with the file,
    entry and field, and no model is offered until it is fixed."""
    from agents.llm import ConfigError, opponent_choices

    try:
        choices = opponent_choices()
    except ConfigError as err:
        _log.warning("no language-model opponents: %s", err)
        return []
    choices = reachable(choices)
    rank = list(STATUS_WORDS)
    offered = []
    for choice in sorted(choices, key=lambda c: rank.index(c.status)):
        status = STATUS_WORDS[choice.status]
        label = f"{choice.title} · language model" + (f" ({status})" if status else "")
        offered.append(Opponent(choice.spec, label, _llm_note(choice), choice.status))
    return offered


def reachable(choices: list[Any]) -> list[Any]:
    """``choices`` with those whose server does not answer now marked unavailable, saying
    why (a cheap, cached check: :mod:`sessions.web.reach`)."""
    from agents.llm import load_opponents
    from sessions.web import reach

    opponents = load_opponents()
    checked = [c for c in choices if c.provider != "local" and c.status != "unavailable"]
    entries = {(c.provider, c.id): opponents.get(c.id) for c in checked}
    found = reach.problems(entries.values())
    out = []
    for choice in choices:
        entry = entries.get((choice.provider, choice.id))
        why = found.get((entry.provider, entry.model)) if entry is not None else None
        out.append(dataclasses.replace(choice, status="unavailable", note=why)
                   if why else choice)
    return out


def _llm_note(choice: Any) -> str:
    where = {"openai": "OpenAI", "anthropic": "Anthropic",
             "hf": "Hugging Face Inference Providers", "compat": "an OpenAI-compatible "
             "server", "local": "llama.cpp on this machine, offline"}[choice.provider]
    parts = [f"language model `{choice.entity}` via {where}"]
    if choice.vision:
        parts.append("sees the board image")
    if choice.price_input is not None and choice.price_output is not None:
        parts.append(f"${choice.price_input:g} / ${choice.price_output:g} per million "
                     "prompt / completion tokens")
    if choice.note:
        parts.append(("needs a key: " if choice.status == "needs_key" else
                      "being prepared: " if choice.status == "preparing" else
                      "unavailable: " if choice.status == "unavailable" else "") + choice.note)
    return "; ".join(parts)


def opponent_label(spec: str) -> str:
    """The page's short name for an agent spec (``MCTS``, whatever its settings: the players
    panel says them, see :func:`agent_name`); a named language model is its title and
    reasoning mode, e.g. ``GPT-4o mini (CoT)``; anything else comes back as written."""
    name = spec.split(":", 1)[0]
    if name in _CLASSIC:
        return _CLASSIC[name][0]  # its settings: agent_name
    return _llm_label(spec) if "/" in spec else spec


@functools.lru_cache(maxsize=1024)
def agent_name(spec: str) -> str:
    """An agent in people's words, with its settings: ``MCTS (1000 simulations)``,
    ``IS-MCTS (200 simulations, no time cap)``, ``GPT-4o mini (CoT)``, ``People`` for the
    pooled ``human`` entity. Accepts a spec or an entity; what it cannot read comes back as
    written (raw ids belong to the API, exports and hover texts)."""
    from agents.specs import SpecError, parse_spec

    if spec == "human":
        return "People"
    try:
        parsed = parse_spec(spec)
    except (SpecError, ValueError):
        return spec
    if parsed.kind in ("mcts", "ismcts"):
        name = _CLASSIC[parsed.kind][0]
        cap = parsed.seconds or 0.0
        limit = ("" if cap == DEFAULT_SECONDS else ", no time cap" if cap == 0
                 else f", {cap:g} s cap")
        return f"{name} ({parsed.simulations} simulations{limit})"
    if parsed.kind == "llm":
        return _llm_label(spec)
    if parsed.kind in ("bot", "strategic") and parsed.slips:
        return f"{_CLASSIC[parsed.kind][0]} ({parsed.slips}% random moves)"
    return _CLASSIC[parsed.kind][0] if parsed.kind in _CLASSIC else spec


@functools.lru_cache(maxsize=256)
def _llm_label(spec: str) -> str:
    from agents.llm import ConfigError, load_opponents
    from agents.specs import SpecError, parse_spec

    try:
        parsed = parse_spec(spec)
        entry = load_opponents().find(parsed.provider or "", parsed.model or "")
    except (ConfigError, SpecError):
        return spec
    reasoning = next((m for m in parsed.modes if m in REASONING_NAMES), "prompt")
    short = {"prompt": "", "cot": "CoT", "sc-cot": "SC-CoT", "tot": "ToT"}[reasoning]
    return f"{entry.name} ({short})" if short else entry.name


_PLAYER_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")


@dataclass(frozen=True)
class Person:
    """The person in the human seat: an anonymous id, an optional name, their consent."""

    player_id: str
    display_name: str = ""
    consent: bool = False
    talk: bool = False
    """Whether their consent also covers the words they say at the table (published in
    the dataset only then: ``sessions.dataset_tables.talk_shared``)."""

    def __post_init__(self) -> None:
        if not _PLAYER_ID.fullmatch(self.player_id):
            raise ValueError(
                f"player id {self.player_id[:80]!r} is not valid: use 8-64 letters, digits, "
                "'-' or '_' (the page makes one with new_player_id())"
            )
        name = " ".join("".join(ch for ch in self.display_name if ch.isprintable()).split())
        if len(name) > MAX_NAME:
            raise ValueError(f"display name has {len(name)} characters; at most {MAX_NAME}")
        object.__setattr__(self, "display_name", name)

    def seat(self) -> SeatRecord:
        return SeatRecord(kind="human", spec="human", entity="human",
                          settings={"consent": self.consent,
                                    "talk": self.consent and self.talk}, player_id=self.player_id,
                          display_name=self.display_name or None)


def new_player_id() -> str:
    """A fresh anonymous player id (random; says nothing about the person)."""
    return uuid.uuid4().hex


# --- the page's menus and the browser's profile ---------------------------------------------

GROUPS = ("Board games", "Cards, dice and bids", "Chance and repeated games",
          "Word and social games", "GAMA-Bench")


def game_group(game: GameSpec) -> str:
    """Which menu group a game is listed under."""
    if game.benchmark == "GAMA-Bench":
        return GROUPS[4]
    if game.grammar.free_text is not None:
        return GROUPS[3]
    pure = (game.taxonomy.information, game.taxonomy.chance) == ("complete", "deterministic")
    if game.board == "grid" or (pure and game.taxonomy.dynamics == "sequential"):
        return GROUPS[0]  # nim's sticks too: no luck and nothing hidden
    if game.taxonomy.information == "incomplete":
        return GROUPS[1]
    return GROUPS[2]


def game_menu() -> list[tuple[str, str]]:
    """(label, game id) for every registered game, grouped by kind."""
    games = sorted(registry.all_games(), key=lambda g: GROUPS.index(game_group(g)))
    return [(f"{game_group(g)} › {g.title}", g.id) for g in games]


def profile_person(profile: Mapping[str, Any] | None) -> Person:
    """The person a profile describes ({player_id, consent, name}): an empty id gets a fresh
    one (the caller returns it), an unanswered consent counts as no; an id or a name that
    breaks the rules is refused with the rule (ValueError), never swapped or cut."""
    profile = dict(profile or {})
    player_id = str(profile.get("player_id") or "")
    name = str(profile.get("name") or "")
    if len(name) > 4 * MAX_NAME:  # refused before it is read character by character
        raise ValueError(f"display name has {len(name):,} characters; at most {MAX_NAME}")
    return Person(player_id or new_player_id(), name, profile.get("consent") is True,
                  profile.get("talk") is True)


def browser_profile(profile: Mapping[str, Any] | None) -> dict[str, Any]:
    """The page's own stored profile, repaired: an id or name this browser holds that breaks
    the rules (an old or edited profile) is replaced by a fresh id and no name, and the page
    stores the repaired profile back, so the id used is the one it keeps."""
    profile = dict(profile or {})
    try:
        person = profile_person(profile)
    except ValueError:
        person = Person(new_player_id())
    consent = profile.get("consent")
    return {"player_id": person.player_id, "consent": consent if consent in (True, False)
            else None, "name": person.display_name, "talk": person.talk}
