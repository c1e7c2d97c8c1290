"""The GameSession driver: whole tournaments with fake bots (and the real
ones when ``freezeout.bots`` is installed), resignations, rematches, the
record, and the chips that must never appear or vanish except by R28."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from freezeout.formats.record import parse_record, replay_record
from freezeout.rules.actions import Action, ActionKind
from freezeout.rules.errors import IllegalAction
from freezeout.rules.events import ActionTaken, Event, Resigned
from freezeout.rules.legal import LegalActions
from freezeout.rules.tournament import rematch_players
from freezeout.rules.views import TableView
from freezeout.terminal.session import HUMAN, BotUnavailable, GameSession, load_bot


class Station:
    """Checks or calls every time."""

    def act(self, view: TableView, rng: random.Random) -> Action:
        assert view.viewer is not None and view.legal is not None
        kind = ActionKind.CHECK if "check" in view.legal.moves else ActionKind.CALL
        return Action(view.viewer, kind)


class Wild:
    """Any legal move, sized anywhere in the legal range: exercises bets,
    raises, short all-ins and side pots."""

    def act(self, view: TableView, rng: random.Random) -> Action:
        assert view.viewer is not None and view.legal is not None
        return random_move(view.viewer, view.legal, rng)


class Broken:
    """Always tries to check, also facing a bet: an illegal move half the time."""

    def act(self, view: TableView, rng: random.Random) -> Action:
        assert view.viewer is not None
        return Action(view.viewer, ActionKind.CHECK)


def random_move(seat: int, legal: LegalActions, rng: random.Random) -> Action:
    word = rng.choice(legal.moves)
    if word in ("bet", "raise"):
        return Action(seat, ActionKind(word), rng.randint(legal.min_to, legal.max_to))
    return Action(seat, ActionKind(word))


def chips_on_table(session: GameSession) -> int:
    t = session.tournament
    pot = t.hand.pot_total if t.in_hand and t.hand is not None else 0
    return sum(t.current_stacks()) + pot


def vanished(events: list[Event]) -> int:
    """R28: a resigning player's chips behind leave the game (one event each)."""
    return sum(e.vanished for e in events if isinstance(e, Resigned))


def play_randomly(session: GameSession, rng: random.Random, *, resign_at: int | None = None) -> list[Event]:
    """The human moves at random; checks chip conservation after every step."""
    total = session.starting_stack * len(session.players)
    events: list[Event] = list(session.tournament.hand_log)
    steps = 0
    while not session.finished:
        if session.human_to_act:
            legal = session.view().legal
            assert legal is not None
            action = random_move(session.human_seat, legal, rng)
            events += session.act(action.kind, action.amount)
        elif resign_at is not None and steps >= resign_at and session.human_in:
            events += session.resign()
        else:
            events += session.advance()
        steps += 1
        assert chips_on_table(session) == total - vanished(events), f"chips not conserved at step {steps}"
        assert steps < 20_000
    return events


def replayed_places(path: Path) -> dict[str, int | None]:
    result = replay_record(parse_record(path.read_text(encoding="utf-8")))
    return dict(result.standings)


def places(session: GameSession) -> dict[str, int | None]:
    return {row.player: row.place for row in session.standings()}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_full_random_games_conserve_chips_and_replay(tmp_path: Path, players: int, seed: int) -> None:
    path = tmp_path / "game.json"
    session = GameSession(Wild(), players=players, seed=seed, record_path=path)
    play_randomly(session, random.Random(seed))
    assert session.finished
    final = places(session)
    assert sorted(p for p in final.values() if p is not None)[0] == 1
    winner_holds_all = sum(session.tournament.current_stacks()) == session.starting_stack * players
    assert winner_holds_all  # R1
    assert replayed_places(path) == final
    assert session.bot_errors == []
    assert session.record_verified is True


def test_a_tampered_record_fails_verification() -> None:
    session = GameSession(Station(), players=2, seed=1)
    session.play_out()
    session.act(ActionKind.FOLD)
    assert session.verify_record()
    session.writer.hands[0]["actions"].insert(0, [session.players[session.tournament.to_act], "check"])
    assert not session.verify_record()


