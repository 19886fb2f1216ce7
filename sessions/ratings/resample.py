"""Matches as cells (their distinct outcomes) and bootstrap resamples of the cells.

Matches that are indistinguishable to the fit (same items, same scores, same
stratum) are collapsed into *cells* carrying the summed weights of their matches, so a
resample costs the number of distinct outcomes, not the number of matches. With one
stratum a resample is one multinomial draw of n matches over the cells with probability
proportional to their weights: GameBench's bootstrap (weights 1/N_game). With strata
(games), each stratum's n_s matches are redrawn within it and scaled so that the stratum
keeps its share of the total weight: a stratified bootstrap. Both average to the same
weighted data (:meth:`Cells.expected`), so the fit on the whole data is the same. Strata of
:data:`BAYESIAN_FROM` matches or more get Bayesian-bootstrap weights instead of counts.

A two-seat match is a pair of items with their shares of a win; an N-seat match is its
standing, expanded into Luce choices (:func:`choices`; ties by Breslow's rule).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]


@dataclass(frozen=True)
class Scatter:
    """Adds the columns of a (B, M) array into the columns ``targets[m]`` of a (B, width) one:
    a sparse matrix product. Small products go through ``np.add.reduceat`` over runs of equal
    targets (cells come sorted by pair, so their targets usually run together already);
    large ones through scipy.sparse, about ten times faster there, imported only then: the
    import alone (0.15 s) would be a sixth of the command line's whole GameBench run."""

    targets_all: IntArray  # (M,) the target of every column
    order: IntArray | None  # columns in target order; None when they already run together
    starts: IntArray  # where each target's run begins (in ``order``)
    targets: IntArray  # each run's target, all different
    width: int

    @staticmethod
    def of(targets: IntArray, width: int) -> Scatter:
        targets = np.asarray(targets, np.int64).ravel()
        starts = _runs(targets)
        if len(np.unique(targets[starts])) == len(starts):
            return Scatter(targets, None, starts, targets[starts], width)
        order = np.argsort(targets, kind="stable")
        starts = _runs(targets[order])
        return Scatter(targets, order, starts, targets[order][starts], width)

    def add(self, values: FloatArray, out: FloatArray) -> FloatArray:
        """``out[:, t] += Σ values[:, m]`` over the m with ``targets[m] == t``; returns out."""
        if not len(self.starts):
            return out
        if values.size >= _SPARSE_FROM:
            out += values @ self._matrix
            return out
        ordered = values if self.order is None else values[:, self.order]
        out[:, self.targets] += np.add.reduceat(ordered, self.starts, axis=1)
        return out

    @functools.cached_property
    def _matrix(self) -> Any:
        import scipy.sparse as sp

        m = len(self.targets_all)
        return sp.csr_matrix((np.ones(m), (np.arange(m), self.targets_all)),
                             shape=(m, self.width))


_SPARSE_FROM = 200_000
"""Values per product from which :class:`Scatter` uses scipy.sparse."""


def _runs(values: IntArray) -> IntArray:
    """Where each run of equal values begins."""
    if not len(values):
        return np.zeros(0, np.int64)
    return np.flatnonzero(np.r_[True, values[1:] != values[:-1]])


