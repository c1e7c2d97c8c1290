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
that draw, as PHH and PokerKit order them.  When the betting ends with at
most one player in the hand who has chips behind and the board or stud's
streets are still to come (an all-in run-out), the hands are shown before
those cards are dealt: PokerKit's order, which a strict reader requires.

What PHH cannot say is written as a comment: a forfeited turn (R26) is the
move it counted as, with ``# timeout``; a resignation (R28) is a fold — at
the resigning player's turn, or, out of turn, where it happened, which a
strict PHH reader refuses; the chips that left the game show in
``finishing_stacks``.  Variant codes that are ours, not PHH's (docs/formats.md),
are written as they are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from freezeout.cards import Card
from freezeout.formats.phh import format_phh_cards
from freezeout.formats.phh_toml import hand_tail, toml_ints, toml_string
from freezeout.rules.events import (
    ActionTaken,
    BetReturned,
    BlindPosted,
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
    betting = _Betting({seat: setup.stacks[hand_seat] for hand_seat, seat in enumerate(seats)})
    shown: list[tuple[str, tuple[Card, ...]]] = []
    betting_ended_at = 0  # where the lines stood after the last move, draw or first deal
    pending_draws: list[str] = []
    resigned: set[int] = set()
    fold_line: dict[int, int] = {}  # the line of each seat's fold (a later resignation is noted there)
    forced_draw = False

    dealt_now: list[tuple[str, str]] = []  # one street's hole cards, written in PHH player order

    def flush() -> None:
        nonlocal betting_ended_at
        lines.extend(line for _key, line in sorted(dealt_now))
        dealt_now.clear()
        if pending_draws:
            lines.extend(pending_draws)
            pending_draws.clear()
            betting_ended_at = len(lines)

    announced = variant.deals_later_hole_cards or variant.has_draws  # every deal has its HoleDealt
    for happened in events:
        if isinstance(happened, CardsDealt) and happened.hole and not announced:
            by_seat = dict(happened.hole)
            for hand_seat in hand_order:
                lines.append(f"d dh {label[seats[hand_seat]]} {format_phh_cards(by_seat[seats[hand_seat]])}")
            betting_ended_at = len(lines)
        elif isinstance(happened, HoleDealt):
            who = label[happened.seat]
            dealt_now.append((f"{int(who[1:]):03d}", f"d dh {who} {format_phh_cards(happened.cards)}"))
        elif isinstance(happened, Drew):
            who = label[happened.seat]
            thrown = f" {format_phh_cards(happened.discarded)}" if happened.discarded else ""
            lines.append(f"{who} sd{thrown}" + (" # timeout (R26, V12)" if forced_draw else ""))
            betting_ended_at = len(lines)
            if happened.drawn:
                pending_draws.append(f"d dh {who} {format_phh_cards(happened.drawn)}")
        elif isinstance(happened, BlindPosted):
            betting.post(happened)
        elif isinstance(happened, BetReturned):
            betting.stacks[happened.seat] += happened.amount
        elif isinstance(happened, StreetDealt):
            betting.new_round()
            flush()
            if happened.cards:
                lines.append(f"d db {format_phh_cards(happened.cards)}")
        elif isinstance(happened, Resigned):
            resigned.add(happened.seat)
            if happened.seat in fold_line:  # folded already: the fold line says where the chips went (R28)
                index = fold_line[happened.seat]
                note = f"resigned (R28) after folding: the {betting.stacks[happened.seat]} chips behind leave the game"
                lines[index] += f"; {note}" if " # " in lines[index] else f" # {note}"
        elif isinstance(happened, ActionTaken):
            if happened.kind in ("discard", "standpat"):
                forced_draw = happened.forced  # written with its cards, from the Drew that follows
                continue
            flush()
            others = [seat for seat in betting.stacks if seat != happened.seat and seat not in betting.folded]
            if happened.kind == "bringin" and others and not any(betting.stacks[seat] for seat in others):
                betting.move(happened)  # nobody can answer it: PokerKit posts no bring-in (formats.md)
                continue
            lines.append(_move(happened, label[happened.seat], happened.seat in resigned))
            if happened.kind == "fold" and happened.seat not in resigned:
                fold_line[happened.seat] = len(lines) - 1
            extra = betting.move(happened)
            if extra >= 0:
                lines.append(f"{label[extra]} cc # D1 ended the round (nobody left to bet against); "
                             "PokerKit still gives him this turn")
            betting_ended_at = len(lines)
        elif isinstance(happened, CardsShown):
            flush()
            shown.append((label[happened.seat], happened.cards))
    flush()
    # Cards dealt after the last move are an all-in run-out: the hands are shown before it,
    # each the cards it holds by then; stud's later streets, dealt after that showdown,
    # are shown again with the whole hand at the end (PokerKit's second showdown).
    at = betting_ended_at if shown and betting_ended_at else len(lines)
    held = Counter[str]()
    for line in lines[:at]:
        if line.startswith("d dh "):
            _d, _dh, who, cards = line.split(" ", 3)
            held[who] += len(cards.split(" ", 1)[0]) // 2
    lines[at:at] = [f"{who} sm {format_phh_cards(cards[: held[who]])}" for who, cards in shown]
    lines += [f"{who} sm {format_phh_cards(cards)}" for who, cards in shown if held[who] < len(cards)]
    ended = next(e for e in events if isinstance(e, HandEnded))
    return _render(setup, hand_order, [seats[s] for s in hand_order], lines, ended, hand_number, event,
                   _posted_out_of_turn(setup, seats, events))


def _posted_out_of_turn(setup: HandSetup, seats: Sequence[int], events: Sequence[Event]) -> dict[int, bool]:
    """The hand seats that posted a live big blind out of turn (C4: a new or returning
    player), each with whether that blind ends up dead (they folded at their first turn, or
    never had one).  PHH's third and later ``blinds_or_straddles`` are straddles, whose
    poster acts last; such a player acts in their turn instead, so PHH gets the blind as
    their first move (``cc``: the same chips), or as a dead ante when they fold it."""
    if not setup.out_of_turn:
        return {}
    first: dict[int, str] = {}
    for happened in events:
        if isinstance(happened, ActionTaken) and happened.seat not in first:
            first[happened.seat] = happened.kind
    return {hand_seat: first.get(seats[hand_seat], "fold") == "fold"
            for hand_seat, flag in enumerate(setup.out_of_turn) if flag and setup.blinds and setup.blinds[hand_seat]}


class _Betting:
    """Enough of the betting, followed from the events, to see the turn PokerKit
    still gives (D1, as the house game's exporter writes it): when only one player
    can still bet and has put in at least as much as everyone else, the rules end
    the round; PokerKit lets a player who has not acted in the round yet (and could
    still lose chips when it began) check first."""

    def __init__(self, stacks: dict[int, int]) -> None:
        self.stacks = stacks
        self.bets = dict.fromkeys(stacks, 0)
        self.folded: set[int] = set()
        self.acted: set[int] = set()
        self.start: tuple[dict[int, int], dict[int, int], frozenset[int]] | None = None

    def post(self, posted: BlindPosted) -> None:
        self.stacks[posted.seat] -= posted.amount
        if posted.kind not in ("ante", "dead"):
            self.bets[posted.seat] += posted.amount

    def new_round(self) -> None:
        self.bets = dict.fromkeys(self.stacks, 0)
        self.acted.clear()
        self.start = None

    def move(self, taken: ActionTaken) -> int:
        """Follow ``taken``; the seat PokerKit still asks to act after it, or -1."""
        if self.start is None:
            self.start = (dict(self.stacks), dict(self.bets), frozenset(self.folded))
        self.stacks[taken.seat] -= taken.added
        self.bets[taken.seat] = taken.total
        self.acted.add(taken.seat)
        if taken.kind == "fold":
            self.folded.add(taken.seat)
        live = [seat for seat in self.stacks if seat not in self.folded]
        able = [seat for seat in live if self.stacks[seat] > 0]
        if len(live) < 2 or len(able) != 1 or able[0] == taken.seat:
            return -1
        only = able[0]
        if only in self.acted or self.bets[only] < max(self.bets.values()) or self._effective(only) == 0:
            return -1
        self.acted.add(only)
        return only

    def _effective(self, seat: int) -> int:
        """PokerKit's effective stack when the round began: what ``seat`` could still lose."""
        assert self.start is not None
        stacks, bets, folded = self.start
        totals = sorted(stacks[other] + bets[other] for other in stacks if other not in folded)
        if len(totals) < 2:
            return 0
        return min(stacks[seat], max(0, totals[-2] - bets[seat]))


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
    out_of_turn: dict[int, bool] | None = None,
) -> str:
    variant = setup.variant
    n = len(hand_order)
    # a dead blind (C4) is dead money, as an ante that is not trimmed; so is a blind posted
    # out of turn and folded (see _posted_out_of_turn), one called is the poster's first move
    dead = [(setup.antes[seat] if setup.antes else 0, setup.dead[seat] if setup.dead else 0) for seat in hand_order]
    late = out_of_turn or {}
    antes = [ante + extra + (setup.blinds[seat] if late.get(seat) else 0)
             for seat, (ante, extra) in zip(hand_order, dead, strict=True)]
    blinds = [0 if seat in late else setup.blinds[seat] if setup.blinds else 0 for seat in hand_order]
    if n == 2 and variant.uses_button:  # PHH applies forced bets reversed heads-up
        antes.reverse()
        blinds.reverse()
    out = [f"variant = {toml_string(variant.code)}"]
    if any(antes):
        trimming = setup.ante_trimming and not any(extra for _, extra in dead) and not any(late.values())
        out.append(f"ante_trimming_status = {'true' if trimming else 'false'}")
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
