"""Shared fixtures: a seed, and the tests folder on sys.path for common_params."""

import os
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(__file__))


@pytest.fixture
def rng():
    """A NumPy Generator with a fixed seed."""
    return np.random.default_rng(0)
