"""Naive Bayes classifiers (seed 000 §10.1, seed 004)."""

from ._bernoulli import BernoulliNB
from ._categorical import CategoricalNB
from ._gaussian import GaussianNB
from ._kernel_density import KernelDensityNB
from ._multinomial import ComplementNB, MultinomialNB

__all__ = [
    "BernoulliNB",
    "CategoricalNB",
    "ComplementNB",
    "GaussianNB",
    "KernelDensityNB",
    "MultinomialNB",
]
