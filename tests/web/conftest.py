"""Browser tests of the web front end: a real ``freezeout serve`` process on
a free port with a temporary SQLite database and short clocks, driven by
Playwright through Debian's /usr/bin/chromium (never a downloaded browser).

Every test here is marked ``browser`` and skipped with a reason when
chromium or Playwright is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from freeports import free_port

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"

# Short clocks for the tests (FREEZEOUT_* settings of freezeout.server.settings).
TURN_SECONDS = 5.0
#: How long a page may take to answer before a test gives up: a fail-safe against a hang, never a
#: wait (tests wait for conditions); generous because a loaded two-core CI machine is slow.
FAIL_SAFE_MS = 90_000
SERVER_ENV = {
    "FREEZEOUT_TURN_SECONDS": str(TURN_SECONDS),
    "FREEZEOUT_PAUSE_SECONDS": "0.6",
    "FREEZEOUT_BOT_DELAY_MIN": "0.05",
    "FREEZEOUT_BOT_DELAY_MAX": "0.15",
    # the bot presses Don't wait late, so that a human can press it first (R26)
    "FREEZEOUT_DONT_WAIT_BOT_SECONDS": "30",
    "FREEZEOUT_ARGON2_TIME_COST": "1",
    "FREEZEOUT_ARGON2_MEMORY_KIB": "8192",
    "FREEZEOUT_LOGIN_MAX_FAILURES": "50",
    "FREEZEOUT_CASH_BOT_FILL_SECONDS": "86400",  # bots fill a lone human's cash table only when a test asks
}


def _skip_reason() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is missing (apt-get install chromium, or `make system-deps`)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install playwright)"
    return None


SKIP = _skip_reason()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent == here:
            item.add_marker(pytest.mark.browser)
            if SKIP:
                item.add_marker(pytest.mark.skip(reason=SKIP))


class Server:
    def __init__(self, base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.base = base
        self.proc = proc
        self.log = log

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as response:
            return json.loads(response.read())


def _listens(pid: int, port: int) -> bool:
    """Whether process ``pid`` (or a child of it) is the one listening on ``port``."""
    import psutil

    try:
        process = psutil.Process(pid)
        for each in [process, *process.children(recursive=True)]:
            for conn in each.net_connections(kind="tcp"):
                if conn.status == psutil.CONN_LISTEN and conn.laddr and conn.laddr.port == port:
                    return True
    except psutil.Error:
        return False
    return False


def _start(tmp: Path, env: dict[str, str], log: Path) -> tuple[subprocess.Popen[bytes], str] | None:
    """One try: our server on a free port, healthy, and the one that answers there; None when
    another process answered (another test session picked the same port a moment before ours
    bound it: its ``/healthz`` would pass for ours, and the tests would talk to a server of
    another run, with other settings or code)."""
    port = free_port()
    start = log.stat().st_size if log.exists() else 0
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", "import sys; from freezeout.cli import main; sys.exit(main())",
             "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=env, stdout=out, stderr=subprocess.STDOUT, cwd=tmp,
        )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300  # a fail-safe only: a busy machine starts a server slowly
    while True:
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                if response.status == 200 and _listens(proc.pid, port):
                    return proc, base
        except OSError:
            pass
        if proc.poll() is not None:
            return None  # address in use, most likely: the log says
        with open(log, "rb") as read:
            read.seek(start)
            if b"address already in use" in read.read():  # uvicorn may stay up after it: not ours
                proc.kill()
                proc.wait()
                return None
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail("the server did not start:\n" + log.read_text(errors="replace")[-4000:])
        time.sleep(0.2)


@contextlib.contextmanager
def _serving(tmp: Path, env_extra: dict[str, str]) -> Iterator[Server]:
    """A ``freezeout serve`` process of this run on a free port with its own SQLite file, healthy."""
    env = {**os.environ, **SERVER_ENV, **env_extra, "FREEZEOUT_DATABASE_URL": f"sqlite:///{tmp / 'web.db'}"}
    log = tmp / "server.log"
    for _ in range(5):
        started = _start(tmp, env, log)
        if started is not None:
            break
    else:
        pytest.fail("the server did not start on any of 5 ports:\n" + log.read_text(errors="replace")[-4000:])
    proc, base = started
    try:
        yield Server(base, proc, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    if SKIP:
        pytest.skip(SKIP)
    with _serving(tmp_path_factory.mktemp("web-server"), {}) as running:
        yield running


@pytest.fixture(scope="session")
def patient_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose turn clock (R15) outlasts a test's slowest look at a turn on a busy
    machine (rectangles, screenshots): a test that plays whole hands through the page never
    has a move made for it by a timeout (R26) while it is still looking.  Pass it to
    ``new_page(server=patient_server)``."""
    if SKIP:
        pytest.skip(SKIP)
    with _serving(tmp_path_factory.mktemp("web-patient"), {"FREEZEOUT_TURN_SECONDS": "600"}) as running:
        yield running


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if SKIP:
        pytest.skip(SKIP)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


