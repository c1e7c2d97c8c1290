"""The table actor: one asyncio task owns each table and orders everything that changes it
(design principle 6).

Its one job is the order: client intents (typed: table/commands.py's Intent), connections
coming and going, and the steps the table takes by itself (table/timers.py) are
taken one at a time from one queue, and each is handed to the small class
whose job it is:

- intents.entry_for: what a client's intent writes (or why it is refused),
  after idempotency.decide (a keyed intent resent is applied once);
- table.steps / table.bots: what the table writes by itself (a game's start, the
  next deck, a bot's move, a timeout);
- table.writer.TableWriter: validate with the pure fold, commit, then apply
  (write, then tell: principle 7);
- table.fanout.Fanout: each seat's text of each change (principle 5), snapshots
  and catch-ups;
- table.presence.Followers: who follows the table, so who is online (R26).

It implements table.handle.TableHandle, the interface transport/ws.py and transport/api.py use.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, assert_never

from freezeout.cards import system_random
from freezeout.rules.actions import Action, ActionKind
from freezeout.server.clock import Clock
from freezeout.server.entries import (
    ActEntry,
    CloseEntry,
    DealEntry,
    EntryBody,
    GameEnd,
    GameStart,
    GuestEntry,
    LogEntry,
    RematchEntry,
    ResumeEntry,
    SitEntry,
    WaitlistEntry,
)
from freezeout.server.settings import Settings
from freezeout.server.storage import crashpoint
from freezeout.server.storage.ledger import Transfer
from freezeout.server.storage.store import UserRow
from freezeout.server.storage.tablelog import TableLog
from freezeout.server.table import cashio, guestlist, idempotency, steps, timers
from freezeout.server.table.bots import BotSeats, CashBotMove
from freezeout.server.table.chat import TableChat, audience, players_of, system_news
from freezeout.server.table.commands import Chat, Intent, MoveIn
from freezeout.server.table.fanout import Fanout, table_summary
from freezeout.server.table.handle import Conn
from freezeout.server.table.intents import entry_for
from freezeout.server.table.notices import applied_text, error_text, guests_text, presence_text
from freezeout.server.table.presence import Followers
from freezeout.server.table.records import GameRecorder
from freezeout.server.table.state import Refused, TableState, initial_state, reduce
from freezeout.server.table.writer import Reduced, TableWriter
from freezeout.server.wire import dumps

__all__ = ["Conn", "TableActor"]

log = logging.getLogger(__name__)


@dataclass
class _Intent:
    user: UserRow | None
    intent: Intent
    conn: Conn | None = None
    reply: asyncio.Future[dict[str, Any]] | None = None
    received: float = field(default_factory=time.perf_counter)  # for the action latency (metrics.py)


@dataclass
class _Detach:
    conn: Conn


@dataclass
class _Sync:
    future: asyncio.Future[None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


@dataclass
class _Turn:
    """A private table's creator's request (issue #37: renew the link, hold a place, answer a
    seat request, remove a player), taken in turn as every command is."""

    job: Callable[[], Awaitable[dict[str, Any]]]
    future: asyncio.Future[dict[str, Any]] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


_Command = _Intent | _Detach | _Sync | _Turn


class TableActor:
    def __init__(self, state: TableState, *, store: TableLog, clock: Clock, settings: Settings) -> None:
        self.state = state
        self.store = store
        self.clock = clock
        self.settings = settings
        self.recorder = GameRecorder()
        self.followers = Followers()
        self.fanout = Fanout(settings)
        self.writer = TableWriter(store, settings)
        self.chat = TableChat(getattr(store, "engine", None), settings)  # beside the log (issue #37)
        self.bots = BotSeats(settings, random.Random() if settings.deck_seed else system_random())
        self.members: set[int] = set()  # a private table's accounts that ever sat at it
        self._commands: deque[_Command] = deque()
        self._intents = 0  # intents in _commands (bounded: table_queue_limit)
        self._command_next = False  # a command's turn before the next automatic step (see _step)
        self._syncs: list[_Sync] = []
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._retry_at = 0.0
        # What to call once the database refuses an entry (another worker owns the table now).
        self.on_lost: Callable[[], None] | None = None
        self.on_handled: Callable[[float], None] | None = None  # an intent's seconds from queued to handled

    @property
    def epoch(self) -> int | None:
        """In a cluster (cluster/worker.py): the owner's fencing epoch, stamped on every entry written."""
        return self.writer.epoch

    @epoch.setter
    def epoch(self, value: int | None) -> None:
        self.writer.epoch = value

    @property
    def lost(self) -> bool:
        return self.writer.lost

    @property
    def conns(self) -> list[Conn]:
        return self.followers.conns

    @property
    def invite(self) -> str | None:
        """A private table's invite secret (None: public); told to its creator only."""
        return self.state.invite

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
        (table.state._resume); ``outage`` (seconds without an owner) keeps the turn's deadlines."""
        t = self.state.table_game
        if t is None or t.finished or self.state.ended or self.state.closed:
            return
        if timers.close_at(self.state, self.settings) is not None:
            # An empty cash table: no hand, no turn to give grace to, and an entry written now
            # would restart the countdown to its close (it runs from its last entry).
            return
        now = self.clock.now()
        grace = now + self.settings.restore_grace_seconds
        await self._write(ResumeEntry(grace, round(outage, 3) if outage is not None else None), now)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.state.id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    # -- the public door (table.handle.TableHandle): commands ---------------------------
    def _submit(self, command: _Command) -> None:
        self._commands.append(command)
        self._wake.set()

    def attach(self, conn: Conn, since: int | None = None) -> None:
        """Follow the table from now on: the snapshot (or catch-up) goes out at once, not behind
        the table's own steps or a commit in flight.  It tells the state as it is between the
        actor's awaits and changes nothing, so it needs no turn in the queue; every update
        after it reaches the new follower too.  The actor is woken: presence changed, so do
        the deadlines that depend on it (R26)."""
        self.followers.add(conn)
        self.send_catchup(conn, since)
        self._tell_presence()
        self._wake.set()

    def detach(self, conn: Conn) -> None:
        self._submit(_Detach(conn))

    def intent(self, user: UserRow | None, intent: Intent, conn: Conn | None = None) -> None:
        """Queue a client's intent, unless the table's queue or the connection's share of it is
        full: then it is refused at once as ``busy`` (one client cannot bury a table in moves)."""
        refusal = self._queue_refusal(conn)
        if refusal is not None:
            if conn is not None:
                self._send_error(conn, "busy", refusal, intent.id)
            return
        if conn is not None:
            conn.pending += 1
        self._intents += 1
        self._submit(_Intent(user, intent, conn))

    def _queue_refusal(self, conn: Conn | None) -> str | None:
        if self._intents >= self.settings.table_queue_limit:
            return "the table is busy: try again in a moment"
        if conn is not None and conn.pending >= self.settings.conn_queue_limit:
            return f"at most {self.settings.conn_queue_limit} of your messages wait at a table: wait for the answers"
        return None

    async def request(self, user: UserRow | None, intent: Intent) -> dict[str, Any]:
        """An intent from HTTP: returns the table summary or raises :class:`Refused`."""
        refusal = self._queue_refusal(None)
        if refusal is not None:
            raise Refused("busy", refusal)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._intents += 1
        self._submit(_Intent(user, intent, None, future))
        return await future

    def send_catchup(self, conn: Conn, since: int | None) -> None:
        """Send a following connection what it missed since ``since`` (a gateway that saw a
        gap in versions, cluster/worker.py); the state is consistent between the actor's awaits."""
        now = self.clock.now()
        seat = self.followers.seat_of(self.state, conn)
        text = self.fanout.catchup_text(self.state, now, seat, since)
        if text is None:
            text = self.fanout.snapshot_text(self.state, now, seat, conn.user, self.presence())
        conn.send(text)

    async def in_turn(self, job: Callable[[], Awaitable[dict[str, Any]]]) -> dict[str, Any]:
        """Run ``job`` in the table's turn (table/hosting.py: the creator's requests); its answer."""
        turn = _Turn(job)
        self._submit(turn)
        return await turn.future

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
            bots_at = self.bots.cash_deadline(self.state, self.clock.now())  # a cash table's bots (table/bots.py)
            if bots_at is not None:
                deadline = min(deadline or bots_at, bots_at)
            if self.clock.now() < self._retry_at:
                deadline = min(deadline or self._retry_at, self._retry_at)
            await self.clock.wait(self._wake, deadline)

    def _refuse_waiting(self) -> None:
        """The table was lost: answer whatever still waits here (an HTTP request, a test's sync)."""
        while self._commands:
            command = self._commands.popleft()
            if isinstance(command, _Sync) and not command.future.done():
                command.future.set_result(None)
            elif isinstance(command, _Turn) and not command.future.done():
                command.future.set_exception(Refused("busy", "the table is moving to another server: try again"))
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
            cash_bot = self.bots.cash_due(self.state, now)  # a cash table's bots sit, top up, leave
            if cash_bot is not None:
                await self._cash_bot(cash_bot, now)
                return True
        self._command_next = False
        if not self._commands:
            return False
        command = self._commands.popleft()
        if isinstance(command, _Sync):
            self._syncs.append(command)
        elif isinstance(command, _Detach):
            if self.followers.remove(command.conn):
                self._tell_presence()
        elif isinstance(command, _Turn):
            try:
                command.future.set_result(await command.job())
            except Refused as refusal:
                command.future.set_exception(refusal)
        else:
            self._intents -= 1
            if command.conn is not None:
                command.conn.pending -= 1
            await self._handle_intent(command, now)
        return True

    def evict_guests(self) -> None:
        """The old link stops at once: who watches by it (neither the creator nor seated) follows no more."""
        state = self.state
        for conn in list(self.followers.conns):
            user_id = conn.user.id if conn.user is not None else None
            if user_id is not None and (user_id == state.created_by or state.slot_of_user(user_id) is not None):
                continue
            self._evict(conn, error_text("not_found", f"no table {state.id!r}", None, state.version))
        self._tell_presence()

    def _evict(self, conn: Conn, told: str) -> None:
        """One connection follows the table no more, told why (a gateway's: cluster/workertable.py)."""
        conn.evicted = True
        self.followers.remove(conn)
        conn.send(told)

    # -- automatic steps -----------------------------------------------------
    async def _take(self, step: timers.Due, now: float) -> None:
        state = self.state
        seed = self.settings.deck_seed
        match step:
            case timers.Start():
                body, op = steps.start_entry(state, now, seed, self.bots.rng)
                await self._write(body, now, [op])
            case timers.Commit():
                await self._write(steps.commit_entry(state, seed, self.bots.rng), now)
            case timers.Deal():
                await self._write(DealEntry(), now)
            case timers.End():
                entry, end = steps.end_parts(state, now, self.recorder.to_json(), self.settings)
                await self._commit(entry, [end])
            case timers.Rematch(seat):
                await self._write(RematchEntry(seat), now)
            case timers.BotMove(seat):
                move = await self.bots.move(state, seat)
                try:
                    await self._write(move, now)
                except Refused:  # a bot's illegal move: the safest legal one instead (table.botseat.safe_move)
                    await self._write(BotSeats.safe_move(self.state, seat), now)
            case timers.Close():  # an empty cash table closes (table/cashlobby.py)
                await self._write(CloseEntry(), now)
            case timers.Lapse():  # C13: offers from the waiting list whose time ran out pass on (table/cashwait.py)
                await self._write(WaitlistEntry("lapse"), now)
            case timers.TopUp(seat):  # C2: a cash seat's auto top-up (table/cash.py)
                await cashio.auto_top_up(state, seat, self.store, lambda body: self._write(body, now))
            case timers.Forfeit(seat, reason, by):
                await self._write(ActEntry(Action(seat, ActionKind.TIMEOUT), reason=reason, by=by), now)
            case _:
                assert_never(step)

    async def _cash_bot(self, move: CashBotMove, now: float) -> None:
        """A bot's seat change at a cash table, through the entries a player's makes (table/bots.py)."""
        try:
            body, transfers = await self.bots.cash_entry(self.state, move, now, self.store.engine)
            await self._write(body, now, transfers)
        except Refused:
            self.bots.cash_refused(now)
        else:
            self.bots.cash_done(move)

    def _bot_due(self, seat: int) -> float:
        return self.bots.due(self.state, seat)

    # -- intents from clients --------------------------------------------------
    async def _handle_intent(self, command: _Intent, now: float) -> None:
        ref = command.intent.id
        try:
            if isinstance(command.intent, Chat):  # a chat line: stored beside the log, never in it (table/chat.py)
                line = await self.chat.say(self.state, command.user, command.intent.text, now)
                self._tell_chat(line, await self.chat.muted_by(command.user))
                return
            decision = await self._decide(command)
            if decision.applied is None:
                msg, moved = decision.msg, None
                if self.state.private and command.user is not None:  # held places, approval (table/guestlist.py)
                    admitted = guestlist.admit(self.state, command.user, msg, now)
                    if isinstance(admitted, GuestEntry):  # the request waits, in the log (server/guestbook.py)
                        if admitted.seat != getattr(self.state.guests.request_of(command.user.id), "seat", None):
                            await self._write(admitted, now)
                        self.tell_guests()
                        raise Refused("pending", "your seat request waits for the table's creator to approve it")
                    msg = admitted
                if isinstance(msg, MoveIn) and command.user is not None:  # C14: the broken table's entry, read once
                    moved = await cashio.moved_chips(self.state, command.user.id, msg.source, msg.seq, self.store)
                    now = self.clock.now()
                body = entry_for(self.state, command.user, msg, now, self.settings, self.online, moved)
                if decision.stamp is not None:  # the entry that applies a keyed intent names it, in the same transaction
                    body = dataclasses.replace(body, intent=decision.stamp)
                await self._write(body, now)
            if self.on_handled is not None:
                self.on_handled(time.perf_counter() - command.received)
        except Refused as refusal:
            if command.reply is not None and not command.reply.done():
                command.reply.set_exception(refusal)
            elif command.conn is not None:
                self._send_error(command.conn, refusal.code, refusal.message, ref)
        else:
            if command.reply is not None and not command.reply.done():
                command.reply.set_result(self.summary())
            if crashpoint.ARMED:  # the crash drills only: told, not yet answered
                crashpoint.reached("told")
            key, version = decision.key, decision.applied
            if key is not None and command.conn is not None and command.user is not None:
                version = version or self.state.intents.version_of(command.user.id, key)
                if version is not None:
                    command.conn.send(applied_text(key, version, ref))

    async def _decide(self, command: _Intent) -> idempotency.Decision:
        """A keyed intent (idempotency.py): one applied already is answered, not applied again; one
        that only a ``resume`` overtook is judged now; the entry that applies it names it."""
        user_id = command.user.id if command.user is not None else None
        try:  # the log is read only for an intent decided before the memory's window
            decision = await idempotency.decide(self.state.intents, self.state.version, user_id, command.intent,
                                            lambda after: self.store.table_entries(self.state.id, after=after, limit=64))
        except Exception as error:
            raise Refused("storage", "the table's log could not be read; try again") from error
        if decision.refusal is not None:
            raise Refused(*decision.refusal)
        return decision

    # -- write, then tell ------------------------------------------------------
    async def write(self, body: EntryBody, now: float) -> None:
        """Write an entry the table's creator asked for, in the table's turn (table/hosting.py)."""
        await self._write(body, now)

    async def _write(self, body: EntryBody, now: float, ops: Sequence[GameStart | GameEnd | Transfer] | None = None) -> None:
        await self._commit(LogEntry.of(self.state.id, self.state.version + 1, now, body), ops or [])

    async def _commit(self, entry: LogEntry, ops: Sequence[GameStart | GameEnd | Transfer]) -> None:
        for written, reduced in await self.writer.commit(self.state, self.recorder, entry, ops):
            old = self.state
            events = self._apply(written, reduced)
            self._tell_update()
            news = system_news(old, self.state, written, events)
            if news:  # a join, a leave, a bust, a rematch offer: a system line in the chat (table/chat.py)
                for line in await self.chat.system(self.state, news, written.at):
                    self._tell_chat(line)

    def _apply(self, entry: LogEntry, reduced: Reduced | None = None) -> Sequence[Any]:
        old = self.state
        self.state, table_events, events = reduced if reduced is not None else reduce(old, entry)
        body = entry.body  # typed, decoded once by the fold: the stored JSON is not read again
        if isinstance(body, SitEntry) and self.state.private:  # who ever played here sees the table (table/privacy.py)
            user_id = body.player.user_id
            if isinstance(user_id, int):
                self.members.add(user_id)
        self.recorder.apply(old, self.state, entry, events)
        self.fanout.record(self.state, table_events, events)
        return events

    # -- what the table tells ----------------------------------------------------------
    def _tell_update(self) -> None:
        """Each follower the text of its seat (an owned table publishes them: cluster/workertable.py)."""
        conns = self.followers.conns
        if not conns:
            return
        seats = [self.followers.seat_of(self.state, conn) for conn in conns]
        texts = self.fanout.update_texts(self.state, self.clock.now(), seats)
        for conn, seat in zip(list(conns), seats, strict=True):
            conn.send(texts[seat])

    def tell_guests(self) -> None:
        """The creator's connections are told the held places and the seat requests (``guests``)."""
        creator = self.state.created_by
        text = guests_text(self.state.guests.view(self.clock.now()))
        for conn in list(self.followers.conns):
            if conn.user is not None and conn.user.id == creator:
                conn.send(text)

    def _tell_chat(self, line: dict[str, Any], muted: frozenset[int] = frozenset()) -> None:
        """A chat line to the followers of its room but those who muted its author (table.chat.audience)."""
        text, room, players = dumps(line), str(line["room"]), players_of(self.state)
        for conn in list(self.followers.conns):
            if audience(room, players, conn.user.id if conn.user is not None else None, muted):
                conn.send(text)

    def _tell_presence(self) -> None:
        """Who is online, when that changed (table.presence.Followers)."""
        online = self.followers.changed(self.state)
        if online is None:
            return
        text = presence_text(online)
        for conn in list(self.followers.conns):
            conn.send(text)

    def _send_error(self, conn: Conn, code: str, message: str, ref: str | int | None) -> None:
        conn.send(error_text(code, message, ref, self.state.version))

    # -- what the room and tests read -------------------------------------------------
    def seat_of(self, conn: Conn) -> int | None:
        return self.followers.seat_of(self.state, conn)

    def online(self, seat: int) -> bool:
        return self.followers.online(self.state, seat)

    def presence(self) -> list[bool]:
        return self.followers.presence(self.state)

    def summary(self) -> dict[str, Any]:
        return table_summary(self.state)

    def fairness(self, seat: int | None, *, reveal: bool | None = None) -> str:
        """The fairness object for ``seat`` as JSON text (table.fanout.Fanout.fairness)."""
        return self.fanout.fairness(self.state, seat, reveal=reveal)
