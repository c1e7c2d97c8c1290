"""Private tables (issue #37): who may see a table that is not listed, and its invite secret.

A private table is opened with an invite secret (``secrets.token_urlsafe``: 192 random
bits) written in its ``create`` entry; its creator may renew it (an ``invite`` entry:
every older link stops at once).  The log is the table's record of truth, so a restart
or a new owner in a cluster keeps both the privacy and the current secret.

Who may see it: its creator, whoever holds a place at it (or is reserved one), and
whoever shows the current secret.  Everyone else is told what a table that does not
exist answers (the transport counts those answers per address: transport/tablegate.py).
Secrets are compared with :func:`hmac.compare_digest`, in constant time.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["SECRET_BYTES", "Privacy", "new_secret", "same_secret"]

SECRET_BYTES = 24  # 192 random bits (the issue asks for at least 128)


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def same_secret(shown: str | None, secret: str | None) -> bool:
    """Whether ``shown`` is ``secret``, in constant time (any text compares: a header with a
    non-ASCII character is simply wrong, not an error)."""
    if shown is None or secret is None:
        return False
    return hmac.compare_digest(shown.encode("utf-8", "surrogatepass"), secret.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True, slots=True)
class Privacy:
    """What decides who may see one table: its invite secret (None: a public table), its
    creator and the accounts that hold (or held) a place at it or are reserved one."""

    invite: str | None
    created_by: int | None = None
    members: frozenset[int] = frozenset()

    @property
    def private(self) -> bool:
        return self.invite is not None

    def admits(self, user_id: int | None, shown: str | None) -> bool:
        if self.invite is None:
            return True
        if user_id is not None and (user_id == self.created_by or user_id in self.members):
            return True
        return same_secret(shown, self.invite)

    def by_account(self, user_id: int | None) -> bool:
        """Whether the account alone (without the link) may see the table."""
        return self.invite is None or (user_id is not None and (user_id == self.created_by or user_id in self.members))


def members_of(user_ids: Iterable[int | None]) -> frozenset[int]:
    return frozenset(uid for uid in user_ids if uid is not None)
