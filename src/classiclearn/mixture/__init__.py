"""Mixture models (seed 000 §12.2): Gaussian mixtures fitted by EM."""

from ._gaussian_mixture import GaussianMixture

__all__ = ["GaussianMixture"]
