"""The table actor: one asyncio task owns each table (design principle 6).

It holds the table's state, its command queue, its clocks and its bot
seats.  Every change is an entry of the table's log: the actor validates it
with the pure ``tablestate.reduce``, commits it through the store, and only
then applies it and tells the clients (principle 7).  Clients receive
messages built from their own seat's view (principle 5).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from freezeout.cards import CardError, parse_cards, system_random
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.events import Event
from freezeout.rules.views import TableView
from freezeout.server import botseat, intents, tablesteps, timers
from freezeout.server.clock import Clock
from freezeout.server.gamelog import GameRecorder
from freezeout.server.ownership import StaleOwner
from freezeout.server.protocol import events_json
from freezeout.server.settings import Settings
from freezeout.server.store import GameEnd, GameStart, LogEntry, UserRow
from freezeout.server.tablegame import action_data, game_summary
from freezeout.server.tablelog import TableLog
from freezeout.server.tablestate import Refused, TableState, initial_state, reduce
from freezeout.server.wire import Fragment, dumps, join_arrays, pack

__all__ = ["Conn", "TableActor"]

log = logging.getLogger(__name__)


@dataclass(eq=False)
class Conn:
    """One client connection following a table; ``send`` must not block.  ``pending``
    counts its commands waiting in the table's queue (bounded: ``conn_queue_limit``)."""

    user: UserRow | None
    send: Callable[[str], None]
    pending: int = 0


@dataclass
class _Intent:
    user: UserRow | None
    msg: dict[str, Any]
    conn: Conn | None = None
    reply: asyncio.Future[dict[str, Any]] | None = None
    received: float = field(default_factory=time.perf_counter)  # for the action latency (metrics.py)


@dataclass
class _Attach:
    conn: Conn
    since: int | None


@dataclass
class _Detach:
    conn: Conn


