"""The page's side of language-model opponents: the key a person types, the reasoning mode
they pick, and seats built with both, streaming into a :class:`~sessions.web.llm_panel.Panel`.

- :class:`Keyring`: the API keys typed in one browser tab, held in that tab's server-side
  session memory only (a ``gr.State``; never the browser's storage, never a value sent back
  to the page). It cannot be pickled, copies of it are empty, and it prints no key; while it
  lives, its keys are blanked in everything any provider sends back. Each key
  is kept for one destination (provider, base URL, key variable), so a key typed for one
  server is never sent to another. Closing the tab forgets it (:func:`forget_keys`).
- :func:`pick`: what the picker says about an opponent: whether it is a language model, its
  default reasoning mode, whether a key is needed or held, and a line to show by the field.
- :class:`Seating`: builds a game's seats for :class:`~sessions.web.play.PlaySession` — classic
  agents as usual, language models with the tab's key and ``on_event`` feeding the game's
  panel. The offline model's server starts in the background (:func:`warm_up`) when it is
  picked; its seat waits for it on its first move, saying so in the panel.

Nothing here imports Gradio.
"""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agents.base import Agent, Decision, SeatView
from agents.llm import (
    Budget,
    ConfigError,
    LocalModelError,
    Opponent,
    load_opponents,
    local_servers,
    opponent_choices,
    redaction,
)
from agents.llm.config import check_model_name
from agents.llm.local import missing
from agents.llm.modes import REASONING, base
from agents.specs import AgentSpec, make_agent, parse_spec
from games.registry import GameSpec
from sessions.web import reach
from sessions.web.llm_panel import Panel

_log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from sessions.web.live import LiveGame

MAX_KEY = 500
PROVIDER_NAMES = {"openai": "OpenAI", "anthropic": "Anthropic",
                  "hf": "Hugging Face Inference Providers"}


# --- keys -------------------------------------------------------------------------------


class Keyring:
    """API keys typed in one browser tab, by destination. Never printed, copied or pickled."""

    def __init__(self) -> None:
        self._keys: dict[str, str] = {}
        redaction.hold(self)  # what providers send is blanked for these keys too

    def put(self, slot: str, key: str) -> None:
        self._keys[slot] = key

    def held_keys(self) -> list[str]:
        """The keys held now (for blanking them in what providers send back)."""
        return list(self._keys.values())

    def get(self, slot: str | None) -> str | None:
        return self._keys.get(slot) if slot else None

    def holds(self, slot: str | None) -> bool:
        return bool(slot) and slot in self._keys

    def forget(self) -> None:
        self._keys.clear()

    def __len__(self) -> int:
        return len(self._keys)

    def __repr__(self) -> str:
        return f"Keyring({len(self._keys)} key(s) held)"

    def __deepcopy__(self, memo: dict[int, Any]) -> Keyring:
        return Keyring()  # a copy (Gradio's per-tab initial value) starts empty

    def __copy__(self) -> Keyring:
        return Keyring()

    def __reduce__(self) -> Any:
        raise TypeError("a Keyring is never pickled: keys stay in memory")


_TABS: weakref.WeakValueDictionary[str, Keyring] = weakref.WeakValueDictionary()
_TABS_LOCK = threading.Lock()


def remember_tab(browser: str, keyring: Keyring) -> None:
    """Note which tab holds ``keyring``, so closing the tab forgets its keys."""
    if browser:
        with _TABS_LOCK:
            _TABS[browser] = keyring


def forget_keys(browser: str) -> None:
    """The tab closed: drop the keys it typed (its games' agents end with the games)."""
    with _TABS_LOCK:
        keyring = _TABS.pop(browser, None)
    if keyring is not None:
        keyring.forget()


def clean_key(typed: str) -> str:
    """A typed key without surrounding spaces; ValueError (which never quotes the key) when
    it cannot be a key."""
    key = typed.strip()
    if len(key) > MAX_KEY:
        raise ValueError(f"that key is {len(key)} characters long; API keys are shorter "
                         f"(at most {MAX_KEY}): paste just the key")
    if any(ch.isspace() or not ch.isprintable() for ch in key):
        raise ValueError("that key has spaces, line breaks or control characters in it: "
                         "paste just the key")
    return key


# --- the picker -------------------------------------------------------------------------