def _open_page(browser: Any, server: Server, contexts: list[Any], width: int, height: int, locale: str,
               context: Any = None) -> Any:
    """A page in ``context``, or in a fresh one of ``server`` (added to ``contexts``, closed by the caller)."""
    if context is None:
        context = browser.new_context(viewport={"width": width, "height": height}, locale=locale, base_url=server.base)
        context.set_default_timeout(FAIL_SAFE_MS)  # a fail-safe, not a wait: a loaded CI machine is slow
        contexts.append(context)
    page = context.new_page()
    # the scripted table (scripted.py MOUNT_JS: a page fed views, no table on the server) has
    # an empty chat, as a real table nobody spoke at; the server answers 404 for an unknown id
    page.route("**/api/tables/scripted/chat", lambda route: route.fulfill(json={"room": "spectators", "lines": []}))
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(f"pageerror: {e}"))
    page.on("console", lambda m: page.errors.append(f"console: {m.text}") if m.type == "error" else None)
    return page


@pytest.fixture
def new_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """new_page(width=1280, height=860, locale="en-US", server=None) -> a page in a fresh context
    (of ``server``, by default the session's).  Console errors are collected on page.errors."""
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 860, locale: str = "en-US", context: Any = None,
             server: Server = server) -> Any:
        return _open_page(browser, server, contexts, width, height, locale, context)

    yield make
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()


