"""All-in equity: each player's expected share of a pot once only cards remain.

Every way the remaining cards can come is equally likely, so a player's
equity is the average, over the deals, of the share of the pot the
showdown gives them (R20, V6): the whole pot to the best hand, equal
shares on a tie; in the hi/lo games half to the best high and half to the
best qualifying low (quartering included), all of it to high when no low
qualifies.  Odd chips are not modelled: shares are exact fractions.

Two ways to average:

* **exact** — every deal is enumerated (boards, or in stud each player's
  remaining cards: ``C(rest, n)`` times the ways of handing the ``n`` cards
  out); used whenever that many deals fit :data:`EXACT_LIMIT` rank
  evaluations (hold'em and short-deck always: a compiled kernel walks the
  boards without building rows);
* **Monte Carlo** — otherwise :data:`SAMPLES` deals drawn uniformly from a
  seeded generator, so the same seed gives the same numbers; the ± is the
  95 % half-width (1.96 standard errors) of each equity.

Hands may be ranges: each player a list of candidate hands; every
combination of candidates that shares no card is equally likely.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from freezeout.analysis.games import Game
from freezeout.evaluate import get_ranking

__all__ = [
    "EXACT_LIMIT",
    "SAMPLES",
    "Deals",
    "Equity",
    "EquityError",
    "check_input",
    "deal_ranks",
    "equity",
    "pot_shares",
]

#: Rank evaluations (deals × players) an exact enumeration may take outside hold'em.
EXACT_LIMIT: Final = 3_000_000
#: Deals drawn by Monte Carlo.
SAMPLES: Final = 50_000
#: Hold'em and short-deck boards (summed over range combinations) the compiled kernel enumerates
#: before Monte Carlo takes over: heads-up preflop is 1,712,304.
HIGH_EXACT_LIMIT: Final = 6_000_000
#: Combinations of range hands (the product of the ranges' sizes) listed one by one; beyond it
#: (``random`` against ``random`` is 1,758,276) Monte Carlo draws each hand from its own range
#: and keeps the draws that share no card, which is uniform over the combinations too.
LISTED_LIMIT: Final = 250_000
#: Batches of draws the sampler of :data:`LISTED_LIMIT` tries before it gives up on ranges
#: that hardly ever fit together.
DRAW_BATCHES: Final = 16
#: Fewer fitting draws than this after :data:`DRAW_BATCHES` batches: the ranges are refused.
MIN_DRAWN: Final = 1_000

Hand = tuple[int, ...]
Ranks = npt.NDArray[np.int32]
Floats = npt.NDArray[np.float64]


class EquityError(ValueError):
    """Cards the engine cannot deal from: duplicates, wrong counts, cards outside the deck."""


@dataclass(frozen=True, slots=True)
class Deals:
    """Ranks of every player on every deal: ``ranks[k][deal, player]`` for ranking ``k``.

    Several arrays (one per range combination) are concatenated; every row is
    one equally likely deal.
    """

    ranks: tuple[Ranks, ...]
    exact: bool

    @property
    def count(self) -> int:
        return int(self.ranks[0].shape[0])


@dataclass(frozen=True, slots=True)
class Equity:
    """Each player's expected share of the pot and how it comes.

    ``win``: takes the whole pot alone (a scoop in hi/lo); ``tie``: part of
    it; ``high``/``low`` (hi/lo games): the share of each half, the low half
    counted as 0 on deals where no low qualifies (``no_low`` of them).
    ``error``: 95 % half-width of each equity (0 when exact).
    """

    equity: tuple[float, ...]
    win: tuple[float, ...]
    tie: tuple[float, ...]
    high: tuple[float, ...] | None
    low: tuple[float, ...] | None
    no_low: float | None
    exact: bool
    deals: int
    error: tuple[float, ...]


def _check(game: Game, hands: Sequence[Sequence[Hand]], board: Sequence[int], dead: Sequence[int]) -> None:
    if len(hands) < 2:
        raise EquityError("equity needs at least two hands")
    deck = set(game.deck)
    fixed = [*board, *dead]
    for card in fixed:
        if card not in deck:
            raise EquityError(f"{_name(card)} is not in the {game.name} deck")
    if len(set(fixed)) != len(fixed):
        raise EquityError(f"duplicate card {_name(_first_repeat(fixed))}")
    if game.stud and board:
        raise EquityError(f"{game.name} has no board")
    if len(board) > game.board:
        raise EquityError(f"a {game.name} board has at most {game.board} cards, got {len(board)}")
    for seat, candidates in enumerate(hands):
        if not candidates:
            raise EquityError(f"hand {seat + 1} has no possible combination left")
        for hand in candidates:
            if game.stud and not 1 <= len(hand) <= game.hole:
                raise EquityError(f"a {game.name} hand has 1 to {game.hole} cards, got {len(hand)}")
            if not game.stud and len(hand) != game.hole:
                raise EquityError(f"a {game.name} hand has {game.hole} cards, got {len(hand)}")
            for card in hand:
                if card not in deck:
                    raise EquityError(f"{_name(card)} is not in the {game.name} deck")
    if all(len(candidates) == 1 for candidates in hands):
        every = [*fixed, *(card for candidates in hands for card in candidates[0])]
        if len(set(every)) != len(every):
            raise EquityError(f"duplicate card {_name(_first_repeat(every))}")


def check_input(game: Game, hands: Sequence[Sequence[Hand]], board: Sequence[int], dead: Sequence[int]) -> None:
    """Raise :class:`EquityError` for input :func:`equity` would refuse, computing nothing."""
    _check(game, hands, board, dead)


def _name(card: int) -> str:
    from freezeout.cards import Card

    return str(Card(card))


def _first_repeat(cards: Sequence[int]) -> int:
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            return card
        seen.add(card)
    raise AssertionError("no repeat")


def _assignments(hands: Sequence[Sequence[Hand]], fixed: set[int]) -> list[tuple[Hand, ...]]:
    """Every choice of one candidate per player sharing no card with another or with ``fixed``."""
    chosen: list[tuple[Hand, ...]] = [()]
    for candidates in hands:
        grown: list[tuple[Hand, ...]] = []
        for partial in chosen:
            used = fixed.union(*partial)
            grown.extend((*partial, hand) for hand in candidates if used.isdisjoint(hand))
        chosen = grown
    return chosen


def _needs(game: Game, assignment: Sequence[Hand], board: Sequence[int]) -> tuple[int, ...]:
    """Cards still to come: ``(board, player 1, player 2, …)``."""
    if game.stud:
        return (0, *(game.hole - len(hand) for hand in assignment))
    return (game.board - len(board), *(0 for _ in assignment))


def _deal_count(rest: int, needs: Sequence[int]) -> int:
    total = sum(needs)
    count = math.comb(rest, total)
    for need in needs:
        count *= math.comb(total, need)
        total -= need
    return count


def deal_ranks(
    game: Game,
    hands: Sequence[Sequence[Hand]],
    board: Sequence[int] = (),
    dead: Sequence[int] = (),
    *,
    seed: int = 0,
    samples: int = SAMPLES,
    exact_limit: int = EXACT_LIMIT,
) -> Deals:
    """Every player's rank(s) on every deal (exact) or on ``samples`` seeded random deals."""
    _check(game, hands, board, dead)
    fixed = {*board, *dead}
    if math.prod(len(candidates) for candidates in hands) > LISTED_LIMIT:
        return Deals(_drawn_monte_carlo(game, hands, board, fixed, seed, samples), False)
    assignments = _assignments(hands, fixed)
    if not assignments:
        raise EquityError("the ranges leave no combination of hands without a shared card")
    needs = _needs(game, assignments[0], board)
    rest = len(game.deck) - len(fixed) - sum(len(hand) for hand in assignments[0])
    if rest < sum(needs):
        raise EquityError(f"only {rest} cards are left to deal and {sum(needs)} are needed")
    deals = _deal_count(rest, needs)
    high_kernel = not game.stud and game.rankings[0] in ("high", "short-deck")
    if high_kernel and deals * len(assignments) <= HIGH_EXACT_LIMIT:
        parts = [_high_exact(game, assignment, board, fixed) for assignment in assignments]
        return Deals((np.concatenate(parts),), True)
    if deals * len(assignments) * len(hands) <= exact_limit:
        per_ranking: list[list[Ranks]] = [[] for _ in game.rankings]
        for assignment in assignments:
            for index, ranks in enumerate(_generic_exact(game, assignment, board, fixed, needs)):
                per_ranking[index].append(ranks)
        return Deals(tuple(np.concatenate(parts) for parts in per_ranking), True)
    return Deals(_monte_carlo(game, hands, assignments, board, fixed, needs, seed, samples), False)


