"""Names (issues #21-8, #23-7): guests get readable names, a player chooses the
name shown for them everywhere, bots have one name, and no new name may read
like another player's (``AIice``, ``A1ice``, ``Al1ce`` beside ``Alice``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command

from freezeout.server.accounts import BOT_PERSONAS, bot_display, check_display, confusable_key, reserved
from freezeout.server.storage.db import _alembic_config
from freezeout.server.storage.store import GameEnd, GameStart, LogEntry, NameTaken, Store

from serverkit import Harness

ROOT = Path(__file__).resolve().parents[2]


# -- the fold --------------------------------------------------------------------
@pytest.mark.parametrize("twin", ["AIice", "A1ice", "Al1ce", "ALICE", "alice", "A|ice", "A_lice", "Ａｌｉｃｅ", "Alíce"])
def test_look_alikes_fold_to_one_key(twin):
    assert confusable_key(twin) == confusable_key("Alice")


@pytest.mark.parametrize(("a", "b"), [("Modern", "Modem"), ("Owen", "0wen"), ("vvalter", "walter"), ("clara", "dara"),
                                      ("Sam5", "SamS")])
def test_well_known_ascii_look_alikes(a, b):
    assert confusable_key(a) == confusable_key(b)


@pytest.mark.parametrize("other", ["Alicia", "Malice", "Bob", "Alex", "Alice2", "Ali"])
def test_unrelated_names_stay_apart(other):
    assert confusable_key(other) != confusable_key("Alice")


@pytest.mark.parametrize(("a", "b"), [("M4x", "Max"), ("8ob", "Bob"), ("Fr33zeout", "Freezeout"), ("7ess", "Tess"),
                                      ("$am", "Sam"), ("@da", "Ada"), ("R1t4", "Rita"), ("0z", "Oz"), ("5ue", "Sue")])
def test_digits_and_signs_written_for_letters_fold_to_them(a, b):
    """#32-5: 0 o, 1 l, 3 e, 4 a, 5 s, 7 t, 8 b, @ a, $ s."""
    assert confusable_key(a) == confusable_key(b)


@pytest.mark.parametrize(("a", "b"), [("\u0251l\u0131ce", "Alice"),  # Latin alpha, dotless i
                                      ("\u0261us", "Gus"),  # script g
                                      ("\u0142ou", "Lou"),  # l with stroke: l and a stroke (UTS #39)
                                      ("\u0196vy", "lvy"),  # Latin capital iota
                                      ("\u01c0da", "lda"),  # dental click
                                      ("\u0430lice", "Alice"),  # Cyrillic a (refused as a display name anyway)
                                      ("\u03bfz", "Oz")])  # Greek omicron
def test_unicode_confusables_fold_by_their_uts39_skeleton(a, b):
    assert confusable_key(a) == confusable_key(b)


def test_the_skeleton_is_unicodes():
    from freezeout.server.skeleton import prototypes, skeleton

    table = prototypes()
    assert len(table) > 5000 and all(table.get(p[0]) is None for p in table.values() if len(p) == 1)  # idempotent
    assert skeleton("0") == "O" and skeleton("1") == "l" and skeleton("I") == "l" and skeleton("m") == "rn"
    assert skeleton("\u0131") == "i" and skeleton("paypal") == "paypal"


def test_bots_and_guests_names_are_reserved():
    for name in ("Max", "max", "MAX", "Max 2", "Rita2", "bot-easy", "bot_easy", "BotEasy", "Guest 4821", "guest-1",
                 "Gue5t 12", "admin", "Adm1n", "M4x", "M4x 2", "M4x2", "Fr33zeout", "8ot-easy", "7e55", "Qu1nn 3",
                 "\u0131vy", "5upp0rt", "@dmin"):
        assert reserved(name), name
    for name in ("Maxine", "Samba", "Botond", "Alice", "Rosa", "Max1ne", "Tessa", "Bob"):
        assert not reserved(name), name


def test_display_names_are_checked():
    assert check_display("  Ana   Maria ") == ("Ana Maria", None)
    assert check_display("Jiří")[1] is None  # accents are letters
    assert "characters" in str(check_display("x")[1]) and "characters" in str(check_display("x" * 21)[1])
    assert "not allowed" in str(check_display("\u0410lice")[1])  # a Cyrillic А is not a Latin A
    assert "not allowed" in str(check_display("Ana<b>")[1])
    assert "reserved" in str(check_display("Max")[1])