@pytest.fixture(scope="module")
def page_per_size(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """page_per_size(width, height, locale="en-US") -> the module's one page of that size and
    locale (in each worker), its console errors cleared: for tests that each mount a scripted
    table on it anew (``scripted.MOUNT_JS`` destroys the last table page and makes a new one,
    as test_web_phone_layout's seat counts do) and change nothing else a later test could see.
    Loading the page and its 40-odd files into a fresh context was half of such a test's time."""
    contexts: list[Any] = []
    pages: dict[tuple[int, int, str], Any] = {}

    def get(width: int, height: int, locale: str = "en-US") -> Any:
        key = (width, height, locale)
        if key not in pages:
            pages[key] = _open_page(browser, server, contexts, width, height, locale)
        page = pages[key]
        page.errors.clear()
        return page

    yield get
    for context in contexts:
        with contextlib.suppress(Exception):
            context.close()


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


# -- driving the table page --------------------------------------------------
STATE_JS = """() => { const t = window.__fzTable; if (!t || !t.state.table) return null;
  const s = t.state; return {view: s.view, table: s.table, you: s.you, clock: s.clock, version: s.version,
  gameOver: t.gameOver, now: t.now()}; }"""


# The table moved on from version ``v``: a new version, your turn (with moves enabled) or the end screen.
NEWS_JS = """v => { const t = window.__fzTable; return !!t && (t.state.version !== v
  || document.querySelector('.actionbar .moves:not(.off) .btn:enabled') !== null
  || document.querySelector('.endscreen:not([hidden])') !== null); }"""


# What a Python predicate may depend on: the table's version, your turn, the end screen, the page's text.
PAGE_LOOK_JS = """() => { const t = window.__fzTable;
  return [t && t.state.table ? t.state.version : -1,
          document.querySelector('.actionbar .moves:not(.off) .btn:enabled') !== null,
          document.querySelector('.endscreen:not([hidden])') !== null, document.body.textContent.length]; }"""
CHANGED_JS = f"""seen => {{ const now = ({PAGE_LOOK_JS})(); return now.some((x, i) => x !== seen[i]); }}"""


class Ui:
    """Small verbs over the real page; every move is a click on the action bar."""

    @staticmethod
    def state(page: Any) -> Any:
        page.wait_for_function(STATE_JS)
        return page.evaluate(STATE_JS)

    @staticmethod
    def my_turn(page: Any) -> bool:
        return bool(page.locator(".actionbar .moves:not(.off) .btn:enabled").count())

    @staticmethod
    def ended(page: Any) -> bool:
        return page.locator(".endscreen:not([hidden])").count() > 0

    @staticmethod
    def push(page: Any) -> str:
        """Go all-in when the rules allow it, else call or check; returns the move clicked."""
        quick = page.locator(".sizer:not([hidden]) .quick-sizes button").last
        if quick.count():
            quick.click()
        raise_btn = page.locator(".actionbar .moves .btn.allin:not(.gone):enabled")
        if raise_btn.count():
            raise_btn.click()
            return "allin"
        call = page.locator(".actionbar .moves .btn.call:enabled, .actionbar .moves .btn.check:enabled")
        call.first.click()
        return "call"

    @staticmethod
    def passive(page: Any) -> str:
        """Check when possible, else call."""
        page.locator(".actionbar .moves .btn.call:enabled, .actionbar .moves .btn.check:enabled").first.click()
        return "call"

    # States to wait for (Ui.wait_for): the page's own, read in the page at each frame.
    MY_TURN = "() => document.querySelector('.actionbar .moves:not(.off) .btn:enabled') !== null"
    DEALT = "() => { const t = window.__fzTable; return !!(t && t.state.view && t.state.view.hand_number >= 1); }"
    PAST_VERSION = "v => { const t = window.__fzTable; return !!(t && t.state.table) && t.state.version > v; }"

    @staticmethod
    def wait_for(page: Any, condition: str | Callable[[], bool], arg: Any = None, timeout: float = 90.0) -> None:
        """Wait for a state of the page: ``condition`` is a JavaScript predicate (of ``arg``)
        the page checks at each frame, e.g. ``Ui.MY_TURN``; or a Python predicate, checked
        again each time the page draws a new table version or changes its end screen or turn
        (never after a fixed time)."""
        if isinstance(condition, str):
            page.wait_for_function(condition, arg=arg, timeout=timeout * 1000)
            return
        deadline = time.monotonic() + timeout
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("timed out waiting")
            with contextlib.suppress(Exception):  # a timeout of the wait: look again, until the deadline
                page.wait_for_function(CHANGED_JS, arg=Ui._look(page), polling=100, timeout=min(left, 5.0) * 1000)

    @staticmethod
    def _look(page: Any) -> Any:
        return page.evaluate(PAGE_LOOK_JS)

    @staticmethod
    def version(page: Any) -> int:
        """The table state's version the page has drawn (-1 before the first message)."""
        return int(page.evaluate("() => window.__fzTable && window.__fzTable.state.table ? window.__fzTable.state.version : -1"))

    @staticmethod
    def moved_on(page: Any, version: int, timeout: float = 60.0) -> None:
        """Wait until ``page`` is past ``version``: a new version, its turn or the end screen."""
        page.wait_for_function(NEWS_JS, arg=version, timeout=timeout * 1000)

    @classmethod
    def await_news(cls, pages: list[Any], versions: list[int], timeout: float = 60.0) -> None:
        """Wait, after nobody's turn was found, until the table moves on from ``versions``
        (each page's, read BEFORE looking for turns): a page that lags behind another catches
        up, or else the first page not at its end screen sees a new version, its turn or the
        end screen.  Conditions only, never a time: a turn that arrived on one page after its
        version was read shows on another as a newer version."""
        top = max(versions)
        if any(v != top for v in versions):
            for page, version in zip(pages, versions, strict=True):
                if version < top:
                    page.wait_for_function("v => window.__fzTable.state.version >= v", arg=top, timeout=timeout * 1000)
            return
        waiter = next((p for p in pages if not cls.ended(p)), None)
        if waiter is not None:
            waiter.wait_for_function(NEWS_JS, arg=top, timeout=timeout * 1000)

    @classmethod
    def play_to_end(cls, pages: list[Any], move: Callable[[Any], str] | None = None, timeout: float = 150.0,
                    on_turn: Callable[[Any], None] | None = None) -> int:
        """Click moves on every page whose turn it is until every page shows the end screen."""
        move = move or cls.push
        deadline = time.monotonic() + timeout
        clicks = 0
        while not all(cls.ended(p) for p in pages):
            if time.monotonic() > deadline:
                raise AssertionError(f"the game did not end in {timeout} s; state: {cls.state(pages[0])}")
            versions = [cls.version(p) for p in pages]
            acted = False
            for p, version in zip(pages, versions, strict=True):
                if cls.my_turn(p) and not cls.ended(p):
                    if on_turn:
                        on_turn(p)
                    move(p)
                    clicks += 1
                    acted = True
                    # the move is applied (a new version), or the game ended
                    cls.moved_on(p, version)
            if not acted:
                cls.await_news(pages, versions)
        return clicks

    @staticmethod
    def register(page: Any, name: str, password: str = "correct horse 1") -> None:
        page.goto("/")
        page.locator(".who .reg").click()
        page.fill("#auth-name", name)
        page.fill("#auth-password", password)
        page.locator("dialog form button[type=submit]").click()
        page.locator(".who a.name", has_text=name).wait_for()


@pytest.fixture
def ui() -> type[Ui]:
    return Ui
