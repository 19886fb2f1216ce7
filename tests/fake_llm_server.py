"""A scripted LLM server for tests: real HTTP on 127.0.0.1, speaking OpenAI's Chat
Completions (``POST /v1/chat/completions``) and Anthropic's Messages (``POST /v1/messages``)
wire protocols, streamed (server-sent events) or not, so the app's real SDK clients talk
to it exactly as they talk to the providers.

Each request gets the next scripted :class:`Reply` (``server.script(...)``), or, when the
script is empty, the responder's reply (by default: the first legal move listed in the
prompt). Replies can inject faults: a delay, an HTTP error with ``Retry-After``, a malformed
body, a connection dropped mid-stream, a stream cut short, silence (the request is read and
never answered), a stream that begins and then holds back its text (with or without
keep-alive pings). A responder may also quote the caller's key back (``request.key``).
Every request is recorded with its headers and JSON body.

Run it by hand (``python tests/fake_llm_server.py``) to point the app at it.
"""

from __future__ import annotations

import base64
import json
import re
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """What the server answers to one request."""

    text: str = ""
    reasoning: str = ""
    tool_input: dict[str, Any] | None = None
    """Anthropic: answer with a tool_use block carrying this input (structured answers)."""
    finish: str = "stop"
    """``stop`` or ``length`` (the token limit cut the answer)."""
    delay: float = 0.0
    status: int = 200
    retry_after: float | None = None
    error: str = "scripted failure"
    fault: str | None = None
    """``malformed`` (a body or event that is not JSON), ``drop`` (the connection closes in
    the middle of the stream), ``cut`` (the stream ends cleanly but without its end)."""
    prompt_tokens: int | None = 20
    """None: report no usage (as llama.cpp's server does while streaming)."""
    piece: int = 4
    gap: float = 0.0
    silent: bool = False
    """Read the request and never answer (until the server stops)."""
    hold: float = 0.0
    """Streams: after the first event (which carries no text), wait this long before the rest."""
    ping: float = 0.0
    """While holding, send a keep-alive every this many seconds (an SSE comment for OpenAI,
    a ``ping`` event for Anthropic), which carries no text."""
    logprobs: tuple[tuple[str, float], ...] = ()
    """OpenAI: the first token's top log-probabilities, sent when the request asks for them."""


@dataclass
class Request:
    """A request as the server received it."""

    api: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    at: float = field(default_factory=time.monotonic)
    sent: list[float] = field(default_factory=list)
    """Wall-clock time (time.time()) each streamed event was written."""
    hung_up: float | None = None
    """Wall-clock time the client closed the stream before its end (a cancelled call)."""

    @property
    def stream(self) -> bool:
        return bool(self.body.get("stream"))

    def texts(self) -> list[str]:
        """Every text part of the request: system prompt and messages, in order."""
        found = []
        system = self.body.get("system")
        if isinstance(system, str):
            found.append(system)
        for message in self.body.get("messages", []):
            content = message.get("content")
            if isinstance(content, str):
                found.append(content)
                continue
            for part in content or []:
                if part.get("type") == "text":
                    found.append(part["text"])
        return found

    @property
    def prompt(self) -> str:
        return "\n".join(self.texts())

    def images(self) -> list[bytes]:
        """The images attached, decoded (OpenAI data URLs and Anthropic base64 blocks)."""
        found = []
        for message in self.body.get("messages", []):
            content = message.get("content")
            for part in content if isinstance(content, list) else []:
                if part.get("type") == "image_url":
                    url = part["image_url"]["url"]
                    found.append(base64.b64decode(url.split(",", 1)[1]))
                elif part.get("type") == "image":
                    found.append(base64.b64decode(part["source"]["data"]))
        return found

    def legal_moves(self) -> list[str]:
        """The legal moves listed in the last prompt that lists them (or, for a game whose
        prompt summarises hundreds of moves, the examples it gives)."""
        moves: list[str] = []
        for text in self.texts():  # a list, or a summary's examples (Sea Battle's 512 orders)
            found = re.search(r"(?:written as shown \(one per line\)|as in these \w+ examples)"
                              r":\n(.+?)(?:\n\n|$)", text, re.DOTALL)
            if found:
                moves = found.group(1).splitlines()
        if moves:
            return moves
        for text in self.texts():  # a move in the seat's own words: its example
            found = re.search(r"own words, written as .*\(for example: (.+)\)$", text, re.M)
            if found:
                moves = [found.group(1)]
        if moves:
            return moves
        enum = (self.schema or {}).get("properties", {}).get("move", {}).get("enum")
        if enum:
            return list(enum)
        return self._moves_from_json_format()

    def _moves_from_json_format(self) -> list[str]:
        """GAMA-Bench's prompts name a range or choices instead of listing moves:
        {"chosen_number": "integer_between_0_and_100"}, {"decision": "go_or_stay"}."""
        formats = [f for text in self.texts() for f in re.findall(r'\{"\w+": "([^"]+)"\}', text)]
        if not formats:
            return []
        numbers = re.fullmatch(r"integer_between_(\d+)_and_(\d+)", formats[-1])
        if numbers:
            return [str(n) for n in range(int(numbers.group(1)), int(numbers.group(2)) + 1)]
        return [word for word in formats[-1].split("_or_") if word.isalpha() and word.islower()]

    @property
    def schema(self) -> dict[str, Any] | None:
        """The structured-answer schema asked for, if any."""
        form = self.body.get("response_format")
        if form:
            return form.get("schema") or form.get("json_schema", {}).get("schema")
        for tool in self.body.get("tools", []):
            return tool.get("input_schema")
        return None

    @property
    def key(self) -> str:
        """The API key the client sent."""
        bearer = self.headers.get("authorization", "")
        return bearer.removeprefix("Bearer ") or self.headers.get("x-api-key", "")


