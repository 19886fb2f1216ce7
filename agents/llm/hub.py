"""Bigger open models by choice: a GGUF file on the Hugging Face Hub, fetched on first use.

An opponents-file entry with ``provider = "local"``, ``hf_repo`` and ``hf_file`` is served by
llama.cpp like the packaged SmolLM2, from a copy downloaded with ``huggingface_hub`` into
``$ARENA_DATA_DIR/models/<repo>/`` the first time it is prepared (:mod:`agents.llm.prepare`),
with the download's progress on the page. Its size is asked first and a file past the entry's
``max_gigabytes`` (default :data:`DEFAULT_MAX_GIGABYTES`) is refused before anything is
fetched. The Hub's address is ``huggingface_hub``'s (``HF_ENDPOINT`` when set); the token, when
the repository needs one, is ``HF_TOKEN``. A Hub that cannot be reached is a clear error, and
the opponent stays unavailable with that reason.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agents.llm.config import Opponent, hub_folder

DEFAULT_MAX_GIGABYTES = 4.0


class HubError(RuntimeError):
    """The model file could not be had from the Hub; the message says why."""


def download(entry: Opponent, *, on_progress: Callable[[str], None]) -> Path:
    """Fetch ``entry``'s GGUF from the Hub into :func:`hub_folder`; its path.

    ``on_progress`` is told what is happening ("downloading X: 45% of 1,024 MB").
    """
    from huggingface_hub import hf_hub_download
    from huggingface_hub.errors import (
        EntryNotFoundError,
        GatedRepoError,
        HfHubHTTPError,
        LocalEntryNotFoundError,
        RepositoryNotFoundError,
    )

    repo, name = entry.hf_repo or "", entry.hf_file or ""
    cap = entry.max_gigabytes or DEFAULT_MAX_GIGABYTES
    folder = hub_folder(entry)
    where = f"{name} from the Hugging Face Hub repository {repo}"
    token = os.environ.get("HF_TOKEN") or None
    on_progress(f"asking the Hugging Face Hub for {name}")
    try:
        endpoint = os.environ.get("HF_ENDPOINT") or None  # read now, not at import
        info: Any = hf_hub_download(repo, name, local_dir=folder, token=token, dry_run=True,
                                    endpoint=endpoint)
        size = info.file_size
        if size is not None and size > cap * 1e9:
            raise HubError(f"{where} is {size / 1e9:.1f} GB, more than this entry allows "
                           f"(max_gigabytes = {cap:g}); raise it in the opponents file to "
                           "download it")
        path = hf_hub_download(repo, name, local_dir=folder, token=token, endpoint=endpoint,
                               tqdm_class=_progress_bar(name, on_progress))
    except (GatedRepoError, RepositoryNotFoundError) as err:
        raise HubError(f"cannot download {where}: the repository does not exist or needs a "
                       f"token with access (HF_TOKEN) ({type(err).__name__})") from None
    except LocalEntryNotFoundError:  # before its parent EntryNotFoundError
        raise HubError(f"cannot download {where}: the Hugging Face Hub could not be reached "
                       "(no network, or HF_HUB_OFFLINE is set)") from None
    except EntryNotFoundError:
        raise HubError(f"cannot download {where}: the repository has no such file") from None
    except HfHubHTTPError as err:
        raise HubError(f"cannot download {where}: the Hub answered {err}") from None
    except OSError as err:
        raise HubError(f"cannot download {where}: {err}") from None
    return Path(str(path))


def _progress_bar(name: str, on_progress: Callable[[str], None]) -> type:
    """A tqdm class that reports the download's progress in words."""
    from tqdm.auto import tqdm

    class Reporting(tqdm):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["disable"] = False
            kwargs["file"] = open(os.devnull, "w")  # noqa: SIM115 - closed with the bar
            super().__init__(*args, **kwargs)

        def update(self, n: float | None = 1) -> bool | None:
            shown = super().update(n)
            if self.total:
                on_progress(f"downloading {name}: {self.n / self.total:.0%} of "
                            f"{self.total / 1e6:,.0f} MB")
            return shown

        def close(self) -> None:
            handle = self.fp
            super().close()
            handle.close()

    return Reporting