@dataclass
class _Sync:
    future: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class TableActor:
    def __init__(self, state: TableState, *, store: TableLog, clock: Clock, settings: Settings) -> None:
        self.state = state
        self.store = store
        self.clock = clock
        self.settings = settings
        self.conns: list[Conn] = []
        self.recorder = GameRecorder()
        self._commands: deque[_Intent | _Attach | _Detach | _Sync] = deque()
        self._intents = 0  # intents in _commands (bounded: table_queue_limit)
        self._command_next = False  # a command's turn before the next automatic step (see _step)
        self._syncs: list[_Sync] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        # Recent public events per version, serialised (wire.pack): kept long, so kept untracked by the GC.
        self._catchup: deque[tuple[int, bytes]] = deque(maxlen=settings.catchup_entries)
        self._bot_delay: tuple[tuple[int, float, int], float] | None = None
        self._retry_at = 0.0
        self._spectator: tuple[int, TableView] | None = None
        self._views: tuple[int, dict[int | None, dict[str, Any]]] = (-1, {})
        # The fairness object per version, serialised, per viewer whose own cards it opens (None: everyone else).
        self._fairness: tuple[int, dict[tuple[bool, int | None], str]] = (-1, {})
        self._rng = random.Random() if settings.deck_seed else system_random()
        self._presence: list[bool] = []  # as last broadcast
        # In a cluster (worker.py): the owner's fencing epoch, stamped on every entry written, and
        # what to call once the database refuses one (another worker owns the table now).
        self.epoch: int | None = None
        self.on_lost: Callable[[], None] | None = None
        self.on_handled: Callable[[float], None] | None = None  # an intent's seconds from queued to handled
        self.lost = False
        self._stamp: dict[str, Any] | None = None  # the keyed intent being handled: its entry names it (intents.py)

    # -- construction ------------------------------------------------------
    @classmethod
    def restore(cls, entries: list[LogEntry], **kwargs: Any) -> TableActor:
        """Rebuild a table by folding its whole log (after a restart)."""
        actor = cls(initial_state(entries[0]), **kwargs)
        for entry in entries[1:]:
            actor._apply(entry)
        return actor

    async def resume(self, outage: float | None = None) -> None:
        """After a restart or a change of owner: if a game is running, write a ``resume`` entry
        (tablestate._resume); ``outage`` (seconds without an owner) keeps the turn's deadlines."""
        t = self.state.table_game
        if t is None or t.finished or self.state.ended:
            return
        now = self.clock.now()
        data: dict[str, Any] = {"grace_until": now + self.settings.restore_grace_seconds}
        if outage is not None:
            data["outage"] = round(outage, 3)
        await self._write("resume", data, now)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.state.id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    # -- the public door: commands -----------------------------------------
    def _submit(self, command: _Intent | _Attach | _Detach | _Sync) -> None:
        self._commands.append(command)
        self._wake.set()

    def attach(self, conn: Conn, since: int | None = None) -> None:
        self._submit(_Attach(conn, since))

    def detach(self, conn: Conn) -> None:
        self._submit(_Detach(conn))

    def intent(self, user: UserRow | None, msg: dict[str, Any], conn: Conn | None = None) -> None:
        """Queue a client's intent, unless the table's queue or the connection's share of it is
        full: then it is refused at once as ``busy`` (one client cannot bury a table in moves)."""
        refusal = self._queue_refusal(conn)
        if refusal is not None:
            if conn is not None:
                self._send_error(conn, "busy", refusal, msg.get("id"))
            return
        if conn is not None:
            conn.pending += 1
        self._intents += 1
        self._submit(_Intent(user, msg, conn))

    def _queue_refusal(self, conn: Conn | None) -> str | None:
        if self._intents >= self.settings.table_queue_limit:
            return "the table is busy: try again in a moment"
        if conn is not None and conn.pending >= self.settings.conn_queue_limit:
            return f"at most {self.settings.conn_queue_limit} of your messages wait at a table: wait for the answers"
        return None

    async def request(self, user: UserRow | None, msg: dict[str, Any]) -> dict[str, Any]:
        """An intent from HTTP: returns the table summary or raises :class:`Refused`."""
        refusal = self._queue_refusal(None)
        if refusal is not None:
            raise Refused("busy", refusal)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._intents += 1
        self._submit(_Intent(user, msg, None, future))
        return await future

    def send_catchup(self, conn: Conn, since: int | None) -> None:
        """Send a following connection what it missed since ``since`` (a gateway that saw a
        gap in versions, worker.py); the state is consistent between the actor's awaits."""
        self._send_catchup(conn, since)

    async def sync(self) -> None:
        """Wait until the actor has handled everything before and has nothing due (tests)."""
        sync = _Sync()
        self._submit(sync)
        await sync.future

    # -- the loop ----------------------------------------------------------
    async def _run(self) -> None:
        while True:
            try:
                if await self._step() and not self.lost:
                    continue
            except asyncio.CancelledError:
                raise
            except Exception:
                if not self.lost:
                    log.exception("table %s: step failed", self.state.id)
                self._retry_at = self.clock.now() + 1.0
            for sync in self._syncs:
                if not sync.future.done():
                    sync.future.set_result(None)
            self._syncs.clear()
            if self.lost:  # another worker owns the table: this actor's state may be behind the log
                self._refuse_waiting()
                if self.on_lost is not None:
                    self.on_lost()
                return
            self._wake.clear()
            deadline = timers.next_deadline(self.state, self.settings, online=self.online, bot_due=self._bot_due)
            if self.clock.now() < self._retry_at:
                deadline = min(deadline or self._retry_at, self._retry_at)
            await self.clock.wait(self._wake, deadline)

    def _refuse_waiting(self) -> None:
        """The table was lost: answer whatever still waits here (an HTTP request, a test's sync)."""
        while self._commands:
            command = self._commands.popleft()
            if isinstance(command, _Sync) and not command.future.done():
                command.future.set_result(None)
            elif isinstance(command, _Intent) and command.reply is not None and not command.reply.done():
                command.reply.set_exception(Refused("busy", "the table is moving to another server: try again"))

    async def _step(self) -> bool:
        """Take one due step or handle one command; False when there is nothing to do.  When
        both wait, they take turns: a table whose steps are always due (bots without a thinking
        time) still hears its clients, and a busy queue never holds up the clock."""
        now = self.clock.now()
        if now >= self._retry_at and not (self._commands and self._command_next):
            self._command_next = True
            step = timers.due(self.state, now, self.settings, online=self.online, bot_due=self._bot_due)
            if step is not None:
                await self._take(step, now)
                return True
        self._command_next = False
        if not self._commands:
            return False
        command = self._commands.popleft()
        if isinstance(command, _Sync):
            self._syncs.append(command)
        elif isinstance(command, _Attach):
            self.conns.append(command.conn)
            self._send_catchup(command.conn, command.since)
            self._broadcast_presence()
        elif isinstance(command, _Detach):
            if command.conn in self.conns:
                self.conns.remove(command.conn)
                self._broadcast_presence()
        else:
            self._intents -= 1
            if command.conn is not None:
                command.conn.pending -= 1
            await self._handle_intent(command, now)
        return True

    # -- automatic steps -----------------------------------------------------
    async def _take(self, step: timers.Due, now: float) -> None:
        state = self.state
        if step.kind == "start":
            await self._start_game(now)
        elif step.kind == "commit":
            await self._write("commit", tablesteps.commit_data(state, self.settings.deck_seed, self._rng), now)
        elif step.kind == "deal":
            await self._write("deal", {}, now)
        elif step.kind == "end":
            await self._end_game(now)
        elif step.kind == "rematch":
            await self._write("rematch", {"seat": step.seat}, now)
        elif step.kind == "bot":
            await self._bot_move(step.seat, now)
        elif step.kind == "forfeit":
            await self._write("act", {"seat": step.seat, "move": "timeout", **(step.data or {})}, now)

    async def _start_game(self, now: float) -> None:
        data, op = tablesteps.start_data(self.state, now, self.settings.deck_seed, self._rng)
        await self._write("start", data, now, [op])

    async def _end_game(self, now: float) -> None:
        entry, op = self._end_parts(self.state, now, self.recorder.to_json(), self.settings)
        await self._commit_entry(entry, [op])

    _end_parts = staticmethod(tablesteps.end_parts)

    def _bot_due(self, seat: int) -> float:
        state = self.state
        assert state.table_game is not None
        key = (state.table_game.hand_number, state.turn_started, seat)
        if self._bot_delay is None or self._bot_delay[0] != key:
            delay = self._rng.uniform(self.settings.bot_delay_min, max(self.settings.bot_delay_min, self.settings.bot_delay_max))
            self._bot_delay = (key, delay)
        return state.turn_started + self._bot_delay[1]

    async def _bot_move(self, seat: int, now: float) -> None:
        state = self.state
        game = state.table_game
        assert game is not None
        level = state.seat_slot(seat).bot or "random"
        seed = self.settings.deck_seed
        # Test mode: the same decision at the same point of the game, however many entries
        # (a restart's ``resume``) the log has besides.
        point = f"{seed}:{state.game}:{game.hand_number}:{game.events_in_hand}"
        rng = random.Random(point) if seed is not None else random.Random(self._rng.random())
        # Off the event loop: a strong bot may think for tens of milliseconds.
        action = await asyncio.to_thread(botseat.choose, level, game.seat_view(seat), rng)
        try:
            await self._write("act", action_data(action._replace(seat=seat)), now)
        except Refused:  # a bot's illegal move: the safest legal one instead (botseat.safe_move)
            await self._write("act", action_data(botseat.safe_move(seat, game.legal_actions())), now)

    # -- intents from clients --------------------------------------------------
    async def _handle_intent(self, intent: _Intent, now: float) -> None:
        try:
            decision = await self._decide(intent)
            if decision.applied is None:
                await self._apply_intent(intent, now)
            if self.on_handled is not None:
                self.on_handled(time.perf_counter() - intent.received)
        except Refused as refusal:
            if intent.reply is not None and not intent.reply.done():
                intent.reply.set_exception(refusal)
            elif intent.conn is not None:
                self._send_error(intent.conn, refusal.code, refusal.message, intent.msg.get("id"))
        else:
            if intent.reply is not None and not intent.reply.done():
                intent.reply.set_result(self.summary())
            key, version = decision.key, decision.applied
            if key is not None and intent.conn is not None and intent.user is not None:
                version = version or self.state.intents.version_of(intent.user.id, key)
                if version is not None:
                    intent.conn.send(dumps(intents.applied_message(key, version, intent.msg.get("id"))))
        finally:
            self._stamp = None

    async def _decide(self, intent: _Intent) -> intents.Decision:
        """A keyed intent (intents.py): one applied already is answered, not applied again; one
        that only a ``resume`` overtook is judged now; the entry that applies it names it."""
        user_id = intent.user.id if intent.user is not None else None
        try:  # the log is read only for an intent decided before the memory's window
            decision = await intents.decide(self.state.intents, self.state.version, user_id, intent.msg,
                                            lambda after: self.store.table_entries(self.state.id, after=after, limit=64))
        except Exception as error:
            raise Refused("storage", "the table's log could not be read; try again") from error
        if decision.refusal is not None:
            raise Refused(*decision.refusal)
        intent.msg, self._stamp = decision.msg, decision.stamp
        return decision

    async def _apply_intent(self, intent: _Intent, now: float) -> None:
        msg, user, state = intent.msg, intent.user, self.state
        kind = msg["type"]
        if user is None:
            raise Refused("not_seated", "log in or play as a guest to take part")
        if kind == "sit":
            slot = msg.get("slot")
            if slot is None:
                slot = next((i for i, s in enumerate(state.slots) if not s.taken), None)
                if slot is None:
                    raise Refused("illegal", "the table is full")
            await self._write("sit", {"slot": slot, "user_id": user.id, "name": user.shown, "kind": user.kind}, now)
            return
        if kind == "stand" or (kind == "resign" and state.table_game is None):
            slot = state.slot_of_user(user.id)
            if slot is None:
                raise Refused("not_seated", "you have no place at this table")
            await self._write("stand", {"slot": slot}, now)
            return
        seat = state.seat_of_user(user.id)
        t = state.table_game
        if seat is None or t is None:
            raise Refused("not_seated", "you are not playing at this table")
        if kind == "resign":
            await self._write("act", {"seat": seat, "move": "resign"}, now)
        elif kind == "rematch":
            await self._write("rematch", {"seat": seat}, now)
        elif kind == "act":
            self._check_version(msg)
            if t.to_act != seat:
                raise Refused("not_your_turn", "it is not your turn")
            data: dict[str, Any] = {"seat": seat, "move": msg["move"]}
            if msg.get("amount") is not None:
                data["amount"] = msg["amount"]
            await self._write("act", data, now)
        elif kind == "draw":  # V11: throw away ``cards`` and draw as many; none: stand pat
            self._check_version(msg)
            if t.to_act != seat:
                raise Refused("not_your_turn", "it is not your turn to draw")
            await self._write("act", action_data(_draw_action(seat, msg.get("cards"))), now)
        elif kind == "dont_wait":
            self._check_version(msg)
            late = t.to_act
            if late < 0 or late == seat or not t.alive[seat]:
                raise Refused("illegal", "nobody else is late")
            if now < state.turn_deadline(self.settings.turn_seconds):
                raise Refused("too_early", "the turn's time has not run out yet")
            if now < state.grace_until and not self.online(late):
                raise Refused("too_early", "the late player may reconnect after the server's restart until "
                                           f"{state.grace_until:.0f} (Unix time)")
            await self._write("act", {"seat": late, "move": "timeout", "reason": "dont_wait", "by": seat}, now)
        else:
            raise Refused("bad_message", f"unknown intent {kind!r}")

    def _check_version(self, msg: dict[str, Any]) -> None:
        if msg.get("version") != self.state.version:
            raise Refused("stale", f"decided on version {msg.get('version')}, the table is at {self.state.version}")

    # -- write, then tell ------------------------------------------------------
    async def _write(self, kind: str, data: dict[str, Any], now: float, ops: list[GameStart | GameEnd] | None = None) -> None:
        if self._stamp is not None:  # the entry that applies a keyed intent names it, in the same transaction
            data, self._stamp = {**data, intents.STAMP: self._stamp}, None
        await self._commit_entry(LogEntry(self.state.id, self.state.version + 1, now, kind, data), ops or [])

    async def _commit_entry(self, entry: LogEntry, ops: list[GameStart | GameEnd]) -> None:
        first = reduce(self.state, entry)  # validate first: a refused entry is never written
        new = first[0]
        entries = [entry]
        if new.needs_end and entry.kind != "end":  # the last move and the game's end: one transaction
            recorder = self.recorder.copy()
            recorder.apply(self.state, new, entry, first[2])
            end, op = self._end_parts(new, entry.at, recorder.to_json(), self.settings)
            entries.append(end)
            ops = [*ops, op]
        for written in entries:
            written.epoch = self.epoch
        try:
            await self.store.append(entries, ops)
        except StaleOwner as error:
            self.lost = True
            log.warning("table %s: lost to another owner (epoch %s refused)", self.state.id, self.epoch)
            raise Refused("busy", "the table is moving to another server: try again in a moment") from error
        except Exception as error:
            raise Refused("storage", "the move could not be stored; try again") from error
        for index, written in enumerate(entries):
            reuse = index == 0 and written.kind != "end"  # an end's ratings are filled in by the store
            table_events, events = self._apply(written, first if reuse else None)
            self._broadcast(table_events, events)

    def _apply(self, entry: LogEntry, reduced: tuple[TableState, list[dict[str, Any]], list[Event]] | None = None,
               ) -> tuple[list[dict[str, Any]], list[Event]]:
        old = self.state
        self.state, table_events, events = reduced if reduced is not None else reduce(old, entry)
        self.recorder.apply(old, self.state, entry, events)
        game = self.state.table_game
        public = table_events + events_json(events, game.board if game is not None else ())
        self._catchup.append((self.state.version, pack(public)))
        return table_events, events

    def _seat_view(self, seat: int | None) -> TableView:
        """The view of ``seat`` at the current version (the spectator's is shared by the log and messages)."""
        t = self.state.table_game
        assert t is not None
        if seat is None:
            cached = self._spectator
            if cached is None or cached[0] != self.state.version:
                cached = self._spectator = (self.state.version, t.seat_view(None))
            return cached[1]
        return t.seat_view(seat)

    # -- messages ----------------------------------------------------------------
    def seat_of(self, conn: Conn) -> int | None:
        return self.state.seat_of_user(conn.user.id) if conn.user is not None and self.state.table_game else None

    def online(self, seat: int) -> bool:
        slot = self.state.seat_slot(seat)
        return slot.kind == "bot" or any(c.user is not None and c.user.id == slot.user_id for c in self.conns)

    def presence(self) -> list[bool]:
        state = self.state
        if state.table_game is not None:
            return [self.online(seat) for seat in range(len(state.players))]
        return [s.kind == "bot" or (s.taken and any(c.user is not None and c.user.id == s.user_id for c in self.conns))
                for s in state.slots]

    def summary(self) -> dict[str, Any]:
        s = self.state
        return {
            "id": s.id, "status": s.status, "ranked": s.ranked, "size": s.size, "version": s.version, "game": s.game,
            "slots": [{"slot": i, "user": {"id": x.user_id, "name": x.name, "kind": x.kind} if x.taken else None,
                       "bot": x.bot} for i, x in enumerate(s.slots)],
            "players": list(s.players) if s.players else None, "game_id": s.game_id, "created_at": s.created_at,
            "table_game": game_summary(s.spec),
        }

    def fairness(self, seat: int | None, *, reveal: bool | None = None) -> str:
        """The fairness object for ``seat`` as JSON text, built once per version and per viewer
        whose own hole cards the last finished hand opens (everyone else shares one text).
        The last hand's reveal travels between hands (from its end to the next deal, ``reveal``
        None) and in every snapshot and catch-up (``reveal=True``): not in every update."""
        s = self.state
        if reveal is None:
            reveal = s.table_game is None or not s.table_game.in_hand
        opened = s.revealed if reveal else None
        key = (reveal, seat if opened is not None and seat in opened.own else None)
        version, texts = self._fairness
        if version != s.version:
            texts = {}
            self._fairness = (s.version, texts)
        text = texts.get(key)
        if text is None:
            nxt = {"hand": s.next_deal.hand, "commitment": s.next_deal.commitment} if s.next_deal else None
            cur = s.current_deal if s.table_game is not None and s.table_game.in_hand else None
            text = texts[key] = dumps({"next": nxt, "current": {"hand": cur.hand, "commitment": cur.commitment} if cur else None,
                                       "revealed": [opened.to_json(key[1])] if opened is not None else []})
        return text

    def _view(self, seat: int | None) -> dict[str, Any] | None:
        return self._view_dicts([seat])[seat] if self.state.table_game is not None else None

    def _view_dicts(self, seats: list[int | None]) -> dict[int | None, dict[str, Any]]:
        """The views of ``seats`` at the current version, built at most once per version and seat
        (one change is told to every seat of the table; see ``view_dicts``).  Read-only."""
        t = self.state.table_game
        assert t is not None
        version, views = self._views
        if version != self.state.version:
            views = {}
            self._views = (self.state.version, views)
        missing = [seat for seat in seats if seat not in views]
        if missing:
            views.update(t.view_dicts(missing))
        return views

    def _message(self, kind: str, seat: int | None, events: list[dict[str, Any]] | Fragment, common: dict[str, Any],
                 ) -> dict[str, Any]:
        """A snapshot or catch-up for ``seat`` (with the last hand's reveal, see :meth:`fairness`)."""
        return {"type": kind, "version": self.state.version, "events": events, **common,
                "fairness": Fragment(self.fairness(seat, reveal=True)), "view": self._view(seat)}

    def _common(self) -> dict[str, Any]:
        return {"table": self.summary(), "clock": timers.clock_json(self.state, self.clock.now(), self.settings)}

    def _broadcast(self, table_events: list[dict[str, Any]], events: list[Event]) -> None:
        if not self.conns:
            return
        public = Fragment(self._catchup[-1][1])
        common = self._common()
        seats = [self.seat_of(conn) for conn in self.conns]
        if self.state.table_game is not None:
            self._view_dicts(seats)  # every seat's view in one pass
        # The message without its per-seat fields (fairness, view) is serialised once for all seats.
        shared = {"type": "update", "version": self.state.version, "events": public, **common}
        head = dumps(shared)[:-1] + ',"fairness":'
        cache: dict[int | None, str] = {}
        for conn, seat in zip(list(self.conns), seats, strict=True):
            text = cache.get(seat)
            if text is None:
                text = cache[seat] = f'{head}{self.fairness(seat)},"view":{dumps(self._view(seat))}}}'
            conn.send(text)
        self._views = (-1, {})  # built for this broadcast: not kept (fewer objects for the GC to scan)

    def _send_catchup(self, conn: Conn, since: int | None) -> None:
        seat = self.seat_of(conn)
        version = self.state.version
        if since is not None and since <= version and (since == version or (self._catchup and self._catchup[0][0] <= since + 1)):
            missed = join_arrays([events for v, events in self._catchup if v > since])
            # ``since`` right after the version: a gateway forwards a catch-up only to a connection
            # that is at that version (gateway.py), so no event reaches a client twice.
            catchup = self._message("update", seat, missed, self._common())
            conn.send(dumps({"type": "update", "version": version, "since": since, **catchup}))
            return
        t = self.state.table_game
        history = events_json(self._seat_view(None).history) if t is not None else []
        you = {"user": conn.user.public() if conn.user else None, "seat": seat,
               "slot": self.state.slot_of_user(conn.user.id) if conn.user else None}
        msg = {**self._message("snapshot", seat, history, self._common()), "you": you, "presence": self.presence()}
        conn.send(dumps(msg))

    def _broadcast_presence(self) -> None:
        """Tell everyone who is online, when that changed: a spectator coming or going changes
        nothing, and telling every follower of every join would let N followers re-joining at
        their message rate cost N² messages."""
        online = self.presence()
        if online == self._presence:
            return
        self._presence = online
        text = dumps({"type": "presence", "online": online})
        for conn in list(self.conns):
            conn.send(text)

    def _send_error(self, conn: Conn, code: str, message: str, ref: Any) -> None:
        conn.send(dumps({"type": "error", "code": code, "message": message, "ref": ref, "version": self.state.version}))


def _draw_action(seat: int, cards: Any) -> Action:
    """A ``draw`` intent's move: ``discard`` of the named cards, or ``standpat`` for none."""
    if not cards:
        return Action(seat, ActionKind.STANDPAT)
    try:
        thrown = parse_cards(str(cards))
    except CardError as error:
        raise Refused("bad_message", f"cannot read the cards to discard {cards!r}: {error}") from None
    return Action(seat, ActionKind.DISCARD, cards=thrown)
