"""Errors of the rules core.

They follow python-chess's split: an :class:`IllegalAction` is a well-formed
move the rules forbid right now (its message is the human reason, e.g.
``raise to 30 is below the minimum raise to 40``); an :class:`InvalidInput`
is something that is not a move at all.  Both leave the state unchanged.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: anything the rules core refuses."""


class IllegalAction(RulesError):
    """A move that the rules do not allow in this state."""


class InvalidInput(RulesError):
    """Input that is malformed (bad amount type, unknown seat, bad deal)."""
