"""One hand of poker as a pure state machine (R5, R7–R22, D1–D7, V1–V17).

``start_hand(setup)`` posts antes and blinds (or has the bring-in posted),
deals the first street and finds the first actor; ``apply(state, action)``
returns a *new* state and the events the move caused, or raises
:class:`IllegalAction` and leaves the old state as it was (states are frozen).
Cards come in through :class:`HandSetup` — the engine never shuffles — so a
hand replays exactly.  Seats here are hand seats ``0..n-1`` in clockwise
order; the tournament maps them to its own seats.

The game is read from ``setup.variant`` (``freezeout.rules.variant``):
streets, forced bets, betting structure and rankings are data, and the
few places where games differ are hooks — dealing (``dealing``), who opens
(``order``), amounts (``legal``), the showdown (``showdown``), forfeited
draws (``draws``).
"""

from __future__ import annotations

from typing import Any

from freezeout.cards import Card
from freezeout.rules.actions import PLAYER_MOVES, Action, ActionKind
from freezeout.rules.dealing import (
    check_deck,
    deal_board_cards,
    deal_hole_cards,
    draw_cards,
    first_cards,
    shared_card_needed,
)
from freezeout.rules.draws import timeout_discards
from freezeout.rules.errors import IllegalAction, InvalidInput
from freezeout.rules.events import (
    ActionTaken,
    BetReturned,
    BlindPosted,
    Drew,
    Event,
    HandEnded,
    HoleDealt,
    PotAwarded,
    Resigned,
    StreetDealt,
)
from freezeout.rules.legal import legal_actions, offer_moves, resolve
from freezeout.rules.order import bring_in_seat, round_opener
from freezeout.rules.pots import uncalled_bet
from freezeout.rules.showdown import collected_pots, finish
from freezeout.rules.state import BIG, EITHER, SMALL, HandSetup, HandState, evolve, set_at
from freezeout.rules.variant import BettingStructure, Forced, Opening

__all__ = ["HandSetup", "HandState", "apply", "collected_pots", "concede", "resign", "start_hand"]


def _check_setup(setup: HandSetup) -> HandSetup:
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
    if variant.betting is BettingStructure.FIXED_LIMIT:
        if setup.min_bet <= 0:
            raise InvalidInput("a fixed-limit game needs its small bet (or big blind)")
    elif type(setup.big_blind) is not int or setup.big_blind <= 0:
        raise InvalidInput(f"the big blind must be a positive whole number, got {setup.big_blind!r}")
    if variant.forced is Forced.BRING_IN and any(setup.blinds):
        raise InvalidInput(f"{variant.name} has no blinds: antes and a bring-in (V7)")
    if setup.bring_in and variant.forced is not Forced.BRING_IN:
        raise InvalidInput(f"{variant.name} has no bring-in")
    if 0 < setup.min_bet <= setup.bring_in:
        raise InvalidInput(f"the bring-in ({setup.bring_in}) must be below the small bet ({setup.min_bet})")
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
    if len(setup.board) > variant.board_size + (1 if variant.deals_later_hole_cards else 0):
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