def test_bots_have_one_name_on_the_server_and_the_page():
    """names.js (the table) and accounts.BOT_PERSONAS (leaderboard, profile, reserved names) agree."""
    text = (ROOT / "src/freezeout/web/js/names.js").read_text()
    for level, personas in BOT_PERSONAS.items():
        line = re.search(rf"^\s*{level}: \[(.*)\],$", text, re.M)
        assert line is not None, level
        assert tuple(re.findall(r"'([^']+)'", line.group(1))) == personas
    assert bot_display("bot-medium") == "Max" and bot_display("bot-medium-2") == "Ned" and bot_display("ana") is None


# -- registering and choosing a name ------------------------------------------------
async def test_look_alike_names_are_refused_beside_an_existing_one(harness: Harness):
    await (await harness.player()).register("Alice")
    for twin in ("AIice", "A1ice", "Al1ce", "ALICE"):
        response = await (await harness.player()).post("/api/register", {"name": twin, "password": "impostor-pass"})
        assert response.status_code == 409, twin
        error = response.json()["error"]
        assert error["code"] == "name_taken" and "Alice" in error["message"], error
    for other in ("Alicia", "Malice", "Bob"):
        await (await harness.player()).register(other)  # unrelated names pass


async def test_look_alikes_by_digit_sign_or_unicode_are_refused_for_registration_and_display(harness: Harness):
    """#32-5: ``M4x``, ``M4x 2`` and ``Fr33zeout`` are reserved; ``8ob`` beside ``Bob`` is taken."""
    await (await harness.player()).register("Bob")
    for name, code in (("M4x", "bad_name"), ("Fr33zeout", "bad_name"), ("8ot-easy", "bad_name"), ("8ob", "name_taken"),
                       ("B0b", "name_taken")):
        response = await (await harness.player()).post("/api/register", {"name": name, "password": "impostor-pass"})
        assert response.json()["error"]["code"] == code, (name, response.text)
    rosa = await (await harness.player()).guest()
    before = rosa.user
    for name, code in (("M4x 2", "bad_name"), ("M4x", "bad_name"), ("Fr33zeout", "bad_name"), ("N3d", "bad_name"),
                       ("8ob", "name_taken"), ("\u0261us", "bad_name"),  # script g: Gus, a bot's
                       ("B\u00f8b", "name_taken"), ("\u0299o\u0299", "bad_name")):  # small capital B: в's prototype, not b's
        response = await rosa.post("/api/me/display", {"display": name})
        assert response.status_code in (400, 409), (name, response.text)
        assert response.json()["error"]["code"] == code, (name, response.text)
    assert (await rosa.http.get("/api/session")).json()["user"] == before  # nothing changed
    assert (await rosa.post("/api/me/display", {"display": "Bobby 8"})).status_code == 200  # not a look-alike


async def test_guests_have_readable_unique_names(harness: Harness):
    guests = await harness.guests(6)
    names = [g.user["name"] for g in guests if g.user]
    assert all(re.fullmatch(r"Guest \d{4,}", name) for name in names), names
    assert len(set(names)) == len(names)
    assert all(g.user and g.user["display"] == g.user["name"] for g in guests)
    response = await (await harness.player()).post("/api/register", {"name": "Guest4821", "password": "impostor-pass"})
    assert response.status_code == 400 and response.json()["error"]["code"] == "bad_name"


