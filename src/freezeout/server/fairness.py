"""Provably fair dealing that opens no card which did not become public
(docs/protocol.md "Fairness").

Before a hand's first card the server commits to its shuffled deck, position
by position.  For a secret per-hand ``seed`` (256 random bits):

* ``salt_i = hmac_sha256(seed, str(i))`` as hex, first 32 characters;
* ``leaf_i = sha256_hex(f"{i}:{card_i}:{salt_i}")`` for every position of the
  game's deck (0-51; short-deck's 36 cards 0-35, V16);
* ``commitment = sha256_hex(leaf_0 + leaf_1 + ... + leaf_n)`` (the 64-character
  hex leaves joined), published before the deal.

Opening position ``i`` publishes ``card_i`` and ``salt_i``; with the 52 leaves
anyone recomputes the commitment, so an opened card cannot have been changed
after the hand began, while an unopened position shows nothing (its salt is
unknown).  When a hand ends the server opens exactly the cards that became
public: the board cards dealt, stud's up-cards and the hands shown at a
showdown (R17), never the cards of a hand won without a showdown (R16),
folded cards, cards thrown away in a draw or board cards never dealt; every
card a player was dealt (drawn and thrown away too) is opened to that player
only.

A position is found by its card (a deck holds each card once), so the same
opening serves every game: flop games, stud's streets and a draw's cards.
When a draw runs out of cards (V13) the other players' discards are dealt
again in an order drawn from the same secret seed (:meth:`Deal.reshuffle`),
so the record with the seed shows that order was fixed before the hand too.
:func:`deal_positions` asks the rules which deck position goes where in a
flop game (:func:`freezeout.rules.dealing.flop_deal_positions`: the hole
cards per player still in, in seat order, then the board, no burns); games
that deal during the hand place their cards as the play went.
:func:`verify_record` checks a record hand by hand:
``freezeout record verify FILE`` (and ``freezeout verify-record``) call it.
The full record with every ``seed`` stays on the server for audits; records
given to a player open only what that player saw (``table.records.player_record``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from freezeout.cards import Card, CardError, format_cards, parse_cards
from freezeout.formats.cash_hand import CASH_HAND_FORMAT
from freezeout.formats.record import RecordError, parse_record, replay_record
from freezeout.rules.dealing import flop_deal_positions
from freezeout.rules.hand import HandState
from freezeout.rules.variant import NLHE, Variant

__all__ = [
    "CASH_HAND_FORMAT",
    "UNKNOWN",
    "Deal",
    "HandCards",
    "Reveal",
    "deal_cards",
    "deal_map",
    "deal_positions",
    "flop_hand_cards",
    "hand_cards_of",
    "leaf",
    "new_deal",
    "record_where",
    "verify_cash_hand",
    "verify_record",
]

UNKNOWN = "??"  # a card that is not known (the PHH convention)


class DealSource(Protocol):
    def shuffle(self, x: list[Card]) -> None: ...

    def getrandbits(self, k: int, /) -> int: ...


def deal_positions(seats_in: Iterable[int], variant: Variant = NLHE) -> tuple[dict[int, tuple[int, ...]], tuple[int, ...]]:
    """The deck positions of each seat's hole cards and of the board, in dealing order,
    as the rules deal them (:func:`freezeout.rules.dealing.flop_deal_positions`: the house
    game's two cards to each player still in, in seat order, then the five board cards)."""
    seats = sorted(seats_in)
    hole_positions, board = flop_deal_positions(variant, len(seats))
    return dict(zip(seats, hole_positions, strict=True)), board


def deal_map(seats_in: Iterable[int], variant: Variant = NLHE) -> dict[str, Any]:
    """Which deck position became whose card, as the rules dealt it, for a reveal's readers
    (``where``: ``{"hole": {"0": [0, 1], ...}, "board": [4, 5, 6, 7, 8]}``), so that a client
    places opened cards without knowing how cards are dealt."""
    hole, board = deal_positions(seats_in, variant)
    return {"hole": {str(seat): list(positions) for seat, positions in hole.items()}, "board": list(board)}


def record_where(hand: Mapping[str, Any], players: Sequence[str], variant: Variant = NLHE) -> dict[str, Any]:
    """A record hand's ``where`` (see :func:`deal_map`): flop games by the rules' fixed map; stud
    and draws by card, for the cards the record shows and its ``deck`` opens."""
    seats = [players.index(p) for p in hand["hole"]]
    if _fixed_positions(variant):
        return deal_map(seats, variant)
    deck = _positions_text(hand.get("deck", ""))
    position = {card: i for i, card in enumerate(deck) if card is not None}

    def places(raw: Any) -> list[int]:
        cards = _positions_text("".join(raw) if isinstance(raw, list) else raw)
        return sorted(position[card] for card in cards if card is not None and card in position)

    return {"hole": {str(players.index(p)): places(cards) for p, cards in hand["hole"].items()},
            "board": places(hand.get("board", ""))}


def deal_cards(deck: Sequence[Card], seats_in: Sequence[int], variant: Variant = NLHE,
               ) -> tuple[dict[int, tuple[Card, ...]], tuple[Card, ...]]:
    """Hole cards per seat still in and the board, as :func:`deal_positions` places them (flop games)."""
    hole, board = deal_positions(seats_in, variant)
    return {seat: tuple(deck[p] for p in positions) for seat, positions in hole.items()}, tuple(deck[p] for p in board)


def _fixed_positions(variant: Variant) -> bool:
    """Whether the game deals every card before the first move (flop games): positions are known up front."""
    return not (variant.deals_later_hole_cards or variant.has_draws)


def salt(seed: str, position: int) -> str:
    return hmac.new(bytes.fromhex(seed), str(position).encode("ascii"), hashlib.sha256).hexdigest()[:32]


def leaf(position: int, card: str, salt_hex: str) -> str:
    return hashlib.sha256(f"{position}:{card}:{salt_hex}".encode("ascii")).hexdigest()


def root(leaves: Sequence[str]) -> str:
    return hashlib.sha256("".join(leaves).encode("ascii")).hexdigest()


@dataclass(frozen=True, slots=True)
class Deal:
    """The deck of one hand (the game's deck: 52 cards, 36 in short-deck) and its secret seed
    (the log keeps both; nobody else sees the seed).  The leaves are kept as raw digests
    (1.6 KB for 52 cards), the commitment as hex."""

    hand: int
    deck: tuple[Card, ...]
    seed: str
    _leaves: bytes = field(init=False, repr=False, compare=False)
    commitment: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        leaves = [leaf(i, str(card), salt(self.seed, i)) for i, card in enumerate(self.deck)]
        object.__setattr__(self, "_leaves", bytes.fromhex("".join(leaves)))
        object.__setattr__(self, "commitment", root(leaves))

    @property
    def leaves(self) -> list[str]:
        raw = self._leaves
        return [raw[i : i + 32].hex() for i in range(0, len(raw), 32)]

    def reshuffle(self) -> tuple[Card, ...]:
        """V13: the order in which a draw that runs out of cards takes the discards, drawn from
        the seed (fixed before the hand like the deck; checkable with the seed)."""
        order = list(self.deck)
        random.Random(hmac.new(bytes.fromhex(self.seed), b"reshuffle", hashlib.sha256).hexdigest()).shuffle(order)
        return tuple(order)

    def opening(self, positions: Iterable[int]) -> dict[str, Any]:
        """The hand's commitment, its leaves, and the cards and salts of ``positions``
        only (``deck`` has ``??`` and ``salts`` null everywhere else)."""
        opened = set(positions)
        return {
            "commitment": self.commitment,
            "deck": "".join(str(card) if i in opened else UNKNOWN for i, card in enumerate(self.deck)),
            "salts": [salt(self.seed, i) if i in opened else None for i in range(len(self.deck))],
            "leaves": self.leaves,
        }

    def to_json(self) -> dict[str, Any]:
        """The log's (and the audit record's) form: the whole deck and the seed."""
        return {"hand": self.hand, "deck": format_cards(self.deck), "seed": self.seed}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deal | LegacyDeal:
        deck = parse_cards(str(data["deck"]))
        if "seed" not in data:  # committed by a server from before per-position commitments
            return LegacyDeal(int(data["hand"]), deck, str(data["salt"]))
        return cls(int(data["hand"]), deck, str(data["seed"]))


@dataclass(frozen=True, slots=True)
class LegacyDeal:
    """A deck committed as a whole (``sha256(deck + ":" + salt)``) by an older server: still
    dealt after an upgrade, but it can only be opened whole, so it is never opened."""

    hand: int
    deck: tuple[Card, ...]
    salt: str
    commitment: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "commitment", _legacy_commitment(self.deck, self.salt))

    def reshuffle(self) -> tuple[Card, ...]:
        return tuple(self.deck)  # only the house game was dealt from such decks: it never reshuffles

    def opening(self, positions: Iterable[int]) -> dict[str, Any]:
        return {"commitment": self.commitment, "legacy": True}

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.hand, "deck": format_cards(self.deck), "salt": self.salt}


