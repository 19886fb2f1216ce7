"""A real PostgreSQL server for the tests: Debian's ``postgresql`` binaries, a data directory
in a fresh temporary folder, listening on a free loopback port only.

initdb refuses to run as root, so as root the server runs as the ``postgres`` user
(``runuser -u postgres --``) with the folder handed to it; as anyone else it runs as that
user. ``running_postgres`` stops the server (``pg_ctl stop``, the one it started) and
removes the folder. ``database(server, name)`` creates an empty database and gives its URL.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)


@dataclass(frozen=True)
class PostgresServer:
    port: int
    folder: Path

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"


def binaries() -> Path | None:
    """Debian's PostgreSQL bin folder (the newest version installed), or None."""
    for folder in BIN_DIRS:
        if (folder / "initdb").exists() and (folder / "pg_ctl").exists():
            return folder
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_owner(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.geteuid() == 0 else command


@contextlib.contextmanager
def running_postgres() -> Iterator[PostgresServer]:
    found = binaries()
    if found is None:
        raise FileNotFoundError("Debian's postgresql is not installed (scripts/test.sh "
                                "installs it: apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="arena-pg-"))
    if os.geteuid() == 0:
        owner = pwd.getpwnam("postgres")
        os.chown(folder, owner.pw_uid, owner.pw_gid)
    data, port = folder / "data", _free_port()
    run = {"check": True, "capture_output": True, "text": True, "timeout": 120}
    try:
        subprocess.run(_as_owner([str(found / "initdb"), "-D", str(data), "-U", "postgres",
                                  "-A", "trust", "--no-sync", "-E", "UTF8"]), **run)
        _start(PostgresServer(port, folder))
    except subprocess.CalledProcessError as err:
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {err.stderr or err.stdout}") from None
    try:
        yield PostgresServer(port, folder)
    finally:
        subprocess.run(_as_owner([str(found / "pg_ctl"), "-D", str(data), "-m", "immediate",
                                  "-w", "stop"]), capture_output=True, timeout=60)
        shutil.rmtree(folder, ignore_errors=True)


def _start(server: PostgresServer) -> None:
    found, folder = binaries(), server.folder
    options = (f"-p {server.port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
               "-c full_page_writes=off -c synchronous_commit=off -c max_connections=60")
    subprocess.run(_as_owner([str(found / "pg_ctl"), "-D", str(folder / "data"), "-o", options,
                              "-l", str(folder / "server.log"), "-w", "-t", "60", "start"]),
                   check=True, capture_output=True, text=True, timeout=120)


@contextlib.contextmanager
def stopped(server: PostgresServer) -> Iterator[None]:
    """The server stopped (``pg_ctl stop -m fast``: connections are closed) for the block,
    then started again on the same port and data."""
    found = binaries()
    subprocess.run(_as_owner([str(found / "pg_ctl"), "-D", str(server.folder / "data"), "-m",
                              "fast", "-w", "stop"]), check=True, capture_output=True,
                   timeout=60)
    try:
        yield
    finally:
        _start(server)


def database(server: PostgresServer, name: str) -> str:
    """Create the empty database ``name`` and return its URL."""
    import psycopg

    with psycopg.connect(server.url(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    return server.url(name)
