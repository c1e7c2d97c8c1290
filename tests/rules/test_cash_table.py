"""The cash table, rule by rule (rules.md C1–C4, C6–C8, C10, C11, V19)."""

from __future__ import annotations

import pytest

from freezeout.cards import full_deck, parse_cards
from freezeout.rules import Action, ActionKind, IllegalAction, InvalidInput
from freezeout.rules.cash import (
    OWES_BIG,
    OWES_SMALL,
    CashConfig,
    CashTable,
    Status,
    StatusChanged,
    bank_after_hand,
    bank_after_turn,
    turn_limit,
)
from freezeout.rules.events import BlindPosted, HandStarted, RakeTaken
from freezeout.rules.games import MIXES
from freezeout.rules.pots import Rake
from freezeout.rules.variant import variant

DECK = full_deck()
NAMES = ("ana", "bo", "cy", "di", "eve", "fay")


def table(*seats: int, chips: int = 100, **config: object) -> CashTable:
    """A table with a player at each of ``seats`` (ana at the first, bo at the second, …)."""
    t = CashTable.open(CashConfig(**config))  # type: ignore[arg-type]
    for name, seat in zip(NAMES, seats, strict=False):
        t, _ = t.join(seat, name, chips, now=0.0)
    return t


def deal(t: CashTable):
    return t.deal(DECK)


def move(t: CashTable, seat: int, word: str, amount: int | None = None, thought: float = 0.0):
    return t.act(Action(seat, ActionKind(word), amount), thought)[0]


def finish(t: CashTable) -> CashTable:
    """Play the hand out: everyone checks when they can, else folds (stud: brings in, draw: stands pat)."""
    while t.in_hand:
        legal = t.legal_actions()
        assert legal is not None
        word = "bringin" if legal.bring_in else "standpat" if legal.draw else "check" if legal.can_check else "fold"
        t = move(t, legal.seat, word)
    return t


def hand(t: CashTable) -> tuple[CashTable, list]:
    t, events = deal(t)
    return finish(t), events


def blinds_posted(events) -> list[tuple[int, str, int]]:
    return [(e.seat, e.kind, e.amount) for e in events if isinstance(e, BlindPosted)]


def started(events) -> HandStarted:
    return next(e for e in events if isinstance(e, HandStarted))


# -- C1: buy-ins ---------------------------------------------------------------
def test_c1_default_buy_ins_100_big_blinds_or_100_big_bets_in_limit():
    assert CashConfig(blinds=(1, 2)).max_buy_in == 200
    assert CashConfig(blinds=(1, 2)).min_buy_in == 40
    assert CashConfig(game=variant("FT"), blinds=(1, 2)).max_buy_in == 400  # big bet 4
    assert CashConfig(game=MIXES["HORSE"], blinds=(1, 2), seats=8).max_buy_in == 400


def test_c1_a_buy_in_outside_the_limits_is_refused_and_changes_nothing():
    t = table(0, 1)
    for chips in (39, 201):
        with pytest.raises(IllegalAction, match="40 to 200"):
            t.join(2, "cy", chips, now=0.0)
    with pytest.raises(IllegalAction, match="taken"):
        t.join(0, "cy", 100, now=0.0)
    with pytest.raises(IllegalAction, match="already seated"):
        t.join(3, "ana", 100, now=0.0)
    with pytest.raises(InvalidInput):
        t.join(9, "cy", 100, now=0.0)
    assert t.seats[2] is None and [s.player for s in t.seats if s] == ["ana", "bo"]


# -- C2: table stakes ----------------------------------------------------------
def test_c2_top_up_only_between_hands_and_within_the_maximum():
    t = table(0, 1, 2)
    t, _ = deal(t)
    with pytest.raises(IllegalAction, match="only between hands"):
        t.top_up(0, 10)
    t = finish(t)
    stack = t.seats[0].stack
    t2, _ = t.top_up(0, 200 - stack)
    assert t2.seats[0].stack == 200
    with pytest.raises(IllegalAction, match="at most 200"):
        t2.top_up(0, 1)


