"""On-disk cache for generated tables: build once, then load in milliseconds.

Tables are plain ``array.array`` values written raw after a small JSON
header and followed by a SHA-256 of everything before it, so a truncated or
tampered file is detected and rebuilt rather than trusted (no pickle: loading
a cache never runs code).  Files are written to a temporary name and renamed
into place, so concurrent first runs (pytest-xdist workers, several servers)
never see a half-written file.  The table version and byte order are part of
the file name, so an upgrade simply starts a new file.

The directory is ``$FREEZEOUT_CACHE_DIR`` if set, else
``$XDG_CACHE_HOME/freezeout``, else ``~/.cache/freezeout``.  If it cannot be
written the tables are still built and used, just not kept.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
import tempfile
from array import array
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final

__all__ = ["Tables", "cache_dir", "cache_path", "load_or_build"]

Tables = dict[str, "array[int]"]

_MAGIC: Final = b"FREEZEOUT-TABLES\n"
_DIGEST: Final = 32


def cache_dir() -> Path:
    """Where generated tables live (see the module docstring)."""
    explicit = os.environ.get("FREEZEOUT_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "freezeout"


def cache_path(name: str, version: int) -> Path:
    return cache_dir() / f"{name}-v{version}-{sys.byteorder}.bin"


def _encode(tables: Mapping[str, array[int]]) -> bytes:
    header = json.dumps([[key, value.typecode, len(value)] for key, value in tables.items()]).encode()
    parts = [_MAGIC, len(header).to_bytes(4, "little"), header]
    parts.extend(value.tobytes() for value in tables.values())
    body = b"".join(parts)
    return body + hashlib.sha256(body).digest()


def _decode(blob: bytes) -> Tables | None:
    body, digest = blob[:-_DIGEST], blob[-_DIGEST:]
    if not body.startswith(_MAGIC) or hashlib.sha256(body).digest() != digest:
        return None
    position = len(_MAGIC)
    size = int.from_bytes(body[position : position + 4], "little")
    position += 4
    layout = json.loads(body[position : position + size])
    position += size
    tables: Tables = {}
    for key, typecode, length in layout:
        value = array(typecode)
        width = value.itemsize * length
        value.frombytes(body[position : position + width])
        position += width
        tables[key] = value
    return tables if position == len(body) else None


def _write_atomically(path: Path, blob: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(blob)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def load_or_build(name: str, version: int, build: Callable[[], Tables]) -> Tables:
    """Return the cached tables ``name``/``version``, building and saving them if needed."""
    path = cache_path(name, version)
    try:
        tables = _decode(path.read_bytes())
    except (OSError, ValueError):
        tables = None
    if tables is not None:
        return tables
    tables = build()
    # A read-only home or a full disk is fine: the tables still work, just uncached.
    with contextlib.suppress(OSError):
        _write_atomically(path, _encode(tables))
    return tables
