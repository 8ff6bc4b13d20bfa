"""Sheepshead: Wisconsin's classic card game."""
