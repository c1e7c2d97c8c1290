"""What a cash table's seats and spectators see of the rules' table (docs/protocol.md "Cash
tables"): the cash half of the view contract, beside rules/views.py, whose builders it uses (the
hands shown down, R17; the result, R16, V6, C7; the blinds' seats, R5).

Its ``format`` is ``"cash"`` (a freezeout's view says ``"freezeout"``): the one field a client
tells the two views by.  The room adds what is its own and not the rules' (server/table/cashview.py:
the game's name and stakes, the table's options, offers, bots and waiting list, who is leaving and
each seat's auto top-up).  Pure: it only reads a :class:`~.cash.CashTable`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freezeout.rules.cash import TIME_BANK_EVERY, TIME_BANK_MAX, TIME_BANK_START, TIME_BANK_STEP, CashTable
from freezeout.rules.cashoffers import post_choice
from freezeout.rules.events import BlindPosted
from freezeout.rules.positions import table_positions
from freezeout.rules.views import ShownHand, before_result, blind_seats, hand_result, shown_down

__all__ = ["cash_shown", "cash_view"]


def cash_shown(table: CashTable) -> dict[int, ShownHand]:
    """The hands shown at the last hand's showdown, as the freezeout view says them (R17; the
    cash table's public events leave out the mucked ones, V17)."""
    return shown_down(table.hand, table.hand_log)


def _seat(t: CashTable, index: int, viewer: int | None, shown: Mapping[int, ShownHand], stacks: tuple[int, ...],
          straddled: set[int], places: Mapping[int, str]) -> dict[str, Any]:
    """One seat as ``viewer`` sees it: its player, chips (behind now, and in the pot this hand),
    status and what it owes (C10), its time bank (C11), straddles (C6) and cards (R8, R17, V17)."""
    held = t.seats[index]
    if held is None:
        return {"seat": index, "player": None}
    hand = t.hand
    entry: dict[str, Any] = {"seat": index, "player": held.player, "stack": stacks[index],
                             "status": str(held.status), "position": places.get(index), "owes": held.owes,
                             "in_hand": False, "time_bank": held.time_bank,
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
        up = hand.up[hand_seat] if hand.up else ()  # R17, V17: the cards shown down are public (not a mucked hand)
        if index in shown:
            entry["shown"] = shown[index].to_dict()
        if index == viewer or t.shown_down(index):
            entry["cards"] = "".join(str(card) if card is not None else "??" for card in cards)
        else:
            entry["cards"] = "".join(str(card) if card is not None and i < len(up) and up[i] else "??"
                                     for i, card in enumerate(cards))
    return entry


def _named(t: CashTable, pots: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each winner of a result with the name the hand was dealt to (``player``): a result names
    its winner even once that player (a bot whose human sat out, anyone) has left the seat."""
    names = t.hand.setup.names if t.hand is not None else ()
    for pot in pots:
        for winner in pot["winners"]:
            seat = winner["seat"]
            if seat in t.hand_seats and t.hand_seats.index(seat) < len(names):
                winner["player"] = names[t.hand_seats.index(seat)]
    return pots


def cash_view(t: CashTable, viewer: int | None, shown: Mapping[int, ShownHand] | None = None) -> dict[str, Any]:
    """What ``viewer`` (a seat, or None: a spectator) sees of ``t``: the hand's number, whether
    it is on, whose turn, the buy-ins (C1) and the viewer's top-up range (C2), the board (both
    boards of a run twice, C7) and the pot, each seat (:func:`_seat`); as the freezeout view:
    the board's size, the dealer button, the blinds' seats and the result (each pot, half and
    run with its winners and hand names); the time bank's rules (C11), whether a player sitting
    down chooses to post or wait (C4, C10) and the viewer's legal moves."""
    hand = t.hand
    shown = cash_shown(t) if shown is None else shown
    straddled = {e.seat for e in t.hand_log if isinstance(e, BlindPosted) and e.kind == "straddle"} if hand is not None else set()
    places = table_positions(t)  # C12: BTN, SB, BB, UTG.. of the current (or last) hand; none in stud
    variant = hand.setup.variant if hand is not None and t.in_hand else t.next_variant
    board = "".join(str(card) for card in (hand.board if hand is not None else ()) if card is not None)
    seated = viewer is not None and 0 <= viewer < len(t.seats) and t.seats[viewer] is not None
    stacks = t.current_stacks()
    result = hand_result(hand, t.hand_log, dict(shown))
    view: dict[str, Any] = {
        "format": "cash", "hand": t.hand_number, "in_hand": t.in_hand, "to_act": t.to_act, "button": t.button,
        "buy_in": {"min": t.config.min_buy_in, "max": t.config.max_buy_in},
        # C1, C2: the chips the viewer's top-up may add (its dialog's limits; the account's balance caps it further)
        "top_up": dict(zip(("min", "max"), t.top_up_range(viewer), strict=True)) if seated and viewer is not None else None,
        "board": board, "pot": hand.pot_total if hand is not None and t.in_hand else 0,
        "seats": [_seat(t, index, viewer, shown, stacks, straddled, places) for index in range(len(t.seats))],
        "you": viewer, "board_size": variant.board_size,
        "boards": [board, *(["".join(str(card) for card in hand.second_board if card is not None)]
                            if hand is not None and hand.second_board else [])],
        "dealer_button": t.button if variant.uses_button and t.button >= 0 and t.hand_number > 0 else None,
        "blind_seats": list(blind_seats(t.hand_log)) if hand is not None else [None, None],
        "result": _named(t, [pot.to_dict() for pot in result]),
        "time_bank_rules": {"start": TIME_BANK_START, "step": TIME_BANK_STEP, "every": TIME_BANK_EVERY,
                            "max": TIME_BANK_MAX},  # C11, as the seats' banks grow
        "post_choice": post_choice(t),
    }
    if result:  # the table before the pots were awarded, as the freezeout view's (a run-out is dealt card by card)
        view["before_result"] = before_result([seat.get("stack") for seat in view["seats"]], result)
    legal = t.legal_actions()
    if legal is not None and legal.seat == viewer:
        view["legal"] = legal.to_dict()
    return view
