"""Shared distance kernels: several pairs at once give the single pair's values."""

import numpy as np
import pytest

from classiclearn._kernels.distances import (
    CHEBYSHEV,
    EUCLIDEAN,
    MANHATTAN,
    SQEUCLIDEAN,
    reduced_distance,
    reduced_distances,
)


@pytest.mark.parametrize("metric", [EUCLIDEAN, SQEUCLIDEAN, MANHATTAN, CHEBYSHEV])
@pytest.mark.parametrize("m", [0, 1, 3, 4, 9])
def test_reduced_distances_equal_reduced_distance_to_the_last_bit(metric, m):
    rng = np.random.default_rng(m)
    X = rng.normal(size=(3, 517)) * 1e3
    Y = rng.normal(size=(20, 517)) * 1e3 + 7.0
    rows = rng.choice(20, size=m).astype(np.intp)
    out = np.full(12, np.nan)
    reduced_distances(X, 2, Y, rows, m, metric, 2.0, out)
    expected = [reduced_distance(X, 2, Y, j, metric, 2.0) for j in rows]
    assert out[:m].tolist() == expected  # exact equality, not closeness
    assert np.isnan(out[m:]).all()
