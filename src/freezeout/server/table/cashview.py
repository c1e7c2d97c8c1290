"""What a cash table's seats and spectators see (docs/protocol.md "Cash tables").

Apart from :mod:`.cash` (the game and its requests) so that each stays a
readable size: these functions only read a :class:`~.cash.CashGame` and build
the dicts a client draws and the rules' :class:`TableView` a snapshot carries.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from freezeout.rules.cash import TIME_BANK_EVERY, TIME_BANK_MAX, TIME_BANK_START, TIME_BANK_STEP
from freezeout.rules.cashoffers import post_choice, run_twice_agreed, sit_in_choice
from freezeout.rules.events import BlindPosted
from freezeout.rules.positions import table_positions
from freezeout.rules.views import ShownHand, TableView, blind_seats, hand_result, shown_down
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
    """The hands shown at the last hand's showdown, as the freezeout view says them (R17; the
    cash table's public events leave out the mucked ones, V17)."""
    return shown_down(game.table.hand, game.table.hand_log)


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


def _named(game: CashGame, pots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each winner of a result with the name the hand was dealt to (``player``): a result names
    its winner even once that player (a bot whose human sat out, anyone) has left the seat."""
    t = game.table
    names = t.hand.setup.names if t.hand is not None else ()
    for pot in pots:
        for winner in pot["winners"]:
            seat = winner["seat"]
            if seat in t.hand_seats and t.hand_seats.index(seat) < len(names):
                winner["player"] = names[t.hand_seats.index(seat)]
    return pots


def view(game: CashGame, viewer: int | None, shown: dict[int, ShownHand] | None = None) -> dict[str, Any]:
    """What ``viewer`` (a seat, or None: a spectator) sees: the game and stakes, each seat's
    player, chips (behind now, and in the pot this hand), status and what they owe (C10),
    whether they leave at the hand's end; the board, the pot, whose turn; one's own cards
    only (cards shown down are public once the hand is over, R17); the viewer's legal moves.
    As the freezeout view (rules/views.py, whose builders it uses): the hands shown down, the
    result (each pot, half and run with its winners and hand names), the board's size, the
    dealer button and the blinds' seats; and the cash table's own: whether a player sitting
    down chooses to post or wait (C4, C10), the viewer's offers, both boards of a run twice (C7)."""
    t = game.table
    shown = _shown(game) if shown is None else shown
    hand = t.hand
    options = game.spec.cash or CashOptions()
    stacks = t.current_stacks()
    seats: list[dict[str, Any]] = []
    straddled = {e.seat for e in t.hand_log if isinstance(e, BlindPosted) and e.kind == "straddle"} if hand is not None else set()
    places = table_positions(t)  # C12: BTN, SB, BB, UTG.. of the current (or last) hand; none in stud
    for index, held in enumerate(t.seats):
        if held is None:
            seats.append({"seat": index, "player": None})
            continue
        entry: dict[str, Any] = {"seat": index, "player": held.player, "stack": stacks[index], "status": str(held.status),
                                 "position": places.get(index),
                                 "owes": held.owes, "leaving": game.is_leaving(index), "in_hand": False,
                                 "time_bank": held.time_bank, "auto_top_up": game.auto_top_up_of(index),
                                 # C11: hands dealt until the bank gains its next seconds (null: it is full)
                                 "time_bank_hands": (TIME_BANK_EVERY - held.hands % TIME_BANK_EVERY
                                                     if held.time_bank < TIME_BANK_MAX else None),
                                 "straddled": index in straddled,  # C6: posted a straddle this (or the last) hand
                                 "straddle_next": t.straddler == index}  # C6: its straddle is in for the next hand
        if hand is not None and index in t.hand_seats:
            hand_seat = t.hand_seats.index(index)
            entry["in_hand"] = t.in_hand and not hand.folded[hand_seat]
            entry["bet"] = hand.bets[hand_seat] if t.in_hand else 0
            cards = hand.cards[hand_seat] if hand.cards else ()
            # R17, V17: the cards shown down are public (not a mucked hand)
            up = hand.up[hand_seat] if hand.up else ()
            if index in shown:
                entry["shown"] = shown[index].to_dict()
            if index == viewer or t.shown_down(index):
                entry["cards"] = "".join(str(card) if card is not None else "??" for card in cards)
            else:
                entry["cards"] = "".join(str(card) if card is not None and i < len(up) and up[i] else "??"
                                         for i, card in enumerate(cards))
        seats.append(entry)
    legal = t.legal_actions()
    view: dict[str, Any] = {
        "format": "cash", "game": game.variant.code, "game_name": game.variant.name, "hand": t.hand_number,
        "in_hand": t.in_hand, "to_act": t.to_act, "button": t.button,
        "stakes": cash_stakes(t.config, game.variant), "level": cash_level(t.config, game.variant),
        "buy_in": {"min": t.config.min_buy_in, "max": t.config.max_buy_in},
        "rake": {"basis_points": options.rake_bp, "cap": options.rake_caps[2], "caps": list(options.rake_caps),
                 "total": t.rake_total},
        "straddle": options.straddle, "button_straddle": options.button_straddle, "run_twice": options.run_twice,
        "show_called": options.show_called,
        "board": "".join(str(card) for card in game.board if card is not None),
        "pot": hand.pot_total if hand is not None and t.in_hand else 0,
        "seats": seats, "you": viewer,
    }
    variant = game.variant
    view["board_size"] = variant.board_size
    view["dealing"] = dealing_json(variant)  # what the page's fairness check needs (web/js/fairness.js)
    view["boards"] = [view["board"], *(["".join(str(card) for card in hand.second_board if card is not None)]
                                       if hand is not None and hand.second_board else [])]
    view["dealer_button"] = t.button if variant.uses_button and t.button >= 0 and t.hand_number > 0 else None
    view["blind_seats"] = list(blind_seats(t.hand_log)) if hand is not None else [None, None]
    view["result"] = _named(game, [pot.to_dict() for pot in hand_result(hand, t.hand_log, shown)])
    view["time_bank_rules"] = {"start": TIME_BANK_START, "step": TIME_BANK_STEP, "every": TIME_BANK_EVERY,
                               "max": TIME_BANK_MAX}  # C11, as the seats' banks grow
    view["post_choice"] = post_choice(t)
    view["offers"] = _offers(game, viewer)
    levels = bots_for(game.spec.game.code)
    view["bots"] = list(levels)  # the levels "Add bot" offers (table/botseat.py)
    refused = add_bot_refusal(game, levels)  # whether "Add bot" can seat one now, and why not (table/cashbots.py)
    view["add_bot"] = {"possible": refused is None, "reason": refused[0] if refused else None}
    view["waitlist"] = waitlist_json(game)  # C13: who waits, the seats offered and until when
    if legal is not None and legal.seat == viewer:
        view["legal"] = legal.to_dict()
    return view
