"""Active matchmaking: which pairing next narrows the intervals that matter most.

What matters is the top of the table: the order of its first ``top`` entries. Each adjacent
pair there is *resolved* once the 95% interval of their rating difference excludes 0 (one
is better) or lies within ±``tie`` (declared tied). The next game goes to the pair whose
result would shrink the variance of the unresolved differences most, per game (or per
dollar, given each entity's cost per game), in the manner of LMArena's active sampling.

The model: Bradley–Terry ratings with the covariance of the point fit (the inverse of the
Fisher information, on the centred scale). A game between i and j adds
w = p(1 − p) (xxᵀ), x = e_i − e_j, to the information; its effect on a difference u is
computed exactly by Sherman–Morrison, so choosing among all pairs costs O(n²) per game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Field:
    """Point ratings (n,) and their covariance (n, n) on the centred scale."""

    ratings: FloatArray
    covariance: FloatArray


def fit(wins: FloatArray, *, prior: float = 0.05, steps: int = 50) -> Field:
    """The Bradley–Terry point fit of a win matrix (``wins[i, j]``: i's wins over j, ties
    half each way) with a small Gaussian prior (so every rating is finite), and its
    covariance."""
    n = len(wins)
    games = wins + wins.T
    theta = np.zeros(n)
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # P(i beats j)
        grad = wins.sum(axis=1) - (games * p).sum(axis=1) - prior * theta
        info = _information(games, p, prior)
        step = np.linalg.solve(info, grad)
        theta += step
        if np.abs(step).max() < 1e-9:
            break
    theta -= theta.mean()
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    return Field(theta, np.asarray(np.linalg.inv(_information(games, p, prior)), np.float64))


def _information(games: FloatArray, p: FloatArray, prior: float) -> FloatArray:
    w = games * p * (1 - p)
    return np.diag(w.sum(axis=1)) - w + prior * np.eye(len(games))


def top_pairs(ratings: FloatArray, top: int) -> list[tuple[int, int]]:
    """The adjacent pairs of the first ``top`` entries (by rating), and the ``top``-th with
    the next (which decides who is in the top)."""
    order = np.argsort(-ratings, kind="stable")
    last = min(top, len(order) - 1)
    return [(int(order[k]), int(order[k + 1])) for k in range(last)]


def unresolved(found: Field, top: int, *, tie: float = 0.1) -> list[tuple[int, int]]:
    """The top's adjacent pairs whose difference is neither apart from 0 nor within ±tie."""
    out = []
    for i, j in top_pairs(found.ratings, top):
        diff = found.ratings[i] - found.ratings[j]
        c = found.covariance
        half = Z95 * float(np.sqrt(max(c[i, i] + c[j, j] - 2 * c[i, j], 0.0)))
        if not (diff - half > 0 or diff + half < 0 or (-tie < diff - half and diff + half < tie)):
            out.append((i, j))
    return out


def next_pairs(found: Field, games: int, *, top: int = 10, tie: float = 0.1,
               cost: Sequence[float] | None = None) -> list[tuple[int, int]]:
    """The next ``games`` pairings, chosen one after the other (each as if the one before
    had been played): the pair whose game most reduces the summed relative variance of the
    top's unresolved differences, per unit of ``cost`` (a pair costs the sum of its two
    entities' costs; every game costs 1 without it). Falls back to the top's adjacent pairs
    when everything there is resolved."""
    n = len(found.ratings)
    sigma = found.covariance.copy()
    theta = found.ratings
    targets = unresolved(found, top, tie=tie) or top_pairs(theta, top)
    u = np.zeros((len(targets), n))
    for k, (i, j) in enumerate(targets):
        u[k, i], u[k, j] = 1.0, -1.0
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))
    w = p * (1 - p)
    price = np.ones((n, n)) if cost is None else np.add.outer(cost, cost)
    rows, cols = np.triu_indices(n, 1)
    chosen = []
    for _ in range(games):
        us = u @ sigma  # (K, n): u_kᵀ Σ
        var = np.einsum("kn,kn->k", us, u)  # current variance of each difference
        spread = us[:, rows] - us[:, cols]  # u_kᵀ Σ x for every pair x = e_i − e_j
        xsx = sigma[rows, rows] + sigma[cols, cols] - 2 * sigma[rows, cols]
        gain = (w[rows, cols] * (spread ** 2 / np.maximum(var, 1e-12)[:, None])).sum(axis=0) \
            / (1 + w[rows, cols] * xsx)
        best = int(np.argmax(gain / price[rows, cols]))
        i, j = int(rows[best]), int(cols[best])
        chosen.append((i, j))
        x = np.zeros(n)
        x[i], x[j] = 1.0, -1.0
        sx = sigma @ x
        sigma -= w[i, j] * np.outer(sx, sx) / (1 + w[i, j] * (x @ sx))
    return chosen
