"""Elo ratings for ranked heads-up games (R25).

Standard Elo: initial 1500; K = 40 for a player's first 30 ranked games and
20 afterwards (the K of each player depends on that player's own count).

Not every ranked game is rated (docs/protocol.md "Ratings"): a game aborted
because a player left before the first hand was complete changes nothing,
and the same two accounts' games count at most ``elo_pair_daily_limit`` times
in 24 hours.  A rating is *provisional* until its account has played
``PROVISIONAL_GAMES`` rated games: shown as such, and listed after the
established ratings on the leaderboard.
"""

from __future__ import annotations

__all__ = ["INITIAL_RATING", "PROVISIONAL_GAMES", "expected_score", "k_factor", "provisional", "update"]

INITIAL_RATING = 1500.0
NEW_PLAYER_GAMES = 30  # K is 40 before this many ranked games
PROVISIONAL_GAMES = 10  # a rating is provisional before this many rated games


def provisional(rated_games: int) -> bool:
    return rated_games < PROVISIONAL_GAMES


def expected_score(rating: float, opponent: float) -> float:
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / 400.0)))


def k_factor(games_played: int) -> float:
    """K for a player who has played ``games_played`` ranked games before this one."""
    return 40.0 if games_played < NEW_PLAYER_GAMES else 20.0


def update(winner: tuple[float, int], loser: tuple[float, int]) -> tuple[float, float]:
    """New ratings of (winner, loser), each given as (rating, ranked games so far)."""
    (rw, gw), (rl, gl) = winner, loser
    new_w = rw + k_factor(gw) * (1.0 - expected_score(rw, rl))
    new_l = rl + k_factor(gl) * (0.0 - expected_score(rl, rw))
    return new_w, new_l