AnyDeal = Deal | LegacyDeal


def _legacy_commitment(deck: Sequence[Card], salt_hex: str) -> str:
    return hashlib.sha256(f"{format_cards(deck)}:{salt_hex}".encode("ascii")).hexdigest()


def new_deal(hand: int, rng: DealSource, variant: Variant = NLHE) -> Deal:
    """Shuffle a fresh deck of the game's cards (R2, V16) and draw a 256-bit seed from the same source."""
    deck = list(variant.deck)
    rng.shuffle(deck)
    return Deal(hand, tuple(deck), f"{rng.getrandbits(256):064x}")


@dataclass(frozen=True, slots=True)
class HandCards:
    """The cards of the current (or last) hand, for fair dealing (server/fairness.py):
    ``received``: every card each table seat was dealt (drawn and thrown away included),
    private to that seat; ``public``: the cards everyone saw (the board dealt, up-cards,
    the hands shown down, R17 — never a hand won without a showdown, R16)."""

    received: Mapping[int, tuple[Card, ...]]
    public: tuple[Card, ...]
    board: tuple[Card, ...]  # the board cards dealt (stud: the shared card), in dealing order
    variant: Variant  # the hand's game (a mix changes game between hands)


def hand_cards_of(hand: HandState, seats: Sequence[int]) -> HandCards:
    """A hand's :class:`HandCards` from the rules' state (every table game's, freezeout or cash):
    ``seats`` maps the hand's seats to the table's.  Each seat received its own cards and
    those it threw away (V13); the public cards are the board dealt (both runs' when it was
    run twice, C7), the up-cards (V7) and the hands shown down (R17)."""
    received: dict[int, tuple[Card, ...]] = {}
    public: list[Card] = [card for card in hand.board if card is not None]
    public.extend(card for card in hand.second_board if card is not None)
    for hand_seat, seat in enumerate(seats):
        held = hand.cards[hand_seat]
        thrown = hand.discards[hand_seat] if hand.discards else ()
        received[seat] = tuple(card for card in (*thrown, *held) if card is not None)
        up = hand.up[hand_seat] if hand.up else ()
        public.extend(card for card, face_up in zip(held, up, strict=False) if face_up and card is not None)
        if hand.finished and hand.showdown and hand.shown and hand.shown[hand_seat]:
            public.extend(card for card in held if card is not None)
    board = tuple(card for card in hand.board if card is not None)
    return HandCards(received, tuple(dict.fromkeys(public)), board, hand.setup.variant)


