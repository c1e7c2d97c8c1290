"""A finished hand, step by step, as one viewer saw it: the replayer's steps
built by the rules (issue #22: "the page holds no poker").

The page's replayer used to rebuild stacks, bets and pots from the public
events with a chip reducer of its own.  Here the rules replay the record
instead, and every step is the viewer's :func:`~freezeout.rules.views.seat_view`
at that point (stacks, bets, pots, board, card slots, shown hands, the result)
with the public events that led to it (the page words them):

* step 0 is the table right after the deal (antes, blinds, the first cards);
* then one step per move in the record (a bet, a draw, a timeout, a resignation),
  carrying every event the move caused (a street dealt, a showdown, the pots);
* but a move that leaves nobody able to bet runs the rest of the cards out (R18):
  as at the live table, that is dealt street by street — the move, then one step
  per street of the run-out (a board card or a stud street's cards, V7), then the
  result (the hands shown, the pots, who went out) in a step of its own.  The
  run-out's steps are the finished hand's view taken back to that street: the
  cards not yet dealt, no hand shown down and nothing won yet, the stacks before
  the pots and the pots as they stood (:func:`_before`).

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

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from freezeout.cards import parse_cards
from freezeout.formats.record import RecordError, deal_recorded_hand, parse_record, play_recorded_action
from freezeout.rules.errors import RulesError
from freezeout.rules.events import (
    Eliminated,
    Event,
    HandEnded,
    HoleDealt,
    PotAwarded,
    RakeTaken,
    RunShowdown,
    SecondRunDealt,
    StreetDealt,
    TournamentEnded,
)
from freezeout.rules.showdown import hand_name
from freezeout.rules.tournament import Tournament
from freezeout.rules.views import seat_view
from freezeout.server.table.eventtext import events_json
from freezeout.server.table.tableevents import told_json

__all__ = ["cash_hand_steps", "hand_steps", "hands_played"]

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
                steps.extend(_steps_of_move(tournament, seat, events, events_json))
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


def _steps_of_move(tournament: Tournament, seat: int | None, events: Sequence[Event], events_json: Any) -> list[dict[str, Any]]:
    """The steps one move makes: one, or for a move that runs the cards out (R18) the move,
    each street of the run-out and the result, each a step of its own."""
    parts = _run_out(events)
    if parts is None:
        return [_step(tournament, seat, events, events_json)]
    final = _step(tournament, seat, parts[-1], events_json)
    hand = tournament.hand
    assert hand is not None
    rankings = tuple(hand.setup.variant.rankings)
    board = hand.board
    steps = []
    for cut, part in enumerate(parts[:-1]):
        later = [event for after in parts[cut + 1 :] for event in after]
        view = _before(final["view"], events, later, seat, rankings)
        steps.append({"events": events_json(part, board), "view": view})
    steps.append(final)
    return steps


def _deals(events: Sequence[Event], index: int) -> bool:
    """Whether the street announced at ``index`` deals a card: a board card, or (stud) each
    player's next card, announced right after it (V7); a draw's round deals none (V11)."""
    event = events[index]
    assert isinstance(event, StreetDealt)
    return bool(event.cards) or (index + 1 < len(events) and isinstance(events[index + 1], HoleDealt))


def _run_out(events: Sequence[Event]) -> list[list[Event]] | None:
    """A move's events cut where the live table deals them one after another (R18): the move,
    each street of the run-out (with its hole cards), the result; None when the move ran
    nothing out (it ended no hand, or dealt no card after it)."""
    if not any(isinstance(event, HandEnded) for event in events):
        return None
    parts: list[list[Event]] = [[]]
    dealing = False
    for index, event in enumerate(events):
        if isinstance(event, StreetDealt) and _deals(events, index):
            parts.append([event])
            dealing = True
        elif dealing and isinstance(event, (HoleDealt, StreetDealt)):
            parts[-1].append(event)
        elif dealing:
            parts.append([event])
            dealing = False
        else:
            parts[-1].append(event)
    if len(parts) < 3 or dealing:  # nothing run out, or nothing after it (the result)
        return None
    return [part for part in parts if part]


def _before(final: dict[str, Any], events: Sequence[Event], later: Sequence[Event], viewer: int | None,
            rankings: tuple[str, ...]) -> dict[str, Any]:
    """The finished hand's ``final`` view as it stood before the ``later`` events of its
    run-out: their cards not dealt yet, no hand shown down or named, nothing won (the
    stacks before the pots, the pots as they stood), nobody out of the game yet.  The
    hands tabled for the run-out stay face up (R17, R18), as the live table shows them."""
    board_later = sum(len(event.cards) for event in later if isinstance(event, StreetDealt))
    hole_later: dict[int, int] = {}
    for event in later:
        if isinstance(event, HoleDealt):
            hole_later[event.seat] = hole_later.get(event.seat, 0) + len(event.cards)
    won: dict[int, int] = {}
    pots: dict[int, dict[str, Any]] = {}
    for event in events:
        if isinstance(event, PotAwarded):
            for winner, chips in event.shares:
                won[winner] = won.get(winner, 0) + chips
            pot = pots.setdefault(event.pot, {"amount": 0, "eligible": sorted(event.eligible)})
            pot["amount"] += event.amount
    out = {event.seat for event in events if isinstance(event, Eliminated)}
    board = final["board"][: len(final["board"]) - 2 * board_later]
    seats = []
    for seat in final["seats"]:
        seat = {key: value for key, value in seat.items() if key not in ("shown", "hand")}
        cut = hole_later.get(seat["seat"], 0)
        if cut and seat["cards"] is not None:
            seat["cards"] = seat["cards"][: len(seat["cards"]) - 2 * cut]
            seat["slots"] = seat["slots"][: len(seat["slots"]) - cut]
            if "up" in seat:
                seat["up"] = seat["up"][: len(seat["up"]) - cut]
                if not any(seat["up"]):
                    del seat["up"]
        seat["stack"] -= won.get(seat["seat"], 0)
        seat["all_in"] = bool(seat["in_hand"] and seat["stack"] == 0)
        if seat["seat"] in out:
            seat["in_tournament"], seat["place"] = True, None
        if seat["seat"] == viewer and seat["in_hand"] and seat["cards"] and "?" not in seat["cards"]:
            name = hand_name(rankings, tuple(parse_cards(seat["cards"])), tuple(parse_cards(board)))
            if name:
                seat["hand"] = name
        seats.append(seat)
    view = {key: value for key, value in final.items() if key != "result"}
    ended = any(isinstance(event, TournamentEnded) for event in events)
    view.update(seats=seats, board=board, pots=[pots[pot] for pot in sorted(pots)], hand_over=False, showdown=False)
    if ended:
        view.update(finished=False, winner=None)
    return view


def cash_hand_steps(entries: Sequence[Any], number: int, names: Collection[str] = ()) -> dict[str, Any]:
    """Hand ``number`` of a cash table, folded from the table's log (``entries``), as the
    asker saw it (``names``: the names their account played under; none: not a player, who
    sees only what became public): the replayer's steps, each
    ``{"events": [...], "view": {...}}`` where the view is the cash table's own view
    (``CashGame.view``, docs/protocol.md "Cash tables") for the viewer's seat then, and the
    events are the public ones of that entry (with the table's own, such as ``mucked``).
    Step 0 is the table right after the deal, then one step per move — but a move that runs
    the cards out (all in before the river) is cut as the live table deals it: the move, each
    street of the board (of each run of a board run twice, C7: the view's ``second_board`` is
    the second run's whole board so far, once it deals a card), then each run's result (its hands, rake and pots) in a
    step of its own (:func:`_cash_run_out`, :func:`_cash_before`).  The same gates as
    at the live table: another player's down cards only when shown down (never mucked,
    V17).  Raises :class:`RecordError` for a hand the log has not finished."""
    from freezeout.server.entries import ActEntry, DealEntry
    from freezeout.server.table.cash import game_of
    from freezeout.server.table.state import Refused, initial_state, reduce

    try:
        state = initial_state(entries[0])
        steps: list[dict[str, Any]] = []
        players: list[str] = []
        seat: int | None = None
        game_code = ""
        for entry in entries[1:]:
            old = state
            state, told, events = reduce(old, entry)
            if state.table_game is None or not state.table_game.records_each_hand:
                raise RecordError("not a cash table")
            game = game_of(state)
            body = entry.body
            if isinstance(body, DealEntry) and game.hand_number == number:
                t = game.table
                players = [game.players[s] for s in t.hand_seats]
                seat = next((s for s in t.hand_seats if game.players[s] in names), None)
                game_code = game.variant.code
            elif not (isinstance(body, ActEntry) and players and game.hand_number == number):
                continue
            view = game.view(seat)
            view.pop("legal", None)  # the viewer's moves then are no move now
            parts = _cash_run_out(events) if isinstance(body, ActEntry) else None
            if parts is None:
                steps.append({"events": [*told_json(told), *events_json(events, game.board)], "view": view})
            else:  # the move, each street of each run, each run's result: as the live table deals them
                second = "".join(str(c) for e in events if isinstance(e, SecondRunDealt) for c in e.cards)
                if second:  # the second run's whole board: the cards it shares with the first, then its own
                    first = sum(len(e.cards) for e in events if isinstance(e, StreetDealt))
                    view["second_board"] = view["board"][: len(view["board"]) - 2 * first] + second
                for cut, part in enumerate(parts[:-1]):
                    later = [event for after in parts[cut + 1 :] for event in after]
                    steps.append({"events": events_json(part, game.board), "view": _cash_before(view, events, later)})
                steps.append({"events": [*told_json(told), *events_json(parts[-1], game.board)], "view": view})
            if game.hand_over:
                return {"number": number, "players": players, "viewer": seat, "game": game_code, "steps": steps}
    except (Refused, RulesError) as error:
        raise RecordError(f"the table's log does not fold: {error}") from None
    raise RecordError(f"hand {number} of this table is not finished")


def _cash_run_out(events: Sequence[Event]) -> list[list[Event]] | None:
    """A cash move's events cut where the live table deals them (R18, C7): the move, each
    street of the run-out (a second run's streets too), the result — and a second run's
    result (from its ``RunShowdown``) apart from the first's; None when the move ran nothing
    out."""
    if not any(isinstance(event, HandEnded) for event in events):
        return None
    parts: list[list[Event]] = [[]]
    dealing = False
    for index, event in enumerate(events):
        if (isinstance(event, StreetDealt) and _deals(events, index)) or isinstance(event, SecondRunDealt):
            parts.append([event])
            dealing = True
        elif dealing and isinstance(event, (HoleDealt, StreetDealt)):
            parts[-1].append(event)
        elif dealing or (isinstance(event, RunShowdown) and event.run > 1):
            parts.append([event])
            dealing = False
        else:
            parts[-1].append(event)
    if len(parts) < 3 or dealing:
        return None
    return [part for part in parts if part]


def _cash_before(final: dict[str, Any], events: Sequence[Event], later: Sequence[Event]) -> dict[str, Any]:
    """A cash hand's ``final`` view (``CashGame.view``) as it stood before the ``later``
    events of its run-out: their cards not dealt yet (either run's), nothing raked or won
    yet (the stacks before the pots, the pot whole), the players of the pots still in the
    hand.  The hands tabled for the run-out stay face up (R17, R18)."""
    board_later = sum(len(event.cards) for event in later if isinstance(event, StreetDealt))
    second_later = sum(len(event.cards) for event in later if isinstance(event, SecondRunDealt))
    hole_later: dict[int, int] = {}
    won: dict[int, int] = {}
    pot = raked = 0
    for event in later:
        if isinstance(event, HoleDealt):
            hole_later[event.seat] = hole_later.get(event.seat, 0) + len(event.cards)
        elif isinstance(event, PotAwarded):
            pot += event.amount
            for winner, chips in event.shares:
                won[winner] = won.get(winner, 0) + chips
        elif isinstance(event, RakeTaken):
            pot += event.amount
            raked += event.amount
    playing = {seat for event in events if isinstance(event, PotAwarded) for seat in event.eligible}
    view = dict(final)
    view["board"] = final["board"][: len(final["board"]) - 2 * board_later]
    if "second_board" in final:  # shown once the second run deals its first card
        if second_later < sum(len(event.cards) for event in events if isinstance(event, SecondRunDealt)):
            view["second_board"] = final["second_board"][: len(final["second_board"]) - 2 * second_later]
        else:
            del view["second_board"]
    if "boards" in final:  # the page draws the boards the live view names (C7), as they stood then
        view["boards"] = [view["board"], *([view["second_board"]] if "second_board" in view else [])]
    view.pop("result", None)  # no pot is won yet; each run's result is a step of its own
    view["pot"] = final.get("pot", 0) + pot
    if isinstance(final.get("rake"), dict) and "total" in final["rake"]:
        view["rake"] = {**final["rake"], "total": final["rake"]["total"] - raked}
    view["in_hand"] = True
    seats = []
    for seat in final["seats"]:
        seat = dict(seat)
        number = seat.get("seat")
        if number in won:
            seat["stack"] -= won[number]
        if number in playing:
            seat["in_hand"] = True
        cut = hole_later.get(number, 0) if isinstance(number, int) else 0
        if cut and isinstance(seat.get("cards"), str):
            seat["cards"] = seat["cards"][: len(seat["cards"]) - 2 * cut]
        seats.append(seat)
    view["seats"] = seats
    return view
