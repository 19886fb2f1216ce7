"""Spectator pages without a browser: what a Watch-tab page opened on a ``?watch=`` link says
to the app, over plain asyncio HTTP/1.1, cheap enough to hold hundreds of pages at once, each
from any loopback address (127.0.0.0/8 reaches the app on 127.0.0.1 from another client
address).

A :class:`Page` runs the link's page-load events through Gradio's queue (``open_link``, then
``show``: the first screen), then asks the screen's server function (``follow_moves``) for each
next screen, as the page's script does. :meth:`Page.abandon` closes its connection, as a
closed tab does. Used by tests/test_spectator_slots.py and ``python -m benchmarks.spectators``.
"""

from __future__ import annotations

import asyncio
import json
import re
import urllib.parse
import urllib.request
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

TICKET = re.compile(r"data-ticket='([0-9a-f]+)' data-version='(\d+)'")
MOVES = re.compile(r"data-moves='(\d+)'")


class Connection:
    """One keep-alive HTTP/1.1 connection from ``client`` (reopened when the server closed
    it between requests)."""

    def __init__(self, host: str, port: int, client: str = "127.0.0.1") -> None:
        self.host, self.port, self.client = host, port, client
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def send(self, method: str, path: str, body: Any = None) -> None:
        """Write one request (opening the connection if needed); its answer is not read."""
        data = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
        if self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(
                self.host, self.port, local_addr=(self.client, 0), limit=2**24)
        self._writer.write(head.encode() + data)
        await self._writer.drain()

    async def request(self, method: str, path: str, body: Any = None) -> tuple[int, bytes]:
        """The status and whole body of one request."""
        reader, status, headers = await self._start(method, path, body)
        if headers.get("transfer-encoding") == "chunked":
            return status, b"".join([chunk async for chunk in self._chunks(reader)])
        return status, await reader.readexactly(int(headers.get("content-length", "0")))

    async def events(self, path: str) -> AsyncIterator[dict[str, Any]]:
        """The server-sent events of a streamed GET, as they come."""
        async for data in self._events("GET", path):
            yield data

    async def events_post(self, path: str, body: Any) -> AsyncIterator[dict[str, Any]]:
        """The server-sent events answering a POST, as they come."""
        async for data in self._events("POST", path, body):
            yield data

    async def _events(self, method: str, path: str,
                      body: Any = None) -> AsyncIterator[dict[str, Any]]:
        reader, status, headers = await self._start(method, path, body)
        if status != 200:
            raise ConnectionError(f"{method} {path}: {status}")
        buffer = b""
        async for chunk in self._chunks(reader):
            buffer += chunk
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                if message.startswith(b"data:"):
                    yield json.loads(message[5:])

    async def _start(self, method: str, path: str,
                     body: Any = None) -> tuple[asyncio.StreamReader, int, dict[str, str]]:
        line = b""
        for _ in range(2):  # again once if the server had closed the idle connection
            try:
                await self.send(method, path, body)
                assert self._reader is not None
                line = await self._reader.readline()
            except ConnectionError:
                line = b""
            if line:
                break
            self.close()
        if not line or self._reader is None:
            raise ConnectionError(f"{method} {path}: the server closed the connection")
        reader, status, headers = self._reader, int(line.split()[1]), {}
        while True:
            header = await reader.readline()
            if header in (b"\r\n", b""):
                break
            name, value = header.decode("latin-1").split(":", 1)
            headers[name.strip().lower()] = value.strip()
        return reader, status, headers

    async def _chunks(self, reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
        while True:
            size = int((await reader.readline()).split(b";")[0].strip(), 16)
            if size == 0:
                await reader.readline()
                return
            chunk = await reader.readexactly(size)
            await reader.readline()
            yield chunk

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None


@dataclass
class App:
    """What a page needs to know of the running app (from its ``/config``)."""

    url: str
    prefix: str
    screen: int | None
    open_link: int
    show: int | None
    follow: int | None
    """The old follow loop's event (apps before the broadcast); None when there is none."""
    endpoints: dict[str, tuple[int, list[bool]]] = field(default_factory=dict)

    @classmethod
    def read(cls, url: str) -> App:
        with urllib.request.urlopen(url.rstrip("/") + "/config", timeout=60) as answer:
            config = json.load(answer)
        deps = config["dependencies"]
        named = {d.get("api_name"): d for d in deps}
        opening = named["open_link"]["id"]
        after = [d for d in deps if d.get("trigger_after") == opening and d.get("backend_fn")]
        kinds = {c["id"]: c["type"] for c in config["components"]}
        screen = next((c["id"] for c in config["components"]
                       if c.get("props", {}).get("elem_id") == "watch-screen"), None)
        chained = after[0]["id"] if after else None
        return cls(url.rstrip("/"), config.get("api_prefix", "/gradio_api"), screen, opening,
                   chained if screen is not None else None,
                   chained if screen is None else None,
                   {d["api_name"]: (d["id"], [kinds[i] == "state" for i in d["inputs"]])
                    for d in deps if d.get("api_name")})

    @property
    def address(self) -> tuple[str, int]:
        parts = urllib.parse.urlsplit(self.url)
        return parts.hostname or "127.0.0.1", parts.port or 80


class Session:
    """One browser tab's queue calls (Gradio's join, then the session's event stream)."""

    def __init__(self, app: App, client: str = "127.0.0.1") -> None:
        self.app = app
        self.hash = uuid.uuid4().hex[:11]
        self.connection = Connection(*app.address, client)

    async def run(self, fn: int, data: list[Any], query: str = "") -> list[Any]:
        """Run event ``fn`` to its end; its outputs."""
        event = await self.join(fn, data, query)
        result = None
        async for message in self.stream():  # to its end, so the connection can be used again
            if message.get("event_id") == event and message["msg"] == "process_completed":
                result = message
        if result is None:
            raise ConnectionError(f"event {fn}: the stream ended without a result")
        if not result.get("success"):
            raise RuntimeError(f"event {fn} failed: {result.get('output')}")
        return list(result["output"]["data"])

    async def join(self, fn: int, data: list[Any], query: str = "") -> str:
        status, body = await self.connection.request(
            "POST", f"{self.app.prefix}/queue/join{query}",
            {"data": data, "fn_index": fn, "trigger_id": None, "event_data": None,
             "session_hash": self.hash})
        if status != 200:
            raise ConnectionError(f"join {fn}: {status} {body[:200]!r}")
        return str(json.loads(body)["event_id"])

    def stream(self) -> AsyncIterator[dict[str, Any]]:
        return self.connection.events(f"{self.app.prefix}/queue/data?session_hash={self.hash}")

    async def call(self, name: str, *args: Any) -> Any:
        """A named API endpoint (state inputs sent empty): its last non-empty output."""
        fn, states = self.app.endpoints[name]
        given = iter(args)
        outputs = await self.run(fn, [None if state else next(given, None) for state in states])
        return [x for x in outputs if x is not None][-1]

    def close(self) -> None:
        self.connection.close()


@dataclass
class Answer:
    """One screen (or 'nothing new') a following page received."""

    version: int
    html: str | None
    done: bool = False
    stopped: bool = False

    @property
    def moves(self) -> int | None:
        found = MOVES.search(self.html or "")
        return int(found.group(1)) if found else None


class Page(Session):
    """A spectator page opened on ``?watch=<game_id>``."""

    def __init__(self, app: App, game_id: str, client: str = "127.0.0.1") -> None:
        super().__init__(app, client)
        self.game_id = game_id
        self.ticket = ""
        self.version = 0
        self.first = ""

    async def open(self) -> str:
        """The page loads: the link opens the Watch tab and its first screen is drawn (the
        page's text: its status says when it may not follow)."""
        if self.app.show is None:  # an app from before the broadcast
            return await self.open_old()
        await self.run(self.app.open_link, [None], f"?watch={self.game_id}")
        outputs = await self.run(self.app.show, [None])
        screen = outputs[0]
        self.first = screen["value"] if isinstance(screen, dict) else str(screen)
        found = TICKET.search(self.first)
        if found:
            self.ticket, self.version = found.group(1), int(found.group(2))
        return self.first

    async def next(self) -> Answer:
        """Ask for the screen after the one shown (waits until the game changes)."""
        status, body = await self.connection.request(
            "POST", f"{self.app.prefix}/component_server/",
            {"data": [self.ticket, self.version], "component_id": self.app.screen,
             "fn_name": "follow_moves", "session_hash": self.hash})
        if status != 200:
            raise ConnectionError(f"follow_moves: {status} {body[:200]!r}")
        data = json.loads(body)
        self.version = int(data.get("version", self.version))
        return Answer(self.version, data.get("html"), bool(data.get("done")),
                      bool(data.get("stopped")))

    async def screens(self) -> AsyncIterator[Answer]:
        """Every screen after the one shown, as the page's script reads them: one streamed
        response (server-sent events) until the game ends."""
        events = self.connection.events_post(
            f"{self.app.prefix}/component_server/",
            {"data": [self.ticket, self.version], "component_id": self.app.screen,
             "fn_name": "follow_stream", "session_hash": self.hash})
        async for data in events:
            self.version = int(data.get("version", self.version))
            yield Answer(self.version, data.get("html"), bool(data.get("done")),
                         bool(data.get("stopped")))

    async def start_screens(self) -> None:
        """Ask for the stream of screens without reading it (a page that then goes away:
        :meth:`abandon`)."""
        await self.connection.send(
            "POST", f"{self.app.prefix}/component_server/",
            {"data": [self.ticket, self.version], "component_id": self.app.screen,
             "fn_name": "follow_stream", "session_hash": self.hash})

    async def start_next(self) -> None:
        """Send the request for the next screen without reading the answer (a page that then
        goes away: :meth:`abandon`)."""
        await self.connection.send(
            "POST", f"{self.app.prefix}/component_server/",
            {"data": [self.ticket, self.version], "component_id": self.app.screen,
             "fn_name": "follow_moves", "session_hash": self.hash})

    async def open_old(self) -> str:
        """The same link on an app whose pages follow in a queue event (before the broadcast):
        its first update, leaving the event running."""
        assert self.app.follow is not None
        await self.run(self.app.open_link, [None], f"?watch={self.game_id}")
        await self.join(self.app.follow, [None])
        async for message in self.stream():
            if message["msg"] in ("process_generating", "process_completed"):
                return json.dumps(message.get("output", {}))[:200]
        return ""

    def abandon(self) -> None:
        """The tab is closed."""
        self.close()
