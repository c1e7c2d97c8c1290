"""Accounts: argon2id passwords, opaque session and API tokens (stored only
as sha256 hashes), CSRF tokens and a log-in rate limiter."""

from __future__ import annotations

import asyncio
import hashlib
import re
import secrets
import unicodedata
from collections import deque

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from freezeout.server.clock import Clock
from freezeout.server.settings import Settings
from freezeout.server.skeleton import skeleton

__all__ = ["BOT_PERSONAS", "DISPLAY_MAX", "NAME_RE", "Passwords", "RateLimiter", "bot_display", "check_display",
           "confusable_key", "display_name", "guest_name", "name_key", "new_token", "reserved", "token_hash", "valid_name",
           "valid_password"]

NAME_RE = re.compile(r"[A-Za-z0-9_-]{2,24}")  # the whole name (fullmatch: ``$`` would let "ana\n" in)
RESERVED_PREFIXES = ("bot-", "guest-")

#: The names bots play under, by level and number (``bot-medium`` is Max, a second
#: ``bot-medium-2`` at the same table Ned).  The page's names.js has the same lists
#: (tests/server/test_server_names.py checks it): a bot has one name on the table,
#: the leaderboard and its profile, and no human may take it.
BOT_PERSONAS: dict[str, tuple[str, ...]] = {
    "random": ("Ada", "Bea", "Cid", "Dot"),
    "station": ("Eli", "Flo", "Gus", "Hal"),
    "easy": ("Ivy", "Jo", "Kit", "Lou"),
    "medium": ("Max", "Ned", "Oz", "Pia"),
    "hard": ("Quinn", "Rita", "Sam", "Tess"),
}
_BOT = re.compile(r"bot-([a-z]+)(?:-(\d+))?")


def valid_name(name: str) -> bool:
    return NAME_RE.fullmatch(name) is not None and not name_key(name).startswith(RESERVED_PREFIXES) and not reserved(name)


def bot_display(name: str) -> str | None:
    """The name a bot seat plays under (``bot-medium`` -> ``Max``), None for anyone else."""
    found = _BOT.fullmatch(name)
    if found is None or found.group(1) not in BOT_PERSONAS:
        return None
    personas = BOT_PERSONAS[found.group(1)]
    index = int(found.group(2)) - 1 if found.group(2) else 0
    return personas[index] if index < len(personas) else f"{personas[0]} {index + 1}"


# -- look-alike names (issues #23-7, #32-5) ---------------------------------------
# Single characters that read alike in common fonts, each to one representative
# (after case folding: "I" is "i" by then, which is why i folds to l too), and the
# digits and signs written for letters: 0 o, 1 l, 3 e, 4 a, 5 s, 7 t, 8 b, @ a, $ s.
_ALIKE = str.maketrans({"1": "l", "i": "l", "|": "l", "!": "l", "0": "o", "3": "e", "4": "a", "5": "s", "7": "t",
                        "8": "b", "@": "a", "$": "s"})
_ALIKE_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
_SEPARATORS = re.compile(r"[\s_\-.'’·]+")