def _rest(game: Game, used: set[int]) -> npt.NDArray[np.uint8]:
    return np.array([card for card in game.deck if card not in used], dtype=np.uint8)


def _high_exact(game: Game, assignment: Sequence[Hand], board: Sequence[int], fixed: set[int]) -> Ranks:
    from freezeout.analysis import kernels

    used = fixed.union(*assignment)
    rest = _rest(game, used)
    need = game.board - len(board)
    tables = _high_tables(game.rankings[0])
    out = np.empty((math.comb(len(rest), need), len(assignment)), dtype=np.int32)
    run: Callable[..., None] = kernels.high_board_ranks
    run(
        np.array(assignment, dtype=np.uint8), np.array(board, dtype=np.uint8), rest, need, *tables, out
    )
    return out


def _high_tables(ranking: str) -> tuple[object, ...]:
    from freezeout.evaluate import batch

    if ranking == "high":
        return batch.CARD_KEYS, batch.HASH_MULTIPLIER, batch.HASH_OFFSETS, batch.HASH_SLOTS, batch.FLUSH_RANKS
    from freezeout.evaluate.variant_batch import _short_arrays

    return tuple(_short_arrays())


def _combinations(n: int, k: int) -> npt.NDArray[np.intp]:
    from freezeout.analysis import kernels

    out = np.empty((math.comb(n, k), k), dtype=np.intp)
    run: Callable[..., None] = kernels.combinations
    run(n, k, out)
    return out


