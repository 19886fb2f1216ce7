"""The published dataset: a view of the store as a Hugging Face dataset folder.

``python -m sessions dataset OUT/`` writes one Parquet file per table
(``data/<table>/<shard>.parquet``, tables in :mod:`sessions.dataset_tables`) and a ``README.md``
data card (:mod:`sessions.dataset_card`) whose header lists the tables as configurations,
so ``datasets.load_dataset(OUT)`` loads the sessions and ``load_dataset(OUT, "moves")``
the moves. Only sessions their players shared for research go in; player ids become keyed
ids (the salt: :func:`salt_for`); display names and keys never leave.

The records are read in chunks and each table is written in row groups as it fills, so
memory stays flat however big the store is (``python -m benchmarks.dataset``). Needs the
``dataset`` extra (pyarrow); the app imports this module only when it publishes.
"""

from __future__ import annotations

import gc
import os
import re
import secrets
import shutil
import tempfile
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from sessions.dataset_selection import EVERYTHING, Built, Selection
from sessions.dataset_tables import (
    COLUMNS,
    MARK,
    TABLES,
    Pseudonyms,
    load_clean,
    new_rows,
    rows_of,
)

SALT_ENV = "ARENA_DATASET_SALT"
SALT_FILE = "dataset-salt"
SHARD = re.compile(r"[A-Za-z0-9_-]{1,64}")
CHUNK = 1000
"""Records read at once."""
ROW_GROUP = 100_000
"""Rows a table holds before they are written out."""


def salt_for(data_dir: Path) -> bytes:
    """The secret that keys player ids: ``$ARENA_DATASET_SALT`` when set (a Space keeps it
    among its secrets, so ids stay the same across restarts), else ``dataset-salt`` in the
    data directory, made on first use (readable by its owner only). Never published."""
    given = os.environ.get(SALT_ENV, "")
    if given:
        return given.encode()
    path = data_dir / SALT_FILE
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
    return path.read_text().strip().encode()


def check_folder(folder: Path) -> None:
    """Refuse a folder that exists and holds something other than a dataset of ours."""
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder} is a file; give a folder for the dataset")
    if folder.is_dir() and any(folder.iterdir()):
        card = folder / "README.md"
        if not card.is_file() or MARK not in card.read_text(errors="replace"):
            raise ValueError(f"{folder} is not empty and holds no dataset written by "
                             "python -m sessions dataset; give a new or empty folder")


