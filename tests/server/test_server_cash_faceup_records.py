"""V20 in a cash hand's history: a hand turned face up for an all-in run-out is public —
the loser of a table that mucks (V17) is shown in the history, to every asker, in its
PHH, in the PokerStars text and in the fairness reveal."""

from __future__ import annotations

from test_server_cash_records import play

from freezeout.formats.stars_cash import cash_hand_to_stars
from freezeout.server.fairness import verify_cash_hand
from freezeout.server.table.records import cash_hand_for


def test_v20_a_turned_up_cash_loser_is_public_in_the_hand_history() -> None:
    log = play({"big_blind": 200}, ["KsKh", "AsAh"], "2c7d9h3dJc", all_in=True)  # heads-up, no show_called
    hand = log.recorder.cash.hand(1)
    assert hand is not None
    loser = "p11"  # KsKh lost to AsAh; turned up before the run-out, so never mucked
    assert loser not in hand["mucked"] and loser in hand["shown"]
    for viewer in (None, "p12", loser):
        seen = cash_hand_for(hand, viewer)
        assert seen["hole"] == {"p11": "KsKh", "p12": "AsAh"}
        assert max(seen["phh"].index('"p1 sm AsAh"'), seen["phh"].index('"p2 sm KsKh"')) < seen["phh"].index('"d db ')
        assert all(card in seen["deck"] for card in ("Ks", "Kh", "As", "Ah"))  # the reveal opens both hands
        assert verify_cash_hand(seen)["ok"], verify_cash_hand(seen)
        text = cash_hand_to_stars(seen, hero=viewer)
        assert "p11: shows [Ks Kh]" in text and "mucks" not in text and "mucked" not in text
