"""Clustering (seed 000 §12.1): k-means with Lloyd's and Elkan's algorithms."""

from ._kmeans import KMeans, kmeans_plusplus

__all__ = ["KMeans", "kmeans_plusplus"]
