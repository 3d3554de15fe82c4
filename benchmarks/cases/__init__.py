"""Benchmark cases, one module per estimator family, each with a ``CASES`` list."""
