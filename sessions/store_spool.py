"""Finished games the store could not take yet: kept, retried until stored, never lost silently.

:meth:`Spool.save` hands a finished record to one writer thread per store and waits for it
at most ``wait`` seconds (``ARENA_SAVE_WAIT``, 5 by default), so a store that fails or
stalls never holds a game-ending request for long. A record not stored by then (the store
refused it, or has not answered) is kept: in memory, and as a JSON file in the store's spool
folder (:func:`spool_folder`), so a restart keeps it too; the log says why. The writer tries
again with a growing pause (``retry_first`` seconds, doubling up to ``retry_most``) until
the store takes it, then forgets it and removes its file. Saving is idempotent by record id
(the store replaces a session saved again), so every kept game ends up stored exactly once,
even when a save whose answer was lost had in fact gone through.

A store opened for writing picks up the files a previous run left in its spool folder.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import queue
import threading
import time
from pathlib import Path
from typing import Any, Protocol

from sessions.record import MatchRecord


class Store(Protocol):
    """What the spool needs of a store (:class:`sessions.store.Store`): where it is, and
    saving one record (replacing any record of the same session id)."""

    path: Path | None
    where: str

    def save(self, record: MatchRecord) -> Any: ...


log = logging.getLogger("arena.store")

SAVE_WAIT = float(os.environ.get("ARENA_SAVE_WAIT", "5"))
"""Seconds a game-ending request waits for its record to be stored before it goes on and
says "not saved yet" (the record stays kept and is retried)."""
RETRY_FIRST = 2.0
RETRY_MOST = 60.0


def spool_folder(store: Store) -> Path:
    """Where ``store``'s kept records are written: beside an SQLite file
    (``arena.sqlite3.unsaved/``), or for PostgreSQL a folder named after the database
    under ``$ARENA_DATA_DIR``."""
    if store.path is not None:
        return store.path.with_name(store.path.name + ".unsaved")
    tag = hashlib.sha256(store.where.encode()).hexdigest()[:12]
    return Path(os.environ.get("ARENA_DATA_DIR", "data")) / f"unsaved-postgresql-{tag}"


class Spool:
    """The records of one store that are waiting to be stored, and its writer thread."""

    def __init__(self, store: Store, folder: Path | None, *, wait: float = SAVE_WAIT,
                 retry_first: float = RETRY_FIRST, retry_most: float = RETRY_MOST) -> None:
        self._store = store
        self.folder = folder
        self.wait = wait
        self.retry_first, self.retry_most = retry_first, retry_most
        self._lock = threading.Lock()
        self._kept: dict[str, MatchRecord] = {}
        self._why: dict[str, str] = {}
        self._done: dict[str, threading.Event] = {}
        self._queue: queue.Queue[str | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._busy_since: float | None = None
        self._closed = False
        self._load()

    # --- the game's side --------------------------------------------------------------------

    def save(self, record: MatchRecord) -> bool:
        """Store ``record`` (finished), waiting at most :attr:`wait` seconds: True once it
        is stored, False when it is kept for later (see :meth:`unsaved` for why)."""
        with self._lock:
            done = threading.Event()
            self._kept[record.id], self._done[record.id] = record, done
            self._why.setdefault(record.id, "being saved")
            stuck = self._busy_since is not None and \
                time.monotonic() - self._busy_since > self.wait
            self._start()
        self._queue.put(record.id)
        done.wait(0 if stuck else self.wait)
        with self._lock:
            if self._done.get(record.id) is done:
                del self._done[record.id]  # nobody waits any more: the writer logs from now
        reason = self.unsaved(record.id)
        if reason is None:
            return True
        if stuck or reason == "being saved":
            reason = f"the store has not answered for {self.wait:g} s ({self._store.where})"
            with self._lock:
                self._why[record.id] = reason
        self._write(record, reason)
        return False

    def unsaved(self, record_id: str) -> str | None:
        """Why the record ``record_id`` is not stored yet, or None (stored, or never kept)."""
        with self._lock:
            return self._why.get(record_id) if record_id in self._kept else None

    def waiting(self) -> list[str]:
        """The ids of the records kept for later."""
        with self._lock:
            return list(self._kept)

    def retry(self) -> None:
        """Try every kept record again now (a store known to be back)."""
        with self._lock:
            ids = list(self._kept)
            self._start()
        for record_id in ids:
            self._queue.put(record_id)

    def close(self) -> None:
        """Stop the writer (kept records stay in their files for the next start)."""
        with self._lock:
            self._closed = True
        self._queue.put(None)

    def __len__(self) -> int:
        return len(self._kept)

    # --- the writer ---------------------------------------------------------------------------

    def _start(self) -> None:
        if self._thread is None and not self._closed:
            self._thread = threading.Thread(target=self._write_all, daemon=True,
                                            name=f"store-writer {self._store.where[-40:]}")
            self._thread.start()

    def _write_all(self) -> None:
        pause = self.retry_first
        while True:
            try:
                wanted = self._queue.get(timeout=pause if self._kept else None)
            except queue.Empty:
                wanted = ""  # time to try the kept ones again
            if wanted is None or self._closed:
                return
            ids = [wanted] if wanted else self.waiting()
            stored = [self._try(record_id) for record_id in ids]
            if all(stored):
                pause = self.retry_first
            elif not wanted:
                pause = min(pause * 2, self.retry_most)

    def _try(self, record_id: str) -> bool:
        with self._lock:
            record = self._kept.get(record_id)
            if record is None:
                return True  # stored by an earlier try
            self._busy_since = time.monotonic()
        try:
            self._store.save(record)
        except Exception as err:  # noqa: BLE001 - any failure: keep it, say why, retry
            reason = str(err).strip().splitlines()[0] if str(err).strip() else repr(err)
            with self._lock:
                before = self._why.get(record_id)
                self._why[record_id] = reason
                self._busy_since = None
                done = self._done.pop(record_id, None)
            if done is None and reason != before:  # a new reason (the first is logged by save)
                log.warning("finished game %s still not stored: %s", record_id, reason)
            if done is not None:
                done.set()
            return False
        with self._lock:
            kept = self._why.get(record_id) not in (None, "being saved")
            self._kept.pop(record_id, None)
            self._why.pop(record_id, None)
            self._busy_since = None
            done = self._done.pop(record_id, None)
            left = len(self._kept)
        self._remove(record_id)
        if kept:
            log.warning("finished game %s stored after all (%d still waiting)", record_id, left)
        if done is not None:
            done.set()
        return True

    # --- files --------------------------------------------------------------------------------

    def _file(self, record_id: str) -> Path | None:
        return None if self.folder is None else self.folder / f"{record_id}.json"

    def _write(self, record: MatchRecord, reason: str) -> None:
        """Keep ``record`` in a file too, and say so in the log."""
        path = self._file(record.id)
        if record.id not in self.waiting():
            return
        if path is None:
            log.error("finished game %s not stored yet (%s); kept in memory and retried",
                      record.id, reason)
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_suffix(".tmp")
            temporary.write_text(record.to_json(), encoding="utf-8")
            os.replace(temporary, path)
        except OSError as err:
            log.error("finished game %s not stored yet (%s); kept in memory only (the spool "
                      "file %s could not be written: %s) and retried", record.id, reason, path,
                      err)
            return
        log.error("finished game %s not stored yet (%s); kept in %s and retried", record.id,
                  reason, path)
        if record.id not in self.waiting():  # stored meanwhile: no file needed
            self._remove(record.id)

    def _remove(self, record_id: str) -> None:
        path = self._file(record_id)
        if path is not None:
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            except OSError as err:
                log.error("could not remove the spool file %s of a stored game: %s", path, err)

    def _load(self) -> None:
        """Kept records a previous run left in the folder: retried from now on."""
        if self.folder is None or not self.folder.is_dir():
            return
        for path in sorted(self.folder.glob("*.json")):
            try:
                record = MatchRecord.from_json(path.read_text(encoding="utf-8"))
            except (OSError, ValueError, KeyError, TypeError, json.JSONDecodeError) as err:
                log.error("the spool file %s cannot be read (%s); left where it is", path, err)
                continue
            self._kept[record.id] = record
            self._why[record.id] = "kept by an earlier run"
        if self._kept:
            log.warning("%d finished game(s) kept by an earlier run wait to be stored in %s",
                        len(self._kept), self._store.where)
            self._start()
            self._queue.put("")
