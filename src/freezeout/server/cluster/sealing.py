"""Every message a cluster puts in Redis is sealed: authenticated and encrypted (issue #23).

Redis is a shared medium: whoever can read it (an operator, a leaked
password, a backup) must not read a seat's hole cards, and whoever can write
it must not make a worker believe a command (a worker takes the ``user`` a
command carries on trust: the gateway authenticated the connection).  So
every value the bus writes (a command in an inbox stream, an update on a
table's channel, a lobby record) is sealed with AES-256-GCM under a key
derived from the cluster's **bus secret**, which gateways and workers hold
and Redis never sees:

- the **destination** (the inbox's worker or gateway, the table's channel,
  the lobby record's table) and the kind of message are the AEAD's
  associated data: a sealed frame moved to another inbox, connection or
  table does not open;
- the **plaintext** starts with the sender's wall-clock time in
  milliseconds: a frame older (or newer) than ``max_age`` is refused, and a
  command's nonce is remembered for that long, so a replayed command is
  refused too (:class:`ReplayGuard`);
- a frame names its key (4 bytes of a hash of the secret): during a
  rotation, every process opens frames under the old and the new secret and
  seals under the first one it was given (docs/scaling.md "Securing the
  bus").

AES-GCM fails catastrophically if a nonce repeats under one key, so nonces
are never drawn at random per message: each process takes a random 64-bit
prefix and counts the 32 bits after it (NIST SP 800-38D, 8.2.1), taking a
new prefix every 2**32 messages.  Prefixes of two processes collide with
probability about n**2 / 2**65 over n process lifetimes.

One AES-GCM call costs 2-3 microseconds for a 3 KB update (OpenSSL, through
the ``cryptography`` package): nothing beside a move's 1 ms.
"""

from __future__ import annotations

import hmac
import os
import struct
import time
from collections.abc import Callable, Iterable

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

__all__ = ["MIN_SECRET_CHARS", "ReplayGuard", "Seal", "Unsealable"]

MIN_SECRET_CHARS = 32  # e.g. secrets.token_urlsafe(32): 43 characters, 256 bits
_VERSION = b"\x01"
_HEAD = len(_VERSION) + 4 + 12  # version, key id, nonce
_TIME = struct.Struct(">Q")  # the sender's wall clock, in milliseconds


class Unsealable(ValueError):
    """A frame that does not open: forged, tampered, moved, sealed under an unknown key,
    too old or too new, or replayed.  The message says which; the frame has no effect."""


def _derive(secret: str, label: bytes) -> bytes:
    return hmac.digest(secret.encode(), b"freezeout bus v1 " + label, "sha256")


class Seal:
    """Seals and opens the bus's frames under the cluster's secrets (the first one seals)."""

    def __init__(self, secrets: Iterable[str], *, max_age: float = 60.0,
                 clock: Callable[[], float] = time.time) -> None:
        secrets = list(secrets)
        if not secrets:
            raise ValueError("the bus needs a secret (FREEZEOUT_BUS_SECRET or FREEZEOUT_BUS_SECRET_FILE)")
        for secret in secrets:
            if len(secret) < MIN_SECRET_CHARS:
                raise ValueError(f"a bus secret must have at least {MIN_SECRET_CHARS} characters "
                                 "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(32))')")
        self._keys: dict[bytes, AESGCM] = {}
        for secret in secrets:
            self._keys.setdefault(_derive(secret, b"key id")[:4], AESGCM(_derive(secret, b"aes-256-gcm")))
        self._key_id = _derive(secrets[0], b"key id")[:4]
        self._key = self._keys[self._key_id]
        self.max_age, self.clock = max_age, clock
        self._prefix, self._count = os.urandom(8), 0

    def _nonce(self) -> bytes:
        if self._count >= 1 << 32:
            self._prefix, self._count = os.urandom(8), 0
        nonce = self._prefix + self._count.to_bytes(4, "big")
        self._count += 1
        return nonce

    def seal(self, kind: bytes, destination: str, payload: bytes) -> bytes:
        """``payload`` for ``destination``, as a frame only a holder of the secret can open."""
        nonce = self._nonce()
        plain = _TIME.pack(int(self.clock() * 1000)) + payload
        return _VERSION + self._key_id + nonce + self._key.encrypt(nonce, plain, kind + b"\0" + destination.encode())

    def open(self, kind: bytes, destination: str, frame: bytes, *, fresh: bool = True,
             replays: ReplayGuard | None = None) -> bytes:
        """The payload of a frame sealed for ``destination``; :class:`Unsealable` if it is not
        one.  ``fresh``: refuse a frame sealed more than ``max_age`` seconds from now;
        ``replays``: refuse a frame seen before (and remember this one)."""
        if len(frame) < _HEAD + 16 or frame[:1] != _VERSION:
            raise Unsealable("not a sealed frame (no secret, or an older version)")
        key = self._keys.get(frame[1:5])
        if key is None:
            raise Unsealable("sealed under a secret this process does not hold")
        nonce = frame[5:_HEAD]
        try:
            plain = key.decrypt(nonce, frame[_HEAD:], kind + b"\0" + destination.encode())
        except InvalidTag:
            raise Unsealable("forged, tampered with, or sealed for another destination") from None
        sent = _TIME.unpack_from(plain)[0] / 1000
        now = self.clock()
        if (fresh or replays is not None) and abs(now - sent) > self.max_age:
            raise Unsealable(f"sealed {now - sent:.0f} s before now: further than {self.max_age:g} s (a replay?)")
        if replays is not None and not replays.first(frame[1:_HEAD], sent, now):
            raise Unsealable("a replay of a frame already heard")
        return plain[_TIME.size:]


class ReplayGuard:
    """The nonces of the frames heard in the last ``window`` seconds (by their sender's time):
    a frame heard twice is refused the second time.  Frames sent longer ago than ``window``
    are refused as stale by :meth:`Seal.open`, so nothing older need be remembered.  Nonces
    are kept per ``bucket`` seconds of sending time and dropped a bucket at a time, by this
    process's clock (a sender whose clock runs ahead cannot make others forget early)."""

    def __init__(self, window: float, bucket: float = 10.0) -> None:
        self.window, self.bucket = window, bucket
        self._seen: dict[int, set[bytes]] = {}
        self._pruned = -1

    def first(self, nonce: bytes, sent: float, now: float) -> bool:
        """True the first time ``nonce`` (sent at ``sent``, heard at ``now``) is seen."""
        if any(nonce in seen for seen in self._seen.values()):
            return False
        self._seen.setdefault(int(sent // self.bucket), set()).add(nonce)
        oldest = int((now - self.window) // self.bucket) - 1  # buckets before it hold only stale frames
        if oldest > self._pruned:
            self._pruned = oldest
            for index in [i for i in self._seen if i < oldest]:
                del self._seen[index]
        return True

    def __len__(self) -> int:
        return sum(len(seen) for seen in self._seen.values())
