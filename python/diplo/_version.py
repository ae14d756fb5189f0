"""The package version, in one place (pyproject.toml and Cargo.toml carry the same number)."""

__version__ = "0.1.0"
