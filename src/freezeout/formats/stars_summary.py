"""A tournament summary as PokerStars writes one (docs/formats.md "PokerStars hand
histories"): the file trackers read beside the hands for a tournament's entrants, its
times and each player's place (issue #32 item 10).

::

    PokerStars Tournament #77, No Limit Hold'em
    Freeroll
    3 players
    Total Prize Pool: 0
    Tournament started 2026/12/03 12:00:05 UTC [2026/12/03 7:00:05 ET]

      1: cy (Freezeout),
      2: ana (Freezeout),
      3: bo (Freezeout),

    Tournament finished 2026/12/03 12:31:40 UTC [2026/12/03 7:31:40 ET]
    You finished in 2nd place.

The game is named limit first, as the site's summaries do (``Limit Razz``, ``Pot Limit
Omaha Hi/Lo``; a mix by its name, ``HORSE``).  Play chips: ``Freeroll`` and a prize pool of
0.  The site writes each player's country in the brackets; the room knows none and writes
its own name.  Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from freezeout.formats.record import RecordError, ReplayResult, parse_record, replay_record
from freezeout.formats.stars import _loaded, _number, hand_times
from freezeout.formats.stars_names import STARS_GAMES, _date, _ordinal
from freezeout.rules.variant import Variant

__all__ = ["record_json_to_summary", "summary_game_name", "tournament_summary"]

_LIMITS = {"N": "No Limit", "P": "Pot Limit", "F": "Limit"}
_MIXES = {"HORSE": "HORSE", "8GAME": "8-Game"}


def summary_game_name(variant: Variant, mix_code: str | None = None) -> str:
    """``No Limit Hold'em``, ``Limit 7 Card Stud Hi/Lo``; a mix: ``HORSE``, ``8-Game``."""
    if mix_code is not None:
        return _MIXES.get(mix_code, mix_code)
    return f"{_LIMITS[variant.code[0]]} {STARS_GAMES[variant.code[1:]]}"


def tournament_summary(result: ReplayResult, *, tournament: int, started: datetime, finished: datetime,
                       hero: str | None = None) -> str:
    """The summary of a finished tournament (its record replayed)."""
    if not result.finished:
        raise RecordError("the tournament is not over: its summary is written once it has a winner")
    config = result.tournament.config
    game = summary_game_name(config.variant, config.mix.code if config.mix is not None else None)
    lines = [
        f"PokerStars Tournament #{tournament}, {game}",
        "Freeroll",
        f"{len(config.players)} players",
        "Total Prize Pool: 0",
        f"Tournament started {_date(started)}",
        "",
    ]
    for player, place in sorted(result.standings, key=lambda item: item[1] or 0):
        lines.append(f"  {place}: {player} (Freezeout),")
    lines += ["", f"Tournament finished {_date(finished)}"]
    if hero is not None:
        place = dict(result.standings)[hero]
        lines.append(f"You finished in {_ordinal(place or 0)} place.")
    return "\n".join(lines) + "\n"


def record_json_to_summary(record: str | bytes | Mapping[str, Any], *, hero: str | None = None,
                           when: datetime | None = None, finished: datetime | None = None,
                           tournament: int | None = None) -> str:
    """A finished record's tournament summary (``freezeout record stars --summary``, the room's
    download).  The start is the first hand's time (else ``when``), the end ``finished`` (else
    the last hand's time).  Bad input or an unfinished game raise :class:`RecordError`."""
    data = _loaded(record)
    result = replay_record(parse_record(data))
    players = result.tournament.config.players
    if hero is not None and hero not in players:
        raise RecordError(f"hero {hero!r} is not a player of this record (players: {', '.join(players)})")
    times = [at for at in hand_times(data) if at is not None]
    moment = when or datetime.fromtimestamp(0, UTC)
    start = times[0] if times else moment
    end = finished or (times[-1] if times else start)
    return tournament_summary(result, tournament=_number(data, players, tournament), started=start, finished=end,
                              hero=hero)
