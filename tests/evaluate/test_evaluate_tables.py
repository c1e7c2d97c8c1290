"""Generated tables and their disk cache."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest

from freezeout.evaluate import cache, tables
from freezeout.evaluate.high import RANK_COUNT


def test_class_list_shape() -> None:  # R19
    classes = tables.five_card_classes()
    assert len(classes) == RANK_COUNT == 7_462
    assert classes == sorted(set(classes))
    assert classes[0] == (tables.HIGH_CARD, (5, 3, 2, 1, 0))  # 7-5-4-3-2, the worst hand
    assert classes[-1] == (tables.STRAIGHT_FLUSH, (12,))  # royal flush
    assert (tables.STRAIGHT, (3,)) in classes  # the wheel, five high
    assert tables.category_starts() == (1, 1278, 4138, 4996, 5854, 5864, 7141, 7297, 7453)


def test_multiset_counts() -> None:
    sizes = [sum(counts) for counts in tables.rank_multisets()]
    assert (sizes.count(5), sizes.count(6), sizes.count(7)) == (6_175, 18_395, 49_205)


def test_perfect_hash_is_exact() -> None:
    loaded = tables.load_high_tables()
    multiplier = loaded["hash_multiplier"][0]
    offsets = loaded["hash_offsets"].tolist()
    slots = loaded["hash_slots"]
    pairs = zip(loaded["nonflush_keys"], loaded["nonflush_ranks"], strict=True)
    assert all(slots[tables.hash_slot(key, multiplier, offsets)] == rank for key, rank in pairs)


def test_cache_round_trip_and_corruption(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FREEZEOUT_CACHE_DIR", str(tmp_path))
    builds: list[int] = []

    def build() -> cache.Tables:
        builds.append(1)
        return {"a": array("H", [1, 2, 3]), "b": array("Q", [2**40])}

    first = cache.load_or_build("demo", 7, build)
    second = cache.load_or_build("demo", 7, build)
    assert first == second and len(builds) == 1
    path = cache.cache_path("demo", 7)
    assert path.parent == tmp_path and "v7" in path.name
    assert not list(tmp_path.glob("*.tmp"))
    path.write_bytes(path.read_bytes()[:-5] + b"xxxxx")  # corrupt: rebuilt, not trusted
    assert cache.load_or_build("demo", 7, build) == first and len(builds) == 2
    path.write_bytes(b"")
    assert cache.load_or_build("demo", 7, build) == first and len(builds) == 3


def test_unwritable_cache_still_works(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setenv("FREEZEOUT_CACHE_DIR", str(blocker / "sub"))
    assert cache.load_or_build("demo", 1, lambda: {"a": array("H", [9])}) == {"a": array("H", [9])}


def test_cache_dir_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("FREEZEOUT_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "freezeout"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.cache_dir() == Path.home() / ".cache" / "freezeout"
