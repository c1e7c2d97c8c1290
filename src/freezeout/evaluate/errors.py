"""Errors raised by the evaluator (card problems reuse :class:`freezeout.cards.CardError`)."""

from __future__ import annotations

__all__ = ["EvaluationError"]


class EvaluationError(ValueError):
    """A hand the evaluator cannot rank: wrong number of cards, or a bad rank value."""
