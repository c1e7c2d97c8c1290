"""A move is never lost in a failover, nor applied twice (issue #23 item 3; server/table/idempotency.py).

A client names each intent with a key of its own.  A move whose answer was lost
(the connection died after the commit) is answered ``applied`` when resent, with
the version that applied it, and is not applied again; a move lost before the
commit (the server restarted, its owner was killed) is applied when resent if only
a ``resume`` came since; a keyed ``stale`` always means *not applied*.  Before
issue #23 both resends were refused as ``stale`` — which docs/protocol.md said
meant "applied", so a client that followed the protocol skipped its turn.
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest

from freezeout.server.clock import FakeClock
from freezeout.server.entries import Stamp
from freezeout.server.storage.store import LogEntry
from freezeout.server.table import idempotency
from freezeout.server.table.idempotency import Applied, decide
from freezeout.server.transport.protocol import CLIENT_MESSAGE, SERVER_MESSAGE, Act
from polling import eventually

from clusterkit import Cluster, cluster_settings, heads_up, real_cluster, serve_cluster
from serverkit import Player, fast_settings, heads_up_table, serve


def new_key() -> str:
    return secrets.token_urlsafe(12)


def entry(seq: int, kind: str = "act", user: int | None = None, key: str | None = None) -> LogEntry:
    data: dict[str, Any] = {"seat": 0, "move": "call"}
    if key is not None:
        data["intent"] = {"user": user, "key": key}
    return LogEntry("t1", seq, float(seq), kind, data)


NEUTRAL = ("resume", "top_up", "waitlist")  # here: entries that leave the hand as it was (table/state.py decides it)


def fold(entries: list[LogEntry]) -> Applied:
    memory = Applied(turn=1)
    for e in entries:
        memory = memory.after(e, e.kind not in NEUTRAL)
    return memory


async def no_log(after: int) -> list[LogEntry]:
    raise AssertionError("the memory answers within its window: no log read")


# -- the decision, pure ---------------------------------------------------------------
def test_a_key_must_be_8_to_64_url_safe_characters():
    act = {"type": "act", "version": 3, "move": "call"}
    assert CLIENT_MESSAGE.validate_python({**act, "key": "aZ09_-aZ"}).key == "aZ09_-aZ"  # type: ignore[union-attr]
    for bad in ("short", "x" * 65, "has space", "dötted12", "newline1\n", 12345678):
        try:
            CLIENT_MESSAGE.validate_python({**act, "key": bad})
        except ValueError:
            continue
        raise AssertionError(f"key {bad!r} was accepted")
    SERVER_MESSAGE.validate_python({"type": "applied", "key": "aZ09_-aZ", "version": 7, "ref": 3})


async def test_a_remembered_key_is_answered_with_the_version_that_applied_it():
    memory = fold([entry(2, "start"), entry(3, "deal"), entry(4, user=7, key="k-applied"), entry(5)])
    decision = await decide(memory, 5, 7, Act(type="act", version=3, move="call", key="k-applied"), no_log)
    assert decision.applied == 4 and decision.refusal is None
    # Another account's intent with the same key is its own.
    other = await decide(memory, 5, 8, Act(type="act", version=3, move="call", key="k-applied"), no_log)
    assert other.applied is None and other.refusal is not None and other.refusal[0] == "stale"


async def test_an_intent_overtaken_only_by_resume_entries_is_judged_now():
    memory = fold([entry(2, "start"), entry(3, "deal"), entry(4, "resume"), entry(5, "resume")])
    decision = await decide(memory, 5, 7, Act(type="act", version=3, move="call", key="k-lost-one"), no_log)
    assert decision.applied is None and decision.refusal is None
    assert decision.msg.version == 5 and decision.stamp == Stamp(7, "k-lost-one")


async def test_an_intent_overtaken_only_by_entries_that_leave_the_turn_is_judged_now():
    """Issue #34: another seat's top-up or waiting-list request while the player thinks."""
    memory = fold([entry(2, "start"), entry(3, "deal"), entry(4, "top_up", user=8, key="k-top-up-8"),
                   entry(5, "waitlist"), entry(6, "resume")])
    decision = await decide(memory, 6, 7, Act(type="act", version=3, move="call", key="k-lost-two"), no_log)
    assert decision.refusal is None and decision.msg.version == 6 and decision.stamp == Stamp(7, "k-lost-two")


def test_every_move_moves_the_turn():
    """The bounded memory rests on it (idempotency.py): an ``act`` entry never leaves the turn."""
    with pytest.raises(AssertionError):
        Applied(turn=1).after(entry(2), turned=False)


async def test_a_keyed_stale_says_it_was_not_applied():
    memory = fold([entry(2, "start"), entry(3, "deal"), entry(4, user=8, key="k-someone"), entry(5, "resume")])
    decision = await decide(memory, 5, 7, Act(type="act", version=3, move="call", key="k-too-late"), no_log)
    assert decision.refusal is not None and decision.refusal[0] == "stale"
    assert "not applied" in decision.refusal[1]


