"""Bhabhi as data: rulesets, a deterministic engine and a referee."""

__version__ = "0.1.0"
