"""Replaying one cash hand's history (``freezeout.cash_hand/1``, docs/formats.md "Cash hand
histories"): what ``freezeout record replay`` and ``record phh`` do with such a file.

A cash hand is not a tournament record: it has no rules of its own to start from (the
table's options, who posted what and what was owed are the table's), so it carries the
hand as PHH, whose setup says all of that (starting stacks, blinds and straddles, dead
blinds as antes, C4, C6) and which our PHH replayer plays with the rake (``_rake``, C5)
and a second run (``_second_board``, C7).  Replaying the hand is playing that PHH with
the rules and checking that it ends where the history says: the same stacks, player by
player, the same pots won by the same players, the same rake, and every chip accounted for (the stacks at the start are the
stacks at the end plus the rake).  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from freezeout.formats.phh import PhhError
from freezeout.formats.record import RecordError
from freezeout.rules.events import PotAwarded
from freezeout.rules.variant import VARIANTS

__all__ = ["CASH_HAND_FORMAT", "is_cash_hand", "replay_cash_hand"]

CASH_HAND_FORMAT = "freezeout.cash_hand/1"


def is_cash_hand(data: object) -> bool:
    """Whether a parsed JSON document is one cash hand's history."""
    return isinstance(data, Mapping) and data.get("format") == CASH_HAND_FORMAT


def replay_cash_hand(data: Mapping[str, Any]) -> dict[str, Any]:
    """Replay the hand's PHH with the rules; the replay result as JSON
    (``{"format", "number", "game", "players", "finishing_stacks", "rake", "matches"}``,
    stacks in the history's player order).  :class:`RecordError` naming the first
    difference for a history that does not replay to its own outcome."""
    from freezeout.formats.phh_replay import replay_phh_text

    phh = data.get("phh")
    players = data.get("players")
    stacks = data.get("stacks")
    finishing = data.get("finishing_stacks")
    rake = data.get("rake")
    if not isinstance(phh, str):
        raise RecordError("the cash hand has no PHH to replay (its 'phh' field)")
    if not (isinstance(players, list) and isinstance(stacks, list) and isinstance(finishing, list)
            and len(players) == len(stacks) == len(finishing) and isinstance(rake, int)):
        raise RecordError("a cash hand needs 'players', 'stacks' and 'finishing_stacks' of one length, and 'rake'")
    try:
        replayed = replay_phh_text(phh)
    except (PhhError, ValueError) as error:
        raise RecordError(f"hand {data.get('number')}: its PHH does not replay: {error}") from None
    game = VARIANTS.get(str(data.get("game")))
    if game is not replayed.setup.variant:
        raise RecordError(f"hand {data.get('number')}: its game {data.get('game')!r} is not the game its PHH "
                          f"plays ({replayed.setup.variant.code})")
    names = replayed.hand.players
    if sorted(names) != sorted(str(name) for name in players):
        raise RecordError(f"hand {data.get('number')}: the PHH's players {list(names)} are not the hand's {players}")
    ours = {name: int(value) for name, value in zip(names, replayed.finishing_stacks, strict=True)}
    for name, stated in zip(players, finishing, strict=True):
        if ours[str(name)] != stated:
            raise RecordError(f"hand {data.get('number')}: {name} ends with {ours[str(name)]} on replay, "
                              f"the history says {stated}")
    if replayed.state.rake != rake:
        raise RecordError(f"hand {data.get('number')}: the replay rakes {replayed.state.rake}, the history says {rake}")
    awarded = sorted((event.amount, sorted((names[seat], chips) for seat, chips in event.shares))
                     for event in replayed.events if isinstance(event, PotAwarded))
    pots = data.get("pots")
    stated = sorted((pot.get("amount"), sorted((str(w[0]), w[1]) for w in pot.get("winners", ())))
                    for pot in pots if isinstance(pot, Mapping)) if isinstance(pots, list) else None
    if stated != awarded:
        raise RecordError(f"hand {data.get('number')}: the replay awards {awarded}, the history's pots say {stated}")
    if sum(stacks) != sum(finishing) + rake:
        raise RecordError(f"hand {data.get('number')}: {sum(stacks)} chips at the start, "
                          f"{sum(finishing)} at the end and {rake} raked")
    return {"format": CASH_HAND_FORMAT, "number": data.get("number"), "game": data.get("game"),
            "players": list(players), "finishing_stacks": list(finishing), "rake": rake,
            "matches": replayed.matches is not False}
