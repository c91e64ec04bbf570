"""The package version (its own module so the engine's records can name it without
importing the package root)."""

__version__ = "0.1.0"
