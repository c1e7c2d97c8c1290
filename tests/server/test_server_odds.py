"""GET /api/odds: the odds calculator's equities (docs/protocol.md "Odds", issue #36).

Exact where the deals are few enough, seeded Monte Carlo with its ± otherwise; one
clear 400 for each kind of bad input; a rate limit per client address; the work
off the event loop.
"""

from __future__ import annotations

import asyncio
import threading
from urllib.parse import urlencode

import pytest

from freezeout.server.clock import FakeClock
from freezeout.server.oddsdesk import compute

from serverkit import fast_settings, serve


async def _odds(harness, **query):
    player = await harness.player()
    return await player.http.get("/api/odds", params=query)


async def test_heads_up_preflop_aces_against_kings_is_exact(harness):
    response = await _odds(harness, hand=["AhAs", "KhKc"])
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["game"] == "NT" and data["exact"] is True and data["deals"] == 1_712_304
    aces, kings = data["hands"]
    assert aces["hand"] == "AhAs" and abs(aces["equity"] - 0.819461) < 1e-6
    assert abs(kings["equity"] - 0.180539) < 1e-6
    assert abs(aces["win"] - 0.817147) < 1e-6 and abs(aces["tie"] - 0.004627) < 1e-6
    assert aces["error"] == 0 and data["samples"] is None and "high" not in aces


async def test_omaha_hi_lo_shares_the_halves(harness):
    response = await _odds(harness, game="FO/8", hand=["AhKh2c3d", "QsQd9c8c"], board="4d5sJh")
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["split"] is True and data["exact"] is True and data["deals"] == 820
    low_hand, high_hand = data["hands"]
    assert abs(low_hand["equity"] - 0.717683) < 1e-6 and abs(high_hand["equity"] - 0.282317) < 1e-6
    assert abs(low_hand["low"] - 0.743902) < 1e-6 and high_hand["low"] == 0
    assert abs(low_hand["high"] + high_hand["high"] - 1) < 1e-6
    assert abs(data["no_low"] - 0.256098) < 1e-6


async def test_stud_with_a_dead_card_and_razz_by_name(harness):
    exact = await _odds(harness, game="F7S/8", hand=["AhKhQh7c6c", "2s3s4s5d9d"])
    assert exact.status_code == 200 and exact.json()["exact"] is True
    assert abs(exact.json()["hands"][0]["equity"] - 0.395800) < 1e-6
    sampled = await _odds(harness, game="stud", hand=["AhAd7s", "KsKd2c"], dead="Ac")
    data = sampled.json()
    assert data["game"] == "F7S" and data["exact"] is False and data["samples"] == 50_000 and data["seed"] == 0
    assert data["hands"][0]["equity"] == 0.64156 and 0.004 < data["hands"][0]["error"] < 0.0045
    again = await _odds(harness, game="stud", hand=["AhAd7s", "KsKd2c"], dead="Ac")
    assert again.json() == data  # seeded: a shared address shows the same numbers
    razz = await _odds(harness, game="razz", hand=["As2s3s", "KdKcQh"])
    assert razz.status_code == 200 and razz.json()["game"] == "FR" and razz.json()["hands"][0]["equity"] > 0.8


async def test_hold_em_ranges(harness):
    response = await _odds(harness, hand=["QQ+,AKs", "JhTh"], board="2c7d")
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["hands"][0]["hand"] == "QQ+,AKs" and data["hands"][0]["equity"] > 0.6
    assert abs(sum(hand["equity"] for hand in data["hands"]) - 1) < 1e-6


async def test_ranges_too_wide_to_list_are_drawn(harness):
    """random against random is 1,758,276 combinations: each hand is drawn from its range."""
    response = await _odds(harness, hand=["random", "random", "22+,A2s+"])
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["exact"] is False and data["deals"] == 50_000
    first, second, third = data["hands"]
    assert abs(first["equity"] - second["equity"]) < 2 * (first["error"] + second["error"])
    assert third["equity"] > first["equity"] + 0.1