def _splits(needs: Sequence[int]) -> npt.NDArray[np.intp]:
    """Every way to hand ``sum(needs)`` dealt positions to the groups, as position orders."""
    total = sum(needs)
    orders: list[tuple[int, ...]] = [()]
    for need in needs:
        grown: list[tuple[int, ...]] = []
        for order in orders:
            left = [position for position in range(total) if position not in order]
            grown.extend(order + chosen for chosen in itertools.combinations(left, need))
        orders = grown
    return np.array(orders, dtype=np.intp).reshape(len(orders), total)


def _generic_exact(
    game: Game, assignment: Sequence[Hand], board: Sequence[int], fixed: set[int], needs: Sequence[int]
) -> list[Ranks]:
    rest = _rest(game, fixed.union(*assignment))
    combos = _combinations(len(rest), sum(needs))
    splits = _splits(needs)
    dealt = rest[combos][:, splits].reshape(combos.shape[0] * splits.shape[0], sum(needs))
    holes = [np.broadcast_to(np.array(hand, dtype=np.uint8), (dealt.shape[0], len(hand))) for hand in assignment]
    return _rank_rows(game, holes, board, dealt, needs)


def _rank_rows(
    game: Game,
    holes: Sequence[npt.NDArray[np.uint8]],
    board: Sequence[int],
    dealt: npt.NDArray[np.uint8],
    needs: Sequence[int],
) -> list[Ranks]:
    """Rank each player's cards (hole first, then board) on each row of ``dealt``."""
    rows = dealt.shape[0]
    known = np.broadcast_to(np.array(board, dtype=np.uint8), (rows, len(board)))
    shared = np.concatenate([known, dealt[:, : needs[0]]], axis=1)
    start = needs[0]
    out: list[Ranks] = [np.empty((rows, len(holes)), dtype=np.int32) for _ in game.rankings]
    for player, hole in enumerate(holes):
        own = dealt[:, start : start + needs[player + 1]]
        start += needs[player + 1]
        cards = np.concatenate([hole, own, shared], axis=1)
        for index, name in enumerate(game.rankings):
            hole_count = game.hole if name.startswith("omaha") else None
            out[index][:, player] = get_ranking(name).rank_batch(cards, hole_count)
    return out