def test_station_heads_up_to_the_end_and_record_matches_per_hand(tmp_path: Path) -> None:
    path = tmp_path / "hu.json"
    session = GameSession(Station(), players=2, seed=9, record_path=path)
    while not session.finished:
        session.play_out()
        if session.human_to_act:
            session.act(ActionKind.ALLIN)
    result = replay_record(parse_record(path.read_text()))
    assert result.finished
    assert dict(result.standings) == places(session)
    assert len(result.hands) == session.tournament.hand_number
    data = json.loads(path.read_text())
    assert data["format"] == "freezeout.record/1" and data["seed"] == 9


def test_seed_draws_seats_and_button_reproducibly() -> None:
    a = GameSession(Station(), players=4, seed=42)
    b = GameSession(Station(), players=4, seed=42)
    assert a.players == b.players and a.tournament.button == b.tournament.button
    assert a.view().seats[a.human_seat].cards == b.view().seats[b.human_seat].cards
    sessions = [GameSession(Station(), players=4, seed=seed) for seed in range(40)]
    seats = {session.human_seat for session in sessions}
    buttons = {session.tournament.button for session in sessions}
    assert seats == {0, 1, 2, 3} and buttons == {0, 1, 2, 3}  # R3: both really drawn


def test_decks_do_not_depend_on_the_moves() -> None:
    """Hand 2 gets the same cards whatever happened in hand 1."""
    folder = GameSession(Station(), players=2, seed=5)
    caller = GameSession(Station(), players=2, seed=5)
    for session, kind in ((folder, ActionKind.FOLD), (caller, ActionKind.CALL)):
        while session.in_hand:
            if session.human_to_act:
                legal = session.tournament.legal_actions()
                assert legal is not None
                session.act(kind if legal.can_call or kind is ActionKind.FOLD else ActionKind.CHECK)
            else:
                session.bot_step()
        session.deal_next()
        assert session.tournament.hand_number == 2
    assert folder.tournament.hand is not None and caller.tournament.hand is not None
    assert folder.tournament.hand.setup.board == caller.tournament.hand.setup.board


def test_rematch_moves_everyone_one_seat_on(tmp_path: Path) -> None:
    path = tmp_path / "series.json"
    session = GameSession(Wild(), players=3, seed=4, record_path=path)
    play_randomly(session, random.Random(1))
    before = session.players
    first = places(session)
    with pytest.raises(IllegalAction):
        session.deal_next()
    session.rematch()
    assert session.game_number == 2 and session.players == rematch_players(before)
    assert session.tournament.hand_number == 1 and not session.finished
    play_randomly(session, random.Random(2))
    assert session.current_record_path == tmp_path / "series-2.json"
    assert replayed_places(path) == first
    assert replayed_places(tmp_path / "series-2.json") == places(session)
    assert [dict((r.player, r.place) for r in game) for game in session.finished_games] == [
        first,
        places(session),
    ]


def test_rematch_only_after_the_end() -> None:
    session = GameSession(Station(), players=2, seed=1)
    with pytest.raises(IllegalAction):
        session.rematch()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_resign_on_own_turn_mid_hand(tmp_path: Path, players: int) -> None:
    path = tmp_path / "resign.json"
    session = GameSession(Wild(), players=players, seed=8, record_path=path)
    session.play_out()
    assert session.human_to_act
    stack = session.tournament.current_stacks()[session.human_seat]
    events = session.resign()
    assert not session.human_in
    assert places(session)[HUMAN] == players  # R28: below everyone still in
    assert any(isinstance(e, Resigned) and e.vanished == stack for e in events)
    if players == 2:
        assert session.finished  # D8: the last one left takes everything at once
    session.play_out()
    assert session.finished
    assert replayed_places(path) == places(session)


def test_resign_while_a_bot_is_to_act(tmp_path: Path) -> None:
    path = tmp_path / "resign.json"
    session = GameSession(Wild(), players=4, seed=3, record_path=path)
    while not session.bot_to_act:
        session.act(ActionKind.FOLD) if session.human_to_act else session.advance()
    total = session.starting_stack * 4
    events = session.resign()
    assert session.bot_to_act and not session.human_in
    assert chips_on_table(session) == total - vanished(events)
    session.play_out()
    assert session.finished and places(session)[HUMAN] == 4
    assert replayed_places(path) == places(session)


