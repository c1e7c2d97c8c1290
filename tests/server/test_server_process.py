"""What the server does to the process it runs in: the garbage collector's
tuning belongs to ``freezeout serve`` alone and is undone at shutdown
(issue #10, finding 14); a fixed deck needs an explicit test mode, which
the log announces (finding 15)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from freeports import free_port
from freezeout.server.clock import FakeClock
from freezeout.server.settings import Settings

from serverkit import fast_settings, serve

ROOT = Path(__file__).resolve().parents[2]


def gc_state() -> tuple[object, ...]:
    return gc.get_threshold(), gc.get_freeze_count(), tuple(gc.callbacks), gc.isenabled()


async def test_an_app_leaves_the_garbage_collector_alone(tmp_path):
    before = gc_state()
    async with serve(fast_settings(tmp_path), FakeClock()) as h:
        player = await (await h.player()).guest()
        assert gc_state() == before
        assert "freezeout_gc_seconds" not in (await player.http.get("/metrics")).text  # nothing counted: nothing tuned
    assert gc_state() == before


async def test_the_serve_tuning_is_undone_at_shutdown(tmp_path):
    before = gc_state()
    async with serve(fast_settings(tmp_path), FakeClock(), tune_process=True) as h:
        assert gc.get_threshold() == (100_000, 20, 1_000_000) and gc.get_freeze_count() > 0
        assert len(gc.callbacks) == len(before[2]) + 1
        gc.collect(1)  # a pass the tuning counts, shown in /metrics (bench/load.py reads its share of the CPU)
        metrics = (await (await h.player()).http.get("/metrics")).text
        seconds = [float(line.split()[1]) for line in metrics.splitlines() if line.startswith("freezeout_gc_seconds ")]
        assert len(seconds) == 1 and seconds[0] > 0
    assert gc_state() == before
    async with serve(fast_settings(tmp_path, gc_tuning=False), FakeClock(), tune_process=True):
        assert gc_state() == before  # the setting turns it off


def test_a_fixed_deck_needs_the_explicit_test_mode():
    with pytest.raises(ValidationError, match="test mode"):
        Settings(deck_seed="rigged")
    with pytest.raises(ValidationError, match="test mode"):
        Settings(bot_only_tables=True)
    assert Settings(deck_seed="fine", test_mode=True).deck_seed == "fine"


def test_serve_refuses_a_fixed_deck_outside_test_mode(tmp_path):
    env = {**os.environ, "FREEZEOUT_DECK_SEED": "rigged"}
    env.pop("FREEZEOUT_TEST_MODE", None)
    command = [sys.executable, "-m", "freezeout.cli", "serve", "--port", str(free_port()),
               "--db", f"sqlite:///{tmp_path / 'x.sqlite'}"]
    try:
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail("the server started with a fixed deck outside test mode")
    assert done.returncode == 2
    assert "deck_seed (a fixed deck) is allowed only in test mode" in done.stderr
    assert not (tmp_path / "x.sqlite").exists(), "refused before anything was created"
