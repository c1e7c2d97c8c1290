"""The collector's freezer (server/gctune.py, issue #32 item 12): long-lived objects (a burst
of connections, what survived a full collection) leave the full collection's sight, and the
cycles closed connections leave among them are taken back by a thaw once they are worth it.
Driven by a fake collector: no real collection, no clock."""

from __future__ import annotations

from freezeout.server.gctune import Freezer


class FakeCollector:
    """Counts frozen objects as the freezer's decisions would move them."""

    def __init__(self, frozen: int = 100_000) -> None:
        self.frozen = frozen
        self.young = 0  # objects a freeze would move now
        self.unreachable = 0  # what the next full collection finds (and frees) among them
        self.calls: list[str] = []

    def collect(self, generation: int = 2) -> int:
        self.calls.append(f"collect({generation})")
        found, self.unreachable = self.unreachable, 0
        self.young -= found
        return found

    def freeze(self) -> None:
        self.calls.append("freeze")
        self.frozen += self.young
        self.young = 0

    def unfreeze(self) -> None:
        self.calls.append("unfreeze")

    def get_freeze_count(self) -> int:
        self.calls.append("get_freeze_count")
        return self.frozen

    def get_objects(self, generation: int | None = None) -> list[object]:
        assert generation == 2  # the old generation only: never a walk of the frozen ones
        return [None] * self.young


class Room:
    def __init__(self) -> None:
        self.open = 0

    def __call__(self) -> int:
        return self.open


def test_a_burst_of_connections_is_frozen_once_it_is_large_enough():
    room, fake = Room(), FakeCollector()
    freezer = Freezer(room, burst=500, collector=fake)
    room.open = 499
    assert freezer.after_young_pass() is None and fake.calls == []
    room.open = 1200
    assert freezer.after_young_pass() == "freeze" and fake.calls == ["freeze"]
    room.open = 1500  # 300 more since the freeze: not yet a burst
    assert freezer.after_young_pass() is None
    room.open = 1700
    assert freezer.after_young_pass() == "freeze" and freezer.freezes == 2


def test_connections_that_come_and_go_are_neither_a_burst_nor_frozen_garbage():
    room, fake = Room(), FakeCollector()
    freezer = Freezer(room, burst=500, collector=fake)
    for step in range(20):  # 400 open, 400 close, again and again: never 500 more than the low point
        room.open = 400 if step % 2 == 0 else 0
        assert freezer.after_young_pass() is None
    assert fake.calls == [] and freezer.closed == 0  # none was frozen: young passes took their cycles


def test_a_thaw_takes_the_cycles_of_closed_connections_back_when_they_are_worth_it():
    room, fake = Room(), FakeCollector(frozen=100_000)
    freezer = Freezer(room, burst=500, garbage_per_closed=85, thaw_min=200_000, collector=fake)
    room.open = 10_000
    fake.young = 10_000 * 200
    assert freezer.after_young_pass() == "freeze" and fake.frozen == 2_100_000
    room.open = 5_000  # 5,000 closed: 425,000 objects of garbage, far less than what is alive
    assert freezer.after_young_pass() is None
    fake.frozen -= 5_000 * (200 - 85)  # freed by reference counting; their cycles stay frozen
    room.open = 0  # everyone gone: the garbage (850,000) outweighs what is frozen and alive
    fake.frozen -= 5_000 * (200 - 85)
    assert freezer.after_young_pass() == "thaw"
    assert fake.calls[-3:] == ["unfreeze", "collect(2)", "freeze"] and freezer.thaws == 1 and freezer.closed == 0
    assert "get_freeze_count" in fake.calls  # a thaw's decision counts exactly (it is about to walk them all anyway)


def test_a_little_garbage_is_never_worth_a_thaw():
    room, fake = Room(), FakeCollector(frozen=150_000)
    freezer = Freezer(room, burst=500, garbage_per_closed=85, thaw_min=200_000, collector=fake)
    room.open = 2_000
    assert freezer.after_young_pass() == "freeze"
    room.open = 0  # 170,000 objects of garbage: under thaw_min
    assert freezer.after_young_pass() is None and freezer.thaws == 0


def test_the_full_collection_freezes_what_survived_it():
    room, fake = Room(), FakeCollector()
    freezer = Freezer(room, collector=fake)
    room.open = 300
    freezer.full()
    assert fake.calls == ["collect(2)", "freeze"]
    room.open = 700  # a burst counts from the last freeze
    assert freezer.after_young_pass() is None