def first_legal(request: Request) -> Reply:
    """Answer with the first legal move in the prompt, in the requested form."""
    return answer(request, request.legal_moves()[0])


def answer(request: Request, move: str, *, reasoning: str = "") -> Reply:
    """A reply naming ``move``: JSON when the request asks for structured answers."""
    if request.schema is None:
        return Reply(text=f"{reasoning}\nFinal answer: {move}" if reasoning else move)
    if request.api == "anthropic":
        return Reply(tool_input={"thinking": reasoning, "move": move}
                     if "thinking" in request.schema["properties"] else {"move": move})
    data = {"move": move}
    if "thinking" in request.schema["properties"]:
        data = {"thinking": reasoning or "it looks good", "move": move}
    return Reply(text=json.dumps(data))


class FakeLLM:
    """The server. Use as a context manager, or call start() and stop()."""

    def __init__(self, responder: Callable[[Request], Reply] = first_legal) -> None:
        self.responder = responder
        self.requests: list[Request] = []
        self._script: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._server = _Server(("127.0.0.1", 0), _handler(self))
        self._thread: threading.Thread | None = None
        self.stopping = threading.Event()
        """Set when the server stops (silent replies end then)."""

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def openai_url(self) -> str:
        return f"{self.url}/v1"

    def script(self, *replies: Reply) -> None:
        """Queue replies for the next requests, in order."""
        with self._lock:
            self._script.extend(replies)

    def start(self) -> FakeLLM:
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,),
                                        daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _reply(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self._script:
                return self._script.popleft()
        return self.responder(request)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients hanging up (a dropped stream, a closed SDK client) are expected


def _handler(server: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def setup(self) -> None:
            super().setup()  # send each event at once, as a provider's server does
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

        def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
            pass  # quiet

        def do_GET(self) -> None:  # noqa: N802
            body = {"object": "list", "data": [{"id": "fake", "object": "model"}]}
            self._json(200, body)

        def do_POST(self) -> None:  # noqa: N802
            size = int(self.headers.get("content-length", 0))
            body = json.loads(self.rfile.read(size) or b"{}")
            api = "anthropic" if self.path.endswith("/messages") else "openai"
            request = Request(api, self.path, {k.lower(): v for k, v in self.headers.items()},
                              body)
            reply = server._reply(request)
            if reply.silent:
                server.stopping.wait()
                self.close_connection = True
                return
            time.sleep(reply.delay)
            if reply.status != 200:
                self._error(api, reply)
            elif not request.stream:
                self._whole(request, reply)
            else:
                self._stream(request, reply)

        # --- plain responses ---------------------------------------------------------------

        def _json(self, status: int, body: Any, headers: dict[str, str] | None = None,
                  raw: bytes | None = None) -> None:
            data = raw if raw is not None else json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _error(self, api: str, reply: Reply) -> None:
            headers = {"x-should-retry": "false"}
            if reply.retry_after is not None:
                headers["retry-after"] = f"{reply.retry_after:g}"
            if api == "anthropic":
                body = {"type": "error", "error": {"type": "api_error", "message": reply.error}}
            else:
                body = {"error": {"message": reply.error, "type": "server_error", "code": None}}
            self._json(reply.status, body, headers)

        def _whole(self, request: Request, reply: Reply) -> None:
            if reply.fault == "malformed":
                self._json(200, None, raw=b'{"choices": [ this is not json')
                return
            model = request.body.get("model", "fake")
            usage_in = reply.prompt_tokens or 0
            usage_out = max(1, len(reply.text) // 4)
            if request.api == "anthropic":
                content = ([{"type": "tool_use", "id": "toolu_1", "name": _tool(request),
                             "input": reply.tool_input}] if reply.tool_input is not None
                           else [{"type": "text", "text": reply.text}])
                body = {"id": "msg_1", "type": "message", "role": "assistant", "model": model,
                        "content": content, "stop_reason": _stop(reply, request),
                        "stop_sequence": None,
                        "usage": {"input_tokens": usage_in, "output_tokens": usage_out}}
            else:
                body = {"id": "chatcmpl-1", "object": "chat.completion", "created": 0,
                        "model": model, "choices": [{
                            "index": 0, "finish_reason": reply.finish,
                            "message": {"role": "assistant", "content": reply.text}}],
                        "usage": {"prompt_tokens": usage_in, "completion_tokens": usage_out,
                                  "total_tokens": usage_in + usage_out}}
            self._json(200, body)

        # --- streams -----------------------------------------------------------------------

        def _stream(self, request: Request, reply: Reply) -> None:
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.send_header("transfer-encoding", "chunked")
            self.end_headers()
            events = (_anthropic_events if request.api == "anthropic" else _openai_events)(
                request, reply)
            for i, (name, data) in enumerate(events):
                if reply.fault == "drop" and i == 3:
                    self.wfile.flush()
                    self.close_connection = True
                    self.connection.shutdown(2)  # mid-body: no terminating chunk
                    return
                if reply.fault == "malformed" and i == 2:
                    data = "{ this is not json"
                line = (f"event: {name}\n" if name else "") + f"data: {data}\n\n"
                try:
                    self._chunk(line.encode())
                except OSError:  # the client hung up (a cancelled call)
                    request.hung_up = time.time()
                    self.close_connection = True
                    return
                request.sent.append(time.time())
                if i == 0 and reply.hold and not self._hold(request, reply):
                    return
                if reply.gap:
                    time.sleep(reply.gap)
            self._chunk(b"")

        def _hold(self, request: Request, reply: Reply) -> bool:
            """Wait ``reply.hold`` seconds, pinging if asked; False if the client hung up."""
            until = time.monotonic() + reply.hold
            while (left := until - time.monotonic()) > 0:
                if server.stopping.wait(min(left, reply.ping or left)):
                    return False
                if reply.ping and until - time.monotonic() > 0:
                    ping = ("event: ping\ndata: {\"type\": \"ping\"}\n\n"
                            if request.api == "anthropic" else ": ping\n\n")
                    try:
                        self._chunk(ping.encode())
                    except OSError:
                        request.hung_up = time.time()
                        self.close_connection = True
                        return False
            return True

        def _chunk(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):X}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

    return Handler


def _pieces(text: str, size: int) -> list[str]:
    return [text[i:i + size] for i in range(0, len(text), size)]


def _openai_events(request: Request, reply: Reply) -> list[tuple[str, str]]:
    model = request.body.get("model", "fake")

    def chunk(delta: dict[str, Any], finish: str | None = None) -> tuple[str, str]:
        return "", json.dumps({"id": "chatcmpl-1", "object": "chat.completion.chunk",
                               "created": 0, "model": model, "choices": [
                                   {"index": 0, "delta": delta, "finish_reason": finish}]})

    events = [chunk({"role": "assistant", "content": ""})]
    events += [chunk({"reasoning_content": p}) for p in _pieces(reply.reasoning, reply.piece)]
    events += [chunk({"content": p}) for p in _pieces(reply.text, reply.piece)]
    if request.body.get("logprobs") and reply.logprobs and len(events) > 1:
        top = [{"token": t, "logprob": lp, "bytes": None} for t, lp in reply.logprobs]
        first = json.loads(events[1][1])
        first["choices"][0]["logprobs"] = {"content": [
            {"token": top[0]["token"], "logprob": top[0]["logprob"], "bytes": None,
             "top_logprobs": top}]}
        events[1] = ("", json.dumps(first))
    if reply.fault == "cut":
        return events
    events.append(chunk({}, reply.finish))
    wants_usage = (request.body.get("stream_options") or {}).get("include_usage")
    if wants_usage and reply.prompt_tokens is not None:
        completion = max(1, len(reply.text + reply.reasoning) // 4)
        events.append(("", json.dumps({
            "id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 0,
            "model": model, "choices": [],
            "usage": {"prompt_tokens": reply.prompt_tokens, "completion_tokens": completion,
                      "total_tokens": reply.prompt_tokens + completion}})))
    events.append(("", "[DONE]"))
    return events


def _anthropic_events(request: Request, reply: Reply) -> list[tuple[str, str]]:
    model = request.body.get("model", "fake")
    events: list[tuple[str, Any]] = [("message_start", {
        "type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": reply.prompt_tokens or 0, "output_tokens": 1}}})]
    index = 0
    if reply.reasoning:
        events += _block(index, {"type": "thinking", "thinking": "", "signature": ""},
                         [{"type": "thinking_delta", "thinking": p}
                          for p in _pieces(reply.reasoning, reply.piece)])
        index += 1
    if reply.tool_input is not None:
        arguments = json.dumps(reply.tool_input)
        events += _block(index, {"type": "tool_use", "id": "toolu_1", "name": _tool(request),
                                 "input": {}},
                         [{"type": "input_json_delta", "partial_json": p}
                          for p in _pieces(arguments, reply.piece)])
    else:
        events += _block(index, {"type": "text", "text": ""},
                         [{"type": "text_delta", "text": p}
                          for p in _pieces(reply.text, reply.piece)])
    if reply.fault == "cut":
        return [(name, json.dumps(data)) for name, data in events]
    output = max(1, len(reply.text + reply.reasoning) // 4)
    events.append(("message_delta", {"type": "message_delta", "delta": {
        "stop_reason": _stop(reply, request), "stop_sequence": None},
        "usage": {"output_tokens": output}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return [(name, json.dumps(data)) for name, data in events]


def _block(index: int, start: dict[str, Any], deltas: list[dict[str, Any]]
           ) -> list[tuple[str, Any]]:
    events: list[tuple[str, Any]] = [("content_block_start", {
        "type": "content_block_start", "index": index, "content_block": start})]
    events += [("content_block_delta", {"type": "content_block_delta", "index": index,
                                        "delta": delta}) for delta in deltas]
    events.append(("content_block_stop", {"type": "content_block_stop", "index": index}))
    return events


def _tool(request: Request) -> str:
    tools = request.body.get("tools") or [{"name": "answer"}]
    return tools[0]["name"]


def _stop(reply: Reply, request: Request) -> str:
    if reply.finish == "length":
        return "max_tokens"
    return "tool_use" if reply.tool_input is not None else "end_turn"


if __name__ == "__main__":
    with FakeLLM() as fake:
        print(f"OpenAI-compatible: {fake.openai_url}   Anthropic: {fake.url}   (Ctrl-C stops)")
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
