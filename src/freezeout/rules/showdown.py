"""The end of a hand: who shows, who wins each pot and each half of it
(R16, R17, R20, R22, V6, V9, V17).

Hands are ranked by the variant's rankings (``freezeout.evaluate``): one
ranking takes the whole pot; two split it — half to the best high hand,
half to the best qualifying low, all of it to high when nobody has a low
(V6).  Odd chips: between the halves to the high half; within a pot or half
one at a time from the first winner left of the button (R22), or in stud,
which has no button, from the winner holding the highest card by suit (V9).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from freezeout.cards import Card
from freezeout.evaluate import hand_rank
from freezeout.rules.errors import InvalidInput
from freezeout.rules.events import CardsShown, Event, HandEnded, PotAwarded, RakeTaken, RunShowdown
from freezeout.rules.order import card_strength, showdown_order
from freezeout.rules.pots import Pot, build_pots, rake_cuts, split_in_order
from freezeout.rules.state import (
    ACTOR,
    COMMITTED,
    DEAD,
    FINISHED,
    OFFER,
    PAYOUTS,
    RAKE,
    SHOWDOWN,
    SHOWN,
    HandState,
)

_tuple_new: Final = tuple.__new__


__all__ = ["best_cards", "collected_pots", "finish", "hand_name", "rank_hand", "shown_cards"]


def rank_hand(ranking: str, hole: Sequence[Card], board: Sequence[Card]) -> int:
    """The value of a hand in ``ranking`` (higher wins; 0: no qualifying low)."""
    if ranking == "high":
        return hand_rank((*hole, *board))  # the showdown fast path of the house game
    from freezeout.evaluate.rankings import get_ranking

    return get_ranking(ranking).rank(hole, board)


def best_cards(ranking: str, hole: Sequence[Card], board: Sequence[Card]) -> tuple[Card, ...]:
    """The cards that make the hand in ``ranking``: the best five (badugi: its cards)."""
    if ranking == "high":
        from freezeout.evaluate import evaluate

        return evaluate((*hole, *board)).best_five
    from freezeout.evaluate.rankings import get_ranking

    ranked = get_ranking(ranking)
    if not hasattr(ranked, "best"):
        return ()
    return tuple(ranked.best(hole, board)[1])


def hand_name(rankings: Sequence[str], hole: Sequence[Card | None], board: Sequence[Card | None]) -> str:
    """The name of the best hand ``hole`` makes with ``board`` right now
    ("" until there are enough known cards): what a player sees of their
    own hand, in every game, without an evaluator of their own."""
    if None in hole or None in board:
        return ""
    ranking = rankings[0]
    omaha = ranking.startswith("omaha")
    enough = len(board) >= 3 if omaha else len(hole) + len(board) >= (4 if ranking == "badugi" else 5)
    if not enough:
        return ""
    names = [describe_value(name, rank_hand(name, hole, board)) for name in rankings]  # type: ignore[arg-type]
    return " / ".join(name for name in names if name)


def describe_value(ranking: str, rank: int) -> str:
    if not rank:
        return ""
    from freezeout.rules.events import describe

    return describe(ranking, rank)


def collected_pots(state: HandState) -> list[Pot]:
    """The pots formed so far from earlier rounds (R20, D7); dead money
    (untrimmed antes, dead blinds) joins the main pot."""
    pots = build_pots(state.committed, state.folded)
    if state.dead:
        if pots:
            pots[0] = Pot(pots[0].amount + state.dead, pots[0].eligible)
        else:
            live = tuple(seat for seat in range(state.seat_count) if not state.folded[seat])
            pots = [Pot(state.dead, live)]
    return pots


def shown_cards(state: HandState, seat: int) -> tuple[Card, ...] | None:
    """The cards ``seat`` shows down, or ``None`` when any is unknown (a
    mucked or unrecorded hand cannot win, R17).

    Cards the deck did not know may come from ``setup.shows`` (a hand
    history that records them at the showdown); they must agree with every
    card of the hand that is known."""
    setup = state.setup
    if setup.mucks and setup.mucks[seat]:
        return None
    cards = state.cards[seat] if state.cards else ()
    if cards and None not in cards:
        return cards  # type: ignore[return-value]
    shown = setup.shows[seat] if setup.shows else None
    if not cards or shown is None:
        return None
    known = [card for card in cards if card is not None]
    if len(shown) != len(cards) or any(card not in shown for card in known):
        held = "".join("??" if card is None else str(card) for card in cards)
        raise InvalidInput(f"{setup.name(seat)} shows {''.join(map(str, shown))} but holds {held}")
    return shown


def _odd_chip_order(state: HandState) -> Callable[[Sequence[int]], list[int]]:
    """R22 in button games; V9 (highest card by suit in the hand) in stud."""
    n = state.seat_count
    if state.setup.variant.uses_button:
        button = state.setup.button
        return lambda winners: sorted(winners, key=lambda seat: (seat - button - 1) % n)

    def by_high_card(winners: Sequence[int]) -> list[int]:
        def top(seat: int) -> tuple[int, int]:
            return max(card_strength(card) for card in state.cards[seat] if card is not None)

        return sorted(winners, key=top, reverse=True)

    return by_high_card


def _split(amount: int, winners: Sequence[int], order: Callable[[Sequence[int]], list[int]]) -> list[tuple[int, int]]:
    return split_in_order(amount, order(winners))


def finish(state: HandState, events: list[Event], *, showdown: bool) -> HandState:
    """Award every pot (R16, R17, R20, R22, V6) and end the hand; at a cash
    table the rake comes out of the pots first (C5), and a board run twice
    (``state.second_board``, C7) gives half of every pot to each run."""
    n = state.seat_count
    setup = state.setup
    rankings = setup.variant.rankings
    pots = collected_pots(state)
    payouts = [0] * n
    shown = [False] * n
    ranks: list[dict[int, int]] = [{} for _ in rankings]
    board = state.board_cards
    live = [seat for seat in range(n) if not state.folded[seat]]
    if showdown:
        if any(card is None for card in board):
            board_known = False
        else:
            board_known = True
        for seat in showdown_order(state, live):
            cards = shown_cards(state, seat)
            if cards is None or not board_known:
                continue  # R17: a mucked (unknown) hand cannot win
            values = tuple(rank_hand(name, cards, board) for name in rankings)  # type: ignore[arg-type]
            for table, value in zip(ranks, values, strict=True):
                table[seat] = value
            shown[seat] = True
            events.append(_shown(seat, cards, rankings, values))
    raked = 0
    if setup.rake is not None and state.street > 0:  # C5: no flop, no drop
        cuts = rake_cuts(setup.rake, [pot.amount for pot in pots], n)
        for index, cut in enumerate(cuts):
            if cut:
                events.append(RakeTaken(index, cut))
        pots = [Pot(pot.amount - cut, pot.eligible) for pot, cut in zip(pots, cuts, strict=True)]
        raked = sum(cuts)
    order = _odd_chip_order(state)
    second = state.second_board
    if showdown and second:
        # C7: each run wins half of every pot, the odd chip to the first run.
        second_ranks: list[dict[int, int]] = [{} for _ in rankings]
        for seat in live:
            if shown[seat]:
                cards = shown_cards(state, seat)
                assert cards is not None
                for table, name in zip(second_ranks, rankings, strict=True):
                    table[seat] = rank_hand(name, cards, second)  # type: ignore[arg-type]
        events.append(RunShowdown(1, board))  # type: ignore[arg-type]
        for index, pot in enumerate(pots):
            _award(index, pot, pot.amount - pot.amount // 2, ranks, rankings, order, payouts, events, setup.name)
        events.append(RunShowdown(2, second))  # type: ignore[arg-type]
        for index, pot in enumerate(pots):
            _award(index, pot, pot.amount // 2, second_ranks, rankings, order, payouts, events, setup.name)
    else:
        for index, pot in enumerate(pots):
            if not showdown:
                shares = _split(pot.amount, list(pot.eligible), order)
                _pay(payouts, shares)
                events.append(PotAwarded(index, pot.amount, pot.eligible, tuple(shares)))
                continue
            _award(index, pot, pot.amount, ranks, rankings, order, payouts, events, setup.name)
    fields = list(state)
    fields[COMMITTED], fields[DEAD], fields[ACTOR], fields[OFFER] = (0,) * n, 0, -1, None
    fields[FINISHED], fields[SHOWDOWN], fields[PAYOUTS], fields[SHOWN] = True, showdown, tuple(payouts), tuple(shown)
    fields[RAKE] = raked
    done: HandState = _tuple_new(HandState, fields)
    events.append(HandEnded(done.final_stacks(), showdown))
    return done


def _award(
    index: int,
    pot: Pot,
    amount: int,
    ranks: list[dict[int, int]],
    rankings: tuple[str, ...],
    order: Callable[[Sequence[int]], list[int]],
    payouts: list[int],
    events: list[Event],
    name: Callable[[int], str],
) -> None:
    """Award ``amount`` chips of pot ``index`` at a showdown: to the best
    hand, or half to the best high and half to the best low (V6)."""
    contenders = [seat for seat in pot.eligible if seat in ranks[0]]
    if not contenders:
        if len(pot.eligible) != 1:
            names = ", ".join(name(seat) for seat in pot.eligible)
            raise InvalidInput(f"no shown hand can win pot {index + 1} (eligible: {names})")
        contenders = list(pot.eligible)  # uncontested: no need to show (R16)
    halves = [(rankings[0], "high" if len(rankings) == 2 else "", ranks[0])]
    if len(rankings) == 2 and any(ranks[1].get(seat, 0) > 0 for seat in contenders):
        halves.append((rankings[1], "low", ranks[1]))
    amounts = [amount - amount // 2, amount // 2] if len(halves) == 2 else [amount]
    for (ranking, half, table), part in zip(halves, amounts, strict=True):
        best = max(table.get(seat, 0) for seat in contenders)
        winners = [seat for seat in contenders if table.get(seat, 0) == best]
        shares = _split(part, winners, order)
        _pay(payouts, shares)
        events.append(PotAwarded(index, part, pot.eligible, tuple(shares), best, ranking, half))


def _shown(seat: int, cards: tuple[Card, ...], rankings: tuple[str, ...], values: tuple[int, ...]) -> CardsShown:
    if len(rankings) == 1:
        return CardsShown(seat, cards, values[0], rankings[0])
    return CardsShown(seat, cards, values[0], rankings[0], values[1], rankings[1])


def _pay(payouts: list[int], shares: Sequence[tuple[int, int]]) -> None:
    for seat, chips in shares:
        payouts[seat] += chips