def start_hand(setup: HandSetup) -> tuple[HandState, list[Event]]:
    """Post antes, dead blinds and blinds (R5, R7), deal the first street and
    find the first actor (R9; V7: the bring-in)."""
    setup = _check_setup(setup)
    n = len(setup.stacks)
    variant = setup.variant
    stacks = list(setup.stacks)
    committed = [0] * n
    bets = [0] * n
    events: list[Event] = []
    dead = 0
    for kind, amounts in (("ante", setup.antes), ("dead", setup.dead)):
        for seat, amount in enumerate(amounts):
            if amount:
                paid = min(amount, stacks[seat])
                stacks[seat] -= paid
                if kind == "ante" and setup.ante_trimming:
                    committed[seat] += paid
                else:
                    dead += paid
                events.append(BlindPosted(seat, kind, paid, stacks[seat] == 0))
    blinds = setup.blinds or (0,) * n
    posters = [seat for seat in _posting_order(n, setup.button) if blinds[seat]]
    for index, seat in enumerate(posters):
        paid = min(blinds[seat], stacks[seat])
        stacks[seat] -= paid
        bets[seat] += paid
        name = "big blind" if len(posters) == 1 or index == 1 else "small blind" if index == 0 else "straddle"
        events.append(BlindPosted(seat, name, paid, stacks[seat] == 0))
    to_match = max(blinds)  # D1: a short blind does not lower the bet to match
    first_street = variant.streets[0]
    count = len(first_street.hole)
    seats = range(n)
    empty: tuple[tuple[Card | None, ...], ...] = ((),) * n
    dealt, position = first_cards(setup, count)
    if variant.deals_later_hole_cards or variant.has_draws:
        # Games that deal during the hand announce every card they deal (the
        # down cards only to their owner); a flop game's first street is the
        # deal itself (the tournament's private CardsDealt).
        events.extend(HoleDealt(seat, got, first_street.hole) for seat, got in zip(seats, dealt, strict=True))
    opener = -1
    if variant.opening is Opening.POSITION:
        # R9: preflop the first to act sits left of the (last) largest blind posted in turn.
        in_turn = [seat for seat in posters if not (setup.out_of_turn and setup.out_of_turn[seat])]
        largest = max((blinds[seat] for seat in in_turn), default=0)
        largest_posters = [seat for seat in in_turn if blinds[seat] == largest]
        opener = (largest_posters[-1] + 1 if largest_posters else setup.button + 1) % n
    state = HandState(
        setup=setup,
        stacks=tuple(stacks),
        bets=tuple(bets),
        committed=tuple(committed),
        folded=(False,) * n,
        acted=(False,) * n,
        faced=(0,) * n,
        street=0,
        to_match=to_match,
        increment=max(setup.min_bet, to_match),
        actor=-1,
        dead=dead,
        cards=tuple(dealt),
        up=(first_street.hole,) * n,
        dealt=position,
        discards=empty,
        raises=1 if to_match and variant.betting is BettingStructure.FIXED_LIMIT else 0,  # V3: the big blind is the bet
        full_to=to_match,
        bet_size=BIG if first_street.big_bet else SMALL,
        opener=opener,
    )
    if opener >= 0:
        actor = _next_actor_of(state.stacks, state.bets, state.folded, state.acted, to_match, opener)
        if actor >= 0 and state.folded.count(False) > 1:
            return offer_moves(evolve(state, actor=actor)), events
        return _continue(state, opener, events)
    first = bring_in_seat(state)  # V7, V10
    if setup.bring_in:
        for offset in range(n):  # a bring-in all-in from the antes passes it on
            seat = (first + offset) % n
            if state.stacks[seat] > 0:
                return offer_moves(evolve(state, actor=seat, bring_in_due=True, opener=seat)), events
    return _continue(evolve(state, opener=first), first, events)


def _posting_order(n: int, button: int) -> list[int]:
    """R5: blinds are posted from the left of the button; heads-up the button
    posts the small blind, so posting starts at the button."""
    start = button if n == 2 else button + 1
    return [(start + offset) % n for offset in range(n)]


def _next_actor(state: HandState, start: int) -> int:
    return _next_actor_of(state.stacks, state.bets, state.folded, state.acted, state.to_match, start)


def _next_actor_of(
    stacks: tuple[int, ...],
    bets: tuple[int, ...],
    folded: tuple[bool, ...],
    acted: tuple[bool, ...],
    to_match: int,
    start: int,
) -> int:
    """R9, R14, D1: the next seat from ``start`` that still has to act, or -1."""
    n = len(stacks)
    can_act = [seat for seat in range(n) if not folded[seat] and stacks[seat] > 0]
    if not can_act:
        return -1
    if len(can_act) == 1:  # D1: nobody left to bet against him
        only = can_act[0]
        others = max((bets[seat] for seat in range(n) if seat != only), default=0)
        return only if bets[only] < others else -1
    for offset in range(n):
        seat = (start + offset) % n
        if not folded[seat] and stacks[seat] > 0 and (not acted[seat] or bets[seat] < to_match):
            return seat
    return -1