async def test_an_intent_without_a_key_is_judged_as_before():
    memory = fold([entry(2, "start"), entry(3, "deal"), entry(4, "resume")])
    msg = Act(type="act", version=3, move="call", key=None)
    decision = await decide(memory, 4, 7, msg, no_log)
    assert decision.msg is msg and decision.stamp is None and decision.refusal is None  # the actor judges it (check_version)


async def test_the_memory_is_bounded_and_the_log_answers_beyond_it():
    top = 2 + 3 * idempotency.WINDOW
    log = [entry(2, "start"), entry(3, user=7, key="k-ancient"), entry(4, "resume"), entry(5, "top_up"),
           entry(6, user=7, key="k-old-two")]
    log += [entry(seq) for seq in range(7, top + 1)]
    memory = fold(log)
    assert memory.recent == ()  # nothing keyed among the last WINDOW versions
    reads: list[int] = []

    async def read_log(after: int) -> list[LogEntry]:
        reads.append(after)
        return [e for e in log if e.seq > after][:1]  # a page of one: the resume is paged past

    old = await decide(memory, top, 7, Act(type="act", version=2, move="call", key="k-ancient"), read_log)
    assert old.applied == 3
    # Decided on 3: a resume (4), a top-up (5) and then the move 6, which applied another key: not this one.
    lost = await decide(memory, top, 7, Act(type="act", version=3, move="call", key="k-not-this"), read_log)
    assert lost.applied is None and lost.refusal is not None and "not applied" in lost.refusal[1]
    assert reads == [2, 3, 4, 5]


# -- one server: the answer lost, the command lost --------------------------------------
async def heads_up_in_hand(h: Any) -> tuple[str, Player, Player]:
    """ana and bo at a heads-up table in hand 1, both following it; returns (table, mover, other)."""
    table, ana, bo = await heads_up_table(h)
    for p in (ana, bo):
        await p.join(table)
    state = h.table(table).state
    assert state.tournament.in_hand
    mover = ana if ana.view["viewer"] == state.tournament.to_act else bo
    return table, mover, bo if mover is ana else ana


def keyed_acts(entries: list[LogEntry], key: str) -> list[LogEntry]:
    return [e for e in entries if e.kind == "act" and (e.data.get("intent") or {}).get("key") == key]


async def rejoin(h: Any, old: Player, table: str, since: int | None = None) -> Player:
    """The same account on a new connection (the old one died)."""
    new = await h.player()
    new.http.cookies.set("fz_session", old.http.cookies.get("fz_session"))
    new.csrf = old.csrf
    await new.join(table, since)
    return new


async def test_a_move_whose_answer_was_lost_is_answered_applied_when_resent(tmp_path):
    async with serve(fast_settings(tmp_path), FakeClock()) as h:
        table, mover, _ = await heads_up_in_hand(h)
        actor = h.table(table)
        version, key = mover.version, new_key()
        move = {"type": "act", "version": version, "move": "call", "key": key, "id": 1}
        await mover.send(move)
        await h.settle()
        assert actor.state.version == version + 1  # committed ...
        await mover.ws.close()  # ... and the connection died before the answer came
        again = await rejoin(h, mover, table, since=version)
        await again.send({**move, "id": 2})
        answer = await again.until(lambda m: m["type"] in ("applied", "error"))
        assert answer == {"type": "applied", "key": key, "version": version + 1, "ref": 2}
        await h.settle()
        entries = await h.ctx.store.log.table_entries(table)
        assert [e.seq for e in keyed_acts(entries, key)] == [version + 1]  # applied once
        assert actor.state.version == version + 1  # the resend changed nothing


async def test_a_move_lost_before_its_commit_is_applied_when_resent_after_a_restart(tmp_path):
    settings, clock = fast_settings(tmp_path), FakeClock()
    async with serve(settings, clock) as h:
        table, mover, _ = await heads_up_in_hand(h)
        version, seat, key = mover.version, mover.view["viewer"], new_key()
        cookie = mover.http.cookies.get("fz_session")
        # The move is sent, and lost with the server (killed before it read the command).
    async with serve(settings, clock) as h:
        await h.settle()
        actor = h.table(table)
        assert actor.state.version == version + 1  # the restart's resume entry, nothing else
        again = await h.player()
        again.http.cookies.set("fz_session", cookie)
        await again.join(table)
        await again.send({"type": "act", "version": version, "move": "call", "key": key, "id": 9})
        answer = await again.until(lambda m: m["type"] in ("applied", "error"))
        assert answer == {"type": "applied", "key": key, "version": version + 2, "ref": 9}
        await again.send({"type": "act", "version": version, "move": "call", "key": key, "id": 10})  # once more
        assert (await again.until(lambda m: m["type"] in ("applied", "error")))["version"] == version + 2
        await h.settle()
        entries = await h.ctx.store.log.table_entries(table)
        assert [(e.seq, e.data["seat"], e.data["move"]) for e in keyed_acts(entries, key)] == [(version + 2, seat, "call")]
        assert [e.kind for e in entries[version:version + 2]] == ["resume", "act"]


