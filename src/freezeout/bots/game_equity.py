"""Monte Carlo pot share in any game, with the engine's own evaluators.

One call deals the unseen cards many times — every opponent's hidden and
future cards, the rest of the board, our own cards to come — and ranks
every player's final hand in every deal with the ranking's numba batch
kernel (:meth:`freezeout.evaluate.rankings.Ranking.rank_batch`).  What it
returns is our expected *share of the pot* at a showdown: in a split game
(V6) half to the best high and half to the best qualifying low, the whole
pot to high when nobody has a low — so scooping, splitting and being
quartered (a tied low) count exactly as the showdown would count them.

Only cards nobody may see are dealt: an opponent's face-up cards (stud)
stay theirs and folded players' face-up cards are dead, which is how up
cards are read.  Draw games (V11) play every remaining draw of every
player with :mod:`.game_draws`'s policies; that loop is Python, so it
deals fewer times.

Ranges are narrowed by weights, not by rejection: each deal is weighted,
per opponent, by ``q ** a`` where ``q`` is the share of the dealt hands
that opponent's final hand beats (high or low, the better of the two) and
``a`` grows with every bet and raise they made this hand (and, in draw
games, with how few cards they drew).  ``a = 0`` is any hand at all.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from freezeout.bots.draw_ranges import DRAW_CHOICE_HISTORY, HISTORY_RANKINGS, deal_history, history_hand
from freezeout.bots.game_draws import discard
from freezeout.evaluate.rankings import get_ranking
from freezeout.rules.variant import Variant

__all__ = ["Seen", "opponent_finals", "pot_share", "pot_shares", "shares_by_callers"]

Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


class Seen:
    """The cards of one decision: ours, the board, what each opponent shows."""

    __slots__ = ("board", "board_future", "dead", "drew", "mine", "my_future", "opponents")

    def __init__(
        self,
        mine: Sequence[int],
        my_future: int,
        board: Sequence[int],
        board_future: int,
        opponents: Sequence[tuple[tuple[int, ...], int, int]],  # (shown, hidden, future)
        dead: Sequence[int] = (),
        drew: Sequence[tuple[int, ...]] = (),  # per opponent, cards drawn at each draw so far (V11)
    ) -> None:
        self.mine = tuple(mine)
        self.my_future = my_future
        self.board = tuple(board)
        self.board_future = board_future
        self.opponents = tuple(opponents)
        self.dead = tuple(dead)
        self.drew = tuple(drew) or tuple(() for _ in self.opponents)

    def unseen(self, variant: Variant) -> list[int]:
        seen = set(self.mine) | set(self.board) | set(self.dead)
        for shown, _, _ in self.opponents:
            seen.update(shown)
        return [int(card) for card in variant.deck if int(card) not in seen]


def _shares(ranks: list[Ints], weights: Floats) -> float:
    """Our weighted share of the pot: ``ranks[0]`` high (players in columns,
    us first), ``ranks[1]`` the low half's (0 = no low) in a split game."""
    high = ranks[0]
    won = high == high.max(axis=1, keepdims=True)
    share: Floats = won[:, 0] / won.sum(axis=1)
    if len(ranks) == 2:
        low = ranks[1]
        best = low.max(axis=1, keepdims=True)
        has_low = best[:, 0] > 0
        low_won = (low == best) & (best > 0)
        low_share = np.where(has_low, low_won[:, 0] / np.maximum(low_won.sum(axis=1), 1), 0.0)
        share = np.where(has_low, 0.5 * share + 0.5 * low_share, share)
    total = float(weights.sum())
    return float((share * weights).sum() / total) if total > 0 else float(share.mean())


