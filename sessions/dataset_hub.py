"""Publishing the dataset on the Hugging Face Hub: once (``python -m sessions dataset OUT
--push REPO_ID``, ``--dry-run`` to see what would go) or on a schedule from the running app
(``ARENA_DATASET_REPO``; every ``ARENA_DATASET_EVERY`` minutes, 60 by default).

A scheduled push rebuilds the whole dataset from the store and uploads it as the store's own
shard (``data/<table>/<shard>.parquet``, the shard's name kept beside the store): a person
who asked to be forgotten is gone from the next push, and a Space whose disk is wiped on a
restart starts a new shard while the old ones stay published, so at most one interval of
games is lost. The token is ``HF_TOKEN``; the upload goes through ``huggingface_hub``.
"""

from __future__ import annotations

import logging
import os
import secrets
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO_ENV = "ARENA_DATASET_REPO"
EVERY_ENV = "ARENA_DATASET_EVERY"
DEFAULT_MINUTES = 60.0
SHARD_FILE = "dataset-shard"
_log = logging.getLogger(__name__)


class PushError(ValueError):
    """The dataset cannot be pushed (no token, a bad repo id, the Hub refused or is away)."""


@dataclass(frozen=True)
class Upload:
    """What a push sends: the folder's files (path in the repo, bytes) to a dataset repo."""

    repo_id: str
    folder: Path
    files: tuple[tuple[str, int], ...]

    def describe(self) -> str:
        total = sum(size for _, size in self.files)
        lines = [f"would push {len(self.files)} files ({total / 2**20:.1f} MiB) to the "
                 f"Hugging Face dataset {self.repo_id} (https://huggingface.co/datasets/"
                 f"{self.repo_id}):"]
        lines += [f"  {path}  {size:,} bytes" for path, size in self.files]
        return "\n".join(lines)


def plan_upload(folder: Path, repo_id: str) -> Upload:
    """The upload of ``folder`` to ``repo_id`` (checked: a valid ``owner/name``)."""
    check_repo_id(repo_id)
    files = tuple(sorted((str(p.relative_to(folder)), p.stat().st_size)
                         for p in folder.rglob("*") if p.is_file()))
    return Upload(repo_id, folder, files)


def check_repo_id(repo_id: str) -> None:
    """Refuse a dataset repo id the Hub would refuse (PushError saying why)."""
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    try:
        validate_repo_id(repo_id)
    except HFValidationError as err:
        raise PushError(f"--push {repo_id!r}: {err}") from None
    if "/" not in repo_id:
        raise PushError(f"--push {repo_id!r}: give the dataset as OWNER/NAME")


def push(upload: Upload, *, token: str | None, api: Any = None) -> str:
    """Create the dataset repo if needed and upload the folder in one commit; returns the
    commit's address. ``api``: an ``HfApi`` (made with ``token`` when None)."""
    if not token:
        raise PushError("set HF_TOKEN to a Hugging Face token with write access to push")
    from huggingface_hub import HfApi

    hub = api if api is not None else HfApi(token=token)
    try:
        hub.create_repo(upload.repo_id, repo_type="dataset", exist_ok=True, token=token)
        info = hub.upload_folder(repo_id=upload.repo_id, folder_path=upload.folder,
                                 repo_type="dataset", token=token,
                                 commit_message="LLM Game Arena dataset update")
    except Exception as err:  # the Hub's HTTP errors, connection errors, timeouts
        from agents.llm.redaction import redact

        first = (str(err).strip().splitlines() or [type(err).__name__])[0]
        raise PushError(f"pushing to {upload.repo_id} failed: {redact(first, [token])}") \
            from None
    return str(getattr(info, "commit_url", info))


def shard_of(data_dir: Path) -> str:
    """This store's shard name, kept in the data directory (made on first use)."""
    path = data_dir / SHARD_FILE
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        path.write_text("store-" + secrets.token_hex(6))
    return path.read_text().strip()


class Publisher:
    """Rebuilds and pushes the dataset every ``minutes`` on a daemon thread."""

    def __init__(self, repo_id: str, *, data_dir: Path, minutes: float,
                 store: str | Path | None = None, token: str | None = None,
                 api: Any = None) -> None:
        if minutes <= 0:
            raise ValueError(f"{EVERY_ENV} must be a positive number of minutes")
        self.repo_id, self.data_dir, self.seconds = repo_id, data_dir, minutes * 60
        self.store, self.token, self.api = store, token, api
        self._stop = threading.Event()
        self.thread: threading.Thread | None = None

    def publish_once(self) -> str:
        """Build the dataset into ``<data dir>/dataset`` and push it; the commit's address."""
        from sessions.dataset import build, salt_for
        from sessions.store import Store

        folder = self.data_dir / "dataset"
        with Store(self.store, readonly=True) as store:
            built = build(store, folder, salt=salt_for(self.data_dir),
                          shard=shard_of(self.data_dir))
        _log.info("%s", built.note())
        return push(plan_upload(folder, self.repo_id), token=self.token, api=self.api)

    def start(self) -> None:
        self.thread = threading.Thread(target=self._run, name="dataset-push", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.seconds):
            try:
                _log.info("dataset pushed: %s", self.publish_once())
            except Exception as err:  # a failed push waits for the next interval
                _log.warning("dataset push to %s failed: %s", self.repo_id, err)


def start_from_env() -> Publisher | None:
    """The app's scheduled pushes, when ``ARENA_DATASET_REPO`` is set (else None)."""
    repo = os.environ.get(REPO_ENV, "").strip()
    if not repo:
        return None
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        _log.warning("%s is set but pyarrow is not installed (pip install "
                     "'llm-game-arena[dataset]'): the dataset is not pushed", REPO_ENV)
        return None
    try:
        minutes = float(os.environ.get(EVERY_ENV) or DEFAULT_MINUTES)
        publisher = Publisher(repo, data_dir=Path(os.environ.get("ARENA_DATA_DIR", "data")),
                              minutes=minutes, token=os.environ.get("HF_TOKEN"))
    except ValueError as err:
        _log.warning("the dataset is not pushed: %s", err)
        return None
    publisher.start()
    return publisher
