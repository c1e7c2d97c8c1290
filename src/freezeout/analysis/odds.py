"""``freezeout odds``: equities of hands (hold'em: also ranges) in any game with a run-out.

Pure: :func:`odds` turns the command's words into an :class:`~.equity.Equity`
and :func:`format_odds` into the lines the command prints; :func:`odds_json`
is the ``--json`` document.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from freezeout.analysis.equity import SAMPLES, Equity, EquityError, check_input, equity
from freezeout.analysis.games import Game, GameError, game_for
from freezeout.analysis.ranges import RangeError, is_range, parse_range
from freezeout.cards import CardError, format_cards, parse_cards

__all__ = ["OddsError", "check", "format_odds", "odds", "odds_json"]


class OddsError(ValueError):
    """Bad input to the calculator; the message is the one line the command prints."""


def _cards(text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(int(card) for card in parse_cards(text))
    except CardError as error:
        raise OddsError(f"{what}: {error}") from None


def _candidates(game: Game, text: str, number: int, fixed: set[int]) -> list[tuple[int, ...]]:
    what = f"hand {number} {text!r}"
    if not game.stud and game.hole == 2 and is_range(text):
        try:
            combos = parse_range(text)
        except RangeError as error:
            raise OddsError(f"{what}: {error}") from None
        deck = set(game.deck)
        left = [combo for combo in combos if deck.issuperset(combo) and fixed.isdisjoint(combo)]
        if not left:
            raise OddsError(f"{what}: the range leaves no combination (every one uses a card of the board, the dead cards or outside the deck)")
        return [tuple(combo) for combo in left]
    return [_cards(text, what)]


def _parsed(hands: Sequence[str], board: str, dead: str,
            game: str) -> tuple[Game, list[list[tuple[int, ...]]], tuple[int, ...], tuple[int, ...]]:
    try:
        chosen = game_for(game)
    except GameError as error:
        raise OddsError(str(error)) from None
    board_cards = _cards(board, "board")
    dead_cards = _cards(dead, "dead cards")
    fixed = {*board_cards, *dead_cards}
    return chosen, [_candidates(chosen, text, number, fixed) for number, text in enumerate(hands, start=1)], board_cards, dead_cards


def check(hands: Sequence[str], *, board: str = "", dead: str = "", game: str = "NT") -> Game:
    """The game of a question whose input is sound, or :class:`OddsError` saying what is wrong —
    without computing anything (the odds desk's batch checks every question before any work)."""
    chosen, candidates, board_cards, dead_cards = _parsed(hands, board, dead, game)
    try:
        check_input(chosen, candidates, board_cards, dead_cards)
    except EquityError as error:
        raise OddsError(str(error)) from None
    return chosen


def odds(
    hands: Sequence[str],
    *,
    board: str = "",
    dead: str = "",
    game: str = "NT",
    seed: int = 0,
    samples: int = SAMPLES,
) -> tuple[Game, Equity]:
    """The game and the equities of ``hands`` (card strings; hold'em and short-deck: ranges too)."""
    chosen, candidates, board_cards, dead_cards = _parsed(hands, board, dead, game)
    try:
        return chosen, equity(chosen, candidates, board_cards, dead_cards, seed=seed, samples=samples)
    except EquityError as error:
        raise OddsError(str(error)) from None


def _percent(value: float) -> str:
    return f"{100.0 * value:6.2f} %"


def format_odds(game: Game, hands: Sequence[str], result: Equity, *, board: str = "", dead: str = "") -> list[str]:
    """The lines ``freezeout odds`` prints: one per hand, then how the numbers were found."""
    width = max(len(hand) for hand in hands)
    header = f"{game.name}" + (f", board {format_cards(parse_cards(board))}" if board else "")
    header += f", dead {format_cards(parse_cards(dead))}" if dead else ""
    lines = [header]
    for index, hand in enumerate(hands):
        line = f"  {hand:<{width}}  equity {_percent(result.equity[index])}"
        if not result.exact:
            line += f" ± {100.0 * result.error[index]:.2f}"
        line += f"  win {_percent(result.win[index])}  tie {_percent(result.tie[index])}"
        if result.high is not None and result.low is not None:
            line += f"  high {_percent(result.high[index])}  low {_percent(result.low[index])}"
        lines.append(line)
    if result.no_low is not None:
        lines.append(f"  no qualifying low on {_percent(result.no_low).strip()} of the deals")
    how = "exact" if result.exact else "Monte Carlo, 95 % interval"
    lines.append(f"  {how}: {result.deals:,} deals")
    return lines


def odds_json(game: Game, hands: Sequence[str], result: Equity) -> dict[str, Any]:
    """The ``--json`` document: per hand its shares, and how they were found."""
    players = []
    for index, hand in enumerate(hands):
        entry: dict[str, Any] = {
            "hand": hand,
            "equity": round(result.equity[index], 6),
            "win": round(result.win[index], 6),
            "tie": round(result.tie[index], 6),
        }
        if result.high is not None and result.low is not None:
            entry.update(high=round(result.high[index], 6), low=round(result.low[index], 6))
        if not result.exact:
            entry["error"] = round(result.error[index], 6)
        players.append(entry)
    return {"game": game.code, "exact": result.exact, "deals": result.deals, "hands": players}