def _monte_carlo(
    game: Game,
    hands: Sequence[Sequence[Hand]],
    assignments: Sequence[tuple[Hand, ...]],
    board: Sequence[int],
    fixed: set[int],
    needs: Sequence[int],
    seed: int,
    samples: int,
) -> tuple[Ranks, ...]:
    """Ranks on ``samples`` deals: a uniformly chosen hand combination, then the cards to come."""
    rng = np.random.default_rng(seed)
    players = len(hands)
    if len(assignments) == 1:
        chosen = np.zeros(samples, dtype=np.intp)
    else:
        chosen = rng.integers(0, len(assignments), size=samples)
    table = [np.array([assignment[player] for assignment in assignments], dtype=np.uint8) for player in range(players)]
    holes = [cards[chosen] for cards in table]
    return _deal_rest(game, holes, board, fixed, needs, rng, samples)


def _drawn_monte_carlo(
    game: Game, hands: Sequence[Sequence[Hand]], board: Sequence[int], fixed: set[int], seed: int, samples: int
) -> tuple[Ranks, ...]:
    """Ranks on ``samples`` deals where each player's hand is drawn from its own candidates and
    draws sharing a card (with another hand, the board or the dead cards) are thrown away."""
    rng = np.random.default_rng(seed)
    options = [np.array(candidates, dtype=np.uint8) for candidates in hands]
    taken = np.zeros(52, dtype=bool)
    taken[sorted(fixed)] = True
    kept: list[list[npt.NDArray[np.uint8]]] = [[] for _ in hands]
    found = 0
    for _ in range(DRAW_BATCHES):
        drawn = [cards[rng.integers(0, len(cards), size=samples)] for cards in options]
        every = np.concatenate(drawn, axis=1).astype(np.intp)
        ordered = np.sort(every, axis=1)
        fits = ~(ordered[:, 1:] == ordered[:, :-1]).any(axis=1) & ~taken[every].any(axis=1)
        for player, cards in enumerate(drawn):
            kept[player].append(cards[fits])
        found += int(fits.sum())
        if found >= samples:
            break
    else:
        if found < MIN_DRAWN:
            raise EquityError("the ranges hardly ever fit together without a shared card: narrow them")
    holes = [np.concatenate(parts)[:samples] for parts in kept]
    count = int(holes[0].shape[0])
    needs = _needs(game, [candidates[0] for candidates in hands], board)
    rest = len(game.deck) - len(fixed) - sum(len(candidates[0]) for candidates in hands)
    if rest < sum(needs):
        raise EquityError(f"only {rest} cards are left to deal and {sum(needs)} are needed")
    return _deal_rest(game, holes, board, fixed, needs, rng, count)


def _deal_rest(
    game: Game,
    holes: Sequence[npt.NDArray[np.uint8]],
    board: Sequence[int],
    fixed: set[int],
    needs: Sequence[int],
    rng: np.random.Generator,
    samples: int,
) -> tuple[Ranks, ...]:
    """Ranks on ``samples`` deals of the cards to come, each row's ``holes`` given."""
    keys = rng.random((samples, 52))
    outside = np.ones(52, dtype=bool)
    outside[list(game.deck)] = False
    keys[:, outside] = 2.0
    keys[:, sorted(fixed)] = 2.0
    rows = np.arange(samples)[:, None]
    for hole in holes:
        keys[rows, hole] = 2.0
    total = sum(needs)
    picked = np.argpartition(keys, total - 1, axis=1)[:, :total] if total else np.empty((samples, 0), np.intp)
    order = np.argsort(np.take_along_axis(keys, picked, axis=1), axis=1)
    dealt = np.take_along_axis(picked, order, axis=1).astype(np.uint8)
    return tuple(_rank_rows(game, holes, board, dealt, needs))


def _best_share(ranks: Ranks) -> Floats:
    """Share of one pot (or half) per player: equal parts to the best rank."""
    best = ranks == ranks.max(axis=1, keepdims=True)
    shares: Floats = best / best.sum(axis=1, keepdims=True)
    return shares


