"""Screenshots of every game family at the table (issue #22 "The page"), on a
375x667 phone and a 1366x900 desktop, into ``docs/screenshots/games/``.

    PYTHONPATH=src .venv/bin/python bench/game_screenshots.py [--out DIR] [--only CODE ...]

A ``freezeout serve`` process serves the page; each picture is the real
table page (``TablePage``) fed the server's own messages for a hand dealt
from a fixed deck (``tests/web/scripted_games.GameScript``: the views come
from the server's ``FreezeoutGame``), so the pictures are the same at every
run and show each game at its telling moment: the river in limit hold'em,
Omaha Hi/Lo's split result, seventh street in stud and razz, the draw picker
with cards marked in the draw games, a HORSE level's header.  Browser:
Debian's /usr/bin/chromium (never a downloaded one).  The PNGs are reduced
to a 256-colour palette when Pillow is installed (they are committed).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "tests" / "web"), str(ROOT / "bench")]

from scripted import mount  # noqa: E402
from scripted_games import GameScript, play_to_showdown  # noqa: E402
from test_web_phone_layout import SETTLED_JS  # noqa: E402

from serverproc import ServerProcess  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
SIZES = {"phone": (375, 667), "desktop": (1366, 900)}
NAMES = ["alice", "bot-station", "bot-random", "bot-station-2"]
BOTS = {1: "station", 2: "random", 3: "station"}

# name of the picture -> (game, the moment: "river" your last betting turn, "draw" your
# last draw with two cards marked, "showdown" the result)
SHOTS: dict[str, tuple[str, str]] = {
    "holdem-fixed-limit": ("FT", "river"),
    "omaha-hilo": ("FO/8", "showdown"),
    "stud": ("F7S", "river"),
    "razz": ("FR", "river"),
    "five-card-draw-picker": ("F5CD", "draw"),
    "triple-draw-2-7": ("F2L3D", "draw"),
    "badugi": ("FB", "draw"),
    "horse": ("HORSE", "river"),
}


class _Stop(Exception):
    """The moment of the picture is on the page."""


def _moment(page: Any, code: str, moment: str, seed: int) -> None:
    """Put ``code``'s hand on the mounted page at ``moment``."""
    s = GameScript(code, NAMES, bots=BOTS)
    s.deal_seeded(seed)
    s.feed(page, s.snapshot())
    turns: list[tuple[int, bool]] = []

    def count(s: GameScript, legal: Any) -> None:
        turns.append((len(turns), "discard" in legal.moves))

    probe = GameScript(code, NAMES, bots=BOTS)
    probe.deal_seeded(seed)
    play_to_showdown(probe, 0, count)
    wanted = [i for i, drawing in turns if drawing == (moment == "draw")]
    stop = wanted[-1] if wanted and moment != "showdown" else None

    mine = iter(range(len(turns)))

    def at_turn(s: GameScript, legal: Any) -> None:
        if next(mine) == stop:
            s.feed(page, s.update(s.feed_pending))
            if moment == "draw":  # two cards marked in the picker, "Draw 2" on the button
                for pick in (1, 2):
                    page.locator(".drawpick .pick").nth(pick).click()
            raise _Stop

    s.pause = 10  # the result stays on the table (the pictures are taken at once)
    try:
        events = play_to_showdown(s, 0, at_turn)
    except _Stop:
        return
    s.feed(page, s.update(events))


def _shrink(path: Path) -> None:
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screenshots" / "games")
    parser.add_argument("--only", nargs="*", help="picture names (default: all)")
    parser.add_argument("--seed", type=int, default=22, help="the deck's shuffle")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server = ServerProcess(Path(tmp))
        server.start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox", "--disable-gpu"])
                for name, (code, moment) in SHOTS.items():
                    if args.only and name not in args.only:
                        continue
                    for size_name, (width, height) in SIZES.items():
                        context = browser.new_context(viewport={"width": width, "height": height}, base_url=server.url)
                        page = context.new_page()
                        page.emulate_media(reduced_motion="reduce")  # the cards at rest at once
                        mount(page)
                        _moment(page, code, moment, args.seed)
                        page.evaluate(SETTLED_JS)  # the cards dealt and turned, the chips at rest
                        path = args.out / f"{name}-{size_name}-{width}x{height}.png"
                        page.screenshot(path=str(path))
                        _shrink(path)
                        print(f"{path.relative_to(ROOT)}  {path.stat().st_size // 1024} KiB")
                        context.close()
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
