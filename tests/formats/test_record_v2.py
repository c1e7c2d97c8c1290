"""``freezeout.record/2``: a freezeout in any game (docs/formats.md §1, V18).

Every variant of the registry is played at random through the tournament
(dealt from shuffled decks, as the server deals), written by
:class:`RecordWriter` from the tournament's events, and replayed from the
JSON alone: the replay must reach the same stacks and places.  Bad records
get one clear line.
"""

from __future__ import annotations

import json
import random

import pytest

from freezeout.formats.record import FORMAT, FORMAT_2, RecordError, RecordWriter, parse_record, replay_record
from freezeout.rules import Action, ActionKind, Tournament, TournamentConfig
from freezeout.rules.tournament import default_levels
from freezeout.rules.variant import VARIANTS, Variant


def random_move(t: Tournament, rng: random.Random) -> Action:
    legal = t.legal_actions()
    assert legal is not None and t.hand is not None
    seat = legal.seat
    if rng.random() < 0.03:
        return Action(seat, ActionKind.TIMEOUT)
    word = rng.choice(legal.moves)
    if word in ("bet", "raise", "complete"):
        amount = rng.choice(legal.sizes) if legal.sizes else rng.randint(legal.min_to, legal.max_to)
        return Action(seat, ActionKind(word), amount)
    if word == "discard":
        held = t.hand.cards[t.seats.index(seat)]
        return Action(seat, ActionKind.DISCARD, cards=tuple(rng.sample(held, rng.randint(1, len(held)))))
    return Action(seat, ActionKind(word))


def play(game: Variant, seed: int, players: int, hands: int = 40) -> tuple[Tournament, dict[str, object]]:
    rng = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    config = TournamentConfig(players=names, variant=game, levels=default_levels(game), starting_stack=600)
    t = Tournament.start(config)
    writer = RecordWriter(names, names[0], variant=game, levels=default_levels(game), starting_stack=600)
    for _ in range(hands):
        if t.finished:
            break
        deck = list(game.deck)
        rng.shuffle(deck)
        reshuffle = list(game.deck)
        rng.shuffle(reshuffle)
        t, events = t.deal_deck(deck, reshuffle)
        writer.observe(events)
        while t.in_hand:
            if rng.random() < 0.004:
                action = Action(rng.choice([s for s in range(players) if t.alive[s]]), ActionKind.RESIGN)
            else:
                action = random_move(t, rng)
            t, events = t.act(action)
            writer.act(names[action.seat], action)
            writer.observe(events)
    return t, writer.to_json()


@pytest.mark.parametrize("code", sorted(VARIANTS))
def test_v18_a_freezeout_in_every_game_replays_from_its_record(code: str) -> None:
    game = VARIANTS[code]
    players = min(4, game.max_players)
    t, data = play(game, seed=len(code) * 7 + players, players=players)
    assert data["format"] == (FORMAT if code == "NT" else FORMAT_2)
    text = json.dumps(data)
    result = replay_record(parse_record(text))
    assert result.tournament.stacks == t.stacks
    assert result.tournament.places == t.places
    assert result.finished == t.finished


def test_stud_cards_are_written_one_string_per_street() -> None:
    _t, data = play(VARIANTS["F7S"], seed=3, players=3, hands=3)
    hands = data["hands"]
    assert isinstance(hands, list)
    first = hands[0]["hole"]
    assert all(isinstance(cards, list) and len(cards[0]) == 6 for cards in first.values())  # 3rd street: three cards


def test_draw_cards_are_the_hand_then_each_draw() -> None:
    _t, data = play(VARIANTS["F2L3D"], seed=5, players=3, hands=6)
    for hand in data["hands"]:  # type: ignore[attr-defined]
        for cards in hand["hole"].values():
            assert len(cards[0]) == 10  # five cards, then one string per draw ("" for standing pat)


