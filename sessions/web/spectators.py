"""Who follows which live game, and how its changes reach them: one broadcast per game.

A spectator's page holds no server slot while it follows a game. It asks for the next
screen (:meth:`Spectators.wait`, a plain request outside Gradio's queue); the answer comes
when the game changes, and the page asks again. Nothing runs per spectator in between.

**The broadcast.** While a game has spectators, one task per game (not per spectator)
looks every :data:`POLL` seconds at what a spectator would see change
(:meth:`Source.key`, cheap); on a change the game's version goes up and every waiting
page is answered. Each version's screen is drawn once per view (:meth:`Source.draw`, in a
worker thread) and encoded once: every spectator of that view gets the same bytes. When
the last spectator of a game is gone, its task ends, so abandoned pages leave the server
idle.

**Who counts.** A spectator (a :class:`Ticket`, one per page and game followed) counts
while a request of theirs is waiting or ended less than :data:`GRACE` seconds ago (before
its first request: for :data:`FIRST` seconds), until the page has been sent the game's end. A page that goes away closes its waiting request;
that ends the wait at once, and the spectator no longer counts :data:`GRACE` seconds later. At most ``per_game`` spectators follow one
game, ``per_client`` one client address and ``total`` this server; beyond that
:meth:`Spectators.join` refuses with a sentence for the page (:class:`Refused`). The
person who started a watched game is never refused their own game.

Everything here runs on the server's event loop except drawing; :meth:`Spectators.leave`
may be called from any thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import anyio

POLL = 0.2
"""How often a followed game is looked at for a change (seconds)."""
WAIT = 20.0
"""The longest a page's request waits for a change before it is answered 'nothing new'."""
GRACE = 5.0
"""How long a spectator still counts after their last request ended (seconds)."""
FIRST = 15.0
"""How long a page that has not asked yet counts (its script starts at once; a busy browser
may take a few seconds to show the page)."""
PER_GAME = 100
PER_CLIENT = 10
TOTAL = 1000
LIMITS_ENV = {"per_game": "ARENA_SPECTATORS_PER_GAME", "per_client": "ARENA_SPECTATORS_PER_CLIENT",
              "total": "ARENA_SPECTATORS"}
"""The environment variables that change the limits (whole numbers of spectators)."""

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Frame:
    """One screen of a followed game, as the page shows it."""

    html: str
    done: bool = False
    """Nothing will change any more (the game is over): the page stops asking."""
    moves: int = 0
    """How many moves the screen shows (for benchmarks and tests)."""


class Source(Protocol):
    """What spectators follow: a live game, or the showcase's current game."""

    def key(self) -> Hashable:
        """Changes whenever a spectator would see something change (cheap: called on the
        event loop every :data:`POLL` seconds)."""
        ...

    def draw(self, view: str | None) -> Frame:
        """The screen for ``view`` now (called in a worker thread, once per version)."""
        ...


@dataclass(frozen=True)
class Answer:
    """What a following page is sent: ``body`` (JSON: version, html, done; or 'nothing new';
    or stopped) for ``version``; ``final``: the page asks no more."""

    version: int
    body: bytes
    final: bool = False


class Refused(Exception):
    """A page that may not follow the game now; the message says why, for the page."""


@dataclass
class Ticket:
    """One page following one game."""

    id: str
    followed: str
    client: str
    view: Callable[[], str | None]
    """The view the page wants now (the person may switch views while following)."""
    host: bool = False
    waits: int = 0
    seen_at: float = field(default_factory=time.monotonic)
    asked: bool = False
    left: bool = False

    def alive(self, now: float, grace: float) -> bool:
        if self.left:
            return False
        return self.waits > 0 or now - self.seen_at < (grace if self.asked else FIRST)


@dataclass(frozen=True)
class Limits:
    per_game: int = PER_GAME
    per_client: int = PER_CLIENT
    total: int = TOTAL

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Limits:
        """The limits, from :data:`LIMITS_ENV` where set (whole numbers of at least 1)."""
        env = os.environ if env is None else env
        values = {}
        for name, variable in LIMITS_ENV.items():
            text = env.get(variable, "").strip()
            if text:
                try:
                    values[name] = max(1, int(text))
                except ValueError:
                    raise ValueError(f"{variable} must be a whole number of spectators, "
                                     f"not {text!r}") from None
        return cls(**values)


