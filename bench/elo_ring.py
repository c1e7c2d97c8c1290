"""The best Elo ring one can build (issue #23 item 6), under the rating rules before
the issue and after it: how many accounts it takes to put a fresh account in first
place on a leaderboard of realistic players.

Deterministic (fixed seeds, a simulated clock): it plays the room's own rules,
``freezeout.server.elo`` (``rate`` now; ``update`` and ``counts``, the rules before),
with the store's other checks written out as the store applies them: the pair's
daily limit (``elo_pair_daily_limit``, 5 rated games a pair a day), the "shared"
rule (accounts seen at one address or device cookie in ``SHARED_WINDOW_DAYS``) and
the pair's rated games in ``PAIR_WINDOW_DAYS`` (the damping).

* **The leaderboard**: 200 honest players, strengths N(1500, 200) on the Elo
  scale, each at their own address, play 6,000 full games against random
  opponents over 60 days under the same rules; the target is the best
  established rating.
* **The ring**: a farmer and ``p`` puppets, all fresh.  The puppets make each
  other established in a round-robin (``ceil(10 / (p - 1))`` games a pair, at
  most five a pair a day; ``r`` "rich" puppets win all their games against the
  others, the rest split theirs), then the farmer wins, always the game that pays
  most, until no game pays a point or the campaign ends.  A farmer who is still
  provisional also beats fresh puppets.  Every choice is searched: ``p`` from 1
  up, every ``r``; the best ring is the one with the fewest accounts whose farmer
  ends established above the target.
* **Where**: "one address" (the issue's attack: every account from one address
  and browser) and "own addresses" (each account on its own address and with its
  own browser: a farmer with proxies, which the address rule cannot see).
* **How long**: "one sitting" (the issue's 20 minutes: 4 minutes a game, each
  pair at most five games), and campaigns of 30, 90 and 180 days (the daily
  limits reset each day, the damping window slides).

    PYTHONPATH=src .venv/bin/python bench/elo_ring.py            # the table (about a minute)

Its output (issue #23; "before" is the rules of elo.update and elo.counts):

    before #23: the best established rating of 200 honest players is 1823
      the issue's ring (6 puppets, 5 games each): farmer 1803 from one address, 1803 from own addresses
      one address , one sitting: 9 accounts (8 puppets, 4 rich), farmer 1827, 96 games over 0.3 days
      one address , 30 days    : 3 accounts (2 puppets, 0 rich), farmer 1959, 310 games over 30.9 days
      one address , 90 days    : 2 accounts (1 puppets, 0 rich), farmer 1905, 445 games over 89.2 days
      one address , 180 days   : 2 accounts (1 puppets, 0 rich), farmer 1964, 890 games over 179.5 days
      (own addresses: the same)
    after #23: the best established rating of 200 honest players is 1797
      the issue's ring (6 puppets, 5 games each): farmer 1500 from one address, 1670 from own addresses
      one address , any campaign: no ring of up to 40 puppets reaches place 1 (every game unrated: farmer 1500)
      own addresses, one sitting: 23 accounts (22 puppets, 2 rich), farmer 1798, 341 games over 0.9 days
      own addresses, 30 days    : 23 accounts (22 puppets, 0 rich), farmer 1798, 363 games over 30.0 days
      own addresses, 90 days    : 23 accounts (22 puppets, 0 rich), farmer 1798, 363 games over 90.0 days
      own addresses, 180 days   : 15 accounts (14 puppets, 0 rich), farmer 1798, 261 games over 179.7 days
    PYTHONPATH=src .venv/bin/python bench/elo_ring.py --max-puppets 40
"""

from __future__ import annotations

import argparse
import math
import random
from collections import defaultdict
from dataclasses import dataclass, field

from freezeout.server import elo

DAY = 86400.0
GAME_SECONDS = 240.0  # a full heads-up game of folds and shoves: about 4 minutes
PAIR_DAILY_LIMIT = 5  # Settings.elo_pair_daily_limit


