"""From a PHH hand history to the engine's :class:`HandSetup` (formats.md §2).

Amounts: the engine counts whole chips; hand histories of cash games do not
(``0.10``/``0.25`` blinds, Pluribus' ``10112.5`` half-chip splits).  A hand
is therefore replayed in *units*: every amount of the file — starting
stacks, antes, blinds, bring-in, bet sizes, bet amounts and
``finishing_stacks`` — is multiplied by the smallest power of ten that makes
all of them whole, the integer engine plays the hand, and the results are
divided back.  Including ``finishing_stacks`` in that choice matters: a pot
of 225 split between two winners yields 112.5 each only if the engine may
deal in tenths, and R22's "one chip at a time" then hands out tenths.

Cards: the engine takes a hand's cards as one deck in its dealing order
(:mod:`freezeout.rules.dealing`: each street seat by seat, then the board;
draws as they happen).  :func:`scan_cards` builds that deck from the
file's ``d dh`` and ``d db`` deals, taking the cards a player shows down for
the ones the file did not know at the deal, and pads a history that stops
early with cards nobody holds so that the engine can go on dealing; the
replay refuses any result that depends on them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal

from freezeout.cards import Card
from freezeout.formats.phh import (
    PhhAction,
    PhhActionKind,
    PhhCard,
    PhhError,
    PhhHand,
    format_phh_cards,
    parse_phh_cards,
)
from freezeout.rules.pots import Rake
from freezeout.rules.state import HandSetup
from freezeout.rules.variant import Forced, Ruleset, UnsupportedVariant, Variant
from freezeout.rules.variant import variant as find_variant

__all__ = ["PhhCards", "build_setup", "chip_scale", "from_units", "json_amount", "scan_cards", "to_units", "variant_of"]


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




# ---------------------------------------------------------------- cards


@dataclass(frozen=True, slots=True)
class PhhCards:
    """What the whole file says about the cards, gathered before the replay."""

    hole: tuple[tuple[Card | None, ...] | None, ...]  # every card each player is dealt, in order, padded; None: unknown
    board: tuple[Card | None, ...]  # the board (stud: the shared card), padded past the file's last deal
    known_hole: tuple[int, ...]  # how many of each player's cards the file deals
    known_board: int  # how many board cards the file deals
    shows: tuple[tuple[Card, ...] | None, ...]  # the cards each player shows down, where the file gives them
    mucked: tuple[bool, ...]  # players who muck at showdown (``pN sm`` without cards)


def variant_of(hand: PhhHand) -> Variant:
    try:
        return find_variant(hand.variant)
    except UnsupportedVariant:
        raise PhhError(f"variant {hand.variant!r} is not supported") from None


def scan_cards(hand: PhhHand, variant: Variant) -> PhhCards:
    """Collect the deals (hole, board, draws) and showdown reveals, checking
    card counts and street sizes; each player's cards and the board become
    the hand's cards (:mod:`freezeout.rules.dealing`), padded so that a
    history that stops early can still be dealt on."""
    count = hand.player_count
    hole: list[list[PhhCard]] = [[] for _ in range(count)]
    board: list[PhhCard] = []
    shown: list[tuple[PhhCard, ...] | None] = [None] * count
    mucked = [False] * count
    owner: dict[Card, str] = {}
    first_street = len(variant.streets[0].hole)
    board_streets = [street for street in variant.streets[1:] if street.board]
    board_deals = 0

    def claim(cards: Iterable[PhhCard], who: str, action: PhhAction) -> None:
        for card in cards:
            if card is None:
                continue
            if card not in variant.deck:
                raise action.error(f"card {card} is not in the deck of {variant.name}")
            previous = owner.get(card)
            if previous is not None and previous != who and not variant.has_draws:
                raise action.error(f"card {card} is dealt twice ({previous} and {who})")
            owner[card] = who

    for action in hand.actions:
        player = action.player
        if action.kind is PhhActionKind.DEAL_HOLE:
            assert player is not None and action.cards is not None
            label = hand.label(player)
            dealt = hole[player]
            if not dealt and len(action.cards) != first_street:
                raise action.error(f"{label} is dealt {len(action.cards)} cards; {variant.code} deals {first_street}")
            if dealt and not (variant.has_draws or variant.deals_later_hole_cards):
                raise action.error(f"{label} is dealt hole cards twice")
            if not variant.has_draws and len(dealt) + len(action.cards) > variant.total_hole_cards:
                raise action.error(f"{label} is dealt more than the {variant.total_hole_cards} cards of {variant.code}")
            claim(action.cards, label, action)
            dealt.extend(action.cards)
        elif action.kind is PhhActionKind.DEAL_BOARD:
            assert action.cards is not None
            board_deals += 1
            if not board_streets and variant.deals_later_hole_cards and len(action.cards) == 1 and board_deals == 1:
                pass  # V7: the shared card of seventh street
            elif board_deals > len(board_streets):
                raise action.error("the board is already complete")
            elif len(action.cards) != board_streets[board_deals - 1].board:
                street = board_streets[board_deals - 1]
                raise action.error(f"the {street.name} is {street.board} card(s), not {len(action.cards)}")
            claim(action.cards, "the board", action)
            board.extend(action.cards)
        elif action.kind is PhhActionKind.SHOW_MUCK:
            assert player is not None
            if action.shows_dealt:
                continue
            if action.cards is None:
                mucked[player] = True
            else:
                if not variant.has_draws and hole[player]:
                    _check_shown(action, hand.label(player), hole[player], action.cards)
                claim(action.cards, hand.label(player), action)
                shown[player] = action.cards
    shows = tuple(
        tuple(card for card in reveal if card is not None)
        if reveal is not None and None not in reveal and not mucked[player]
        else None
        for player, reveal in enumerate(shown)
    )
    known_hole = tuple(len(cards) for cards in hole)
    known_board = len(board)
    # Padding: spare cards for the board (a run-out the file stops before), unknown cards for the players.
    spare = [card for card in variant.deck if card not in owner]
    board.extend(spare[: max(0, variant.board_size - known_board)])  # stud's shared card is past board_size (V7)
    most = variant.total_hole_cards if not variant.has_draws else variant.hole_cards * (1 + len(variant.streets))
    padded = tuple(
        None if all(card is None for card in cards) else tuple(cards) + (None,) * (most - len(cards)) for cards in hole
    )
    return PhhCards(padded, tuple(board), known_hole, known_board, shows, tuple(mucked))


def _check_shown(action: PhhAction, label: str, dealt: list[PhhCard], reveal: tuple[PhhCard, ...]) -> None:
    """Shown cards must be the dealt ones wherever both are known (flop
    games and stud, where a player's cards never change)."""
    if len(reveal) != len(dealt):
        raise action.error(f"{label} shows {len(reveal)} cards but was dealt {len(dealt)}")
    clash = [card for card in dealt if card is not None and None not in reveal and card not in reveal]
    if clash:
        raise action.error(f"{label} shows {format_phh_cards(reveal)} but was dealt {format_phh_cards(dealt)}")


# ---------------------------------------------------------------- setup


def amounts_of(hand: PhhHand) -> list[Decimal]:
    values = [*hand.starting_stacks, *hand.antes, *(abs(b) for b in hand.blinds_or_straddles)]
    values += [action.amount for action in hand.actions if action.amount is not None]
    for value in (hand.min_bet, hand.bring_in, hand.small_bet, hand.big_bet):
        if value is not None:
            values.append(value)
    if hand.finishing_stacks is not None:
        values += hand.finishing_stacks
    return values


def build_setup(hand: PhhHand, ruleset: Ruleset = Ruleset.STANDARD) -> tuple[HandSetup, int]:
    """The engine's :class:`HandSetup` for ``hand`` and the chip ``scale`` used.

    Heads-up the forced bets are reversed (PHH standard).  A negative
    ``blinds_or_straddles`` entry becomes a live blind of its absolute size
    posted out of turn (``HandSetup.out_of_turn``): a live bet that does not
    decide who acts first, as in PokerKit.  Stud games post antes and a
    bring-in; fixed-limit games bet ``small_bet`` and ``big_bet``.
    """
    variant = variant_of(hand)
    setup, _cards, scale = build_setup_and_cards(hand, variant, ruleset)
    return setup, scale


def _cash_fields(hand: PhhHand, scale: int, board: tuple[PhhCard, ...], count: int,
                 ) -> tuple[Rake | None, tuple[PhhCard, ...], tuple[int, ...]]:
    """A cash hand's user-defined fields (docs/formats.md, PHH export of cash hands): ``_rake``,
    the chips the house took (C5: the engine takes exactly that many from the pots), and
    ``_second_board``, the whole board of a second run (C7: every player agreed; its new
    cards follow the first run's on the board, as a recorded board runs twice)."""
    fields = hand.fields
    rake: Rake | None = None
    raw = fields.get("_rake")
    if raw is not None:
        if isinstance(raw, bool) or not isinstance(raw, (int, Decimal)) or raw < 0:
            raise PhhError(f"'_rake' is a number of chips, not {raw!r}")
        taken = to_units(Decimal(raw), scale)
        rake = Rake(10000, (taken, taken, taken)) if taken else None
    second = fields.get("_second_board")
    if second is None:
        return rake, board, ()
    if not isinstance(second, str):
        raise PhhError(f"'_second_board' is a string of cards, not {second!r}")
    try:
        run = parse_phh_cards(second)
    except PhhError as error:
        raise PhhError(f"'_second_board': {error}") from None
    new = tuple(card for card in run if card not in board)
    return rake, board + new, tuple(range(count))


def build_setup_and_cards(hand: PhhHand, variant: Variant, ruleset: Ruleset) -> tuple[HandSetup, PhhCards, int]:
    scale = chip_scale(amounts_of(hand))
    count = hand.player_count
    if not variant.min_players <= count <= variant.max_players:
        raise PhhError(f"{variant.name} is played by {variant.min_players} to {variant.max_players} players, this hand has {count}")
    stacks = tuple(to_units(value, scale) for value in hand.starting_stacks)
    antes = [to_units(value, scale) for value in hand.antes]
    blinds = [to_units(abs(value), scale) for value in hand.blinds_or_straddles]
    out_of_turn = [value < 0 for value in hand.blinds_or_straddles]
    if count == 2 and variant.forced is Forced.BLINDS:  # PHH: forced bets are reversed heads-up
        antes.reverse()
        blinds.reverse()
        out_of_turn.reverse()

    def units(value: Decimal | None) -> int:
        return to_units(value, scale) if value is not None else 0

    small_bet, big_bet, bring_in = units(hand.small_bet), units(hand.big_bet), units(hand.bring_in)
    if hand.min_bet is not None:
        big_blind = to_units(hand.min_bet, scale)
    else:
        big_blind = max(blinds, default=0) or small_bet
        if big_blind <= 0:
            raise PhhError("no 'min_bet', no blinds and no 'small_bet': the minimum bet is unknown")
    if variant.forced is Forced.BRING_IN and any(blinds):
        raise PhhError(f"{variant.code} has no blinds ('blinds_or_straddles' must be zero)")
    if variant.forced is not Forced.BRING_IN and bring_in:
        raise PhhError(f"{variant.code} has no bring-in")
    cards = scan_cards(hand, variant)
    rake, board, run_twice = _cash_fields(hand, scale, cards.board, count)
    setup = HandSetup(
        stacks=stacks,
        button=count - 1,
        blinds=tuple(blinds) if any(blinds) else (),
        big_blind=big_blind,
        antes=tuple(antes) if any(antes) else (),
        ante_trimming=hand.ante_trimming_status,
        out_of_turn=tuple(out_of_turn) if any(out_of_turn) else (),
        ruleset=ruleset,
        variant=variant,
        names=tuple(hand.label(player) for player in range(count)),
        hole=cards.hole,
        board=board,
        rake=rake,
        run_twice=run_twice,
        mucks=cards.mucked if any(cards.mucked) else (),
        shows=cards.shows if any(cards.shows) else (),
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
    )
    return setup, cards, scale