@pytest.mark.parametrize(("query", "message"), [
    ({"hand": ["AhXh", "KsKd"]}, "hand 1 'AhXh'"),
    ({"hand": ["AhAs", "AhKd"]}, "duplicate card Ah"),
    ({"hand": ["AhAs", "KsKd"], "board": "Ah2c3d"}, "duplicate card Ah"),
    ({"hand": ["AA", "KsKd"], "dead": "AcAdAh"}, "the range leaves no combination"),
    ({"hand": ["AhAsKd", "KsKd"]}, "a No-Limit Texas Hold'em hand has 2 cards, got 3"),
    ({"hand": ["AhAs", "KsKd"], "game": "PO"}, "hand has 4 cards, got 2"),
    ({"hand": ["2c2d", "KsKd"], "game": "NS"}, "2c is not in the No-Limit Short-Deck Hold'em deck"),
    ({"hand": ["AhAs", "KsKd"], "game": "2-7"}, "unknown game"),
    ({"hand": ["AhAs", "KsKd"], "game": "F2L3D"}, "no equity while a draw is still to come"),
    ({"hand": ["AhAs"]}, "give 2 to 10 hands, got 1"),
    ({"hand": ["AhAs", " "]}, "hand 2 is empty"),
    ({"hand": ["AA", "AA", "AA", "random", "random"]}, "hardly ever fit together"),
    ({"hand": ["AhAs", "KsKd"], "board": "2c3c4c5c6c7c"}, "at most 5 cards, got 6"),
])
async def test_bad_input_is_one_clear_400(harness, query, message):
    response = await _odds(harness, **query)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_message" and message in error["message"], error
    assert set(response.json()) == {"error"}


async def test_too_many_hands_are_refused_before_any_work(harness):
    response = await _odds(harness, hand=["random"] * 11)
    assert response.status_code == 400 and "give 2 to 10 hands, got 11" in response.json()["error"]["message"]


async def test_odds_are_rate_limited_per_address(tmp_path):
    settings = fast_settings(tmp_path, odds_per_minute=3)
    async with serve(settings, FakeClock()) as harness:
        player = await harness.player()
        for board in ("2c3d4h", "2c3d4s", "2c3d5h"):
            assert (await player.http.get("/api/odds", params={"hand": ["AhAs", "KhKc"], "board": board})).status_code == 200
        again = await player.http.get("/api/odds", params={"hand": ["AhAs", "KhKc"], "board": "2c3d4h"})
        assert again.status_code == 200  # a question answered lately costs nothing
        refused = await player.http.get("/api/odds", params={"hand": ["AhAs", "KhKc"]})
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert 0 < int(refused.headers["retry-after"]) <= 61
        other = await harness.player()  # the same address: a new cookie jar is no way around it
        assert (await other.http.get("/api/odds", params={"hand": ["AhAs", "KhKc"]})).status_code == 429
        harness.clock.advance(61)
        assert (await player.http.get("/api/odds", params={"hand": ["AhAs", "KhKc"]})).status_code == 200


def _q(*hands, game="NT", board="", dead=""):
    params = [("game", game), *(("hand", hand) for hand in hands)]
    params += [(name, value) for name, value in (("board", board), ("dead", dead)) if value]
    return urlencode(params)


async def test_a_batch_answers_every_question_of_a_run_out_at_once(harness):
    """A side pot run twice: main pot among three hands, side pot between two, each run's board."""
    player = await harness.player()
    questions = [
        _q("AhAs", "KhKc", "QdQs", board="2c7d9h", dead="Tc"),
        _q("AhAs", "KhKc", "QdQs", board="2c7d9h", dead="8s"),
        _q("AhAs", "KhKc", board="2c7d9h", dead="QdQsTc"),
        _q("AhAs", "KhKc", board="2c7d9h", dead="QdQs8s"),
    ]
    response = await player.http.get("/api/odds/batch", params={"q": questions})
    assert response.status_code == 200, response.text
    answers = response.json()["answers"]
    assert len(answers) == 4 and all(answer["exact"] for answer in answers)
    single = await player.http.get("/api/odds", params={"hand": ["AhAs", "KhKc"], "board": "2c7d9h", "dead": "QdQsTc"})
    assert answers[2] == single.json()
    assert [len(answer["hands"]) for answer in answers] == [3, 3, 2, 2]


