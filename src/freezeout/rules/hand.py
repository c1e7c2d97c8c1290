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

from typing import Any, Final

from freezeout.cards import Card
from freezeout.rules.actions import PLAYER_MOVES, Action, ActionKind
from freezeout.rules.dealing import (
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
    RakeTaken,
    Resigned,
    StreetDealt,
)
from freezeout.rules.faceup import betting_over, turn_up, turned_up
from freezeout.rules.legal import _work_out, legal_actions, offer_moves, offer_to, resolve
from freezeout.rules.order import bring_in_seat, round_opener
from freezeout.rules.pots import rake_cuts, uncalled_bet
from freezeout.rules.runtwice import agree_to_run_twice, runs_twice, second_run
from freezeout.rules.setupcheck import check_setup
from freezeout.rules.showdown import collected_pots, finish
from freezeout.rules.state import (
    ACTED,
    ACTOR,
    AGGRESSOR,
    BET_SIZE,
    BETS,
    BIG,
    BOARD_CARDS,
    BRING_IN_DUE,
    CARDS,
    COMMITTED,
    DEAD,
    DEALT,
    DISCARDS,
    DRAWING,
    EITHER,
    FACED,
    FINISHED,
    FOLDED,
    FULL_TO,
    INCREMENT,
    OFFER,
    OPENER,
    PAYOUTS,
    RAISES,
    RAKE,
    SECOND_BOARD,
    SHOWN,
    SMALL,
    STACKS,
    STREET,
    TO_MATCH,
    UP,
    HandSetup,
    HandState,
    evolve,
    set_at,
)
from freezeout.rules.variant import BettingStructure, Forced, Opening

__all__ = ["HandSetup", "HandState", "agree_to_run_twice", "apply", "collected_pots", "concede", "resign", "start_hand"]

# Read on every move: module constants, because Python 3.11 looks enum
# members up through ``EnumType.__getattr__``'s slow path (~130 ns each).
_RESIGN: Final = ActionKind.RESIGN
_STANDPAT: Final = ActionKind.STANDPAT
_DISCARD: Final = ActionKind.DISCARD
_TIMEOUT: Final = ActionKind.TIMEOUT
_FIXED_LIMIT: Final = BettingStructure.FIXED_LIMIT
_BRING_IN: Final = Forced.BRING_IN
_POSITION: Final = Opening.POSITION
_tuple_new: Final = tuple.__new__


def start_hand(setup: HandSetup) -> tuple[HandState, list[Event]]:
    """Post antes, dead blinds and blinds (R5, R7), deal the first street and
    find the first actor (R9; V7: the bring-in)."""
    setup = check_setup(setup)
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
        if setup.blind_kinds:
            name = setup.blind_kinds[seat]  # C4, C6, C10: the cash table names them
        else:
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
    if variant.opening is _POSITION:
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
        raises=1 if to_match and variant.betting is _FIXED_LIMIT else 0,  # V3: the big blind is the bet
        full_to=to_match,
        bet_size=BIG if first_street.big_bet else SMALL,
        opener=opener,
    )
    if opener >= 0:
        actor = _next_actor_of(state.stacks, state.bets, state.folded, state.acted, to_match, opener)
        if actor >= 0 and state.folded.count(False) > 1:
            return offer_to(state, actor), events
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
    """R9, R14, D1: the next seat from ``start`` that still has to act, or -1.

    One pass from ``start``: the first seat with chips that has not acted or
    not matched the bet, provided someone else can still bet against it."""
    n = len(stacks)
    able = 0  # players with chips who have not folded
    first = -1
    seat = start
    for _ in range(n):
        if seat >= n:
            seat -= n
        if stacks[seat] and not folded[seat]:
            able += 1
            if first < 0:
                if not acted[seat] or bets[seat] < to_match:
                    first = seat
                    if able > 1:
                        return first
                else:
                    lone = seat
            elif able > 1:
                return first
            else:
                lone = seat
        seat += 1
    if able > 1 or able == 0:
        return first if able > 1 else -1
    only = first if first >= 0 else lone
    others = max((bets[other] for other in range(n) if other != only), default=0)
    return only if bets[only] < others else -1  # D1: nobody left to bet against him