@dataclass
class Account:
    rating: float = elo.INITIAL_RATING
    games: int = 0
    where: str = ""  # an address (and device): accounts with the same one share it
    vouched: set[str] = field(default_factory=set)  # distinct opponents who vouched (#32)
    last: float = -1e18  # when a game last counted for it

    @property
    def established(self) -> bool:
        return elo.established(self.games, len(self.vouched))


@dataclass
class Room:
    """Ratings by the rules ``before`` issue #23 or ``after`` it, as the store applies them (elo.decide, through storage/ratings.py)."""

    after: bool
    standing: bool = False  # the rules of #32 item 6 too: established by eight vouching opponents
    accounts: dict[str, Account] = field(default_factory=dict)
    rated: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    now: float = 0.0

    def add(self, name: str, where: str) -> None:
        self.accounts[name] = Account(where=where)

    def _pair(self, a: str, b: str) -> tuple[str, str]:
        return (a, b) if a < b else (b, a)

    def allowed(self, a: str, b: str) -> bool:
        """Whether a game of ``a`` and ``b`` now would be rated (neither shared nor over the daily limit)."""
        if self.after and self.accounts[a].where == self.accounts[b].where:
            return False  # unrated "shared"
        return sum(t > self.now - DAY for t in self.rated[self._pair(a, b)]) < PAIR_DAILY_LIMIT

    def outcome(self, winner: str, loser: str) -> tuple[elo.Change, elo.Change]:
        w, lo = self.accounts[winner], self.accounts[loser]
        if not self.after:  # the rules before #23: each side's own K, no damping
            new_w, new_l = elo.update((w.rating, w.games), (lo.rating, lo.games))
            counts_w, counts_l = elo.counts(w.games, lo.games, won=True), elo.counts(lo.games, w.games, won=False)
            return (elo.Change(w.rating, new_w if counts_w else w.rating, counts_w),
                    elo.Change(lo.rating, new_l if counts_l else lo.rating, counts_l))
        n = sum(t > self.now - elo.PAIR_WINDOW_DAYS * DAY for t in self.rated[self._pair(winner, loser)])
        worth = self.vouches(loser, for_win=True) if self.standing else None
        return elo.rate((w.rating, w.games), (lo.rating, lo.games), pair_games=n, loser_vouches=worth)

    def settled(self) -> int:
        return sum(acc.established for acc in self.accounts.values())

    def vouches(self, name: str, *, for_win: bool = False) -> bool:
        acc = self.accounts[name]
        return elo.vouches("user", games=acc.games, established_now=acc.established, family_established=self.settled(),
                           for_win=for_win)

    def play(self, winner: str, loser: str) -> None:
        """One full game (never short), ``winner`` winning; the clock moves on by a game."""
        if self.allowed(winner, loser):
            vouch = {winner: self.vouches(loser), loser: self.vouches(winner)}
            for name, change in zip((winner, loser), self.outcome(winner, loser), strict=True):
                if change.counted:
                    acc = self.accounts[name]
                    acc.rating, acc.games, acc.last = change.after, acc.games + 1, self.now
                    if vouch[name]:
                        acc.vouched.add(loser if name == winner else winner)
            self.rated[self._pair(winner, loser)].append(self.now)
        self.now += GAME_SECONDS

    def placed(self, name: str) -> bool:
        """Whether ``name`` takes a place on the leaderboard now (elo.listed under #32; established before)."""
        acc = self.accounts[name]
        if not self.standing:
            return not elo.provisional(acc.games)
        return elo.listed(acc.established, acc.last, self.now)


def honest_room(after: bool, *, standing: bool = False, players: int = 200, games: int = 6000, days: float = 60.0,
                seed: int = 23) -> Room:
    """A room of honest players of N(1500, 200) strength after ``games`` games over ``days`` days."""
    rng = random.Random(seed)
    room = Room(after, standing)
    strength = {}
    for i in range(players):
        room.add(f"p{i}", f"address {i}")
        strength[f"p{i}"] = rng.gauss(1500.0, 200.0)
    names = list(strength)
    for _ in range(games):
        a, b = rng.sample(names, 2)
        won = rng.random() < elo.expected_score(strength[a], strength[b])
        room.play(*((a, b) if won else (b, a)))
        room.now += days * DAY / games - GAME_SECONDS
    return room


