"""Scripts that print timings: python -m benchmarks.<name> (see the README)."""

from __future__ import annotations

import numpy as np


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile of ``values`` (linear interpolation, as numpy computes it)."""
    return float(np.percentile(values, q))
