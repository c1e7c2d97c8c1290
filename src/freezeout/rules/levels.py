"""The level schedule of a freezeout (R6, D11, V18, V19): each level's forced
bets in each game, and how long a level lasts — 6 hands, or one orbit at a
table that dealt more than 6 players at the level's start (V18).  Pure
arithmetic: :class:`~freezeout.rules.tournament.Tournament` keeps the clock."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from freezeout.rules.errors import InvalidInput
from freezeout.rules.variant import BettingStructure, Forced, Variant

__all__ = [
    "HANDS_PER_LEVEL",
    "HOUSE_LEVELS",
    "STUD_LEVELS",
    "Level",
    "LevelClock",
    "blinds_for_hand",
    "default_levels",
    "game_level",
    "level_for_hand",
    "level_length",
    "stud_level",
]


# R6: (small blind, big blind) per level; the last level holds until the end.
HOUSE_LEVELS: tuple[tuple[int, int], ...] = (
    (10, 20),
    (20, 40),
    (40, 80),
    (75, 150),
    (150, 300),
    (300, 600),
    (500, 1000),
)
HANDS_PER_LEVEL = 6


class Level(NamedTuple):
    """The forced bets of one level (R6, V18): blinds, or in stud an ante and
    a bring-in; fixed-limit games add their small and big bet (V3)."""

    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    bring_in: int = 0
    small_bet: int = 0
    big_bet: int = 0


#: V18: stud levels (ante, bring-in, small bet, big bet) doubling roughly as R6 does.
STUD_LEVELS: tuple[Level, ...] = (
    Level(ante=2, bring_in=5, small_bet=20, big_bet=40),
    Level(ante=4, bring_in=10, small_bet=40, big_bet=80),
    Level(ante=8, bring_in=20, small_bet=80, big_bet=160),
    Level(ante=15, bring_in=40, small_bet=150, big_bet=300),
    Level(ante=30, bring_in=75, small_bet=300, big_bet=600),
    Level(ante=60, bring_in=150, small_bet=600, big_bet=1200),
    Level(ante=100, bring_in=250, small_bet=1000, big_bet=2000),
)


def stud_level(big_blind: int) -> Level:
    """V18/V19: a stud level taken from a big blind, in the proportions of
    :data:`STUD_LEVELS` (which it reproduces from R6's big blinds): the
    small bet is the big blind and the big bet twice it, the ante a tenth of
    the big blind (rounded down; none below 10 chips), the bring-in a
    quarter of it rounded up to a multiple of 5 chips — but always below the
    small bet (V7), at most half of it for big blinds under 20."""
    if type(big_blind) is not int or big_blind < 2:
        raise InvalidInput(f"a stud level needs a big blind of at least 2 chips, got {big_blind!r}")
    bring_in = min(5 * -(-big_blind // 20), big_blind // 2)
    return Level(ante=big_blind // 10, bring_in=bring_in, small_bet=big_blind, big_bet=2 * big_blind)


def game_level(level: Level | tuple[int, int], variant: Variant) -> Level:
    """V18/V19: the forced bets of ``variant`` at a level named by its blinds:
    the blind games post the level's blinds (no-limit and pot-limit bet from
    the big blind); fixed limit adds a small bet of one big blind and a big
    bet of two; stud posts :func:`stud_level` of the big blind.  So every
    game of a mix takes its sizes from the same big blind."""
    small, big = level[0], level[1]
    if variant.forced is Forced.BRING_IN:
        return stud_level(big)
    if variant.betting is BettingStructure.FIXED_LIMIT:
        return Level(small, big, small_bet=big, big_bet=2 * big)
    return Level(small, big)


def default_levels(variant: Variant) -> tuple[Level, ...]:
    """V18: the level schedule of a freezeout in ``variant`` — R6's blinds;
    fixed-limit bets of one and two big blinds; stud's :data:`STUD_LEVELS`."""
    return tuple(game_level(level, variant) for level in HOUSE_LEVELS)


def level_for_hand(number: int, levels: Sequence[Level | tuple[int, int]] = HOUSE_LEVELS, per_level: int = HANDS_PER_LEVEL) -> Level:
    """R6/D11, V18: the level of hand ``number`` (1-based); every dealt hand counts."""
    level = levels[min((number - 1) // per_level, len(levels) - 1)]
    return level if isinstance(level, Level) else Level(*level)


def level_length(dealt: int, per_level: int = HANDS_PER_LEVEL) -> int:
    """V18: the hands a level lasts when its first hand dealt ``dealt``
    players: ``per_level`` (R6's 6), but at a table that dealt more than 6
    players one orbit — as many hands as were dealt in (never fewer than
    ``per_level``), so that every player posts each level's blinds once."""
    return max(per_level, dealt) if dealt > HANDS_PER_LEVEL else per_level


class LevelClock(NamedTuple):
    """V18: where a freezeout stands in its schedule — its level (0-based,
    counting on past the last level, whose sizes hold, so that a mix keeps
    turning, V19), the number of its first hand and how many hands it lasts
    (:func:`level_length` of the players its first hand dealt).  Before the
    first hand: level -1 and no hands, so hand 1 opens level 0."""

    level: int = -1
    first: int = 1
    length: int = 0

    @property
    def last(self) -> int:
        """The number of the level's last hand."""
        return self.first + self.length - 1

    def for_hand(self, number: int, dealt: int, per_level: int = HANDS_PER_LEVEL) -> LevelClock:
        """The clock of hand ``number`` (the next one, or one of this level),
        which deals ``dealt`` players: this level while it lasts, otherwise
        the next level, starting with this hand."""
        if number <= self.last:
            return self
        if self.level < 0 and number > 1:
            # A tournament that never dealt through its clock (built at a later hand):
            # the schedule of ``per_level`` hands puts it where it stands.
            level = (number - 1) // per_level
            return LevelClock(level, level * per_level + 1, per_level)
        return LevelClock(self.level + 1, max(number, self.last + 1), level_length(dealt, per_level))


def blinds_for_hand(number: int, levels: Sequence[Level | tuple[int, int]] = HOUSE_LEVELS, per_level: int = HANDS_PER_LEVEL) -> tuple[int, int]:
    """R6/D11: the blinds of hand ``number`` (1-based); every dealt hand counts."""
    level = level_for_hand(number, levels, per_level)
    return level.small_blind, level.big_blind
