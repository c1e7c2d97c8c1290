"""The site's names and forms shared by the PokerStars writers (formats/stars.py,
stars_cash.py, stars_summary.py): the games as PokerStars names them, the
tournament number made from a game id, Roman level numbers, ordinals and the
site's date form.  Pure: no I/O, no clock."""

from __future__ import annotations

from datetime import UTC, datetime

from freezeout.rules.games import Mix
from freezeout.rules.variant import Variant

__all__ = ["STARS_GAMES", "stars_game_name", "tournament_number"]

#: The games as PokerStars names them (without the betting structure), by
#: the variant code's game part (docs/formats.md "Variant codes").
STARS_GAMES: dict[str, str] = {
    "T": "Hold'em",
    "S": "6+ Hold'em",
    "O": "Omaha",
    "O/8": "Omaha Hi/Lo",
    "7S": "7 Card Stud",
    "7S/8": "7 Card Stud Hi/Lo",
    "R": "Razz",
    "5CD": "5 Card Draw",
    "2L1D": "Single Draw 2-7 Lowball",
    "2L3D": "Triple Draw 2-7 Lowball",
    "B": "Badugi",
}
_STRUCTURES = {"N": "No Limit", "P": "Pot Limit", "F": "Limit"}
_MIX_NAMES = {"HORSE": "HORSE", "8GAME": "8-Game"}

def stars_game_name(variant: Variant, mix: Mix | None = None) -> str:
    """The game as a PokerStars header names it: ``Hold'em No Limit``,
    ``Omaha Hi/Lo Limit``, ``7 Card Stud Limit``, ``Razz Limit``,
    ``Triple Draw 2-7 Lowball Limit`` …; in a mix (V19) the mix with the
    hand's game, as ``HORSE (Razz Limit)``."""
    code = variant.code
    name = f"{STARS_GAMES[code[1:]]} {_STRUCTURES[code[0]]}"
    if mix is not None:
        return f"{_MIX_NAMES.get(mix.code, mix.name)} ({name})"
    return name


def tournament_number(game_id: object) -> int:
    """A tournament number for a game id (PokerStars numbers are digits only):
    the id itself when it is a number, else a stable number made from it."""
    text = str(game_id)
    if text.isdigit() and len(text) <= 15:
        return int(text)
    import hashlib

    return int(hashlib.sha256(text.encode()).hexdigest()[:12], 16)


def _roman(number: int) -> str:
    numerals = ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    out = []
    for value, letters in numerals:
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


def _ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _date(when: datetime) -> str:
    """``2026/12/03 12:00:00 UTC [2026/12/03 7:00:00 ET]``: the site's form,
    its own time zone first and Eastern Time in brackets."""
    when = when.astimezone(UTC)
    text = f"{when:%Y/%m/%d %H:%M:%S} UTC"
    try:
        from zoneinfo import ZoneInfo

        eastern = when.astimezone(ZoneInfo("America/New_York"))
    except (ImportError, KeyError, OSError, ValueError):  # no time zone data: UTC alone
        return text
    return f"{text} [{eastern:%Y/%m/%d} {eastern.hour}:{eastern:%M:%S} ET]"