def apply(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """Apply one move of the player to act (R10–R14, R26 timeouts, V7, V11)."""
    if state.finished:
        raise IllegalAction("the hand is over")
    if action.kind is ActionKind.RESIGN:
        return resign(state, action.seat)
    legal = legal_actions(state)
    if legal is None:
        raise IllegalAction("nobody is to act")
    if not 0 <= action.seat < state.seat_count:
        raise InvalidInput(f"seat {action.seat} is not in the hand")
    if action.seat != legal.seat:
        setup = state.setup
        raise IllegalAction(f"it is {setup.name(legal.seat)}'s turn, not {setup.name(action.seat)}'s")
    if state.drawing:
        return _draw(state, action)
    kind, total, forced = resolve(state, legal, action)
    seat = legal.seat
    stacks = list(state.stacks)
    bets = list(state.bets)
    added = total - bets[seat]
    stacks[seat] -= added
    bets[seat] = total
    to_match, increment = state.to_match, state.increment
    raised = total > to_match
    if raised:
        if total - to_match >= increment:  # a full bet or raise sets the new increment (D2)
            increment = total - to_match
        to_match = total
    folded = state.folded
    if kind == "fold":
        folded = set_at(folded, seat, True)
    new_stacks, new_bets, acted = tuple(stacks), tuple(bets), set_at(state.acted, seat, True)
    events: list[Event] = [
        ActionTaken(seat, kind, total, added, stacks[seat] == 0 and kind != "fold", forced or action.kind not in PLAYER_MOVES)
    ]
    # The common case — someone else still has to act — builds one state.
    actor = -1 if folded.count(False) < 2 else _next_actor_of(new_stacks, new_bets, folded, acted, to_match, (seat + 1) % len(stacks))
    # evolve(state, stacks=…, bets=…, folded=…, acted=…, faced=…, to_match=…,
    # increment=…, actor=…, bring_in_due=False, offer=None), spelled out: the
    # hottest line of the engine.
    new = tuple.__new__(
        HandState,
        (
            state[0], new_stacks, new_bets, state[3], folded, acted, set_at(state.faced, seat, to_match),
            state[7], to_match, increment, actor, *state[11:_BRING_IN_DUE], False, *state[_BRING_IN_DUE + 1 : -1], None,
        ),
    )
    if raised or kind == "bringin":
        new = _after_raise(new, state, seat, kind, total)
    if actor >= 0:
        return offer_moves(new), events
    return _continue(new, seat + 1, events)


_BRING_IN_DUE = HandState._fields.index("bring_in_due")
assert HandState._fields[:11] == (
    "setup", "stacks", "bets", "committed", "folded", "acted", "faced", "street", "to_match", "increment", "actor"
) and HandState._fields[-1] == "offer", "apply() spells out the order of HandState's fields"


def _after_raise(new: HandState, old: HandState, seat: int, kind: str, total: int) -> HandState:
    """Book-keeping after a bet, raise, completion or all-in above the bet:
    the last aggressor (V17) and, in fixed limit, the cap count and the
    full bet level that the next raise builds on (V3, V4)."""
    if kind == "bringin":
        return new  # V7: the bring-in is not a bet: it neither counts nor sets a level
    if old.setup.variant.betting is not BettingStructure.FIXED_LIMIT:
        return evolve(new, aggressor=seat)
    small, big = old.setup.bet_sizes
    size = old.bet_size
    step = big if size == BIG else small
    # V4: a full raise, or an all-in of at least half of one, sets the level
    # the next raise builds on; a smaller all-in leaves it (and reopens nothing).
    full = total >= old.full_to + step or 2 * (total - old.to_match) >= step
    return evolve(
        new,
        aggressor=seat,
        raises=old.raises + 1,
        full_to=total if full else old.full_to,
        bet_size=BIG if size == EITHER and total - old.full_to >= big else size,  # V7: after a big bet, only big ones
    )


def _draw(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """V11: the player to draw throws away some cards (or none) and takes as
    many from the deck; a forfeited draw keeps by V12's rules."""
    seat = state.actor
    held = state.cards[seat]
    kind = action.kind
    if kind is ActionKind.STANDPAT:
        thrown: tuple[Card | None, ...] = ()
    elif kind is ActionKind.DISCARD:
        assert action.cards is not None
        thrown = action.cards
        missing = [str(card) for card in thrown if card is not None and card not in held]
        if missing:
            raise IllegalAction(f"cannot discard {' '.join(missing)}: {state.setup.name(seat)} does not hold it")
        if thrown.count(None) > held.count(None):
            raise IllegalAction(f"cannot discard {thrown.count(None)} unknown cards: {state.setup.name(seat)} holds {held.count(None)}")
    elif kind is ActionKind.TIMEOUT:
        if any(card is None for card in held):
            raise IllegalAction("a forfeited draw needs the player's cards")
        thrown = timeout_discards(held, state.setup.variant.rankings[-1])  # type: ignore[arg-type]
    else:
        raise IllegalAction(f"it is the draw: discard or stand pat, not {kind.value}")
    kept_list = list(held)
    for card in thrown:
        kept_list.remove(card)
    kept = tuple(kept_list)
    drawn, moved = draw_cards(state, seat, len(thrown))
    new = evolve(
        moved,
        offer=None,
        cards=set_at(state.cards, seat, kept + drawn),
        up=set_at(state.up, seat, (False,) * (len(kept) + len(drawn))),
        discards=set_at(state.discards, seat, state.discards[seat] + thrown),
        acted=set_at(state.acted, seat, True),
    )
    word = "discard" if thrown else "standpat"
    forced = kind is ActionKind.TIMEOUT
    events: list[Event] = [ActionTaken(seat, word, state.bets[seat], 0, False, forced), Drew(seat, thrown, drawn)]
    return _continue(new, seat + 1, events)


def resign(state: HandState, seat: int) -> tuple[HandState, list[Event]]:
    """R28, D8: the player folds at once and the chips behind leave the game;
    bets already made stay and must still be matched by the others."""
    if not 0 <= seat < state.seat_count:
        raise InvalidInput(f"seat {seat} is not in the hand")
    if state.finished:
        raise IllegalAction("the hand is over")
    vanished = state.stacks[seat]
    new = evolve(state, stacks=set_at(state.stacks, seat, 0), folded=set_at(state.folded, seat, True), offer=None)
    if state.bring_in_due and state.actor == seat:
        new = new._replace(bring_in_due=False)  # nobody else brings in: the next seat opens the betting
    events: list[Event] = [Resigned(seat, vanished)]
    if not state.folded[seat]:
        events.append(ActionTaken(seat, "fold", state.bets[seat], 0, False, True))
    start = seat + 1 if state.actor in (seat, -1) else state.actor
    return _continue(new, start, events)


def concede(state: HandState, winner: int) -> tuple[HandState, list[Event]]:
    """D8: when a resignation leaves one player in the tournament, that player
    takes every chip on the table (all pots and the round's bets) at once."""
    events: list[Event] = []
    return _award_everything(state, winner, state.stacks, events), events


def _award_everything(state: HandState, winner: int, stacks: tuple[int, ...], events: list[Event]) -> HandState:
    """End the hand with every chip still on the table going to ``winner``."""
    n = state.seat_count
    total = state.pot_total - (sum(stacks) - sum(state.stacks))  # less any bet just returned
    payouts = [0] * n
    payouts[winner] = total
    if total:
        events.append(PotAwarded(0, total, (winner,), ((winner, total),)))
    done = evolve(
        state,
        stacks=stacks,
        bets=(0,) * n,
        committed=(0,) * n,
        dead=0,
        actor=-1,
        finished=True,
        payouts=tuple(payouts),
        shown=(False,) * n,
        drawing=False,
        bring_in_due=False,
        offer=None,
    )
    events.append(HandEnded(done.final_stacks(), False))
    return done


def _continue(state: HandState, start: int, events: list[Event]) -> tuple[HandState, list[Event]]:
    """After a move: find the next actor, or close the round, deal the next
    street (running the board out when nobody can bet, R18) or finish."""
    n = state.seat_count
    streets = state.setup.variant.streets
    while True:
        if state.folded.count(False) == 1:  # R16
            return _win_uncontested(state, events), events
        if state.drawing:
            drawer = _next_drawer(state, start % n)
            if drawer >= 0:
                return offer_moves(evolve(state, actor=drawer)), events
            state = evolve(state, drawing=False, acted=(False,) * n)
            start = _opener(state)
            state = evolve(state, opener=start % n)
            continue
        actor = _next_actor(state, start % n)
        if actor >= 0:
            return offer_moves(evolve(state, actor=actor)), events
        closed = _close_round(state, events)
        if state.street + 1 >= len(streets):
            return finish(evolve(state, **closed), events, showdown=True), events
        state = _deal(state, state.street + 1, events, closed)
        if state.drawing:
            start = state.setup.button + 1
        else:
            start = state.opener


def _next_drawer(state: HandState, start: int) -> int:
    """V11: each player still in draws once, in turn from the left of the button."""
    n = state.seat_count
    for offset in range(n):
        seat = (start + offset) % n
        if not state.folded[seat] and not state.acted[seat]:
            return seat
    return -1


def _opener(state: HandState) -> int:
    """The seat the betting of a later round starts from (R9, V7, V10)."""
    if state.setup.variant.later_opening is Opening.POSITION:
        return state.setup.button + 1
    return round_opener(state)


def _deal(state: HandState, street_index: int, events: list[Event], changes: dict[str, Any]) -> HandState:
    """Move on to a later street (R8, V5, V7, V11) with the round's
    ``changes`` (:func:`_close_round`): each player still in gets the
    street's hole cards, then the board cards are turned; set the round's
    bet size and who opens it.  Every card dealt now is announced by a
    ``StreetDealt`` or (privately, for its owner's down cards) ``HoleDealt``."""
    variant = state.setup.variant
    street = variant.streets[street_index]
    cards, up, board = state.cards, state.up, state.board_cards
    position = state.dealt
    holes: list[HoleDealt] = []
    shared: tuple[Card | None, ...] = ()
    if street.hole:
        live = [seat for seat in range(state.seat_count) if not state.folded[seat]]
        if shared_card_needed(variant, state, len(live)):
            shared, position = deal_board_cards(state, 1, position, street.name)  # V7: one card for everyone
        else:
            dealt, position = deal_hole_cards(state, live, len(street.hole), position)
            cards_list, up_list = list(cards), list(up)
            for seat, got in zip(live, dealt, strict=True):
                cards_list[seat] += got
                up_list[seat] += street.hole
                holes.append(HoleDealt(seat, got, street.hole))
            cards, up = tuple(cards_list), tuple(up_list)
    if street.board:
        turned, position = deal_board_cards(state, street.board, position, street.name)
        if any(card is not None and card in board for card in turned):
            raise InvalidInput("the board repeats a card")
        shared += turned
    board += shared
    events.append(StreetDealt(street.name, shared))  # type: ignore[arg-type]
    events.extend(holes)
    size = BIG if street.big_bet else SMALL
    if variant.open_pair_big_bet and street_index == 1 and _open_pair(cards, up, state.folded):
        size = EITHER  # V7: an open pair on fourth street allows the big bet
    opener = (state.setup.button + 1) % state.seat_count if variant.later_opening is Opening.POSITION else -1
    new = evolve(
        state,
        street=street_index,
        cards=cards,
        up=up,
        board_cards=board,
        dealt=position,
        drawing=street.draw,
        bet_size=size,
        raises=0,
        full_to=0,
        aggressor=-1,
        opener=opener,
        **changes,
    )
    if opener < 0 and not street.draw:
        new = evolve(new, opener=round_opener(new))  # V7, V10: the best showing hand
    return new


def _open_pair(cards: tuple[tuple[Card | None, ...], ...], up: tuple[tuple[bool, ...], ...], folded: tuple[bool, ...]) -> bool:
    for seat, held in enumerate(cards):
        if folded[seat]:
            continue
        ranks = [card.rank for card, face_up in zip(held, up[seat], strict=True) if face_up and card is not None]
        if len(ranks) != len(set(ranks)):
            return True
    return False


def _win_uncontested(state: HandState, events: list[Event]) -> HandState:
    """R16: the last player in the hand wins every pot without showing.

    The same chips as closing the round and awarding each pot (D6, D7) —
    every pot's only eligible player is him — in one step, because this is
    how most hands end."""
    winner = state.folded.index(False)
    seat, amount = uncalled_bet(state.bets, state.folded)
    stacks = state.stacks
    if amount:
        events.append(BetReturned(seat, amount))
        stacks = set_at(stacks, seat, stacks[seat] + amount)
    return _award_everything(state, winner, stacks, events)


def _close_round(state: HandState, events: list[Event]) -> dict[str, Any]:
    """R21/D6: return the unmatched part of the largest bet, sweep bets in:
    the changes to the state, applied with the next street's."""
    bets = list(state.bets)
    stacks = state.stacks
    seat, amount = uncalled_bet(bets, state.folded)
    if amount:
        bets[seat] -= amount
        stacks = set_at(stacks, seat, stacks[seat] + amount)
        events.append(BetReturned(seat, amount))
    n = state.seat_count
    return {
        "stacks": stacks,
        "bets": (0,) * n,
        "committed": tuple(c + b for c, b in zip(state.committed, bets, strict=True)),
        "acted": (False,) * n,
        "faced": (0,) * n,
        "to_match": 0,
        "increment": state.setup.min_bet,
        "actor": -1,
    }