def _strength(ranks: list[Ints], column: int) -> Floats:
    """Per deal, the share of all deals whose hand this player's hand beats
    (the better of high and low in a split game)."""
    quantiles: list[Floats] = []
    for table in ranks:
        values = table[:, column]
        order = values.argsort(kind="stable")
        q = np.empty(len(values))
        q[order] = (np.arange(len(values)) + 0.5) / len(values)
        quantiles.append(q)
    result: Floats = np.maximum(quantiles[0], quantiles[1]) if len(quantiles) == 2 else quantiles[0]
    return result


def _weights(ranks: list[Ints], narrowing: Sequence[float]) -> Floats:
    weights: Floats = np.ones(ranks[0].shape[0])
    for j, power in enumerate(narrowing):
        if power > 0:
            weights = weights * _strength(ranks, j + 1) ** power
    return weights


def pot_share(
    variant: Variant,
    seen: Seen,
    narrowing: Sequence[float],
    samples: int,
    rng: np.random.Generator,
    *,
    draws_left: int = 0,
    keep: Sequence[int] | None = None,
) -> float:
    """Our expected share of the pot against the opponents of ``seen``.

    ``narrowing[j]`` is opponent ``j``'s range exponent (module docstring).
    In a draw game ``draws_left`` draws are still to come; ``keep``, when
    given, is what we keep at the first of them (otherwise our policy)."""
    return pot_shares(variant, seen, [narrowing], samples, rng, draws_left=draws_left, keep=keep)[0]


def pot_shares(
    variant: Variant,
    seen: Seen,
    narrowings: Sequence[Sequence[float]],
    samples: int,
    rng: np.random.Generator,
    *,
    draws_left: int = 0,
    keep: Sequence[int] | None = None,
    history: bool = False,
) -> list[float]:
    """:func:`pot_share` against several ranges of the same opponents, one
    deal for all: e.g. the range that raised and the range that would raise
    again (a re-raise war, V3).  With ``history`` a badugi opponent's hand
    is dealt from their draw history too (:mod:`.draw_ranges`), as the exact
    last draw deals it."""
    if variant.has_draws:
        ranks = [_draw_finals(variant, seen, samples, rng, draws_left, keep, history=history)]
    else:
        dealt = _showdown_ranks(variant, seen, samples, rng)
        if dealt is None:
            return [1.0 / (len(seen.opponents) + 1)] * len(narrowings)
        ranks = dealt
    return [_shares(ranks, _weights(ranks, narrowing)) for narrowing in narrowings]


def shares_by_callers(variant: Variant, seen: Seen, samples: int, rng: np.random.Generator) -> list[float]:
    """Our pot share at a showdown against the first ``j`` of ``seen``'s
    opponents, for ``j = 1 .. m``, every hidden card any card (no narrowing).

    Against players whose cards do not decide their moves (:mod:`.game_wild`)
    any ``j`` of them hold the same random hands, so this is the share
    against however many call: one deal of all ``m`` serves every ``j``.
    Flop and stud games only (no draws)."""
    m = len(seen.opponents)
    ranks = _showdown_ranks(variant, seen, samples, rng)
    if ranks is None:
        return [1.0 / (j + 1) for j in range(1, m + 1)]
    ones: Floats = np.ones(samples)
    return [_shares([table[:, : j + 1] for table in ranks], ones) for j in range(1, m + 1)]


