"""Elo ratings for ranked heads-up games (R25), made hard to farm with sock puppets.

Elo: initial 1500; K = 40 for a player's first 30 counted games and 20
afterwards (the K of each player depends on that player's own count; a win
gains at most the loser's K, see "Rings" below).

Not every ranked game is rated (docs/protocol.md "Ratings"): a game aborted
because a player left before the first hand was complete changes nothing,
and the same two accounts' games count at most ``elo_pair_daily_limit`` times
in 24 hours.  Those two rules stop one puppet being farmed over and over, but
not a farmer with a supply of *fresh* puppets, each of which plays (folds) one
hand so that the game is not aborted and then resigns.  :func:`rate` closes
that with two rules, after what real sites do:

* **A win over a provisional opponent is worth nothing to an established
  rating.**  A rating is provisional until ``PROVISIONAL_GAMES`` games have
  counted for its account.  When an established player beats a provisional
  one, the game does not count for the winner (lichess gets nearly the same
  from Glicko: a new opponent's large rating deviation makes the game worth
  almost nothing to an established player; zero is simpler and leaves no
  remainder to farm).  The provisional player's result counts as usual, so
  a newcomer's games against established players rate the newcomer, and two
  provisional players rate each other.  A farmer can therefore gain from
  puppets only while the farmer is provisional too, in ``PROVISIONAL_GAMES``
  counted games: +157 (to 1657) from ten wins over fresh puppets, and never
  more than K each.
* **Leaving in the first few hands is a loss for the leaver only.**  When the
  loser resigned or was forfeited out before ``SHORT_GAME_HANDS`` hands were
  complete, the game does not count for the winner, whose rating stays: an
  opponent who gives up at once is no evidence of the winner's strength, and
  the cheap farm (one hand, then resign) gains nothing even from provisional
  puppets.

A loss always counts, also an established player's loss to a provisional
one: were it free, a farmer could lose game after game to a fresh puppet at
no cost, raising the puppet's rating by up to K a game, and then farm that
inflated, now established puppet.  Not counting the established winner's
win only ever takes points out of the system, never puts any in.

A game that does not count for a player leaves their rating and their count
of games alone and writes no history row for them; the count of counted games
is what makes a rating established.

Rings (issue #23 item 6)
------------------------
The rules above left one farm open: a *ring* of puppets that make each other
established (round-robin), then each loses a few full games to a fresh
account: six puppets took a new account from 1500 to 1802, first place, from
one address in twenty minutes.  Three rules close it (the numbers, before and
after, are bench/elo_ring.py's, quoted in docs/protocol.md "Ratings"):

* **Accounts that share an address or a device are not rated against each
  other** (the store decides it, :data:`SHARED_WINDOW_DAYS`): when both
  accounts were seen at the same client address, or with the same ``fz_device``
  cookie, in the last 30 days (at log-in, sign-up, table creation or sitting
  down), the game is recorded but ``unrated: "shared"``.  Poker rooms forbid
  two accounts of one household at one table for the same reason.  Loopback
  addresses identify nobody (behind a reverse proxy without
  ``X-Forwarded-For`` every client is 127.0.0.1) and do not count; the device
  cookie still does.
* **Repeated pairings shrink fast**: a game's changes, both sides, are
  multiplied by ``PAIR_DAMPING ** n`` (½ⁿ), ``n`` the rated games the same two
  accounts played in the last :data:`PAIR_WINDOW_DAYS` days.  Whatever the
  results, one opponent can move a rating by at most twice one game's change
  in a window (1 + ½ + ¼ + … = 2), as lichess's repeated-pairing rules intend.
* **A win takes no more than the loser gives**: the winner's gain is computed
  with ``min(K_winner, K_loser)``, the loser's loss with their own K, so no
  game adds points to the room (the sum of the two ratings never rises).  A
  newcomer's K of 40 still applies in full to their losses and to wins over
  other newcomers (ordinary play between new accounts); beating an
  established puppet (K 20) pays a newcomer exactly what it pays an
  established player, so the newcomer's K does not make a ring cheaper.

Standing earned outside the ring (issue #32 item 6)
---------------------------------------------------
A ring of accounts each with its own address and browser walks around every rule
above: six puppets still lifted one to 1669 and first place in every family.  A
place on the leaderboard is now earned against players outside the ring:

* **Established takes eight established opponents.**  A rating is *established*
  (:func:`established`) once ``PROVISIONAL_GAMES`` games counted for it *and* it
  has counted games against ``ESTABLISHING_OPPONENTS`` (8) distinct registered
  accounts that *vouched* for it: whose own rating in the family was established
  when they played (:func:`vouches`).  Bots and guests never vouch (anyone may play
  the five bots, so they would make the eight cheap).  A ring whose members are not
  established vouches for nobody, however many games it plays; a new family (or
  room) has to start somewhere, so while fewer than eight ratings of the family are
  established, every registered opponent vouches.
* **Wins over unestablished players stop paying.**  After a player's first
  ``PROVISIONAL_GAMES`` counted games, a win counts only over an opponent who is
  established (any bot with ``PROVISIONAL_GAMES`` games, or any player while the
  family is new, see above): :func:`counts` with ``opponent_vouches``.  Puppets that
  are not established are worth nothing to a farmer past his first ten games.
* **The leaderboard lists established ratings active in the last 30 days**
  (:func:`listed`, ``ACTIVE_DAYS``): nothing else stands on it, not even unnumbered.

So a ring of up to eight accounts can put none of them on any leaderboard: each has
at most seven distinct opponents inside it.  A ring of nine can establish itself
only in a family with fewer than eight established ratings (a new one), where it
would be the first players anyway; anywhere else each member first has to play
eight established players outside it (bench/elo_ring.py; docs/protocol.md "Ratings").

Families (issue #22)
--------------------
Every ranked game is heads-up, in any game, and counts in its game's *family*:
each family is a rating of its own (its own count of games, provisional until
it has ``PROVISIONAL_GAMES``, its own leaderboard and history), under every
rule above, the rings' ones included, applied within the family.  The house
game (``NT``, R1–R30) is a family alone, ``house``: its rating is the account's
rating as it always was.  The others follow from the game's data (:func:`family`):
a mix is ``mixed``; a game with draws ``draw``; one that deals hole cards after
the first street ``stud``; a board game with more than two hole cards
``omaha``; any other board game (limit and pot-limit hold'em, short-deck) ``holdem``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from freezeout.rules.games import HOUSE_GAME, Mix, parse_game

__all__ = ["ACTIVE_DAYS", "ESTABLISHING_OPPONENTS", "FAMILIES", "HOUSE_FAMILY", "INITIAL_RATING", "PAIR_DAMPING",
           "PAIR_WINDOW_DAYS", "PROVISIONAL_GAMES", "SHARED_WINDOW_DAYS", "SHORT_GAME_HANDS", "Change", "GameFacts",
           "HistoryRow", "Standing", "Verdict", "counts", "decide", "established", "expected_score", "family",
           "k_factor", "listed", "pair_factor", "provisional", "rate", "short_game", "update", "vouches"]

INITIAL_RATING = 1500.0
NEW_PLAYER_GAMES = 30  # K is 40 before this many counted games
PROVISIONAL_GAMES = 10  # a rating is provisional before this many counted games
SHORT_GAME_HANDS = 5  # the loser left before this many hands were complete: a loss for the leaver only
SHARED_WINDOW_DAYS = 30  # two accounts seen at one address or device within this: not rated against each other
PAIR_WINDOW_DAYS = 90  # the rated games of a pair within this shrink the next one's changes ...
PAIR_DAMPING = 0.5  # ... by this factor each
ESTABLISHING_OPPONENTS = 8  # distinct established opponents a rating needs to be established (#32)
ACTIVE_DAYS = 30  # the leaderboard lists ratings with a counted game within this

HOUSE_FAMILY = "house"
#: The rating families, the house game's first (the default of every rating question).
FAMILIES = (HOUSE_FAMILY, "holdem", "omaha", "stud", "draw", "mixed")


def family(code: str) -> str:
    """The rating family of a table's game ``code`` (a variant or a mix, rules/games.py)."""
    if code == HOUSE_GAME:
        return HOUSE_FAMILY
    game = parse_game(code)
    if isinstance(game, Mix):
        return "mixed"
    if game.has_draws:
        return "draw"
    if game.deals_later_hole_cards:
        return "stud"
    return "omaha" if game.hole_cards > 2 else "holdem"