class _Broadcast:
    """One followed game: its version, its spectators, its screens of this version."""

    def __init__(self, followed: str, source: Source, owner: Spectators) -> None:
        self.followed = followed
        self.source = source
        self.owner = owner
        self.key = source.key()
        self.version = 1
        self.tickets: dict[str, Ticket] = {}
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._next: asyncio.Future[None] = loop.create_future()
        self._frames: dict[str | None, asyncio.Future[tuple[Frame, Answer]]] = {}
        self.task = loop.create_task(self._watch(), name=f"spectators-{followed[:8]}")

    def changed(self) -> asyncio.Future[None]:
        """Done when the next version comes."""
        return self._next

    def bump(self) -> None:
        self.version += 1
        self._frames = {}
        done, self._next = self._next, self._loop.create_future()
        done.set_result(None)

    async def frame(self, view: str | None) -> tuple[Frame, Answer]:
        """This version's screen for ``view`` and its answer, drawn and encoded once."""
        drawing = self._frames.get(view)
        if drawing is None:
            drawing = self._frames[view] = asyncio.ensure_future(
                self._draw(view, self.version))
        try:
            return await asyncio.shield(drawing)
        except Exception:
            if self._frames.get(view) is drawing:  # the next request draws again
                del self._frames[view]
            raise

    async def _draw(self, view: str | None, version: int) -> tuple[Frame, Answer]:
        frame = await anyio.to_thread.run_sync(self.source.draw, view)
        body = json.dumps({"version": version, "html": frame.html, "done": frame.done,
                           "moves": frame.moves}).encode()
        self.owner.drawn += 1
        return frame, Answer(version, body, frame.done)

    async def _watch(self) -> None:
        try:
            while True:
                await asyncio.sleep(self.owner.poll)
                now = time.monotonic()
                for ticket in list(self.tickets.values()):
                    if not ticket.alive(now, self.owner.grace):
                        self.owner.drop(ticket)
                if not self.tickets:
                    return
                try:
                    key = self.source.key()
                except Exception:  # noqa: BLE001 - one game's fault must not stop its page
                    log.exception("spectators of %s: reading the game failed", self.followed)
                    continue
                if key != self.key:
                    self.key = key
                    self.bump()
        finally:
            self.owner.forget(self)


