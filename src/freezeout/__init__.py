"""Freezeout: No-Limit Texas Hold'em freezeout tournaments.

The public entry points most users want::

    >>> from freezeout import evaluate
    >>> evaluate("AsKsQsJsTs").category
    'straight flush'

``freezeout.evaluate`` is the evaluator subpackage, which is callable as
the function :func:`freezeout.evaluate.evaluate`; so the line above gives
the same working object whether or not ``freezeout.evaluate`` (or anything
under it) was imported before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["evaluate"]
__version__ = "0.1.0"

if TYPE_CHECKING:
    from freezeout.evaluate import evaluate


def __getattr__(name: str) -> Any:
    # Lazy so that ``import freezeout`` stays cheap (no tables built).  Once
    # imported, the subpackage is an attribute of this package and this hook
    # is not asked again, so every import order yields the same object.
    if name == "evaluate":
        import importlib

        return importlib.import_module("freezeout.evaluate")
    raise AttributeError(name)