@dataclass(frozen=True)
class ChoiceGroup:
    """The Luce choice events of N-seat standings over a few ``items`` (one game's).

    An event is a choice set, written as how many of its seats each item holds
    (``counts``), and the item chosen: the winner is chosen with probability
    π_w / Σ_i counts_i·π_i, the same as seat by seat (seats of one item share its π). Equal
    events of different standings, or of tied seats, are one event; ``cell``, ``event``
    and ``weight`` list which standing cell adds how much weight (Breslow weights for
    ties) to which event, so a resample's standing counts give each event's weight."""

    items: IntArray  # (k,) the items the events involve
    counts: FloatArray  # (M, k) seats of each item in each event's choice set
    chosen: IntArray  # (M,) position in ``items`` of the item chosen
    cell: IntArray  # (T,) standing cell ...
    event: IntArray  # (T,) ... adds to this event ...
    weight: FloatArray  # (T,) ... this much per draw of the cell

    def event_weights(self, standings: FloatArray, offset: int) -> FloatArray:
        """Each event's weight (B, M) from standing-cell counts (B, R); cell c is column
        c − ``offset``."""
        values = standings[:, self.cell - offset] * self.weight
        return self._scatter.add(values, np.zeros((len(standings), len(self.counts))))

    @functools.cached_property
    def _scatter(self) -> Scatter:
        return Scatter.of(self.event, len(self.counts))

    @functools.cached_property
    def onehot(self) -> FloatArray:
        """(M, k): 1 at each event's chosen item."""
        out = np.zeros(self.counts.shape)
        out[np.arange(len(self.chosen)), self.chosen] = 1.0
        return out

    @functools.cached_property
    def outer(self) -> FloatArray:
        """(M, k·k): counts_i·counts_j of each event (for the curvature)."""
        m, k = self.counts.shape
        return (self.counts[:, :, None] * self.counts[:, None, :]).reshape(m, k * k)

    def placed(self, items: IntArray, offset: int) -> ChoiceGroup:
        """The same events with items renamed (``items[i]``) and cells moved by ``offset``
        (what was worked out from the events alone comes along)."""
        moved = ChoiceGroup(items[self.items], self.counts, self.chosen, self.cell + offset,
                            self.event, self.weight)
        for name in ("_scatter", "onehot", "outer"):
            if name in self.__dict__:
                moved.__dict__[name] = self.__dict__[name]
        return moved


@dataclass(frozen=True)
class Cells:
    """The distinct outcomes of a set of matches and their summed weights.

    The first ``len(pair)`` cells are two-seat outcomes: ``pair[k] = (a, b)`` scored
    ``share[k] = (s_a, s_b)``. The rest are N-seat standings, expanded into ``groups``.
    ``stratum[c]`` is the cell's stratum (game) and ``strata[s]`` that stratum's matches.
    """

    n_items: int
    pair: IntArray  # (K, 2)
    share: FloatArray  # (K, 2)
    groups: tuple[ChoiceGroup, ...]
    weight: FloatArray  # (cells,)
    stratum: IntArray  # (cells,)
    strata: IntArray  # (S,)

    @property
    def matches(self) -> int:
        """The size of each resample: every match once."""
        return int(self.strata.sum())

    @property
    def n_cells(self) -> int:
        return len(self.weight)

    @functools.cached_property
    def _scatters(self) -> dict[bytes, tuple[Scatter, Scatter, FloatArray, FloatArray]]:
        return {}

    @functools.cached_property
    def _matrices(self) -> dict[bytes, Any]:
        return {}

    def comparisons(self, counts: FloatArray, cells: IntArray | None = None, *,
                    out: FloatArray | None = None) -> FloatArray:
        """Flattened comparison matrices (B, n·n) from counts (B, len(cells)) of two-seat
        ``cells`` (default: all of them): C[a, b] += count·s_a, C[b, a] += count·s_b; added
        into ``out`` when given. Large batches take one sparse product (see
        :class:`Scatter` for why scipy.sparse is imported only then)."""
        n = self.n_items
        cells = np.arange(len(self.pair)) if cells is None else cells
        out = np.zeros((len(counts), n * n)) if out is None else out
        key = cells.tobytes()  # one entry per stratum: its cells are drawn again and again
        a, b = self.pair[cells, 0], self.pair[cells, 1]
        if counts.size >= _SPARSE_FROM:
            if key not in self._matrices:
                import scipy.sparse as sp

                k = np.arange(len(cells))
                self._matrices[key] = sp.csr_matrix(
                    (np.concatenate([self.share[cells, 0], self.share[cells, 1]]),
                     (np.concatenate([k, k]), np.concatenate([a * n + b, b * n + a]))),
                    shape=(len(cells), n * n))
            out += counts @ self._matrices[key]
            return out
        if key not in self._scatters:
            self._scatters[key] = (Scatter.of(a * n + b, n * n), Scatter.of(b * n + a, n * n),
                                   self.share[cells, 0], self.share[cells, 1])
        forward, backward, share_a, share_b = self._scatters[key]
        forward.add(counts * share_a, out)
        return backward.add(counts * share_b, out)

    def expected(self) -> Sample:
        """The weighted data itself, scaled to ``matches``: what every resample averages to."""
        return self.sample(self.matches * self.weight[None, :] / self.weight.sum())

    def sample(self, counts: FloatArray) -> Sample:
        """The fit's view of cell counts (B, cells): comparison matrices and standing counts."""
        counts = np.atleast_2d(np.asarray(counts, float))
        k, n = len(self.pair), self.n_items
        return Sample(self.comparisons(counts[:, :k]).reshape(len(counts), n, n), counts[:, k:])