def leaderboard_top(after: bool, *, standing: bool = False) -> float:
    """The best rating with a place among 200 honest players of N(1500, 200) strength."""
    room = honest_room(after, standing=standing)
    return max(acc.rating for name, acc in room.accounts.items() if room.placed(name))


def standing_ring(accounts: int, *, room: Room, days: float = 30.0) -> tuple[int, float]:
    """Issue #32 item 6: a ring of ``accounts`` (a farmer and puppets, each on its own address
    and browser) playing only each other in ``room`` for ``days`` days, as hard as the rules
    let it: every pair as many games as the daily limit allows, results arranged so that each
    member gets every counted game it can, then the farmer beats whoever still pays.  How
    many of its members take a place on the leaderboard, and the farmer's rating."""
    names = ["farmer", *(f"puppet{i}" for i in range(accounts - 1))]
    for i, name in enumerate(names):
        room.add(name, f"ring proxy {i}")
    end = room.now + days * DAY
    while room.now < end:
        for round_ in range(PAIR_DAILY_LIMIT):
            for i in range(len(names)):
                for j in range(i + 1, len(names)):
                    room.play(*((names[i], names[j]) if (round_ + i + j) % 2 else (names[j], names[i])))
        for name in names[1:]:
            while room.allowed("farmer", name) and room.outcome("farmer", name)[0].counted:
                change = room.outcome("farmer", name)[0]
                if change.after - change.before < 0.05:
                    break
                room.play("farmer", name)
        room.now = max(room.now, end - days * DAY) + DAY
    return sum(room.placed(name) for name in names), room.accounts["farmer"].rating


def smallest_placed_ring(*, mature: bool, max_accounts: int) -> int | None:
    """The fewest accounts a ring needs under #32 for one of them to take a place: in a family of
    200 established honest players (``mature``), or a new one (nobody established yet)."""
    for accounts in range(2, max_accounts + 1):
        room = honest_room(True, standing=True) if mature else Room(True, True)
        if standing_ring(accounts, room=room)[0]:
            return accounts
    return None


@dataclass(frozen=True)
class Ring:
    puppets: int
    rich: int
    farmer: float
    established: bool
    games: int
    days: float


def ring(after: bool, puppets: int, rich: int, *, one_address: bool, campaign_days: float | None) -> Ring:
    """The ring of ``puppets`` (``rich`` of them winning the round-robin), played as well as
    the rules allow within the campaign (None: one sitting, each pair at most five games)."""
    room = Room(after)
    room.add("farmer", "home")
    names = [f"puppet{i}" for i in range(puppets)]
    for i, name in enumerate(names):
        room.add(name, "home" if one_address else f"proxy {i}")
    played = 0
    if puppets >= 2:  # the round-robin (a farmer still provisional also gains from provisional puppets)
        per_pair = min(PAIR_DAILY_LIMIT, math.ceil(elo.PROVISIONAL_GAMES / (puppets - 1))) if campaign_days is None \
            else math.ceil(elo.PROVISIONAL_GAMES / (puppets - 1))
        for round_ in range(per_pair):
            if campaign_days is not None and round_ and round_ % PAIR_DAILY_LIMIT == 0:
                room.now += DAY
            for i in range(puppets):
                for j in range(i + 1, puppets):
                    if i < rich and j >= rich:
                        room.play(names[i], names[j])
                    else:
                        room.play(*((names[i], names[j]) if (round_ + i + j) % 2 else (names[j], names[i])))
                    played += 1
    end = room.now + (campaign_days * DAY if campaign_days is not None else 0.0)
    sitting: dict[str, int] = defaultdict(int)
    while True:
        best, gain = None, 0.05
        for name in names:
            if not room.allowed("farmer", name) or (campaign_days is None and sitting[name] >= PAIR_DAILY_LIMIT):
                continue
            change = room.outcome("farmer", name)[0]
            if change.counted and change.after - change.before > gain:
                best, gain = name, change.after - change.before
        if best is not None:
            room.play("farmer", best)
            sitting[best] += 1
            played += 1
            continue
        if campaign_days is None or room.now + DAY > end:
            break
        room.now += DAY  # the daily limits reset
    farmer = room.accounts["farmer"]
    return Ring(puppets, rich, farmer.rating, not elo.provisional(farmer.games), played, room.now / DAY)


