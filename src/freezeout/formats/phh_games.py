"""PHH export of a hand of any game but the house game (formats.md §2):
fixed- and pot-limit hold'em, Omaha, stud, razz, the draws, badugi,
short-deck.

The house game has its own exporter (:mod:`.phh_export`), which works
around every way PokerKit reads a no-limit hand differently.  Here the
hand's own event stream is written as it happened: the deals (``d dh`` for
each player's cards — stud's streets, the cards of a draw — and ``d db``
for the board or stud's shared card), the moves (``f``, ``cc``, ``cbr``,
``pb`` for the bring-in, ``sd`` for a discard or standing pat) and the
showdown (``sm``).  A draw's new cards are written after every discard of
that draw, as PHH and PokerKit order them.

What PHH cannot say is written as a comment: a forfeited turn (R26) is the
move it counted as, with ``# timeout``; a resignation (R28) is a fold — at
the resigning player's turn, or, out of turn, where it happened, which a
strict PHH reader refuses; the chips that left the game show in
``finishing_stacks``.  Variant codes that are ours, not PHH's (docs/formats.md),
are written as they are.
"""

from __future__ import annotations

from collections.abc import Sequence

from freezeout.formats.phh import format_phh_cards
from freezeout.formats.phh_toml import hand_tail, toml_ints, toml_string
from freezeout.rules.events import (
    ActionTaken,
    CardsDealt,
    CardsShown,
    Drew,
    Event,
    HandEnded,
    HandStarted,
    HoleDealt,
    Resigned,
    StreetDealt,
)
from freezeout.rules.state import HandSetup
from freezeout.rules.variant import BettingStructure, Forced

__all__ = ["game_hand_to_phh"]


def game_hand_to_phh(
    setup: HandSetup, events: Sequence[Event], *, hand_number: int | None = None, event: str | None = None
) -> str:
    """The PHH text of one hand from its setup and its complete events
    (table seats, as a tournament reports them, private events included)."""
    started = next(e for e in events if isinstance(e, HandStarted))
    seats = started.seats  # hand seat -> table seat
    variant = setup.variant
    n = len(seats)
    hand_order = list(range(n))
    if variant.uses_button:  # PHH lists players from the small blind round to the button
        hand_order = [(setup.button + 1 + i) % n for i in range(n)]
    label = {seats[hand_seat]: f"p{index + 1}" for index, hand_seat in enumerate(hand_order)}
    lines: list[str] = []
    pending_draws: list[str] = []
    resigned: set[int] = set()
    forced_draw = False

    dealt_now: list[tuple[str, str]] = []  # one street's hole cards, written in PHH player order

    def flush() -> None:
        lines.extend(line for _key, line in sorted(dealt_now))
        dealt_now.clear()
        lines.extend(pending_draws)
        pending_draws.clear()

    announced = variant.deals_later_hole_cards or variant.has_draws  # every deal has its HoleDealt
    for happened in events:
        if isinstance(happened, CardsDealt) and happened.hole and not announced:
            by_seat = dict(happened.hole)
            for hand_seat in hand_order:
                lines.append(f"d dh {label[seats[hand_seat]]} {format_phh_cards(by_seat[seats[hand_seat]])}")
        elif isinstance(happened, HoleDealt):
            who = label[happened.seat]
            dealt_now.append((f"{int(who[1:]):03d}", f"d dh {who} {format_phh_cards(happened.cards)}"))
        elif isinstance(happened, Drew):
            who = label[happened.seat]
            thrown = f" {format_phh_cards(happened.discarded)}" if happened.discarded else ""
            lines.append(f"{who} sd{thrown}" + (" # timeout (R26, V12)" if forced_draw else ""))
            if happened.drawn:
                pending_draws.append(f"d dh {who} {format_phh_cards(happened.drawn)}")
        elif isinstance(happened, StreetDealt):
            flush()
            if happened.cards:
                lines.append(f"d db {format_phh_cards(happened.cards)}")
        elif isinstance(happened, Resigned):
            resigned.add(happened.seat)
        elif isinstance(happened, ActionTaken):
            if happened.kind in ("discard", "standpat"):
                forced_draw = happened.forced  # written with its cards, from the Drew that follows
                continue
            flush()
            lines.append(_move(happened, label[happened.seat], happened.seat in resigned))
        elif isinstance(happened, CardsShown):
            flush()
            lines.append(f"{label[happened.seat]} sm {format_phh_cards(happened.cards)}")
    flush()
    ended = next(e for e in events if isinstance(e, HandEnded))
    return _render(setup, hand_order, [seats[s] for s in hand_order], lines, ended, hand_number, event)


def _move(taken: ActionTaken, who: str, resigned: bool) -> str:
    word = {"fold": "f", "check": "cc", "call": "cc", "bringin": "pb"}.get(taken.kind) or f"cbr {taken.total}"
    line = f"{who} {word}"
    if resigned and taken.kind == "fold":
        return f"{line} # resigned (R28): the chips behind leave the game"
    if taken.forced:
        return f"{line} # timeout (R26)"
    return line


def _render(
    setup: HandSetup,
    hand_order: list[int],
    table_seats: list[int],
    lines: list[str],
    ended: HandEnded,
    hand_number: int | None,
    event: str | None,
) -> str:
    variant = setup.variant
    n = len(hand_order)
    antes = [setup.antes[seat] if setup.antes else 0 for seat in hand_order]
    blinds = [setup.blinds[seat] if setup.blinds else 0 for seat in hand_order]
    if n == 2 and variant.uses_button:  # PHH applies forced bets reversed heads-up
        antes.reverse()
        blinds.reverse()
    out = [f"variant = {toml_string(variant.code)}"]
    if any(antes):
        out.append(f"ante_trimming_status = {'true' if setup.ante_trimming else 'false'}")
    out.append(f"antes = {toml_ints(antes)}")
    if variant.forced is Forced.BLINDS:
        out.append(f"blinds_or_straddles = {toml_ints(blinds)}")
    else:
        out.append(f"bring_in = {setup.bring_in}")
    if variant.betting is BettingStructure.FIXED_LIMIT:
        small, big = setup.bet_sizes
        out += [f"small_bet = {small}", f"big_bet = {big}"]
    else:
        out.append(f"min_bet = {setup.big_blind}")
    out.append(f"starting_stacks = {toml_ints([setup.stacks[seat] for seat in hand_order])}")
    out.append("actions = [")
    out += [f"  {toml_string(line)}," for line in lines]
    out.append("]")
    out += hand_tail(hand_number, event, [setup.name(seat) for seat in hand_order], [ended.stacks[seat] for seat in table_seats])
    return "\n".join(out) + "\n"