def test_resign_between_hands(tmp_path: Path) -> None:
    path = tmp_path / "between.json"
    session = GameSession(Station(), players=3, seed=6, record_path=path)
    while session.in_hand:
        session.act(ActionKind.FOLD) if session.human_to_act else session.advance()
    session.resign()
    assert not session.human_in and places(session)[HUMAN] == 3
    session.play_out()
    assert replayed_places(path) == places(session)


def test_resign_and_moves_after_the_end_are_refused() -> None:
    session = GameSession(Station(), players=2, seed=1)
    session.play_out()
    session.resign()
    with pytest.raises(IllegalAction):
        session.resign()
    with pytest.raises(IllegalAction):
        session.act(ActionKind.FOLD)


def test_illegal_human_move_changes_nothing() -> None:
    session = GameSession(Station(), players=2, seed=1)
    session.play_out()
    before = session.tournament
    legal = before.legal_actions()
    assert legal is not None
    with pytest.raises(IllegalAction):
        session.act(ActionKind.RAISE, legal.to_match)  # must exceed the bet to match
    with pytest.raises(IllegalAction):
        session.act(ActionKind.RESIGN)  # resigning has its own door
    assert session.tournament is before
    assert (
        len(session.writer.hands[-1]["actions"]) == 0 or session.writer.hands[-1]["actions"][-1][0] != HUMAN
    )


def test_not_your_turn() -> None:
    session = GameSession(Station(), players=3, seed=2)
    while not session.bot_to_act:
        session.act(ActionKind.FOLD) if session.human_to_act else session.advance()
    with pytest.raises(IllegalAction, match="not your turn"):
        session.act(ActionKind.FOLD)