def apply(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """Apply one move of the player to act (R10–R14, R26 timeouts, V7, V11)."""
    if state.finished:
        raise IllegalAction("the hand is over")
    if action.kind is _RESIGN:
        return resign(state, action.seat)
    legal = state.offer
    if legal is None:
        legal = legal_actions(state)
        if legal is None:
            raise IllegalAction("nobody is to act")
    seat = legal.seat
    if action.seat != seat:
        setup = state.setup
        if not 0 <= action.seat < len(state.stacks):
            raise InvalidInput(f"seat {action.seat} is not in the hand")
        raise IllegalAction(f"it is {setup.name(seat)}'s turn, not {setup.name(action.seat)}'s")
    if state.drawing:
        return _draw(state, action)
    kind, total, forced = resolve(state, legal, action)
    # One new state, built field by field in a list (the hottest code of the
    # engine: cheaper than evolve() or joining slices).
    values = list(state)
    added = total - legal.current_bet
    stacks = list(state.stacks)
    stack = stacks[seat] = stacks[seat] - added
    bets = list(state.bets)
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
    acted = list(state.acted)
    acted[seat] = True
    faced = list(state.faced)
    faced[seat] = to_match
    new_stacks, new_bets, new_acted = tuple(stacks), tuple(bets), tuple(acted)
    events: list[Event] = [
        _tuple_new(ActionTaken, (seat, kind, total, added, stack == 0 and kind != "fold", forced or action.kind not in PLAYER_MOVES))
    ]
    next_seat = seat + 1
    if next_seat == len(stacks):
        next_seat = 0
    actor = -1 if folded.count(False) < 2 else _next_actor_of(new_stacks, new_bets, folded, new_acted, to_match, next_seat)
    values[STACKS] = new_stacks
    values[BETS] = new_bets
    values[FOLDED] = folded
    values[ACTED] = new_acted
    values[FACED] = tuple(faced)
    values[TO_MATCH] = to_match
    values[INCREMENT] = increment
    values[ACTOR] = actor
    values[BRING_IN_DUE] = False
    values[OFFER] = None
    if raised and kind != "bringin":
        _after_raise(values, state, seat, total)
    new: HandState = _tuple_new(HandState, values)
    if actor >= 0:
        values[OFFER] = _work_out(new)
        return _tuple_new(HandState, values), events
    return _continue(new, seat + 1, events)


def _after_raise(values: list[Any], old: HandState, seat: int, total: int) -> None:
    """Book-keeping after a bet, raise, completion or all-in above the bet
    (not a bring-in, V7: it neither counts nor sets a level): the last
    aggressor (V17) and, in fixed limit, the cap count and the full bet level
    that the next raise builds on (V3, V4)."""
    values[AGGRESSOR] = seat
    if old.setup.variant.betting is not _FIXED_LIMIT:
        return
    small, big = old.setup.bet_sizes
    size = old.bet_size
    step = big if size == BIG else small
    # V4: a full raise, or an all-in of at least half of one, sets the level
    # the next raise builds on; a smaller all-in leaves it (and reopens nothing).
    full = total >= old.full_to + step or 2 * (total - old.to_match) >= step
    values[RAISES] = old.raises + 1
    values[FULL_TO] = total if full else old.full_to
    values[BET_SIZE] = BIG if size == EITHER and total - old.full_to >= big else size  # V7: after a big bet, only big ones




def _draw(state: HandState, action: Action) -> tuple[HandState, list[Event]]:
    """V11: the player to draw throws away some cards (or none) and takes as
    many from the deck; a forfeited draw keeps by V12's rules."""
    seat = state.actor
    held = state.cards[seat]
    kind = action.kind
    if kind is _STANDPAT:
        thrown: tuple[Card | None, ...] = ()
    elif kind is _DISCARD:
        assert action.cards is not None
        thrown = action.cards
        for card in thrown:
            if card is not None and card not in held:
                missing = " ".join(str(card) for card in thrown if card is not None and card not in held)
                raise IllegalAction(f"cannot discard {missing}: {state.setup.name(seat)} does not hold it")
        if None in thrown and thrown.count(None) > held.count(None):
            raise IllegalAction(f"cannot discard {thrown.count(None)} unknown cards: {state.setup.name(seat)} holds {held.count(None)}")
    elif kind is _TIMEOUT:
        if None in held:
            raise IllegalAction("a forfeited draw needs the player's cards")
        thrown = timeout_discards(held, state.setup.variant.rankings[-1])  # type: ignore[arg-type]
    else:
        raise IllegalAction(f"it is the draw: discard or stand pat, not {kind.value}")
    kept_list = list(held)
    for card in thrown:
        kept_list.remove(card)
    drawn, dealt = draw_cards(state, seat, len(thrown))
    values = list(state)
    values[CARDS] = set_at(state.cards, seat, (*kept_list, *drawn))
    values[UP] = set_at(state.up, seat, (False,) * len(held))
    values[DISCARDS] = set_at(state.discards, seat, state.discards[seat] + thrown)
    values[ACTED] = set_at(state.acted, seat, True)
    values[DEALT] = dealt
    values[OFFER] = None
    new: HandState = _tuple_new(HandState, values)
    word = "discard" if thrown else "standpat"
    forced = kind is _TIMEOUT
    events: list[Event] = [_tuple_new(ActionTaken, (seat, word, state.bets[seat], 0, False, forced)), _tuple_new(Drew, (seat, thrown, drawn))]
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
    raked = 0
    rule = state.setup.rake
    if rule is not None and state.street > 0 and total:  # C5: no flop, no drop
        raked = rake_cuts(rule, (total,), n)[0]
        if raked:
            events.append(RakeTaken(0, raked))
            total -= raked
    payouts = [0] * n
    payouts[winner] = total
    if total:
        events.append(PotAwarded(0, total, (winner,), ((winner, total),)))
    values = list(state)
    values[RAKE] = raked
    values[STACKS], values[BETS], values[COMMITTED], values[DEAD], values[ACTOR] = stacks, (0,) * n, (0,) * n, 0, -1
    values[FINISHED], values[PAYOUTS], values[SHOWN] = True, tuple(payouts), (False,) * n
    values[DRAWING], values[BRING_IN_DUE], values[OFFER] = False, False, None
    done: HandState = _tuple_new(HandState, values)
    events.append(HandEnded(done.final_stacks(), False))
    return done


def _continue(state: HandState, start: int, events: list[Event]) -> tuple[HandState, list[Event]]:
    """After a move: find the next actor, or close the round, deal the next
    street (running the board out when nobody can bet, R18) or finish."""
    n = state.seat_count
    streets = state.setup.variant.streets
    twice_from = -1  # C7: the board's length when a run-out to be run twice began
    while True:
        if state.folded.count(False) == 1:  # R16
            return _win_uncontested(state, events), events
        if state.drawing:
            drawer = _next_drawer(state, start % n)
            if drawer >= 0:
                return offer_to(state, drawer), events
            values = list(state)
            values[DRAWING], values[ACTED], values[OFFER] = False, (False,) * n, None
            if not any(street.draw for street in streets[state.street + 1:]):
                turn_up(values, state.setup.button + 1, events)  # V20: a draw game's hands go up after the last draw
            start = _opener(_tuple_new(HandState, values))
            values[OPENER] = start % n
            state = _tuple_new(HandState, values)
            continue
        actor = _next_actor(state, start % n)
        if actor >= 0:
            return offer_to(state, actor), events
        closed = _close_round(state, events)
        if state.street + 1 >= len(streets):
            if twice_from >= 0:
                closed[SECOND_BOARD] = second_run(state, twice_from, events)
            return finish(_tuple_new(HandState, closed), events, showdown=True), events
        if state.setup.run_twice and twice_from < 0 and runs_twice(state, closed[STACKS]):
            twice_from = len(state.board_cards)
        if not any(street.draw for street in streets[state.street + 1:]):
            turn_up(closed, state.setup.button + 1, events)  # V20: all-in hands face up before the run-out
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
    if state.setup.variant.later_opening is _POSITION:
        return state.setup.button + 1
    return round_opener(state)


def _deal(state: HandState, street_index: int, events: list[Event], values: list[Any]) -> HandState:
    """Move on to a later street (R8, V5, V7, V11) from the closed round's
    fields ``values`` (:func:`_close_round`): each player still in gets the
    street's hole cards, then the board cards are turned; set the round's
    bet size and who opens it.  Every card dealt now is announced by a
    ``StreetDealt`` or (privately, for its owner's down cards) ``HoleDealt``."""
    variant = state.setup.variant
    street = variant.streets[street_index]
    cards, up, board = state.cards, values[UP], state.board_cards  # values[UP]: maybe turned up (V20)
    face_up = turned_up(state.folded, up) and betting_over(state.folded, values[STACKS])
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
            flags = (True,) * len(street.hole) if face_up else street.hole  # V20: after the turn-up, dealt face up
            for seat, got in zip(live, dealt, strict=True):
                cards_list[seat] += got
                up_list[seat] += flags
                holes.append(_tuple_new(HoleDealt, (seat, got, flags)))
            cards, up = tuple(cards_list), tuple(up_list)
    if street.board:
        turned, position = deal_board_cards(state, street.board, position, street.name)
        if any(card is not None and card in board for card in turned):
            raise InvalidInput("the board repeats a card")
        shared += turned
    board += shared
    events.append(_tuple_new(StreetDealt, (street.name, shared)))
    events.extend(holes)
    size = BIG if street.big_bet else SMALL
    if variant.open_pair_big_bet and street_index == 1 and _open_pair(cards, up, state.folded):
        size = EITHER  # V7: an open pair on fourth street allows the big bet
    opener = (state.setup.button + 1) % state.seat_count if variant.later_opening is _POSITION else -1
    values[STREET], values[CARDS], values[UP], values[BOARD_CARDS], values[DEALT] = street_index, cards, up, board, position
    values[DRAWING], values[BET_SIZE], values[RAISES], values[FULL_TO] = street.draw, size, 0, 0
    values[AGGRESSOR], values[OPENER] = -1, opener
    new: HandState = _tuple_new(HandState, values)
    if opener < 0 and not street.draw:
        values[OPENER] = round_opener(new)  # V7, V10: the best showing hand
        new = _tuple_new(HandState, values)
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


def _close_round(state: HandState, events: list[Event]) -> list[Any]:
    """R21/D6: return the unmatched part of the largest bet, sweep bets in:
    the state's fields after it, in a list the next street changes further."""
    bets = list(state.bets)
    stacks = state.stacks
    seat, amount = uncalled_bet(bets, state.folded)
    if amount:
        bets[seat] -= amount
        stacks = set_at(stacks, seat, stacks[seat] + amount)
        events.append(BetReturned(seat, amount))
    n = state.seat_count
    values = list(state)
    values[STACKS], values[BETS], values[FACED] = stacks, (0,) * n, (0,) * n
    values[COMMITTED] = tuple([c + b for c, b in zip(state.committed, bets, strict=True)])
    values[ACTED], values[TO_MATCH], values[INCREMENT] = (False,) * n, 0, state.setup.min_bet
    values[ACTOR], values[OFFER] = -1, None
    return values