def provisional(rated_games: int) -> bool:
    """Whether a rating with ``rated_games`` counted games is still provisional (shown with "?")."""
    return rated_games < PROVISIONAL_GAMES


def established(counted_games: int, vouching_opponents: int) -> bool:
    """Whether a rating is established: ``PROVISIONAL_GAMES`` counted games, against at least
    ``ESTABLISHING_OPPONENTS`` distinct opponents who vouched (:func:`vouches`); the module's
    "Standing earned outside the ring"."""
    return not provisional(counted_games) and vouching_opponents >= ESTABLISHING_OPPONENTS


def vouches(kind: str, *, games: int, established_now: bool, family_established: int, for_win: bool = False) -> bool:
    """Whether an opponent of ``kind`` (``user``, ``bot``, ``guest``) with ``games`` counted games
    in the family, established or not (``established_now``), vouches for the player it meets
    while the family has ``family_established`` established ratings.  ``for_win``: whether a
    win over it counts past the winner's first games (:func:`counts`) — a bot's does once the
    bot has ``PROVISIONAL_GAMES`` games; otherwise, towards the eight distinct opponents that
    establish a rating, only registered players vouch.  In a new family (fewer than
    ``ESTABLISHING_OPPONENTS`` established) every registered player vouches, and for a win
    every one with ``PROVISIONAL_GAMES`` games."""
    new_family = family_established < ESTABLISHING_OPPONENTS
    if for_win:
        if provisional(games):
            return False
        return kind == "bot" or established_now or (kind == "user" and new_family)
    return kind == "user" and (established_now or new_family)