class Spectators:
    """Every followed game's broadcast and every spectator, bounded (see the module)."""

    def __init__(self, limits: Limits | None = None, *, poll: float = POLL, wait: float = WAIT,
                 grace: float = GRACE) -> None:
        self.limits = limits or Limits()
        self.poll, self.wait_seconds, self.grace = poll, wait, grace
        self._tickets: dict[str, Ticket] = {}
        self._broadcasts: dict[str, _Broadcast] = {}
        self.drawn = 0
        """Screens drawn so far (each version and view once)."""

    # --- joining and leaving ------------------------------------------------------------

    def join(self, followed: str, client: str, view: Callable[[], str | None],
             source: Callable[[], Source], *, host: bool = False) -> Ticket:
        """Admit a page to follow ``followed`` (``source`` makes its broadcast if it has
        none yet), or raise :class:`Refused`. Call on the event loop."""
        now = time.monotonic()
        alive = [t for t in self._tickets.values() if t.alive(now, self.grace)]
        if not host:
            self._check(followed, client, alive)
        broadcast = self._broadcasts.get(followed)
        if broadcast is None:
            broadcast = self._broadcasts[followed] = _Broadcast(followed, source(), self)
        ticket = Ticket(secrets.token_hex(16), followed, client, view, host)
        self._tickets[ticket.id] = broadcast.tickets[ticket.id] = ticket
        return ticket

    def _check(self, followed: str, client: str, alive: list[Ticket]) -> None:
        limits = self.limits
        if len(alive) >= limits.total:
            raise Refused(f"This server already has {_spectators(len(alive))}; try again "
                          "later.")
        here = sum(t.followed == followed for t in alive)
        if here >= limits.per_game:
            raise Refused(f"This game already has {_spectators(here)}; try again later.")
        mine = sum(t.client == client for t in alive)
        if mine >= limits.per_client:
            raise Refused(f"{mine} pages from your address are already following games here "
                          f"(at most {limits.per_client}); close one of them and try again.")

    def leave(self, ticket_id: str) -> None:
        """The page follows something else, or is gone (any thread)."""
        ticket = self._tickets.get(ticket_id)
        if ticket is not None:
            ticket.left = True

    def drop(self, ticket: Ticket) -> None:
        self._tickets.pop(ticket.id, None)
        broadcast = self._broadcasts.get(ticket.followed)
        if broadcast is not None:
            broadcast.tickets.pop(ticket.id, None)

    def forget(self, broadcast: _Broadcast) -> None:
        if self._broadcasts.get(broadcast.followed) is broadcast:
            del self._broadcasts[broadcast.followed]
        for ticket in list(broadcast.tickets.values()):
            self.drop(ticket)

    # --- following --------------------------------------------------------------------

    async def first(self, ticket: Ticket) -> tuple[int, Frame]:
        """The version and screen a page shows when it starts following."""
        broadcast = self._broadcasts[ticket.followed]
        version = broadcast.version
        frame, _ = await broadcast.frame(ticket.view())
        ticket.left = ticket.left or frame.done  # nothing to follow: the page asks no more
        return version, frame

    async def wait(self, ticket_id: str, seen: int,
                   gone: Callable[[], Awaitable[object]] | None = None) -> Answer | None:
        """The answer to a page that has shown version ``seen``: the newer screen, 'nothing
        new' after :data:`WAIT` seconds, 'stopped' for a page that no longer counts (it was
        away too long, or follows something else), or None when the page went away while
        waiting (``gone`` finished first). Cancelling the wait (a stream whose page went
        away) is the same as ``gone``."""
        ticket = self._tickets.get(ticket_id)
        broadcast = self._broadcasts.get(ticket.followed) if ticket else None
        if ticket is None or ticket.left or broadcast is None:
            return Answer(seen, _answer(version=seen, stopped=True), final=True)
        ticket.waits += 1
        ticket.asked = True
        watching = asyncio.ensure_future(gone()) if gone is not None else None
        try:
            if seen >= broadcast.version:
                changed = broadcast.changed()
                waits: set[asyncio.Future[object]] = {changed}  # type: ignore[arg-type]
                if watching is not None:
                    waits.add(watching)
                await asyncio.wait(waits, timeout=self.wait_seconds,
                                   return_when=asyncio.FIRST_COMPLETED)
                if watching is not None and watching.done():
                    return None
                if not changed.done() or ticket.left:
                    return Answer(seen, _answer(version=seen))
            frame, answer = await broadcast.frame(ticket.view())
            ticket.left = ticket.left or frame.done  # the game is over: the page asks no more
            return answer
        finally:
            if watching is not None:
                watching.cancel()
                with contextlib.suppress(BaseException):
                    await watching
            ticket.waits -= 1
            ticket.seen_at = time.monotonic()

    async def stream(self, ticket_id: str, seen: int) -> AsyncIterator[bytes]:
        """Every answer after version ``seen`` as server-sent events, until the last (one
        request for the whole game; the page going away cancels it)."""
        while True:
            answer = await self.wait(ticket_id, seen)
            if answer is None:
                return
            yield b"data: " + answer.body + b"\n\n"
            if answer.final:
                return
            seen = answer.version

    # --- what there is ------------------------------------------------------------------

    def version(self, ticket_id: str) -> int | None:
        """The version of the game a counted spectator follows (None: not counted now)."""
        ticket = self._tickets.get(ticket_id)
        broadcast = self._broadcasts.get(ticket.followed) if ticket else None
        if ticket is None or broadcast is None or not ticket.alive(time.monotonic(),
                                                                    self.grace):
            return None
        return broadcast.version

    def counts(self) -> dict[str, int]:
        """Spectators counted now, per followed game."""
        now = time.monotonic()
        out: dict[str, int] = {}
        for ticket in self._tickets.values():
            if ticket.alive(now, self.grace):
                out[ticket.followed] = out.get(ticket.followed, 0) + 1
        return out

    def broadcasting(self) -> int:
        """Followed games with a broadcast task running."""
        return len(self._broadcasts)


def client_of(request: object) -> str:
    """The address a page's request came from (a Gradio or Starlette request). Behind a
    proxy on a private network (a Hugging Face Space) every request comes from the proxy:
    then the last address of ``X-Forwarded-For``, the one that proxy saw, counts."""
    client = getattr(request, "client", None)
    host = str(getattr(client, "host", "") or "")
    headers = getattr(request, "headers", None) or {}
    forwarded = str(headers.get("x-forwarded-for", "") or "")
    if forwarded and _private(host):
        return forwarded.split(",")[-1].strip()[:64] or host
    return host


def _private(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return not host
    return address.is_private or address.is_loopback


def _spectators(count: int) -> str:
    return f"{count} spectator{'' if count == 1 else 's'}"


def _answer(**fields: object) -> bytes:
    return json.dumps(fields).encode()
