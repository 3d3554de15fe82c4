"""Dask tests run on the synchronous scheduler unless a test starts its own cluster."""

import pytest

dask = pytest.importorskip("dask")


@pytest.fixture(autouse=True)
def synchronous():
    with dask.config.set(scheduler="synchronous"):
        yield