def listed(is_established: bool, last_counted_at: float | None, now: float) -> bool:
    """Whether a rating stands on its family's leaderboard: established, with a counted game in
    the last ``ACTIVE_DAYS`` days."""
    return is_established and last_counted_at is not None and last_counted_at >= now - ACTIVE_DAYS * 86400.0


def short_game(hands_complete: int | None) -> bool:
    """Whether a game the loser left after ``hands_complete`` complete hands (None: nobody left,
    the loser ran out of chips) is short: a loss for the leaver, nothing for the winner.  Zero
    complete hands is not short but aborted (docs/protocol.md "Ratings"), decided before this."""
    return hands_complete is not None and hands_complete < SHORT_GAME_HANDS


def counts(own_games: int, opponent_games: int, *, won: bool, short: bool = False,
           opponent_vouches: bool | None = None) -> bool:
    """Whether a rated game counts for a player with ``own_games`` counted games against an
    opponent with ``opponent_games``: a loss always; a win unless the game was ``short``, or
    the winner is past the first ``PROVISIONAL_GAMES`` games and the opponent does not vouch
    (``opponent_vouches``: :func:`vouches` ``for_win``; None: it has ``PROVISIONAL_GAMES`` games,
    the rule before #32)."""
    if not won:
        return True
    worth = not provisional(opponent_games) if opponent_vouches is None else opponent_vouches
    return not short and (provisional(own_games) or worth)


def expected_score(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / 400.0)))


def k_factor(games_played: int) -> float:
    """K for a player who has played ``games_played`` counted games before this one."""
    return 40.0 if games_played < NEW_PLAYER_GAMES else 20.0


def update(winner: tuple[float, int], loser: tuple[float, int]) -> tuple[float, float]:
    """Plain Elo, each side with its own K: new ratings of (winner, loser), each given as
    (rating, counted games so far).  :func:`rate` is what the room applies; this is the
    rule before issue #23 (bench/elo_ring.py's "before")."""
    (rw, gw), (rl, gl) = winner, loser
    new_w = rw + k_factor(gw) * (1.0 - expected_score(rw, rl))
    new_l = rl + k_factor(gl) * (0.0 - expected_score(rl, rw))
    return new_w, new_l


@dataclass(frozen=True, slots=True)
class Change:
    """One player's side of a rated game: the rating before and after, and whether the game
    counts for them (if not, ``after == before``, their count stays and no history is written)."""

    before: float
    after: float
    counted: bool


def pair_factor(pair_games: int) -> float:
    """What a game's changes are multiplied by when the same two accounts already played
    ``pair_games`` rated games in the last ``PAIR_WINDOW_DAYS`` days: 1, ½, ¼, …"""
    return float(PAIR_DAMPING ** max(0, pair_games))