def test_c2_a_seat_not_in_the_hand_may_add_chips_during_it():
    t = table(0, 1, 2)
    t, _ = t.sit_out(2)
    t, _ = deal(t)
    assert 2 not in t.hand_seats
    t, _ = t.top_up(2, 50)
    assert t.seats[2].stack == 150


def test_c2_a_rebuy_after_losing_everything_needs_the_minimum():
    t = CashTable.open(CashConfig())
    t, _ = t.join(0, "ana", 40, now=0.0)
    t, _ = t.join(1, "bo", 200, now=0.0)
    t, _ = t.deal(parse_cards("7c2d" "AsAh" "KdQs9h5c3s"))  # bo's aces win
    t = move(t, 0, "allin")
    t = move(t, 1, "call")
    assert t.seats[0].stack == 0 and not t.in_hand
    with pytest.raises(IllegalAction, match="minimum"):
        t.top_up(0, 39)
    assert t.top_up(0, 40)[0].seats[0].stack == 40


# -- C3: sitting out and leaving -------------------------------------------------
def test_c3_no_hit_and_run_within_30_minutes():
    t = table(0, 1, 2)
    t, _ = t.top_up(0, 80)  # ana leaves with 180
    t, _ = t.leave(0, now=1000.0)
    with pytest.raises(IllegalAction, match="C3"):
        t.join(0, "ana", 100, now=1000.0 + 29 * 60)
    assert t.join(3, "ana", 180, now=1000.0 + 29 * 60)[0].seats[3].stack == 180
    assert t.join(0, "ana", 100, now=1000.0 + 30 * 60)[0].seats[0].stack == 100


def test_c3_a_player_who_left_with_more_than_the_maximum_may_bring_it_back():
    t = table(0, 1, 2)
    t, _ = t.leave(1, now=0.0)
    t = CashTable(config=t.config, seats=t.seats, departures=(t.departures[0]._replace(chips=250),))
    assert t.buy_in_range("bo", now=60.0) == (250, 250)


def test_c3_leave_only_between_hands_for_a_player_dealt_in():
    t, _ = deal(table(0, 1, 2))
    with pytest.raises(IllegalAction, match="between hands"):
        t.leave(0, now=0.0)


def test_c3_a_player_sitting_out_is_dealt_nothing_and_posts_nothing():
    t = table(0, 1, 2, 3)
    t, _ = t.sit_out(3)
    t, events = deal(t)
    assert 3 not in t.hand_seats and 3 not in {seat for seat, _, _ in blinds_posted(events)}


def test_sit_in_of_a_seat_not_seated_or_not_sitting_out_is_refused():
    t = table(0, 1)
    with pytest.raises(IllegalAction, match="not seated"):
        t.sit_in(4)
    with pytest.raises(IllegalAction, match="not sitting out"):
        t.sit_in(0)
    with pytest.raises(InvalidInput):
        t.sit_in(17)


# -- the dead button (C10) -------------------------------------------------------
def test_first_hand_button_small_and_big_blind_then_each_moves_one_seat():
    t = table(0, 1, 2, 3)
    assert t.plan()[:4] == ((0, 1, 2, 3), 0, 1, 2)
    t, events = hand(t)
    assert blinds_posted(events) == [(1, "small blind", 1), (2, "big blind", 2)]
    assert t.plan()[:4] == ((0, 1, 2, 3), 1, 2, 3)


def test_c10_dead_button_a_big_blind_who_left_leaves_a_dead_small_blind_and_a_dead_button():
    t, _ = hand(table(0, 1, 2, 3))  # button 0, blinds 1 and 2
    t, _ = t.leave(2, now=0.0)
    t, events = deal(t)
    assert started(events).button == 1
    assert blinds_posted(events) == [(3, "big blind", 2)]  # nobody posts the small blind
    assert t.to_act == 0  # left of the big blind
    t = finish(t)
    t, events = deal(t)
    assert started(events).button == 2  # the empty seat: a dead button
    assert blinds_posted(events) == [(3, "small blind", 1), (0, "big blind", 2)]
    assert t.to_act == 1


