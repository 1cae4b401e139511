"""tablemate host tools (CPython): CLI, virtual device, flash, sync, replay, stats."""

__version__ = "0.1.0"
