"""Accounts under attack (issue #10, findings 7, 8, 9): failed log-ins lock out
the guesser's address, never the owner; names are unique whatever their case
or Unicode form; API tokens expire and can be listed and revoked; log-out and
revocation close the sockets opened with them."""

from __future__ import annotations

from serverkit import Harness, Player


def from_address(player: Player, address: str) -> Player:
    """Requests of ``player`` come from ``address`` (the proxy header the server trusts from loopback)."""
    player.http.headers["X-Forwarded-For"] = address
    return player


async def test_failed_log_ins_lock_out_the_guesser_not_the_owner(harness: Harness):
    ana = from_address(await harness.player(), "10.0.0.1")
    await ana.register("ana", "right-password")
    await ana.post("/api/logout")
    mallory = from_address(await harness.player(), "10.6.6.6")
    for _ in range(harness.settings.login_max_failures):
        assert (await mallory.post("/api/login", {"name": "ana", "password": "guess-guess"})).status_code == 401
    response = await mallory.post("/api/login", {"name": "ana", "password": "right-password"})
    assert response.status_code == 429 and int(response.headers["retry-after"]) > 0
    owner = from_address(await harness.player(), "10.0.0.1")  # the owner, at home: not locked out
    assert (await owner.post("/api/login", {"name": "ana", "password": "right-password"})).status_code == 200
    elsewhere = from_address(await harness.player(), "10.0.0.2")
    assert (await elsewhere.post("/api/login", {"name": "ana", "password": "right-password"})).status_code == 200
    harness.clock.advance(harness.settings.login_window_seconds + 1)
    assert (await mallory.post("/api/login", {"name": "ana", "password": "right-password"})).status_code == 200


async def test_guessing_many_names_from_one_address_is_limited(harness: Harness):
    mallory = from_address(await harness.player(), "10.6.6.7")
    limit = harness.settings.login_max_failures_per_address
    names = [f"user{i}" for i in range(limit)]
    for name in names:  # every name a few times at most: the per-account limit never bites
        assert (await mallory.post("/api/login", {"name": name, "password": "guess-guess"})).status_code == 401
    response = await mallory.post("/api/login", {"name": "someone-else", "password": "guess-guess"})
    assert response.status_code == 429 and response.json()["error"]["code"] == "rate_limited"
    other = from_address(await harness.player(), "10.6.6.8")
    assert (await other.post("/api/login", {"name": "someone-else", "password": "guess-guess"})).status_code == 401


async def test_names_are_unique_whatever_their_case_or_unicode_form(harness: Harness):
    victim = await harness.player()
    await victim.register("Victim", "victim-password")
    for twin in ("victim", "VICTIM", "\uff36\uff49\uff43\uff54\uff49\uff4d"):  # full-width letters: NFKC makes them plain
        impostor = await harness.player()
        response = await impostor.post("/api/register", {"name": twin, "password": "impostor-pass"})
        assert response.status_code == 409 and response.json()["error"]["code"] == "name_taken", twin
    for twin in ("Victim\n", "Victim ", "Vic\u200btim"):  # a trailing newline, a space, an invisible character
        impostor = await harness.player()
        response = await impostor.post("/api/register", {"name": twin, "password": "impostor-pass"})
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad_name", repr(twin)
    login = await harness.player()
    response = await login.post("/api/login", {"name": "vIcTiM", "password": "victim-password"})
    assert response.status_code == 200 and response.json()["user"]["name"] == "Victim"  # the display spelling is kept
    assert (await login.http.get("/api/users/victim/ratings")).json()["name"] == "Victim"
    fancy = await harness.player()
    response = await fancy.post("/api/register", {"name": "\uff22\uff4f", "password": "whatever123"})
    assert response.status_code == 200 and response.json()["user"]["name"] == "Bo"


