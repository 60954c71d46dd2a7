"""Benchmarks (``python -m bench``, ``make bench``): measured, never asserted by tests."""
