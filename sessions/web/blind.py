"""Blind battles: a person plays a language model drawn at random, and learns its name only
when the game is over (as LMArena hides names, so they cannot bias people).

:func:`ready_models` are the models the server can play without a person's key: the
offline model when installed, and models whose key the server holds. :func:`draw` picks one,
weighted towards those with the fewest rated games (weight 1 / (1 + games)), so new models
catch up. :class:`BlindSession` is a :class:`~sessions.web.play.PlaySession` whose model seat
is called "Mystery model" everywhere — status, move list, the API's ``/state`` (``seats``),
the thinking panel and ``/thinking`` — until the game ends; its record carries the tag
``blind``, which the Leaderboard can filter on.

The panel of a blind game (:class:`BlindPanel`) also withholds, until the end, what would
name the model indirectly: token counts and costs (a price per token is a fingerprint), the
provider's own fault messages, the offline model's server notes, and the model's own
mentions of well-known model and company names in its words (``[name hidden]``), and any
token of its own name, id, title and provider ("zeta" of "Zeta Secret"), case-insensitively;
its way of thinking (the mode, the streams of a self-consistency or tree search, merged into
one pane) and its time limits (the countdown, which differs per model) wait for the end too.
A model that names itself (one of those words in its answer or reasoning) gets its session
tagged :data:`NAMED_ITSELF`, which the blind-battle ratings leave out (as LMArena drops votes
where a model revealed its identity). What the model writes otherwise — its style — cannot be
hidden; LMArena has the same limit.

A blind battle needs at least :data:`MIN_READY` ready models: with one, it is no mystery.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from agents.llm import Choice, ConfigError, load_opponents, opponent_choices
from agents.llm.events import LLMEvent
from games import registry
from sessions.store import Store
from sessions.web.llm_page import Keyring, Seating
from sessions.web.llm_panel import Panel
from sessions.web.play import PlaySession
from sessions.web.players import Opponent

MYSTERY = "mystery"
"""The opponent picker's value for a blind battle (also accepted by the API's /new_game)."""
MYSTERY_NAME = "Mystery model"
HIDDEN_NAME = "[name hidden]"
NAMED_ITSELF = "named-itself"
"""The tag of a blind battle whose model named itself before the end (left out of the
blind-battle ratings)."""
MIN_READY = 2
"""The fewest ready models a blind battle is drawn from."""
GENERIC_PROVIDERS = ("compat", "local")
"""Provider ids that name no model maker (not masked: "local" is an everyday word)."""
_COUNTDOWN = re.compile(r" \((?:at most \d+ s more|no answer yet: gives up in \d+ s)\)")
FAMILY_NAMES = ("OpenAI", "ChatGPT", "GPT", "Anthropic", "Claude", "Gemini", "Google",
                "DeepMind", "Llama", "Meta", "Mistral", "Mixtral", "Qwen", "Alibaba",
                "DeepSeek", "SmolLM", "Hugging Face", "HuggingFace", "Phi", "Microsoft",
                "Grok", "xAI", "Cohere", "Command R", "Gemma", "llama.cpp", "Ollama")
"""Names a model's words might give itself away with (masked until the game ends)."""


class BlindError(ValueError):
    """No blind battle can start (no model ready, a game for more than two)."""


def ready_models(env: Mapping[str, str] | None = None) -> list[Choice]:
    """The language models the server can play without a person's key: the offline model
    when installed, and models whose key is in the server's environment."""
    env = os.environ if env is None else env
    try:
        choices = opponent_choices(env=env)
    except ConfigError:
        return []
    return [c for c in choices if c.status == "ready"
            and (c.provider == "local" or any(env.get(name) for name in c.key_names))]


def draw(choices: Sequence[Choice], store: Store | None, rng: np.random.Generator) -> Choice:
    """One of ``choices``, weighted towards the fewest rated games (1 / (1 + games))."""
    if not choices:
        raise BlindError("no language model is ready for a blind battle on this server "
                         "(the offline model is not installed and no provider key is set)")
    if len(choices) < MIN_READY:
        raise BlindError(f"a blind battle needs at least {MIN_READY} language models ready on "
                         f"this server, and only {choices[0].title or choices[0].id} is: "
                         "play it by name instead")
    counts = store.rated_counts(c.entity for c in choices) if store is not None else {}
    weights = np.array([1.0 / (1 + counts.get(c.entity, 0)) for c in choices])
    return choices[int(rng.choice(len(choices), p=weights / weights.sum()))]