async def test_api_tokens_expire_and_can_be_listed_and_revoked(harness: Harness):
    ana = await harness.player()
    await ana.register("ana")
    made = (await ana.post("/api/tokens", {"label": "my bot", "days": 2})).json()
    token, token_id = made["token"], made["id"]
    bearer = {"Authorization": f"Bearer {token}"}
    listed = (await ana.http.get("/api/tokens")).json()["tokens"]
    assert [(t["id"], t["label"]) for t in listed] == [(token_id, "my bot")] and token not in str(listed)
    assert listed[0]["expires_at"] == harness.clock.now() + 2 * 86400
    assert (await ana.http.get("/api/session", headers=bearer)).json()["user"]["name"] == "ana"
    # a token cannot mint, list or revoke tokens (a stolen one could keep itself alive)
    assert (await ana.http.post("/api/tokens", headers=bearer)).status_code == 403
    assert (await ana.http.get("/api/tokens", headers=bearer)).status_code == 403
    harness.clock.advance(2 * 86400 + 1)
    response = await ana.http.post("/api/tables", json={"slots": [None, "random"]}, headers=bearer)
    assert response.status_code == 401 and response.json()["error"]["code"] == "unauthorized"
    assert (await ana.http.get("/api/tokens")).json()["tokens"] == []  # expired ones are not listed
    second = (await ana.post("/api/tokens")).json()
    assert second["expires_at"] == harness.clock.now() + harness.settings.api_token_days * 86400
    assert (await ana.http.request("DELETE", f"/api/tokens/{second['id']}")).status_code == 403  # CSRF
    response = await ana.http.request("DELETE", f"/api/tokens/{second['id']}", headers={"X-CSRF-Token": ana.csrf})
    assert response.status_code == 200
    response = await ana.http.get("/api/session", headers={"Authorization": f"Bearer {second['token']}"})
    assert response.status_code == 401
    response = await ana.http.request("DELETE", f"/api/tokens/{second['id']}", headers={"X-CSRF-Token": ana.csrf})
    assert response.status_code == 404


async def test_a_revoked_tokens_socket_is_closed(harness: Harness):
    ana = await harness.player()
    await ana.register("ana")
    made = (await ana.post("/api/tokens")).json()
    table = await ana.create([None, "random"], sit=False)
    bot = await harness.player()
    await bot.connect()
    await bot.send({"type": "join", "table": table, "token": made["token"]})
    snapshot = await bot.until(lambda m: m["type"] == "snapshot")
    assert snapshot["you"]["user"]["name"] == "ana"
    response = await ana.http.request("DELETE", f"/api/tokens/{made['id']}", headers={"X-CSRF-Token": ana.csrf})
    assert response.status_code == 200
    error = await bot.error()
    assert error["code"] == "unauthorized" and "revoked" in error["message"]
    await bot.until_closed()


async def test_log_out_closes_the_sockets_of_that_session_only(harness: Harness):
    ana = await harness.player()
    await ana.register("ana", "ana-password")
    table = await ana.create([None, "random"])
    await ana.join(table)
    other = await harness.player()  # ana on another device: another session
    await other.post("/api/login", {"name": "ana", "password": "ana-password"})
    await other.join(table)
    assert (await ana.post("/api/logout")).json() == {"ok": True}
    error = await ana.error()
    assert error["code"] == "unauthorized" and "logged out" in error["message"]
    await ana.until_closed()
    await other.send({"type": "ping"})
    assert (await other.until(lambda m: m["type"] == "pong"))["type"] == "pong"
    version = harness.table(table).state.version
    await other.send({"type": "resign"})  # the other session still acts
    await harness.settle()
    assert harness.table(table).state.version > version


async def test_a_socket_ends_when_its_session_expires(harness: Harness):
    ana = await harness.player()
    await ana.register("ana")
    await ana.connect()
    harness.clock.advance(harness.settings.session_days * 86400 + 1)
    await ana.send({"type": "ping"})
    error = await ana.error()
    assert error["code"] == "unauthorized" and "expired" in error["message"]