@dataclass(frozen=True)
class Sample:
    """Data as the fit reads it, for B resamples at once."""

    comparisons: FloatArray  # (B, n, n): C[b, i, j] = (fractional) wins of i over j
    standings: FloatArray  # (B, R): how often each N-seat standing cell was drawn

    def __len__(self) -> int:
        return len(self.comparisons)

    def row(self, b: int) -> Sample:
        return self.rows(b, b + 1)

    def rows(self, lo: int, hi: int) -> Sample:
        return Sample(self.comparisons[lo:hi], self.standings[lo:hi])

    def take(self, index: IntArray) -> Sample:
        return Sample(self.comparisons[index], self.standings[index])


def stack(parts: Sequence[tuple[Cells, IntArray]], n_items: int) -> Cells:
    """One stratum per part: cells over a subset of items (``items`` maps the part's item
    indices to the whole's) joined as the stratified whole."""
    k_all = sum(len(c.pair) for c, _ in parts)
    pairs = [(items[c.pair], c.share, c.weight[:len(c.pair)], np.full(len(c.pair), s))
             for s, (c, items) in enumerate(parts)]
    standing_weight, standing_stratum, groups = [], [], []
    offset = k_all  # standing cells follow all the pair cells, part after part
    for s, (c, items) in enumerate(parts):
        k = len(c.pair)
        groups += [g.placed(items, offset - k) for g in c.groups]
        standing_weight.append(c.weight[k:])
        standing_stratum.append(np.full(c.n_cells - k, s))
        offset += c.n_cells - k
    cells = Cells(n_items, np.concatenate([p[0] for p in pairs]).reshape(-1, 2),
                  np.concatenate([p[1] for p in pairs]).reshape(-1, 2), tuple(groups),
                  np.concatenate([p[2] for p in pairs] + standing_weight),
                  np.concatenate([p[3] for p in pairs] + standing_stratum).astype(np.int64),
                  np.array([c.matches for c, _ in parts], np.int64))
    return cells


class SampleStack:
    """:func:`stack`'s resamples built one part at a time, each part's counts scaled to keep
    its share of the total weight (as :func:`draw` does for a stratum), so that a part's
    own resamples can be let go once added (a million matches in 30 games: 20 MB at a
    time instead of 600)."""

    def __init__(self, parts: Sequence[Cells], n_items: int, batch: int) -> None:
        self.total = sum(c.weight.sum() for c in parts)
        self.matches = sum(c.matches for c in parts)
        self.n_items = n_items
        self.comparisons = np.zeros((batch, n_items * n_items))
        self.standings: list[FloatArray] = []
        self._scaled: FloatArray | None = None

    def add(self, part: Cells, items: IntArray, sample: Sample) -> None:
        n, batch = self.n_items, len(self.comparisons)
        scale = self.matches * part.weight.sum() / self.total / part.matches
        block = sample.comparisons.reshape(batch, -1)
        if len(items) == n and (np.diff(items) == 1).all():  # every item: no gather, and
            if self._scaled is None:  # one buffer for the scaled part (no 20 MB temporaries)
                self._scaled = np.empty_like(self.comparisons)
            self.comparisons += np.multiply(block, scale, out=self._scaled)
        else:
            flat = (items[:, None] * n + items[None, :]).ravel()
            self.comparisons[:, flat] += scale * block
        self.standings.append(scale * sample.standings)

    def sample(self) -> Sample:
        batch = len(self.comparisons)
        return Sample(self.comparisons.reshape(batch, self.n_items, self.n_items),
                      np.concatenate(self.standings, axis=1) if self.standings
                      else np.zeros((batch, 0)))


