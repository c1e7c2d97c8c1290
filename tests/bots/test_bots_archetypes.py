"""The six bench archetypes (bots/archetypes.py) play the styles they are named after."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from freezeout.bots import get_bot
from freezeout.bots.archetypes import ARCHETYPES
from freezeout.bots.registry import ALL_BOT_NAMES, BENCH_NAMES, BOT_NAMES
from freezeout.cards import parse_cards, shuffled_deck
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.tournament import Tournament, TournamentConfig
from freezeout.rules.views import TableView, seat_view

A = ActionKind
AGGRESSIVE = (A.BET, A.RAISE, A.ALLIN)


def _moves(name: str, opponent: str = "station", hands: int = 40, players: int = 2) -> Counter[str]:
    """What ``name`` did, by street and kind, in ``hands`` hands against ``opponent``s."""
    rng = random.Random(7)
    counts: Counter[str] = Counter()
    bots = [get_bot(name)] + [get_bot(opponent)] * (players - 1)
    played = 0
    while played < hands:
        t = Tournament.start(TournamentConfig(players=tuple(f"p{i}" for i in range(players)), button=0))
        while not t.finished and played < hands:
            t, _ = t.deal_deck(shuffled_deck(rng))
            played += 1
            while t.in_hand:
                view = seat_view(t, t.to_act)
                action = bots[t.to_act].act(view, rng)
                if t.to_act == 0:
                    street = "pre" if not any(view.board) else "post"
                    counts[f"{street}:{action.kind.value}"] += 1
                    counts[street] += 1
                t, _ = t.act(action)
    return counts


def _voluntary(counts: Counter[str]) -> float:
    """Share of preflop decisions that put chips in (a free check is not one)."""
    played = sum(counts[f"pre:{kind}"] for kind in ("call", "bet", "raise", "allin"))
    return played / max(counts["pre"], 1)


def _aggression(counts: Counter[str], street: str) -> float:
    raised = sum(counts[f"{street}:{kind.value}"] for kind in AGGRESSIVE)
    return raised / max(counts[street], 1)


def test_archetypes_are_bench_bots_and_not_offered_to_players() -> None:
    assert set(ARCHETYPES) <= set(BENCH_NAMES) and "hard-v1" in BENCH_NAMES
    assert not set(BENCH_NAMES) & set(BOT_NAMES)
    assert set(ALL_BOT_NAMES) == set(BOT_NAMES) | set(BENCH_NAMES)
    for name in ARCHETYPES:
        assert get_bot(name).name == name


def test_tight_passive_never_bets_or_raises() -> None:
    counts = _moves("tight-passive", opponent="maniac", hands=30)
    assert _aggression(counts, "pre") == 0.0 and _aggression(counts, "post") == 0.0
    assert counts["pre:fold"] > 0 and counts["pre:call"] + counts["post:call"] > 0


def _heads_up_facing_a_bet(hole: str, board: str, bet: int) -> TableView:
    t = Tournament.start(TournamentConfig(players=("p0", "p1"), button=0))
    t, _ = t.deal({0: tuple(parse_cards("2c7d")), 1: tuple(parse_cards(hole))}, tuple(parse_cards(board)))
    for seat, kind, amount in ((0, A.CALL, None), (1, A.CHECK, None), (1, A.CHECK, None), (0, A.BET, bet)):
        t, _ = t.act(Action(seat, kind, amount))
    return seat_view(t, 1)


def test_tight_passive_calls_its_fair_share_whatever_the_size() -> None:
    bot = get_bot("tight-passive")
    for bet in (20, 40, 900):
        strong = _heads_up_facing_a_bet("AhKd", "Ac9s4h3d2s", bet)  # top pair: well over half
        weak = _heads_up_facing_a_bet("5h6d", "Ac9sKhQdJs", bet)  # six high: far under
        assert bot.act(strong, random.Random(1)).kind in (A.CALL, A.ALLIN)
        assert bot.act(weak, random.Random(1)).kind is A.FOLD


def test_loose_passive_calls_much_and_raises_little() -> None:
    counts = _moves("loose-passive", opponent="maniac", hands=40)
    continued = counts["pre:call"] + counts["post:call"]
    assert continued > counts["pre:fold"] + counts["post:fold"]
    assert _aggression(counts, "post") < 0.15


def test_loose_passive_folds_trash_to_a_big_bet_and_calls_a_pair() -> None:
    bot = get_bot("loose-passive")
    assert bot.act(_heads_up_facing_a_bet("5h6d", "Ac9sKhQdJs", 60), random.Random(2)).kind is A.FOLD
    assert bot.act(_heads_up_facing_a_bet("9h6d", "Ac9sKh4d2s", 60), random.Random(2)).kind is A.CALL


def test_the_regular_plays_few_hands_and_raises_them() -> None:
    counts = _moves("tag", hands=60, players=4)
    assert _voluntary(counts) < 0.45
    assert counts["pre:raise"] + counts["pre:allin"] > counts["pre:call"]


def test_the_maniac_raises_and_bets_most_of_the_time() -> None:
    counts = _moves("maniac", hands=40)
    assert _aggression(counts, "pre") > 0.45 and _aggression(counts, "post") > 0.45


def test_the_nit_folds_most_hands_and_bets_only_strong_ones() -> None:
    counts = _moves("nit", hands=60, players=4)
    assert _voluntary(counts) < 0.25
    nit = get_bot("nit")
    t = Tournament.start(TournamentConfig(players=("p0", "p1"), button=0))
    t, _ = t.deal(
        {0: tuple(parse_cards("AsAd")), 1: tuple(parse_cards("7c2h"))}, tuple(parse_cards("Ac9s4h3d2s"))
    )
    assert nit.act(seat_view(t, 0), random.Random(3)).kind is A.RAISE  # aces: raised
    t, _ = t.act(Action(0, A.RAISE, 60))
    assert nit.act(seat_view(t, 1), random.Random(3)).kind is A.FOLD  # 72 offsuit: gone


def test_the_jammer_moves_all_in_at_every_turn_with_anything() -> None:
    counts = _moves("jammer", hands=30)
    assert counts["pre:allin"] + counts["pre:call"] == counts["pre"] > 0
    assert counts["pre:allin"] > 0 and counts["post"] == 0  # nobody ever sees a flop with chips behind


@pytest.mark.parametrize("name", ARCHETYPES)
def test_an_archetype_replays_exactly_from_its_random_source(name: str) -> None:
    view = _heads_up_facing_a_bet("Th9h", "8h7c2d5s4s", 30)
    first = [get_bot(name).act(view, random.Random(seed)) for seed in range(8)]
    again = [get_bot(name).act(view, random.Random(seed)) for seed in range(8)]
    assert first == again
