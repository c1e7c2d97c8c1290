"""Game records from the table log: ``freezeout.record/1`` and PHH export.

The recorder follows the same log entries as the table state, so a table
rebuilt after a restart rebuilds its record too.  It builds the *full*
record, kept on the server for audits: every hand's hole cards and whole
board, and its fairness keys (``commitment``, ``deck``, ``seed``) which the
record format ignores and ``fairness.verify_record`` checks.  Nobody
downloads that: :func:`player_record` gives each player the record of what
they saw (docs/protocol.md "Fair dealing").
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import orjson

from freezeout.cards import Card, parse_cards
from freezeout.formats.record import RecordWriter
from freezeout.rules.actions import Action
from freezeout.rules.events import CardsShown, Event, StreetDealt
from freezeout.rules.games import Mix
from freezeout.rules.variant import Variant
from freezeout.server.entries import ActEntry, DealEntry, LogEntry, StartEntry
from freezeout.server.fairness import CASH_HAND_FORMAT, UNKNOWN, Deal
from freezeout.server.table.cash import game_of
from freezeout.server.table.commands import Refused
from freezeout.server.table.state import TableState, initial_state, reduce
from freezeout.server.wire import pack

__all__ = ["CASH_HAND_FORMAT", "CashHands", "GameRecorder", "cash_hand", "cash_hand_for", "cash_hands_of_log", "player_record", "record_of_log",
           "record_to_phh", "records_each_hand"]


class GameRecorder:
    """Builds the current game's record as its log entries are applied, through the one
    writer of the record format (:class:`freezeout.formats.record.RecordWriter`:
    ``freezeout.record/1`` for the house game, ``/2`` for any other game).

    A game may run to a hundred hands: each finished hand is kept serialised
    (``wire.pack``, a few hundred bytes, untracked by the GC), only the hand in
    progress as a dict (the writer's)."""

    def __init__(self) -> None:
        self.writer: RecordWriter | None = None
        self.finished: list[bytes] = []
        self.cash = CashHands()  # a cash table's hands (its record is per hand: players come and go)

    @property
    def players(self) -> tuple[str, ...]:
        return self.writer.players if self.writer is not None else ()

    def apply(self, old: TableState, new: TableState, entry: LogEntry, events: list[Event]) -> None:
        body = entry.body  # the typed entry (server/entries.py), never the stored JSON
        if new.table_game is not None and new.table_game.records_each_hand:  # a cash table's hands
            self.cash.apply(old, new, entry, events)
            return
        if isinstance(body, StartEntry):
            game = new.table_game
            assert game is not None
            self.finished = []
            self.writer = RecordWriter(players=new.players, button=new.players[body.button],
                                       starting_stack=new.spec.starting_stack, variant=game.variant,
                                       mix=spec_game if isinstance(spec_game := new.spec.game, Mix) else None,
                                       extra={"game_id": new.game_id})
            return
        writer = self.writer
        if writer is None:
            return
        if isinstance(body, DealEntry):
            deal = new.current_deal
            assert deal is not None
            if writer.hands:
                self.finished.append(pack(writer.hands))
                writer.hands.clear()
            writer.observe(events)
            writer.hands[-1].update(commitment=deal.commitment, **{k: v for k, v in deal.to_json().items() if k != "hand"})
            writer.hands[-1]["started_at"] = entry.at  # each hand its own start time (the exports' clock)
        elif isinstance(body, ActEntry) and writer.hands:
            action = body.action
            writer.observe(events)
            writer.act(writer.players[action.seat], action)

    def copy(self) -> GameRecorder:
        """An independent recorder in the same state (to record a move not yet committed)."""
        other = GameRecorder()
        other.finished = list(self.finished)
        other.cash = self.cash.copy()
        if self.writer is not None:
            other.writer = replace(self.writer, hands=orjson.loads(orjson.dumps(self.writer.hands)),
                                   extra=dict(self.writer.extra))
        return other

    def to_json(self) -> dict[str, Any]:
        if self.writer is None:
            return {}
        data = self.writer.to_json()
        data["hands"] = [hand for packed in self.finished for hand in orjson.loads(packed)] + list(data["hands"])
        return data


class CashHands:
    """Each hand a cash table dealt, as its hand history (docs/protocol.md "Cash tables"):
    who was dealt in with what, the forced bets posted (blinds, dead blinds, straddles, antes),
    every card, the moves, the rake (C5), each run's board and winners (C7), the hands shown
    and mucked (V17), the stacks after it, its fairness keys — and its PHH.  Kept serialised
    (JSON bytes) per hand; :func:`cash_hand_for` gives an asker what they may see."""

    #: The hands kept in memory (a cash table never ends); older ones are folded from the log.
    KEEP = 200

    def __init__(self) -> None:
        self.hands: list[bytes] = []
        self._actions: list[Action] = []  # the hand in progress, in hand seats
        self._started = 0.0  # when the hand in progress was dealt

    def copy(self) -> CashHands:
        other = CashHands()
        other.hands, other._actions, other._started = list(self.hands), list(self._actions), self._started
        return other

    def apply(self, old: TableState, new: TableState, entry: LogEntry, events: list[Event]) -> None:
        if new.table_game is None or not new.table_game.records_each_hand:
            return
        game, before = game_of(new), old.table_game
        body = entry.body
        if isinstance(body, DealEntry):
            self._actions = []
            self._started = entry.at
        elif isinstance(body, ActEntry) and before is not None and before.in_hand:
            seat = body.action.seat
            self._actions.append(body.action._replace(seat=game_of(old).table.hand_seats.index(seat)))
        if game.hand_over and isinstance(body, (DealEntry, ActEntry)):
            deal = new.current_deal
            keys = {"commitment": deal.commitment, **deal.to_json()} if deal is not None else {}  # the fairness keys
            keys["started_at"] = self._started  # when the hand was dealt (the exports' clock)
            self.hands.append(orjson.dumps(cash_hand(game, self._actions, keys)))
            del self.hands[: -self.KEEP]
            self._actions = []

    def hand(self, number: int) -> dict[str, Any] | None:
        """The full history of hand ``number`` (every card: for the server's audits), or None."""
        for packed in reversed(self.hands):
            hand: dict[str, Any] = orjson.loads(packed)
            if hand["number"] == number:
                return hand
        return None


def cash_hand(game: Any, actions: Sequence[Action], deal: dict[str, Any]) -> dict[str, Any]:
    """A finished cash hand's full history (see :class:`CashHands`)."""
    from freezeout.rules.events import BlindPosted, PotAwarded, RakeTaken, RunShowdown

    t = game.table
    hand = t.hand
    setup = hand.setup
    names = list(setup.names)
    seats = list(t.hand_seats)
    events = _replayed(setup, actions)
    pots: list[dict[str, Any]] = []
    run = 0
    for event in events:
        if isinstance(event, RunShowdown):
            run = event.run
        elif isinstance(event, PotAwarded):
            pot: dict[str, Any] = {"pot": event.pot, "amount": event.amount,
                                   "winners": [[names[s], chips] for s, chips in event.shares]}
            if run:
                pot["run"] = run
            if event.ranking:
                pot["ranking"] = event.ranking + (f" {event.half}" if event.half else "")
            pots.append(pot)
    mucked = [names[seats.index(s)] for s in t.mucked]
    shown = [names[i] for i in range(len(names)) if hand.finished and hand.showdown and hand.shown and hand.shown[i]
             and names[i] not in mucked]
    variant = setup.variant
    final = hand.final_stacks()
    cuts: dict[int, int] = {}
    for event in events:
        if isinstance(event, RakeTaken):
            cuts[event.pot] = cuts.get(event.pot, 0) + event.amount
    data: dict[str, Any] = {
        "format": CASH_HAND_FORMAT, "number": t.hand_number, "game": variant.code, "players": names, "seats": seats,
        "button": t.button, "table_size": len(t.seats), "stacks": list(setup.stacks),
        "posts": [[names[e.seat], e.kind, e.amount] for e in events if isinstance(e, BlindPosted)],
        "hole": {names[i]: "".join(str(c) for c in hand.cards[i] if c is not None) for i in range(len(names))},
        "board": "".join(str(c) for c in hand.board_cards if c is not None),
        "actions": [[names[a.seat], a.kind.value, *([a.amount] if a.amount is not None else []),
                     *(["".join(map(str, a.cards))] if a.cards else [])] for a in actions],
        "rake": hand.rake, "rake_pots": [[pot, cuts[pot]] for pot in sorted(cuts)], "pots": pots, "shown": shown, "mucked": mucked,
        "finishing_stacks": list(final),
        **{k: v for k, v in deal.items() if k != "hand"},
    }
    if hand.second_board:
        data["second_board"] = "".join(str(c) for c in hand.second_board if c is not None)
    try:
        data["phh"] = _cash_phh(setup, hand, actions, events, t.hand_number, data)
    except Exception as error:  # a hand PHH cannot say: the history still stands
        data["phh_error"] = str(error)
    return data


def _replayed(setup: Any, actions: Sequence[Action]) -> list[Event]:
    """The hand's events in hand seats, as the engine plays its setup and moves again."""
    from freezeout.rules.hand import apply, start_hand

    state, events = start_hand(setup)
    out = list(events)
    for action in actions:
        state, more = apply(state, action)
        out.extend(more)
    return out


def _cash_phh(setup: Any, hand: Any, actions: Sequence[Action], events: list[Event], number: int,
              data: dict[str, Any]) -> str:
    """The hand as PHH (every card: :func:`cash_hand_for` hides what the asker did not see):
    the exporter of every game (formats/phh_games.py) over the hand's own events, in hand
    seats; the rake (C5) and a second run's board (C7), which PHH has no field for, are the
    user-defined fields ``_rake`` (with ``_rake_pots``: each raked pot's chips before the rake
    and its cut) and ``_second_board`` (docs/formats.md "PHH of cash hands")."""
    from freezeout.formats.phh_games import game_hand_to_phh
    from freezeout.formats.phh_toml import toml_string
    from freezeout.rules.events import CardsDealt, HandStarted

    k = len(setup.stacks)
    head: list[Event] = [HandStarted(number, setup.button, 0, setup.big_blind, tuple(range(k)), setup.stacks)]
    variant = setup.variant
    if not (variant.deals_later_hole_cards or variant.has_draws):  # flop games: one deal of every hole card
        head.append(CardsDealt(tuple((i, tuple(hand.cards[i])) for i in range(k)), tuple(hand.board_cards), (), ()))
    text = game_hand_to_phh(setup, [*head, *events], hand_number=number)
    extra = [f"_rake = {hand.rake}"]
    if data["rake_pots"]:  # each raked pot before the rake, and its cut: a reader's rake function (PokerKit's ``rake``)
        awarded: dict[int, int] = {}
        for pot in data["pots"]:
            awarded[pot["pot"]] = awarded.get(pot["pot"], 0) + pot["amount"]
        # A hand won by a fold after a raise (a bet, a raise, then the fold): PokerKit gives the
        # winner back their whole bet of that last round and rakes the pot without it, so its
        # rake function is called with the pot less the winner's called chips of that round.
        from freezeout.rules.events import PotAwarded

        eligible = {event.pot: event.eligible for event in events if isinstance(event, PotAwarded)}
        last = max(eligible, default=-1)

        def seen(index: int) -> int:
            only = eligible.get(index, ())
            return _called_last_round(events, only[0]) if index == last and len(only) == 1 else 0

        pairs = ", ".join(f"[{awarded.get(index, 0) + cut - seen(index)}, {cut}]" for index, cut in data["rake_pots"])
        extra.append(f"_rake_pots = [{pairs}]")
    if "second_board" in data:
        extra.append(f"_second_board = {toml_string(data['second_board'])}")
    return text + "\n".join(extra) + "\n"


def _called_last_round(events: Sequence[Event], seat: int) -> int:
    """The chips ``seat`` put in the hand's last betting round and kept there (what it added, less
    an uncalled bet given back, R21); 0 when the cards were dealt after it (a showdown's run-out)."""
    from freezeout.rules.events import ActionTaken, BetReturned, BlindPosted

    chips = 0
    for event in events:
        if isinstance(event, StreetDealt):
            chips = 0
        elif isinstance(event, BlindPosted) and event.seat == seat and event.kind != "ante":
            chips += event.amount
        elif isinstance(event, ActionTaken) and event.seat == seat:
            chips += event.added
        elif isinstance(event, BetReturned) and event.seat == seat:
            chips -= event.amount
    return chips


def cash_hand_for(hand: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """A cash hand's history as ``viewer`` (a player's name; None: anyone else) saw it: their
    own cards and the hands shown down (R17; not a mucked one, V17), stud's up-cards of
    everyone (V7), every other card ``??`` — and another player's discards never (V11, not
    even of a hand shown).  The deck's seed is left out: the fairness keys open exactly the
    cards the asker saw (``commitment``, ``leaves``, ``deck`` with ``??``, ``salts`` with
    null, as :func:`player_record`), so ``freezeout record verify`` checks their copy too.
    The PHH likewise."""
    from freezeout.rules.variant import VARIANTS

    variant = VARIANTS.get(str(hand.get("game")))
    up = _up_flags(variant) if variant is not None else []
    visible = set(hand.get("shown", ())) | ({viewer} if viewer is not None else set())
    thrown: dict[str, set[Card]] = {}
    for action in hand["actions"]:
        if action[1] == "discard" and action[0] != viewer:
            thrown.setdefault(action[0], set()).update(_card_list(action[2]))
    hole = {name: _without(cards if name in visible else _hidden(cards, up), thrown.get(name, set()))
            for name, cards in hand["hole"].items()}
    actions = [[a[0], a[1], UNKNOWN * len(_card_list(a[2]))] if a[1] == "discard" and a[0] != viewer else a
               for a in hand["actions"]]
    out = {k: v for k, v in hand.items() if k not in ("deck", "seed", "phh", "hole", "actions")}
    out["hole"], out["actions"] = hole, actions
    if "seed" in hand and "deck" in hand:
        deal = Deal(int(hand["number"]), parse_cards(hand["deck"]), str(hand["seed"]))
        position = {card: i for i, card in enumerate(deal.deck)}
        own = [card for a in hand["actions"] if a[1] == "discard" and a[0] == viewer for card in _card_list(a[2])]
        seen = {*_card_list(hand.get("board", "")), *_card_list(hand.get("second_board", "")), *own,
                *(card for cards in hole.values() for card in _card_list(cards))}
        out.update(deal.opening(position[card] for card in seen if card in position))
    phh = hand.get("phh")
    if phh is not None:
        out["phh"] = _phh_for(phh, visible, viewer, up)
    return out


def _phh_for(text: str, visible: set[str], viewer: str | None, up: Sequence[bool]) -> str:
    """The PHH text as an asker who saw the hands of ``visible`` (their own, ``viewer``'s, and
    those shown down) saw it: another player's cards ``??`` — but stud's up-cards (``up``: per
    card dealt, V7) — and their showdown a muck (``pN sm``); a discard of anyone but the
    viewer ``??`` wherever it appears (V11: never seen, not even in a hand shown down)."""
    import re

    lines = text.splitlines()
    players_line = next(line for line in lines if line.startswith("players = "))
    order = re.findall(r'"((?:[^"\\]|\\.)*)"', players_line)
    label = {f"p{i + 1}": name for i, name in enumerate(order)}
    move = re.compile(r'(\s*")(d dh |)(p\d+) (sm|sd|)\s*([^"#]*?)(\s*#[^"]*)?(",?)$')
    thrown: dict[str, set[str]] = {}
    for line in lines:
        found = move.match(line)
        if found and found.group(4) == "sd" and label.get(found.group(3)) != viewer:
            shown = found.group(5)
            thrown.setdefault(found.group(3), set()).update(shown[i : i + 2] for i in range(0, len(shown), 2))
    dealt: dict[str, int] = {}
    out = []
    for line in lines:
        found = move.match(line)
        if found and (found.group(2) or found.group(4)):
            start, deal, who, kind, shown, comment, end = found.groups()
            comment = comment or ""  # a timeout's note stays (R26, V12)
            hidden = label.get(who) not in visible
            cards = [shown[i : i + 2] for i in range(0, len(shown), 2)]
            if kind == "sm" and hidden:
                line = f"{start}{who} sm{end}"
            elif kind == "sd" and label.get(who) != viewer:
                line = f"{start}{who} sd {UNKNOWN * len(cards)}".rstrip() + comment + end
            elif deal:
                first = dealt.get(who, 0)
                dealt[who] = first + len(cards)
                face_up = [first + i < len(up) and up[first + i] for i in range(len(cards))]
                kept = [UNKNOWN if card in thrown.get(who, ()) or (hidden and not face_up[i]) else card
                        for i, card in enumerate(cards)]
                line = f"{start}{deal}{who} {''.join(kept)}{end}"
        out.append(line)
    return "\n".join(out) + "\n"


def records_each_hand(entries: Sequence[LogEntry]) -> bool:
    """Whether the table whose log this is keeps a record per hand (a cash table's:
    ``TableGame.records_each_hand``), read from its ``create`` entry as the table opens."""
    if not entries:
        return False
    try:
        game = initial_state(entries[0]).table_game
    except (Refused, ValueError, KeyError):  # not a log a table opens from
        return False
    return game is not None and game.records_each_hand


def cash_hands_of_log(entries: Sequence[LogEntry], number: int | None = None, *, keep: int | None = None) -> CashHands:
    """A cash table's hand histories folded from its whole log (a gateway's, as
    :func:`record_of_log`); with ``number``, the log only up to that hand's end; ``keep``: how
    many of the last hands to keep (default :attr:`CashHands.KEEP`; a player's export keeps all)."""
    state = initial_state(entries[0])
    recorder = GameRecorder()
    if keep is not None:
        recorder.cash.KEEP = keep
    for entry in entries[1:]:
        game = state.table_game
        if number is not None and game is not None and game.hand_number >= number and not game.in_hand:
            break
        old = state
        state, _, events = reduce(old, entry)
        recorder.apply(old, state, entry, events)
    return recorder.cash


def record_of_log(entries: Sequence[LogEntry]) -> tuple[TableState, dict[str, Any]]:
    """A table's state and its current (or last) game's full record, folded from the table's
    whole log as the table's own actor folds it after a restart.  For a process that reads the
    log but does not drive the table: a gateway of a cluster (docs/scaling.md), whose owner is
    another process.  :class:`~freezeout.server.table.state.Refused` for a log that does not fold."""
    state = initial_state(entries[0])
    recorder = GameRecorder()
    for entry in entries[1:]:
        old = state
        state, _, events = reduce(old, entry)
        recorder.apply(old, state, entry, events)
    return state, recorder.to_json()


def _hidden(cards: Any, up: list[bool]) -> Any:
    """A player's cards as someone who did not see them does: ``??`` for every card but the
    face-up ones (stud, V7), in the record's own shape (one string, or one per dealing)."""
    index = 0

    def hide(text: str) -> str:
        nonlocal index
        out = []
        for i in range(0, len(text), 2):
            out.append(text[i : i + 2] if index < len(up) and up[index] else UNKNOWN)
            index += 1
        return "".join(out)

    if isinstance(cards, list):
        return [hide(text) for text in cards]
    return hide(str(cards))


def _without(cards: Any, thrown: set[Card]) -> Any:
    """``cards`` (one string, or one per dealing) with the ``thrown`` ones written ``??``."""
    def hide(text: str) -> str:
        return "".join(UNKNOWN if text[i : i + 2] != UNKNOWN and parse_cards(text[i : i + 2])[0] in thrown
                       else text[i : i + 2] for i in range(0, len(text), 2))

    if not thrown:
        return cards
    return [hide(text) for text in cards] if isinstance(cards, list) else hide(str(cards))


def _card_list(cards: Any) -> list[Card]:
    text = "".join(cards) if isinstance(cards, list) else str(cards)
    return [card for i in range(0, len(text), 2) if text[i : i + 2] != UNKNOWN for card in parse_cards(text[i : i + 2])]


def _up_flags(variant: Variant) -> list[bool]:
    """Per card a player is dealt, in order: dealt face up (stud's streets); draws and flop games: none."""
    return [flag for street in variant.streets for flag in street.hole]


def player_record(record: dict[str, Any], viewer: str | None) -> dict[str, Any]:
    """The full record as ``viewer`` (a player of the game; None: anyone else) saw the game.

    A player's cards are ``??`` unless they are the viewer's own or were shown at a
    showdown (R17; never those of a hand won without one, R16) — stud's up-cards were
    seen by all and stay (V7: of every player, folded or busted viewer alike, and in a mix's
    stud hands too: each hand's own game decides); the board lists the cards the hand reached.  Each hand's
    fairness keys open exactly those cards: ``commitment``, ``leaves`` (the whole deck),
    ``deck`` (``??`` where not opened) and ``salts`` (null where not opened) —
    ``fairness.verify_record`` checks them.  Moves, places and everything else are as in
    the full record."""
    from freezeout.formats.record import parse_record, replay_record

    parsed = parse_record(record)
    result = replay_record(parsed)
    players = list(record["players"])
    hands = []
    for number, (raw, played) in enumerate(zip(record["hands"], result.hands, strict=True), start=1):
        up = _up_flags(played.setup.variant)  # the hand's own game: a mix deals stud in some levels (V19)
        shown = {players[e.seat] for e in played.events if isinstance(e, CardsShown)}
        reached = sum(len(e.cards) for e in played.events if isinstance(e, StreetDealt))
        visible = {player for player in raw["hole"] if player in shown or player == viewer}
        hole = {player: cards if player in visible else _hidden(cards, up) for player, cards in raw["hole"].items()}
        # V11: what another player threw away in a draw was never seen, not even at a showdown
        thrown: dict[str, set[Card]] = {}
        for action in raw["actions"]:
            if action[1] == "discard" and action[0] != viewer:
                thrown.setdefault(action[0], set()).update(_card_list(action[2]))
        hole = {player: _without(cards, thrown.get(player, set())) for player, cards in hole.items()}
        actions = [[a[0], a[1], UNKNOWN * len(_card_list(a[2]))] if a[1] == "discard" and a[0] != viewer else a
                   for a in raw["actions"]]
        board = raw["board"][: 2 * reached]
        hand: dict[str, Any] = {"hole": hole, "board": board, "actions": actions}
        if "started_at" in raw:  # public: when the hand was dealt
            hand["started_at"] = raw["started_at"]
        if "seed" in raw:
            deal = Deal(number, parse_cards(raw["deck"]), raw["seed"])
            position = {card: i for i, card in enumerate(deal.deck)}
            seen = [*_card_list(board), *(card for cards in hole.values() for card in _card_list(cards))]
            hand.update(deal.opening(position[card] for card in seen))
        elif "commitment" in raw:  # a deck committed as a whole (before per-position commitments) is never opened
            hand["commitment"] = raw["commitment"]
        hands.append(hand)
    return {**record, "hands": hands}


def record_to_phh(record: dict[str, Any]) -> str:
    """One PHH hand per dealt hand (``[1]``, ``[2]``, … sections), exactly as ``freezeout
    record phh`` writes them — in every game (its exporter knows draws, stud and the rest)."""
    from freezeout.formats.record import parse_record, replay_record

    exporter: Any = importlib.import_module("freezeout.formats.phh_export")
    text: str = exporter.record_to_phh(replay_record(parse_record(record)))
    return text
