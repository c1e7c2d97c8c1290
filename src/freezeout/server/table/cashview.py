"""What a cash table's seats and spectators see (docs/protocol.md "Cash tables").

The rules' cash view (rules/cashview.py, the cash half of the view contract beside
rules/views.py) with what the room adds to it; apart from :mod:`.cash` (the game and its
requests): these functions only read a :class:`~.cash.CashGame` and build the dicts a
client draws and the rules' :class:`TableView` a snapshot carries.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from freezeout.rules.cashoffers import run_twice_agreed, sit_in_choice
from freezeout.rules.cashview import cash_shown, cash_view
from freezeout.rules.views import ShownHand, TableView
from freezeout.server.gamespec import CashOptions
from freezeout.server.table.botseat import bots_for
from freezeout.server.table.cashbots import add_bot_refusal, run_twice_refusal
from freezeout.server.table.cashlobby import cash_level, cash_stakes
from freezeout.server.table.cashwait import waitlist_json
from freezeout.server.table.dealing import dealing_json

if TYPE_CHECKING:
    from freezeout.server.table.cash import CashGame

__all__ = ["seat_view", "view", "view_dicts"]


def seat_view(game: CashGame, viewer: int | None) -> TableView:
    """The rules' view as far as a cash table fills it: the hand's public events (a snapshot's
    history), the board, whose turn and the viewer's moves.  Its seats are left out: a client
    draws a cash table from :func:`view`."""
    t = game.table
    hand = t.hand
    legal = t.legal_actions()
    small, big = t.config.blinds
    return TableView(viewer=viewer, hand_number=t.hand_number, button=t.button, small_blind=small, big_blind=big,
                     hands_to_next_level=0, seats=(), board=game.board, pots=(), to_act=t.to_act,
                     legal=legal if legal is not None and legal.seat == viewer else None,
                     hand_over=hand is not None and hand.finished, showdown=hand is not None and hand.showdown,
                     finished=False, winner=None, history=t.hand_log, game=game.variant.code)


def view_dicts(game: CashGame, viewers: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """Every viewer's :func:`view`; the hands shown down are worked out once for all of them."""
    shown = _shown(game)
    return {viewer: view(game, viewer, shown) for viewer in viewers}


def _shown(game: CashGame) -> dict[int, ShownHand]:
    """The hands shown at the last hand's showdown (rules/cashview.py cash_shown)."""
    return cash_shown(game.table)


def _offers(game: CashGame, viewer: int | None) -> dict[str, Any]:
    """What the table offers ``viewer`` now (rules/cashoffers.py): a straddle for the next hand
    (C6) and whether it is in, agreeing to run it twice (C7, with who agreed), and on coming back from sitting out
    owing blinds, posting them now or waiting for the big blind (C10)."""
    t = game.table
    options = game.spec.cash or CashOptions()
    seated = viewer is not None and 0 <= viewer < len(t.seats) and t.seats[viewer] is not None
    twice_refused = run_twice_refusal(game, viewer) if seated else "not_in_pot"
    return {
        "straddle": seated and options.straddle and viewer is not None and not game.is_leaving(viewer) and t.may_straddle(viewer),
        "straddling": viewer is not None and viewer >= 0 and t.straddler == viewer,  # C6: its straddle is in for the next hand
        "run_twice": seated and twice_refused is None,
        "run_twice_reason": twice_refused,  # C7: why not (table/cashbots.py run_twice_refusal), null when offered
        "run_twice_agreed": list(run_twice_agreed(t)) if options.run_twice and t.in_hand else [],
        "sit_in_choice": seated and viewer is not None and sit_in_choice(t, viewer),
    }


def view(game: CashGame, viewer: int | None, shown: dict[int, ShownHand] | None = None) -> dict[str, Any]:
    """What ``viewer`` (a seat, or None: a spectator) sees: the rules' cash view (rules/cashview.py:
    ``"format": "cash"``, the seats, chips, cards, board, pot, result, the viewer's top-up range and
    moves) and the room's own: the game and stakes, the table's options (rake, straddles, running
    it twice, showing a called hand), whether each seat leaves at the hand's end and its auto
    top-up, what the page's fairness check needs, the viewer's offers, the bots "Add bot" offers
    and the waiting list (C13)."""
    t = game.table
    shown = _shown(game) if shown is None else shown
    options = game.spec.cash or CashOptions()
    view = cash_view(t, viewer, shown)
    for entry in view["seats"]:
        if entry["player"] is not None:
            entry["leaving"] = game.is_leaving(entry["seat"])
            entry["auto_top_up"] = game.auto_top_up_of(entry["seat"])
    variant = game.variant
    levels = bots_for(game.spec.game.code)
    refused = add_bot_refusal(game, levels)  # whether "Add bot" can seat one now, and why not (table/cashbots.py)
    view.update({
        "game": variant.code, "game_name": variant.name,
        "stakes": cash_stakes(t.config, variant), "level": cash_level(t.config, variant),
        "rake": {"basis_points": options.rake_bp, "cap": options.rake_caps[2], "caps": list(options.rake_caps),
                 "total": t.rake_total},
        "straddle": options.straddle, "button_straddle": options.button_straddle, "run_twice": options.run_twice,
        "show_called": options.show_called,
        "dealing": dealing_json(variant),  # what the page's fairness check needs (web/js/fairness.js)
        "offers": _offers(game, viewer),
        "bots": list(levels),  # the levels "Add bot" offers (table/botseat.py)
        "add_bot": {"possible": refused is None, "reason": refused[0] if refused else None},
        "waitlist": waitlist_json(game),  # C13: who waits, the seats offered and until when
    })
    return view