def flop_hand_cards(deck: Sequence[Card], seats_in: Sequence[int], board_dealt: int, shown: Iterable[int],
                    variant: Variant = NLHE) -> HandCards:
    """A flop game's hand as :class:`HandCards`, from its deck (tests and tools): the hole
    cards of ``seats_in``, ``board_dealt`` board cards, the hands of ``shown`` shown down."""
    hole, board = deal_cards(deck, seats_in, variant)
    public = [*board[:board_dealt], *(card for seat in sorted(shown) for card in hole[seat])]
    return HandCards(hole, tuple(public), board[:board_dealt], variant)


@dataclass(frozen=True, slots=True)
class Reveal:
    """What a finished hand opens: ``public`` positions to everyone (board cards dealt,
    up-cards, hands shown), and each dealt-in seat's own positions (every card it was dealt)
    to that seat alone; ``where`` says which positions went to whom."""

    deal: AnyDeal
    public: tuple[int, ...]
    own: Mapping[int, tuple[int, ...]]
    where: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def after_hand(cls, deal: AnyDeal, cards: HandCards) -> Reveal:
        """The positions of the hand's cards, found by card (the deck holds each card once)."""
        position = {card: index for index, card in enumerate(deal.deck)}
        own = {seat: tuple(sorted(position[card] for card in received)) for seat, received in cards.received.items()}
        public = tuple(sorted({position[card] for card in cards.public}))
        if _fixed_positions(cards.variant):
            where = deal_map(cards.received, cards.variant)
        else:
            where = {"hole": {str(seat): list(positions) for seat, positions in own.items()},
                     "board": [position[card] for card in cards.board]}
        return cls(deal, public, own, where)

    def to_json(self, seat: int | None = None) -> dict[str, Any]:
        """The reveal as ``seat`` may see it (None: a spectator)."""
        own = self.own.get(seat, ()) if seat is not None else ()
        return {"hand": self.deal.hand, **self.deal.opening((*self.public, *own)), "where": self.where}


