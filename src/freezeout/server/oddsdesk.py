"""The odds calculator's desk: ``GET /api/odds`` computes here (docs/protocol.md "Odds").

One client cannot burn the server's CPU with it:

* **work per request is capped**: at most :data:`MAX_HANDS` hands and texts
  of at most :data:`MAX_TEXT` characters; past that the engine's own limits
  hold (exact up to its enumeration limits, else Monte Carlo with
  :data:`~freezeout.analysis.equity.SAMPLES` deals and seed 0, so a shared
  address always shows the same numbers; ranges too wide to list are drawn);
* **the limit counts work, not requests**: each question answered costs one
  of the address's ``odds_per_minute``, a question answered before (the last
  :data:`CACHED`) costs nothing; a batch (``GET /api/odds/batch``, a
  run-out's every pot and run at once) holds at most :data:`MAX_BATCH`
  questions of exact cards, all checked before any is computed, and is
  refused whole (429) when its new questions exceed what the address has left;
  a request refused after it was counted (503 busy, or a question the
  calculator refuses) is given back: only questions answered count;
* **one computation at a time** runs, in a thread of its own (the kernels
  release the GIL), never on the event loop, so tables are not stalled; at
  most ``odds_queue_limit`` more wait, and beyond that the answer is 503 busy;
* the last :data:`CACHED` answers are kept: opening a shared address again
  costs nothing.
"""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict, deque
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final

from freezeout.server.clock import Clock

__all__ = ["MAX_BATCH", "MAX_HANDS", "MAX_TEXT", "OddsBusy", "OddsDesk", "OddsRefused", "Question", "check", "compute"]

MAX_HANDS: Final = 10
MAX_TEXT: Final = 400
#: Questions in one batch: a nine-handed run-out's eight pots, each run twice (C7).
MAX_BATCH: Final = 16
CACHED: Final = 256
WINDOW_SECONDS: Final = 60.0


class OddsRefused(ValueError):
    """Input the calculator refuses: the message says exactly what is wrong (HTTP 400)."""


class OddsBusy(RuntimeError):
    """Too many computations wait already (HTTP 503)."""


def _round(values: Sequence[float] | None, index: int) -> float | None:
    return None if values is None else round(values[index], 6)


#: One question: (game, hands, board, dead).
Question = tuple[str, tuple[str, ...], str, str]


def _check_shape(hands: Sequence[str], board: str, dead: str) -> None:
    """What every question must be before the calculator reads it: 2 to ``MAX_HANDS`` hands,
    none empty, no text over ``MAX_TEXT`` characters."""
    if not 2 <= len(hands) <= MAX_HANDS:
        raise OddsRefused(f"give 2 to {MAX_HANDS} hands, got {len(hands)}")
    for number, text in enumerate(hands, start=1):
        if not text.strip():
            raise OddsRefused(f"hand {number} is empty")
    for text in (*hands, board, dead):
        if len(text) > MAX_TEXT:
            raise OddsRefused(f"a hand, board or dead cards of at most {MAX_TEXT} characters, got {len(text)}")


def check(game: str, hands: Sequence[str], board: str, dead: str, *, ranges: bool = True) -> None:
    """Raise :class:`OddsRefused` for a question the calculator would refuse, computing nothing."""
    from freezeout.analysis.odds import OddsError
    from freezeout.analysis.odds import check as check_odds

    _check_shape(hands, board, dead)
    try:
        check_odds([text.strip() for text in hands], board=board.strip(), dead=dead.strip(), game=game)
    except OddsError as error:
        raise OddsRefused(str(error)) from None
    if not ranges:
        from freezeout.analysis.ranges import is_range

        for number, text in enumerate(hands, start=1):
            if is_range(text.strip()):
                raise OddsRefused(f"hand {number}: a batch takes cards, not ranges ({text.strip()!r})")