class BlindSession(PlaySession):
    """A person against a model whose name stays hidden until the game is over."""

    def __init__(self, game_id: str, opponent: str, **options: Any) -> None:
        spec = registry.get(game_id)
        if spec.load(spec.params(options.get("params"))).num_players() != 2:
            raise BlindError(f"blind battles are two-player games, and {spec.title} is not: "
                             "pick another game")
        super().__init__(game_id, opponent, **options)
        self.match.record.tags = [*self.match.record.tags, "blind"]
        self.mystery = 1 - self.human

    def seat_name(self, seat: int) -> str:
        if seat == self.mystery and not self.over:
            return MYSTERY_NAME
        return super().seat_name(seat)

    def seat_title(self, seat: int) -> str:
        """The page's full names (players panel, the game's bar) hide the model too."""
        if seat == self.mystery and not self.over:
            return MYSTERY_NAME
        return super().seat_title(seat)

    def status(self) -> str:
        """The status line without the countdown until the end ("at most 45 s more" differs
        per model: a fingerprint)."""
        shown = super().status()
        return shown if self.over else _COUNTDOWN.sub("", shown)

    def revealed(self) -> str | None:
        """The model's name once the game is over; None before."""
        return super().seat_name(self.mystery) if self.over else None

    def result(self) -> str:
        ended = super().result()
        name = self.revealed()
        return f"{ended} The mystery model was {name}." if ended and name else ended

    def snapshot(self) -> dict[str, Any]:
        data = super().snapshot()
        if not self.over:
            data["seats"] = ["mystery" if s == self.mystery else entity
                             for s, entity in enumerate(data["seats"])]
        data["blind"], data["mystery"] = True, self.revealed()
        return data


class BlindPanel(Panel):
    """The thinking panel of a blind game: what would name the model waits for the end."""

    def __init__(self, *, names: Sequence[str] = (), **options: Any) -> None:
        super().__init__(**options)
        own = name_tokens(names)
        words = sorted({n for n in (*own, *FAMILY_NAMES) if n}, key=len, reverse=True)
        self._names = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b",
                                 re.IGNORECASE)
        self._own = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in own) + r")\b",
                               re.IGNORECASE) if own else None
        self._record: Any = None

    def follow(self, session: Any) -> None:
        super().follow(session)
        self._record = session.record

    def hear(self, event: LLMEvent) -> None:
        super().hear(event)
        if event.kind in ("result", "decision") and not self._flagged():
            self._check_self_naming(event.seat)

    def note(self, seat: int, text: str) -> None:
        super().note(seat, "getting the mystery model ready…" if text else "")

    def view(self, session: Any, *, reveal: bool = False) -> dict[str, Any]:
        data = super().view(session, reveal=reveal)
        if session.over:
            return data
        for turn in [*data["turns"], *data["earlier"]]:
            turn["mode"], turn["seconds_left"] = None, None  # fingerprints until the end
            for attempt in turn["attempts"]:
                attempt["outcome"] = {k: v for k, v in attempt["outcome"].items()
                                      if k not in ("prompt_tokens", "completion_tokens",
                                                   "cost_usd", "estimated")}
                attempt["panes"] = [self._one_pane(attempt["panes"])] if attempt["panes"] \
                    else []
                attempt["votes"] = []
        data["moves"], data["session"] = [], {}
        return data

    def _one_pane(self, panes: list[dict[str, Any]]) -> dict[str, Any]:
        """A decision's streams as one pane (how many there are tells the mode), masked."""
        states = [p["state"] for p in panes]
        state = next((s for s in ("writing", "retrying", "failed") if s in states), "done")
        last = panes[-1]
        joined = {key: "\n\n".join(p[key] for p in panes if p[key])
                  for key in ("reasoning", "answer")}
        return {**last, "stream": "answer", "purpose": "", "state": state,
                "reasoning": self.mask(joined["reasoning"]),
                "answer": self.mask(joined["answer"]),
                "characters": sum(p["characters"] for p in panes),
                "faults": ["the model's server did not answer" for p in panes
                           for _ in p["faults"]],
                "tries": 1, "tokens": None, "seconds": None}

    def mask(self, text: str) -> str:
        """``text`` with model and company names, and any token of the model's own name,
        id, title and provider, replaced by ``[name hidden]``."""
        return self._names.sub(HIDDEN_NAME, text) if text else text

    def _flagged(self) -> bool:
        return self._record is None or NAMED_ITSELF in self._record.tags

    def _check_self_naming(self, seat: int) -> None:
        """Tag the session when the model's words so far name it (its own tokens only: a
        model that mentions another maker has not revealed itself)."""
        if self._own is None:
            return
        with self._lock:
            words = [text for thought in self._thoughts if thought.seat == seat
                     for pane in thought.panes.values()
                     for text in (pane.reasoning, pane.answer)]
        if any(self._own.search(text) for text in words if text):
            self._record.tags = [*self._record.tags, NAMED_ITSELF]


