"""Pure parts of the server: Elo (R25), URLs, rate limiter, protocol parsing
and the table log fold (fairness: test_server_fairness.py)."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError

from freezeout.server import elo
from freezeout.server.accounts import RateLimiter
from freezeout.server.clock import FakeClock
from freezeout.server.settings import async_database_url
from freezeout.server.storage.store import LogEntry
from freezeout.server.table.state import Refused, initial_state, reduce
from freezeout.server.table.tableevents import Seated, told_json
from freezeout.server.transport.protocol import CLIENT_MESSAGE


class TestElo:
    def test_equal_ratings_move_by_half_of_k(self):
        assert elo.update((1500, 0), (1500, 0)) == (1520, 1480)
        assert elo.update((1500, 30), (1500, 30)) == (1510, 1490)

    def test_k_is_40_for_the_first_30_games_then_20(self):
        assert elo.k_factor(0) == elo.k_factor(29) == 40
        assert elo.k_factor(30) == elo.k_factor(500) == 20
        winner, loser = elo.update((1500, 29), (1500, 30))  # each player's own K
        assert (winner, loser) == (1520, 1490)

    def test_expected_score(self):
        assert elo.expected_score(1600, 1400) == pytest.approx(0.7597, abs=1e-4)
        assert elo.expected_score(1400, 1600) == pytest.approx(0.2403, abs=1e-4)

    def test_an_upset_moves_more(self):
        winner, loser = elo.update((1400, 50), (1600, 50))
        assert winner == pytest.approx(1400 + 20 * 0.7597, abs=1e-3)
        assert loser == pytest.approx(1600 - 20 * 0.7597, abs=1e-3)

    def test_points_are_conserved_with_equal_k(self):
        rng = random.Random(4)
        for _ in range(100):
            a, b = rng.uniform(1000, 2000), rng.uniform(1000, 2000)
            new_a, new_b = elo.update((a, 40), (b, 40))
            assert new_a + new_b == pytest.approx(a + b)
            assert new_a > a and new_b < b

    def test_two_provisional_players_rate_each_other(self):
        winner, loser = elo.rate((1500, 0), (1500, 3))
        assert (winner.after, winner.counted, loser.after, loser.counted) == (1520, True, 1480, True)

    def test_an_established_rating_gains_nothing_from_a_provisional_opponent(self):
        established = (1700.0, elo.PROVISIONAL_GAMES)
        kept, newcomer = elo.rate(established, (1500, 0))  # the established player wins: nothing for them
        assert (kept.after, kept.counted) == (1700, False) and newcomer.counted and newcomer.after < 1500
        newcomer, lost = elo.rate((1500, 0), established)  # the newcomer wins: it counts for both
        assert newcomer.counted and newcomer.after == pytest.approx(1500 + 40 * elo.expected_score(1700, 1500))
        assert lost.counted and lost.after == pytest.approx(1700 - 40 * elo.expected_score(1700, 1500))

    def test_losing_to_a_puppet_on_purpose_costs_what_it_gives(self):
        """No free points: an established player who throws games to a fresh account pays
        exactly what the account gains (the winner gains at most the loser's K, issue #23),
        so it cannot be pumped up for nothing and then farmed."""
        farmer, puppet = (1800.0, 40), (elo.INITIAL_RATING, 0)
        for _ in range(elo.PROVISIONAL_GAMES):
            won, lost = elo.rate(puppet, farmer)
            assert lost.counted and lost.before - lost.after == pytest.approx(won.after - won.before)
            puppet, farmer = (won.after, puppet[1] + 1), (lost.after, farmer[1] + 1)

    def test_established_players_get_plain_elo(self):
        winner, loser = elo.rate((1400, 30), (1600, 12))
        assert (winner.after, loser.after) == elo.update((1400, 30), (1600, 12)) and winner.counted and loser.counted

    def test_a_short_game_is_a_loss_for_the_leaver_only(self):
        assert [elo.short_game(n) for n in (None, 1, elo.SHORT_GAME_HANDS - 1, elo.SHORT_GAME_HANDS)] == \
            [False, True, True, False]
        winner, loser = elo.rate((1500, 0), (1500, 0), short=True)
        assert (winner.after, winner.counted, loser.after, loser.counted) == (1500, False, 1480, True)

    def test_fresh_puppets_raise_a_farmer_only_while_the_farmer_is_provisional(self):
        rating, games = elo.INITIAL_RATING, 0
        for _ in range(200):  # a new 1500 puppet loses every game after the short-game hands
            side, _ = elo.rate((rating, games), (elo.INITIAL_RATING, 0))
            rating, games = side.after, games + side.counted
        assert games == elo.PROVISIONAL_GAMES and rating == pytest.approx(1656.7, abs=0.05)
        for _ in range(200):  # puppets that leave in the first hands: nothing at all, even for a new farmer
            side, _ = elo.rate((elo.INITIAL_RATING, 0), (elo.INITIAL_RATING, 0), short=True)
            assert side.after == elo.INITIAL_RATING and not side.counted


def test_plain_database_urls_get_an_async_driver():
    assert async_database_url("sqlite:///var/x.db") == "sqlite+aiosqlite:///var/x.db"
    assert async_database_url("sqlite+pysqlite:////tmp/x.db") == "sqlite+aiosqlite:////tmp/x.db"
    assert async_database_url("postgresql://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert async_database_url("postgres://u:p@h:5/db") == "postgresql+asyncpg://u:p@h:5/db"
    assert async_database_url("postgresql+psycopg2://u@h/db") == "postgresql+asyncpg://u@h/db"
    with pytest.raises(ValueError):
        async_database_url("mysql://u@h/db")
    with pytest.raises(ValueError):
        async_database_url("nonsense")


def test_rate_limiter_window():
    clock = FakeClock()
    limiter = RateLimiter(3, 60, clock)
    for _ in range(3):
        assert limiter.retry_after("ip:1", "name:a") is None
        limiter.fail("ip:1", "name:a")
    assert limiter.retry_after("name:a") == pytest.approx(60)
    assert limiter.retry_after("ip:2", "name:b") is None
    clock.advance(60.5)
    assert limiter.retry_after("ip:1", "name:a") is None


@pytest.mark.parametrize(
    "raw",
    [
        {"type": "act", "version": "3", "move": "call"},
        {"type": "act", "version": 3, "move": "call", "seat": 1},
        {"type": "act", "version": 3, "move": "timeout"},
        {"type": "act", "version": 3, "move": "resign"},
        {"type": "act", "version": True, "move": "fold"},
        {"type": "act", "version": -1, "move": "fold"},
        {"type": "bet", "amount": 3},
        {"type": "join"},
        {"type": "sit", "slot": 10},  # no table has an eleventh seat (C12)
        {"type": "resign", "seat": 0},
        {"version": 3},
        [],
        "act",
    ],
)
def test_client_messages_are_parsed_strictly(raw):
    with pytest.raises(ValidationError):
        CLIENT_MESSAGE.validate_python(raw)


def test_client_messages_that_parse():
    msg = CLIENT_MESSAGE.validate_python({"type": "act", "version": 4, "move": "raise", "amount": 60, "id": "x"})
    assert msg.model_dump() == {"type": "act", "version": 4, "move": "raise", "amount": 60, "id": "x", "key": None}


def test_the_log_fold_refuses_out_of_order_and_illegal_entries():
    create = LogEntry("t1", 1, 0.0, "create", {"slots": [None, {"name": "bot-easy", "kind": "bot", "bot": "easy", "user_id": 3}],
                                              "ranked": False})
    state = initial_state(create)
    with pytest.raises(Refused) as refused:
        reduce(state, LogEntry("t1", 3, 1.0, "sit", {"slot": 0, "user_id": 5, "name": "ana", "kind": "user"}))
    assert refused.value.code == "stale"
    with pytest.raises(Refused):
        reduce(state, LogEntry("t1", 2, 1.0, "sit", {"slot": 1, "user_id": 5, "name": "ana", "kind": "user"}))
    with pytest.raises(Refused):
        reduce(state, LogEntry("t1", 2, 1.0, "deal", {}))
    seated, events, _ = reduce(state, LogEntry("t1", 2, 1.0, "sit", {"slot": 0, "user_id": 5, "name": "ana", "kind": "user"}))
    assert seated.full and seated.version == 2 and events == [Seated(0, "ana")]
    assert told_json(events) == [{"type": "seated", "slot": 0, "name": "ana"}]  # no chips at a freezeout
    assert state.version == 1 and not state.full  # the old state is untouched


class _MemoryStore:
    """The store's one method the table actor needs for a game without bots (nothing persisted)."""

    async def append(self, entries, ops=()):
        return list(entries)  # committed as given


async def test_each_seat_gets_its_own_view_in_one_shared_update_text():
    """The broadcast splices one serialised head onto each seat's view: every text must parse to
    exactly the message built for that seat, and only the seat's own hole cards may be in it."""
    import json

    from freezeout.rules.views import seat_view
    from freezeout.server.settings import Settings
    from freezeout.server.storage.store import UserRow
    from freezeout.server.table.actor import Conn, TableActor
    from freezeout.server.transport.protocol import Act, Sit
    from freezeout.server.wire import Fragment, dumps

    clock = FakeClock()
    entry = LogEntry("t1", 1, clock.now(), "create", {"slots": [None, None, None], "ranked": False, "created_by": 1})
    actor = TableActor(initial_state(entry), store=_MemoryStore(), clock=clock, settings=Settings(deck_seed="units", test_mode=True))
    users = [UserRow(i + 1, f"u{i}", "guest", None, 1500.0, 0) for i in range(3)]
    received: dict[int | None, list[str]] = {}
    actor.start()
    try:
        for user in users:
            await actor.request(user, Sit(type="sit"))
        conns = {}
        for user in [*users, None]:
            key = user.id if user else None
            conns[key] = Conn(user, lambda text, key=key: received.setdefault(key, []).append(text))
            actor.attach(conns[key])
        await actor.sync()
        for _ in range(6):
            t = actor.state.tournament
            assert t is not None and t.to_act >= 0
            mover = next(u for u in users if actor.state.seat_of_user(u.id) == t.to_act)
            received.clear()
            legal = t.legal_actions()
            move = "check" if legal is not None and legal.can_check else "call"
            actor.intent(mover, Act(type="act", version=actor.state.version, move=move), conns[mover.id])
            await actor.sync()
            assert len(received) == 4  # three seats and a spectator
            for key, texts in received.items():
                seat = actor.state.seat_of_user(key) if key is not None else None
                message = json.loads(texts[-1])
                assert message["type"] == "update" and list(message)[-1] == "view", message
                assert message["view"] == seat_view(actor.state.tournament, seat).to_dict()
                fanout, state = actor.fanout, actor.state
                expected = {"type": "update", "version": state.version, "events": Fragment(fanout.catchup[-1][1]),
                            **fanout.common(state, clock.now()), "fairness": Fragment(actor.fairness(seat)),
                            "view": fanout.view(state, seat)}
                assert message == json.loads(dumps(expected))
    finally:
        await actor.stop()