def stack_samples(parts: Sequence[tuple[Cells, IntArray, Sample]], n_items: int) -> Sample:
    """The parts' resamples as resamples of :func:`stack`'s whole (:class:`SampleStack`)."""
    stack = SampleStack([c for c, _, _ in parts], n_items, len(parts[0][2]))
    for part, items, sample in parts:
        stack.add(part, items, sample)
    return stack.sample()


Standing = tuple[Sequence[int], Sequence[float], float, int]
"""An N-seat match: items per seat, scores per seat, weight, stratum."""


def collapse(n_items: int, a: IntArray, b: IntArray, share_a: FloatArray, share_b: FloatArray,
             weight: FloatArray, stratum: IntArray | None = None,
             standings: Sequence[Standing] = ()) -> Cells:
    """Cells from two-seat matches (arrays, one entry per match) and N-seat ``standings``.

    Without ``stratum`` every match is in stratum 0 (a pooled resample).
    """
    a, b = np.asarray(a, np.int64), np.asarray(b, np.int64)
    share_a, share_b = np.asarray(share_a, float), np.asarray(share_b, float)
    stratum = np.zeros(len(a), np.int64) if stratum is None else np.asarray(stratum, np.int64)
    swap = a > b  # canonical orientation: smaller item first
    lo, hi = np.where(swap, b, a), np.where(swap, a, b)
    s_lo, s_hi = np.where(swap, share_b, share_a), np.where(swap, share_a, share_b)
    values, codes = np.unique(np.concatenate([s_lo, s_hi]), return_inverse=True)
    v = max(len(values), 1)
    key = (((stratum * n_items + lo) * n_items + hi) * v + codes[: len(lo)]) * v \
        + codes[len(lo):]
    unique, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    pair_weight = np.bincount(inverse, weights=np.asarray(weight, float), minlength=len(unique))
    rank_cells: dict[tuple[int, tuple[tuple[int, float], ...]], float] = {}
    for items, scores, w, s in standings:
        seats = tuple(sorted(zip(items, scores, strict=True), key=lambda p: (-p[1], p[0])))
        rank_cells[(s, seats)] = rank_cells.get((s, seats), 0.0) + w
    strata = np.bincount(np.concatenate([stratum, [s for *_, s in standings]]).astype(np.int64))
    return Cells(n_items, np.stack([lo[first], hi[first]], axis=1).reshape(-1, 2),
                 np.stack([s_lo[first], s_hi[first]], axis=1).reshape(-1, 2),
                 _choice_groups([seats for _, seats in rank_cells], offset=len(unique)),
                 np.concatenate([pair_weight, list(rank_cells.values())]),
                 np.concatenate([stratum[first], [s for s, _ in rank_cells]]).astype(np.int64),
                 strata)


def _choice_groups(standings: list[tuple[tuple[int, float], ...]], offset: int
                   ) -> tuple[ChoiceGroup, ...]:
    items = sorted({item for standing in standings for item, _ in standing})
    local = {item: k for k, item in enumerate(items)}
    events: dict[tuple[tuple[int, ...], int], int] = {}
    cell, event, weight = [], [], []
    for r, standing in enumerate(standings):
        for members, chosen, w in standing_choices(standing):
            counts = [0] * len(items)
            for item in members:
                counts[local[item]] += 1
            cell.append(offset + r)
            event.append(events.setdefault((tuple(counts), local[members[chosen]]), len(events)))
            weight.append(w)
    if not events:
        return ()
    return (ChoiceGroup(np.array(items, np.int64), np.array([k for k, _ in events], float),
                        np.array([w for _, w in events], np.int64), np.array(cell, np.int64),
                        np.array(event, np.int64), np.array(weight, float)),)


@functools.lru_cache(maxsize=1 << 16)
def standing_choices(standing: tuple[tuple[int, float], ...]
                     ) -> tuple[tuple[tuple[int, ...], int, float], ...]:
    """:func:`choices` of a standing, remembered: a live leaderboard rebuilds a game's cells
    whenever a session of it is stored, and most standings were seen before."""
    return tuple((tuple(members), k, w) for members, k, w in choices(standing))