def pot_shares(game: Game, deals: Deals, players: Sequence[int]) -> tuple[Floats, Floats | None, npt.NDArray[np.bool_] | None]:
    """Per deal, each of ``players``' share of a pot they alone contest:
    ``(total, high half, has low)`` — the last two only in hi/lo games (V6)."""
    columns = list(players)
    high = _best_share(deals.ranks[0][:, columns])
    if not game.split:
        return high, None, None
    lows = deals.ranks[1][:, columns]
    has_low = lows.max(axis=1) > 0
    low = np.where(has_low[:, None], _best_share(lows), 0.0)
    total: Floats = np.where(has_low[:, None], 0.5 * high + 0.5 * low, high)
    return total, high, has_low


def share_sums(game: Game, deals: Deals, players: Sequence[int]) -> tuple[Floats, int]:
    """Summed over the deals, ``players``' shares of a pot they alone contest (rows of
    :func:`.kernels.accumulate`: share, its square, wins, ties, high half, low half)
    and the number of deals without a qualifying low."""
    from freezeout.analysis import kernels

    sums = np.zeros((6, len(players)), dtype=np.float64)
    low = deals.ranks[1] if game.split else deals.ranks[0]
    run: Callable[..., int] = kernels.accumulate
    no_low = run(deals.ranks[0], low, game.split, np.array(players, dtype=np.intp), sums)
    return sums, int(no_low)


def summarise(game: Game, deals: Deals, players: Sequence[int] | None = None) -> Equity:
    """The :class:`Equity` of ``players`` (default: all) over the deals."""
    columns = list(range(deals.ranks[0].shape[1])) if players is None else list(players)
    sums, no_low = share_sums(game, deals, columns)
    return _equity_of(game, sums, no_low, deals.count, exact=deals.exact)


def _equity_of(game: Game, sums: Floats, no_low: int, deals: int, *, exact: bool) -> Equity:
    count = max(deals, 1)
    means = sums / count
    error = np.zeros(sums.shape[1])
    if not exact:
        variance = np.maximum(means[1] - means[0] ** 2, 0.0)
        error = 1.96 * np.sqrt(variance / count)
    return Equity(
        equity=_floats(means[0]),
        win=_floats(means[2]),
        tie=_floats(means[3]),
        high=_floats(means[4]) if game.split else None,
        low=_floats(means[5]) if game.split else None,
        no_low=no_low / count if game.split else None,
        exact=exact,
        deals=deals,
        error=_floats(error),
    )


def _floats(values: Floats) -> tuple[float, ...]:
    return tuple(float(value) for value in values)


def equity(
    game: Game,
    hands: Sequence[Sequence[Hand]],
    board: Sequence[int] = (),
    dead: Sequence[int] = (),
    *,
    seed: int = 0,
    samples: int = SAMPLES,
    exact_limit: int = EXACT_LIMIT,
) -> Equity:
    """Equity of each hand (or range: a list of candidate hands per player)."""
    fast = fast_sums(game, hands, board, dead)
    if fast is not None:
        sums, count = fast
        return _equity_of(game, sums, 0, count, exact=True)
    deals = deal_ranks(game, hands, board, dead, seed=seed, samples=samples, exact_limit=exact_limit)
    return summarise(game, deals)


def fast_sums(
    game: Game, hands: Sequence[Sequence[Hand]], board: Sequence[int] = (), dead: Sequence[int] = ()
) -> tuple[Floats, int] | None:
    """The share sums of :func:`share_sums` for one pot every hand contests, by one compiled pass
    over the boards (hold'em and short-deck, one hand each), or None where it does not apply."""
    if game.stud or game.rankings[0] not in ("high", "short-deck") or any(len(c) != 1 for c in hands):
        return None
    _check(game, hands, board, dead)
    from freezeout.analysis import kernels

    assignment = [candidates[0] for candidates in hands]
    rest = _rest(game, {*board, *dead}.union(*assignment))
    sums = np.zeros((6, len(hands)), dtype=np.float64)
    run: Callable[..., int] = kernels.high_board_sums
    count = run(np.array(assignment, dtype=np.uint8), np.array(board, dtype=np.uint8), rest,
                game.board - len(board), *_high_tables(game.rankings[0]), sums)
    return sums, int(count)
