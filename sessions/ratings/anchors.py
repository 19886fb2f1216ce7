"""Anchored ratings: the difficulty ladder's levels keep fixed ratings, so a number means the
same thing from one snapshot of the store to the next.

Without anchors every fit is centred (mean rating 0), and a rating moves whenever anyone
new is rated. With anchors (``sessions/ratings/anchors.json``, written by
``python -m scripts.anchors`` from a calibration run of the ladder's levels) each fit holds
the anchored entities at their calibrated ratings and fits only the others
(:func:`fit_fixed`): the same maximum of Ψ as :mod:`sessions.ratings.bradley_terry`,
restricted to the free ratings, with no centring. A table with no anchored entity in it is
fitted and centred as before.

The file: ``{"about": ..., "calibrated": ..., "overall": {entity: rating},
"games": {game: {entity: rating}}}``; a game's own table uses that game's anchors, the
overall table the ``overall`` ones.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from sessions.ratings.bradley_terry import (
    DEFAULT_ALPHA,
    POINT_STOP,
    STOP,
    FloatArray,
    _Problem,
    one_blas_thread,
)
from sessions.ratings.resample import Cells, Sample

Scope = tuple[tuple[str, float], ...]
"""An anchored scope: (entity, rating) pairs, sorted (hashable, for settings)."""
CHUNK = 256
"""Resamples solved at once."""


@dataclass(frozen=True)
class Anchors:
    """Fixed ratings per scope: ``overall`` and per game."""

    overall: Scope = ()
    games: tuple[tuple[str, Scope], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.overall or self.games)

    def scope(self, game: str | None) -> dict[str, float]:
        """The anchors of one game's table (``game``) or of the overall table (None)."""
        if game is None:
            return dict(self.overall)
        return dict(next((scope for g, scope in self.games if g == game), ()))

    @staticmethod
    def of(data: Mapping[str, Any], source: str = "anchors") -> Anchors:
        """Anchors from a decoded anchors file (checked: numbers, finite)."""
        def scope(table: Any, where: str) -> Scope:
            if not isinstance(table, dict):
                raise ValueError(f"{source}: {where} must map entities to ratings")
            pairs = []
            for entity, rating in table.items():
                if not isinstance(rating, int | float) or not np.isfinite(rating):
                    raise ValueError(f"{source}: {where}: {entity!r} needs a finite rating")
                pairs.append((str(entity), float(rating)))
            return tuple(sorted(pairs))

        games = data.get("games", {})
        if not isinstance(games, dict):
            raise ValueError(f"{source}: 'games' must map game ids to anchors")
        return Anchors(scope(data.get("overall", {}), "overall"),
                       tuple(sorted((str(g), scope(t, g)) for g, t in games.items())))

    def to_dict(self) -> dict[str, Any]:
        return {"overall": dict(self.overall), "games": {g: dict(s) for g, s in self.games}}


NONE = Anchors()


def load(path: Path | None = None) -> Anchors:
    """The anchors of ``path``, or the shipped ``sessions/ratings/anchors.json``."""
    if path is None:
        text = resources.files("sessions.ratings").joinpath("anchors.json").read_text("utf-8")
        source = "sessions/ratings/anchors.json"
    else:
        text, source = path.read_text("utf-8"), str(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ValueError(f"{source}: not JSON ({err})") from None
    return Anchors.of(data, source)


def fit_fixed(cells: Cells, sample: Sample, fixed: Mapping[int, float], *,
              alpha: float = DEFAULT_ALPHA, tol: float = STOP, max_iter: int = 200
              ) -> FloatArray:
    """Ratings (B, n) maximising Ψ with items ``fixed`` (index -> rating) held where they
    are: damped Newton steps on the free items only; nothing is centred."""
    n = cells.n_items
    free = np.array([i for i in range(n) if i not in fixed], np.int64)
    out = np.zeros((len(sample), n))
    for i, value in fixed.items():
        out[:, i] = value
    if not len(free):
        return out
    with one_blas_thread():
        for lo in range(0, len(sample), CHUNK):
            problem = _Problem.of(cells, sample.rows(lo, lo + CHUNK), alpha)
            out[lo:lo + CHUNK] = _solve(problem, out[lo:lo + CHUNK].copy(), free, tol,
                                        max_iter)
    return out


def fit_point_fixed(cells: Cells, fixed: Mapping[int, float], *,
                    alpha: float = DEFAULT_ALPHA) -> FloatArray:
    """The anchored fit on the whole weighted data (n,)."""
    return fit_fixed(cells, cells.expected(), fixed, alpha=alpha, tol=POINT_STOP)[0]


def _solve(problem: _Problem, theta: FloatArray, free: np.ndarray, tol: float,
           max_iter: int) -> FloatArray:
    grid = np.ix_(np.arange(len(theta)), free, free)
    for _ in range(max_iter):
        grad, curvature = problem.derivatives(theta)
        step = np.linalg.solve(curvature[grid], grad[:, free][..., None])[..., 0]
        size = np.abs(step).max(axis=1)
        value = problem.objective(theta)
        scale = np.minimum(1.0, 8.0 / np.maximum(size, 1e-300))
        for _ in range(60):  # shorten a step until Ψ does not fall (Ψ is concave)
            candidate = theta.copy()
            candidate[:, free] += scale[:, None] * step
            worse = problem.objective(candidate) < value - 1e-12 * np.abs(value)
            if not worse.any():
                break
            scale[worse] *= 0.5
        theta = candidate
        if size.max() < tol:
            return theta
    raise RuntimeError(f"anchored Bradley–Terry fit did not converge in {max_iter} steps")