@dataclass(frozen=True)
class Pick:
    """What the page shows about a chosen opponent."""

    llm: bool
    reasoning: str = ""
    """The entry's default reasoning mode."""
    slot: str | None = None
    """Where a typed key would go; None when the opponent takes no key."""
    key_label: str = ""
    key_needed: bool = False
    """No key on the server and none typed: Start is refused until one is."""
    key_held: bool = False
    status: str = "ready"
    note: str = ""
    local: bool = False


def entry_for(spec: AgentSpec | str) -> Opponent:
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    return load_opponents().find(parsed.provider or "", parsed.model or "")


OPEN_PROVIDERS_ENV = "ARENA_OPEN_PROVIDERS"
"""The owner's setting: providers (comma-separated, e.g. ``compat``) whose every model may
be played from the page and the API, at the server the owner set for the provider
(``ARENA_COMPAT_BASE_URL``...): a person names the model, never the address."""
RATE_OPEN_ENV = "ARENA_RATE_OPEN_MODELS"
"""The owner's setting: ``1`` rates games against models the opponents file does not list;
otherwise they are stored tagged :data:`UNRATED` and left out of the ratings."""
UNRATED = "unrated"


def offered(spec: AgentSpec, env: Mapping[str, str] | None = None) -> bool:
    """Whether the page and the API may seat language model ``spec``: an opponents-file
    entry (True), or a valid model name of a provider the owner opened (False: not listed).
    Anything else is refused (ValueError) with what may be played instead."""
    env = os.environ if env is None else env
    provider, model = spec.provider or "", spec.model or ""
    try:
        check_model_name(model)
    except ValueError as err:
        raise ValueError(f"{err}: nothing was started") from None
    try:
        listed = any(e.provider == provider and e.model == model for e in load_opponents())
    except ConfigError:
        listed = False
    opened = {p.strip() for p in env.get(OPEN_PROVIDERS_ENV, "").split(",") if p.strip()}
    if listed or (provider in opened and provider != "local"):
        return listed
    raise ValueError(f"{provider}/{model} is not offered on this server: play one of the "
                     "language models its opponent list names (the API's /opponents lists "
                     "them); its owner adds models in the opponents file")


def key_slot(entry: Opponent) -> str | None:
    """The destination a key is held for (None: this opponent takes no key)."""
    if entry.provider == "local":
        return None
    return f"{entry.provider}|{entry.base_url or ''}|{entry.key_env or ''}"


def pick(opponent: str | None, keyring: Keyring) -> Pick:
    """What the picker says about ``opponent`` (an agent spec from the opponent list)."""
    if not opponent or "/" not in opponent:
        return Pick(llm=False)
    parsed = parse_spec(opponent)
    entry = entry_for(parsed)
    choice = next((c for c in opponent_choices() if c.provider == entry.provider
                   and c.id == entry.id), None)
    status = choice.status if choice else "ready"
    unreachable = reach.problem(entry) if status != "unavailable" else None
    if unreachable:
        status = "unavailable"
    reasoning = next((base(m) for m in parsed.modes if base(m)), None) or "prompt"
    slot = key_slot(entry)
    held = keyring.holds(slot)
    where = PROVIDER_NAMES.get(entry.provider) or entry.base_url or "the model's server"
    label = f"Your API key for {where}"
    title = entry.name
    if entry.provider == "local":
        if entry.hf_repo and status == "unavailable" and _first_use(entry):
            choice = next((c for c in opponent_choices() if c.provider == entry.provider
                           and c.id == entry.id), None)
            status = choice.status if choice else status
        return Pick(True, reasoning, None, "", False, False, status, _local_note(entry, choice),
                    local=True)
    if status == "unavailable":
        note = f"{title} is unavailable: {unreachable or (choice.note if choice else '')}"
    elif held:
        note = (f"Your key for {where} is held for this tab only: it is sent to {where} and "
                "never stored, logged or shown. *Forget it* drops it.")
    elif status == "needs_key":
        names = " or ".join(choice.key_names) if choice else "its key variable"
        note = (f"{title} needs an API key for {where}. Type yours here: it stays in this "
                f"tab's server memory, is sent only to {where}, and is never stored, logged "
                f"or shown. (Or the server's admin sets {names}.)")
    elif not any(os.environ.get(name) for name in entry.key_names()):
        where = reach.server_url(entry) or where
        note = (f"{title} runs on the server at {where}, which answers; it needs no key "
                "(type one if that server asks for it; never stored).")
    else:
        note = (f"The server has a key for {where}; you may type your own to use it instead "
                "(never stored).")
    return Pick(True, reasoning, slot, label, status == "needs_key" and not held, held,
                status, note)


