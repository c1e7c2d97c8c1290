"""Random legal play through the public API, shared by property tests."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from freezeout.cards import shuffled_deck
from freezeout.formats.record import RecordWriter
from freezeout.rules import Action, ActionKind, Ruleset, Tournament, TournamentConfig
from freezeout.rules.events import Event, Resigned


@dataclass
class Game:
    tournament: Tournament
    writer: RecordWriter
    vanished: int = 0
    snapshots: list[Tournament] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)


def random_action(t: Tournament, rng: random.Random, *, resign_rate: float = 0.01, timeout_rate: float = 0.03) -> Action:
    legal = t.legal_actions()
    assert legal is not None
    seat = legal.seat
    roll = rng.random()
    if roll < resign_rate:
        alive = [s for s in range(len(t.alive)) if t.alive[s]]
        return Action(rng.choice(alive), ActionKind.RESIGN)
    if roll < resign_rate + timeout_rate:
        return Action(seat, ActionKind.TIMEOUT)
    choices = list(legal.moves)
    if legal.can_raise:
        choices.append(legal.raise_word)
    word = rng.choice(choices)
    if word in ("bet", "raise"):
        amount = rng.randint(legal.min_to, legal.max_to) if rng.random() < 0.7 else legal.min_to
        return Action(seat, ActionKind(word), amount)
    return Action(seat, ActionKind(word))


def play_random_tournament(seed: int, players: int = 3, *, max_hands: int = 400, ruleset: str = "house",
                           stack: int = 1000, keep_snapshots: bool = False) -> Game:
    rng = random.Random(seed)
    names = tuple(f"p{i}" for i in range(players))
    button = rng.randrange(players)
    config = TournamentConfig(players=names, button=button, starting_stack=stack, ruleset=Ruleset(ruleset))
    t = Tournament.start(config)
    game = Game(t, RecordWriter(names, names[button], Ruleset(ruleset), stack))
    for _ in range(max_hands):
        if t.finished:
            break
        deck = list(shuffled_deck(rng))
        hole = {seat: (deck.pop(), deck.pop()) for seat in range(players) if t.alive[seat]}
        board = tuple(deck.pop() for _ in range(5))
        t, events = t.deal(hole, board)
        game.writer.deal({names[s]: cards for s, cards in hole.items()}, board)
        game.events.extend(events)
        while True:
            if keep_snapshots:
                game.snapshots.append(t)
            if t.finished:
                break
            if not t.in_hand:
                if rng.random() < 0.01:  # a resignation between hands
                    seat = rng.choice([s for s in range(players) if t.alive[s]])
                    action = Action(seat, ActionKind.RESIGN)
                else:
                    break
            else:
                action = random_action(t, rng)
            t, events = t.act(action)
            game.writer.act(names[action.seat], action)
            game.events.extend(events)
            game.vanished += sum(e.vanished for e in events if isinstance(e, Resigned))
    game.tournament = t
    return game