def _plain(name: str) -> str:
    """NFKC, case-folded, accents and separators dropped."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return _SEPARATORS.sub("", text)


def confusable_key(name: str) -> str:
    """A fold under which names that read alike are equal: ``Alice``, ``AIice``, ``A1ice``,
    ``Al1ce``, ``ALICE``, ``A_lice`` and ``ɑlıce`` all give ``allce``; ``M4x`` is ``Max``,
    ``8ob`` ``Bob``, ``Fr33zeout`` ``Freezeout``.  NFKC and case folding, separators dropped,
    every character to its Unicode UTS #39 prototype (server.skeleton: dotless ı, Latin
    alpha ɑ, script ɡ …), accents dropped, then the ASCII look-alikes to one character:
    I/l/1/|/!, O/0, E/3, A/4/@, S/5/$, T/7, B/8, rn/m, vv/w, cl/d.
    Only for comparing: names are kept and shown as chosen."""
    text = _SEPARATORS.sub("", unicodedata.normalize("NFKC", name).casefold())
    text = unicodedata.normalize("NFKD", skeleton(text).casefold())
    text = _SEPARATORS.sub("", "".join(c for c in text if not unicodedata.combining(c))).translate(_ALIKE)
    for pair, one in _ALIKE_PAIRS:
        while pair in text:
            text = text.replace(pair, one)
    return text


#: Folded names nobody may register or choose: the house's own words.
_RESERVED_WORDS = frozenset(confusable_key(w) for w in (
    "admin", "administrator", "moderator", "support", "staff", "system", "server", "freezeout", "dealer",
    "house", "root", "official", "you", "anonymous", "nobody", "null", "undefined", "bot", "guest"))
#: Guests' names, and bots' account names (``bot-easy``; ``botEasy`` reads the same).
_RESERVED_PREFIX_KEYS = (confusable_key("guest"), *(confusable_key("bot" + level) for level in BOT_PERSONAS))
_PERSONA_KEYS = frozenset(confusable_key(p) for names in BOT_PERSONAS.values() for p in names)


def reserved(name: str) -> bool:
    """A name only the house gives out: a bot's (``Max``, ``Max 2``, ``bot-…``), a guest's
    (``Guest 4821``, ``guest-…``) or one of the house's words — compared by
    :func:`confusable_key`, so ``MAX``, ``Rita2`` and ``Gue5t`` are reserved too."""
    key = confusable_key(name)
    numbered = confusable_key(re.sub(r"\d+$", "", _plain(name)))  # a persona with a number after it
    return key in _RESERVED_WORDS or key.startswith(_RESERVED_PREFIX_KEYS) or key in _PERSONA_KEYS or numbered in _PERSONA_KEYS


DISPLAY_MIN, DISPLAY_MAX = 2, 20
_DISPLAY_PUNCT = frozenset(" _-.'")


def check_display(raw: str) -> tuple[str, str | None]:
    """A display name as it would be kept (NFKC, spaces collapsed and trimmed) and why it
    is refused (None: acceptable as such; whether it looks like another player's name is
    the store's question).  Latin letters (accents too), digits, spaces and ``_ - . '``:
    other scripts hold letters that look exactly like Latin ones (Cyrillic а, Greek ο)."""
    name = " ".join(unicodedata.normalize("NFKC", raw).split())
    if not DISPLAY_MIN <= len(name) <= DISPLAY_MAX:
        return name, f"a display name is {DISPLAY_MIN} to {DISPLAY_MAX} characters"
    for char in name:
        if char in _DISPLAY_PUNCT or (char.isdigit() and char.isascii()):
            continue
        if not (char.isalpha() and unicodedata.name(char, "").startswith("LATIN ")) or _phonetic(char):
            return name, f"{char!r} is not allowed: use letters, digits, spaces and _ - . '"
    if not name[0].isalnum() or sum(c.isalpha() for c in name) < 2:
        return name, "a display name starts with a letter or digit and has at least two letters"
    if reserved(name) or name_key(name).startswith(RESERVED_PREFIXES):
        return name, f"{name!r} is reserved (bots, guests and the house have names of their own)"
    return name, None


def _phonetic(char: str) -> bool:
    """A phonetic letter no language's names are written in, several of which pass for
    another letter without being its UTS #39 confusable (small capital ``ʙ`` for ``B``):
    the IPA and phonetic extensions, and small capitals (#32-5)."""
    return 0x0250 <= ord(char) <= 0x02AF or 0x1D00 <= ord(char) <= 0x1DBF or "SMALL CAPITAL" in unicodedata.name(char, "")


def guest_name(number: int) -> str:
    """A guest's readable name: ``Guest 4821``.  Guests' names are the only ones with
    ``Guest`` (reserved for everyone else), so a guest cannot be mistaken for a player."""
    return f"Guest {number}"


def display_name(name: str) -> str:
    """A name as it is kept and shown: Unicode NFKC of what was typed (full-width letters
    become plain ones), otherwise the spelling chosen."""
    return unicodedata.normalize("NFKC", name)


def name_key(name: str) -> str:
    """The key under which a name is unique and looked up: NFKC, case-folded, NFKC again
    (``Victim``, ``victim`` and ``ＶＩＣＴＩＭ`` are one name)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def valid_password(password: str) -> bool:
    return 8 <= len(password) <= 200


def new_token() -> tuple[str, str]:
    """A fresh opaque token and the hash under which it is stored."""
    token = secrets.token_urlsafe(32)
    return token, token_hash(token)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Passwords:
    """argon2id hashing off the event loop (it is deliberately slow)."""

    def __init__(self, settings: Settings, hasher: PasswordHasher | None = None) -> None:
        self._hasher = hasher or PasswordHasher(time_cost=settings.argon2_time_cost, memory_cost=settings.argon2_memory_kib,
                                                type=Type.ID)
        self._nobody: str | None = None  # a hash of a random password, with the same cost (verify_nobody)

    async def hash(self, password: str) -> str:
        return await asyncio.to_thread(self._hasher.hash, password)

    async def verify(self, hashed: str, password: str) -> bool:
        def check() -> bool:
            try:
                return self._hasher.verify(hashed, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(check)

    async def verify_nobody(self, password: str) -> bool:
        """Spend a verification's time on a log-in with no hash to check (an unknown name, a
        guest): a log-in answers as slowly for a name that does not exist as for one that
        does, so its timing does not tell which names are taken (#23).  Always False.  The
        first call makes the dummy hash, which costs what a verification costs."""
        if self._nobody is None:
            self._nobody = await self.hash(secrets.token_urlsafe(16))
            return False
        await self.verify(self._nobody, password)
        return False


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds per key (a client address, a name):
    failed log-ins, or new accounts."""

    def __init__(self, limit: int, window: float, clock: Clock) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._failures: dict[str, deque[float]] = {}

    def retry_after(self, *keys: str) -> float | None:
        now = self.clock.now()
        worst: float | None = None
        for key in keys:
            times = self._failures.get(key)
            if not times:
                continue
            while times and times[0] <= now - self.window:
                times.popleft()
            if len(times) >= self.limit:
                wait = times[0] + self.window - now
                worst = wait if worst is None else max(worst, wait)
        return worst

    def fail(self, *keys: str) -> None:
        """Count one event (a failure, a sign-up) against every key."""
        now = self.clock.now()
        for key in keys:
            self._failures.setdefault(key, deque()).append(now)
        if len(self._failures) > 100_000:  # bound memory under a flood of names
            self._failures.clear()

    def reset(self, *keys: str) -> None:
        for key in keys:
            self._failures.pop(key, None)