def take(opponent: str | None, typed: str, keyring: Keyring) -> str:
    """Hold a typed key for ``opponent``'s destination; the problem that keeps the game from
    starting (no key, not installed, a pasted line that is not a key), or ""."""
    chosen = pick(opponent, keyring)
    if not chosen.llm:
        return ""
    if typed.strip() and chosen.slot:
        try:
            keyring.put(chosen.slot, clean_key(typed))
        except ValueError as err:
            return f"The key was not taken: {err}."
        chosen = pick(opponent, keyring)
    if chosen.status in ("unavailable", "preparing"):
        return chosen.note
    if chosen.key_needed:
        return (f"No game started: {entry_for(opponent or '').name} needs an API key. "
                "Type yours in the key field above, then press Start.")
    return ""


def with_reasoning(opponent: str | Sequence[str], reasoning: str | None
                   ) -> str | list[str]:
    """``opponent`` (one spec or one per seat) with the reasoning mode the person picked in
    place of the one written (classic agents unchanged)."""
    if not isinstance(opponent, str):
        return [str(with_reasoning(one, reasoning)) for one in opponent]
    if not reasoning or "/" not in opponent:
        return opponent
    if base(reasoning) is None:
        raise ValueError(f"reasoning mode {reasoning!r} is not one of {', '.join(REASONING)}")
    head, *modes = opponent.split("+")
    return "+".join([head, reasoning, *(m for m in modes if base(m) is None)])


# --- seats ------------------------------------------------------------------------------


_PANELS: weakref.WeakKeyDictionary[LiveGame, Panel] = weakref.WeakKeyDictionary()


def panel_of(session: LiveGame | None) -> Panel | None:
    """The thinking panel of a game with language-model seats (None for other games)."""
    return _PANELS.get(session) if session is not None else None


class Seating:
    """Builds one game's seats: ``PlaySession(..., build_agent=seating.build)``, then
    ``seating.attach(session)``."""

    def __init__(self, keyring: Keyring) -> None:
        self.keyring = keyring
        self.panel = Panel()
        self.llm_seats = 0
        self.unlisted = 0
        """Seats of models the opponents file does not list (an owner-opened provider)."""

    def build(self, spec: AgentSpec, game: GameSpec, params: dict[str, Any], *,
              seed: int) -> Agent:
        if spec.kind != "llm":
            return make_agent(spec, game, params, seed=seed)
        listed = offered(spec)  # refuses a model the server does not offer
        self.unlisted += not listed
        self.llm_seats += 1
        entry = entry_for(spec)
        if entry.provider == "local":
            return self._local(spec, entry, game, params, seed)
        return make_agent(spec, game, params, seed=seed, api_key=self.keyring.get(
            key_slot(entry)), on_event=self.panel.hear)

    def attach(self, session: LiveGame) -> None:
        if self.unlisted and os.environ.get(RATE_OPEN_ENV) != "1":
            record = session.record
            record.tags = [*record.tags, UNRATED]  # stored, never rated (sessions.ratings)
        if self.llm_seats:
            self.panel.follow(session)
            _PANELS[session] = self.panel

    def _local(self, spec: AgentSpec, entry: Opponent, game: GameSpec, params: dict[str, Any],
               seed: int) -> Agent:
        import openai

        problem = missing(entry)
        if problem is not None:
            raise ValueError(f"local/{entry.model} is not available: {problem}")
        client = openai.OpenAI(api_key="local", base_url="http://127.0.0.1:9/v1",
                               max_retries=0, timeout=Budget().request_timeout)
        agent = make_agent(spec, game, params, seed=seed, on_event=self.panel.hear,
                           client=client)
        return ServerFirst(agent, entry, client, self.panel)


# --- the offline model ------------------------------------------------------------------


def _first_use(entry: Opponent) -> bool:
    """Start fetching a Hub model the first time it is picked; whether it started."""
    from agents.llm.prepare import enabled, preparation

    if not enabled() or preparation().progress(entry) is not None:
        return False
    preparation().start([entry])
    return True


