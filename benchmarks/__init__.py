"""Benchmarks of classiclearn against scikit-learn: ``python -m benchmarks [--quick] [NAME ...]``."""
