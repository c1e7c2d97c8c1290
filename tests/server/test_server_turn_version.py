"""A move decided on version V stays valid while the turn has not moved (issue #34).

At a full cash table players who are not in the hand top up, sit out, set an auto top-up,
join the waiting list … while the player to act thinks.  Each of those is a log entry, so
the table's version moves on — but the acting player's decision does not: the same hand,
the same player to act, the same legal choices.  Their move, decided on the version they
saw, is applied (before issue #34's fix it was refused ``stale``: 165 times in one load
run at 9 seats).  A move whose turn really moved on (a bet, a new street, a forfeit) is
still refused, keyed or not, so nothing is applied twice (table/idempotency.py).

Fold-level: each request is the entry ``table/intents.py`` writes for it, folded by the
table's own fold (``table/state.py``), as the live actor and a restart do.  No server runs.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from freezeout.rules.actions import Action, ActionKind
from freezeout.server.entries import ActEntry, CommitEntry, DealEntry, LogEntry, ResumeEntry, Stamp
from freezeout.server.fairness import new_deal
from freezeout.server.gamespec import GameSpec
from freezeout.server.settings import Settings
from freezeout.server.storage.store import UserRow
from freezeout.server.table.cash import CashGame
from freezeout.server.table.commands import (
    Act,
    AutoTopUp,
    BuyIn,
    SitIn,
    SitOut,
    Stand,
    TopUp,
    WaitlistJoin,
    WaitlistLeave,
)
from freezeout.server.table.idempotency import decide
from freezeout.server.table.intents import entry_for
from freezeout.server.table.state import Refused, TableState, initial_state, reduce

OPTIONS = {"big_blind": 200}  # buy-ins 4000 to 20000
SETTINGS = Settings()
SEATS = 9


def user(uid: int) -> UserRow:
    return UserRow(uid, f"p{uid}", "user", None, 1500.0, 0)


async def no_log(after: int) -> list[LogEntry]:
    raise AssertionError("the memory answers: no log read")


class Table:
    """A 9-seat cash table's log, written by the entries the intents ask for (as the actor writes them)."""

    def __init__(self) -> None:
        spec = GameSpec.parse_cash("NT", OPTIONS)
        self.id = "t000000000034"
        self.entries = [LogEntry(self.id, 1, 0.0, "create", {"slots": [None] * SEATS, "ranked": False,
                                                             "created_by": 1, "game": spec.to_json()})]
        self.state: TableState = initial_state(self.entries[0])
        self.rng = random.Random(34)

    @property
    def game(self) -> CashGame:
        game = self.state.table_game
        assert isinstance(game, CashGame)
        return game

    def write(self, body: Any, at: float = 1.0) -> None:
        entry = LogEntry.of(self.id, self.state.version + 1, at, body)
        self.state = reduce(self.state, entry)[0]
        self.entries.append(LogEntry(self.id, entry.seq, entry.at, entry.kind, entry.data))  # as stored

    def ask(self, uid: int, intent: Any, at: float = 1.0) -> None:
        self.write(entry_for(self.state, user(uid), intent, at, SETTINGS, lambda seat: True), at)

    def uid_to_act(self) -> int:
        slot = self.state.slots[self.game.to_act]
        assert slot.user_id is not None
        return slot.user_id

    def act(self, version: int, key: str | None = None) -> Act:
        legal = self.game.legal_actions()
        assert legal is not None
        return Act(type="act", version=version, move="call" if legal.call_amount else "check", key=key)

    def restored(self) -> TableState:
        state = initial_state(self.entries[0])
        for entry in self.entries[1:]:
            state = reduce(state, LogEntry(entry.table_id, entry.seq, entry.at, entry.kind, dict(entry.data)))[0]
        return state


def nine_handed_in_hand() -> Table:
    """Eight players dealt in at a 9-seat table (uids 11–18), a ninth (19) bought in after the
    deal: not in the hand, free to top up and sit out while the others play."""
    table = Table()
    for uid in range(11, 19):
        table.ask(uid, BuyIn(type="buy_in", chips=5000))
    table.write(CommitEntry(new_deal(1, table.rng, table.state.spec.variant_for_hand(1))))
    table.write(DealEntry())
    assert table.game.in_hand and len(table.game.table.hand_seats) == 8
    table.ask(19, BuyIn(type="buy_in", chips=4000))
    return table