def test_a_broken_bot_cannot_freeze_the_game(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    session = GameSession(Broken(), players=3, seed=1, record_path=path)
    play_randomly(session, random.Random(3))
    assert session.finished
    assert session.bot_errors and "cannot check" in session.bot_errors[0]
    assert replayed_places(path) == places(session)


def test_close_mid_game_resigns_and_finishes_the_record(tmp_path: Path) -> None:
    path = tmp_path / "closed.json"
    session = GameSession(Wild(), players=3, seed=2, record_path=path)
    session.play_out()
    session.close()
    assert session.finished and places(session)[HUMAN] == 3
    assert replayed_places(path) == places(session)


def test_record_on_disk_is_valid_between_hands(tmp_path: Path) -> None:
    """The file is rewritten after each hand, so a crash leaves a valid record."""
    path = tmp_path / "live.json"
    session = GameSession(Station(), players=2, seed=3, record_path=path)
    while session.tournament.hand_number < 3 and not session.finished:
        session.act(ActionKind.FOLD) if session.human_to_act else session.advance()
    result = replay_record(parse_record(path.read_text()))
    assert len(result.hands) == session.tournament.hand_number - (1 if session.in_hand else 0)


def test_bot_sequence_and_bad_arguments() -> None:
    session = GameSession([Station(), Wild()], players=3, seed=1, bot_level="mixed")
    assert session.labels["bot1"] == "bot1 (mixed)"
    with pytest.raises(ValueError):
        GameSession([Station()], players=3)
    with pytest.raises(ValueError):
        GameSession(Station(), players=5)
    with pytest.raises(ValueError):
        GameSession(Station(), players=2, human="bot1")


def test_no_seed_still_plays() -> None:
    session = GameSession(Station(), players=2)
    session.play_out()
    session.close()
    assert session.finished


def _real_bots() -> list[str]:
    try:
        from freezeout.terminal.session import bot_names

        return list(bot_names())
    except BotUnavailable:
        return []


@pytest.mark.parametrize("level", _real_bots() or ["(bots not installed)"])
def test_real_bots_play_whole_games(tmp_path: Path, level: str) -> None:
    try:
        bot = load_bot(level)
    except BotUnavailable as error:
        pytest.skip(str(error))
    for players in (2, 4):
        path = tmp_path / f"{level}-{players}.json"
        session = GameSession(bot, players=players, seed=players, bot_level=level, record_path=path)
        play_randomly(session, random.Random(players))
        assert session.finished and session.bot_errors == []
        assert replayed_places(path) == places(session)


def test_unknown_bot_level() -> None:
    with pytest.raises(BotUnavailable):
        load_bot("no-such-level")


def test_timeouts_forfeit_and_the_second_in_a_row_eliminates(tmp_path: Path) -> None:
    """R26/R27/D9: check when possible else fold; two in a row and you are out."""
    path = tmp_path / "timeouts.json"
    session = GameSession(Station(), players=3, seed=5, record_path=path)
    session.play_out()
    session.timeout()
    assert session.human_in and session.tournament.forfeits[session.human_seat] == 1
    while not session.human_to_act:
        session.advance()
    session.timeout()
    assert not session.human_in and places(session)[HUMAN] == 3
    with pytest.raises(IllegalAction):
        session.timeout()
    session.play_out()
    assert replayed_places(path) == places(session)


# -- every game (issue #22) ---------------------------------------------------


def _to_human_turn(session: GameSession, wanted: str) -> None:
    """Play on (the human checks or calls; bring-ins are posted) until the
    human's turn is a draw (``"draw"``) or a bring-in (``"bringin"``)."""
    for _ in range(2000):
        session.play_out()
        legal = session.view().legal
        assert legal is not None and not session.finished
        if (wanted == "draw" and legal.draw) or (wanted == "bringin" and legal.bring_in):
            return
        if legal.draw:
            session.discard(())
        elif legal.bring_in:
            session.act(ActionKind.BRINGIN)
        else:
            session.act(ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    raise AssertionError(f"no {wanted} for the human")


def test_a_draw_that_times_out_keeps_what_v12_keeps() -> None:
    from freezeout.rules.draws import timeout_discards
    from freezeout.rules.events import Drew

    session = GameSession(load_bot("station", "F5CD"), players=2, seed=11, game="F5CD")
    _to_human_turn(session, "draw")
    held = session.view().seats[session.human_seat].cards
    assert held is not None and None not in held
    thrown = timeout_discards([c for c in held if c is not None], "high")
    session.timeout()
    drew = [e for e in session.view().history if isinstance(e, Drew) and e.seat == session.human_seat]
    assert len(drew) == 1 and len(drew[0].drawn) == len(thrown)
    moves = [e for e in session.view().history if isinstance(e, ActionTaken) and e.seat == session.human_seat]
    assert moves[-1].forced
    kept = session.view().seats[session.human_seat].cards or ()
    assert all(card in kept for card in held if card not in thrown)


def test_a_bring_in_that_times_out_is_posted() -> None:
    session = GameSession(load_bot("station", "F7S"), players=3, seed=12, game="F7S")
    _to_human_turn(session, "bringin")
    bring_in = session.view().legal.bring_in  # type: ignore[union-attr]
    session.timeout()
    moves = [e for e in session.view().history if isinstance(e, ActionTaken) and e.seat == session.human_seat]
    assert moves[-1].kind == "bringin" and moves[-1].forced and moves[-1].total == bring_in


def test_a_bot_that_errs_in_a_draw_stands_pat() -> None:
    """A bot's illegal move is replaced by one the rules take: in a draw,
    standing pat (V11) — folding is no move there."""

    class Folder:
        def act(self, view: TableView, rng: random.Random) -> Action:
            assert view.viewer is not None
            return Action(view.viewer, ActionKind.FOLD)

    session = GameSession(Folder(), players=2, seed=13, game="F2L3D")
    while not session.finished:
        session.play_out()
        if session.human_to_act:
            legal = session.view().legal
            assert legal is not None
            if legal.draw:
                session.discard(())
            else:
                session.act(ActionKind.CHECK if legal.can_check else ActionKind.CALL)
    assert any("it is the draw" in error for error in session.bot_errors)


def test_every_game_deals_from_its_own_deck() -> None:
    session = GameSession(load_bot("random", "NS"), players=2, seed=14, game="NS")
    t = session.tournament
    assert t.hand is not None
    assert all(card.rank >= 4 for cards in t.hand.cards for card in cards if card is not None)  # V16: six to ace
    with pytest.raises(ValueError, match="unknown game 'XX'"):
        GameSession(load_bot("random"), game="XX")
    with pytest.raises(ValueError, match="2 to 6 players"):
        GameSession(load_bot("random", "FB"), players=7, game="FB")
    with pytest.raises(BotUnavailable, match="does not play FO/8"):
        load_bot("easy", "FO/8")