def test_c10_heads_up_the_button_posts_the_small_blind():
    _, events = deal(table(0, 3))
    assert started(events).button == 0 and blinds_posted(events) == [(0, "small blind", 1), (3, "big blind", 2)]


# -- C4, C10: missed blinds, new players --------------------------------------------
def test_c10_sitting_out_past_the_big_blind_owes_big_live_and_small_dead():
    t, _ = hand(table(0, 1, 2, 3))  # button 0, blinds 1 and 2
    t, _ = t.sit_out(3)
    t, events = hand(t)  # the big blind passes di by: it goes to ana
    assert blinds_posted(events) == [(2, "small blind", 1), (0, "big blind", 2)]
    assert t.seats[3].owes == OWES_BIG | OWES_SMALL
    t, _ = t.sit_in(3, post=True)
    t, events = hand(t)  # di sits between the button (2) and the big blind (1): she waits
    assert 3 not in t.hand_seats
    t, events = deal(t)  # now she posts: the big blind live, the small blind dead
    assert 3 in t.hand_seats
    assert (3, "dead", 1) in blinds_posted(events) and (3, "big blind", 2) in blinds_posted(events)
    assert t.hand.pot_total == 1 + 2 + 2 + 1 + 0  # small blind, big blind, di's live blind and dead small blind
    t = finish(t)
    assert t.seats[3].owes == 0


def test_c10_waiting_for_the_big_blind_forgives_the_missed_blinds():
    t, _ = hand(table(0, 1, 2, 3))
    t, _ = t.sit_out(3)
    t, _ = hand(t)
    t, _ = t.sit_in(3)  # waits for the big blind (the default in no-limit)
    assert t.seats[3].status is Status.WAITING
    for _ in range(4):
        t, events = deal(t)
        if 3 in t.hand_seats:
            break
        t = finish(t)
    assert blinds_posted(events)[-1] == (3, "big blind", 2)
    assert not any(kind == "dead" for _, kind, _ in blinds_posted(events))


def test_c10_sitting_out_when_the_small_blind_comes_owes_it_dead():
    t, _ = hand(table(0, 1, 2, 3))  # bo posted the big blind at seat 2
    t, _ = t.sit_out(2)
    t, events = hand(t)
    assert blinds_posted(events) == [(3, "big blind", 2)]  # a dead small blind
    assert t.seats[2].owes == OWES_SMALL


def test_c4_a_new_player_waits_for_the_big_blind_at_their_natural_big_blind():
    t, _ = hand(table(0, 2, 4, seats=6))  # button 0, blinds at 2 and 4
    t, _ = t.join(5, "eve", 100, now=0.0)
    assert t.seats[5].status is Status.WAITING
    t, events = deal(t)
    assert blinds_posted(events) == [(4, "small blind", 1), (5, "big blind", 2)]


def test_c4_c10_a_new_player_posts_to_come_in_but_not_between_the_blinds_and_the_button():
    t, _ = hand(table(0, 2, 4, seats=6))  # button 0, blinds at 2 and 4
    t, _ = t.join(3, "eve", 100, now=0.0, post=True)
    assert t.seats[3].owes == OWES_BIG
    t, events = hand(t)  # button 2, blinds 4 and 0: eve sits between the button and the big blind
    assert 3 not in t.hand_seats
    t, events = deal(t)  # button 4, blinds 0 and 2: eve posts a live big blind
    assert 3 in t.hand_seats and (3, "big blind", 2) in blinds_posted(events)
    assert not any(kind == "dead" for _, kind, _ in blinds_posted(events))
    assert t.to_act == 3 and t.legal_actions().can_check  # her blind is live


def test_c10_in_limit_games_a_new_player_posts():
    t, _ = hand(table(0, 1, 2, game=variant("FT")))
    with pytest.raises(IllegalAction, match="limit games a new player posts"):
        t.join(3, "di", 100, now=0.0, post=False)
    t, _ = t.join(3, "di", 100, now=0.0)
    assert t.seats[3].status is Status.PLAYING and t.seats[3].owes == OWES_BIG


