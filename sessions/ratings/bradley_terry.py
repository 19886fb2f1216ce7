"""Bradley–Terry and Plackett–Luce fits with bootstrap intervals, vectorised over resamples.

The model. Item *i* has a strength π_i = exp(θ_i). A two-seat match between *a* and *b*
with scores (s_a, s_b) in [0, 1] counts as s_a wins of *a* over *b* and s_b wins of *b*
over *a* (a draw is half a win each way), P(a beats b) = π_a / (π_a + π_b). An N-seat
match enters as its final standing under Plackett–Luce: the winner is chosen from all
seats, the runner-up from the rest, and so on, each choice with probability
π_chosen / Σ π_set. A two-seat comparison *is* a Plackett–Luce ranking of two, so both
kinds of match are Luce choices in one likelihood and share one scale. Seats tied in an
N-seat standing are each chosen from the set that still holds all of them (Breslow's rule
for ties), weighted so that a tie of the last k seats carries k − 1 choices, as an untied
ending would; for two seats this is exactly the half win each way of a draw.

Regularisation is choix's: its (I-)LSR Markov chain starts every transition rate at
``alpha``. The fixed point choix converges to maximises

    Ψ(θ) = log-likelihood(θ) + α·n·Σ_i (θ_i − e^{θ_i}),     n = number of items,

i.e. a Gamma(α·n, α·n) prior on each π_i (mean 1), reported centred (mean θ = 0). So an
agent that wins every match still gets a finite rating. :func:`fit_choix` computes it with
choix's public API (``lsr_pairwise_dense`` steps; N-seat choices enter as the comparison
counts that give the same chain) and is the reference; :func:`fit` solves the same
equations by damped Newton steps for a whole batch of resamples at once (vectorised over
the batch; tests hold the two to 1e-6).

Data and resamples come from :mod:`sessions.ratings.resample`.
"""

from __future__ import annotations

import choix
import numpy as np
import scipy.sparse as sp
from numpy.typing import NDArray
from scipy.special import expit, log_expit

from sessions.ratings.resample import Cells, ChoiceGroup, Sample, draw

DEFAULT_ALPHA = 0.01
FloatArray = NDArray[np.float64]


# --- the fast fitter: damped Newton on Ψ, a batch of resamples at once ---------------------

class _Problem:
    """Ψ for a batch of resamples, with what does not change between Newton steps."""

    def __init__(self, comparisons: FloatArray, choice_counts: tuple[FloatArray, ...],
                 groups: tuple[ChoiceGroup, ...], prior: float) -> None:
        self.comparisons = comparisons
        self.total = comparisons + comparisons.swapaxes(1, 2)  # games played per pair
        self.wins = comparisons.sum(axis=2)
        self.choice_counts = choice_counts
        self.groups = groups
        self.prior = prior  # α·n

    def objective(self, theta: FloatArray) -> FloatArray:
        diff = theta[:, :, None] - theta[:, None, :]
        value = (self.comparisons * log_expit(diff)).sum(axis=(1, 2))
        for group, kw in zip(self.groups, self.choice_counts, strict=True):
            t = theta[:, group.members]
            top = t.max(axis=2, keepdims=True)
            norm = np.log(np.exp(t - top).sum(axis=2)) + top[..., 0]
            chosen = np.take_along_axis(t, group.chosen[None, :, None].repeat(len(t), 0), 2)
            value += (kw * (chosen[..., 0] - norm)).sum(axis=1)
        return value + self.prior * (theta - np.exp(theta)).sum(axis=1)

    def newton_step(self, theta: FloatArray) -> FloatArray:
        n = theta.shape[1]
        diagonal = (slice(None), np.arange(n), np.arange(n))
        p = expit(theta[:, :, None] - theta[:, None, :])
        expected = self.total * p  # expected wins of i over j
        grad = self.wins - expected.sum(axis=2)
        expected *= p
        np.subtract(self.total * p, expected, out=expected)  # N p (1 − p)
        curvature = np.negative(expected, out=expected)
        curvature[diagonal] -= curvature.sum(axis=2)
        for group, kw in zip(self.groups, self.choice_counts, strict=True):
            g, h = _choice_derivatives(group, kw, theta, n)
            grad += g
            curvature += h
        pi = np.exp(theta)
        grad += self.prior * (1.0 - pi)
        curvature[diagonal] += self.prior * pi
        return np.linalg.solve(curvature, grad[..., None])[..., 0]


