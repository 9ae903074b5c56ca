"""Drive `lumen batch` over a Ray cluster (see README.md beside this package)."""
from .driver import run, main

__all__ = ["run", "main"]
