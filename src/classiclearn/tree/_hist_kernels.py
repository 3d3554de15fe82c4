"""Histogram splitter (placeholder replaced below)."""