def test_c10_stud_owes_nothing_and_antes_every_hand():
    t = table(0, 1, 2, game=variant("F7S"), seats=8, blinds=(10, 20), chips=1000)  # ante 2, bring-in 5
    t, _ = t.sit_out(2)
    t, _ = hand(t)
    t, _ = hand(t)
    assert t.seats[2].owes == 0
    t, _ = t.sit_in(2)
    t, events = deal(t)
    assert t.hand_seats == (0, 1, 2)
    assert blinds_posted(events) == [(0, "ante", 2), (1, "ante", 2), (2, "ante", 2)]


# -- C6: straddles ----------------------------------------------------------------
def test_c6_under_the_gun_straddles_two_big_blinds_and_acts_last_preflop():
    t = table(0, 1, 2, 3)
    t, _ = t.straddle(3)
    t, events = deal(t)
    assert blinds_posted(events) == [(1, "small blind", 1), (2, "big blind", 2), (3, "straddle", 4)]
    assert t.to_act == 0
    t = move(t, 0, "call")
    t = move(t, 1, "call")
    t = move(t, 2, "call")
    assert t.to_act == 3 and t.legal_actions().can_check  # the straddler's option


def test_c6_straddle_out_of_turn_or_not_allowed_is_refused():
    t = table(0, 1, 2, 3)
    with pytest.raises(IllegalAction, match="under the gun"):
        t.straddle(0)
    assert t.straddler == -1
    with pytest.raises(IllegalAction, match="does not allow"):
        table(0, 1, 2, 3, straddles=False).straddle(3)
    with pytest.raises(IllegalAction, match="heads-up"):
        table(0, 1).straddle(0)
    with pytest.raises(IllegalAction, match="no straddle in"):
        table(0, 1, 2, game=variant("F7S"), seats=8).straddle(0)
    dealt, _ = deal(t)
    with pytest.raises(IllegalAction, match="under the gun"):  # during a hand: checked for the next one
        dealt.straddle(3)


def test_c6_a_straddle_asked_during_a_hand_is_posted_at_the_next_one_as_the_view_offers_it():
    t, _ = deal(table(0, 1, 2, 3))
    offered = [seat for seat in range(4) if t.may_straddle(seat)]
    assert len(offered) == 1  # the next hand's under-the-gun player
    t, _ = t.straddle(offered[0])
    assert t.straddler == offered[0]
    t, events = deal(finish(t))
    assert (offered[0], "straddle", 4) in blinds_posted(events)
    assert t.straddler == -1  # one hand's straddle


def test_c6_a_button_straddle_where_the_table_allows_it():
    t = table(0, 1, 2, 3, button_straddle=True)
    t, _ = t.straddle(0)
    t, events = deal(t)
    assert (0, "straddle", 4) in blinds_posted(events)
    assert t.to_act == 1  # the small blind acts first, the button last


# -- C7 at the table ---------------------------------------------------------------
def test_c7_only_a_player_in_the_pot_agrees_to_run_it_twice():
    t = table(0, 1, 2, 3)
    t, _ = t.sit_out(3)
    t, _ = deal(t)
    with pytest.raises(IllegalAction, match="not in the pot"):
        t.agree_to_run_twice(3)
    t = move(t, 0, "fold")
    with pytest.raises(IllegalAction, match="not in the pot"):
        t.agree_to_run_twice(0)
    t2, _ = t.agree_to_run_twice(1)
    assert t2.hand.setup.run_twice == (1,)


# -- C8: forfeits -------------------------------------------------------------------
def test_c8_two_forfeits_in_a_row_sit_the_player_out():
    t = table(0, 1, 2)
    t, _ = deal(t)  # button 0, blinds 1 and 2: ana acts first
    t = move(t, 0, "timeout")
    t = finish(t)
    assert t.seats[0].forfeits == 1 and t.seats[0].status is Status.PLAYING
    t, _ = deal(t)  # button 1, blinds 2 and 0: bo acts first, then cy, then ana
    t = move(t, 1, "call")
    t = move(t, 2, "call")
    table_after, events = t.act(Action(0, ActionKind.TIMEOUT))
    assert StatusChanged(0, Status.AWAY, 0) in events
    assert table_after.seats[0].status is Status.AWAY
    t = finish(table_after)
    t, _ = deal(t)
    assert 0 not in t.hand_seats