def the_others_think(table: Table, thinker: int) -> None:
    """What players out of the hand (and one in it, not to act) send while ``thinker`` decides."""
    dealt_other = next(s.user_id for i, s in enumerate(table.state.slots)
                       if s.user_id not in (None, thinker) and i in table.game.table.hand_seats)
    assert dealt_other is not None
    table.ask(19, TopUp(type="top_up", chips=1000))  # C2: seat 9 is not in the hand
    table.ask(19, AutoTopUp(type="auto_top_up", to=6000))
    table.ask(19, SitOut(type="sit_out"))  # C3
    table.ask(19, SitIn(type="sit_in"))
    table.ask(20, WaitlistJoin(type="waitlist_join"))  # C13: the table is full
    table.ask(21, WaitlistJoin(type="waitlist_join"))
    table.ask(20, WaitlistLeave(type="waitlist_leave"))
    table.ask(dealt_other, SitOut(type="sit_out"))  # from the next hand on: this one is played out
    table.ask(dealt_other, Stand(type="stand"))  # leaves at the hand's end
    table.write(ResumeEntry(grace_until=30.0))  # the server restarted meanwhile


def test_c2_c3_c13_a_move_decided_before_other_seats_top_up_sit_out_and_wait_is_applied():
    table = nine_handed_in_hand()
    thinker, decided = table.uid_to_act(), table.state.version
    intent = table.act(decided)
    seat, legal = table.game.to_act, table.game.legal_actions()
    the_others_think(table, thinker)
    assert table.state.version == decided + 10  # ten entries since the decision ...
    assert (table.game.to_act, table.game.legal_actions()) == (seat, legal)  # ... none changed it
    table.ask(thinker, intent)  # decided on the older version: applied (it was `stale` before issue #34)
    last = table.entries[-1]
    assert last.kind == "act" and last.data["seat"] == seat and table.game.to_act != seat
    assert table.restored() == table.state  # a restart folds the same log to the same table


async def test_a_keyed_move_decided_before_neutral_entries_is_judged_now_and_applied_once():
    table = nine_handed_in_hand()
    thinker, decided = table.uid_to_act(), table.state.version
    intent = table.act(decided, key="k-issue-34-move")
    the_others_think(table, thinker)
    decision = await decide(table.state.intents, table.state.version, thinker, intent, no_log)
    assert decision.refusal is None and decision.applied is None
    assert decision.msg.version == table.state.version and decision.stamp == Stamp(thinker, "k-issue-34-move")
    body = entry_for(table.state, user(thinker), decision.msg, 1.0, SETTINGS, lambda seat: True)
    table.write(ActEntry(body.action, intent=decision.stamp) if isinstance(body, ActEntry) else body)
    applied_at = table.state.version
    again = await decide(table.state.intents, table.state.version, thinker, intent, no_log)
    assert again.applied == applied_at  # a resend: answered, not applied twice


def test_a_move_whose_turn_moved_on_is_still_refused_stale_keyed_or_not():
    table = nine_handed_in_hand()
    thinker, decided = table.uid_to_act(), table.state.version
    intent = table.act(decided)
    table.ask(thinker, intent)
    # The same intent again (a resend without a key): the move it made moved the turn.
    with pytest.raises(Refused) as refused:
        table.ask(table.uid_to_act(), table.act(decided))
    assert refused.value.code == "stale"
    # Everyone calls or checks until the thinker is to act again (later in the hand): the same
    # player to act, but a move decided before the others' moves is refused.
    table.ask(table.uid_to_act(), table.act(table.state.version))
    while table.uid_to_act() != thinker:
        table.ask(table.uid_to_act(), table.act(table.state.version))
    assert table.game.in_hand
    with pytest.raises(Refused) as refused:
        table.ask(thinker, table.act(decided))
    assert refused.value.code == "stale"


async def test_a_keyed_move_overtaken_by_another_move_is_refused_as_not_applied():
    table = nine_handed_in_hand()
    thinker, decided = table.uid_to_act(), table.state.version
    table.ask(thinker, table.act(decided))  # applied without this key (another tab, say)
    the_others_think(table, table.uid_to_act())
    late = await decide(table.state.intents, table.state.version, thinker, table.act(decided, key="k-overtaken"), no_log)
    assert late.refusal is not None and late.refusal[0] == "stale" and "not applied" in late.refusal[1]


def test_a_move_decided_before_a_deal_is_refused_in_the_next_hand():
    """A new hand is a new decision, whatever came between."""
    table = Table()
    for uid in (11, 12):
        table.ask(uid, BuyIn(type="buy_in", chips=5000))
    table.write(CommitEntry(new_deal(1, table.rng, table.state.spec.variant_for_hand(1))))
    table.write(DealEntry())
    thinker, decided = table.uid_to_act(), table.state.version
    table.write(ActEntry(Action(table.game.to_act, ActionKind.FOLD)))
    table.write(CommitEntry(new_deal(2, table.rng, table.state.spec.variant_for_hand(2))))
    table.write(DealEntry())
    while table.uid_to_act() != thinker:
        table.ask(table.uid_to_act(), table.act(table.state.version))
    with pytest.raises(Refused) as refused:
        table.ask(thinker, table.act(decided))
    assert refused.value.code == "stale"
