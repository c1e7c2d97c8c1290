"""Standing earned outside the ring (issue #32 item 6; elo.py): a rating is established only
against eight distinct established opponents, wins over unestablished players stop paying
after a player's first games, and only established ratings active lately take a place —
so six puppets and a farmer, each on its own address, put none of them on any leaderboard."""

from __future__ import annotations

from pathlib import Path

import pytest

from freezeout.server import elo

BENCH = Path(__file__).resolve().parents[2] / "bench"
DAY = 86400.0


def test_established_takes_enough_games_and_eight_vouching_opponents():
    assert elo.established(elo.PROVISIONAL_GAMES, elo.ESTABLISHING_OPPONENTS)
    assert not elo.established(elo.PROVISIONAL_GAMES - 1, elo.ESTABLISHING_OPPONENTS)
    assert not elo.established(500, elo.ESTABLISHING_OPPONENTS - 1)  # many games inside a ring of eight
    assert elo.ESTABLISHING_OPPONENTS == 8


@pytest.mark.parametrize(("kind", "games", "settled", "family", "vouches", "for_win"), [
    ("user", 40, True, 50, True, True),  # an established player
    ("user", 40, False, 50, False, False),  # a ring's member in a family of established players
    ("user", 0, False, 3, True, False),  # a new family: any registered player, towards the eight
    ("user", 0, False, 3, False, True),  # ... but a win over a newcomer pays only in one's first games
    ("user", 12, False, 3, True, True),
    ("bot", 500, False, 50, False, False),  # bots never make up the eight ...
    ("bot", 500, False, 50, True, True),  # ... a win over an experienced bot pays
    ("guest", 0, False, 0, False, False),
])
def test_who_vouches(kind, games, settled, family, vouches, for_win):
    assert elo.vouches(kind, games=games, established_now=settled, family_established=family, for_win=for_win) is vouches


def test_a_win_over_an_opponent_who_does_not_vouch_pays_only_in_the_first_games():
    assert elo.counts(elo.PROVISIONAL_GAMES - 1, 40, won=True, opponent_vouches=False)
    assert not elo.counts(elo.PROVISIONAL_GAMES, 40, won=True, opponent_vouches=False)
    assert elo.counts(elo.PROVISIONAL_GAMES, 0, won=True, opponent_vouches=True)
    assert elo.counts(elo.PROVISIONAL_GAMES, 40, won=False, opponent_vouches=False)  # a loss always counts
    won, lost = elo.rate((1600.0, 40), (1500.0, 40), loser_vouches=False)
    assert not won.counted and won.after == 1600.0 and lost.counted and lost.after < 1500.0


def test_the_leaderboard_lists_established_ratings_active_in_the_last_30_days():
    now = 1_800_000_000.0
    assert elo.listed(True, now - 29 * DAY, now)
    assert not elo.listed(True, now - 31 * DAY, now)
    assert not elo.listed(False, now, now) and not elo.listed(True, None, now)


@pytest.fixture
def ring_bench(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCH))
    import elo_ring

    return elo_ring


def test_six_puppets_and_a_farmer_on_their_own_addresses_take_no_place_in_a_new_family(ring_bench):
    """bench/elo_ring.py: seven accounts playing only each other for 30 days, each pair as often
    as the daily limit allows: none of them takes a place (each has at most six opponents)."""
    room = ring_bench.Room(True, True)
    placed, _ = ring_bench.standing_ring(7, room=room)
    assert placed == 0 and not any(acc.established for acc in room.accounts.values())
    assert room.accounts["farmer"].games > elo.PROVISIONAL_GAMES  # they did play


def test_a_ring_of_nine_places_only_in_a_family_nobody_is_established_in(ring_bench):
    """What ring still could (docs/protocol.md "Ratings"): nine accounts, in a new family."""
    placed, _ = ring_bench.standing_ring(9, room=ring_bench.Room(True, True))
    assert placed > 0
    assert ring_bench.standing_ring(8, room=ring_bench.Room(True, True))[0] == 0


def test_no_ring_takes_a_place_where_players_are_established(ring_bench):
    """A family with established players: members of a ring vouch for nobody, however many."""
    room = ring_bench.honest_room(True, standing=True, players=30, games=900, days=20.0)
    assert sum(acc.established for acc in room.accounts.values()) >= elo.ESTABLISHING_OPPONENTS
    placed, _ = ring_bench.standing_ring(12, room=room)
    assert placed == 0


def test_migration_0009_names_each_history_rows_opponent_and_keeps_old_standing(tmp_path):
    """0009 on a database of 0008: a counted game's row gets its opponent from the game's pair,
    and counts as vouched when the opponent is a registered account (a bot's does not)."""
    import sqlalchemy as sa
    from alembic import command

    from freezeout.server.storage.db import _alembic_config

    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.sqlite'}")
    config = _alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0008")
        conn.execute(sa.text("INSERT INTO users (id, name, name_key, kind, rating, ranked_games, created_at) VALUES "
                             "(1, 'ana', 'ana', 'user', 1520, 12, 1), (2, 'bo', 'bo', 'user', 1480, 12, 1), "
                             "(3, 'bot-easy', 'bot-easy', 'bot', 1500, 40, 1)"))
        conn.execute(sa.text("INSERT INTO tables (id, created_at, closed) VALUES ('t1', 1, 0)"))
        conn.execute(sa.text("INSERT INTO games (id, table_id, number, players, ranked, started_at, pair) VALUES "
                             "('g1', 't1', 1, '[]', 1, 1, '1:2'), ('g2', 't1', 2, '[]', 1, 2, '1:3')"))
        conn.execute(sa.text("INSERT INTO rating_history (user_id, game_id, before, after, at) VALUES "
                             "(1, 'g1', 1500, 1520, 1), (2, 'g1', 1500, 1480, 1), (1, 'g2', 1520, 1530, 2)"))
        command.upgrade(config, "head")
        rows = conn.execute(sa.text("SELECT user_id, game_id, opponent, vouched FROM rating_history ORDER BY id")).all()
        assert [tuple(r) for r in rows] == [(1, "g1", 2, 1), (2, "g1", 1, 1), (1, "g2", 3, 0)]
    engine.dispose()