def test_c8_d9_a_move_of_their_own_resets_the_count():
    t, _ = deal(table(0, 1, 2))
    t = finish(move(t, 0, "timeout"))
    t, _ = deal(t)
    t = move(t, 1, "call")
    t = move(t, 2, "call")
    t = move(t, 0, "check")
    assert t.seats[0].forfeits == 0


# -- C11: the time bank -----------------------------------------------------------------
def test_c11_the_bank_runs_only_after_the_clock():
    assert turn_limit(30.0) == 60.0
    assert bank_after_turn(30.0, 29.0) == 30.0
    assert bank_after_turn(30.0, 45.0) == 15.0
    assert bank_after_turn(10.0, 100.0) == 0.0


def test_c11_plus_5_seconds_every_20_hands_up_to_60():
    assert bank_after_hand(30.0, 19) == 30.0
    assert bank_after_hand(30.0, 20) == 35.0
    assert bank_after_hand(58.0, 40) == 60.0


def test_c11_the_table_keeps_each_players_bank():
    t, _ = deal(table(0, 1, 2))
    assert t.seats[0].time_bank == 30.0
    t = move(t, 0, "fold", thought=42.5)
    assert t.seats[0].time_bank == 17.5
    t = table(0, 1)
    for _ in range(20):
        t, _ = hand(t)
    assert t.seats[0].hands == 20 and t.seats[0].time_bank == 35.0


def test_c11_a_player_back_within_30_minutes_keeps_the_bank_they_left_with():
    t, _ = deal(table(0, 1, 2))
    t = finish(move(t, 0, "fold", thought=42.5))  # 12.5 s of the bank spent
    assert t.seats[0].time_bank == 17.5
    t, _ = t.leave(0, now=100.0)
    back, _ = t.join(3, "ana", 100, now=100.0 + 29 * 60)
    assert back.seats[3].time_bank == 17.5 and back.seats[3].hands == 1  # leaving never refills it
    later, _ = t.join(3, "ana", 100, now=100.0 + 30 * 60)
    assert later.seats[3].time_bank == 30.0 and later.seats[3].hands == 0  # after C3's 30 minutes: a fresh bank


def test_c3_c11_a_key_names_the_player_whatever_name_they_show():
    t = CashTable.open(CashConfig())
    t, _ = t.join(0, "ana", 100, now=0.0, key="account:1")
    t, _ = t.join(1, "bo", 100, now=0.0, key="account:2")
    t, _ = t.leave(0, now=10.0)
    assert t.buy_in_range("account:1", 20.0)[0] == 100 and t.buy_in_range("ana", 20.0)[0] == CashConfig().min_buy_in
    with pytest.raises(IllegalAction, match="C3"):
        t.join(0, "Anna", 60, now=20.0, key="account:1")


# -- C5, C9 at the table ---------------------------------------------------------------
def test_c5_c9_the_house_keeps_the_rake_and_no_other_chip_moves():
    t = table(0, 1, rake=Rake(5000, (1, 1, 1)))
    t, _ = deal(t)
    t = move(t, 0, "call")
    t = finish(move(t, 1, "check"))
    assert t.rake_total == 1 and sum(t.current_stacks()) == 199
    assert any(isinstance(e, RakeTaken) for e in t.hand_log)


