"""Bots: ``act(view, rng) -> Action`` on exactly what their seat may see.

The ladder, weakest first: ``random``, ``station``, ``easy``, ``medium``,
``hard`` (see :data:`BOT_NAMES` and :func:`get_bot`).  ``hard`` plays
solved push/fold equilibria at short stacks and equity-versus-range poker
deeper; the data it needs is committed under ``freezeout/data`` and rebuilt
by ``python -m freezeout.bots.build_data``.
"""

from __future__ import annotations

from freezeout.bots.base import Bot
from freezeout.bots.registry import BOT_NAMES, get_bot

__all__ = ["BOT_NAMES", "Bot", "get_bot"]
