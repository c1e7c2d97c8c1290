"""Invariants over random legal play (hypothesis): chips are conserved
(except what R28 makes vanish), stacks never go negative, a hand in
progress always has exactly one player to act, the record replays to the
same state, and no view shows another seat's hidden cards (R8)."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from freezeout.formats.record import parse_record, replay_record
from freezeout.rules import seat_view
from freezeout.rules.events import CardsDealt
from freezeout.rules.rebuild import rebuild
from freezeout.rules.views import view_dicts

from randomplay import play_random_tournament

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=4)
RULESETS = st.sampled_from(["house", "standard"])


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS, ruleset=RULESETS)
def test_chips_are_conserved_and_never_negative(seed, players, ruleset):
    game = play_random_tournament(seed, players, ruleset=ruleset, keep_snapshots=True)
    total = 1000 * players
    vanished_so_far = 0
    for t in game.snapshots:
        on_table = sum(t.current_stacks()) + (t.hand.pot_total if t.in_hand else 0)
        assert all(s >= 0 for s in t.current_stacks())
        if t.in_hand:
            assert all(b >= 0 for b in t.hand.bets)
        vanished_so_far = total - on_table
        assert 0 <= vanished_so_far <= game.vanished
    t = game.tournament
    assert sum(t.current_stacks()) + game.vanished == total
    if t.finished:
        assert t.current_stacks()[t.winner] == total - game.vanished
        assert sorted(p for p in t.places if p is not None)[0] == 1


@settings(max_examples=60, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_a_hand_in_progress_always_has_exactly_one_player_to_act(seed, players):
    game = play_random_tournament(seed, players, keep_snapshots=True)
    for t in game.snapshots:
        if t.in_hand:
            assert t.to_act >= 0 and t.alive[t.to_act]
            assert t.legal_actions() is not None
        else:
            assert t.to_act == -1 and t.legal_actions() is None


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS, ruleset=RULESETS)
def test_the_record_replays_to_the_same_state(seed, players, ruleset):
    game = play_random_tournament(seed, players, ruleset=ruleset)
    result = replay_record(parse_record(game.writer.to_json()))
    t = game.tournament
    assert result.tournament.current_stacks() == t.current_stacks()
    assert result.tournament.places == t.places
    assert result.finished == t.finished


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_views_never_show_another_seats_hidden_cards(seed, players):
    game = play_random_tournament(seed, players, keep_snapshots=True)
    for t in game.snapshots:
        if t.hand is None:
            continue
        for viewer in [None, *range(players)]:
            view = seat_view(t, viewer)
            for seat_view_ in view.seats:
                if seat_view_.cards is None or seat_view_.seat == viewer:
                    continue
                hand = t.hand
                hand_seat = t.seats.index(seat_view_.seat)
                assert hand.finished and hand.showdown and hand.shown[hand_seat] and not hand.folded[hand_seat]
            if view.legal is not None:
                assert view.to_act == viewer


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_shared_view_dicts_equal_each_seats_own_view(seed, players):
    """The server's shortcut (one spectator view patched per seat) says exactly what seat_view says."""
    game = play_random_tournament(seed, players, keep_snapshots=True)
    viewers = [None, *range(players), players]  # the last one: a seat number not at the table
    for t in game.snapshots:
        shared = view_dicts(t, viewers)
        for viewer in viewers:
            assert shared[viewer] == seat_view(t, viewer).to_dict()
            assert list(shared[viewer]) == list(seat_view(t, viewer).to_dict())  # key order: same JSON text


@settings(max_examples=40, deadline=None)
@given(seed=SEEDS, players=PLAYERS, ruleset=RULESETS)
@example(seed=19358, players=4, ruleset="house")  # two resign one after the other between hands
def test_the_event_log_alone_rebuilds_the_tournament(seed, players, ruleset):
    game = play_random_tournament(seed, players, ruleset=ruleset)
    t = game.tournament
    rebuilt = rebuild(t.config, game.events)
    assert rebuilt.current_stacks() == t.current_stacks()
    assert rebuilt.places == t.places and rebuilt.forfeits == t.forfeits
    assert rebuilt.hand_number == t.hand_number and rebuilt.winner == t.winner


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_the_public_hand_log_never_carries_the_deal(seed, players):
    game = play_random_tournament(seed, players, keep_snapshots=True)
    for t in game.snapshots:
        assert not any(isinstance(e, CardsDealt) for e in t.hand_log)