# -- V19: mixed games at a cash table ----------------------------------------------------
def test_v19_a_mixed_cash_table_changes_game_every_6_hands_and_freezes_the_button_through_stud():
    t = table(0, 1, 2, game=MIXES["HORSE"], seats=8)
    assert [t.config.variant_for_hand(n).code for n in (1, 6, 7, 13, 19, 25, 31)] == ["FT", "FT", "FO/8", "FR", "F7S", "F7S/8", "FT"]
    for _ in range(12):
        t, _ = hand(t)
    frozen = (t.small_pos, t.big_pos)
    for _ in range(18):  # razz, stud, stud hi/lo
        t, _ = hand(t)
        assert (t.small_pos, t.big_pos) == frozen
    t, events = deal(t)
    assert t.hand.setup.variant.code == "FT"
    assert blinds_posted(events)[-1][0] == (frozen[1] + 1) % 3  # the big blind moves on one seat


# -- every request, at random: chips are only bought, cashed out or raked (C9) ------------
@pytest.mark.parametrize("game", ["NT", "FT", "F7S", "PO", "HORSE"])
def test_c9_random_requests_never_create_or_lose_a_chip(game):
    import random

    rng = random.Random(f"cash-{game}")
    chosen = MIXES[game] if game in MIXES else variant(game)
    config = CashConfig(game=chosen, seats=6, blinds=(5, 10), rake=Rake(500, (3, 6, 9)), button_straddle=True)
    t = CashTable.open(config)
    bought = cashed = 0
    now = 0.0
    for _ in range(600):
        now += rng.choice((1.0, 60.0, 600.0))
        seat = rng.randrange(6)
        request = rng.random()
        try:
            if t.in_hand and request < 0.75:
                legal = t.legal_actions()
                assert legal is not None
                if legal.draw:
                    t = move(t, legal.seat, "standpat")
                elif legal.bring_in:
                    t = move(t, legal.seat, rng.choice(("bringin", "complete")))
                else:
                    word = rng.choice(("fold", "call", "check", "allin", "timeout")) if legal.can_raise else "call"
                    if word == "check" and not legal.can_check:
                        word = "call"
                    t = move(t, legal.seat, word, thought=rng.choice((1.0, 35.0)))
                if rng.random() < 0.1:
                    t, _ = t.agree_to_run_twice(seat)
            elif request < 0.2:
                low, high = t.buy_in_range(NAMES[seat], now)
                t, _ = t.join(seat, NAMES[seat], rng.randint(low, high), now, post=rng.choice((True, None)))
                bought += t.seats[seat].stack
            elif request < 0.3:
                chips = t.seats[seat].stack if t.seats[seat] else 0
                t, _ = t.leave(seat, now)
                cashed += chips
            elif request < 0.4:
                before = t.seats[seat].stack if t.seats[seat] else 0
                t, _ = t.top_up(seat, rng.randint(1, config.max_buy_in))
                bought += t.seats[seat].stack - before
            elif request < 0.5:
                t, _ = t.sit_out(seat) if rng.random() < 0.5 else t.sit_in(seat, post=rng.choice((True, None)))
            elif request < 0.55:
                t, _ = t.straddle(seat)
            elif not t.in_hand:
                deck = list(full_deck())
                rng.shuffle(deck)
                t, _ = t.deal(deck)
        except (IllegalAction, InvalidInput):
            pass  # refused: the table is unchanged (it is a frozen value)
        on_table = sum(t.current_stacks()) + (t.hand.pot_total if t.in_hand else 0)
        assert on_table + t.rake_total + cashed == bought
    assert t.hand_number > 10


def test_c4_players_waiting_for_the_big_blind_alone_at_the_table_are_dealt_in():
    """Everyone who played left and two new players sat down, both waiting for the big blind:
    without a hand the big blind never comes, so the table deals as at its first hand (the
    cluster drill's cash tables stalled this way)."""
    t, _ = hand(table(0, 1))
    for seat in (0, 1):
        t, _ = t.leave(seat, 0.0)
    t, _ = t.join(2, "cy", 100, now=0.0)
    t, _ = t.join(3, "di", 100, now=0.0)
    assert t.seats[2].status is Status.WAITING and t.seats[3].status is Status.WAITING
    t, _ = deal(t)
    assert t.hand_seats == (2, 3)
    t = finish(t)
    assert t.seats[2].status is Status.PLAYING and t.seats[3].status is Status.PLAYING
    t, _ = hand(t)  # and the next hand follows the usual rules
