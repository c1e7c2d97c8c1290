"""PokerStars text as fpdb-3's PokerStars parser reads it (issue #32 items 8 and 10).

Every move line of every game is one of the forms the parser knows (``fpdb_forms``), and read
the parser's way — a raise *to* its round total, a bet or call as chips added — the text adds up
to the engine's final stacks.  A stud completion is written as the site writes it: ``raises X to
Y`` over the bring-in, or ``bets Y`` by the bring-in seat itself (never Full Tilt's "completes it
to", which the parser drops with its chips); single-draw games deal ``*** DRAW ***``; stud high
says ``Pair on board - a double bet is allowed`` when fourth street shows an open pair (V7)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from fpdb_forms import family, read_chips
from test_phh_games_export import hands_of
from test_stars import final_stacks, table_players

from freezeout.formats.stars import PAIR_ON_BOARD, hand_to_stars
from freezeout.rules.events import ActionTaken, HoleDealt, Resigned, StreetDealt
from freezeout.rules.variant import VARIANTS

WHEN = datetime(2026, 12, 3, 12, 0, 5, tzinfo=UTC)


def _kind(code: str) -> str:
    variant = VARIANTS[code]
    draws = sum(1 for street in variant.streets if street.draw)
    return family(variant.street_names, bring_in=variant.uses_bring_in, draws=draws)


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_every_line_is_a_form_fpdb_reads_and_adds_up_to_the_engine_s_stacks(code: str) -> None:
    players = table_players(code)
    checked = 0
    for hand in hands_of(code, at_least=30):
        if any(isinstance(e, Resigned) for e in hand.events):
            continue
        for hero in (players[0], None):
            text = hand_to_stars(hand, players, tournament=5, when=WHEN, hero=hero)
            assert read_chips(text, _kind(code)) == final_stacks(hand, players), text
        checked += 1
    assert checked >= 20


def _stud_hands_with(code: str, predicate) -> list:  # type: ignore[no-untyped-def]
    return [hand for hand in hands_of(code, at_least=60) if predicate(hand)]


def test_a_stud_completion_is_a_raise_over_the_bring_in_or_the_bring_in_seat_s_bet() -> None:
    players = table_players("F7S")
    over, own = 0, 0
    for hand in hands_of("F7S", at_least=80):
        moves = [e for e in hand.events if isinstance(e, ActionTaken)]
        text = hand_to_stars(hand, players, tournament=5, when=WHEN)
        assert "completes" not in text
        if not moves or moves[0].kind not in ("bringin", "complete"):
            continue
        first = moves[0]
        if first.kind == "complete":  # the bring-in seat completed itself: the site's "bets"
            assert f"{players[first.seat]}: bets {first.added}" in text, text
            own += 1
        else:
            completion = next((m for m in moves[1:] if m.kind == "complete"), None)
            if completion is not None:
                line = f"{players[completion.seat]}: raises {completion.total - first.total} to {completion.total}"
                assert line in text, text
                over += 1
    assert over >= 3 and own >= 1, (over, own)


def test_single_draw_games_deal_the_draw_and_triple_draw_numbers_it() -> None:
    for code, header, never in (("F5CD", "*** DRAW ***", "FIRST DRAW"), ("N2L1D", "*** DRAW ***", "FIRST DRAW"),
                                ("F2L3D", "*** FIRST DRAW ***", "*** DRAW ***")):
        players = table_players(code)
        texts = [hand_to_stars(hand, players, tournament=5, when=WHEN) for hand in hands_of(code, at_least=20)]
        assert any(header in text for text in texts), code
        assert not any(never in text for text in texts), code


def _open_pair_on_fourth(hand) -> bool:  # type: ignore[no-untyped-def]
    """From the events alone: a player still in shows a pair among their up-cards on fourth street."""
    up: dict[int, list[int]] = {}
    folded: set[int] = set()
    fourth = False
    for event in hand.events:
        if isinstance(event, StreetDealt):
            if event.street == "fifth street":
                break
            fourth = fourth or event.street == "fourth street"
        elif isinstance(event, HoleDealt):
            up.setdefault(event.seat, []).extend(c.rank for c, u in zip(event.cards, event.up, strict=True) if u and c is not None)
        elif isinstance(event, ActionTaken) and event.kind == "fold" and not fourth:
            folded.add(event.seat)
    return fourth and any(len(r) != len(set(r)) for s, r in up.items() if s not in folded)


def test_stud_high_says_pair_on_board_when_fourth_street_shows_one() -> None:
    players = table_players("F7S")
    said = 0
    for hand in hands_of("F7S", at_least=120):
        text = hand_to_stars(hand, players, tournament=5, when=WHEN)
        if "*** 4th STREET ***" not in text:
            continue
        expected = _open_pair_on_fourth(hand)
        assert (PAIR_ON_BOARD in text) == expected, text
        if expected:
            fourth = text.split("*** 4th STREET ***")[1].splitlines()
            at = fourth.index(PAIR_ON_BOARD)
            assert all(line.startswith("Dealt to ") for line in fourth[1:at]), text  # after the cards, before the bets
            said += 1
    assert said >= 1
    for hand in hands_of("FR", at_least=40):  # razz has no such rule (V7: stud high only)
        assert PAIR_ON_BOARD not in hand_to_stars(hand, table_players("FR"), tournament=5, when=WHEN)