@functools.lru_cache(maxsize=CACHED)
def compute(game: str, hands: tuple[str, ...], board: str, dead: str) -> dict[str, Any]:
    """The answer of ``GET /api/odds`` (pure: the same input, the same answer)."""
    from freezeout.analysis.equity import SAMPLES
    from freezeout.analysis.odds import OddsError, odds

    _check_shape(hands, board, dead)
    try:
        chosen, result = odds([text.strip() for text in hands], board=board.strip(), dead=dead.strip(), game=game,
                              seed=0, samples=SAMPLES)
    except OddsError as error:
        raise OddsRefused(str(error)) from None
    players = []
    for index, text in enumerate(hands):
        entry: dict[str, Any] = {"hand": text.strip(), "equity": round(result.equity[index], 6),
                                 "win": round(result.win[index], 6), "tie": round(result.tie[index], 6),
                                 "error": round(result.error[index], 6)}
        if result.high is not None:
            entry["high"], entry["low"] = _round(result.high, index), _round(result.low, index)
        players.append(entry)
    return {"game": chosen.code, "name": chosen.name, "split": chosen.split, "exact": result.exact,
            "deals": result.deals, "samples": None if result.exact else SAMPLES, "seed": None if result.exact else 0,
            "no_low": None if result.no_low is None else round(result.no_low, 6), "hands": players}


def _compute_all(questions: list[Question]) -> list[dict[str, Any]]:
    return [compute(*question) for question in questions]


class OddsDesk:
    """Where ``GET /api/odds`` waits its turn: the per-address limit, the queue and the one thread."""

    def __init__(self, per_minute: int, queue_limit: int, clock: Clock) -> None:
        self.per_minute, self.clock = per_minute, clock
        self.queue_limit = queue_limit
        self.waiting = 0
        self._spent: dict[str, deque[float]] = {}
        self._known: OrderedDict[Question, None] = OrderedDict()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="odds")

    def cost(self, questions: Sequence[Question]) -> int:
        """The work ``questions`` cost: one per question not answered lately (the rest are cached)."""
        return len({q for q in questions if q not in self._known})

    def retry_after(self, address: str, cost: int = 1) -> float | None:
        """Seconds until ``address`` may spend ``cost`` more, or None: it may now (and it is spent)."""
        now = self.clock.now()
        times = self._spent.setdefault(address, deque())
        while times and times[0] <= now - WINDOW_SECONDS:
            times.popleft()
        if cost and len(times) + cost > self.per_minute:
            if cost > self.per_minute:
                return WINDOW_SECONDS
            return times[len(times) + cost - self.per_minute - 1] + WINDOW_SECONDS - now
        times.extend([now] * cost)
        if len(self._spent) > 100_000:  # bound memory under a flood of addresses
            self._spent = {address: times}
        return None

    def refund(self, address: str, cost: int) -> None:
        """Give back ``cost`` that :meth:`retry_after` let ``address`` spend for a request that
        was then not answered (503 busy, 400): only questions answered count against the limit."""
        times = self._spent.get(address)
        for _ in range(min(cost, len(times) if times else 0)):
            assert times is not None
            times.pop()

    def _answered(self, question: Question) -> None:
        self._known[question] = None
        self._known.move_to_end(question)
        while len(self._known) > CACHED:
            self._known.popitem(last=False)

    async def odds(self, game: str, hands: Sequence[str], board: str, dead: str) -> dict[str, Any]:
        if self.waiting > self.queue_limit:
            raise OddsBusy("the odds calculator is busy; try again in a moment")
        self.waiting += 1
        try:
            loop = asyncio.get_running_loop()
            answer = await loop.run_in_executor(self._pool, compute, game, tuple(hands), board, dead)
        finally:
            self.waiting -= 1
        self._answered((game, tuple(hands), board, dead))
        return answer

    async def batch(self, questions: Sequence[Question]) -> list[dict[str, Any]]:
        """The answers to ``questions`` (checked already), computed one after another in the
        desk's thread as one turn of its queue."""
        if self.waiting > self.queue_limit:
            raise OddsBusy("the odds calculator is busy; try again in a moment")
        self.waiting += 1
        try:
            loop = asyncio.get_running_loop()
            answers = await loop.run_in_executor(self._pool, _compute_all, list(questions))
        finally:
            self.waiting -= 1
        for question in questions:
            self._answered(question)
        return answers

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