# -- verification ------------------------------------------------------------
def _check_hand(hand: Mapping[str, Any], players: Sequence[str], variant: Variant = NLHE) -> str | None:
    """Why a record hand fails verification, or None when it is fair."""
    size = len(variant.deck)
    if not isinstance(hand.get("commitment"), str):
        return "no commitment"
    if "salt" in hand and "seed" not in hand and "salts" not in hand:
        return _check_legacy(hand, players)
    try:
        deck = _positions_text(hand.get("deck"))
    except CardError as error:
        return f"bad deck: {error}"
    if "seed" in hand:
        if not _is_hex(hand["seed"], 64):
            return "the seed is not 64 hex digits"
        salts: list[str | None] = [salt(hand["seed"], i) for i in range(size)]
    else:
        salts = hand.get("salts")  # type: ignore[assignment]
        if not isinstance(salts, list) or len(salts) != size:
            return f"salts must list {size} salts (null where a card is not opened)"
    if len(deck) != size:
        return f"the deck must list {size} positions ({variant.name}), got {len(deck)}"
    given = hand.get("leaves")
    if given is not None and (not isinstance(given, list) or len(given) != size or not all(_is_hex(x, 64) for x in given)):
        return f"leaves must list {size} sha256 hex digests"
    leaves: list[str] = []
    opened: dict[int, Card] = {}
    for i, card in enumerate(deck):
        if card is None:
            if given is None:
                return f"position {i} is not opened and no leaves are given"
            leaves.append(str(given[i]).lower())
            continue
        salt_hex = salts[i]
        if not _is_hex(salt_hex, 32):
            return f"position {i} ({card}) is opened without its salt"
        computed = leaf(i, str(card), str(salt_hex))
        if given is not None and str(given[i]).lower() != computed:
            return f"position {i}: {card} with its salt does not match the committed leaf"
        leaves.append(computed)
        opened[i] = card
    if root(leaves) != str(hand["commitment"]).lower():
        return "the commitment does not match the leaves"
    if len(set(opened.values())) != len(opened):
        return "an opened card appears twice"
    if len(opened) == size and sorted(opened.values()) != sorted(variant.deck):
        return f"the deck is not the {size} cards of {variant.name} once each"
    return _check_deal(hand, players, opened, variant)


def _check_deal(hand: Mapping[str, Any], players: Sequence[str], opened: Mapping[int, Card], variant: Variant = NLHE,
                ) -> str | None:
    """Every card the record shows is the opened card at its deal position (flop games), or an
    opened card of the committed deck (games that deal during the hand: stud, draws)."""
    hole_raw = hand.get("hole")
    if not isinstance(hole_raw, Mapping):
        return "no hole cards"
    seats = [players.index(p) for p in hole_raw if p in players]
    if len(seats) != len(hole_raw):
        return "hole cards for an unknown player"
    if not _fixed_positions(variant):
        return _check_cards_opened(hand, hole_raw, opened)
    hole, board = deal_positions(seats, variant)
    shown = [(f"{players[seat]}'s hole cards", hole_raw[players[seat]], hole[seat]) for seat in sorted(seats)]
    for what, text, positions in [*shown, ("the board", hand.get("board", ""), board)]:
        try:
            cards = _positions_text(text)
        except CardError as error:
            return f"bad {what}: {error}"
        for card, position in zip(cards, positions, strict=False):
            if card is None:
                continue
            if position not in opened:
                return f"{what}: {card} is not opened in the commitment"
            if opened[position] != card:
                return f"{what}: {card} is not the committed {opened[position]} (position {position})"
    return None


def _check_cards_opened(hand: Mapping[str, Any], hole_raw: Mapping[str, Any], opened: Mapping[int, Card]) -> str | None:
    """Stud and draws: each card the record shows was opened in the commitment."""
    cards_opened = set(opened.values())
    for what, raw in [*((f"{player}'s cards", text) for player, text in hole_raw.items()), ("the board", hand.get("board", ""))]:
        try:
            cards = _positions_text("".join(raw) if isinstance(raw, list) else raw)
        except CardError as error:
            return f"bad {what}: {error}"
        for card in cards:
            if card is not None and card not in cards_opened:
                return f"{what}: {card} is not opened in the commitment"
    return None


