"""Position names at a table with a button (C12).

Where a game has a button the seats dealt in are named: the button (BTN),
the small blind (SB) and the big blind (BB); the first seat after the big
blind is under the gun (UTG), the last before the button the cutoff (CO),
the one before it the hijack (HJ), then the lojack (LJ); any seats left
between UTG and LJ are UTG+1, UTG+2, UTG+3 in order.  So 6-max names UTG,
HJ, CO; 9-max UTG, UTG+1, UTG+2, LJ, HJ, CO; 10 seats add UTG+3.
Heads-up the button is the small blind (R5) and is named BTN.  Games
without a button (stud, V7) have no positions.

A dead button (C10) names nobody BTN, and a dead small blind nobody SB:
the seats between the big blind and where the button stands are named
from both ends as above.  Pure: a page or a terminal draws these names and
never works them out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Final

from freezeout.rules.errors import InvalidInput

if TYPE_CHECKING:
    from freezeout.rules.cash import CashTable

__all__ = ["BB", "BTN", "CO", "HJ", "LJ", "POSITION_NAMES", "SB", "UTG", "middle_names", "positions", "table_positions"]

BTN: Final = "BTN"
SB: Final = "SB"
BB: Final = "BB"
UTG: Final = "UTG"
LJ: Final = "LJ"
HJ: Final = "HJ"
CO: Final = "CO"

#: Every name a seat can carry, in acting order before the flop.
POSITION_NAMES: Final = (UTG, "UTG+1", "UTG+2", "UTG+3", LJ, HJ, CO, BTN, SB, BB)


def middle_names(count: int) -> tuple[str, ...]:
    """C12: the names of ``count`` seats between the big blind and the
    button, in acting order.  UTG comes first, then CO, HJ and LJ take the
    last seats, and the seats left between UTG and LJ are UTG+1, UTG+2,
    UTG+3."""
    if not 0 <= count <= 7:
        raise InvalidInput(f"a table has 0 to 7 seats between the big blind and the button, got {count}")
    if count == 0:
        return ()
    late = (LJ, HJ, CO)[max(0, 3 - (count - 1)):]  # CO first, then HJ, then LJ
    early = tuple(UTG if index == 0 else f"UTG+{index}" for index in range(count - len(late)))
    return early + late


def positions(
    dealt: Sequence[int], button: int | None, small_blind: int | None, big_blind: int | None, seats: int
) -> Mapping[int, str]:
    """C12: each dealt-in table seat's position name.

    ``dealt``: the table seats dealt in; ``button``: the seat the dealer
    button marks (a dead button: a seat not dealt in; None: the game has
    no button, as in stud, and nobody has a position); ``small_blind`` and
    ``big_blind``: the seats that posted them (None or -1: a dead small
    blind, or no blinds yet); ``seats``: the table's size."""
    if button is None or button < 0 or big_blind is None or big_blind < 0:
        return {}
    live = set(dealt)
    if big_blind not in live:
        raise InvalidInput(f"the big blind's seat {big_blind} is not dealt in")
    names: dict[int, str] = {big_blind: BB}
    if len(live) == 2:  # R5: heads-up the button posts the small blind
        other = next(seat for seat in live if seat != big_blind)
        names[other] = BTN
        return names
    if small_blind is not None and small_blind >= 0 and small_blind in live:
        names[small_blind] = SB
    if button in live and button not in names:
        names[button] = BTN
    order = [(big_blind + offset) % seats for offset in range(1, seats)]
    stop = order.index(button) if button in order else len(order)
    middle = [seat for seat in order[:stop] if seat in live and seat not in names]
    names.update(zip(middle, middle_names(len(middle)), strict=True))
    return names


def table_positions(table: CashTable) -> Mapping[int, str]:
    """C12 at a cash table: each table seat's position in the current (or
    last) hand — its dead button and dead small blind as C10 put them;
    none before the first hand and in stud (V7)."""
    hand = table.hand
    if hand is None or not hand.setup.variant.uses_button:
        return {}
    return positions(table.hand_seats, table.button, table.small_pos, table.big_pos, table.config.seats)
