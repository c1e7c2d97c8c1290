"""A finished hand, step by step, as one viewer saw it: the replayer's steps
built by the rules (issue #22: "the page holds no poker").

The page's replayer used to rebuild stacks, bets and pots from the public
events with a chip reducer of its own.  Here the rules replay the record
instead, and every step is the viewer's :func:`~freezeout.rules.views.seat_view`
at that point (stacks, bets, pots, board, card slots, shown hands, the result)
with the public events that led to it (the page words them):

* step 0 is the table right after the deal (antes, blinds, the first cards);
* then one step per move in the record (a bet, a draw, a timeout, a resignation),
  carrying every event the move caused (a street dealt, a showdown, the pots).

The rules replay the *full* record (it never leaves the server: the deal and
every discard are needed to replay a draw), and what a viewer may see is
decided by the same gates as at the live table: each step's view is
:func:`seat_view` for their seat (another player's down cards appear only
when shown down, R16, R17; up-cards to everyone, V7; a draw shows how many
cards changed, never which, V11), and its events pass ``events_json`` (the
private deal left out, down cards dealt or drawn hidden).

Pure: no I/O, no clock, no randomness; the API (``server/transport/api.py``) fetches
the record and the asker's name.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from freezeout.formats.record import RecordError, deal_recorded_hand, parse_record, play_recorded_action
from freezeout.rules.errors import RulesError
from freezeout.rules.events import Event
from freezeout.rules.tournament import Tournament
from freezeout.rules.views import seat_view

__all__ = ["hand_steps", "hands_played"]

#: The view's fields a replayed step leaves out: the viewer's legal moves then are no move now.
_DROPPED = ("legal",)


def hands_played(record: Mapping[str, Any]) -> int:
    """How many hands the record holds."""
    hands = record.get("hands")
    return len(hands) if isinstance(hands, list) else 0


def hand_steps(record: Mapping[str, Any], number: int, viewer: str | None) -> dict[str, Any]:
    """Hand ``number`` (1-based) of ``record`` (the full record) as ``viewer`` saw it,
    as the replayer's steps.

    ``viewer`` is the asker's name in the game (None: not a player, who sees only
    what became public).  Returns ``{"number", "players", "viewer", "game", "steps"}``
    where each step is ``{"events": [...public events...], "view": {...}}``.
    Raises :class:`RecordError` for a record that does not replay or a hand it lacks."""
    from freezeout.server.transport.protocol import events_json

    parsed = parse_record(record)
    if not 1 <= number <= len(parsed.hands):
        raise RecordError(f"no hand {number}: the game has {len(parsed.hands)} hands")
    players = parsed.players
    seat = players.index(viewer) if viewer in players else None
    try:
        tournament = Tournament.start(parsed.config())
    except RulesError as error:
        raise RecordError(f"invalid record: {error}") from None
    steps: list[dict[str, Any]] = []
    for index, raw_hand in enumerate(parsed.hands[:number], start=1):
        wanted = index == number
        tournament, events, hand = deal_recorded_hand(tournament, raw_hand, index, players)
        if wanted:
            steps.append(_step(tournament, seat, events, events_json))
        for raw_action in hand.actions:
            try:
                tournament, events, _, _ = play_recorded_action(tournament, raw_action, players)
            except RecordError as error:
                raise RecordError(f"hand {index}: {error}") from None
            if wanted:
                steps.append(_step(tournament, seat, events, events_json))
    return {
        "number": number,
        "players": list(players),
        "viewer": seat,
        "game": tournament.hand.setup.variant.code if tournament.hand is not None else parsed.variant.code,
        "steps": steps,
    }


def _step(tournament: Tournament, seat: int | None, events: Sequence[Event], events_json: Any) -> dict[str, Any]:
    """One step: ``seat``'s view now and the public events that led here (the private
    deal left out, down cards dealt or drawn hidden: ``events_json`` gates them)."""
    view = seat_view(tournament, seat).to_dict()
    for key in _DROPPED:
        view.pop(key, None)
    board = tournament.hand.board if tournament.hand is not None else ()
    return {"events": events_json(events, board), "view": view}
