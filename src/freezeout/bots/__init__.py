"""Bots: ``act(view, rng) -> Action`` on exactly what their seat may see.

The ladder, weakest first: ``random``, ``station``, ``easy``, ``medium``,
``hard`` (see :data:`BOT_NAMES` and :func:`get_bot`);
:func:`bots_for_game` says which of them play a table's game.  ``hard`` plays
solved push/fold equilibria at short stacks and, once the table has a
history, exploits models of its opponents (:mod:`.reads`, :mod:`.exploit`).
The bench opponents (:data:`~.registry.BENCH_NAMES`: six playing styles
and the frozen ``hard-v1``) measure it.  The data ``hard`` needs is
committed under ``freezeout/data`` and rebuilt by
``python -m freezeout.bots.build_data``.
"""

from __future__ import annotations

from freezeout.bots.base import Bot
from freezeout.bots.registry import ALL_BOT_NAMES, BENCH_NAMES, BOT_NAMES, bots_for_game, get_bot

__all__ = ["ALL_BOT_NAMES", "BENCH_NAMES", "BOT_NAMES", "Bot", "bots_for_game", "get_bot"]
