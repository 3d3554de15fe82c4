"""Data files shipped with classiclearn (see README.md)."""