def _showdown_ranks(variant: Variant, seen: Seen, samples: int, rng: np.random.Generator) -> list[Ints] | None:
    """Every player's final rank (us in column 0) per deal and ranking, or
    ``None`` when too few cards are unseen to deal."""
    unseen = np.array(seen.unseen(variant), dtype=np.int64)
    opponents = seen.opponents
    need = seen.my_future + seen.board_future + sum(hidden + future for _, hidden, future in opponents)
    if need > len(unseen):
        return None
    dealt = _deal(unseen, need, samples, rng)
    at = 0

    def take(count: int) -> Ints:
        nonlocal at
        block = dealt[:, at : at + count]
        at += count
        return block

    def fixed(cards: Sequence[int]) -> Ints:
        return np.broadcast_to(np.array(cards, dtype=np.int64), (samples, len(cards)))

    board = np.hstack([fixed(seen.board), take(seen.board_future)])
    hands = [np.hstack([fixed(seen.mine), take(seen.my_future)])]
    for shown, hidden, future in opponents:
        hands.append(np.hstack([take(hidden), fixed(shown), take(future)]))
    ranks: list[Ints] = []
    for name in variant.rankings:
        ranking = get_ranking(name)
        columns = []
        for hand in hands:
            cards = np.ascontiguousarray(np.hstack([hand, board]).astype(np.uint8))
            if name.startswith("omaha"):
                columns.append(ranking.rank_batch(cards, hand.shape[1]).astype(np.int64))
            else:
                columns.append(ranking.rank_batch(cards).astype(np.int64))
        ranks.append(np.stack(columns, axis=1))
    return ranks


def _deal(unseen: Ints, need: int, samples: int, rng: np.random.Generator) -> Ints:
    """``samples`` rows of ``need`` distinct cards from ``unseen``."""
    if need == 0:
        return np.zeros((samples, 0), dtype=np.int64)
    keys = rng.random((samples, len(unseen)))
    picks = np.argpartition(keys, need - 1, axis=1)[:, :need] if need < len(unseen) else keys.argsort(axis=1)
    result: Ints = unseen[picks]
    return result


def opponent_finals(
    variant: Variant,
    seen: Seen,
    narrowing: Sequence[float],
    samples: int,
    rng: np.random.Generator,
    draws_left: int,
) -> list[tuple[Ints, Floats]]:
    """Draw games: per opponent, the simulated final ranks and each deal's
    weight (their range, as :func:`pot_share` narrows it)."""
    ranks = [_draw_finals(variant, seen, samples, rng, draws_left, None, history=True)]
    weights = _weights(ranks, narrowing)
    return [(ranks[0][:, j + 1], weights) for j in range(len(seen.opponents))]


def _draw_finals(
    variant: Variant,
    seen: Seen,
    samples: int,
    rng: np.random.Generator,
    draws_left: int,
    keep: Sequence[int] | None,
    *,
    history: bool = False,
) -> Ints:
    """Every player's final rank per simulated deal (us in column 0)."""
    name = variant.rankings[0]
    ranking = get_ranking(name)
    unseen = seen.unseen(variant)
    size = variant.hole_cards
    opponents = len(seen.opponents)
    total_draws = sum(1 for street in variant.streets if street.draw)
    by_history = name in HISTORY_RANKINGS or (history and name in DRAW_CHOICE_HISTORY)
    # every simulated player plays every draw left: keep the policy calls per decision bounded
    rows = max(40, min(samples // 2, 8 * samples // (5 * (1 + opponents) * max(draws_left, 1))))
    order = rng.random((rows, len(unseen))).argsort(axis=1).tolist()
    final: list[list[int]] = []
    for row in order:
        deck = [unseen[i] for i in row]
        at = 0
        hands = [list(seen.mine)]
        for drew in seen.drew:
            if by_history and drew:
                deal_history(deck, at, history_hand(name, deck[at:], size, drew, total_draws))
            hands.append(deck[at : at + size])
            at += size
        for draw in range(draws_left):
            for player, hand in enumerate(hands):
                if player and draw < draws_left - (total_draws - len(seen.drew[player - 1])):
                    continue  # this opponent has made this draw already
                if player == 0 and draw == 0 and keep is not None:
                    thrown = [c for c in hand if c not in keep]
                else:
                    thrown = list(discard(name, hand, draws_left - draw))
                if not thrown:
                    continue
                if at + len(thrown) > len(deck):  # V13 would reshuffle; keep the hand
                    continue
                hand[:] = [c for c in hand if c not in thrown] + deck[at : at + len(thrown)]
                at += len(thrown)
        final.append([ranking.rank(hand) for hand in hands])
    return np.array(final, dtype=np.int64)
