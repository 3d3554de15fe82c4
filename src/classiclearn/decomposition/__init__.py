"""Decomposition (seed 000 §13.1, §14.2): PCA and kernel PCA."""

from ._kernel_pca import KernelPCA
from ._pca import PCA

__all__ = ["KernelPCA", "PCA"]
