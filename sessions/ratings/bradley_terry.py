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
counts that give the same chain) and is the reference; :func:`fit` (and :func:`fit_point`,
the fit on the whole data) solves the same equations by damped Newton steps for a whole
batch of resamples at once (vectorised over the batch; tests hold the two to 1e-6). choix
is imported only by :func:`fit_choix`: its import (scipy.stats) alone took 0.8 s of the
command line's time.

How the batch is solved: each resample stops on its own once its step is small; identical
resamples are fitted once; resamples of large data first take steps with the whole data's
curvature (one inverse for all, a product per resample instead of a solve) while those
shrink fast; win probabilities come from strength ratios π_i / (π_i + π_j) (no exponential
per pair); a long Newton step is shortened and halved until Ψ does not fall, with e^θ never
evaluated where it would overflow. N-seat standings enter as Luce choice events over a
game's few entities, merged when equal (:class:`sessions.ratings.resample.ChoiceGroup`).

Data and resamples come from :mod:`sessions.ratings.resample`.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Iterator
from typing import Any

import numpy as np
from numpy.typing import NDArray

from sessions.ratings.resample import Cells, ChoiceGroup, Sample, draw

DEFAULT_ALPHA = 0.01
FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


# --- the fast fitter: damped Newton on Ψ, a batch of resamples at once ---------------------

@functools.cache
def _blas() -> Any:
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