COMMON_WORDS = frozenset({"the", "or", "at", "and", "of", "on", "a", "an", "by", "for",
                          "with", "model", "instruct", "chat", "it", "base", "url", "server",
                          "arena", "compat", "offline", "local", "structured", "answers",
                          "latest", "preview", "hugging", "face"})
"""Words of a title that name no model ("Qwen2.5 7B (Ollama, or the server at ...)"):
masking "the" would hide half of any text and flag every game."""


def name_tokens(names: Sequence[str]) -> list[str]:
    """Each name whole (a title without its note in brackets) and each of its words ("Zeta
    Secret-7b" gives "Zeta Secret-7b", "Zeta", "Secret", "7b"); numbers alone, single
    characters and :data:`COMMON_WORDS` are left out (they would hide moves, counts and
    plain words)."""
    tokens: list[str] = []
    for name in names:
        name = re.sub(r"\s*\([^)]*\)", "", name or "").strip()
        if not name:
            continue
        tokens.append(name)
        tokens += [w for w in re.split(r"[^A-Za-z0-9]+", name)
                   if len(w) > 1 and not w.isdigit() and w.lower() not in COMMON_WORDS]
    return sorted(set(tokens), key=len, reverse=True)


MYSTERY_LABEL = "Mystery model · a language model, named after the game"


def with_mystery(game: registry.GameSpec, options: list[Opponent]) -> list[Opponent]:
    """The opponent list with "Mystery model" before the named models, for two-player games
    when a model is ready: playable with at least :data:`MIN_READY` of them, else listed
    as unavailable, saying why."""
    if game.load().num_players() != 2:
        return options
    count = len(ready_models())
    if not count:
        return options
    if count < MIN_READY:
        mystery = Opponent(MYSTERY, f"{MYSTERY_LABEL} (unavailable)", (
            f"a blind battle needs at least {MIN_READY} language models ready on this server, "
            "and only 1 is: with one it is no mystery"), status="unavailable")
    else:
        mystery = Opponent(MYSTERY, MYSTERY_LABEL, (
            f"a blind battle: one of the {count} language models ready on this server, drawn "
            "at random (the least played most often); its name is shown when the game ends, "
            "and the game counts for the blind-battle ratings"))
    at = next((i for i, o in enumerate(options) if o.llm), len(options))
    return [*options[:at], mystery, *options[at:]]


def start_blind(game_id: str, *, keyring: Keyring, store: Store | None,
                rng: np.random.Generator, env: Mapping[str, str] | None = None,
                **options: Any) -> BlindSession:
    """A blind battle: a ready model drawn by :func:`draw`, its seat built with the tab's
    keyring (the server's keys), streaming into a :class:`BlindPanel`. ``options`` are
    :class:`~sessions.web.play.PlaySession`'s (person, seat, seed...)."""
    choice = draw(ready_models(env), store, rng)
    seating = Seating(keyring)
    seating.panel = BlindPanel(names=mystery_names(choice))
    session = BlindSession(game_id, choice.spec, store=store, build_agent=seating.build,
                           **options)
    seating.attach(session)
    return session


def mystery_names(choice: Choice) -> list[str]:
    """The words that name ``choice`` (title, model, id, provider), for
    :class:`BlindPanel`."""
    try:
        entry = load_opponents().get(choice.id)
    except (ConfigError, KeyError):
        entry = None
    provider = [] if choice.provider in GENERIC_PROVIDERS else [choice.provider]
    return [choice.title, choice.id, *([entry.model] if entry is not None else []), *provider]
