"""The HTTP API's game history (docs/protocol.md "Game records"): a table's games, a
finished game's record in our format, PHH and the Stars text, its events, and the
replayer's steps of one hand — each as the asker may see it (hidden cards stay hidden)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from freezeout.server.table.game import TableGame
from freezeout.server.table.state import Refused
from freezeout.server.transport.apicore import ApiError, ctx, http_gate, refused
from freezeout.server.transport.apiinvite import game_gate
from freezeout.server.transport.auth import Auth, AuthDep

__all__ = ["finished_record", "router", "viewer_name"]

router = APIRouter(prefix="/api")

@router.get("/tables/{table_id}/games")
async def table_games(request: Request, table_id: str, found: AuthDep) -> dict[str, Any]:
    await http_gate(request, table_id, found.user)
    games = await ctx(request).store.games.of_table(table_id)
    return {"games": [{k: v for k, v in g.items() if k != "record"} for g in games]}


async def _finished_record(request: Request, game_id: str, found: Auth) -> dict[str, Any]:
    """A finished game's record as the asker saw it (table.records.player_record): a player of the
    game gets their own hole cards too; everyone else only what became public.  The full
    record (every card, every hand's seed) stays on the server for audits."""
    from freezeout.server.table.records import player_record

    game = await ctx(request).store.games.get(game_id)
    if game is None or game["record"] is None:
        raise ApiError(404, "not_found", f"no finished game {game_id!r}")
    record: dict[str, Any] = game["record"]
    players = record.get("players", ())
    await game_gate(request, str(game["table"]), found.user, players, game_id)
    from freezeout.server.table.exportnames import record_with_names

    names = await ctx(request).store.accounts.names_of(found.user) if found.user is not None else []
    return record_with_names(player_record(record, next((name for name in names if name in players), None)))


@router.get("/games/{game_id}/record")
async def game_record(request: Request, game_id: str, found: AuthDep) -> JSONResponse:
    record = await _finished_record(request, game_id, found)
    headers = {"Content-Disposition": f'attachment; filename="{game_id}.record.json"'}
    return JSONResponse(record, headers=headers)


@router.get("/games/{game_id}/phh")
async def game_phh(request: Request, game_id: str, found: AuthDep) -> PlainTextResponse:
    from freezeout.server.table.records import record_to_phh

    record = await _finished_record(request, game_id, found)
    try:
        text = record_to_phh(record)
    except ImportError:
        raise ApiError(501, "unavailable", "PHH export is not installed in this build") from None
    headers = {"Content-Disposition": f'attachment; filename="{game_id}.phh"'}
    return PlainTextResponse(text, media_type="application/toml", headers=headers)


@router.get("/games/{game_id}/stars")
async def game_stars(request: Request, game_id: str, found: AuthDep) -> PlainTextResponse:
    """The game's hands as PokerStars hand histories (docs/formats.md §4), for
    trackers: the asker's own cards dealt to them if they played (and only the
    hands they were dealt), else an observer's history; each hand carries its
    own start time."""
    from datetime import UTC, datetime

    from sqlalchemy import select

    from freezeout.formats.stars import record_json_to_stars
    from freezeout.server.storage.db import games

    record = await _finished_record(request, game_id, found)
    name = await _viewer_name(request, found, record.get("players", ()))
    async with ctx(request).store.engine.connect() as conn:
        started = (await conn.execute(select(games.c.started_at).where(games.c.id == game_id))).scalar()
    when = datetime.fromtimestamp(started, UTC) if started is not None else None
    text = record_json_to_stars(record, hero=name, when=when)
    headers = {"Content-Disposition": f'attachment; filename="{game_id}.stars.txt"'}
    return PlainTextResponse(text, headers=headers)


@router.get("/games/{game_id}/stars/summary")
async def game_stars_summary(request: Request, game_id: str, found: AuthDep) -> PlainTextResponse:
    """The finished game's tournament summary as PokerStars writes one (docs/formats.md §4):
    entrants, start and end, each place, and the asker's own ("You finished in 2nd place.")."""
    from datetime import UTC, datetime

    from sqlalchemy import select

    from freezeout.formats.stars_summary import record_json_to_summary
    from freezeout.server.storage.db import games

    record = await _finished_record(request, game_id, found)
    name = await _viewer_name(request, found, record.get("players", ()))
    async with ctx(request).store.engine.connect() as conn:
        row = (await conn.execute(select(games.c.started_at, games.c.finished_at).where(games.c.id == game_id))).first()
    started, ended = (row[0], row[1]) if row is not None else (None, None)
    text = record_json_to_summary(record, hero=name,
                                  when=datetime.fromtimestamp(started, UTC) if started is not None else None,
                                  finished=datetime.fromtimestamp(ended, UTC) if ended is not None else None)
    headers = {"Content-Disposition": f'attachment; filename="{game_id}.summary.txt"'}
    return PlainTextResponse(text, headers=headers)


@router.get("/games/{game_id}/events")
async def game_events(request: Request, game_id: str, found: AuthDep) -> dict[str, Any]:
    """A finished game's public events per hand, for the replayer and the stack chart,
    with what each hand opened to the asker (docs/protocol.md "Fairness").

    Rebuilt from the asker's record through the rules, so it shows exactly what
    they saw (the private deal is left out)."""
    from freezeout.formats.record import parse_record, replay_record
    from freezeout.server.fairness import record_where
    from freezeout.server.transport.protocol import events_json

    record = await _finished_record(request, game_id, found)
    parsed = parse_record(record)
    result = replay_record(parsed)
    players = list(result.tournament.config.players)
    hands = []
    for played, raw in zip(result.hands, record["hands"], strict=True):
        opened = {key: raw[key] for key in ("commitment", "deck", "salts", "leaves") if key in raw}
        # the hand's own game (a mix changes it, V19): stud and draws place their cards by the deck
        where = record_where(raw, players, played.setup.variant) if "leaves" in opened else None
        hands.append({
            "number": played.number,
            "events": events_json(played.events),
            "revealed": {"hand": played.number, **opened, "where": where} if "leaves" in opened else None,
            "commitment": raw.get("commitment"),
        })
    return {"players": players, "hands": hands}


async def _viewer_name(request: Request, found: Auth, players: Any) -> str | None:
    """The asker's name in a game (any name their account played under), or None."""
    names = await ctx(request).store.accounts.names_of(found.user) if found.user is not None else []
    return next((name for name in names if name in players), None)


def _steps(record: dict[str, Any], number: int, viewer: str | None) -> dict[str, Any]:
    from freezeout.formats.record import RecordError
    from freezeout.server.table.replaysteps import hand_steps

    try:
        return hand_steps(record, number, viewer)
    except RecordError as error:
        raise ApiError(404, "not_found", str(error)) from None


@router.get("/games/{game_id}/hands/{number}/steps")
async def game_hand_steps(request: Request, game_id: str, number: int, found: AuthDep) -> dict[str, Any]:
    """A finished game's hand as the replayer's steps, each the asker's view then
    (server/table/replaysteps.py; docs/protocol.md "Replayer steps")."""
    game = await ctx(request).store.games.get(game_id)
    if game is None or game["record"] is None:
        raise ApiError(404, "not_found", f"no finished game {game_id!r}")
    record: dict[str, Any] = game["record"]  # the full record: the steps show only what the asker saw
    await game_gate(request, str(game["table"]), found.user, record.get("players", ()), game_id)
    return _steps(record, number, await _viewer_name(request, found, record.get("players", ())))


@router.get("/tables/{table_id}/hands/{number}/steps")
async def table_hand_steps(request: Request, table_id: str, number: int, found: AuthDep) -> dict[str, Any]:
    """A finished hand of the game a table plays now (or last played), as the replayer's
    steps for the asker: a hand still being played is not replayed.  One process (or a
    table's owner) reads the table's own recorder; a gateway of a cluster, which drives
    no table, folds the table's log from the database (table.records.record_of_log).  A cash
    table's hands are folded from its log (table.replaysteps.cash_hand_steps)."""
    await http_gate(request, table_id, found.user)
    steps = await _cash_steps(request, table_id, number, found)
    if steps is not None:
        return steps
    game, record = await _live_record(request, table_id)
    done = game.hand_number - (1 if game.in_hand else 0)
    if not record or not 1 <= number <= min(done, len(record.get("hands", ()))):
        raise ApiError(404, "not_found", f"hand {number} of table {table_id!r} is not finished")
    record = {**record, "hands": record["hands"][:number]}
    viewer = await _viewer_name(request, found, record.get("players", ()))
    return _steps(record, number, viewer)


async def _cash_steps(request: Request, table_id: str, number: int, found: Auth) -> dict[str, Any] | None:
    """A cash table's hand as the replayer's steps for the asker, or None: not a cash table."""
    from freezeout.formats.record import RecordError
    from freezeout.server.table.records import records_each_hand
    from freezeout.server.table.replaysteps import cash_hand_steps

    try:
        actor = ctx(request).room.get(table_id)
    except Refused as error:
        raise refused(error) from None
    state = getattr(actor, "state", None)
    if state is not None and (state.table_game is None or not state.table_game.records_each_hand):
        return None  # a freezeout's hands are its game record's (below)
    entries = await ctx(request).store.log.table_entries(table_id)
    if not records_each_hand(entries):
        return None
    names = await ctx(request).store.accounts.names_of(found.user) if found.user is not None else []
    try:
        return cash_hand_steps(entries, number, set(names))
    except RecordError as error:
        raise ApiError(404, "not_found", str(error)) from None


async def _cash_hand(request: Request, table_id: str, number: int, found: Auth) -> dict[str, Any]:
    """A finished hand of a cash table as the asker saw it (table.records.cash_hand_for)."""
    from freezeout.server.table.actor import TableActor
    from freezeout.server.table.records import cash_hand_for, cash_hands_of_log

    await http_gate(request, table_id, found.user)
    try:
        actor = ctx(request).room.get(table_id)
    except Refused as error:
        raise refused(error) from None
    hand = actor.recorder.cash.hand(number) if isinstance(actor, TableActor) else None  # this process drives it
    if hand is None:  # a gateway, or a hand older than the recorder keeps: the table's log is in the database
        entries = await ctx(request).store.log.table_entries(table_id)
        if not entries:
            raise ApiError(404, "not_found", f"no table {table_id!r}")
        try:
            hand = cash_hands_of_log(entries, number).hand(number)
        except Refused as error:
            raise refused(error) from None
    if hand is None:
        raise ApiError(404, "not_found", f"hand {number} of table {table_id!r} is not a finished cash hand")
    from freezeout.server.table.exportnames import cash_hand_with_names, table_label

    mine = cash_hand_with_names(cash_hand_for(hand, await _viewer_name(request, found, hand["players"])))
    return {**mine, "table": table_id, "table_name": table_label(table_id)}


@router.get("/tables/{table_id}/hands/{number}.stars")
async def table_hand_stars(request: Request, table_id: str, number: int, found: AuthDep) -> PlainTextResponse:
    """A finished cash hand as PokerStars text, as the asker saw it (docs/formats.md §4)."""
    from freezeout.formats.record import RecordError
    from freezeout.formats.stars_cash import cash_hand_to_stars
    from freezeout.server.table.exportnames import table_label

    hand = await _cash_hand(request, table_id, number, found)
    viewer = await _viewer_name(request, found, hand["players"])
    try:
        text = cash_hand_to_stars(hand, hero=viewer, table=table_label(table_id),
                                  table_size=hand.get("table_size"))
    except RecordError as error:
        raise ApiError(501, "unavailable", f"hand {number} cannot be written as PokerStars text: {error}") from None
    headers = {"Content-Disposition": f'attachment; filename="{table_id}-{number}.stars.txt"'}
    return PlainTextResponse(text, headers=headers)


@router.get("/tables/{table_id}/hands/{number}.phh")
async def table_hand_phh(request: Request, table_id: str, number: int, found: AuthDep) -> PlainTextResponse:
    """A finished cash hand as PHH, as the asker saw it (docs/protocol.md "Cash tables")."""
    hand = await _cash_hand(request, table_id, number, found)
    if "phh" not in hand:
        raise ApiError(501, "unavailable", f"hand {number} cannot be written as PHH: {hand.get('phh_error')}")
    headers = {"Content-Disposition": f'attachment; filename="{table_id}-{number}.phh"'}
    return PlainTextResponse(hand["phh"], media_type="application/toml", headers=headers)


@router.get("/tables/{table_id}/hands/{number}")
async def table_hand(request: Request, table_id: str, number: int, found: AuthDep) -> dict[str, Any]:
    """A finished cash hand's history as the asker saw it: posts, cards, moves, rake (C5), each
    run's board and winners (C7), hands shown and mucked (V17), the stacks after it, the
    fairness keys of the cards they saw, and its PHH — a file ``freezeout record replay`` and
    ``verify`` check on their own (docs/formats.md "Cash hand histories")."""
    return await _cash_hand(request, table_id, number, found)


async def _live_record(request: Request, table_id: str) -> tuple[TableGame, dict[str, Any]]:
    """The game a table plays now (or last played) and its full record (it never leaves the
    server: the steps show only what the asker saw)."""
    from freezeout.server.table.actor import TableActor
    from freezeout.server.table.records import record_of_log

    try:
        actor = ctx(request).room.get(table_id)
    except Refused as error:
        raise refused(error) from None
    if isinstance(actor, TableActor):  # this process drives the table
        game, record = actor.state.table_game, actor.recorder.to_json()
    else:  # a gateway: the table's owner is another process, its log is in the database
        entries = await ctx(request).store.log.table_entries(table_id)
        if not entries:
            raise ApiError(404, "not_found", f"no table {table_id!r}")
        try:
            state, record = record_of_log(entries)
        except Refused as error:
            raise refused(error) from None
        game = state.table_game
    if game is None:
        raise ApiError(404, "not_found", f"no hand history of table {table_id!r} yet")
    return game, record


async def _my_cash_hands(request: Request, found: Auth, table: str | None) -> list[tuple[str, str, dict[str, Any]]]:
    """The asker's finished cash hands, oldest first, as ``(table, name they played under, the
    hand as they may download it)``: every hand they were dealt at the table ``table`` — or at
    every table of their cash sessions — with their own cards and others' only as shown or face
    up, each player called by the name the table showed."""
    import orjson

    from freezeout.server.table.exportnames import cash_hand_with_names
    from freezeout.server.table.records import cash_hand_for, cash_hands_of_log, records_each_hand

    if found.user is None:
        raise ApiError(401, "unauthorized", "sign in to download your cash hands")
    names = set(await ctx(request).store.accounts.names_of(found.user))
    if table is not None:
        await http_gate(request, table, found.user)  # a private table's: as any route keyed by its id
        tables = [table]
    else:
        sessions = await ctx(request).store.ledger.sessions(found.user.id)
        tables = list(dict.fromkeys(str(s["table"]) for s in reversed(sessions)))
    mine: list[tuple[str, str, dict[str, Any]]] = []
    for table_id in tables:
        entries = await ctx(request).store.log.table_entries(table_id)
        if not records_each_hand(entries):  # not a cash table's log
            if table is not None:
                raise ApiError(404, "not_found", f"no cash table {table_id!r}")
            continue
        try:
            hands = cash_hands_of_log(entries, keep=10**9).hands
        except Refused as error:
            raise refused(error) from None
        for packed in hands:
            hand: dict[str, Any] = orjson.loads(packed)
            viewer = next((name for name in hand["players"] if name in names), None)
            if viewer is not None:
                mine.append((table_id, viewer, {**cash_hand_with_names(cash_hand_for(hand, viewer)), "table": table_id}))
    return mine


@router.get("/me/cash/hands.stars")
async def my_cash_hands_stars(request: Request, found: AuthDep, table: str | None = None) -> PlainTextResponse:
    """The asker's cash hands as PokerStars text, for trackers (docs/formats.md §4): every
    finished hand they were dealt at the table ``table`` — or at every table of their cash
    sessions — with their own cards and others' only as shown or face up, oldest first."""
    from freezeout.formats.record import RecordError
    from freezeout.formats.stars_cash import cash_hand_to_stars
    from freezeout.server.table.exportnames import table_label

    chunks: list[str] = []
    for table_id, viewer, hand in await _my_cash_hands(request, found, table):
        try:
            chunks.append(cash_hand_to_stars(hand, hero=viewer, table=table_label(table_id),
                                             table_size=hand.get("table_size")))
        except RecordError:
            continue  # a hand the format cannot say (no PHH): left out, as the hand's own download says
    text = "\n\n".join(chunks) + ("\n\n" if chunks else "")
    headers = {"Content-Disposition": 'attachment; filename="cash-hands.stars.txt"'}
    return PlainTextResponse(text, headers=headers)


@router.get("/me/cash/hands.json")
async def my_cash_hands_json(request: Request, found: AuthDep, table: str | None = None) -> JSONResponse:
    """The same hands as one JSON file, ``freezeout.cash_hands/1`` (docs/formats.md "Cash hand
    histories"): each hand's ``freezeout.cash_hand/1`` history as ``GET /api/tables/{id}/hands/{n}``
    gives it, oldest first — what ``freezeout review`` reviews as a session."""
    from freezeout.analysis.review import CASH_HANDS
    from freezeout.server.table.exportnames import table_label

    hands = [{**hand, "table_name": table_label(table_id)} for table_id, _, hand in await _my_cash_hands(request, found, table)]
    headers = {"Content-Disposition": 'attachment; filename="cash-hands.json"'}
    return JSONResponse({"format": CASH_HANDS, "hands": hands}, headers=headers)


finished_record = _finished_record  # the game review's route (transport/apireview.py) reads the same record
viewer_name = _viewer_name
