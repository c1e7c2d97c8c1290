"""Accounts, sessions, CSRF, rate limiting, API tokens, downloads and static files."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from freezeout.server.clock import FakeClock

from serverkit import fast_settings, serve

ROOT = Path(__file__).resolve().parents[2]


async def test_health(harness):
    player = await harness.player()
    response = await player.http.get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}


async def test_register_login_logout(harness):
    ana = await harness.player()
    await ana.register("ana", "s3cret-pass")
    assert ana.user["name"] == "ana" and ana.user["kind"] == "user" and ana.user["rating"] == 1500.0
    cookie = next(h for h in ana.http.cookies.jar if h.name == "fz_session")
    assert cookie.has_nonstandard_attr("HttpOnly")
    assert (await ana.http.get("/api/session")).json()["user"]["name"] == "ana"
    other = await harness.player()
    response = await other.post("/api/register", {"name": "ana", "password": "whatever123"})
    assert response.status_code == 409
    response = await other.post("/api/register", {"name": "bot-x", "password": "whatever123"})
    assert response.status_code == 400
    response = await other.post("/api/register", {"name": "zed", "password": "short"})
    assert response.status_code == 400
    assert (await ana.post("/api/logout")).json() == {"ok": True}
    assert (await ana.http.get("/api/session")).json()["user"] is None
    response = await other.post("/api/login", {"name": "ana", "password": "s3cret-pass"})
    assert response.status_code == 200 and response.json()["user"]["name"] == "ana"
    response = await other.post("/api/login", {"name": "ana", "password": "wrong-pass"}, csrf=response.json()["csrf"])
    assert response.status_code == 401


async def test_session_cookie_flags(harness):
    ana = await harness.player()
    response = await ana.post("/api/register", {"name": "ana", "password": "password1"})
    headers = [v for k, v in response.headers.multi_items() if k == "set-cookie"]
    session = next(h for h in headers if h.startswith("fz_session="))
    assert "HttpOnly" in session and "samesite=lax" in session.lower()


async def test_state_changing_requests_need_the_csrf_token(harness):
    ana = await harness.player()
    response = await ana.http.post("/api/guest")
    assert response.status_code == 403 and response.json()["error"]["code"] == "csrf"
    response = await ana.post("/api/guest", csrf="forged")
    assert response.status_code == 403
    await ana.register("ana")
    response = await ana.post("/api/tables", {"slots": [None, "easy"]}, csrf="forged")
    assert response.status_code == 403
    response = await ana.http.post("/api/tables", json={"slots": [None, "easy"]})
    assert response.status_code == 403
    assert (await ana.post("/api/tables", {"slots": [None, "easy"]})).status_code == 200


async def test_log_in_attempts_are_rate_limited(harness):
    ana, mallory = await harness.player(), await harness.player()
    await ana.register("ana", "right-password")
    for _ in range(harness.settings.login_max_failures):
        response = await mallory.post("/api/login", {"name": "ana", "password": "guess-guess"})
        assert response.status_code == 401
    response = await mallory.post("/api/login", {"name": "ana", "password": "right-password"})
    assert response.status_code == 429 and int(response.headers["retry-after"]) > 0
    harness.clock.advance(harness.settings.login_window_seconds + 1)
    response = await mallory.post("/api/login", {"name": "ana", "password": "right-password"})
    assert response.status_code == 200


async def test_new_accounts_from_one_address_are_rate_limited(tmp_path):
    """Guests and registrations count together per client address; the refused
    request creates nothing and says when to come back."""
    settings = fast_settings(tmp_path, signup_max_per_address=3, signup_window_seconds=600)
    async with serve(settings, FakeClock()) as harness:
        store = harness.ctx.store
        await (await harness.player()).register("ana")
        await (await harness.player()).guest()
        await (await harness.player()).guest()
        users = await store.accounts.count()
        mallory = await harness.player()
        response = await mallory.post("/api/guest")
        assert response.status_code == 429 and response.json()["error"]["code"] == "rate_limited"
        assert int(response.headers["retry-after"]) > 0
        response = await mallory.post("/api/register", {"name": "zed", "password": "whatever123"})
        assert response.status_code == 429
        assert await store.accounts.count() == users, "a refused sign-up creates nothing"
        harness.clock.advance(settings.signup_window_seconds + 1)
        assert (await mallory.post("/api/register", {"name": "zed", "password": "whatever123"})).status_code == 200


async def test_expired_sessions_are_deleted(harness):
    store, now = harness.ctx.store, harness.clock.now()
    ana = await harness.player()
    await ana.register("ana")
    await store.sessions.create("old" * 8, ana.user["id"], "csrf", now - 100, now - 1)
    assert await store.sessions.delete_expired(now) == 1
    assert await store.sessions.find("old" * 8, now) is None
    assert (await ana.http.get("/api/session")).json()["user"]["name"] == "ana", "live sessions stay"
    assert await store.sessions.delete_expired(now) == 0


async def test_api_tokens_for_external_bots(harness):
    ana, guest = await harness.player(), await harness.player()
    await ana.register("ana")
    token = (await ana.post("/api/tokens")).json()["token"]
    await guest.guest()
    assert (await guest.post("/api/tokens")).status_code == 403
    bearer = {"Authorization": f"Bearer {token}"}
    response = await guest.http.post("/api/tables", json={"slots": [None, "random"]}, headers=bearer)  # no CSRF needed
    assert response.status_code == 200
    table = response.json()["table"]
    assert table["slots"][0]["user"]["name"] == "ana"
    response = await guest.http.post("/api/tables", json={"slots": [None, "random"]}, headers={"Authorization": "Bearer nope"})
    assert response.status_code == 401
    bot = await harness.player()
    await bot.connect()
    await bot.send({"type": "join", "table": table["id"], "token": token})
    snapshot = await bot.until(lambda m: m["type"] in ("snapshot", "update"))
    assert snapshot["you"]["user"]["name"] == "ana"


async def test_lobby_sit_stand_and_listing(harness):
    ana, bo, cy = await harness.player(), await harness.player(), await harness.player()
    await ana.register("ana")
    await bo.register("bo")
    await cy.register("cy")
    table = await ana.create([None, None, None, "easy"])
    listed = (await bo.http.get("/api/tables", params={"status": "waiting"})).json()["tables"]
    assert [t["id"] for t in listed] == [table]
    assert (await bo.post(f"/api/tables/{table}/sit", {"slot": 0})).status_code == 409  # taken
    assert (await bo.post(f"/api/tables/{table}/sit", {"slot": 1})).status_code == 200
    assert (await bo.post(f"/api/tables/{table}/stand")).status_code == 200
    assert (await cy.post(f"/api/tables/{table}/sit")).status_code == 200
    assert (await cy.post(f"/api/tables/{table}/sit")).status_code == 409  # one place each
    assert (await bo.post(f"/api/tables/{table}/sit")).status_code == 200
    await harness.settle()
    summary = (await bo.http.get(f"/api/tables/{table}")).json()["table"]
    assert summary["status"] == "playing" and sorted(summary["players"]) == ["ana", "bo", "bot-easy", "cy"]
    assert (await bo.post(f"/api/tables/{table}/sit")).status_code == 409
    assert (await cy.post(f"/api/tables/{table}/stand")).status_code == 409
    assert (await bo.http.get("/api/tables/nope")).status_code == 404
    assert (await bo.http.get("/api/bots")).json()["levels"] == ["random", "station", "easy", "medium", "hard"]


async def test_downloads_record_and_phh_and_the_verify_command(harness, tmp_path):
    ana = await harness.player()
    await ana.register("ana")
    table = await ana.create([None, "random"])
    await ana.join(table)
    await harness.settle()
    await ana.send({"type": "resign"})
    await harness.settle()
    game_id = harness.table(table).state.game_id
    response = await ana.http.get(f"/api/games/{game_id}/record")
    assert response.status_code == 200 and "attachment" in response.headers["content-disposition"]
    record = response.json()
    assert record["format"] == "freezeout.record/1" and record["hands"][0]["commitment"]
    phh = await ana.http.get(f"/api/games/{game_id}/phh")
    assert phh.status_code == 200 and phh.text.startswith("[1]")
    stars = await ana.http.get(f"/api/games/{game_id}/stars")  # issue #21 item 12: the trackers' format
    assert stars.status_code == 200 and "attachment" in stars.headers["content-disposition"]
    assert stars.text.startswith("PokerStars Hand #") and "Dealt to ana [" in stars.text
    log = (await ana.http.get(f"/api/games/{game_id}/events")).json()
    assert log["players"] == record["players"] and len(log["hands"]) == len(record["hands"])
    first = log["hands"][0]
    assert first["events"][0]["type"] == "hand_started" and first["revealed"]["deck"] == record["hands"][0]["deck"]
    assert first["revealed"]["salts"] == record["hands"][0]["salts"] and first["revealed"]["leaves"] == record["hands"][0]["leaves"]
    assert not any(event["type"] == "cards_dealt" for hand in log["hands"] for event in hand["events"])
    listed = (await ana.http.get("/api/users/ana/games")).json()["games"]
    assert [g["id"] for g in listed] == [game_id] and "ana" in listed[0]["players"] and not listed[0]["ranked"]
    assert (await ana.http.get("/api/users/nobody/games")).status_code == 404
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    ok = subprocess.run([sys.executable, "-m", "freezeout.cli", "verify-record", str(path)], capture_output=True, text=True,
                        cwd=ROOT, check=False)
    assert ok.returncode == 0 and json.loads(ok.stdout)["ok"], ok.stderr
    wired = subprocess.run([sys.executable, "-m", "freezeout.cli", "record", "verify", str(path)], capture_output=True,
                           text=True, cwd=ROOT, check=False)
    assert wired.returncode == 0, wired.stderr
    salts = record["hands"][0]["salts"]
    opened = next(i for i, salt in enumerate(salts) if salt)  # ana's own first card
    salts[opened] = "0" * 32
    path.write_text(json.dumps(record))
    bad = subprocess.run([sys.executable, "-m", "freezeout.cli", "verify-record", str(path)], capture_output=True, text=True,
                         cwd=ROOT, check=False)
    assert bad.returncode == 2 and f"hand 1: position {opened}" in bad.stderr and "does not match the committed leaf" in bad.stderr
    assert (await ana.http.get("/api/games/nope/record")).status_code == 404


async def test_serves_the_web_front_end_when_present(tmp_path):
    web = tmp_path / "web"
    web.mkdir()
    (web / "index.html").write_text("<h1>Freezeout</h1>")
    (web / "app.js").write_text("console.log(1)")
    async with serve(fast_settings(tmp_path, web_dir=str(web)), FakeClock()) as h:
        player = await h.player()
        assert (await player.http.get("/")).text == "<h1>Freezeout</h1>"
        assert (await player.http.get("/static/app.js")).text == "console.log(1)"
        assert (await player.http.get("/healthz")).status_code == 200