def rate(winner: tuple[float, int], loser: tuple[float, int], *, short: bool = False, pair_games: int = 0,
         loser_vouches: bool | None = None) -> tuple[Change, Change]:
    """Both sides of a rated game, each player given as (rating, counted games so far);
    ``short`` when the loser left in the first hands (:func:`short_game`), ``pair_games``
    the rated games of the same two accounts in the last ``PAIR_WINDOW_DAYS`` days,
    ``loser_vouches`` whether a win over the loser is worth anything to an experienced winner
    (:func:`vouches` ``for_win``; None: the loser has ``PROVISIONAL_GAMES`` games).

    The winner gains ``min(K_w, K_l) * (1 - E_w)``, the loser loses ``K_l * (1 - E_w)``,
    both times :func:`pair_factor` (the module's "Rings")."""
    (rw, gw), (rl, gl) = winner, loser
    factor = pair_factor(pair_games)
    upset = 1.0 - expected_score(rw, rl)  # what the winner had not been expected to score
    new_w = rw + min(k_factor(gw), k_factor(gl)) * upset * factor
    new_l = rl - k_factor(gl) * upset * factor
    for_winner = counts(gw, gl, won=True, short=short, opponent_vouches=loser_vouches)
    for_loser = counts(gl, gw, won=False)
    return (Change(rw, new_w if for_winner else rw, for_winner), Change(rl, new_l if for_loser else rl, for_loser))


# -- the policy: facts in, a verdict out (storage reads the facts and writes the verdict) --------


@dataclass(frozen=True, slots=True)
class Standing:
    """One player of a ranked game as the family knew them before it: the account, the name
    they played under, their rating and counted games, their kind (``user``, ``bot``,
    ``guest``), whether their rating was established, and the distinct opponents who vouched
    for them so far (what makes a rating established, :func:`established`)."""

    account: int
    name: str
    rating: float
    games: int
    kind: str
    established: bool
    vouched_by: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class GameFacts:
    """Everything the rules of a ranked game's rating depend on, read by the store in the
    transaction that ends the game: who won and lost, whether the game was aborted or left
    short (``left_after``: complete hands when the loser left; None: they ran out of chips),
    whether the two accounts share an address or device (the module's "Rings"), the pair's
    rated games in the last 24 hours (against ``pair_limit``) and in the last
    ``PAIR_WINDOW_DAYS`` days, and how many ratings of the family are established."""

    winner: Standing
    loser: Standing
    family_established: int
    aborted: bool = False
    shared: bool = False
    left_after: int | None = None
    pair_limit: int | None = None
    pair_games_today: int = 0
    pair_games_recent: int = 0


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A counted game's row of one player's rating history: ``vouched`` whether the opponent
    vouched for this player (counts towards the eight that establish a rating)."""

    account: int
    before: float
    after: float
    opponent: int
    vouched: bool


@dataclass(frozen=True, slots=True)
class Verdict:
    """What a ranked game does to the ratings.  ``unrated``: why it is not rated
    (``aborted``, ``shared``, ``pair_limit``), and nothing else is set; otherwise ``ratings``
    (both players' [before, after] by the name they played under, rounded as shown), the rows
    to write for each player the game counts for (their new rating and one more counted game),
    and ``provisional``: the names whose rating is not established after it."""

    unrated: str | None = None
    ratings: Mapping[str, tuple[float, float]] | None = None
    rows: tuple[HistoryRow, ...] = ()
    provisional: tuple[str, ...] = ()


def decide(facts: GameFacts) -> Verdict:
    """The rating of one ranked heads-up game (R25) under every rule of this module: not
    rated when aborted, between accounts that share an address or device, or past the pair's
    daily limit; else :func:`rate` with the rings' rules, and who is established after it."""
    if facts.aborted:
        return Verdict("aborted")
    if facts.shared:
        return Verdict("shared")
    if facts.pair_limit is not None and facts.pair_games_today >= facts.pair_limit:
        return Verdict("pair_limit")
    winner, loser = facts.winner, facts.loser

    def vouches_for(opponent: Standing, *, for_win: bool = False) -> bool:
        return vouches(opponent.kind, games=opponent.games, established_now=opponent.established,
                       family_established=facts.family_established, for_win=for_win)

    changes = rate((winner.rating, winner.games), (loser.rating, loser.games), short=short_game(facts.left_after),
                   pair_games=facts.pair_games_recent, loser_vouches=vouches_for(loser, for_win=True))
    shown: dict[str, tuple[float, float]] = {}
    rows: list[HistoryRow] = []
    still: list[str] = []
    for player, other, change in ((winner, loser, changes[0]), (loser, winner, changes[1])):
        shown[player.name] = (round(change.before, 1), round(change.after, 1))
        vouched_by = player.vouched_by
        if change.counted:
            vouched = vouches_for(other)
            rows.append(HistoryRow(player.account, change.before, change.after, other.account, vouched))
            if vouched:
                vouched_by = vouched_by | {other.account}
        if not established(player.games + change.counted, len(vouched_by)):
            still.append(player.name)
    return Verdict(None, shown, tuple(rows), tuple(still))
