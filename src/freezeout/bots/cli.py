"""``freezeout bot chart`` and ``freezeout bot match``.

Heavy imports (numpy, scipy, matplotlib, rich) happen when a command runs,
never when the CLI is built.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any

__all__ = ["register"]


HOUSE_TABLE_MAX = 4  # the house game's bots were built and measured for 2-4 players


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from freezeout.bots.registry import ALL_BOT_NAMES

    bot = sub.add_parser("bot", help="bots: range charts and bot-vs-bot matches")
    bot_sub = bot.add_subparsers(dest="bot_command", required=True)

    chart = bot_sub.add_parser("chart", help="preflop all-in chart of a bot (freezeout.chart/1)")
    chart.add_argument("--bot", required=True, choices=ALL_BOT_NAMES)
    chart.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    chart.add_argument("--stack", type=float, required=True, help="everyone's stack in big blinds")
    chart.add_argument("--position", required=True, help="sb or bb heads-up; co, btn, sb, bb for 3-4 players")
    chart.add_argument("--png", help="also draw the 13x13 grid to this PNG file")
    chart.set_defaults(func=_cmd_chart)

    match = bot_sub.add_parser("match", help="bot-vs-bot freezeouts with duplicate decks")
    match.add_argument("--bots", required=True, help="comma-separated line-up, e.g. hard,medium")
    match.add_argument("--players", type=int, help="table size (2 to the game's maximum; the house game 2-4); the last bot fills extra seats")
    match.add_argument("--tournaments", type=int, help="freezeouts to play (rounded up to whole duplicate sets)")
    match.add_argument("--game", default="NT", help="an engine variant code (NT, FO/8, F7S, ...) or a mix (HORSE, 8GAME)")
    match.add_argument("--cash", action="store_true", help="cash-style sessions: stacks reset every hand, bb/100")
    match.add_argument("--stack", type=int, default=100, help="--cash: everyone's stack each hand, in big blinds")
    match.add_argument("--hands", type=int, default=10000, help="--cash: hands per rotation of the line-up")
    match.add_argument("--session-hands", type=int, default=100, help="--cash: hands per session (the CI's unit)")
    match.add_argument("--seed", type=int, default=0)
    match.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    match.add_argument("--json", action="store_true", help="print the results as JSON instead of a table")
    match.add_argument("--no-progress", action="store_true")
    match.set_defaults(func=_cmd_match)


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 2


def _cmd_chart(args: argparse.Namespace) -> int:
    from freezeout.bots.chart import chart, draw_chart
    from freezeout.bots.registry import get_bot

    if args.stack <= 0:
        return _fail("--stack must be positive")
    try:
        document = chart(get_bot(args.bot), players=args.players, stack_bb=args.stack, position=args.position)
    except ValueError as error:
        return _fail(f"cannot chart: {error}")
    print(json.dumps(document))
    if args.png:
        draw_chart(document, args.png)
    return 0


def _cmd_match(args: argparse.Namespace) -> int:
    from freezeout.bots.match import run_match
    from freezeout.bots.registry import ALL_BOT_NAMES, bots_for_game
    from freezeout.rules.errors import RulesError
    from freezeout.rules.games import HOUSE_GAME, parse_game

    try:
        game = parse_game(args.game)
    except RulesError as error:
        return _fail(str(error))
    lineup = [name.strip() for name in args.bots.split(",") if name.strip()]
    unknown = [name for name in lineup if name not in ALL_BOT_NAMES]
    if unknown or not lineup:
        return _fail(f"unknown bot {', '.join(unknown) or '(none)'}; choose from {', '.join(ALL_BOT_NAMES)}")
    if game.code != HOUSE_GAME:
        playing = bots_for_game(game.code)
        others = [name for name in lineup if name not in playing]
        if others:
            return _fail(f"{', '.join(others)} does not play {game.code}; choose from {', '.join(playing)}")
    players = args.players or max(len(lineup), 2)
    top = HOUSE_TABLE_MAX if game.code == HOUSE_GAME else game.max_players
    if not 2 <= players <= top:
        return _fail(f"--players must be 2 to {top} in {game.code}")
    if not game.min_players <= players <= game.max_players:
        return _fail(f"{game.name} is played by {game.min_players} to {game.max_players} players")
    if len(lineup) > players:
        return _fail(f"{len(lineup)} bots do not fit at a table of {players}")
    lineup += [lineup[-1]] * (players - len(lineup))
    if args.jobs < 1:
        return _fail("--jobs must be positive")
    if args.cash:
        return _cmd_cash(args, lineup, game.code)
    if args.tournaments is None or args.tournaments < 1:
        return _fail("--tournaments must be given and positive (or use --cash)")
    try:
        from freezeout.bots.match import tournament_config

        tournament_config(game.code, tuple(f"p{i}" for i in range(players)), button=0)
    except (ValueError, RulesError) as error:
        return _fail(f"cannot play {game.code}: {error}")

    def play(step: Any) -> Any:
        return run_match(
            lineup, tournaments=args.tournaments, seed=args.seed, jobs=args.jobs, progress=step, game=game.code
        )

    document = _with_progress(args, "tournaments", play).to_json()
    if game.code != HOUSE_GAME:
        document["game"] = game.code
    if args.json:
        print(json.dumps(document))
    else:
        _print_table(document)
    return 0


def _with_progress(args: argparse.Namespace, what: str, play: Any) -> Any:
    """Run ``play(progress)`` with a progress bar unless quiet."""
    if args.no_progress or args.json:
        return play(None)
    from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(
        TextColumn(what), BarColumn(), TextColumn("{task.completed}/{task.total}"), TimeRemainingColumn(), transient=True
    ) as bar:
        task = bar.add_task("match", total=None)

        def step(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return play(step)


def _cmd_cash(args: argparse.Namespace, lineup: list[str], game: str) -> int:
    from freezeout.bots.cash import run_cash
    if args.stack < 1 or args.hands < 1 or args.session_hands < 1:
        return _fail("--stack, --hands and --session-hands must be positive")

    def play(step: Any) -> Any:
        return run_cash(
            lineup, hands=args.hands, seed=args.seed, game=game, stack=args.stack,
            session_hands=args.session_hands, jobs=args.jobs, progress=step,
        )

    document = _with_progress(args, "sessions", play).to_json()
    if args.json:
        print(json.dumps(document))
        return 0
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{game}: {document['hands']} hands per bot at {document['stack_bb']} big blinds"
        f" ({document['sessions']} duplicate sessions of {document['hands_per_session']})"
    )
    for column in ("bot", "bb/100", "95% CI", "p50 ms", "p99 ms"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for e in document["entries"]:
        low, high = e["ci95"]
        table.add_row(
            e["label"], f"{e['bb_per_100']:+.1f}", f"{low:+.1f} – {high:+.1f}",
            f"{e['latency_ms_p50']:.2f}", f"{e['latency_ms_p99']:.2f}",
        )
    Console().print(table)
    return 0


def _print_table(document: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{document['tournaments']} tournaments ({document['deals']} duplicate deck sequences)"
    )
    for column in ("bot", "wins", "win rate", "95% CI", "avg place", "p50 ms", "p99 ms"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for e in document["entries"]:
        low, high = e["ci95"]
        table.add_row(
            e["label"],
            str(e["wins"]),
            f"{e['win_rate']:.1%}",
            f"{low:.1%} – {high:.1%}",
            f"{e['average_place']:.2f}",
            f"{e['latency_ms_p50']:.2f}",
            f"{e['latency_ms_p99']:.2f}",
        )
    console = Console()
    console.print(table)
    console.print(
        f"hands per tournament: {document['hands_per_tournament']:.1f}   "
        f"decisions per second: {document['decisions_per_second']:,.0f}"
    )