def _check_legacy(hand: Mapping[str, Any], players: Sequence[str]) -> str | None:
    """A record from before per-position commitments: the whole deck and one salt."""
    try:
        deck = parse_cards(str(hand.get("deck", "")))
    except CardError as error:
        return f"bad deck: {error}"
    if sorted(deck) != sorted(NLHE.deck):
        return "the deck is not the 52 cards once each"
    if _legacy_commitment(deck, str(hand["salt"])) != str(hand["commitment"]).lower():
        return "the commitment does not match sha256(deck:salt)"
    return _check_deal(hand, players, dict(enumerate(deck)))


def _positions_text(text: Any) -> list[Card | None]:
    """Cards in a text where ``??`` is an unknown card."""
    if not isinstance(text, str) or len(text) % 2:
        raise CardError(f"expected a card string, got {text!r}")
    return [None if text[i : i + 2] == UNKNOWN else parse_cards(text[i : i + 2])[0] for i in range(0, len(text), 2)]


def _is_hex(value: Any, length: int) -> bool:
    return isinstance(value, str) and len(value) == length and all(c in "0123456789abcdefABCDEF" for c in value)


def verify_record(data: str | bytes | Mapping[str, Any]) -> dict[str, Any]:
    """Check every hand of a record: each opened card against the hand's commitment, and
    every card the record shows against the opened deck positions.

    Returns ``{"ok": bool, "hands": [{"hand": n, "ok": bool, "reason"?: str}],
    "error"?: str}``; ``error`` is set when the record itself does not replay.
    """
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
            return {"ok": False, "hands": [], "error": f"malformed JSON: {error}"}
    if not isinstance(data, Mapping):
        return {"ok": False, "hands": [], "error": "the record must be a JSON object"}
    if data.get("format") == CASH_HAND_FORMAT:
        return verify_cash_hand(data)
    try:
        record = parse_record(data)
        games = [played.setup.variant for played in replay_record(record).hands]  # V18/V19: each hand's game
    except RecordError as error:
        return {"ok": False, "hands": [], "error": str(error)}
    players = list(data["players"])
    results: list[dict[str, Any]] = []
    for number, hand in enumerate(data["hands"], start=1):
        reason = _check_hand(hand, players, games[number - 1])  # a mix's game of the hand (V19)
        results.append({"hand": number, "ok": True} if reason is None else {"hand": number, "ok": False, "reason": reason})
    ok = bool(results) and all(r["ok"] for r in results)
    return {"ok": ok, "hands": results}


def verify_cash_hand(hand: Mapping[str, Any]) -> dict[str, Any]:
    """Check one cash hand's history (``GET /api/tables/{id}/hands/{n}``, the server's or an
    asker's copy) as :func:`verify_record` checks a record's hands: each opened card against
    the commitment, every card the history shows (hole cards, the board, a second run's board,
    C7) against the opened deck.  Same report shape, one hand."""
    from freezeout.rules.variant import VARIANTS

    number = hand.get("number")
    variant = VARIANTS.get(str(hand.get("game")))
    players = hand.get("players")
    if variant is None:
        return {"ok": False, "hands": [], "error": f"unknown game {hand.get('game')!r}"}
    if not isinstance(number, int) or not isinstance(players, list) or not isinstance(hand.get("hole"), Mapping):
        return {"ok": False, "hands": [], "error": "a cash hand needs its number, players and hole cards"}
    reason = _check_hand(hand, [str(p) for p in players], variant)
    if reason is None and hand.get("second_board"):
        try:
            deck = _positions_text(hand.get("deck"))
            second = _positions_text(hand["second_board"])
        except CardError as error:
            reason = f"bad second board: {error}"
        else:
            opened = {card for card in deck if card is not None}
            missing = next((card for card in second if card is not None and card not in opened), None)
            if missing is not None:
                reason = f"the second board: {missing} is not opened in the commitment"
    result: dict[str, Any] = {"hand": number, "ok": reason is None}
    if reason is not None:
        result["reason"] = reason
    return {"ok": reason is None, "hands": [result]}