def _choice_derivatives(group: ChoiceGroup, kw: FloatArray, theta: FloatArray, n: int
                        ) -> tuple[FloatArray, FloatArray]:
    """Gradient and negative Hessian of the choice log-likelihood terms of one group."""
    batch = len(theta)
    events, size = group.members.shape
    t = theta[:, group.members]
    q = np.exp(t - t.max(axis=2, keepdims=True))
    q /= q.sum(axis=2, keepdims=True)
    onehot = np.zeros((events, size))
    onehot[np.arange(events), group.chosen] = 1.0
    per_seat = kw[..., None] * (onehot[None] - q)
    seats = sp.csr_matrix((np.ones(events * size), (np.arange(events * size),
                                                    group.members.ravel())),
                          shape=(events * size, n))
    grad = np.asarray(per_seat.reshape(batch, -1) @ seats)
    outer = kw[..., None, None] * (q[..., :, None] * (np.eye(size) - q[..., None, :]))
    rows = group.members[:, :, None].repeat(size, 2)
    cols = group.members[:, None, :].repeat(size, 1)
    cells = sp.csr_matrix((np.ones(events * size * size),
                           (np.arange(events * size * size), (rows * n + cols).ravel())),
                          shape=(events * size * size, n * n))
    hess = np.asarray(outer.reshape(batch, -1) @ cells).reshape(batch, n, n)
    return grad, hess