async def test_a_player_chooses_the_name_shown_everywhere(harness: Harness):
    rosa = await (await harness.player()).guest()
    response = await rosa.post("/api/me/display", {"display": "  Rosa  Lind "})
    assert response.status_code == 200, response.text
    assert response.json()["user"]["display"] == "Rosa Lind"
    session = (await rosa.http.get("/api/session")).json()["user"]
    assert session["display"] == "Rosa Lind" and session["name"].startswith("Guest ")

    table = await rosa.create([None, "medium"])
    snapshot = await rosa.join(table)
    assert "Rosa Lind" in snapshot["table"]["players"] and "bot-medium" in snapshot["table"]["players"]
    assert any(s["user"] and s["user"]["name"] == "Rosa Lind" for s in snapshot["table"]["slots"])
    await rosa.send({"type": "resign"})
    await harness.settle()
    await rosa.until(lambda m: m["type"] == "update" and any(e["type"] == "game_over" for e in m["events"]))
    games = (await rosa.http.get("/api/users/Rosa Lind/games")).json()["games"]
    assert len(games) == 1 and games[0]["as"] == "Rosa Lind" and games[0]["places"]["Rosa Lind"] == 2
    assert games[0]["game"] == "NT", "the game's code: the profile names it (issue #31 item 9)"
    record = (await rosa.http.get(f"/api/games/{games[0]['id']}/record")).json()
    assert record["players"].index("Rosa Lind") >= 0

    # a new name later: the old games stay on the profile, and the old name stays hers
    assert (await rosa.post("/api/me/display", {"display": "Rose"})).status_code == 200
    ratings = (await rosa.http.get(f"/api/users/{session['name']}/ratings")).json()
    assert ratings["display"] == "Rose"
    games = (await rosa.http.get("/api/users/Rose/games")).json()["games"]
    assert [g["as"] for g in games] == ["Rosa Lind"]
    other = await (await harness.player()).guest()
    for taken in ("Rosa Lind", "R0sa_Lind", "ROSE"):
        response = await other.post("/api/me/display", {"display": taken})
        assert response.status_code == 409 and response.json()["error"]["code"] == "name_taken", taken
    assert (await rosa.post("/api/me/display", {"display": "Rosa Lind"})).status_code == 200  # her own again


async def test_display_names_are_validated(harness: Harness):
    await (await harness.player()).register("Alice")
    ana = await (await harness.player()).register("ana")
    for bad, code in (("Max", "bad_name"), ("Guest 1234", "bad_name"), ("x", "bad_name"), ("\u0410lice", "bad_name"),
                      ("A1ice", "name_taken"), ("alice", "name_taken")):
        response = await ana.post("/api/me/display", {"display": bad})
        assert response.status_code in (400, 409) and response.json()["error"]["code"] == code, (bad, response.text)
    nobody = await harness.player()
    assert (await nobody.post("/api/me/display", {"display": "Zed"})).status_code == 401
    for name in ("Ann", "Anne", "Annie"):
        assert (await ana.post("/api/me/display", {"display": name})).status_code == 200
    response = await ana.post("/api/me/display", {"display": "Anna"})
    assert response.status_code == 429 and response.json()["error"]["code"] == "rate_limited"
    # nobody may register a name that reads like someone's display name either
    response = await (await harness.player()).post("/api/register", {"name": "Ann1e", "password": "impostor-pass"})
    assert response.status_code == 409


async def test_a_bot_has_one_name_on_the_leaderboard_and_its_profile(harness: Harness):
    ana = await (await harness.player()).register("ana")
    async with harness.ctx.store.engine.begin() as conn:
        await conn.execute(sa.text("UPDATE users SET ranked_games = 12 WHERE name = 'bot-medium'"))
    board = (await ana.http.get("/api/leaderboard")).json()["players"]
    bot = next(p for p in board if p["name"] == "bot-medium")
    assert bot["display"] == "Max" and bot["kind"] == "bot"
    assert (await ana.http.get("/api/users/bot-medium/ratings")).json()["display"] == "Max"


# -- the game in words (#21-11) ---------------------------------------------------
async def test_tables_and_quick_play_say_which_game_is_played(harness: Harness):
    house = (await (await harness.player()).http.get("/api/bots")).json()["game"]
    assert house == {"game": "NT", "name": "No-Limit Texas Hold'em", "type": "freezeout", "stack": 1000,
                     "level": {"small_blind": 10, "big_blind": 20}, "blinds": [10, 20], "hands_per_level": 6}
    ana = await (await harness.player()).guest()
    table = await ana.create([None, None])
    listed = (await ana.http.get("/api/tables?status=waiting")).json()["tables"]
    assert [t["format"] for t in listed if t["id"] == table] == [house]
    assert (await ana.http.get(f"/api/tables/{table}")).json()["table"]["format"] == house
    response = await ana.post("/api/quickplay", {"bot": "easy"})
    assert response.json()["table"]["format"] == house
    watcher = await harness.player()
    await watcher.connect()
    await watcher.send({"type": "lobby"})
    lobby = await watcher.until(lambda m: m["type"] == "lobby")
    assert lobby["tables"] and all(t["format"] == house for t in lobby["tables"])


