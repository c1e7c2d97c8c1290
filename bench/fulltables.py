"""Issue #34 "Speed": bench/load.py at full tables (``--sizes 4,9``).

Pure helpers: which seat counts a run may use for a game and format (C12: the
house game's freezeout seats 4 at most, its cash table 10; other games their
maximum), and the side-by-side table of one run per seat count with each
size's ratios to the smallest size of the run (p99, CPU-ms per action, bytes
per update).  A 10-seat table sends each update to 10 seats: the cost per move
may grow with the fan-out, not beyond it.
"""

from __future__ import annotations

from typing import Any

MOST_SEATS = 10  # the layout's most (server/gamespec.py LAYOUT_MAX_SEATS)


def parse_sizes(text: str) -> list[int]:
    """``"4,9"`` -> ``[4, 9]``: distinct seat counts 2..10, in the order given."""
    sizes: list[int] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if not part.isdigit() or not 2 <= int(part) <= MOST_SEATS:
            raise ValueError(f"a table size is a whole number from 2 to {MOST_SEATS}, not {part!r}")
        if int(part) in sizes:
            raise ValueError(f"table size {part} is given twice")
        sizes.append(int(part))
    if not sizes:
        raise ValueError("no table size given (e.g. --sizes 4,9)")
    return sizes


def size_refused(game: str, cash: bool, size: int) -> str | None:
    """Why the room would refuse tables of ``size`` seats of ``game`` (cash or freezeout), or None:
    asked before a run starts, so that a run does not set up a thousand tables to be refused."""
    from freezeout.server.gamespec import GameRefused, GameSpec

    try:
        spec = GameSpec.parse(game, format="cash") if cash else GameSpec.parse(game)
        if size > spec.max_seats:
            where = "cash tables" if cash else "freezeouts"
            return f"{game} {where} seat at most {spec.max_seats} (C12), not {size}"
        if size < spec.min_seats:
            return f"{game} needs at least {spec.min_seats} players, not {size}"
    except GameRefused as refused:
        return str(refused)
    return None


def with_ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each row (``table_size``, ``p99_ms``, ``cpu_ms_per_action``, ``bytes_per_update_mean``) with
    its ratios to the row of the smallest table size: ``p99_ratio``, ``cpu_ratio``, ``bytes_ratio``
    (None where the base is missing or zero)."""
    if not rows:
        return []
    base = min(rows, key=lambda row: row["table_size"])

    def ratio(row: dict[str, Any], key: str) -> float | None:
        low, high = base.get(key), row.get(key)
        return round(high / low, 2) if low and high is not None else None

    return [{**row, "p99_ratio": ratio(row, "p99_ms"), "cpu_ratio": ratio(row, "cpu_ms_per_action"),
             "bytes_ratio": ratio(row, "bytes_per_update_mean")} for row in rows]


def sizes_table(rows: list[dict[str, Any]]) -> str:
    """The side-by-side text of :func:`with_ratios`' rows (ratios to the smallest size)."""
    rows = with_ratios(rows)
    base = min((row["table_size"] for row in rows), default=0)
    head = (f"{'seats':>5} {'players':>7} {'act/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'CPU-ms/act':>10} {'B/upd':>7} "
            f"{'p99/' + str(base):>6} {'CPU/' + str(base):>6} {'B/' + str(base):>6} {'errors':>6}  load avg (1 min)")
    lines = [head, "-" * len(head)]

    def num(value: float | None, width: int, digits: int) -> str:
        return f"{value:>{width}.{digits}f}" if value is not None else f"{'-':>{width}}"

    for row in rows:
        lines.append(
            f"{row['table_size']:>5} {row['players']:>7} {row['actions_per_second']:>7} {row['p50_ms']:>7} {row['p99_ms']:>7} "
            f"{num(row['cpu_ms_per_action'], 10, 3)} {num(row['bytes_per_update_mean'], 7, 0)} "
            f"{num(row['p99_ratio'], 6, 2)} {num(row['cpu_ratio'], 6, 2)} {num(row['bytes_ratio'], 6, 2)} "
            f"{row['errors']:>6}  {', '.join(f'{x:.2f}' for x in row['load_average'])}"
            + ("  INVALID (refused moves)" if row["errors"] else ""))
    return "\n".join(lines)
