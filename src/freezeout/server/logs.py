"""Log lines a cluster's operator can search: every line says which process wrote it
(role and node name) and, where it is about a table, the table's id as a field
(``extra={"table": ...}``), so that one table's story can be followed across
the workers that owned it.  ``json_logs`` writes each line as one JSON object
(for a log shipper); otherwise the plain format gains the same fields."""

from __future__ import annotations

import logging
import time

import orjson

__all__ = ["configure_logging"]

_FIELDS = ("table", "epoch", "worker", "gateway")


class _Stamp(logging.Filter):
    """Adds the process's role and node to every record."""

    def __init__(self, role: str, node: str) -> None:
        super().__init__()
        self.role, self.node = role, node

    def filter(self, record: logging.LogRecord) -> bool:
        record.role, record.node = self.role, self.node
        return True


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "at": round(record.created, 3), "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)),
            "level": record.levelname.lower(), "logger": record.name, "message": record.getMessage(),
            "role": getattr(record, "role", None), "node": getattr(record, "node", None),
        }
        for name in _FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return orjson.dumps(line).decode()


class _PlainFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = " ".join(f"{name}={getattr(record, name)}" for name in _FIELDS if getattr(record, name, None) is not None)
        return f"{text} [{fields}]" if fields else text


def configure_logging(*, role: str, node: str, json_lines: bool) -> None:
    """Root logging for ``freezeout serve``: INFO, one line per record, stamped."""
    handler = logging.StreamHandler()
    if json_lines:
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(_PlainFormatter("%(levelname)s:     [%(role)s %(node)s] %(name)s: %(message)s"))
    handler.addFilter(_Stamp(role, node))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.INFO)