@contextlib.contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the block with BLAS (OpenBLAS) on one thread. The fit's products and solves are
    small and many; on two busy cores OpenBLAS's second thread mostly waits, and a
    (256, 50) @ (50, 50) product costs 25 times the CPU it does on one thread."""
    with _blas().limit(limits=1, user_api="blas"):
        yield


_FAR = 600.0
"""Ratings further apart than this (never seen in practice) take the slower win
probability that cannot divide 0 by 0."""


def _probabilities(theta: FloatArray) -> FloatArray:
    """P[b, i, j] = π_i / (π_i + π_j): the model's probability that i beats j.

    Computed from π = exp(θ − max θ) with one addition and one division per pair (no
    exponential per pair: a Newton step's main cost after the solve)."""
    below = theta.max(axis=1, keepdims=True) - theta
    pi = np.exp(-below)
    total = pi[:, :, None] + pi[:, None, :]
    p = np.divide(pi[:, :, None], total, out=total)
    if below.max(initial=0.0) > _FAR:
        far = below.max(axis=1) > _FAR
        gap = theta[far, None, :] - theta[far, :, None]
        p[far] = 1.0 / (1.0 + np.exp(np.minimum(gap, _FAR)))
    return p


def _log_probabilities(theta: FloatArray) -> FloatArray:
    """log P[b, i, j], without overflow: −log(1 + e^(θ_j − θ_i))."""
    below = theta.max(axis=1, keepdims=True) - theta
    if below.max(initial=0.0) > _FAR:
        return -np.logaddexp(0.0, theta[:, None, :] - theta[:, :, None])
    pi = np.exp(-below)
    return -below[:, :, None] - np.log(pi[:, :, None] + pi[:, None, :])


class _Block:
    """One choice group's events as dense arrays over its own items (few: a game's)."""

    def __init__(self, group: ChoiceGroup) -> None:
        self.items = group.items
        self.counts = group.counts  # (M, k)
        self.chosen = group.chosen
        self.onehot = group.onehot
        self.outer = group.outer

    def terms(self, theta: FloatArray, kw: FloatArray, *, hessian: bool = True
              ) -> tuple[FloatArray, FloatArray | None]:
        """Gradient (B, k) and negative Hessian (B, k, k) of the events' log-likelihood
        over the block's items. With q_mi = c_mi·π_i / S_m, S_m = Σ_i c_mi·π_i:
        gradient Σ_m kw_m (δ_i,chosen − q_mi), curvature Σ_m kw_m (diag q_m − q_m q_mᵀ)."""
        t = theta[:, self.items]
        e = np.exp(t - t.max(axis=1, keepdims=True))
        total = np.maximum(e @ self.counts.T, _TINY)  # (·, M)
        rate = kw / total
        load = rate @ self.counts  # Σ_m kw_m c_mi / S_m
        grad = kw @ self.onehot - e * load
        if not hessian:
            return grad, None
        k = len(self.items)
        pair = ((rate / total) @ self.outer).reshape(-1, k, k)
        curvature = -(e[:, :, None] * e[:, None, :]) * pair
        curvature.reshape(-1, k * k)[:, ::k + 1] += e * load
        return grad, curvature

    def log_likelihood(self, theta: FloatArray, kw: FloatArray) -> FloatArray:
        t = theta[:, self.items]
        top = t.max(axis=1, keepdims=True)
        total = np.maximum(np.exp(t - top) @ self.counts.T, _TINY)
        return (kw * ((t - top)[:, self.chosen] - np.log(total))).sum(axis=1)


_TINY = 1e-300  # a choice set whose items all lie 690 below the best: never an iterate


class _Problem:
    """Ψ for a batch of resamples, with what does not change between Newton steps."""

    def __init__(self, comparisons: FloatArray, choice_counts: tuple[FloatArray, ...],
                 blocks: tuple[_Block, ...], prior: float,
                 total: FloatArray | None = None, wins: FloatArray | None = None) -> None:
        n = comparisons.shape[1]
        self.comparisons = comparisons
        # games played per pair, and wins per item
        self.total = comparisons + comparisons.swapaxes(1, 2) if total is None else total
        self.wins = comparisons @ np.ones(n) if wins is None else wins
        self.choice_counts = choice_counts  # per block: each event's weight (B, M)
        self.blocks = blocks
        self.prior = prior  # α·n

    @staticmethod
    def of(cells: Cells, sample: Sample, alpha: float,
           blocks: tuple[_Block, ...] | None = None) -> _Problem:
        blocks = tuple(_Block(g) for g in cells.groups) if blocks is None else blocks
        return _Problem(sample.comparisons,
                        tuple(g.event_weights(sample.standings, len(cells.pair))
                              for g in cells.groups), blocks, alpha * cells.n_items)

    def rows(self, index: IntArray) -> _Problem:
        """The same problem for some of the resamples only."""
        return _Problem(self.comparisons[index], tuple(kw[index] for kw in self.choice_counts),
                        self.blocks, self.prior, self.total[index], self.wins[index])

    def objective(self, theta: FloatArray) -> FloatArray:
        value = (self.comparisons * _log_probabilities(theta)).sum(axis=(1, 2))
        for block, kw in zip(self.blocks, self.choice_counts, strict=True):
            value += block.log_likelihood(theta, kw)
        # e^θ is capped where it would overflow: such a θ is far below the optimum anyway
        return value + self.prior * (theta - np.exp(np.minimum(theta, _EXP_CAP))).sum(axis=1)

    def newton_step(self, theta: FloatArray) -> FloatArray:
        grad, curvature = self.derivatives(theta)
        return np.asarray(np.linalg.solve(curvature, grad[..., None])[..., 0], np.float64)

    def derivatives(self, theta: FloatArray) -> tuple[FloatArray, FloatArray]:
        """The gradient of Ψ (B, n) and its negative Hessian (B, n, n)."""
        n = theta.shape[1]
        ones = np.ones(n)
        p = _probabilities(theta)
        expected = self.total * p  # expected wins of i over j
        grad = self.wins - expected @ ones  # (row sums: a product beats .sum on short rows)
        p *= expected
        curvature = np.subtract(p, expected, out=p)  # −N p (1 − p) off the diagonal
        diagonal = curvature.reshape(len(theta), n * n)[:, ::n + 1]  # a view
        diagonal -= curvature @ ones
        for block, kw in zip(self.blocks, self.choice_counts, strict=True):
            g, h = block.terms(theta, kw)
            grad[:, block.items] += g
            curvature[:, block.items[:, None], block.items[None, :]] += h
        pi = np.exp(np.minimum(theta, _EXP_CAP))
        grad += self.prior * (1.0 - pi)
        diagonal += self.prior * pi
        return grad, curvature

    def gradient(self, theta: FloatArray) -> FloatArray:
        """The gradient of Ψ alone (B, n): a third of :meth:`derivatives`' work.

        Expected wins of i are π_i Σ_j N_ij / (π_i + π_j): three passes over (B, n, n)."""
        below = theta.max(axis=1, keepdims=True) - theta
        if below.max(initial=0.0) > _FAR:
            p = _probabilities(theta)
            p *= self.total
            grad = self.wins - p @ np.ones(theta.shape[1])
        else:
            pi = np.exp(-below)
            rates = pi[:, :, None] + pi[:, None, :]
            np.divide(self.total, rates, out=rates)
            grad = self.wins - pi * (rates @ np.ones(theta.shape[1]))
        for block, kw in zip(self.blocks, self.choice_counts, strict=True):
            grad[:, block.items] += block.terms(theta, kw, hessian=False)[0]
        return grad + self.prior * (1.0 - np.exp(np.minimum(theta, _EXP_CAP)))

    def gradient_at(self, point: FloatArray) -> FloatArray:
        """Every resample's gradient of Ψ at one ``point`` (n,): cheaper than
        :meth:`derivatives`, as the win probabilities are shared."""
        p = _probabilities(point[None])[0]
        grad = self.wins - (self.total * p) @ np.ones(len(point))
        for block, kw in zip(self.blocks, self.choice_counts, strict=True):
            grad[:, block.items] += block.terms(point[None], kw, hessian=False)[0]
        return grad + self.prior * (1.0 - np.exp(np.minimum(point, _EXP_CAP)))


_EXP_CAP = 500.0


STOP = 1e-5
"""A resample's fit stops once its Newton step is this small, the step taken: Newton
converges quadratically, so what is left is of order STOP² (1e-10), far below anything
printed. The fit on the whole data runs to :data:`POINT_STOP`."""
POINT_STOP = 1e-10


def fit(cells: Cells, sample: Sample, *, alpha: float = DEFAULT_ALPHA,
        start: FloatArray | None = None, tol: float = STOP, max_iter: int = 200,
        chunk_elements: int = 150_000) -> FloatArray:
    """Centred ratings for each resample in ``sample``: (B, n).

    ``start`` — (n,), e.g. the fit on the whole data, or (B, n), one per resample — speeds
    convergence; the answer is the same to the fit's precision (about 1e-9). Identical resamples are fitted once. Each
    resample stops on its own (the batch shrinks as resamples converge), and resamples are
    solved in chunks that keep each (chunk, n, n) array near ``chunk_elements`` values.
    """
    _check_alpha(alpha)
    with one_blas_thread():
        return _fit(cells, sample, alpha, start, tol, max_iter, chunk_elements)


def _fit(cells: Cells, sample: Sample, alpha: float, start: FloatArray | None, tol: float,
         max_iter: int, chunk_elements: int) -> FloatArray:
    n = cells.n_items
    starts = np.zeros((1, n)) if start is None else _uncentre(start)
    distinct = _distinct(sample)
    if distinct is not None:
        first, inverse = distinct
        sample = sample.take(first)
        starts = starts if len(starts) == 1 else starts[first]
    per_row = n ** 2 + sum(g.counts.size * g.counts.shape[1] for g in cells.groups)
    chunk = max(_FEWEST_ROWS, chunk_elements // max(per_row, 1))
    out = np.empty((len(sample), n))
    centre = starts[0] if len(starts) == 1 else _uncentre(starts.mean(axis=0))[0]
    blocks = tuple(_Block(g) for g in cells.groups)
    shared = _shared_inverse(cells, centre, alpha, blocks) if len(sample) > 1 else None
    for lo in range(0, len(sample), chunk):
        part = sample.rows(lo, lo + chunk)
        problem = _Problem.of(cells, part, alpha, blocks)
        theta = np.repeat(starts, len(part), axis=0) if len(starts) == 1 \
            else starts[lo:lo + chunk].copy()
        done = np.zeros(len(part), bool)
        if shared is not None:
            done = _chord(problem, theta, shared, same_start=len(starts) == 1)
        rest = np.flatnonzero(~done)
        if len(rest) == len(part):
            theta = _solve(problem, theta, tol, max_iter)
        elif len(rest):
            theta[rest] = _solve(problem.rows(rest), theta[rest], tol, max_iter)
        out[lo:lo + len(part)] = theta
    out -= out.mean(axis=1, keepdims=True)
    return out if distinct is None else out[distinct[1]]


def _shared_inverse(cells: Cells, start: FloatArray, alpha: float,
                    blocks: tuple[_Block, ...]) -> FloatArray:
    """The inverse negative Hessian of Ψ on the whole weighted data at ``start``: what every
    resample's first step shares (resamples average to that data)."""
    problem = _Problem.of(cells, cells.expected(), alpha, blocks)
    return np.linalg.inv(problem.derivatives(start[None])[1][0])


_CHORD_STEPS = 12
_CHORD_RATE = 0.4
_CHORD_REACH = 4.0
_CHORD_ACCURACY = 1e-8


def _chord(problem: _Problem, theta: FloatArray, inverse: FloatArray, *, same_start: bool
           ) -> NDArray[np.bool_]:
    """Steps with the shared curvature ``inverse`` (computed once, a product per resample
    instead of a solve), in place on ``theta``; the rows they brought to the fixed point.

    Resamples of a large data set lie close to the whole data's fit, where every resample's
    curvature is nearly the shared one: each such step then cuts the distance to the fixed
    point by a factor ρ of 10 or more, for a tenth of a Newton step's cost. A row stays
    while its steps shrink by :data:`_CHORD_RATE` or faster, and is done once the distance
    left (about step·ρ/(1 − ρ)) is below :data:`_CHORD_ACCURACY`; the others go on by
    Newton steps from their last point. From one shared start (``same_start``) the first
    step shares the win probabilities too."""
    grad = problem.gradient_at(theta[0].copy()) if same_start else problem.gradient(theta)
    step = grad @ inverse  # the inverse is symmetric
    size = np.abs(step).max(axis=1)
    near = size <= _CHORD_REACH  # a longer first step may land anywhere: Newton there
    theta[near] += step[near]
    done = np.zeros(len(theta), bool)
    rows = np.flatnonzero(near)
    previous = size[near]
    sub = problem.rows(rows) if len(rows) < len(theta) else problem
    for _ in range(_CHORD_STEPS):
        if not len(rows):
            break
        step = sub.gradient(theta[rows]) @ inverse
        size = np.abs(step).max(axis=1)
        rate = size / np.maximum(previous, 1e-300)
        fast = rate <= _CHORD_RATE
        theta[rows[fast]] += step[fast]
        finished = fast & (size * rate < _CHORD_ACCURACY * (1.0 - rate))
        done[rows[finished]] = True
        keep = np.flatnonzero(fast & ~finished)
        if len(keep) < len(rows):
            sub, rows = sub.rows(keep), rows[keep]
        previous = size[keep]
    return done


_TRUSTED_STEP = 0.5
_LONGEST_STEP = 8.0
_FEWEST_ROWS = 256  # per chunk: fewer and numpy's per-call cost outweighs the cache's gain


def _solve(problem: _Problem, theta: FloatArray, tol: float, max_iter: int) -> FloatArray:
    """Newton steps until each row's step is below ``tol`` (that last step taken).

    Near the optimum a full step is safe (Ψ is concave); a long one may overshoot, so there
    the step is shortened to at most :data:`_LONGEST_STEP` and halved, per resample, until Ψ
    does not fall. Rows that converged leave the batch once a quarter of it has."""
    rows = np.arange(len(theta))  # the problem's rows, as rows of theta
    live = np.ones(len(rows), bool)
    for _ in range(max_iter):
        here = theta[rows]
        step = problem.newton_step(here)
        size = np.abs(step).max(axis=1)
        new = here + step
        far = live & (size > _TRUSTED_STEP)
        if far.any():
            new[far] = _backtrack(problem.rows(np.flatnonzero(far)), here[far], step[far],
                                  size[far])
        theta[rows[live]] = new[live]
        live &= size >= tol
        if not live.any():
            return theta
        if live.sum() <= 0.75 * len(rows):
            keep = np.flatnonzero(live)
            problem, rows, live = problem.rows(keep), rows[keep], np.ones(len(keep), bool)
    raise RuntimeError(f"Bradley–Terry fit did not converge in {max_iter} Newton steps")


def _backtrack(problem: _Problem, theta: FloatArray, step: FloatArray, size: FloatArray
               ) -> FloatArray:
    value = problem.objective(theta)
    scale = np.minimum(1.0, _LONGEST_STEP / size)
    for _ in range(60):
        candidate = theta + scale[:, None] * step
        worse = problem.objective(candidate) < value - 1e-12 * np.abs(value)
        if not worse.any():
            break
        scale[worse] *= 0.5
    return candidate


def _distinct(sample: Sample) -> tuple[IntArray, IntArray] | None:
    """(first row of each distinct resample, which distinct resample each row is), or None
    when all differ. Small games drawn many times repeat resamples often (17 matches over a
    handful of outcomes), and one fit serves every copy."""
    b = len(sample)
    if b < 2:
        return None
    flat = sample.comparisons.reshape(b, -1)
    probe = np.random.default_rng(0).random(flat.shape[1] + sample.standings.shape[1])
    key = flat @ probe[:flat.shape[1]] + sample.standings @ probe[flat.shape[1]:]
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    if len(first) == b:
        return None
    inverse = inverse.ravel()
    same = (np.array_equal(flat[first][inverse], flat)
            and np.array_equal(sample.standings[first][inverse], sample.standings))
    if not same:  # two different resamples met on the probe: compare them whole
        whole = np.concatenate([flat, sample.standings], axis=1)
        _, first, inverse = np.unique(whole, axis=0, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
    return (first, inverse) if len(first) < b else None


def _uncentre(theta: FloatArray) -> FloatArray:
    """Shift centred ratings to Ψ's own gauge, where Σ exp(θ) = n."""
    theta = np.atleast_2d(np.asarray(theta, float))
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
    import choix  # the reference only: importing it costs 0.8 s (scipy.stats)

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
        kw = group.event_weights(drawn[None, :], len(cells.pair))[0]
        mine = weights[group.items]
        total = group.counts @ mine
        winners = group.items[group.chosen]
        for j, item in enumerate(group.items):  # c_j seats of item j "lose" to the winner
            np.add.at(out, (winners, np.full(len(winners), item)),
                      kw * group.counts[:, j] * (mine[group.chosen] + mine[j]) / total)
    out[np.arange(n), np.arange(n)] = 0.0  # a seat "losing" to its own entity adds nothing
    return out


def fit_point(cells: Cells, *, alpha: float = DEFAULT_ALPHA,
              start: FloatArray | None = None) -> FloatArray:
    """The fit on the whole weighted data: choix's fixed point (tests hold the two to 1e-6;
    :func:`fit_choix` computes it with choix itself), by Newton steps to full precision
    from zero or from ``start`` (an earlier fit: fewer steps, the same answer)."""
    return fit(cells, cells.expected(), alpha=alpha, start=start, tol=POINT_STOP)[0]


def bootstrap(cells: Cells, *, bootstrap: int, rng: np.random.Generator,
              alpha: float = DEFAULT_ALPHA) -> tuple[FloatArray, FloatArray]:
    """(fit on the weighted data, (B, n) fits on ``bootstrap`` resamples)."""
    point = fit_point(cells, alpha=alpha)
    return point, fit(cells, draw(cells, bootstrap, rng), alpha=alpha, start=point)


def win_probability(ratings: FloatArray) -> FloatArray:
    """P[i, j]: the model's probability that i beats j (½ on the diagonal)."""
    r = np.asarray(ratings, float)
    return 0.5 * (1.0 + np.tanh((r[:, None] - r[None, :]) / 2))  # the logistic, overflow-free
