"""Replay PHH hand histories through the rules engine (formats.md §2), in
every variant of the registry (``freezeout.rules.variant``).

Mapping PHH onto the engine (the setup is built in :mod:`.phh_setup`):

* hand seats are the PHH players in file order (``p1`` → seat 0); PHH lists
  players from the small blind round to the button, so the button is the
  last seat, heads-up included; stud has no button (V7);
* heads-up, ``antes`` and ``blinds_or_straddles`` are applied reversed, as
  the PHH standard says ("the forced bets are reversed in heads-up games"):
  ``[1, 2]`` makes ``p1`` the big blind and ``p2`` (the button) the small
  blind;
* a negative ``blinds_or_straddles`` entry (PokerKit's extension, used by
  HandHQ for a blind posted out of turn by a player joining the table) is a
  *live* blind of that size which does not decide who acts first;
* the min bet is ``min_bet`` or, if absent, the largest blind (fixed limit:
  ``small_bet`` and ``big_bet``); stud posts ``bring_in`` (``pN pb``);
* ``ante_trimming_status`` (PHH default false) becomes
  ``HandSetup.ante_trimming``: with trimming, antes are each player's
  contribution to the pots (R20 levels: a short ante can only win its
  share); without, they are dead money in the main pot — what a big-blind
  ante needs.  PokerKit's ``true`` goes further and refunds at once the part
  of an ante above the second largest one (so a big-blind ante comes back
  even if its poster folds); the engine only returns it through a pot
  nobody else can win.  The two agree on uniform antes;
* each player's ``d dh`` deals (first street, later streets, draws) are
  the cards the engine gives that player, in order, and the ``d db`` deals
  the board; each deal of the file is checked against what the engine has
  dealt at that moment, so a deal that comes too early is an error;
* ``cbr`` is the engine's bet, raise or completion — whichever the
  situation calls it; ``sd`` discards (``??`` for cards nobody saw) or
  stands pat;
* a muck (``pN sm`` without cards) forfeits the hand in both rulesets: the
  standard ruleset lets losing hands be mucked (R17, V17), and in a house
  game, where nobody may muck, a history's muck can only be a resignation's
  forfeit (R28, see :mod:`freezeout.formats.phh_export`) — for a losing hand
  it changes no chips either way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from freezeout.formats.phh import PhhAction, PhhActionKind, PhhError, PhhHand, format_phh_cards, parse_phh
from freezeout.formats.phh_setup import (
    build_setup,
    build_setup_and_cards,
    chip_scale,
    from_units,
    json_amount,
    to_units,
    variant_of,
)
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import RulesError
from freezeout.rules.events import BetReturned, Event, PotAwarded
from freezeout.rules.hand import HandSetup, HandState, apply, start_hand
from freezeout.rules.legal import LegalActions, legal_actions
from freezeout.rules.variant import Ruleset, Variant

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
    if legal.can_raise and legal.sizes and amount not in legal.sizes:
        return f"{word} to {show(amount)} is not a fixed-limit size: {word} to {' or '.join(show(s) for s in legal.sizes)}"
    if legal.can_raise and amount < legal.min_to and amount != legal.all_in_to:
        if word == "bet":
            return f"bet of {show(amount)} is below the minimum bet of {show(legal.min_to)}"
        return f"raise to {show(amount)} is below the minimum raise to {show(legal.min_to)}"
    if legal.can_raise and amount > legal.max_to:
        return f"{word} to {show(amount)} is more than the pot limit allows ({show(legal.max_to)})"
    return None


def _engine_action(action: PhhAction, legal: LegalActions, scale: int, legal_variant: Variant) -> Action:
    """PHH ``f`` / ``cc`` / ``cbr N`` / ``pb`` / ``sd`` → the engine's move words (D5)."""
    seat = legal.seat
    kind = action.kind
    variant = legal_variant
    if (kind is PhhActionKind.DISCARD and not variant.has_draws) or (kind is PhhActionKind.BRING_IN and not variant.uses_bring_in):
        raise action.error(f"'{kind.value}' is not an action of {variant.code}")
    if kind is PhhActionKind.DISCARD:
        if not legal.draw:
            raise action.error(f"{action.text.split()[0]} cannot draw now: it is not the draw")
        return Action(seat, ActionKind.DISCARD, cards=action.cards) if action.cards else Action(seat, ActionKind.STANDPAT)
    if legal.draw:
        raise action.error("it is the draw: the player discards or stands pat ('sd')")
    if kind is PhhActionKind.BRING_IN:
        if not legal.bring_in:
            raise action.error("there is no bring-in to post now")
        return Action(seat, ActionKind.BRINGIN)
    if kind is PhhActionKind.FOLD:
        return Action(seat, ActionKind.FOLD)
    if kind is PhhActionKind.CHECK_CALL:
        return Action(seat, ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    assert action.amount is not None
    amount = to_units(action.amount, scale)
    if scale != 1:
        problem = _amount_problem(legal, amount, scale)
        if problem:
            raise action.error(problem)
    # "cbr" is a bet when nobody has bet, a completion of a bring-in or short
    # bet, else a raise; a whole-stack amount is an all-in even below the
    # minimum (D5), which the engine accepts as is.
    word = legal.raise_word
    if word == "complete":
        return Action(seat, ActionKind.COMPLETE, amount)
    return Action(seat, ActionKind.BET if word == "bet" else ActionKind.RAISE, amount)


def _known(state: HandState, seat: int) -> bool:
    cards = state.cards[seat]
    mucks = state.setup.mucks
    return bool(cards) and None not in cards and not (mucks and mucks[seat])


def _board_decides(state: HandState, events: Sequence[Event]) -> bool:
    """Whether some pot was contested by two or more known hands, so that
    cards the file never dealt (padding) decided who won it.  When every
    other hand was mucked, the last one wins without the rest of the cards,
    as a PHH reader ends the hand after the mucks."""
    return any(
        sum(1 for seat in event.eligible if _known(state, seat)) >= 2
        for event in events
        if isinstance(event, PotAwarded)
    )


def _check_hole_deal(action: PhhAction, hand: PhhHand, state: HandState, seen: list[int]) -> None:
    """A ``d dh`` must be exactly the cards the engine has just dealt that player."""
    assert action.player is not None and action.cards is not None
    player = action.player
    label = hand.label(player)
    held = state.cards[player]
    seen[player] += len(action.cards)
    if state.folded[player]:
        raise action.error(f"{label} has folded and is dealt no more cards")
    dealt = len(held) + _drawn_so_far(state, player)
    if dealt < seen[player]:
        raise action.error(f"{label} is dealt cards before the betting round is over")
    if not state.setup.variant.has_draws:
        engine = held[seen[player] - len(action.cards) : seen[player]]
        if any(theirs is not None and ours != theirs for ours, theirs in zip(engine, action.cards, strict=True)):
            raise action.error(f"{label} is dealt {format_phh_cards(action.cards)}, but the deal order gives {format_phh_cards(engine)}")


def _drawn_so_far(state: HandState, seat: int) -> int:
    """Cards that left the player's hand in draws (so still count as dealt)."""
    return len(state.discards[seat]) if state.discards else 0


def _pokerkit_d1_turn(state: HandState, player: int) -> bool:
    """Whether a ``cc`` is the turn PokerKit still gives a player that D1
    gives none: the only player with chips behind, against all-ins he has
    already matched.  PokerKit writes it (a check); the engine has no such
    turn, so the replay reads it as nothing — also when the hand has gone on to a
    draw (V11), whose discards follow the round PokerKit still keeps open."""
    if (state.actor >= 0 and not state.drawing) or state.folded[player] or state.stacks[player] == 0:
        return False
    others = [seat for seat in range(state.seat_count) if seat != player and not state.folded[seat]]
    return bool(others) and all(state.stacks[seat] == 0 for seat in others)


def _unanswered_bring_in(state: HandState, events: list[Event], action: PhhAction | None = None) -> HandState:
    """A bring-in nobody can answer (every other player all in from the antes, V7): PokerKit
    posts none and PHH writes none (docs/formats.md "Export of the other games"); the rules post
    it and give it back uncalled, the same stacks.  Posted here when the file goes on without it."""
    legal = legal_actions(state) if not state.finished else None
    if legal is None or not legal.bring_in:
        return state
    if action is not None and action.player == legal.seat and action.kind is not PhhActionKind.SHOW_MUCK:
        return state  # the file posts it (or completes) itself
    others = [seat for seat in range(state.seat_count) if seat != legal.seat and not state.folded[seat]]
    if not others or any(state.stacks[seat] for seat in others):
        return state
    state, more = apply(state, Action(legal.seat, ActionKind.BRINGIN))
    events.extend(more)
    return state


def replay_phh(hand: PhhHand, ruleset: Ruleset = Ruleset.STANDARD) -> PhhReplay:
    """Replay one parsed hand; raise :class:`PhhError` naming the failing action."""
    variant = variant_of(hand)
    setup, cards, scale = build_setup_and_cards(hand, variant, ruleset)
    try:
        state, first_events = start_hand(setup)
    except RulesError as error:
        raise PhhError(str(error)) from None
    events: list[Event] = list(first_events)
    board_seen = 0
    seen = [0] * hand.player_count
    betting_started = False
    for action in hand.actions:
        kind = action.kind
        if kind is PhhActionKind.NO_OP:
            continue
        state = _unanswered_bring_in(state, events, action)
        if kind is PhhActionKind.DEAL_HOLE:
            if betting_started and not (variant.has_draws or variant.deals_later_hole_cards):
                raise action.error("hole cards are dealt after the betting has started")
            _check_hole_deal(action, hand, state, seen)
            continue
        if kind is PhhActionKind.DEAL_BOARD:
            assert action.cards is not None
            board_seen += len(action.cards)
            if state.finished and not state.showdown:
                raise action.error("the hand is already over: no more cards are dealt")
            if state.board_dealt < board_seen:
                street = variant.street_names[state.street]
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
        betting_started = True
        if kind is PhhActionKind.CHECK_CALL and _pokerkit_d1_turn(state, action.player):
            continue
        if state.finished:
            raise action.error("the hand is over")
        if state.board_dealt > board_seen:
            street = variant.street_names[state.street]
            raise action.error(f"the {street} must be dealt ('d db') before {label} acts")
        legal = legal_actions(state)
        if legal is None:
            raise action.error("nobody is to act")
        if legal.seat != action.player:
            raise action.error(f"it is {hand.label(legal.seat)}'s turn, not {label}'s")
        move = _engine_action(action, legal, scale, variant)
        try:
            state, new_events = apply(state, move)
        except RulesError as error:
            raise action.error(str(error)) from None
        events.extend(new_events)
    state = _unanswered_bring_in(state, events)
    if state.board_dealt > cards.known_board and state.finished and _board_decides(state, events):
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
