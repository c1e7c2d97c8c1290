"""Parse a PHH hand history (formats.md §2, github.com/uoftcprg/phh-std).

PHH is TOML: ``variant``, per-player arrays (``antes``,
``blinds_or_straddles``, ``starting_stacks``) and an ``actions`` list of
small strings (``d dh p1 AsKd``, ``d db AhKhQh``, ``p2 cbr 40``,
``p1 sm AsKd``).  :func:`parse_phh` turns the text into a frozen
:class:`PhhHand` and checks only the *shape* of the file; whether the moves
are legal is the replay's business (:mod:`freezeout.formats.phh_replay`), so
that this module stays variant-agnostic and can read every hand of the
public dataset, including the variants we cannot play yet.

Amounts are kept as :class:`~decimal.Decimal`: hand histories of cash games
use stakes such as ``0.10``/``0.25`` and a binary float would turn them into
``0.1000000000000000055…``; the TOML is therefore read with
``parse_float=Decimal`` and action amounts go through ``Decimal(text)``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum

from freezeout.cards import Card, CardError, parse_card

__all__ = [
    "PhhAction",
    "PhhActionKind",
    "PhhError",
    "PhhHand",
    "format_phh_cards",
    "parse_phh",
    "parse_phh_action",
    "parse_phh_cards",
]

# A card of a hand history: ``None`` stands for an unknown card (``??``).
PhhCard = Card | None


class PhhError(ValueError):
    """A hand history that cannot be read or replayed.

    ``str(error)`` is the one-line reason formats.md prints after
    ``"error":``; when the problem is one action, it starts with
    ``action N 'text': `` (N counted from 1 over the file's ``actions``).
    """

    def __init__(self, reason: str, *, index: int | None = None, action: str | None = None) -> None:
        self.reason = reason
        self.index = index
        self.action = action
        if index is not None:
            text = action if action is not None else ""
            super().__init__(f"action {index} {text!r}: {reason}")
        else:
            super().__init__(reason)


class PhhActionKind(StrEnum):
    """The action notations of the PHH standard ("Actions" in required.rst)."""

    DEAL_HOLE = "dh"
    DEAL_BOARD = "db"
    FOLD = "f"
    CHECK_CALL = "cc"
    BET_RAISE = "cbr"  # complete, bet or raise *to* an amount
    SHOW_MUCK = "sm"
    DISCARD = "sd"  # stand pat or discard (draw games)
    BRING_IN = "pb"  # stud
    NO_OP = ""  # empty string or a bare commentary


_PLAYER_KINDS = {
    "f": PhhActionKind.FOLD,
    "cc": PhhActionKind.CHECK_CALL,
    "cbr": PhhActionKind.BET_RAISE,
    "sm": PhhActionKind.SHOW_MUCK,
    "sd": PhhActionKind.DISCARD,
    "pb": PhhActionKind.BRING_IN,
}


@dataclass(frozen=True, slots=True)
class PhhAction:
    """One entry of ``actions``.

    ``player`` is the 0-based player index (``p1`` → 0) of the acting player
    or, for ``d dh``, of the player dealt to; ``None`` for board deals and
    no-ops.  ``cards`` is ``None`` when the notation has no card argument
    (a muck ``p1 sm``, standing pat ``p1 sd``) and for ``p1 sm -`` (show the
    cards already dealt, ``shows_dealt``).
    """

    index: int  # from 1, over the file's actions list
    text: str  # the notation as written, for error messages
    kind: PhhActionKind
    player: int | None = None
    cards: tuple[PhhCard, ...] | None = None
    amount: Decimal | None = None
    shows_dealt: bool = False
    commentary: str | None = None

    def error(self, reason: str) -> PhhError:
        """The error for this action, formatted as formats.md §2 asks."""
        return PhhError(reason, index=self.index, action=self.text)


@dataclass(frozen=True, slots=True)
class PhhHand:
    """A parsed hand history; amounts exact, player-indexed tuples in PHH order.

    PHH orders players from the first seat left of the button (the small
    blind) round to the button, so the button is always the last player;
    heads-up the array entries of ``antes`` and ``blinds_or_straddles`` are
    applied reversed (the button posts the small blind), which the replay
    handles.  ``fields`` keeps every top-level TOML value, including the
    optional ones this class does not name.
    """

    variant: str
    starting_stacks: tuple[Decimal, ...]
    antes: tuple[Decimal, ...]
    blinds_or_straddles: tuple[Decimal, ...]
    actions: tuple[PhhAction, ...]
    min_bet: Decimal | None = None
    bring_in: Decimal | None = None
    small_bet: Decimal | None = None
    big_bet: Decimal | None = None
    ante_trimming_status: bool = False
    finishing_stacks: tuple[Decimal, ...] | None = None
    winnings: tuple[Decimal, ...] | None = None
    players: tuple[str, ...] = ()
    hand: int | str | None = None
    fields: Mapping[str, object] = field(default_factory=dict)

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    def label(self, player: int) -> str:
        """``p1``-style label of a 0-based player index, as actions write it."""
        return f"p{player + 1}"


def parse_phh(text: str) -> PhhHand:
    """Parse the TOML text of one hand; raise :class:`PhhError` if malformed."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        raise PhhError(f"malformed TOML: {error}") from None
    return phh_from_mapping(data)


def phh_from_mapping(data: Mapping[str, object]) -> PhhHand:
    """Build a :class:`PhhHand` from already-decoded TOML (``parse_float=Decimal``).

    Useful for ``.phhs`` files, whose tables each hold one hand.
    """
    variant = data.get("variant")
    if not isinstance(variant, str) or not variant:
        raise PhhError("missing or invalid 'variant': expected a variant code such as 'NT'")
    stacks = _amounts(data, "starting_stacks", required=True, positive=True)
    assert stacks is not None
    count = len(stacks)
    if count < 2:
        raise PhhError(f"'starting_stacks' lists {count} player(s); a hand needs at least 2")
    antes = _amounts(data, "antes", count=count) or (Decimal(0),) * count
    blinds = _amounts(data, "blinds_or_straddles", count=count, signed=True) or (Decimal(0),) * count
    finishing = _amounts(data, "finishing_stacks", count=count)
    winnings = _amounts(data, "winnings", count=count)
    min_bet = _amount(data, "min_bet")
    bring_in = _amount(data, "bring_in")
    small_bet = _amount(data, "small_bet")
    big_bet = _amount(data, "big_bet")
    trimming = data.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise PhhError(f"'ante_trimming_status' must be true or false, got {trimming!r}")
    players_raw = data.get("players", [])
    if not isinstance(players_raw, list) or not all(isinstance(name, str) for name in players_raw):
        raise PhhError("'players' must be an array of strings")
    if players_raw and len(players_raw) != count:
        raise PhhError(f"'players' has {len(players_raw)} entries for {count} players")
    hand = data.get("hand")
    if hand is not None and (isinstance(hand, bool) or not isinstance(hand, (int, str))):
        raise PhhError(f"'hand' must be an integer or a string, got {hand!r}")
    raw_actions = data.get("actions")
    if not isinstance(raw_actions, list) or not all(isinstance(item, str) for item in raw_actions):
        raise PhhError("missing or invalid 'actions': expected an array of strings")
    actions = tuple(parse_phh_action(item, index, count) for index, item in enumerate(raw_actions, start=1))
    return PhhHand(
        variant=variant,
        starting_stacks=stacks,
        antes=antes,
        blinds_or_straddles=blinds,
        actions=actions,
        min_bet=min_bet,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        ante_trimming_status=trimming,
        finishing_stacks=finishing,
        winnings=winnings,
        players=tuple(players_raw),
        hand=hand,
        fields=dict(data),
    )


def _number(value: object, where: str) -> Decimal:
    """An exact TOML number: ints and ``Decimal`` floats (never ``bool``)."""
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        raise PhhError(f"{where} must be a number, got {value!r}")
    number = Decimal(value)
    if not number.is_finite():
        raise PhhError(f"{where} is {value}: unknown (infinite) amounts are not supported")
    return number


def _amount(data: Mapping[str, object], key: str) -> Decimal | None:
    if key not in data:
        return None
    number = _number(data[key], f"'{key}'")
    if number <= 0:
        raise PhhError(f"'{key}' must be positive, got {number}")
    return number


def _amounts(
    data: Mapping[str, object],
    key: str,
    *,
    count: int | None = None,
    required: bool = False,
    positive: bool = False,
    signed: bool = False,
) -> tuple[Decimal, ...] | None:
    if key not in data:
        if required:
            raise PhhError(f"missing '{key}'")
        return None
    raw = data[key]
    if not isinstance(raw, list):
        raise PhhError(f"'{key}' must be an array of numbers")
    values = tuple(_number(item, f"'{key}' entry {number}") for number, item in enumerate(raw, start=1))
    if count is not None and len(values) != count:
        raise PhhError(f"'{key}' has {len(values)} entries for {count} players")
    for number, value in enumerate(values, start=1):
        if positive and value <= 0:
            raise PhhError(f"'{key}' entry {number} must be positive, got {value}")
        if not signed and value < 0:
            raise PhhError(f"'{key}' entry {number} must not be negative, got {value}")
    return values


def parse_phh_cards(text: str) -> tuple[PhhCard, ...]:
    """Parse concatenated PHH cards (``"AsKd"``, ``"????"``, ``"??Ad"``).

    Each card is exactly two characters; ``??`` is an unknown card.
    """
    if len(text) % 2:
        raise CardError(f"invalid cards {text!r}: every card is two characters")
    cards: list[PhhCard] = []
    for position in range(0, len(text), 2):
        chunk = text[position : position + 2]
        cards.append(None if chunk == "??" else parse_card(chunk))
    return tuple(cards)


def format_phh_cards(cards: Sequence[PhhCard]) -> str:
    """The PHH text of cards, ``??`` for unknown ones."""
    return "".join("??" if card is None else str(card) for card in cards)


def _player(word: str, count: int) -> int:
    if len(word) >= 2 and word[0] == "p" and word[1:].isdigit():
        number = int(word[1:])
        if 1 <= number <= count:
            return number - 1
        raise PhhError(f"there is no player {word} in a {count}-player hand")
    raise PhhError(f"{word!r} is not a player (expected p1..p{count})")


def parse_phh_action(text: str, index: int, count: int) -> PhhAction:
    """Parse one action notation ``[[actor action[ args...]][ # commentary]]``.

    ``index`` (from 1) and the player ``count`` are needed for the checks and
    the error message.
    """
    body, hash_, comment = text.partition("#")
    commentary = comment.strip() if hash_ else None
    words = body.split()
    try:
        return _parse_words(text, words, index, count, commentary)
    except PhhError as error:
        if error.index is not None:
            raise
        raise PhhError(error.reason, index=index, action=text) from None
    except (CardError, InvalidOperation) as error:
        raise PhhError(str(error), index=index, action=text) from None


def _parse_words(text: str, words: list[str], index: int, count: int, commentary: str | None) -> PhhAction:
    if not words:
        return PhhAction(index, text, PhhActionKind.NO_OP, commentary=commentary)
    actor, *rest = words
    if actor == "d":
        match rest:
            case ["dh", player, cards]:
                return PhhAction(
                    index,
                    text,
                    PhhActionKind.DEAL_HOLE,
                    _player(player, count),
                    parse_phh_cards(cards),
                    commentary=commentary,
                )
            case ["db", cards]:
                board = parse_phh_cards(cards)
                if None in board:
                    raise PhhError("board cards must be known")
                return PhhAction(index, text, PhhActionKind.DEAL_BOARD, cards=board, commentary=commentary)
        raise PhhError("unknown dealer action (expected 'd dh pN cards' or 'd db cards')")
    seat = _player(actor, count)
    if not rest or rest[0] not in _PLAYER_KINDS:
        raise PhhError("unknown player action (expected f, cc, cbr, sm, sd or pb)")
    kind = _PLAYER_KINDS[rest[0]]
    arguments = rest[1:]
    if kind is PhhActionKind.BET_RAISE:
        if len(arguments) != 1:
            raise PhhError("cbr needs exactly one amount")
        try:
            amount = Decimal(arguments[0])
        except InvalidOperation:
            raise PhhError(f"invalid amount {arguments[0]!r}") from None
        if not amount.is_finite() or amount <= 0:
            raise PhhError(f"the amount must be a positive number, got {arguments[0]!r}")
        return PhhAction(index, text, kind, seat, amount=amount, commentary=commentary)
    if kind in (PhhActionKind.SHOW_MUCK, PhhActionKind.DISCARD):
        if len(arguments) > 1:
            raise PhhError(f"{rest[0]} takes at most one card argument")
        if not arguments:
            return PhhAction(index, text, kind, seat, commentary=commentary)
        if kind is PhhActionKind.SHOW_MUCK and arguments[0] == "-":
            return PhhAction(index, text, kind, seat, shows_dealt=True, commentary=commentary)
        return PhhAction(index, text, kind, seat, parse_phh_cards(arguments[0]), commentary=commentary)
    if arguments:
        raise PhhError(f"{rest[0]} takes no argument")
    return PhhAction(index, text, kind, seat, commentary=commentary)
