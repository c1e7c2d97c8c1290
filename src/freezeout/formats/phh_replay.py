"""Replay PHH hand histories through the rules engine (formats.md §2).

The engine counts whole chips; hand histories of cash games do not
(``0.10``/``0.25`` blinds, Pluribus' ``10112.5`` half-chip splits).  A hand
is therefore replayed in *units*: every amount of the file — starting
stacks, antes, blinds, ``min_bet``, bet amounts and ``finishing_stacks`` —
is multiplied by the smallest power of ten that makes all of them whole,
the integer engine plays the hand, and the results are divided back.
Including ``finishing_stacks`` in that choice matters: a pot of 225 split
between two winners yields 112.5 each only if the engine may deal in
tenths, and R22's "one chip at a time" then hands out tenths.

Mapping PHH onto :class:`~freezeout.rules.hand.HandSetup`:

* hand seats are the PHH players in file order (``p1`` → seat 0); PHH lists
  players from the small blind round to the button, so the button is the
  last seat, heads-up included;
* heads-up, ``antes`` and ``blinds_or_straddles`` are applied reversed, as
  the PHH standard says ("the forced bets are reversed in heads-up games"):
  ``[1, 2]`` makes ``p1`` the big blind and ``p2`` (the button) the small
  blind;
* a negative ``blinds_or_straddles`` entry (PokerKit's extension, used by
  HandHQ for a blind posted out of turn by a player joining the table) is a
  *live* blind of that size which does not decide who acts first; it is
  given to the engine as a live blind (see :func:`build_setup`);
* the min bet is ``min_bet`` or, if absent, the largest blind;
* ``ante_trimming_status`` (PHH default false) becomes
  ``HandSetup.ante_trimming``: with trimming, antes are each player's
  contribution to the pots (R20 levels: a short ante can only win its
  share); without, they are dead money in the main pot — what a big-blind
  ante needs.  PokerKit's ``true`` goes further and refunds at once the part
  of an ante above the second largest one (so a big-blind ante comes back
  even if its poster folds); the engine only returns it through a pot
  nobody else can win.  The two agree on uniform antes;
* hole cards come from ``d dh`` and from showdown ``sm`` actions (a hand
  unknown at the deal but shown at showdown is used at showdown); a hand
  with an unknown card is ``None`` and cannot win.  A muck (``pN sm``
  without cards) forfeits the hand in both rulesets: the standard ruleset
  lets losing hands be mucked (R17), and in a house game, where nobody may
  muck, a history's muck can only be a resignation's forfeit (R28, see
  :mod:`freezeout.formats.phh_export`) — for a losing hand it changes no
  chips either way;
* the board is the concatenation of the ``d db`` deals; the replay checks
  that each deal comes exactly when the engine's betting round has ended.

Only No-Limit Texas Hold'em (``NT``) is played; other variants give the
error ``variant 'FT' is not supported yet``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from freezeout.cards import Card, full_deck
from freezeout.formats.phh import (
    PhhAction,
    PhhActionKind,
    PhhCard,
    PhhError,
    PhhHand,
    format_phh_cards,
    parse_phh,
)
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import RulesError
from freezeout.rules.events import BetReturned, Event, PotAwarded
from freezeout.rules.hand import HandSetup, HandState, apply, start_hand
from freezeout.rules.legal import LegalActions, legal_actions
from freezeout.rules.variant import NLHE, Ruleset, Variant

__all__ = [
    "PhhReplay",
    "build_setup",
    "chip_scale",
    "from_units",
    "json_amount",
    "replay_phh",
    "replay_phh_file",
    "replay_phh_files",
    "replay_phh_text",
    "to_units",
]

_VARIANTS: dict[str, Variant] = {NLHE.code: NLHE}


# ---------------------------------------------------------------- amounts


def _decimals(value: Decimal) -> int:
    """Digits after the point once trailing zeros are dropped (``9775.0`` → 0).

    Works on the digit tuple rather than ``normalize()``, which rounds to the
    context precision (28 digits) and could silently change a long amount.
    """
    _sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int), "amounts are finite"
    zeros = 0
    for digit in reversed(digits):
        if digit != 0 or zeros == len(digits) - 1:
            break
        zeros += 1
    return max(0, -(exponent + zeros))


def _pow10(power: int) -> int:
    """``10 ** power`` typed as ``int`` (``int ** int`` is ``Any`` to mypy)."""
    return int(10**power)


def chip_scale(values: Iterable[Decimal]) -> int:
    """The smallest power of ten that makes every amount a whole number."""
    return _pow10(max((_decimals(value) for value in values), default=0))


def to_units(value: Decimal, scale: int) -> int:
    """``value * scale`` as an exact int (``scale`` from :func:`chip_scale`)."""
    sign, digits, exponent = value.as_tuple()
    assert isinstance(exponent, int)
    mantissa = int("".join(map(str, digits)) or "0")
    numerator = mantissa * scale
    if exponent >= 0:
        units = numerator * _pow10(exponent)
    else:
        units, remainder = divmod(numerator, _pow10(-exponent))
        if remainder:
            raise ValueError(f"{value} is not a whole number of 1/{scale}")
    return -units if sign else units


def from_units(units: int, scale: int) -> Decimal:
    """Exact inverse of :func:`to_units`: ``Decimal`` built from digits, no rounding."""
    places = len(str(scale)) - 1
    return Decimal((1 if units < 0 else 0, tuple(int(d) for d in str(abs(units))), -places))


def json_amount(value: Decimal) -> int | float:
    """An amount for JSON: an ``int`` when whole, else the float whose shortest
    repr is exactly the decimal (``10112.5``, ``0.35``; never float noise).

    ``repr(float)`` is the shortest string that round-trips, so for the
    amounts of hand histories (far fewer than 15 significant digits) the
    printed JSON number is the exact decimal; the assertion guards the rest.
    """
    if value == value.to_integral_value():
        return int(value)
    number = float(value)
    if Decimal(repr(number)) != value:
        raise ValueError(f"{value} has too many digits to be written exactly as a JSON number")
    return number


# ---------------------------------------------------------------- result


@dataclass(frozen=True, slots=True)
class PhhReplay:
    """A replayed hand: the engine's final state and the exact outcome.

    ``scale`` is the number of engine chips per unit of the file; amounts in
    ``setup``, ``state`` and ``events`` are in engine chips.
    ``finishing_stacks`` are in file units: the stacks after the hand (or,
    for a history that stops before the end, the chips behind after its last
    action, as the PHH standard reads ``finishing_stacks`` of such a file).
    """

    hand: PhhHand
    scale: int
    setup: HandSetup
    state: HandState
    events: tuple[Event, ...]
    finishing_stacks: tuple[Decimal, ...]
    matches: bool | None

    @property
    def payouts(self) -> tuple[Decimal, ...]:
        """Chips won from the pots (R20–R22), without returned uncalled bets."""
        payouts = self.state.payouts or (0,) * self.state.seat_count
        return tuple(from_units(chips, self.scale) for chips in payouts)

    @property
    def returned(self) -> tuple[Decimal, ...]:
        """Uncalled bets given back to each player (R21, D6)."""
        back = [0] * self.state.seat_count
        for event in self.events:
            if isinstance(event, BetReturned):
                back[event.seat] += event.amount
        return tuple(from_units(chips, self.scale) for chips in back)

    def to_json(self, file: str) -> dict[str, Any]:
        """The JSON line of formats.md §2 for this hand."""
        return {
            "file": file,
            "variant": self.hand.variant,
            "finishing_stacks": [json_amount(value) for value in self.finishing_stacks],
            "matches": self.matches,
        }


# ---------------------------------------------------------------- setup


@dataclass(frozen=True, slots=True)
class _Cards:
    """What the whole file says about the cards, gathered before the replay."""

    hole: tuple[tuple[Card, ...] | None, ...]
    board: tuple[Card, ...]  # the file's board, then placeholders up to the full board
    known_board: int  # how many of ``board`` the file deals


def _scan_cards(hand: PhhHand, variant: Variant) -> _Cards:
    """Collect hole cards (deal, then showdown reveals), mucks and the board,
    checking card counts, street sizes and that no card appears twice."""
    count = hand.player_count
    dealt: list[tuple[PhhCard, ...] | None] = [None] * count
    shown: list[tuple[PhhCard, ...] | None] = [None] * count
    mucked = [False] * count
    board: list[Card] = []
    street = 0
    owner: dict[Card, str] = {}

    def claim(cards: Iterable[PhhCard], who: str, action: PhhAction) -> None:
        for card in cards:
            if card is None:
                continue
            previous = owner.get(card)
            if previous is not None and previous != who:
                raise action.error(f"card {card} is dealt twice ({previous} and {who})")
            owner[card] = who

    for action in hand.actions:
        player = action.player
        if action.kind is PhhActionKind.DEAL_HOLE:
            assert player is not None and action.cards is not None
            label = hand.label(player)
            if dealt[player] is not None:
                raise action.error(f"{label} is dealt hole cards twice")
            if len(action.cards) != variant.hole_cards:
                raise action.error(
                    f"{label} is dealt {len(action.cards)} cards; {variant.code} deals {variant.hole_cards}"
                )
            claim(action.cards, label, action)
            dealt[player] = action.cards
        elif action.kind is PhhActionKind.DEAL_BOARD:
            assert action.cards is not None
            street += 1
            if street >= len(variant.streets):
                raise action.error("the board is already complete")
            expected = variant.streets[street]
            if len(action.cards) != expected:
                name = variant.street_names[street]
                raise action.error(f"the {name} is {expected} card(s), not {len(action.cards)}")
            claim(action.cards, "the board", action)
            board.extend(card for card in action.cards if card is not None)
        elif action.kind is PhhActionKind.SHOW_MUCK:
            assert player is not None
            label = hand.label(player)
            if action.shows_dealt:
                shown[player] = dealt[player]
            elif action.cards is None:
                mucked[player] = True
            else:
                if len(action.cards) != variant.hole_cards:
                    raise action.error(
                        f"{label} shows {len(action.cards)} cards; {variant.code} hands have {variant.hole_cards}"
                    )
                known = dealt[player]
                if known is not None:
                    clash = [
                        card
                        for card in known
                        if card is not None and None not in action.cards and card not in action.cards
                    ]
                    if clash:
                        raise action.error(
                            f"{label} shows {format_phh_cards(action.cards)} but was dealt {format_phh_cards(known)}"
                        )
                claim(action.cards, label, action)
                shown[player] = action.cards
    hole: list[tuple[Card, ...] | None] = []
    for player in range(count):
        cards: tuple[Card, ...] | None = None
        for candidate in (dealt[player], shown[player]):
            if candidate is not None and None not in candidate:
                cards = tuple(card for card in candidate if card is not None)
                break
        if mucked[player]:
            cards = None  # R17: a mucked hand cannot win
        hole.append(cards)
    # The engine takes the whole board up front; a history that stops before
    # the river gets placeholder cards (unused ones) so the engine can deal the
    # next street.  The replay refuses any result that would depend on them.
    known_board = len(board)
    spare = (card for card in full_deck() if card not in owner)
    board.extend(next(spare) for _ in range(variant.board_size - known_board))
    return _Cards(tuple(hole), tuple(board), known_board)


def _amounts_of(hand: PhhHand) -> list[Decimal]:
    values = [*hand.starting_stacks, *hand.antes, *(abs(b) for b in hand.blinds_or_straddles)]
    values += [action.amount for action in hand.actions if action.amount is not None]
    if hand.min_bet is not None:
        values.append(hand.min_bet)
    if hand.finishing_stacks is not None:
        values += hand.finishing_stacks
    return values


def _variant(hand: PhhHand) -> Variant:
    found = _VARIANTS.get(hand.variant)
    if found is None:
        raise PhhError(f"variant {hand.variant!r} is not supported yet")
    return found


def build_setup(hand: PhhHand, ruleset: Ruleset = Ruleset.STANDARD) -> tuple[HandSetup, int]:
    """The engine's :class:`HandSetup` for ``hand`` and the chip ``scale`` used.

    Heads-up the forced bets are reversed (PHH standard).  A negative
    ``blinds_or_straddles`` entry becomes a live blind of its absolute size
    posted out of turn (``HandSetup.out_of_turn``): a live bet that does not
    decide who acts first, as in PokerKit.
    """
    variant = _variant(hand)
    scale = chip_scale(_amounts_of(hand))
    count = hand.player_count
    if not 2 <= count <= 10:
        raise PhhError(f"the engine plays 2 to 10 players, this hand has {count}")
    stacks = tuple(to_units(value, scale) for value in hand.starting_stacks)
    antes = [to_units(value, scale) for value in hand.antes]
    blinds = [to_units(abs(value), scale) for value in hand.blinds_or_straddles]
    out_of_turn = [value < 0 for value in hand.blinds_or_straddles]
    if count == 2:  # PHH: forced bets are reversed heads-up (the button, p2, posts the small blind)
        antes.reverse()
        blinds.reverse()
        out_of_turn.reverse()
    if hand.min_bet is not None:
        big_blind = to_units(hand.min_bet, scale)
    else:
        big_blind = max(blinds, default=0)
        if big_blind <= 0:
            raise PhhError("no 'min_bet' and no blinds: the minimum bet is unknown")
    cards = _scan_cards(hand, variant)
    setup = HandSetup(
        stacks=stacks,
        button=count - 1,
        blinds=tuple(blinds),
        big_blind=big_blind,
        hole=cards.hole,
        board=cards.board,
        antes=tuple(antes) if any(antes) else (),
        ante_trimming=hand.ante_trimming_status,
        out_of_turn=tuple(out_of_turn) if any(out_of_turn) else (),
        ruleset=ruleset,
        variant=variant,
        names=tuple(hand.label(player) for player in range(count)),
    )
    return setup, scale


# ---------------------------------------------------------------- replay


def _amount_problem(legal: LegalActions, amount: int, scale: int) -> str | None:
    """The engine's reasons for a bad ``cbr`` amount, in the file's units.

    Only used when the file is scaled, so that the message does not quote
    engine chips (tenths, cents) the reader never wrote.
    """

    def show(units: int) -> str:
        return str(from_units(units, scale).normalize())

    word = legal.raise_word
    if not legal.opening and amount <= legal.to_match:
        return f"raise to {show(amount)} must exceed the bet to match {show(legal.to_match)}"
    if amount > legal.all_in_to:
        return f"{word} to {show(amount)} is more than the stack allows (all-in is {show(legal.all_in_to)})"
    if legal.can_raise and amount < legal.min_to and amount != legal.all_in_to:
        if word == "bet":
            return f"bet of {show(amount)} is below the minimum bet of {show(legal.min_to)}"
        return f"raise to {show(amount)} is below the minimum raise to {show(legal.min_to)}"
    return None


def _engine_action(action: PhhAction, legal: LegalActions, scale: int) -> Action:
    """PHH ``f`` / ``cc`` / ``cbr N`` → the engine's move words (D5)."""
    seat = legal.seat
    if action.kind is PhhActionKind.FOLD:
        return Action(seat, ActionKind.FOLD)
    if action.kind is PhhActionKind.CHECK_CALL:
        return Action(seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    assert action.amount is not None
    amount = to_units(action.amount, scale)
    if scale != 1:
        problem = _amount_problem(legal, amount, scale)
        if problem:
            raise action.error(problem)
    # "cbr" is a bet when nobody has bet, else a raise; a whole-stack amount
    # is an all-in even below the minimum (D5), which the engine accepts as is.
    return Action(seat, ActionKind.BET if legal.opening else ActionKind.RAISE, amount)


def _board_decides(state: HandState, events: Sequence[Event]) -> bool:
    """Whether some pot was contested by two or more known hands, so that the
    board (possibly placeholder cards) decided who won it.  When every other
    hand was mucked, the last one wins without the rest of the board, as a
    PHH reader ends the hand after the mucks."""
    hole = state.setup.hole
    return any(
        sum(1 for seat in event.eligible if hole and hole[seat] is not None) >= 2
        for event in events
        if isinstance(event, PotAwarded)
    )


def replay_phh(hand: PhhHand, ruleset: Ruleset = Ruleset.STANDARD) -> PhhReplay:
    """Replay one parsed hand; raise :class:`PhhError` naming the failing action."""
    setup, scale = build_setup(hand, ruleset)
    try:
        state, first_events = start_hand(setup)
    except RulesError as error:
        raise PhhError(str(error)) from None
    events: list[Event] = list(first_events)
    board_seen = 0
    betting_started = False
    for action in hand.actions:
        kind = action.kind
        if kind is PhhActionKind.NO_OP:
            continue
        if kind is PhhActionKind.DEAL_HOLE:
            if betting_started:
                raise action.error("hole cards are dealt after the betting has started")
            continue
        if kind is PhhActionKind.DEAL_BOARD:
            assert action.cards is not None
            board_seen += len(action.cards)
            if state.finished and not state.showdown:
                raise action.error("the hand is already over: no more cards are dealt")
            if state.board_dealt < board_seen:
                street = state.setup.variant.street_names[state.street]
                raise action.error(f"the board is dealt before the {street} betting round is over")
            continue
        assert action.player is not None
        label = hand.label(action.player)
        if kind is PhhActionKind.SHOW_MUCK:
            if state.folded[action.player]:
                raise action.error(f"{label} has folded and is not in the showdown")
            if not state.finished and state.actor >= 0:
                raise action.error("cards are shown or mucked before the betting is over")
            continue
        if kind in (PhhActionKind.DISCARD, PhhActionKind.BRING_IN):
            raise action.error(f"'{kind.value}' is not an action of {hand.variant}")
        betting_started = True
        if state.finished:
            raise action.error("the hand is over")
        if state.board_dealt > board_seen:
            street = state.setup.variant.street_names[state.street]
            raise action.error(f"the {street} must be dealt ('d db') before {label} acts")
        legal = legal_actions(state)
        if legal is None:
            raise action.error("nobody is to act")
        if legal.seat != action.player:
            raise action.error(f"it is {hand.label(legal.seat)}'s turn, not {label}'s")
        move = _engine_action(action, legal, scale)
        try:
            state, new_events = apply(state, move)
        except RulesError as error:
            raise action.error(str(error)) from None
        events.extend(new_events)
    if state.board_dealt > board_seen and state.finished and _board_decides(state, events):
        raise PhhError(
            f"the hand reaches the showdown with {state.board_dealt} board cards, but the file deals {board_seen}"
        )
    chips = state.final_stacks() if state.finished else state.stacks
    finishing = tuple(from_units(value, scale) for value in chips)
    matches: bool | None = None
    if hand.finishing_stacks is not None:
        matches = all(ours == theirs for ours, theirs in zip(finishing, hand.finishing_stacks, strict=True))
    return PhhReplay(hand, scale, setup, state, tuple(events), finishing, matches)


def replay_phh_text(text: str, ruleset: Ruleset = Ruleset.STANDARD) -> PhhReplay:
    """Parse and replay one hand given as TOML text."""
    return replay_phh(parse_phh(text), ruleset)


def replay_phh_file(path: str, ruleset: Ruleset = Ruleset.STANDARD) -> dict[str, Any]:
    """The JSON-ready result line of formats.md §2 for one file.

    Never raises for a bad file: an unreadable file, malformed TOML or an
    illegal action becomes ``{"file": ..., "error": ...}``.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        return {"file": path, "error": f"cannot read the file: {error.strerror or error}"}
    except UnicodeDecodeError as error:
        return {"file": path, "error": f"cannot read the file: not UTF-8 ({error.reason})"}
    try:
        return replay_phh_text(text, ruleset).to_json(path)
    except (PhhError, RulesError, ValueError) as error:
        return {"file": path, "error": str(error)}


def replay_phh_files(
    paths: Sequence[str], ruleset: Ruleset = Ruleset.STANDARD
) -> tuple[list[dict[str, Any]], int]:
    """Replay every file; return one JSON-ready dict per file and the exit status.

    The status is 0 when every file replayed and none mismatched its
    ``finishing_stacks`` (``matches`` null — no outcome in the file — is not
    a failure), else 2 (formats.md §2).
    """
    results = [replay_phh_file(path, ruleset) for path in paths]
    ok = all("error" not in result and result.get("matches") is not False for result in results)
    return results, 0 if ok else 2


def dumps_result(result: dict[str, Any]) -> str:
    """One output line (default separators, non-ASCII kept readable)."""
    return json.dumps(result, ensure_ascii=False)
