"""A private table by invite link (issue #37): the creator (on a phone, in Czech) opens a
private table, copies its invite link; a second browser context (desktop, English) opens the
link and sits down; the creator makes a new link; the old one now shows "no such table" and
the new one opens the table."""

from __future__ import annotations

import re
import uuid

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _inside(page, locator) -> None:
    """The control is drawn inside the viewport, not merely clickable."""
    box = locator.bounding_box()
    size = page.viewport_size
    assert box is not None, locator
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= size["width"] + 0.5 and box["y"] + box["height"] <= size["height"] + 0.5, (box, size)


def table_id(page) -> str:
    return re.search(r"#/table/([^/?]+)", page.url).group(1)


def _path(link: str) -> str:
    return link[link.index("/#/"):]


def test_create_private_copy_the_link_join_with_it_and_revoke(new_page, ui, artifacts):
    ana = new_page(width=360, height=640, locale="cs-CZ")
    bo = new_page(width=1366, height=900)
    ui.register(ana, "ana" + uuid.uuid4().hex[:6])
    ui.register(bo, "bo" + uuid.uuid4().hex[:6])
    # the creator asks for a private freezeout of three places
    ana.goto("/")
    ana.locator("label[for=csize-3]").click()
    box = ana.locator("#cprivate")
    box.check()  # a locator: it waits for the box and scrolls it into view itself
    expect(box).to_be_checked()
    _inside(ana, box)
    expect(ana.locator("#cranked")).to_be_disabled()  # ranked games are always public
    ana.locator(".create button[type=submit]").click()
    expect(ana).to_have_url(re.compile(r"#/table/"))
    table_id = re.search(r"#/table/([^/?]+)", ana.url).group(1)
    # it is listed nowhere
    bo.goto("/")
    bo.locator(".table-list, .tables p.empty").first.wait_for()
    assert bo.locator(f".table-list li[data-table='{table_id}']").count() == 0
    # the creator's "Invite link" (Czech: Pozvánka), inside the phone's screen
    invite = ana.locator(".table-head button.invite")
    invite.wait_for(state="visible")
    for button in ana.locator(".table-head button:visible, .table-head a:visible").all():
        _inside(ana, button)  # the head's other tools still fit beside it
    assert ana.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    ana.screenshot(path=str(artifacts / "private-table-phone-cs.png"))
    invite.click()
    link_box = ana.locator("dialog .invite-link")
    link_box.wait_for()
    link = link_box.input_value()
    assert re.search(rf"/#/table/{table_id}\?invite=[A-Za-z0-9_-]{{32}}$", link), link
    for control in ("#invite-copy", "#invite-renew"):
        _inside(ana, ana.locator(control))
    ana.locator("#invite-copy").click()
    ana.locator(".toast", has_text=re.compile("zkopírován|zkopíruj")).wait_for()
    ana.screenshot(path=str(artifacts / "private-invite-phone-cs.png"))
    # the second context opens the link and sits down
    bo.goto(_path(link))
    ui.wait_for(bo, lambda: (ui.state(bo)["table"] or {}).get("id") == table_id)
    assert ui.state(bo)["table"]["private"] is True
    assert bo.locator(".table-head button.invite").is_hidden()  # only the creator shares the link
    bo.locator(".seat.empty .plate").first.click()
    ui.wait_for(bo, lambda: ui.state(bo)["you"]["slot"] is not None)
    # the creator makes a new link: the old one stops at once
    ana.locator("#invite-renew").click()
    ui.wait_for(ana, lambda: ana.locator("dialog .invite-link").input_value() != link)
    new_link = ana.locator("dialog .invite-link").input_value()
    carol = new_page(width=1366, height=900)
    carol.goto(_path(link))
    carol.locator(".panel", has_text="This table does not exist.").wait_for()
    carol.goto("/")
    carol.goto(_path(new_link))
    ui.wait_for(carol, lambda: (ui.state(carol)["table"] or {}).get("id") == table_id)
    # bo keeps his place
    assert ui.state(bo)["you"]["slot"] is not None
    for page in (ana, bo, carol):
        assert not [e for e in page.errors if "404" not in e], page.errors


def test_a_private_cash_table_from_a_phone(new_page, ui):
    """The cash table's create dialog has the box too (inside a phone's screen); the table it
    opens is not in the lobby, and without the link it does not exist."""
    ana = new_page(width=360, height=640, locale="cs-CZ")
    bo = new_page(width=1366, height=900)
    ui.register(ana, "ana" + uuid.uuid4().hex[:6])
    ui.register(bo, "bo" + uuid.uuid4().hex[:6])
    ana.goto("/")
    ana.locator("section.cash-tables .create-cash").click()
    dialog = ana.locator("dialog.cash-create-dialog")
    dialog.wait_for()
    box = ana.locator("#cash-private")
    box.check()
    expect(box).to_be_checked()
    _inside(ana, box)
    create = dialog.locator("button.create-go")
    create.scroll_into_view_if_needed()
    _inside(ana, create)
    create.click()
    expect(dialog.locator(".cash-error")).to_be_hidden()
    expect(ana).to_have_url(re.compile(r"#/table/"))
    table_id = re.search(r"#/table/([^/?]+)", ana.url).group(1)
    invite = ana.locator(".table-head button.invite")
    invite.wait_for(state="visible")
    _inside(ana, invite)
    invite.click()
    link = ana.locator("dialog .invite-link")
    link.wait_for()
    assert f"/#/table/{table_id}?invite=" in link.input_value()
    bo.goto("/")
    bo.locator("section.cash-tables").wait_for()
    assert bo.locator(f"[data-table='{table_id}']").count() == 0
    bo.goto(f"/#/table/{table_id}")
    bo.locator(".panel", has_text="This table does not exist.").wait_for()
    bo.goto("/")
    bo.goto(_path(link.input_value()))
    ui.wait_for(bo, lambda: (ui.state(bo)["table"] or {}).get("id") == table_id)


