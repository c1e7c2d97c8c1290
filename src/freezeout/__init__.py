"""Freezeout: No-Limit Texas Hold'em freezeout tournaments.

The public entry points most users want::

    >>> from freezeout import evaluate
    >>> evaluate("AsKsQsJsTs").category
    'straight flush'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["evaluate"]
__version__ = "0.1.0"

if TYPE_CHECKING:
    from freezeout.evaluate import evaluate


def __getattr__(name: str) -> Any:
    # Lazy so that ``import freezeout`` stays cheap (no tables built).
    if name == "evaluate":
        from freezeout.evaluate import evaluate

        return evaluate
    raise AttributeError(name)
