"""Sheepshead: Wisconsin's classic card game."""

from sheepshead import native as _native

# Before any module of the package is imported: the search's compiled modules, where
# they were built from these sources (``native.py``); else the sources themselves.
_native.install()