def build(store: Any, folder: Path, *, salt: bytes, selection: Selection = EVERYTHING,
          keys: Iterable[str] | None = None, shard: str = "train", workers: int = 1) -> Built:
    """Write the dataset of ``store``'s shared, selected sessions to ``folder`` (made, or
    replaced when it holds an earlier dataset; anything else there is refused). ``keys``:
    the secrets to blank (default: every key the process holds). Each table is one file,
    ``data/<table>/<shard>.parquet``: a scheduled push names its shard after the store, so
    the shards of a store that was lost stay published beside the new one's. ``workers`` > 1:
    processes that decode and tabulate the records; the tables are the same for any number.
    They cost about a quarter more CPU and a worker's memory each and gained no wall time on
    the loaded 2-core machine they were measured on (docs/benchmarks.md), so one (this
    process) is the default."""
    if not SHARD.fullmatch(shard):
        raise ValueError(f"shard name {shard!r}: use letters, digits, '-' or '_'")
    from agents.llm.redaction import held_keys
    from sessions.dataset_card import card

    check_folder(folder)
    held = sorted(held_keys() if keys is None else set(keys), key=len, reverse=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        built = Built(folder)
        Pseudonyms(salt)  # a short salt is refused before anything is read
        _write_tables(store, work, built, salt, selection, held, shard, workers)
        (work / "README.md").write_text(card(built, selection), encoding="utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        work.rename(folder)
    finally:
        if work.exists():
            shutil.rmtree(work, ignore_errors=True)
    return built


def _write_tables(store: Any, work: Path, built: Built, salt: bytes, selection: Selection,
                  keys: list[str], shard: str, workers: int) -> None:
    chosen, games = _chosen(store, selection, built)
    talking = {game: _talks(game) for game in sorted(games)}
    out = Tables(work / "data", shard)
    people: set[str] = set()
    try:
        for part, keyed in _parts(store, chosen, Chunking(salt, keys, talking), workers):
            _add(built, part)
            people |= keyed
            for name, table in part.tables.items():
                out.add(name, table)
    finally:
        built.rows.update(out.close())
    for table in TABLES:  # the datasets library cannot load a table without rows
        if not built.rows[table]:
            shutil.rmtree(work / "data" / table)
    built.people = len(people)


class Chunking:
    """What turning a chunk of records into tables needs; picklable, so worker processes
    get it once."""

    def __init__(self, salt: bytes, keys: list[str], talking: dict[str, bool]) -> None:
        self.salt, self.keys, self.talking = salt, keys, talking
        self._names: Pseudonyms | None = None

    def __getstate__(self) -> dict[str, Any]:
        return {"salt": self.salt, "keys": self.keys, "talking": self.talking, "_names": None}

    @property
    def names(self) -> Pseudonyms:
        if self._names is None:
            self._names = Pseudonyms(self.salt)
        return self._names


class Part(Built):
    """One chunk's tables (Arrow) and tally."""

    tables: dict[str, Any]


def _parts(store: Any, chosen: list[str], how: Chunking,
           workers: int) -> Iterator[tuple[Part, set[str]]]:
    """Each chunk of ``chosen``'s tables and tally, in order. ``workers`` > 1: that many
    processes decode and tabulate while this one reads the store and writes."""
    chunks = [chosen[start:start + CHUNK] for start in range(0, len(chosen), CHUNK)]
    if workers <= 1 or len(chunks) <= 1:
        for ids in chunks:
            yield _chunk(sorted(store.texts_of(ids)), how)
        return
    import multiprocessing

    # spawn, never fork: the app builds from a thread, and a forked child of a threaded
    # process may inherit a held lock
    context = multiprocessing.get_context("spawn")
    where = getattr(store, "url", None) or getattr(store, "path", None)
    with context.Pool(min(workers, len(chunks)), initializer=_start_worker,
                      initargs=(how, where)) as pool:
        pending: deque[Any] = deque()
        for ids in chunks:  # at most workers + 1 chunks in flight: memory stays flat
            # a worker reads its chunk from the store itself when it can open it: sending
            # the records' text through a pipe cost this process more than the writing
            chunk = ids if where else sorted(store.texts_of(ids))
            pending.append(pool.apply_async(_worker_chunk, (chunk,)))
            if len(pending) > workers:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


_WORKER: list[Any] = []
"""A worker process's (Chunking, store or None)."""


def _start_worker(how: Chunking, where: str | Path | None) -> None:
    gc.disable()  # see _chunk
    store = None
    if where:
        from sessions.store import Store

        store = Store(where, readonly=True)
    _WORKER[:] = [how, store]


def _worker_chunk(chunk: list[str] | list[tuple[str, str]]) -> tuple[Part, set[str]]:
    """The tables of ``chunk``: ids to read from the worker's store, or (id, text) pairs."""
    if not _WORKER:
        raise RuntimeError("a dataset worker started without its initializer")
    how, store = _WORKER
    texts = sorted(store.texts_of(chunk)) if store is not None else chunk
    return _chunk(texts, how)  # type: ignore[arg-type]


def _chunk(texts: list[tuple[str, str]], how: Chunking) -> tuple[Part, set[str]]:
    """The tables and tally of the shared records among ``texts`` (id, JSON), in order."""
    part, people, names, keys = Part(Path()), set[str](), how.names, how.keys
    rows = new_rows()
    collecting = gc.isenabled()
    gc.disable()  # the rows are tuples of plain values: no cycles, and the collector's passes
    try:          # over a hundred thousand held rows cost a fifth of the time
        for _, text in texts:
            record = load_clean(text, keys)
            text = _keyed(text, record, names)
            if text:  # a page id also written elsewhere in the record: keyed there too
                record = load_clean(text, keys)
            if not record.get("research_use", True):
                part.left_out["not shared for research"] += 1
                continue
            rows_of(record, names, rows, talking=how.talking.get(record["game"], True))
            _count(part, record, people, names)
        part.tables = {name: arrow_table(name, table) for name, table in rows.items()
                       if table}
    finally:
        if collecting:
            gc.enable()
    return part, people


def _add(built: Built, part: Part) -> None:
    for total, more in ((built.games, part.games), (built.human_games, part.human_games),
                        (built.kinds, part.kinds), (built.left_out, part.left_out)):
        total.update(more)
    for ended in (part.first, part.last):
        if ended is not None:
            built.first = ended if built.first is None else min(built.first, ended)
            built.last = ended if built.last is None else max(built.last, ended)


def _keyed(text: str, record: dict[str, Any], names: Pseudonyms) -> str:
    """``text`` with its people's page ids replaced by their keyed ids wherever they occur
    outside the seats (a metric or a message naming one), or "" when none does."""
    ids = [seat["player_id"] for seat in record["seats"] if seat.get("player_id")]
    if not any(text.count(pid) > 1 for pid in ids):
        return ""
    for pid in ids:
        text = text.replace(pid, names.of(pid) or "")
    return text


def _chosen(store: Any, selection: Selection, built: Built) -> tuple[list[str], set[str]]:
    """The ids of the selected shared sessions, and their games."""
    chosen, games = [], set()
    for match_id, game, shared, ended, has_human in store.catalog():
        if not shared:
            built.left_out["not shared for research"] += 1
        elif not selection.admits(game, ended, has_human):
            built.left_out["outside the filters"] += 1
        else:
            chosen.append(match_id)
            games.add(game)
    return chosen, games


def _talks(game: str) -> bool:
    from games import registry

    try:
        return registry.get(game).grammar.free_text is not None
    except KeyError:
        return True  # a game this version does not know: treat its attempts as words


def _count(built: Built, record: dict[str, Any], people: set[str], names: Pseudonyms) -> None:
    game = record["game"]
    built.games[game] += 1
    for seat in record["seats"]:
        built.kinds[seat["kind"]] += 1
        if seat.get("player_id"):
            people.add(names.of(seat["player_id"]) or "")
    if any(seat["kind"] == "human" for seat in record["seats"]):
        built.human_games[game] += 1
    ended = record.get("ended_at")
    if ended is not None:
        built.first = ended if built.first is None else min(built.first, ended)
        built.last = ended if built.last is None else max(built.last, ended)


class Tables:
    """One Parquet writer per table, fed Arrow tables and written a row group at a time."""

    def __init__(self, folder: Path, shard: str) -> None:
        import pyarrow.parquet as pq

        self._writers = {}
        for name in TABLES:
            (folder / name).mkdir(parents=True)
            self._writers[name] = pq.ParquetWriter(folder / name / f"{shard}.parquet",
                                                   schema(name), compression="zstd")
        self._held: dict[str, list[Any]] = {name: [] for name in TABLES}
        self._holding: Counter[str] = Counter()
        self.counts: Counter[str] = Counter()

    def add(self, name: str, table: Any) -> None:
        """Hold ``table``'s rows; write them out once the table has a row group's worth."""
        self._held[name].append(table)
        self._holding[name] += table.num_rows
        if self._holding[name] >= ROW_GROUP:
            self._flush(name)

    def _flush(self, name: str) -> None:
        import pyarrow as pa

        if not self._held[name]:
            return
        table = pa.concat_tables(self._held[name]).combine_chunks()
        self._writers[name].write_table(table, row_group_size=max(table.num_rows, 1))
        self.counts[name] += table.num_rows
        self._held[name], self._holding[name] = [], 0

    def close(self) -> Counter[str]:
        for name in TABLES:
            self._flush(name)
            self._writers[name].close()
        return self.counts


def arrow_table(name: str, rows: list[tuple[Any, ...]]) -> Any:
    """``rows`` (tuples in :data:`COLUMNS`' order) of table ``name`` as an Arrow table."""
    import pyarrow as pa
    import pyarrow.compute as pc

    schema_ = schema(name)
    columns = {}
    # zip transposes in C; lists, since pyarrow reads them six times faster than tuples
    for spec, column in zip(schema_, zip(*rows, strict=True), strict=True):
        values = list(column)
        if pa.types.is_timestamp(spec.type):
            seconds = pa.array(values, type=pa.float64())
            columns[spec.name] = pc.cast(pc.round(pc.multiply(seconds, 1000)),
                                         pa.int64()).cast(spec.type)
        else:
            columns[spec.name] = pa.array(values, type=spec.type)
    return pa.Table.from_pydict(columns, schema=schema_)


def schema(table: str) -> Any:
    """The Arrow schema of ``table`` (from :data:`COLUMNS`)."""
    import pyarrow as pa

    types = {"string": pa.string(), "int32": pa.int32(), "int64": pa.int64(),
             "float64": pa.float64(), "bool": pa.bool_(),
             "timestamp": pa.timestamp("ms", tz="UTC"), "list<string>": pa.list_(pa.string())}
    return pa.schema([pa.field(name, types[kind]) for name, kind, _ in COLUMNS[table]])
