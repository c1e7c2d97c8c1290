"""Benchmark freezeout.evaluate against its peers, side by side on the same hands.

    .venv/bin/pip install treys phevaluator eval7 pokerkit deuces pokereval pokerfast   # bench-only
    .venv/bin/python bench/bench_evaluator.py [--quick] [--json OUT]

Sections (each peer is skipped, with a note, when it is not installed):

1. import: ``import freezeout`` (must not build tables), the evaluator's
   first-ever import (empty cache: tables generated), a warm import, and the
   numba engine's first call with an empty numba cache (compile) and warm.
   Each in a fresh subprocess, timed inside it.
2. single call: seven-card hands one Python call at a time.  Every library
   gets the same hands, pre-converted to its own card type outside the timed
   loop; its results are checked to order the hands exactly as ours do.
3. batch: millions of seven-card hands on one core: numba, numpy, a bare C
   loop (bench/c_baseline.c, same algorithm, gcc -O2), pokerfast's native
   batch call, and per-call loops of the C/Cython peers.
4. enumeration: all 133,784,560 seven-card hands (numba and C).
5. the other rankings (short-deck, lows, badugi, Omaha) against PokerKit,
   per call and in batch: :mod:`bench_rankings` (also runnable alone, with
   table build times and ``--repeat``).
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
SRC = HERE.parent / "src"
RANKS = "23456789TJQKA"
SUITS = "shdc"
Results = dict[str, Any]


def text(card: int) -> str:
    return RANKS[card >> 2] + SUITS[card & 3]


def best_time(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


# --------------------------------------------------------------------------- import
def subprocess_seconds(code: str, env: dict[str, str]) -> float:
    full_env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}", **env}
    wrapped = f"import time\n_t = time.perf_counter()\n{code}\nprint(time.perf_counter() - _t)"
    output = subprocess.run(
        [sys.executable, "-c", wrapped], env=full_env, check=True, capture_output=True, text=True
    ).stdout
    return float(output.strip().splitlines()[-1])


def bench_import() -> Results:
    with tempfile.TemporaryDirectory() as tables_dir, tempfile.TemporaryDirectory() as numba_dir:
        env = {"FREEZEOUT_CACHE_DIR": tables_dir, "NUMBA_CACHE_DIR": numba_dir}
        bare = subprocess_seconds("import freezeout", env)
        built_anything = any(Path(tables_dir).iterdir())
        cold = subprocess_seconds("from freezeout.evaluate import hand_rank", env)
        warm = min(subprocess_seconds("from freezeout.evaluate import hand_rank", env) for _ in range(3))
        batch_code = (
            "import numpy as np\nfrom freezeout.evaluate import evaluate_batch\n"
            "evaluate_batch(np.arange(7, dtype=np.int8).reshape(1, 7))"
        )
        numpy_only = min(subprocess_seconds("import numpy", env) for _ in range(3))
        numba_only = min(subprocess_seconds("import numba", env) for _ in range(3))
        compile_first = subprocess_seconds(batch_code, env)
        compile_warm = min(subprocess_seconds(batch_code, env) for _ in range(3))
    return {
        "import freezeout (s)": bare,
        "import freezeout built tables?": built_anything,
        "first-ever import, tables generated (s)": cold,
        "warm import, tables from cache (s)": warm,
        "import numpy alone (s)": numpy_only,
        "import numba alone (s)": numba_only,
        "batch first call, numba compiles (s)": compile_first,
        "batch first call, numba cache warm (s)": compile_warm,
    }


# --------------------------------------------------------------------------- single
def same_order(ours: Sequence[int], theirs: Sequence[int], *, lower_is_better: bool) -> bool:
    """True when ``theirs`` ranks the hands exactly as ``ours`` does, ties included."""
    signed = [-value for value in theirs] if lower_is_better else list(theirs)
    pairs = sorted(set(zip(ours, signed, strict=True)))
    return all(
        (a_ours == b_ours) == (a_theirs == b_theirs) and a_theirs <= b_theirs
        for (a_ours, a_theirs), (b_ours, b_theirs) in pairwise(pairs)
    ) and len({ours_value for ours_value, _ in pairs}) == len(pairs)


def peers(hands: list[list[int]]) -> dict[str, tuple[Callable[[], list[int]], bool, int]]:
    """name -> (run over the hands, lower_is_better, how many hands it runs)."""
    found: dict[str, tuple[Callable[[], list[int]], bool, int]] = {}
    strings = [[text(card) for card in hand] for hand in hands]
    for module_name in ("treys", "deuces"):
        try:
            module = __import__(module_name)
        except ImportError:
            continue
        evaluator = module.Evaluator()
        converted = [[module.Card.new(card) for card in hand] for hand in strings]
        found[module_name] = (
            lambda evaluator=evaluator, converted=converted: [
                evaluator.evaluate(hand[:2], hand[2:]) for hand in converted
            ],
            True,
            len(hands),
        )
    try:
        from pokereval.card import Card as PokerevalCard
        from pokereval.hand_evaluator import HandEvaluator

        seven = HandEvaluator.Seven.evaluate_rank
        converted_pe = [[PokerevalCard(card[0], card[1]) for card in hand] for hand in strings]
        found["pokereval"] = (lambda: [seven(hand) for hand in converted_pe], True, len(hands))
    except ImportError:
        pass
    try:
        from pokerfast import eval7 as pokerfast_eval7

        tuples = [tuple(hand) for hand in strings]
        found["pokerfast.eval7 (pure Python)"] = (
            lambda: [pokerfast_eval7(hand) for hand in tuples],
            False,
            len(hands),
        )
    except ImportError:
        pass
    try:
        from pokerkit import Card as PokerkitCard
        from pokerkit import StandardHighHand

        few = min(len(hands), 400)
        holes = [tuple(PokerkitCard.parse("".join(hand[:2]))) for hand in strings[:few]]
        boards = [tuple(PokerkitCard.parse("".join(hand[2:]))) for hand in strings[:few]]

        def run_pokerkit() -> list[int]:
            hands_pk = [
                StandardHighHand.from_game(hole, board) for hole, board in zip(holes, boards, strict=True)
            ]
            order = sorted(range(few), key=lambda i: hands_pk[i])
            ranks = [0] * few
            for position, index in enumerate(order):
                if position and hands_pk[order[position - 1]] == hands_pk[index]:
                    ranks[index] = ranks[order[position - 1]]
                else:
                    ranks[index] = position
            return ranks

        found["pokerkit"] = (run_pokerkit, False, few)
    except ImportError:
        pass
    try:
        import phevaluator

        converted_ph = [[phevaluator.Card(card) for card in hand] for hand in strings]
        found["phevaluator (C extension)"] = (
            lambda: [phevaluator.evaluate_cards(*hand) for hand in converted_ph],
            True,
            len(hands),
        )
    except ImportError:
        pass
    try:
        import eval7

        converted_e7 = [[eval7.Card(card) for card in hand] for hand in strings]
        found["eval7 (Cython)"] = (lambda: [eval7.evaluate(hand) for hand in converted_e7], False, len(hands))
    except ImportError:
        pass
    return found


def race(contenders: dict[str, tuple[Callable[[], object], int]], rounds: int) -> dict[str, float]:
    """Best seconds per item of each contender, run in turns so that outside load hits all alike."""
    best = dict.fromkeys(contenders, float("inf"))
    for _ in range(rounds):
        for name, (run, items) in contenders.items():
            started = time.perf_counter()
            run()
            best[name] = min(best[name], (time.perf_counter() - started) / items)
    return best


def bench_single(count: int, rounds: int) -> Results:
    from freezeout.cards import Card
    from freezeout.evaluate import evaluate, hand_rank

    rng = random.Random(2024)
    hands = [rng.sample(range(52), 7) for _ in range(count)]
    as_cards = [tuple(Card(card) for card in hand) for hand in hands]
    ours = [hand_rank(hand) for hand in hands]
    base_name = "freezeout hand_rank (list of int)"
    contenders: dict[str, tuple[Callable[[], object], int]] = {
        base_name: (lambda: [hand_rank(hand) for hand in hands], count),
        "freezeout hand_rank (tuple of Card)": (lambda: [hand_rank(hand) for hand in as_cards], count),
        "freezeout evaluate() (HandValue, validated)": (lambda: [evaluate(hand) for hand in as_cards], count),
    }
    agreement: dict[str, bool] = {}
    for name, (run, lower_is_better, done) in peers(hands).items():
        agreement[name] = same_order(ours[:done], run(), lower_is_better=lower_is_better)
        contenders[name] = (run, done)
    best = race(contenders, rounds)
    results: Results = {}
    for name, seconds in best.items():
        results[name] = {"ns_per_hand": seconds * 1e9, "peer_time / ours": seconds / best[base_name]}
        if name in agreement:
            results[name]["orders hands like ours"] = agreement[name]
    return results


# --------------------------------------------------------------------------- batch
def build_c(workdir: Path) -> ctypes.CDLL | None:
    library = workdir / "c_baseline.so"
    try:
        subprocess.run(
            ["gcc", "-O2", "-shared", "-fPIC", "-o", str(library), str(HERE / "c_baseline.c")],
            check=True,
            capture_output=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    lib = ctypes.CDLL(str(library))
    pointer = ctypes.c_void_p
    lib.rank_rows.restype = ctypes.c_int64
    lib.rank_rows.argtypes = [pointer, ctypes.c_int64, ctypes.c_int, pointer, ctypes.c_uint64]
    lib.rank_rows.argtypes += [pointer, pointer, pointer, pointer]
    lib.all_seven.restype = None
    lib.all_seven.argtypes = [pointer, ctypes.c_uint64, pointer, pointer, pointer, pointer]
    return lib


def _ptr(array: np.ndarray) -> int:
    return int(array.ctypes.data)


def random_hands(count: int, size: int, seed: int) -> np.ndarray:
    """``count`` uniformly random hands of ``size`` distinct cards, as uint8 (redraws rows with repeats)."""
    rng = np.random.default_rng(seed)
    cards = rng.integers(0, 52, size=(count, size), dtype=np.uint8)
    while True:
        ordered = np.sort(cards, axis=1)
        redo = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
        if not redo.size:
            return cards
        cards[redo] = rng.integers(0, 52, size=(redo.size, size), dtype=np.uint8)


def bench_batch(count: int, rounds: int) -> Results:
    from freezeout.evaluate import batch, kernels

    cards = random_hands(count, 7, seed=7)
    expected = batch.evaluate_batch(cards, engine="numba")
    few = min(count, 1_000_000)
    assert (batch.evaluate_batch(cards[:few], engine="numpy") == expected[:few]).all()
    out = np.empty(count, dtype=np.int32)
    tables = (batch.CARD_KEYS, batch.HASH_MULTIPLIER, batch.HASH_OFFSETS, batch.HASH_SLOTS, batch.FLUSH_RANKS)
    contenders: dict[str, tuple[Callable[[], object], int]] = {
        "numba evaluate_batch (validated)": (lambda: batch.evaluate_batch(cards, engine="numba"), count),
        "numba kernel alone": (lambda: kernels.rank_rows(cards, *tables, out), count),
        "numpy evaluate_batch (no numba)": (lambda: batch.evaluate_batch(cards[:few], engine="numpy"), few),
    }
    seconds: Results = {}
    with tempfile.TemporaryDirectory() as workdir:
        lib = build_c(Path(workdir))
        if lib is not None:
            c_out = np.empty(count, dtype=np.int32)

            def run_c() -> None:
                lib.rank_rows(
                    _ptr(cards), count, 7, _ptr(batch.CARD_KEYS), int(batch.HASH_MULTIPLIER),
                    _ptr(batch.HASH_OFFSETS), _ptr(batch.HASH_SLOTS), _ptr(batch.FLUSH_RANKS), _ptr(c_out),
                )  # fmt: skip

            run_c()
            assert (c_out == expected).all(), "C baseline disagrees"
            contenders["C baseline (gcc -O2, same algorithm)"] = (run_c, count)
            histogram = np.zeros(int(batch.FLUSH_RANKS.max()) + 1, dtype=np.int64)

            def run_c_all_seven() -> None:
                histogram[:] = 0
                lib.all_seven(
                    _ptr(batch.CARD_KEYS), int(batch.HASH_MULTIPLIER), _ptr(batch.HASH_OFFSETS),
                    _ptr(batch.HASH_SLOTS), _ptr(batch.FLUSH_RANKS), _ptr(histogram),
                )  # fmt: skip
                assert int(histogram.sum()) == 133_784_560

            seconds = race({"C: all 133,784,560 seven-card hands (s)": (run_c_all_seven, 1)}, 5)
        contenders.update(peer_batches(cards))
        best = race(contenders, rounds)
    results: Results = {name: 1e-6 / per_item for name, per_item in best.items()}
    if lib is None:
        results["C baseline"] = "gcc not available"
    results.update(seconds)
    return results


def peer_batches(cards: np.ndarray) -> dict[str, tuple[Callable[[], object], int]]:
    """Batch-style runs of the peers over the same hands (fewer for the per-call loops)."""
    found: dict[str, tuple[Callable[[], object], int]] = {}
    strings = [[text(card) for card in row] for row in cards[:50_000].tolist()]
    try:
        from pokerfast import equity

        lib = equity._load()
        raw = cards.tobytes()  # pokerfast also indexes cards 4 * rank + suit
        out = (ctypes.c_uint16 * len(cards))()
        found["pokerfast native pf_evaluate (raw bytes, C++)"] = (
            lambda: lib.pf_evaluate(raw, len(cards), 7, out),
            len(cards),
        )
        found["pokerfast equity.evaluate (its Python API)"] = (lambda: equity.evaluate(strings), len(strings))
    except Exception:  # not installed, or no native library for this platform
        pass
    try:
        import phevaluator

        ph_cards = [[phevaluator.Card(card) for card in hand] for hand in strings]
        found["phevaluator per call loop"] = (
            lambda: [phevaluator.evaluate_cards(*hand) for hand in ph_cards],
            len(ph_cards),
        )
    except ImportError:
        pass
    try:
        import eval7

        e7_cards = [[eval7.Card(card) for card in hand] for hand in strings]
        found["eval7 per call loop"] = (lambda: [eval7.evaluate(hand) for hand in e7_cards], len(e7_cards))
    except ImportError:
        pass
    return found


# --------------------------------------------------------------------------- main
def bench_enumeration() -> Results:
    from freezeout.evaluate.batch import all_seven_card_rank_counts

    all_seven_card_rank_counts()  # compile or load from the numba cache
    best = race({"numba: all 133,784,560 seven-card hands (s)": (all_seven_card_rank_counts, 1)}, 5)
    return dict(best)


_RANKINGS_SINGLE: Results = {}


def _rankings(section: str, count: int) -> Results:
    """The rankings sections of bench_rankings.py, run in this process."""
    import bench_rankings

    if section == "single":
        _RANKINGS_SINGLE.update(bench_rankings.bench_single(count, 7))
        return _RANKINGS_SINGLE
    return bench_rankings.bench_batch(count, 7, _RANKINGS_SINGLE)


def show(title: str, results: Results) -> None:
    print(f"\n## {title}")
    for key, value in results.items():
        if isinstance(value, dict):
            cells = ", ".join(
                f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in value.items()
            )
            print(f"  {key:48} {cells}")
        elif isinstance(value, float):
            print(f"  {key:48} {value:.4g}")
        else:
            print(f"  {key:48} {value}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="smaller samples")
    parser.add_argument("--json", type=Path, help="also write the results here")
    options = parser.parse_args()
    sys.path.insert(0, str(SRC))
    singles = 5_000 if options.quick else 30_000
    rows = 1_000_000 if options.quick else 4_000_000
    report: dict[str, Results] = {}
    for title, run in (
        ("import (seconds)", bench_import),
        ("single call, 7 cards (ns per hand; ratio = peer time / freezeout hand_rank time)",
         lambda: bench_single(singles, 9)),
        ("batch, 7 cards, one core (million hands per second)", lambda: bench_batch(rows, 15)),
        ("enumeration", bench_enumeration),
        ("rankings, single call (ns per hand; ratio = PokerKit time / ours)",
         lambda: _rankings("single", singles)),
        ("rankings, batch, one core (million hands per second)", lambda: _rankings("batch", rows)),
    ):  # fmt: skip
        report[title] = run()
        show(title, report[title])
    if options.json:
        options.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