def choices(standing: Sequence[tuple[int, float]]) -> list[tuple[list[int], int, float]]:
    """Luce choices (set, position of the chosen seat, weight) of a standing, best first.

    ``standing`` holds (item, score) per seat. Tied seats are each chosen from the set that
    still holds all of them; a tie among the last k seats weighs (k − 1)/k per choice.
    """
    order = sorted(standing, key=lambda p: -p[1])
    out: list[tuple[list[int], int, float]] = []
    start = 0
    while start < len(order):
        end = start
        while end < len(order) and order[end][1] == order[start][1]:
            end += 1
        tied = end - start
        weight = 1.0 if end < len(order) else (tied - 1) / tied
        members = [item for item, _ in order[start:]]
        if weight > 0 and len(members) > 1:
            out.extend((members, k, weight) for k in range(tied))
        start = end
    return out


BAYESIAN_FROM = 5_000
"""Strata of at least this many matches are redrawn by the Bayesian bootstrap (Rubin 1981):
every match gets an Exp(1) weight, normalised within the stratum. The weights of one cell's
c matches sum to a Gamma(c) draw, so a resample still costs one draw per cell, and numpy
draws those about 4.5 times as fast as the multinomial's (benchmarks/ratings.py: the draw
is most of the work on large data). At these sizes its intervals match the classical
bootstrap's (tests/test_ratings.py); smaller strata keep the classical draw."""


def draw(cells: Cells, bootstrap: int, rng: np.random.Generator, *,
         bayesian_from: int | None = None, out: Sample | None = None) -> Sample:
    """``bootstrap`` resamples: each stratum's matches redrawn within it by weight, scaled
    to keep the stratum's share of the weight (one stratum: GameBench's resample). They
    are added into ``out`` (zeros, ``bootstrap`` rows) when given."""
    k, n = len(cells.pair), cells.n_items
    if out is None:
        out = Sample(np.zeros((bootstrap, n, n)), np.zeros((bootstrap, cells.n_cells - k)))
    matrices = out.comparisons.reshape(bootstrap, n * n)  # a view: rows are contiguous
    standings = out.standings
    for index, drawn in _strata_draws(cells, bootstrap, rng, bayesian_from):
        pairs = index < k
        if pairs.all():  # no copy of the (B, cells) counts: most of the data is pairs
            cells.comparisons(drawn, index, out=matrices)
            continue
        if pairs.any():
            cells.comparisons(drawn[:, pairs], index[pairs], out=matrices)
        standings[:, index[~pairs] - k] += drawn[:, ~pairs]
    return out


def counts(cells: Cells, bootstrap: int, rng: np.random.Generator, *,
           bayesian_from: int | None = None) -> FloatArray:
    """The same resamples as :func:`draw` (same ``rng`` state) as cell counts (B, cells),
    for checks against a match-by-match loop; memory grows with the number of cells."""
    out = np.zeros((bootstrap, cells.n_cells))
    for index, drawn in _strata_draws(cells, bootstrap, rng, bayesian_from):
        out[:, index] = drawn
    return out


def _strata_draws(cells: Cells, bootstrap: int, rng: np.random.Generator,
                  bayesian_from: int | None = None) -> Iterator[tuple[IntArray, FloatArray]]:
    """Per stratum: its cells and their scaled counts in each resample (B, cells in it)."""
    total = cells.weight.sum()
    for s, size in enumerate(cells.strata):
        index = np.flatnonzero(cells.stratum == s)
        if size == 0 or len(index) == 0:
            continue
        w = cells.weight[index]
        p = w / w.sum()
        share = cells.matches * w.sum() / total
        if size >= (BAYESIAN_FROM if bayesian_from is None else bayesian_from):
            drawn = rng.standard_gamma(size * p, size=(bootstrap, len(index)))
            drawn *= share / drawn.sum(axis=1, keepdims=True)
            yield index, drawn
            continue
        if size < len(index):  # fewer draws than cells: draw the matches themselves
            picks = rng.choice(len(index), size=(bootstrap, int(size)), p=p)
            offset = (np.arange(bootstrap) * len(index))[:, None]
            counts = np.bincount((picks + offset).ravel(), minlength=bootstrap * len(index))
            drawn = counts.reshape(bootstrap, len(index)).astype(float)
        else:
            drawn = rng.multinomial(size, p, size=bootstrap).astype(float)
        yield index, drawn * (share / size)
