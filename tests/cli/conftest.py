"""Fixtures for the command-line tests: small tables written as a user would have them."""

import numpy as np
import pytest

from classiclearn.cli import main


class Run:
    """The result of one ``classiclearn`` invocation through ``main(argv)``."""

    def __init__(self, code, out, err):
        self.code, self.out, self.err = code, out, err


@pytest.fixture
def run(capsys):
    def _run(*argv):
        code = main([str(a) for a in argv])
        captured = capsys.readouterr()
        return Run(code, captured.out, captured.err)

    return _run


@pytest.fixture
def mixed_csv(tmp_path):
    """120 rows: numeric columns with gaps, a text column with gaps, a text target."""
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 120
    y = np.where(np.arange(n) % 3 == 0, "sick", "well")
    x1 = rng.normal(size=n) + 1.5 * (y == "sick")
    x2 = rng.normal(size=n)
    colour = rng.choice(["red", "green", "blue"], size=n).astype(object)
    colour[(y == "sick") & (rng.random(n) < 0.6)] = "red"
    x1[rng.random(n) < 0.1] = np.nan
    colour[rng.random(n) < 0.1] = None
    frame = pd.DataFrame({"x1": x1, "x2": x2, "colour": colour, "outcome": y})
    path = tmp_path / "mixed.csv"
    frame.to_csv(path, index=False)
    return path


@pytest.fixture
def regression_csv(tmp_path):
    import pandas as pd

    rng = np.random.default_rng(1)
    n = 90
    X = rng.normal(size=(n, 3))
    y = X @ np.array([2.0, -1.0, 0.0]) + 0.3 * rng.normal(size=n)
    frame = pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "c": X[:, 2], "price": y})
    path = tmp_path / "houses.csv"
    frame.to_csv(path, index=False)
    return path