def fit(cells: Cells, sample: Sample, *, alpha: float = DEFAULT_ALPHA,
        start: FloatArray | None = None, tol: float = 1e-7, max_iter: int = 200,
        chunk_elements: int = 4_000_000) -> FloatArray:
    """Centred ratings for each resample in ``sample``: (B, n).

    ``start`` (n,), e.g. the fit on the whole data, speeds convergence. Resamples are
    solved in chunks that keep each (chunk, n, n) array near ``chunk_elements`` values.
    """
    _check_alpha(alpha)
    per_row = cells.n_items ** 2 + sum(g.members.size * g.members.shape[1] for g in cells.groups)
    chunk = max(1, chunk_elements // max(per_row, 1))
    if len(sample) > chunk:
        return np.concatenate([fit(cells, sample.rows(lo, lo + chunk), alpha=alpha, start=start,
                                   tol=tol, max_iter=max_iter, chunk_elements=chunk_elements)
                               for lo in range(0, len(sample), chunk)])
    n = cells.n_items
    problem = _Problem(sample.comparisons,
                       tuple(sample.standings[:, g.cell - len(cells.pair)] * g.weight
                             for g in cells.groups),
                       cells.groups, alpha * n)
    theta = np.zeros((len(sample), n)) if start is None \
        else np.repeat(_uncentre(start), len(sample), axis=0)
    for _ in range(max_iter):
        step = problem.newton_step(theta)
        size = np.abs(step).max()
        if size < tol:  # the last step is taken too: what is left is of order tol²
            theta = theta + step
            return theta - theta.mean(axis=1, keepdims=True)
        # Near the optimum a full step is safe (Ψ is concave); a long one may overshoot,
        # so there the step is halved, per resample, until Ψ does not fall.
        theta = theta + step if size <= _TRUSTED_STEP else _backtrack(problem, theta, step)
    raise RuntimeError(f"Bradley–Terry fit did not converge in {max_iter} Newton steps")


_TRUSTED_STEP = 0.5


def _backtrack(problem: _Problem, theta: FloatArray, step: FloatArray) -> FloatArray:
    value = problem.objective(theta)
    scale = np.ones(len(theta))
    for _ in range(60):
        candidate = theta + scale[:, None] * step
        worse = problem.objective(candidate) < value - 1e-12 * np.abs(value)
        if not worse.any():
            break
        scale[worse] *= 0.5
    return candidate


def _uncentre(theta: FloatArray) -> FloatArray:
    """Shift centred ratings to Ψ's own gauge, where Σ exp(θ) = n."""
    theta = np.atleast_2d(theta)
    n = theta.shape[1]
    top = theta.max(axis=1, keepdims=True)
    return theta - top - np.log(np.exp(theta - top).sum(axis=1, keepdims=True) / n)


def _check_alpha(alpha: float) -> None:
    if not alpha > 0:
        raise ValueError(f"alpha must be > 0 (got {alpha}) so that an agent that always wins "
                         "still gets a finite rating; e.g. 0.01")


# --- the reference: choix's public API ---------------------------------------------------

def fit_choix(cells: Cells, sample: Sample | None = None, *, alpha: float = DEFAULT_ALPHA,
              max_iter: int = 10_000, tol: float = 1e-10) -> FloatArray:
    """Centred ratings for one resample (the weighted data by default), via choix.

    Two-seat data is exactly ``choix.ilsr_pairwise_dense``. N-seat choices are added to the
    comparison matrix as the counts that give the same LSR transition rates at the current
    estimate (a choice of *w* from set S adds w·(π_w + π_l)/Σ_S π wins of w over each
    other l), and the loop repeats choix's ``lsr_pairwise_dense`` step to its fixed point.
    """
    _check_alpha(alpha)
    sample = cells.expected() if sample is None else sample
    base = sample.comparisons[0]
    if not cells.groups:
        return choix.ilsr_pairwise_dense(base, alpha=alpha, max_iter=max_iter, tol=tol)
    drawn = sample.standings[0]
    theta = np.zeros(cells.n_items)
    for _ in range(max_iter):
        new = choix.lsr_pairwise_dense(base + _choice_comparisons(cells, drawn, theta),
                                       alpha=alpha, initial_params=theta)
        if np.abs(new - theta).sum() < tol:
            return new
        theta = new
    raise RuntimeError(f"choix I-LSR did not converge in {max_iter} iterations")


def _choice_comparisons(cells: Cells, drawn: FloatArray, theta: FloatArray) -> FloatArray:
    n = cells.n_items
    weights = n * np.exp(theta - theta.max()) / np.exp(theta - theta.max()).sum()
    out = np.zeros((n, n))
    for group in cells.groups:
        kw = drawn[group.cell - len(cells.pair)] * group.weight
        total = weights[group.members].sum(axis=1)
        winners = group.members[np.arange(len(group.chosen)), group.chosen]
        for seat in range(group.members.shape[1]):
            losers = group.members[:, seat]
            np.add.at(out, (winners, losers),
                      kw * (weights[winners] + weights[losers]) / total)
    out[np.arange(n), np.arange(n)] = 0.0  # a seat "losing" to its own entity adds nothing
    return out


def fit_point(cells: Cells, *, alpha: float = DEFAULT_ALPHA) -> FloatArray:
    """The fit on the whole weighted data: choix's, or, should choix's iteration not converge
    (it has in every data set tried, separable ones included), the same fixed point by
    Newton steps from zero."""
    try:
        return fit_choix(cells, alpha=alpha)
    except RuntimeError:
        return fit(cells, cells.expected(), alpha=alpha)[0]


def bootstrap(cells: Cells, *, bootstrap: int, rng: np.random.Generator,
              alpha: float = DEFAULT_ALPHA) -> tuple[FloatArray, FloatArray]:
    """(fit on the weighted data, (B, n) fits on ``bootstrap`` resamples)."""
    point = fit_point(cells, alpha=alpha)
    return point, fit(cells, draw(cells, bootstrap, rng), alpha=alpha, start=point)


def win_probability(ratings: FloatArray) -> FloatArray:
    """P[i, j]: the model's probability that i beats j (½ on the diagonal)."""
    r = np.asarray(ratings, float)
    return expit(r[:, None] - r[None, :])