# -- the migration ------------------------------------------------------------------
def test_the_migration_keeps_existing_accounts_and_their_names(tmp_path: Path):
    """0004 on a database of 0003: registered names join the names look-alikes are checked against."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.sqlite'}")
    config = _alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0003")
        conn.execute(sa.text("INSERT INTO users (name, name_key, kind, rating, ranked_games, created_at) VALUES "
                             "('Alice', 'alice', 'user', 1612, 14, 1), ('guest-0ae8dd1fd0', 'guest-0ae8dd1fd0', 'guest', 1500, 0, 2)"))
        command.upgrade(config, "head")
        assert conn.execute(sa.text("SELECT name, fold FROM user_names")).all() == [("Alice", "allce")]
        assert conn.execute(sa.text("SELECT rating, ranked_games, display FROM users WHERE name = 'Alice'")).one() == (1612, 14, None)
    engine.dispose()


def test_migration_0008_refolds_the_names_accounts_went_by(tmp_path: Path):
    """0008 on a database of 0007: names folded before #32-5 get the new fold, so ``Fred`` meets ``Fr3d``."""
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'old.sqlite'}")
    config = _alembic_config()
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0007")
        conn.execute(sa.text("INSERT INTO users (id, name, name_key, kind, rating, ranked_games, created_at) VALUES "
                             "(1, 'Fr3d', 'fr3d', 'user', 1500, 0, 1), (2, 'Alice', 'alice', 'user', 1500, 0, 1)"))
        conn.execute(sa.text("INSERT INTO user_names (user_id, name, fold, at) VALUES (1, 'Fr3d', 'fr3d', 1), "
                             "(2, 'Alice', 'allce', 1), (2, '\u0251l\u0131ce', '\u0251l\u0131ce', 2)"))
        command.upgrade(config, "head")
        assert conn.execute(sa.text("SELECT name, fold FROM user_names ORDER BY id")).all() == [
            ("Fr3d", "fred"), ("Alice", "allce"), ("\u0251l\u0131ce", "allce")]
    engine.dispose()


async def test_names_in_the_store(store: Store):
    alice = await store.accounts.create("Alice", "user", None, 1.0)
    guest = await store.accounts.create("Guest 4821", "guest", None, 2.0)
    assert await store.accounts.look_alike("AIice") == "Alice" and await store.accounts.look_alike("A1ice", besides=alice.id) is None
    assert await store.accounts.look_alike("Bob") is None
    shown = await store.accounts.set_display(guest.id, "Rosa", 3.0)
    assert shown.shown == "Rosa" and shown.public()["display"] == "Rosa" and shown.name == "Guest 4821"
    assert await store.accounts.look_alike("R0sa") == "Rosa"
    assert (await store.accounts.by_any_name("Rosa")).id == guest.id  # type: ignore[union-attr]
    await store.log.create_table("t1", LogEntry("t1", 1, 1.0, "create", {"slots": [None, None], "ranked": False}))
    await store.log.append([], [GameStart("g1", "t1", 1, ("Rosa", "Alice"), False, 4.0)])
    await store.log.append([], [GameEnd("g1", {"Rosa": 1, "Alice": 2}, {"players": ["Rosa", "Alice"]}, 5.0,
                                    LogEntry("t1", 2, 5.0, "end", {}))])
    await store.accounts.set_display(guest.id, "Rose", 6.0)
    renamed = await store.accounts.by_name("Guest 4821")
    assert renamed is not None and renamed.shown == "Rose"
    assert await store.accounts.names_of(renamed) == ["Rose", "Guest 4821", "Rosa"]
    games = await store.games.of_player(await store.accounts.names_of(renamed), 10)
    assert [(g["id"], g["as"]) for g in games] == [("g1", "Rosa")]
    assert await store.accounts.renames_since(guest.id, 0.0) == 2
    with pytest.raises(NameTaken):  # two taking one name at the same moment: the database decides
        await store.accounts.set_display(alice.id, "Rosa", 8.0)
    assert (await store.accounts.by_name("Alice")).shown == "Alice"  # type: ignore[union-attr]  # nothing changed
    board_bot = await store.accounts.ensure("bot-hard", "bot", 7.0)
    assert board_bot.shown == "Quinn" and json.loads(json.dumps(board_bot.public()))["display"] == "Quinn"
