"""``freezeout play``: registers the subcommand; textual and the bots are
imported only when a game starts, so ``freezeout --help`` stays fast."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from freezeout.terminal.session import GameSession

__all__ = ["register", "run_play"]

DEFAULT_BOT = "medium"


def _players(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 2 <= value <= 10:
        raise argparse.ArgumentTypeError("a game has 2 to 10 players (each game its own maximum)")
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
        help="play a freezeout in the terminal against bots",
        description=(
            "Play a freezeout against bots in the terminal, in any game or mix "
            "(default No-Limit Hold'em). "
            "Keys: f fold, c check/call, r bet/raise (or complete), a all-in, b bring in, "
            "1-5 select cards and d draw them or s stand pat, x resign, "
            "space deal the next hand now, n rematch, q quit."
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
        default=DEFAULT_BOT,
        metavar="LEVEL",
        help=f"bot level: random, station, easy, medium or hard, those that play the game (default {DEFAULT_BOT})",
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
    least, most = seat_range(game)
    if not least <= args.players <= most:
        print(f"{game.name} is played by {least} to {most} players, not {args.players}", file=sys.stderr)
        return 2
    try:
        bot = load_bot(args.bot, game.code)
    except BotUnavailable as error:
        print(str(error), file=sys.stderr)
        return 2
    try:
        session = GameSession(
            bot, players=args.players, seed=args.seed, bot_level=args.bot, record_path=args.record, game=game
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
