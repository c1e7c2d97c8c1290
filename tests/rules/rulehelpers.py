"""Small helpers so that rule tests read like the rulebook."""

from __future__ import annotations

from freezeout.cards import Card, full_deck, parse_cards
from freezeout.rules import Action, ActionKind, Ruleset, Tournament, TournamentConfig
from freezeout.rules.events import Event

# A board that makes no straight/flush and pairs nothing typical: 2c 7d 9h Js 3s
QUIET_BOARD = "2c7d9hJs3s"


def table(*players: str, button: int = 0, stack: int = 1000, ruleset: str = "house") -> Tournament:
    return Tournament.start(
        TournamentConfig(players=tuple(players), button=button, starting_stack=stack, ruleset=Ruleset(ruleset))
    )


def deal(t: Tournament, hole: dict[str, str] | None = None, board: str = QUIET_BOARD) -> Tournament:
    """Deal the next hand; players not named get filler cards."""
    return deal_events(t, hole, board)[0]


def deal_events(t: Tournament, hole: dict[str, str] | None = None, board: str = QUIET_BOARD) -> tuple[Tournament, list[Event]]:
    hole = dict(hole or {})
    used: set[Card] = set(parse_cards(board))
    for cards in hole.values():
        used.update(parse_cards(cards))
    filler = [card for card in full_deck() if card not in used]
    by_seat: dict[int, tuple[Card, ...]] = {}
    for seat, player in enumerate(t.players):
        if not t.alive[seat]:
            continue
        if player in hole:
            by_seat[seat] = parse_cards(hole[player])
        else:
            by_seat[seat] = (filler.pop(), filler.pop())
    return t.deal(by_seat, parse_cards(board))


def do(t: Tournament, player: str, word: str, amount: int | None = None) -> Tournament:
    return do_events(t, player, word, amount)[0]


def do_events(t: Tournament, player: str, word: str, amount: int | None = None) -> tuple[Tournament, list[Event]]:
    return t.act(Action(t.seat_of(player), ActionKind(word), amount))


def play(t: Tournament, *moves: tuple[str, ...] | tuple[str, str, int]) -> Tournament:
    for move in moves:
        t = do(t, *move)  # type: ignore[arg-type]
    return t


def stacks(t: Tournament) -> dict[str, int]:
    return dict(zip(t.players, t.current_stacks(), strict=True))


def bets(t: Tournament) -> dict[str, int]:
    assert t.hand is not None
    return {t.players[seat]: t.hand.bets[i] for i, seat in enumerate(t.seats)}


def to_act(t: Tournament) -> str | None:
    return t.players[t.to_act] if t.to_act >= 0 else None


def chips_on_table(t: Tournament) -> int:
    total = sum(t.current_stacks())
    if t.hand is not None and not t.hand.finished:
        total += t.hand.pot_total
    return total
