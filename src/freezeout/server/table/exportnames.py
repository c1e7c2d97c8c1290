"""The names people saw, in everything a player downloads (issue #31 item 9): a bot sits at
the table as its persona (``bot-station`` is Eli, ``bot-station-2`` Flo: server/accounts.py),
so the records, PHH and PokerStars text given out call it that too — never by its account id.
A human's name is the one the record already carries.  A cash table is named for people as
well (:func:`table_label`): trackers and the player's lists show a table name, not an id.

Pure: a renaming of the record's player ids, consistent everywhere they appear (the players,
the button, each hand's cards and moves; a cash hand's posts, pots, shown and mucked hands and
its PHH's ``players``), so that the renamed file replays exactly as the original."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

from freezeout.server.accounts import bot_display

__all__ = ["cash_hand_with_names", "record_with_names", "shown_name", "table_label"]

#: Names for cash tables, as card rooms name theirs (a star and a number: "Vega IV").
_TABLE_WORDS = ("Altair", "Antares", "Arcturus", "Bellatrix", "Betelgeuse", "Capella", "Castor", "Deneb",
                "Electra", "Fomalhaut", "Hadar", "Izar", "Lyra", "Maia", "Merope", "Mira", "Polaris", "Pollux",
                "Procyon", "Regulus", "Rigel", "Sirius", "Spica", "Vega")
_NUMERALS = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII")


def shown_name(name: str) -> str:
    """The name a seat played under as people saw it: a bot's persona, else the name itself."""
    return bot_display(name) or name


def table_label(table_id: str) -> str:
    """A cash table's name for people and trackers, the same for the table every time: ``Vega IV``."""
    digest = int(hashlib.sha256(table_id.encode()).hexdigest()[:8], 16)
    word = _TABLE_WORDS[digest % len(_TABLE_WORDS)]
    return f"{word} {_NUMERALS[(digest // len(_TABLE_WORDS)) % len(_NUMERALS)]}"


def _renamer(players: Any) -> Callable[[Any], Any]:
    names = {str(p): shown_name(str(p)) for p in players} if isinstance(players, list) else {}
    return lambda name: names.get(name, name) if isinstance(name, str) else name


def record_with_names(record: Mapping[str, Any]) -> dict[str, Any]:
    """A tournament record (``freezeout.record/1``, ``/2``) with its bots called by their personas."""
    rename = _renamer(record.get("players"))
    out = dict(record)
    if isinstance(record.get("players"), list):
        out["players"] = [rename(p) for p in record["players"]]
    out["button"] = rename(record.get("button"))
    hands = record.get("hands")
    if isinstance(hands, list):
        out["hands"] = [_hand(hand, rename) if isinstance(hand, Mapping) else hand for hand in hands]
    return out


def _hand(hand: Mapping[str, Any], rename: Callable[[Any], Any]) -> dict[str, Any]:
    out = dict(hand)
    if isinstance(hand.get("hole"), Mapping):
        out["hole"] = {rename(p): cards for p, cards in hand["hole"].items()}
    if isinstance(hand.get("actions"), list):
        out["actions"] = [[rename(a[0]), *a[1:]] if isinstance(a, list) and a else a for a in hand["actions"]]
    return out


def cash_hand_with_names(hand: Mapping[str, Any]) -> dict[str, Any]:
    """A cash hand's history (``freezeout.cash_hand/1``) with its bots called by their personas."""
    from freezeout.formats.phh_toml import toml_string

    rename = _renamer(hand.get("players"))
    out = _hand(hand, rename)
    if isinstance(hand.get("players"), list):
        out["players"] = [rename(p) for p in hand["players"]]
    for key in ("shown", "mucked"):
        if isinstance(hand.get(key), list):
            out[key] = [rename(p) for p in hand[key]]
    if isinstance(hand.get("posts"), list):
        out["posts"] = [[rename(p[0]), *p[1:]] if isinstance(p, list) and p else p for p in hand["posts"]]
    if isinstance(hand.get("pots"), list):
        out["pots"] = [{**pot, "winners": [[rename(w[0]), *w[1:]] for w in pot.get("winners", ())]}
                       if isinstance(pot, Mapping) else pot for pot in hand["pots"]]
    phh = hand.get("phh")
    if isinstance(phh, str):
        lines = phh.splitlines()
        for index, line in enumerate(lines):
            if line.startswith("players = ["):
                import tomllib

                names = tomllib.loads(line)["players"]
                lines[index] = "players = [" + ", ".join(toml_string(str(rename(n))) for n in names) + "]"
        out["phh"] = "\n".join(lines) + "\n"
    return out
