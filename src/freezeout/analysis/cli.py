"""``freezeout odds`` and ``freezeout review``: registered by :mod:`freezeout.commands`.

Both print one clear line on stderr and exit 2 for bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

__all__ = ["register"]


def _fail(message: str) -> int:
    print(message.replace("\n", " "), file=sys.stderr)
    return 2


def cmd_odds(args: argparse.Namespace) -> int:
    from freezeout.analysis.odds import OddsError, format_odds, odds, odds_json

    if args.samples <= 0:
        return _fail(f"--samples must be a positive number of deals, got {args.samples}")
    try:
        game, result = odds(args.hands, board=args.board, dead=args.dead, game=args.game,
                            seed=args.seed, samples=args.samples)
    except OddsError as error:
        return _fail(f"freezeout odds: {error}")
    if args.json:
        print(json.dumps(odds_json(game, args.hands, result), ensure_ascii=False))
    else:
        print("\n".join(format_odds(game, args.hands, result, board=args.board, dead=args.dead)))
    return 0


def cmd_review(args: argparse.Namespace) -> int:
    from freezeout.analysis.review import ReviewError, format_review, review_file_text

    try:
        with open(args.file, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else str(error)
        return _fail(f"cannot read {args.file}: {reason}")
    try:
        review = review_file_text(text, seed=args.seed)
    except ReviewError as error:
        return _fail(str(error))
    if args.json:
        print(json.dumps(review, ensure_ascii=False))
    else:
        print("\n".join(format_review(review)))
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from freezeout.analysis.equity import SAMPLES

    odds = sub.add_parser(
        "odds",
        help="equities of hands or hold'em ranges (exact where feasible, else Monte Carlo with ±)",
        description="Equity of each hand: its expected share of the pot once only cards remain "
        "(docs/review.md).  Hold'em and short-deck hands may be ranges such as QQ+,AKs.",
    )
    odds.add_argument("hands", nargs="+", metavar="HAND", help="cards (AhKh; stud: the cards known so far) or a range")
    odds.add_argument("--board", default="", help="board cards dealt so far, e.g. Qs7d2c")
    odds.add_argument("--dead", default="", help="cards out of play (folded and shown, burnt face up)")
    odds.add_argument("--game", default="NT", help="variant code or name: NT (default), NS, PO, FO/8, F7S, F7S/8, FR")
    odds.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (default 0): same seed, same numbers")
    odds.add_argument("--samples", type=int, default=SAMPLES, help=f"Monte Carlo deals (default {SAMPLES:,})")
    odds.add_argument("--json", action="store_true", help="print one JSON document")
    odds.set_defaults(func=cmd_odds)

    review = sub.add_parser(
        "review",
        help="review a record: all-in equity, EV and luck, push/fold mistakes",
        description="Review a freezeout record (record/1 or /2), a cash hand history, or a cash "
        "session: many cash hands in one file (cash_hands/1, a JSON array, JSON Lines or joined "
        "downloads) (docs/review.md; --json: docs/formats.md \"Game review\").",
    )
    review.add_argument("file")
    review.add_argument("--json", action="store_true", help="print one JSON document")
    review.add_argument("--seed", type=int, default=0, help="Monte Carlo seed (default 0)")
    review.set_defaults(func=cmd_review)
