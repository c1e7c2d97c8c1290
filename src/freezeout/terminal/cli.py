"""``freezeout play``: registers the subcommand; textual and the bots are
imported only when a game starts, so ``freezeout --help`` stays fast."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from freezeout.rules.games import Game
    from freezeout.terminal.cash import CashSession
    from freezeout.terminal.session import GameSession

__all__ = ["register", "run_play"]

DEFAULT_BOT = "medium"
DEFAULT_CASH_BOT = "hard"  # at 100 big blinds hard plays its deep-stack game (bots/deep.py)


def _players(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 2 <= value <= 10:
        raise argparse.ArgumentTypeError("a game has 2 to 10 players (each game its own maximum)")
    return value


def _chips(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of chips") from None
    if value <= 0:
        raise argparse.ArgumentTypeError("chips are a positive whole number")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if value < 0:
        raise argparse.ArgumentTypeError("a delay cannot be negative")
    return value


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = sub.add_parser(
        "play",
        help="play a freezeout (or with --cash a cash table) in the terminal against bots",
        description=(
            "Play a freezeout against bots in the terminal, in any game or mix "
            "(default No-Limit Hold'em); with --cash, a cash table with a play-chip balance. "
            "Keys: f fold, c check/call, r bet/raise (or complete), a all-in, b bring in, "
            "1-5 select cards and d draw them or s stand pat, x resign, "
            "space deal the next hand now, n rematch, q quit. "
            "At a cash table also: t top up, o sit out / sit back in, q leave with your chips "
            "(no resign, no rematch)."
        ),
    )
    play.add_argument(
        "--game",
        default="NT",
        metavar="CODE",
        help="the game: a variant code (NT, FO/8, F7S, F2L3D, ...) or a mix (HORSE, 8GAME); default NT",
    )
    play.add_argument(
        "--players",
        type=_players,
        default=2,
        help="players at the table, you included (2 up to the game's maximum, default 2)",
    )
    play.add_argument(
        "--bot",
        default=None,
        metavar="LEVEL",
        help="bot level: random, station, easy, medium or hard, those that play the game "
        f"(default {DEFAULT_BOT}; at a cash table {DEFAULT_CASH_BOT})",
    )
    play.add_argument(
        "--cash",
        action="store_true",
        help="play a cash table (C1-C14; 2 up to the game's maximum, --players): buy in from a play-chip balance, top up, sit out, leave with your chips",
    )
    play.add_argument(
        "--stakes",
        type=_chips,
        default=None,
        metavar="BB",
        help="with --cash: the big blind (the small blind is half; limit games bet one and two big blinds); default 20",
    )
    play.add_argument(
        "--buy-in",
        type=_chips,
        default=None,
        metavar="N",
        help="with --cash: the chips you sit down with (20 to 100 big blinds; default the maximum)",
    )
    play.add_argument(
        "--balance",
        type=_chips,
        default=None,
        metavar="N",
        help="with --cash: your play-chip balance to buy in from (default 10000, as a new account's grant)",
    )
    play.add_argument(
        "--seed", type=int, default=None, help="seed for seats, button, cards and bots (replayable game)"
    )
    play.add_argument(
        "--record",
        metavar="FILE",
        default=None,
        help="save the game as a freezeout.record/1 file (record/2 in any other game); rematch n goes to NAME-n.EXT (game-2.json, ...)",
    )
    play.add_argument(
        "--bot-delay",
        type=_seconds,
        default=0.6,
        metavar="SECONDS",
        help="seconds a bot waits before moving (default 0.6)",
    )
    play.add_argument(
        "--pause",
        type=_seconds,
        metavar="SECONDS",
        default=4.0,
        help="seconds the result stays up between hands (R30, default 4)",
    )
    play.add_argument(
        "--clock",
        type=_seconds,
        default=0.0,
        metavar="SECONDS",
        help="turn limit (R15, the rules say 30); when it runs out the bot waits 3 s more, then your "
        "turn is forfeited (R26, R27). Default 0: no clock",
    )
    play.set_defaults(func=run_play)


def run_play(args: argparse.Namespace) -> int:
    """Start the game; prints the final standings of each game on exit."""
    from freezeout.rules.games import parse_game
    from freezeout.rules.variant import UnsupportedVariant
    from freezeout.terminal.session import BotUnavailable, GameSession, load_bot, seat_range

    try:
        game = parse_game(args.game)
    except UnsupportedVariant as error:
        print(str(error), file=sys.stderr)  # names every game and mix
        return 2
    if args.cash:
        return _run_cash(args, game)
    if args.stakes is not None or args.buy_in is not None or args.balance is not None:
        print("--stakes, --buy-in and --balance are for a cash table: add --cash", file=sys.stderr)
        return 2
    least, most = seat_range(game)
    if not least <= args.players <= most:
        print(f"{game.name} is played by {least} to {most} players, not {args.players}", file=sys.stderr)
        return 2
    level = args.bot or DEFAULT_BOT
    try:
        bot = load_bot(level, game.code)
    except BotUnavailable as error:
        print(str(error), file=sys.stderr)
        return 2
    try:
        session = GameSession(
            bot, players=args.players, seed=args.seed, bot_level=level, record_path=args.record, game=game
        )
    except OSError as error:
        print(f"cannot write the record {args.record}: {error.strerror}", file=sys.stderr)
        return 2

    from freezeout.terminal.app import PokerApp

    app = PokerApp(session, bot_delay=args.bot_delay, pause=args.pause, clock=args.clock or None)
    try:
        app.run()
    finally:
        finished = _finish(session)
    if not finished:
        return 1
    for number, standings in enumerate(session.finished_games, start=1):
        ranking = ", ".join(f"{row.place}. {row.player}" for row in standings)
        where = session.record_path_for(number)
        print(f"game {number}: {ranking}" + (f" (record: {where})" if where else ""))
    return 0


def _run_cash(args: argparse.Namespace, game: Game) -> int:
    """``--cash``: a cash table against bots; prints what the human left with and the balance."""
    from freezeout.rules.errors import RulesError
    from freezeout.terminal.cash import DEFAULT_BALANCE, DEFAULT_BIG_BLIND, CashSession
    from freezeout.terminal.session import BotUnavailable, load_bot

    if args.record is not None:
        print("--record writes a freezeout's record; a cash table keeps none", file=sys.stderr)
        return 2
    if args.clock:
        print("--clock is the freezeout's turn limit; the terminal's cash table has no clock (C8, C11)", file=sys.stderr)
        return 2
    level = args.bot or DEFAULT_CASH_BOT
    try:
        bot = load_bot(level, game.code)
    except BotUnavailable as error:
        print(str(error), file=sys.stderr)
        return 2
    balance = args.balance if args.balance is not None else DEFAULT_BALANCE
    try:
        session = CashSession(bot, game=game, players=args.players, big_blind=args.stakes or DEFAULT_BIG_BLIND,
                              buy_in=args.buy_in, balance=balance, seed=args.seed, bot_level=level)
    except (ValueError, RulesError) as error:
        print(str(error), file=sys.stderr)
        return 2

    from freezeout.terminal.cashapp import CashApp

    app = CashApp(session, bot_delay=args.bot_delay, pause=args.pause)
    try:
        app.run()
    finally:
        left = _leave(session)
    if not left:
        return 1
    net = session.balance - balance
    print(f"you left with {session.left_with or 0} chips; balance {session.balance} ({net:+d})")
    return 0


def _leave(session: CashSession) -> bool:
    """Quitting a cash table is leaving it: the hand in progress is folded out, the chips go
    back on the balance.  A bot that crashes here gets one line."""
    try:
        session.close()
    except Exception as error:
        print(f"could not leave the table: {error}", file=sys.stderr)
        return False
    return True


def _finish(session: GameSession) -> bool:
    """Leaving mid-game is resigning (R28): let the bots end it so that the
    record is complete.  A bot that crashes here gets one line, not a second
    traceback on top of the app's."""
    try:
        session.close()
    except Exception as error:
        print(f"could not finish the game: {error}", file=sys.stderr)
        return False
    return True
