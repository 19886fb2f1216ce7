"""Whether a language model's server answers, before the page calls it ready.

The check is cheap: a TCP connection to the server's host and port (through the proxy the SDKs
would use, if one is set), at most :data:`TIMEOUT` seconds, no key and no request sent. Its
answer is cached per address for :data:`GOOD_FOR` seconds when the server answered and
:data:`BAD_FOR` when it did not, so the opponent list costs nothing most of the time and a
server started later shows up within seconds. The reason of a failure is kept for the page
("connection refused", "name not found"...). The offline model is not checked here: the page
starts its server itself.
"""

from __future__ import annotations

import os
import socket
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor

from agents.llm import Opponent
from agents.llm.config import compat_url

TIMEOUT = 1.5
GOOD_FOR = 60.0
BAD_FOR = 10.0
HOSTED = {"openai": ("OPENAI_BASE_URL", "https://api.openai.com/v1"),
          "anthropic": ("ANTHROPIC_BASE_URL", "https://api.anthropic.com")}

_checked: dict[tuple[str, int], tuple[float, str | None]] = {}
_lock = threading.Lock()


def server_url(entry: Opponent, env: Mapping[str, str] | None = None) -> str | None:
    """The base URL the SDK would call for ``entry`` (None for the offline model)."""
    env = os.environ if env is None else env
    if entry.provider in ("compat", "hf"):
        return compat_url(entry, env)
    if entry.provider in HOSTED:
        name, default = HOSTED[entry.provider]
        return entry.base_url or env.get(name) or default
    return None


def problem(entry: Opponent, env: Mapping[str, str] | None = None) -> str | None:
    """Why ``entry``'s server cannot be reached now, or None when it answers (or is the
    offline model, or its address cannot be read: the call itself will say)."""
    url = server_url(entry, env)
    if url is None:
        return None
    address = _address(url)
    if address is None:
        return None
    with _lock:
        known = _checked.get(address)
    if known is not None and time.monotonic() < known[0]:
        return _said(url, known[1])
    found = _connect(address)
    with _lock:
        _checked[address] = (time.monotonic() + (BAD_FOR if found else GOOD_FOR), found)
    return _said(url, found)


def problems(entries: Iterable[Opponent], env: Mapping[str, str] | None = None
             ) -> dict[tuple[str, str], str | None]:
    """:func:`problem` of several entries at once (checked side by side), by
    (provider, model)."""
    chosen = list(entries)
    if not chosen:
        return {}
    with ThreadPoolExecutor(max_workers=min(8, len(chosen))) as pool:
        found = list(pool.map(lambda e: problem(e, env), chosen))
    return {(e.provider, e.model): p for e, p in zip(chosen, found, strict=True)}


def forget() -> None:
    """Drop every cached answer (tests, or an admin who just started a server)."""
    with _lock:
        _checked.clear()


def _said(url: str, found: str | None) -> str | None:
    return None if found is None else f"its server at {url} does not answer ({found})"


def _address(url: str) -> tuple[str, int] | None:
    parsed = urllib.parse.urlsplit(url)
    if not parsed.hostname:
        return None
    proxy = urllib.request.getproxies().get(parsed.scheme)
    if proxy and not urllib.request.proxy_bypass(parsed.hostname):
        through = urllib.parse.urlsplit(proxy if "//" in proxy else f"//{proxy}")
        if through.hostname:
            return through.hostname, through.port or 80
    try:
        port = parsed.port or (443 if parsed.scheme == "https" else 80)
    except ValueError:
        return None
    return parsed.hostname, port


def _connect(address: tuple[str, int]) -> str | None:
    """None if a TCP connection opens within TIMEOUT, else the reason in a few words."""
    outcome: list[str | None] = []

    def attempt() -> None:
        try:
            with socket.create_connection(address, timeout=TIMEOUT):
                outcome.append(None)
        except socket.gaierror:
            outcome.append(f"the name {address[0]} is not found")
        except ConnectionRefusedError:
            outcome.append("connection refused: nothing listens there")
        except TimeoutError:
            outcome.append(f"no answer within {TIMEOUT:g} s")
        except OSError as err:
            outcome.append(err.strerror or type(err).__name__)

    worker = threading.Thread(target=attempt, daemon=True)  # name lookups ignore timeouts
    worker.start()
    worker.join(TIMEOUT + 0.5)
    return outcome[0] if outcome else f"no answer within {TIMEOUT:g} s"