RECORD_2 = {
    "format": "freezeout.record/2",
    "game": {"variant": "F7S", "levels": [{"ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40}]},
    "players": ["ana", "bo"],
    "button": "ana",
    "hands": [
        {
            "hole": {"ana": ["AsKd2c", "Qh"], "bo": ["7c7d9h", "3s"]},
            "actions": [["ana", "bringin"], ["bo", "complete"], ["ana", "fold"]],
        }
    ],
}


def test_v7_the_lowest_up_card_brings_in_and_a_completion_wins_the_antes() -> None:
    result = replay_record(parse_record(RECORD_2))
    # ana's 2c is the lowest up-card: she brings in 10; bo completes to 20; ana folds.
    assert result.hands[0].stacks == {"ana": 1000 - 5 - 10, "bo": 1000 + 5 + 10}
    assert result.to_json()["hands"][0]["level"] == {"ante": 5, "bring_in": 10, "small_bet": 20, "big_bet": 40}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": None}, "invalid game"),
        ({"game": {"variant": "XX"}}, "unknown variant 'XX'"),
        ({"game": {"variant": "F7S", "levels": [{"blinds": 3}]}}, "level 1 must be an object"),
        ({"game": {"variant": "F7S", "levels": []}}, "levels must be a non-empty list"),
        ({"players": [f"p{i}" for i in range(9)]}, "need 2 to 8 distinct"),
    ],
)
def test_bad_game_envelopes_are_refused(change: dict[str, object], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        replay_record(parse_record({**RECORD_2, **change}))


@pytest.mark.parametrize(
    ("actions", "message"),
    [
        ([["bo", "bringin"]], "hand 1, action 1 .*it is ana's turn, not bo's"),
        ([["ana", "fold"]], "the bring-in is forced"),
        ([["ana", "discard", "As"]], "the bring-in is forced: bring in \\(10\\) or complete \\(20\\), not discard"),
        ([["ana", "bringin"], ["bo", "raise", 40]], "cannot raise: the bet of 10 is not a full bet; complete it"),
        ([["ana", "bringin"], ["bo", "complete", 30]], "complete to 30 is not a fixed-limit size: complete to 20"),
    ],
)
def test_illegal_stud_moves_name_the_hand_action_and_reason(actions: list[list[object]], message: str) -> None:
    hand = {**RECORD_2["hands"][0], "actions": actions}  # type: ignore[index]
    with pytest.raises(RecordError, match=message):
        replay_record(parse_record({**RECORD_2, "hands": [hand]}))


def test_a_discard_of_a_card_not_held_is_refused() -> None:
    record = {
        "format": "freezeout.record/2",
        "game": {"variant": "F5CD"},
        "players": ["ana", "bo"],
        "button": "ana",
        "hands": [
            {
                "hole": {"ana": ["AsKsQsJs2d", "9c"], "bo": ["2c3c4c5c7h", ""]},
                "actions": [["ana", "call"], ["bo", "check"], ["bo", "standpat"], ["ana", "discard", "3d"]],
            }
        ],
    }
    with pytest.raises(RecordError, match="cannot discard 3d: ana does not hold it"):
        replay_record(parse_record(record))


def test_v19_a_writer_whose_finished_hands_are_moved_out_writes_each_hand_in_its_own_game() -> None:
    """The server moves each finished hand out of the writer (it keeps them packed); the
    8-game's seventh hand is fixed-limit hold'em after six of 2-7 triple draw, and its
    hole cards must be written as a flop game's, not as the first game's draws."""
    from freezeout.rules.games import MIXES

    rng = random.Random(8)
    names = ("p0", "p1", "p2")
    mix = MIXES["8GAME"]
    t = Tournament.start(TournamentConfig(players=names, mix=mix))
    writer = RecordWriter(names, names[0], variant=mix.games[0], mix=mix)
    finished: list[dict[str, object]] = []
    while not t.finished and t.hand_number < 8:
        game = t.config.variant_for_hand(t.hand_number + 1)
        deck, reshuffle = list(game.deck), list(game.deck)
        rng.shuffle(deck)
        rng.shuffle(reshuffle)
        t, events = t.deal_deck(deck, reshuffle)
        finished += writer.hands
        writer.hands.clear()
        writer.observe(events)
        while t.in_hand:
            action = random_move(t, rng)
            if action.kind is ActionKind.TIMEOUT:
                continue
            t, events = t.act(action)
            writer.act(names[action.seat], action)
            writer.observe(events)
    data = {**writer.to_json(), "hands": [*finished, *writer.hands]}
    assert all(len("".join(cards)) == 4 for cards in data["hands"][6]["hole"].values())  # FT: two each
    assert replay_record(parse_record(json.dumps(data))).tournament.stacks == t.stacks
