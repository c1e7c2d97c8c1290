"""What a seat sees of a cash table, as the :class:`TableView` the bots read (issue #25).

A cash table (:class:`freezeout.rules.cash.CashTable`) is not a tournament,
so :func:`freezeout.rules.views.seat_view` cannot draw it; this builds the
same view from the cash table: the viewer's own cards and only the cards
face up or shown down of the others (R17, design principle 5), every seat's
chips behind and bet, the pots, the board and the hand's public events.
The server's bots read it at a cash table (server/table/bots.py), and so
does ``freezeout play --cash`` (terminal/cash.py) to draw the table and to
let its bots decide.  With 100 big blinds behind at the hand's start,
``hard`` plays its deep-stack game (:mod:`.deep`).  Pure: no clock, no I/O.
"""

from __future__ import annotations

from freezeout.cards import Card
from freezeout.rules.cash import CashTable
from freezeout.rules.positions import table_positions
from freezeout.rules.showdown import collected_pots
from freezeout.rules.variant import Variant
from freezeout.rules.views import SeatView, TableView, card_slots

__all__ = ["cash_table_view", "current_variant"]


def current_variant(table: CashTable) -> Variant:
    """The game of the hand in progress (or of the last one), else of the next (V19)."""
    if table.hand is not None:
        return table.hand.setup.variant
    return table.next_variant


def cash_table_view(table: CashTable, viewer: int | None) -> TableView:
    """What table seat ``viewer`` (None: a spectator) may see of ``table``."""
    t = table
    hand = t.hand
    variant = current_variant(t)
    level = t.config.level(variant)
    stacks = t.current_stacks()
    seats: list[SeatView] = []
    places = table_positions(t)  # C12: the seats' positions in the current (or last) hand
    for index, held in enumerate(t.seats):
        if held is None:
            seats.append(SeatView(index, "", 0, 0, False, False, False, False, None, 0, None))
            continue
        cards: tuple[Card | None, ...] | None = None
        up: tuple[bool, ...] = ()
        slots: tuple[str, ...] = ()
        folded = all_in = False
        bet = 0
        in_hand = hand is not None and index in t.hand_seats
        if in_hand and hand is not None:
            i = t.hand_seats.index(index)
            dealt = hand.cards[i] if hand.cards else ()
            up = hand.up[i] if hand.up else ()
            folded = hand.folded[i]
            bet = hand.bets[i] if t.in_hand else 0
            all_in = not folded and hand.stacks[i] == 0 and not hand.finished
            shown = hand.finished and hand.showdown and bool(hand.shown) and hand.shown[i]
            if index == viewer or shown:
                cards = dealt
            elif any(up):
                cards = tuple(card if face else None for card, face in zip(dealt, up, strict=False))
            if not folded:
                slots = card_slots(cards, up, len(dealt))
        seats.append(SeatView(index, held.player, stacks[index], bet, True, in_hand and not folded, bool(folded),
                              bool(all_in), None, held.forfeits, cards, up, slots=slots, position=places.get(index, "")))
    pots: tuple[tuple[int, tuple[int, ...]], ...] = ()
    if hand is not None and not hand.finished:
        pots = tuple((pot.amount, tuple(t.hand_seats[s] for s in pot.eligible)) for pot in collected_pots(hand))
    legal = t.legal_actions()
    return TableView(
        viewer=viewer, hand_number=t.hand_number, button=t.button, small_blind=level.small_blind,
        big_blind=level.big_blind, hands_to_next_level=0, seats=tuple(seats), board=hand.board if hand is not None else (),
        pots=pots, to_act=t.to_act, legal=legal if legal is not None and legal.seat == viewer else None,
        hand_over=hand is None or hand.finished, showdown=bool(hand is not None and hand.finished and hand.showdown),
        finished=False, winner=None, history=t.hand_log, game=variant.code, level=level,
        drawing=bool(hand is not None and hand.drawing), board_size=variant.board_size,
        dealer_button=t.button if variant.uses_button and t.button >= 0 else None,
    )