async def test_a_keyed_move_overtaken_by_the_game_is_refused_as_not_applied(tmp_path):
    settings, clock = fast_settings(tmp_path), FakeClock()
    async with serve(settings, clock) as h:
        table, mover, _ = await heads_up_in_hand(h)
        actor = h.table(table)
        version = mover.version
        await mover.send({"type": "act", "version": version, "move": "call"})  # moved (an older client's way)
        await h.settle()
        assert actor.state.version > version
        await mover.send({"type": "act", "version": version, "move": "call", "key": new_key(), "id": 4})
        error = await mover.until(lambda m: m["type"] in ("applied", "error"))
        assert error["code"] == "stale" and "not applied" in error["message"] and error["ref"] == 4
        entries = await h.ctx.store.log.table_entries(table)
        assert not any("intent" in e.data for e in entries)


# -- a cluster: kill -9 the owner, send a move at once ------------------------------------
async def test_a_move_sent_as_its_tables_owner_dies_is_applied_once_when_resent(tmp_path):
    async with serve_cluster(cluster_settings(tmp_path)) as cluster:
        await move_during_a_takeover(cluster)


@pytest.mark.redis
@pytest.mark.postgres
@pytest.mark.slow  # a real redis-server (and PostgreSQL) cluster: seconds (rediskit.py)
async def test_a_move_sent_as_its_owner_dies_on_postgresql_and_redis(tmp_path, redis_server, postgres_url):
    """The same on the real thing: the dead worker's Redis inbox keeps the first copy unread."""
    async with real_cluster(tmp_path, redis_server, postgres_url) as cluster:
        await move_during_a_takeover(cluster)


async def move_during_a_takeover(cluster: Cluster) -> None:
    """kill -9 the table's owner, send a move at once (to the dead worker), resend it after the
    takeover: applied once, after the new owner's resume, and answered with that version."""
    first = await cluster.worker("w1")
    table, ana, bo = await heads_up(cluster)
    await eventually(lambda: cluster.owner(table) is first, "the first worker to own the table")
    await cluster.settle(table)
    version = first.tables[table].state.version
    for p in (ana, bo):
        await p.until_version(version)
    mover = next(p for p in (ana, bo) if p.view["legal"] and p.view["viewer"] == p.view["to_act"])
    seat, key = mover.view["viewer"], new_key()
    move = {"type": "act", "version": version, "move": "call", "key": key, "id": 1}
    await cluster.crash("w1")  # kill -9: nothing released, its lease runs out
    await mover.send(move)  # at once: the gateway still routes to the dead worker
    second = await cluster.worker("w2")
    await eventually(lambda: cluster.owner(table) is second, "the second worker to take the table over")
    await mover.until(lambda m: m["type"] == "update" and any(e["type"] == "resumed" for e in m["events"]), timeout=180)
    await mover.send({**move, "id": 2})  # no answer came: the same move again
    answer = await mover.until(lambda m: m["type"] in ("applied", "error") and m.get("ref") == 2, timeout=180)
    assert answer["type"] == "applied" and answer["key"] == key, answer
    await cluster.settle(table)
    entries = await cluster.log(table)
    applied = keyed_acts(entries, key)
    assert [(e.seq, e.data["seat"], e.data["move"]) for e in applied] == [(answer["version"], seat, "call")]
    assert entries[answer["version"] - 2].kind == "resume"  # applied after the new owner's resume
    assert not any(e.kind == "act" and e.data.get("move") == "timeout" for e in entries)  # nobody forfeited


async def test_a_resend_from_before_the_window_is_answered_from_the_log(tmp_path, monkeypatch):
    """The memory keeps the last WINDOW versions' keys; an older resend is answered from the log."""
    monkeypatch.setattr(idempotency, "WINDOW", 3)
    async with serve(fast_settings(tmp_path), FakeClock()) as h:
        table, mover, other = await heads_up_in_hand(h)
        actor = h.table(table)
        version, key = mover.version, new_key()
        move = {"type": "act", "version": version, "move": "call", "key": key, "id": 1}
        await mover.send(move)
        assert (await mover.until(lambda m: m["type"] == "applied"))["version"] == version + 1
        players = {p.view["viewer"]: p for p in (mover, other)}
        while actor.state.version <= version + 1 + idempotency.WINDOW:  # the game goes on past the window
            await h.settle()
            state = actor.state
            t = state.tournament
            if t is None or not t.in_hand:
                await h.advance(h.settings.pause_seconds)
                continue
            p = players[t.to_act]
            await p.until_version(state.version)
            await p.send({"type": "act", "version": state.version, "move": "check" if "check" in p.view["legal"]["moves"] else "call"})
        await h.settle()
        assert actor.state.intents.version_of(mover.user["id"], key) is None  # forgotten here ...
        await mover.send({**move, "id": 2})
        answer = await mover.until(lambda m: m["type"] in ("applied", "error") and m.get("ref") == 2)
        assert answer == {"type": "applied", "key": key, "version": version + 1, "ref": 2}  # ... the log knows
        entries = await h.ctx.store.log.table_entries(table)
        assert [e.seq for e in keyed_acts(entries, key)] == [version + 1]