@pytest.mark.parametrize(("questions", "message"), [
    ([], "give 1 to 16 questions (q), got 0"),
    ([_q("AhAs", "KhKc")] * 17, "give 1 to 16 questions (q), got 17"),
    ([_q("AhAs", "KhKc"), _q("AhXs", "KhKc")], "question 2: hand 1 'AhXs'"),
    ([_q("AhAs", "KhKc"), _q("AhAs", "AhKc")], "question 2: duplicate card Ah"),
    ([_q("AhAs", "KhKc"), _q("QQ+", "KhKc")], "question 2: hand 1: a batch takes cards, not ranges"),
    ([_q("AhAs", "KhKc") + "&seed=3"], "question 1: unknown field 'seed'"),
    ([_q("AhAs", "KhKc", game="F2L3D")], "no equity while a draw is still to come"),
    ([_q("AhAs", "KhKc", board="2c3c4c5c6c7c")], "at most 5 cards, got 6"),
    ([_q("AhAs")], "question 1: give 2 to 10 hands, got 1"),
])
async def test_a_bad_batch_is_one_clear_400_and_nothing_is_computed(harness, questions, message, monkeypatch):
    import freezeout.server.oddsdesk as oddsdesk

    computed = []
    monkeypatch.setattr(oddsdesk, "compute", lambda *question: computed.append(question))
    player = await harness.player()
    response = await player.http.get("/api/odds/batch", params={"q": questions})
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert error["code"] == "bad_message" and message in error["message"], error
    assert computed == []


async def test_a_batch_counts_its_new_questions_against_the_limit(tmp_path):
    settings = fast_settings(tmp_path, odds_per_minute=5)
    async with serve(settings, FakeClock()) as harness:
        player = await harness.player()
        three = [_q("AhAs", "KhKc", board=board) for board in ("2c3d4h", "2c3d4s", "2c3d5h")]
        assert (await player.http.get("/api/odds/batch", params={"q": three})).status_code == 200
        assert (await player.http.get("/api/odds/batch", params={"q": three})).status_code == 200  # cached: free
        more = [_q("AhAs", "KhKc", board=board) for board in ("2c3d6h", "2c3d7h", "2c3d8h")]
        refused = await player.http.get("/api/odds/batch", params={"q": more})  # 3 + 3 > 5: refused whole
        assert refused.status_code == 429 and refused.json()["error"]["code"] == "rate_limited"
        assert 0 < int(refused.headers["retry-after"]) <= 61
        assert (await player.http.get("/api/odds/batch", params={"q": more[:2]})).status_code == 200  # 3 + 2 = 5
        assert (await player.http.get("/api/odds", params={"hand": ["AhAs", "KhKc"], "board": "2c3d8h"})).status_code == 429
        harness.clock.advance(61)
        assert (await player.http.get("/api/odds/batch", params={"q": more})).status_code == 200


async def test_the_work_runs_off_the_event_loop(harness):
    """The computation is in the desk's own thread: the loop answers other requests meanwhile."""
    compute.cache_clear()
    started, release = threading.Event(), threading.Event()
    desk = harness.ctx.odds
    real = compute

    def held(*args):
        started.set()
        release.wait(60)
        return real(*args)

    import freezeout.server.oddsdesk as oddsdesk

    oddsdesk.compute = held  # type: ignore[assignment]
    try:
        player = await harness.player()
        pending = asyncio.create_task(player.http.get("/api/odds", params={"hand": ["AhAs", "KhKc"]}))
        await asyncio.to_thread(started.wait, 60)
        assert threading.current_thread() is threading.main_thread()
        assert (await player.http.get("/healthz")).status_code == 200  # served while the odds compute
        assert desk.waiting == 1
        release.set()
        assert (await pending).status_code == 200
    finally:
        oddsdesk.compute = real
        release.set()


async def test_a_refused_batch_does_not_count_against_the_limit(tmp_path):
    """A batch refused as busy (503) after it was counted is given back: only questions answered
    count, so the page that asks again once the calculator is free is not then refused (429)."""
    settings = fast_settings(tmp_path, odds_per_minute=3)
    async with serve(settings, FakeClock()) as harness:
        desk = harness.ctx.odds
        player = await harness.player()
        three = [_q("AhAs", "KhKc", board=board) for board in ("2c3d4h", "2c3d4s", "2c3d5h")]
        desk.waiting = desk.queue_limit + 1  # every turn of the queue taken
        for _ in range(3):
            busy = await player.http.get("/api/odds/batch", params={"q": three})
            assert busy.status_code == 503 and busy.json()["error"]["code"] == "busy", busy.text
            single = await player.http.get("/api/odds", params={"hand": ["AhAs", "KhKc"], "board": "2c3d6h"})
            assert single.status_code == 503
        desk.waiting = 0
        assert (await player.http.get("/api/odds/batch", params={"q": three})).status_code == 200
        # the three answered are counted: a fourth new question is over the limit
        refused = await player.http.get("/api/odds", params={"hand": ["AhAs", "KhKc"], "board": "2c3d6h"})
        assert refused.status_code == 429, refused.text
