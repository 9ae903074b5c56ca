"""Drive `lumen batch` over a Ray cluster (see README.md beside this package)."""
from .driver import default_shards, run, main

__all__ = ["default_shards", "run", "main"]