def test_a_disconnect_storm_needs_no_thaw_now_that_a_closed_connection_leaves_no_cycles():
    """Closed connections are freed by reference counting (tests/server/test_server_wscycles.py):
    10,000 leaving at once leave nothing frozen behind, and the default estimate orders no
    thaw (a pass over every frozen object: about 1 s at 10,000 players) for garbage that is
    not there."""
    room, fake = Room(), FakeCollector(frozen=100_000)
    freezer = Freezer(room, burst=500, collector=fake)
    room.open = 10_000
    fake.young = 10_000 * 200
    assert freezer.after_young_pass() == "freeze"
    fake.frozen -= 10_000 * 200  # every object of every connection freed as it closed
    room.open = 0
    assert freezer.after_young_pass() is None
    assert "unfreeze" not in fake.calls and freezer.thaws == 0


def test_the_frozen_count_is_kept_as_objects_are_frozen_without_walking_the_frozen_ones():
    """``gc.get_freeze_count()`` walks every frozen object (50-100 ms at 10,000 players): /metrics
    read it on every scrape.  The freezer counts what each freeze moves instead."""
    room, fake = Room(), FakeCollector(frozen=0)
    freezer = Freezer(room, burst=500, collector=fake)
    room.open = 1_000
    fake.young = 200_000
    assert freezer.after_young_pass() == "freeze" and freezer.frozen == 200_000
    fake.young = 30_000  # what aged by the next full collection
    freezer.full()
    assert freezer.frozen == 230_000
    assert "get_freeze_count" not in fake.calls


def test_what_aged_is_frozen_every_few_young_passes_so_the_full_collection_walks_little():
    """A 10-minute full collection walked every object that aged in those ten minutes and
    lived on: 0.4-0.8 s at 10,000 players, and it found nothing (docs/scaling.md "No freeze")."""
    room, fake = Room(), FakeCollector(frozen=0)
    freezer = Freezer(room, age_passes=3, collector=fake)
    fake.young = 1_000
    assert [freezer.after_young_pass() for _ in range(3)] == [None, None, "age"]
    assert fake.calls == ["freeze"] and fake.young == 0 and freezer.frozen == 1_000
    fake.young = 50  # aged since: all the full collection walks
    freezer.full()
    assert fake.calls[-2:] == ["collect(2)", "freeze"] and freezer.frozen == 1_050


def test_cycles_a_full_collection_finds_among_the_aged_count_toward_a_thaw():
    room, fake = Room(), FakeCollector(frozen=0)
    freezer = Freezer(room, age_passes=1, thaw_min=1_000, collector=fake)
    assert freezer.share > 0  # before any measure: a little assumed
    fake.young, fake.unreachable = 1_000, 500  # half of what aged was cyclic garbage
    freezer.full()
    assert freezer.share == 0.5 and freezer.garbage() == 0  # what it found it freed
    fake.young = 1_800  # aged since: 900 estimated garbage once frozen
    assert freezer.after_young_pass() == "age" and freezer.garbage() == 900
    fake.young = 400
    assert freezer.after_young_pass() == "age" and freezer.garbage() == 1_100
    fake.frozen = 1_700  # some freed by reference counting: the garbage now outweighs the rest
    assert freezer.after_young_pass() == "thaw" and freezer.garbage() == 0
    assert fake.calls[-3:] == ["unfreeze", "collect(2)", "freeze"]


def test_a_full_collection_that_finds_nothing_makes_aging_free_of_thaws():
    room, fake = Room(), FakeCollector(frozen=0)
    freezer = Freezer(room, age_passes=1, thaw_min=1, collector=fake)
    fake.young = 10_000
    freezer.full()
    assert freezer.share == 0.0
    for _ in range(50):
        fake.young = 10_000
        assert freezer.after_young_pass() == "age"
    assert freezer.garbage() == 0 and freezer.thaws == 0


def test_every_full_collection_logs_what_it_found_and_its_cpu_time(caplog):
    """What a full collection finds tells cycles from live growth (0 unreachable: nothing to
    collect), and its CPU time tells its cost from a busy machine's wait for a core."""
    import logging

    from freezeout.server.gctune import _Collections

    caplog.set_level(logging.INFO, logger="freezeout.server.gctune")
    callback = _Collections(limit=60.0)
    callback("start", {"generation": 1})
    callback("stop", {"generation": 1, "collected": 3})
    assert caplog.records == []  # a quick young pass: not logged
    callback("start", {"generation": 2})
    callback("stop", {"generation": 2, "collected": 7})
    [record] = caplog.records
    assert record.levelno == logging.INFO and record.getMessage().endswith(" ms of CPU; 7 unreachable)")
    assert callback.passes == [0, 1, 1]