def test_the_creator_approves_a_seat_asked_by_the_link(new_page, ui):
    """Approval on: the friend's click on a seat waits (said in Czech on a phone); the creator
    (desktop, English) sees the request and approves it; the friend is seated."""
    ana = new_page(width=1366, height=900)
    bo = new_page(width=360, height=640, locale="cs-CZ")
    ui.register(ana, "ana" + uuid.uuid4().hex[:6])
    ui.register(bo, "bo" + uuid.uuid4().hex[:6])
    ana.goto("/")
    ana.locator("label[for=csize-3]").click()
    ana.check("#cprivate")
    ana.locator(".create button[type=submit]").click()
    ana.wait_for_url("**/#/table/*")
    ana.locator(".table-head button.invite").click()
    link = ana.locator("dialog .invite-link")
    link.wait_for()
    ana.check("#approval")
    ana.locator("#approval:checked").wait_for()
    ui.wait_for(ana, lambda: ana.evaluate("() => window.__fzTable.privacy.guests.approval") is True)
    bo.goto(_path(link.input_value()))
    ui.wait_for(bo, lambda: (ui.state(bo)["table"] or {}).get("private") is True)
    seat = bo.locator(".seat.empty .plate").first
    _inside(bo, seat)
    seat.click()
    bo.locator(".toast", has_text="čeká na zakladatele").wait_for()
    request = ana.locator("dialog .guest-list.requests li")
    request.wait_for()
    _inside(ana, request.locator("button.primary"))
    request.locator("button.primary").click()
    ui.wait_for(bo, lambda: ui.state(bo)["you"]["slot"] is not None)
    # a place held for carol by her account's name: she needs no link, and no approval
    carol = new_page(width=1366, height=900)
    carol_name = "carol" + uuid.uuid4().hex[:6]
    ui.register(carol, carol_name)
    ana.fill("#reserve-name", carol_name)
    ana.locator(".reserve-form button[type=submit]").click()
    ana.locator("dialog .guest-list li", has_text=carol_name).wait_for()
    expect(ana.locator("#reserve-name")).to_have_value("")  # emptied once the server answered the request
    carol.goto(f"/#/table/{table_id(ana)}")
    ui.wait_for(carol, lambda: (ui.state(carol)["table"] or {}).get("private") is True)
    carol.locator(".seat.empty .plate").first.click()
    ui.wait_for(carol, lambda: ui.state(carol)["you"]["slot"] is not None)
    for page in (ana, bo, carol):
        assert not page.errors, page.errors


def _hold_catalogue(page) -> list:
    """Hold the page's GET /api/catalogue until the test lets it go (``for r in held: r.continue_()``):
    the lobby as a busy server or a slow phone line draws it, the catalogue coming last."""
    held: list = []

    def hold(route) -> None:
        held.append(route)

    page.route("**/api/catalogue*", hold)
    return held


def test_the_create_form_keeps_what_you_filled_in_when_the_catalogue_comes(new_page, ui):
    """The catalogue coming while you fill in the create form redraws nothing you touched: the
    private box is the same box, still ticked and focused, and the size you picked stays."""
    ana = new_page(width=360, height=640, locale="cs-CZ")
    ui.register(ana, "ana" + uuid.uuid4().hex[:6])
    held = _hold_catalogue(ana)
    ana.goto("/")
    ana.locator("label[for=csize-3]").click()
    ana.locator("#cprivate").check()
    ana.locator("#cprivate").focus()
    ana.evaluate("() => { window.__box = document.getElementById('cprivate'); }")
    ui.wait_for(ana, lambda: len(held) > 0)
    for route in held:
        route.continue_()
    expect(ana.locator("#create-game-pick")).to_be_attached()  # the catalogue is drawn
    assert ana.evaluate("() => window.__box === document.getElementById('cprivate') && window.__box.isConnected")
    assert ana.evaluate("() => document.activeElement && document.activeElement.id") == "cprivate"
    expect(ana.locator("#cprivate")).to_be_checked()
    expect(ana.locator("#csize-3")).to_be_checked()


def test_the_cash_dialog_opened_before_the_catalogue_still_creates(new_page, ui):
    """The cash table's dialog opened before the catalogue came gets its games when they come,
    and what was set meanwhile stays: the table is made and opened."""
    ana = new_page(width=1366, height=900)
    ui.register(ana, "ana" + uuid.uuid4().hex[:6])
    held = _hold_catalogue(ana)
    ana.goto("/")
    ana.locator("section.cash-tables .create-cash").click()
    dialog = ana.locator("dialog.cash-create-dialog")
    dialog.locator("#cash-private").check()
    ui.wait_for(ana, lambda: len(held) > 0)
    for route in held:
        route.continue_()
    expect(dialog.locator("#cash-game option").first).to_be_attached()
    expect(dialog.locator("#cash-private")).to_be_checked()
    dialog.locator("button.create-go").click()
    expect(dialog.locator(".cash-error")).to_be_hidden()
    expect(ana).to_have_url(re.compile(r"#/table/"))
