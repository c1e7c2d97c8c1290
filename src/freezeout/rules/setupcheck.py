"""Is a hand's setup playable?  The checks :func:`freezeout.rules.hand.start_hand`
runs before the first card (bad input changes nothing and says what is
wrong in one line): player count for the game, whole non-negative chip
amounts, forced bets the game has, and cards — a deck, or each player's cards
and a board — that belong to the game's deck and are not dealt twice.
"""

from __future__ import annotations

from freezeout.cards import Card
from freezeout.rules.dealing import check_deck
from freezeout.rules.errors import InvalidInput
from freezeout.rules.state import HandSetup
from freezeout.rules.variant import BettingStructure, Forced

__all__ = ["check_setup"]

_FIXED_LIMIT = BettingStructure.FIXED_LIMIT
_BRING_IN = Forced.BRING_IN


def check_setup(setup: HandSetup) -> HandSetup:
    n = len(setup.stacks)
    variant = setup.variant
    if not variant.min_players <= n <= variant.max_players:
        raise InvalidInput(f"{variant.name} is played by {variant.min_players} to {variant.max_players} players, got {n}")
    for label, values in (
        ("blinds", setup.blinds),
        ("antes", setup.antes),
        ("dead", setup.dead),
        ("hole", setup.hole),
        ("out_of_turn", setup.out_of_turn),
    ):
        if values and len(values) != n:
            raise InvalidInput(f"{label} has {len(values)} entries for {n} players")
    for label, values in (("stacks", setup.stacks), ("blinds", setup.blinds), ("antes", setup.antes), ("dead", setup.dead)):
        for value in values:
            if type(value) is not int or value < 0:
                raise InvalidInput(f"{label} must be whole numbers of chips >= 0, got {value!r}")
    if any(stack == 0 for stack in setup.stacks):
        raise InvalidInput("every player dealt in needs chips")
    if not 0 <= setup.button < n:
        raise InvalidInput(f"button seat {setup.button} is not at the table")
    for label, value in (("bring-in", setup.bring_in), ("small bet", setup.small_bet), ("big bet", setup.big_bet)):
        if type(value) is not int or value < 0:
            raise InvalidInput(f"the {label} must be a whole number of chips >= 0, got {value!r}")
    if variant.betting is _FIXED_LIMIT:
        if setup.min_bet <= 0:
            raise InvalidInput("a fixed-limit game needs its small bet (or big blind)")
    elif type(setup.big_blind) is not int or setup.big_blind <= 0:
        raise InvalidInput(f"the big blind must be a positive whole number, got {setup.big_blind!r}")
    if variant.forced is _BRING_IN and any(setup.blinds):
        raise InvalidInput(f"{variant.name} has no blinds: antes and a bring-in (V7)")
    if setup.bring_in and variant.forced is not _BRING_IN:
        raise InvalidInput(f"{variant.name} has no bring-in")
    if 0 < setup.min_bet <= setup.bring_in:
        raise InvalidInput(f"the bring-in ({setup.bring_in}) must be below the small bet ({setup.min_bet})")
    _check_cash(setup)
    if setup.deck:
        if setup.hole or setup.board:
            raise InvalidInput("give the cards either as a deck or as each player's cards and a board, not both")
        check_deck(variant, setup.deck, setup.reshuffle)
        return setup
    _check_cards(setup)
    return setup


def _check_cards(setup: HandSetup) -> None:
    """Each player's cards and the board (records, hand histories): the right
    number for the game, every card in its deck, none twice (draw games may
    deal a discarded card again, V13: checked as it is dealt)."""
    variant = setup.variant
    longest = variant.board_size + (1 if variant.deals_later_hole_cards else 0)
    if setup.run_twice:
        longest = 2 * variant.board_size  # C7: the first run, then the second run's cards
    if len(setup.board) > longest:
        raise InvalidInput(f"the board has {len(setup.board)} cards, more than {variant.board_size}")
    low, high = variant.hole_card_range
    cards: list[Card | None] = list(setup.board)
    for seat, held in enumerate(setup.hole):
        if held is None:
            continue
        if not low <= len(held) <= high:
            wanted = str(low) if low == high else f"{low} to {high}" if high < 99 else f"at least {low}"
            raise InvalidInput(f"{setup.name(seat)} needs {wanted} hole cards, got {len(held)}")
        cards.extend(held)
    known = [card for card in cards if card is not None] if None in cards else cards
    if not variant.has_draws and len(set(known)) != len(known):
        if len(set(setup.board)) != len(setup.board):
            raise InvalidInput("the board repeats a card")
        seen: set[Card | None] = set()
        for card in known:
            if card in seen:
                raise InvalidInput(f"card {card} is dealt twice")
            seen.add(card)
    if variant.short_deck:
        check_deck(variant, known)


def _check_cash(setup: HandSetup) -> None:
    """A cash table's additions: a rake rule (C5, C10), the seats agreeing
    to run it twice (C7), the names of the blinds (C4, C6, C10)."""
    n = len(setup.stacks)
    rule = setup.rake
    if rule is not None:
        if type(rule.basis_points) is not int or not 0 <= rule.basis_points <= 10000:
            raise InvalidInput(f"the rake must be 0 to 10000 basis points (0-100 %), got {rule.basis_points!r}")
        if len(rule.caps) != 3 or any(type(cap) is not int or cap < 0 for cap in rule.caps):
            raise InvalidInput(f"the rake caps are three whole numbers of chips >= 0 (2, 3-4, 5+ players), got {rule.caps!r}")
    if setup.run_twice:
        variant = setup.variant
        if not variant.board_size or variant.deals_later_hole_cards or variant.has_draws:
            raise InvalidInput(f"{variant.name} has no board to run twice (C7)")
        if any(type(seat) is not int or not 0 <= seat < n for seat in setup.run_twice):
            raise InvalidInput(f"run_twice names seats 0 to {n - 1}, got {setup.run_twice!r}")
    if setup.blind_kinds and len(setup.blind_kinds) != n:
        raise InvalidInput(f"blind_kinds has {len(setup.blind_kinds)} entries for {n} players")
