"""Naive Bayes classifiers (seed 000 §10.1, seed 004)."""

from ._gaussian import GaussianNB

__all__ = ["GaussianNB"]