def issue_ring(after: bool, *, one_address: bool) -> float:
    """The issue's own attack: 6 puppets, a round-robin of 2 games a pair, then each puppet
    loses 5 games to the fresh farmer; the farmer's rating."""
    room = Room(after)
    room.add("farmer", "home")
    names = [f"puppet{i}" for i in range(6)]
    for i, name in enumerate(names):
        room.add(name, "home" if one_address else f"proxy {i}")
    for round_ in range(2):
        for i in range(6):
            for j in range(i + 1, 6):
                room.play(*((names[i], names[j]) if (round_ + i + j) % 2 else (names[j], names[i])))
    for name in names:
        for _ in range(5):
            room.play("farmer", name)
    return room.accounts["farmer"].rating


def best_ring(after: bool, target: float, *, one_address: bool, campaign_days: float | None,
              max_puppets: int) -> tuple[Ring | None, Ring]:
    """The smallest ring whose farmer ends established above ``target`` (None if none up to
    ``max_puppets``), and the ring that got the farmer highest."""
    highest: Ring | None = None
    for puppets in range(1, max_puppets + 1):
        for rich in range(puppets + 1):
            built = ring(after, puppets, rich, one_address=one_address, campaign_days=campaign_days)
            if highest is None or built.farmer > highest.farmer:
                highest = built
            if built.established and built.farmer > target:
                return built, highest
    assert highest is not None
    return None, highest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-puppets", type=int, default=30)
    parser.add_argument("--max-accounts", type=int, default=12, help="the largest ring tried under #32")
    parser.add_argument("--only-standing", action="store_true", help="only the rules of #32 item 6")
    args = parser.parse_args()
    print("after #32 (a place takes eight established opponents, elo.established):")
    print(f"  the issue's ring (6 puppets and the farmer, own addresses, 30 days): in a family of 200 established "
          f"players {standing_ring(7, room=honest_room(True, standing=True))[0]} placed, in a new family "
          f"{standing_ring(7, room=Room(True, True))[0]} placed")
    for mature in (True, False):
        found = smallest_placed_ring(mature=mature, max_accounts=args.max_accounts)
        where = "a family of 200 established players" if mature else "a new family (nobody established)"
        print(f"  {where}: " + (f"a ring of {found} accounts takes a place" if found is not None
                                else f"no ring of up to {args.max_accounts} accounts takes a place"))
    if args.only_standing:
        return
    for after in (False, True):
        rules = "after #23" if after else "before #23"
        target = leaderboard_top(after)
        print(f"{rules}: the best established rating of 200 honest players is {target:.0f}")
        print(f"  the issue's ring (6 puppets, 5 games each): farmer {issue_ring(after, one_address=True):.0f} from one "
              f"address, {issue_ring(after, one_address=False):.0f} from own addresses")
        for one_address in (True, False):
            for days in (None, 30.0, 90.0, 180.0):
                found, highest = best_ring(after, target, one_address=one_address, campaign_days=days,
                                           max_puppets=args.max_puppets)
                where = "one address " if one_address else "own addresses"
                when = ("one sitting" if days is None else f"{days:.0f} days").ljust(11)
                if found is None:
                    print(f"  {where}, {when}: no ring of up to {args.max_puppets} puppets reaches place 1 "
                          f"(the best: {highest.puppets} puppets, farmer {highest.farmer:.0f})")
                else:
                    print(f"  {where}, {when}: {found.puppets + 1} accounts ({found.puppets} puppets, {found.rich} rich),"
                          f" farmer {found.farmer:.0f}, {found.games} games over {found.days:.1f} days")


if __name__ == "__main__":
    main()
