"""Keys never come back out: every text a provider sends is blanked for every key the
process holds before it is streamed, recorded, exported or shown.

The keys the process holds are the values of key variables in the environment (names ending
in ``_API_KEY``, ``_TOKEN`` or ``_SECRET``, and every ``key_env`` the opponents file names)
and the keys typed into live key holders (the page's per-tab ``Keyring`` registers itself
with :func:`hold`; it is held weakly, so a forgotten tab's keys drop out). A provider that
quotes a key — in its answer, its reasoning, a tool call's input or an error message — has
it replaced by ``[key]``.

:class:`Redactor` blanks whole texts; :meth:`Redactor.stream` gives a :class:`StreamCleaner`
for text that arrives in pieces, which holds back only the tail that could be the start of a
key (so a key split across pieces is caught too) and lets everything else through at once.
Error texts additionally lose anything shaped like an API key (:func:`redact`).
"""

from __future__ import annotations

import os
import re
import threading
import weakref
from collections.abc import Iterable, Mapping
from typing import Protocol

MIN_KEY = 8
"""Shorter values are not treated as keys (``none``, ``local``: placeholders, not secrets)."""
KEY_SUFFIXES = ("_API_KEY", "_TOKEN", "_SECRET")
MASK = "[key]"

_KEY_LIKE = re.compile(
    r"\b(?:sk|pk|rk|key)-[A-Za-z0-9_*\-]{6,}|\b[A-Za-z0-9_\-]{8}\*{3,}[A-Za-z0-9_*\-]*")


class KeyHolder(Protocol):
    def held_keys(self) -> Iterable[str]:
        """The keys this holder holds now."""
        ...


_holders: weakref.WeakSet[KeyHolder] = weakref.WeakSet()
_holders_lock = threading.Lock()


def hold(holder: KeyHolder) -> None:
    """Count ``holder``'s keys among the process's keys while it lives (held weakly)."""
    with _holders_lock:
        _holders.add(holder)


def held_keys(*, env: Mapping[str, str] | None = None,
              names: Iterable[str] = ()) -> frozenset[str]:
    """Every key the process holds: key variables of ``env`` (the environment by default;
    also the variables ``names``) and the keys of live holders."""
    env = os.environ if env is None else env
    wanted = set(names)
    found = {value for name, value in env.items()
             if name.endswith(KEY_SUFFIXES) or name in wanted}
    with _holders_lock:
        holders = list(_holders)
    for holder in holders:
        found.update(holder.held_keys())
    return frozenset(key for key in found if len(key) >= MIN_KEY)


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` with every given secret, and anything shaped like an API key, blanked out
    (for error texts: what a provider's error says about a key is never needed)."""
    for secret in secrets:
        if secret and len(secret) >= 4:
            text = text.replace(secret, MASK)
    return _KEY_LIKE.sub(MASK, text)


class Redactor:
    """Blanks a fixed set of keys wherever they occur."""

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = sorted({k for k in keys if len(k) >= MIN_KEY}, key=len, reverse=True)

    def text(self, text: str) -> str:
        for key in self.keys:
            if key in text:
                text = text.replace(key, MASK)
        return text

    def stream(self) -> StreamCleaner:
        return StreamCleaner(self)

    def pending(self, text: str) -> int:
        """How many characters at the end of ``text`` could be the start of a key."""
        longest = 0
        for key in self.keys:
            start = max(0, len(text) - len(key) + 1)
            at = text.find(key[0], start)
            while at != -1:
                if key.startswith(text[at:]):
                    longest = max(longest, len(text) - at)
                    break
                at = text.find(key[0], at + 1)
        return longest


class StreamCleaner:
    """Text arriving in pieces, let through as soon as no key can be hiding in it."""

    def __init__(self, redactor: Redactor) -> None:
        self._redactor = redactor
        self._held = ""

    def feed(self, piece: str) -> str:
        """What of the text so far may be shown now (keys blanked)."""
        if not self._redactor.keys:
            return piece
        text = self._redactor.text(self._held + piece)
        keep = self._redactor.pending(text)
        shown, self._held = text[: len(text) - keep], text[len(text) - keep:]
        return shown

    def flush(self) -> str:
        """The rest, at the end of the stream (a key's start that never finished)."""
        rest, self._held = self._held, ""
        return rest
