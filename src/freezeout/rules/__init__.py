"""The pure rules core: no I/O, no clock, no global randomness.

``hand`` plays one hand, ``tournament`` the freezeout around it, ``cash``
a cash table around it, ``legal`` answers who acts and how much, ``pots``
splits the chips and ``views`` builds what each seat may see.
"""

from __future__ import annotations

from freezeout import native

native.install()  # the compiled engine, when it was built from exactly these sources (freezeout.native)
# ruff: noqa: E402  (the modules below must be imported after install())

from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.cash import CashConfig, CashTable
from freezeout.rules.errors import IllegalAction, InvalidInput, RulesError
from freezeout.rules.hand import HandSetup, HandState, apply, start_hand
from freezeout.rules.legal import LegalActions, legal_actions
from freezeout.rules.tournament import (
    HOUSE_LEVELS,
    Tournament,
    TournamentConfig,
    blinds_for_hand,
    rematch_players,
)
from freezeout.rules.variant import NLHE, Ruleset, UnsupportedVariant, Variant, variant
from freezeout.rules.views import TableView, seat_view

__all__ = [
    "HOUSE_LEVELS",
    "NLHE",
    "Action",
    "ActionKind",
    "CashConfig",
    "CashTable",
    "HandSetup",
    "HandState",
    "IllegalAction",
    "InvalidInput",
    "LegalActions",
    "RulesError",
    "Ruleset",
    "TableView",
    "Tournament",
    "TournamentConfig",
    "UnsupportedVariant",
    "Variant",
    "apply",
    "blinds_for_hand",
    "legal_actions",
    "rematch_players",
    "seat_view",
    "start_hand",
    "variant",
]