def prepare_offline_models() -> None:
    """Start getting the offline opponents ready in the background (the model file, then
    llama.cpp's server: :mod:`agents.llm.prepare`), unless ``ARENA_PREPARE_LOCAL=0``. The
    app calls it before it serves, so from the first page they are listed as being
    prepared, never as unavailable, while something is still missing."""
    from agents.llm.prepare import enabled, preparation

    if not enabled():
        return
    try:
        packaged = [e for e in load_opponents() if e.provider == "local" and not e.hf_repo]
    except ConfigError as err:
        _log.warning("no offline model is prepared: %s", err)
        return
    preparation().start(packaged)  # Hub models are fetched when first picked (pick())


_STARTING: dict[str, tuple[Future[str], float]] = {}
_STARTING_LOCK = threading.Lock()


def warm_up(entry: Opponent) -> Future[str]:
    """Start ``entry``'s llama.cpp server in the background (once); its base URL when up.

    The server is the process's (``agents.llm.local_servers``), stopped when the app exits.
    """
    with _STARTING_LOCK:
        known = _STARTING.get(entry.model)
        running = entry.model in local_servers().running()
        if known is not None and (not known[0].done() or (running and not known[0].exception())):
            return known[0]
        future: Future[str] = Future()
        _STARTING[entry.model] = (future, time.monotonic())

    def start() -> None:
        try:
            future.set_result(local_servers().ensure(entry))
        except Exception as err:  # noqa: BLE001 - reported through the future
            future.set_exception(err)

    threading.Thread(target=start, name=f"start-{entry.model}", daemon=True).start()
    return future


def local_state(entry: Opponent) -> tuple[str, float]:
    """(``starting`` | ``ready`` | ``failed: why`` | ``stopped``, seconds since it began)."""
    with _STARTING_LOCK:
        known = _STARTING.get(entry.model)
    if known is None:
        return "stopped", 0.0
    future, since = known
    if not future.done():
        return "starting", time.monotonic() - since
    error = future.exception()
    if error is not None:
        return f"failed: {error}", 0.0
    return ("ready" if entry.model in local_servers().running() else "stopped"), 0.0


def _local_note(entry: Opponent, choice: Any = None) -> str:
    if choice is not None and choice.status == "preparing":
        return (f"{entry.name} is being prepared on this machine ({choice.note}); it is "
                "listed as ready when it can play. Meanwhile pick another opponent.")
    if choice is not None and choice.status == "unavailable":
        return f"{entry.name} is unavailable: {choice.note}"
    problem = missing(entry)
    if problem is not None:
        return f"{entry.name} is unavailable: {problem}"
    state, seconds = local_state(entry)
    if state == "starting":
        return (f"Starting the offline model's server (llama.cpp)… {seconds:.0f} s. You may "
                "press Start: its first move waits for the server.")
    if state == "ready":
        return "The offline model's server is running on this machine (no key, no network)."
    if state.startswith("failed"):
        return f"The offline model's server did not start: {state[len('failed: '):]}"
    return "Runs on this machine (no key, no network); its server starts when you pick it."


class ServerFirst:
    """A local-model seat whose server may still be starting: its first move waits for it
    (the panel says so) and can be cancelled while it waits."""

    def __init__(self, agent: Any, entry: Opponent, client: Any, panel: Panel) -> None:
        self.agent = agent
        self.entry = entry
        self.client = client
        self.panel = panel
        self._cancelled = threading.Event()
        self._ready = False

    def act(self, view: SeatView, *, feedback: str | None = None) -> Decision:
        if not self._ready:
            future = warm_up(self.entry)
            if not future.done():
                self.panel.note(view.seat, "starting the offline model's server (llama.cpp)…")
            while not future.done():
                if self._cancelled.wait(0.05):
                    self.panel.note(view.seat, "")
                    return Decision(None, failure="cancelled",
                                    meta={"failure_detail": "the seat was stopped"})
            self.panel.note(view.seat, "")
            try:
                self.client.base_url = future.result()
            except LocalModelError as err:
                raise LocalModelError(f"the offline model could not start: {err}") from None
            self._ready = True
        return self.agent.act(view, feedback=feedback)

    def cancel(self) -> None:
        self._cancelled.set()
        self.agent.cancel()

    def settings(self) -> dict[str, Any]:
        return self.agent.settings()

    @property
    def deadline(self) -> float | None:
        return getattr(self.agent, "deadline", None)

    @property
    def silence_seconds(self) -> float | None:
        """None while the offline server starts (that wait has no limit of the provider's)."""
        return getattr(self.agent, "silence_seconds", None) if self._ready else None

    @property
    def usage(self) -> Any:
        return self.agent.usage
