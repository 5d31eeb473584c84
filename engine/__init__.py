"""Sandtable's rules engine: pure Python, never imports Qt."""

__version__ = "0.1.0"
