"""Naive Bayes classifiers (seed 000 §10.1, seed 004)."""

from ._bernoulli import BernoulliNB
from ._gaussian import GaussianNB
from ._kernel_density import KernelDensityNB

__all__ = ["BernoulliNB", "GaussianNB", "KernelDensityNB"]
