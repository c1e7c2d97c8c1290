"""The rating policy as a pure function (R25, elo.py): the facts of a ranked game in, what it
does to the ratings out.  Storage reads the facts and writes the verdict; it decides nothing."""

from __future__ import annotations

from freezeout.server import elo
from freezeout.server.elo import GameFacts, HistoryRow, Standing, decide


def newcomer(account: int, name: str, **kw: object) -> Standing:
    return Standing(account, name, kw.pop("rating", 1500.0), kw.pop("games", 0), kw.pop("kind", "user"),  # type: ignore[arg-type]
                    kw.pop("established", False), kw.pop("vouched_by", frozenset()))  # type: ignore[arg-type]


def test_an_aborted_game_a_shared_address_or_the_pairs_daily_limit_changes_no_rating():
    ana, bo = newcomer(1, "ana"), newcomer(2, "bo")
    assert decide(GameFacts(ana, bo, 0, aborted=True)) == elo.Verdict("aborted")
    assert decide(GameFacts(ana, bo, 0, shared=True)) == elo.Verdict("shared")
    assert decide(GameFacts(ana, bo, 0, pair_limit=3, pair_games_today=3)) == elo.Verdict("pair_limit")
    assert decide(GameFacts(ana, bo, 0, pair_limit=3, pair_games_today=2)).unrated is None


def test_two_newcomers_rate_each_other_and_stay_provisional():
    verdict = decide(GameFacts(newcomer(1, "ana"), newcomer(2, "bo"), 0))
    assert verdict.unrated is None and verdict.ratings == {"ana": (1500.0, 1520.0), "bo": (1500.0, 1480.0)}
    assert verdict.rows == (HistoryRow(1, 1500.0, 1520.0, 2, True), HistoryRow(2, 1500.0, 1480.0, 1, True))
    assert verdict.provisional == ("ana", "bo")


def test_a_win_over_a_provisional_opponent_is_worth_nothing_to_an_established_rating():
    vet = newcomer(1, "vet", rating=1700.0, games=40, established=True, vouched_by=frozenset(range(10, 18)))
    verdict = decide(GameFacts(vet, newcomer(2, "new"), 9))
    assert verdict.ratings is not None and verdict.ratings["vet"] == (1700.0, 1700.0)
    assert [row.account for row in verdict.rows] == [2]  # the newcomer's loss counts
    assert verdict.provisional == ("new",)


def test_leaving_in_the_first_hands_is_a_loss_for_the_leaver_only():
    verdict = decide(GameFacts(newcomer(1, "ana"), newcomer(2, "bo"), 0, left_after=elo.SHORT_GAME_HANDS - 1))
    assert verdict.ratings is not None and verdict.ratings["ana"] == (1500.0, 1500.0)
    assert [row.account for row in verdict.rows] == [2]


def test_the_eighth_vouching_opponent_establishes_a_rating():
    almost = newcomer(1, "ana", games=elo.PROVISIONAL_GAMES - 1, vouched_by=frozenset(range(10, 17)))
    vet = newcomer(2, "vet", games=50, established=True, vouched_by=frozenset(range(20, 28)))
    verdict = decide(GameFacts(almost, vet, 8))
    assert verdict.rows[0] == HistoryRow(1, 1500.0, verdict.rows[0].after, 2, True)
    assert verdict.provisional == ()  # ana has ten counted games against eight who vouched; vet was established
    # the same game against a bot: bots never vouch, so ana stays provisional
    bot = newcomer(3, "bot-hard", games=50, kind="bot")
    assert "ana" in decide(GameFacts(almost, bot, 8)).provisional


def test_repeated_pairings_shrink_the_changes_by_half_each():
    first = decide(GameFacts(newcomer(1, "ana"), newcomer(2, "bo"), 0))
    third = decide(GameFacts(newcomer(1, "ana"), newcomer(2, "bo"), 0, pair_games_recent=2))
    assert first.ratings is not None and third.ratings is not None
    assert third.ratings["ana"][1] - 1500.0 == (first.ratings["ana"][1] - 1500.0) / 4
