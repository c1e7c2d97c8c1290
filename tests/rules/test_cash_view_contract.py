"""The cash half of the view contract (rules/cashview.py, issue #33 item 5): the rules' cash
table says, as the freezeout view does (rules/views.py), everything a client draws — its
``format``, the seats' chips and cards, the result — and the viewer's top-up range (C1, C2),
so the page works none of it out."""

from __future__ import annotations

from test_cash_faceup import deck_for

from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.cash import CashTable
from freezeout.rules.cashconfig import CashConfig
from freezeout.rules.cashview import cash_view


def test_c2_the_view_gives_each_seated_viewer_its_top_up_range_and_says_it_is_a_cash_view() -> None:
    t = CashTable.open(CashConfig(seats=4, min_buy_in=40, max_buy_in=200))
    for seat, name in enumerate(("ana", "bo", "cy")):
        t, _ = t.join(seat, name, 100, now=0.0)
    t, _ = t.deal(deck_for("KsKh", "AsAh", "7c2d", board="3c8d9hJsQc"))
    assert cash_view(t, 0)["format"] == "cash" and "before_result" not in cash_view(t, 0)  # the hand is on
    t, _ = t.act(Action(0, ActionKind.ALLIN), 0.0)
    t, _ = t.act(Action(1, ActionKind.CALL), 0.0)
    t, _ = t.act(Action(2, ActionKind.FOLD), 0.0)
    stacks = {seat["seat"]: seat.get("stack") for seat in cash_view(t, None)["seats"]}
    assert stacks == {0: 0, 1: 202, 2: 98, 3: None}  # bo won ana's 100 and cy's big blind
    assert cash_view(t, 0)["top_up"] == {"min": 40, "max": 200}  # C2: a rebuy is at least the minimum buy-in
    assert cash_view(t, 2)["top_up"] == {"min": 1, "max": 200 - 98}  # up to the maximum buy-in on the table
    assert cash_view(t, 1)["top_up"] == {"min": 1, "max": -2}  # above the maximum already: nothing fits
    assert cash_view(t, 3)["top_up"] is None and cash_view(t, None)["top_up"] is None
    # the table before the pots were awarded, as the freezeout view gives it (the page draws it during a run-out)
    assert cash_view(t, 2)["before_result"] == {"stacks": [0, 0, 98, None], "pots": [{"pot": 0, "amount": 202}]}
    result = cash_view(t, None)["result"]
    assert [(pot["amount"], [(w["seat"], w["chips"], w["player"]) for w in pot["winners"]]) for pot in result] == [
        (202, [(1, 202, "bo")])]
