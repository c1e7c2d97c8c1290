"""Words and rich text for the terminal game, apart from any widget.

Everything here is a pure function of a :class:`~freezeout.rules.views.TableView`
and its public event log, so the table the human sees is rebuilt from the
view after every move (no UI state to drift from the rules) and the wording
can be tested without starting textual.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.text import Text

from freezeout.cards import Card
from freezeout.rules.events import (
    ActionTaken,
    BetReturned,
    BlindPosted,
    CardsShown,
    Eliminated,
    Event,
    Forfeited,
    HandStarted,
    PotAwarded,
    Resigned,
    StreetDealt,
    TournamentEnded,
)
from freezeout.rules.legal import LegalActions
from freezeout.rules.tournament import HANDS_PER_LEVEL, HOUSE_LEVELS
from freezeout.rules.views import TableView

__all__ = [
    "SUIT_SYMBOLS",
    "blind_markers",
    "card_label",
    "cards_label",
    "cards_text",
    "describe_event",
    "hand_lines",
    "last_moves",
    "legal_summary",
    "level_line",
    "ordinal",
    "pots_line",
    "result_lines",
    "shown_hands",
]

SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_RED = {"h", "d"}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th — places in the standings."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def card_label(card: Card) -> str:
    """``A♠``: the rank letter and the suit symbol (T stays T, as dealers write it)."""
    return card.rank_char + SUIT_SYMBOLS[card.suit_char]


def cards_label(cards: Iterable[Card]) -> str:
    return " ".join(card_label(card) for card in cards)


def cards_text(cards: Sequence[Card | None] | None, *, hidden: int = 0, slots: int = 0) -> Text:
    """Cards as little face-up tiles, red for hearts and diamonds; ``hidden``
    face-down tiles when the cards are not ours to see (and for each
    ``None`` card: a face-down card of another player), and empty ``slots``
    for board cards still to come."""
    text = Text()
    shown = list(cards or ())
    for card in shown:
        if card is None:
            text.append(" ▒▒ ", style="bright_blue on blue")
            text.append(" ")
            continue
        colour = "red3" if card.suit_char in _RED else "black"
        text.append(f" {card_label(card)} ", style=f"bold {colour} on grey93")
        text.append(" ")
    for _ in range(hidden):
        text.append(" ▒▒ ", style="bright_blue on blue")
        text.append(" ")
    for _ in range(max(slots - len(shown), 0)):
        text.append(" ·· ", style="grey50 on grey19")
        text.append(" ")
    text.rstrip()
    return text


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


def _says(who: str, third_person: str, base: str) -> str:
    """``bot1 calls`` but ``you call``."""
    return f"{who} {base if who == 'you' else third_person}"


def describe_event(event: Event, names: Sequence[str], *, several_pots: bool = False) -> str | None:
    """One line of the hand's log in plain words, or ``None`` for events the
    table shows otherwise (the end-of-hand stacks)."""
    if isinstance(event, HandStarted):
        return (
            f"Hand {event.number}: blinds {event.small_blind}/{event.big_blind}, "
            f"button {_name(names, event.button)}"
        )
    if isinstance(event, BlindPosted):
        who = _name(names, event.seat)
        line = f"{_says(who, 'posts', 'post')} the {event.kind} {event.amount}"
        return line + (f" and {_says(who, 'is', 'are').split()[-1]} all-in" if event.all_in else "")
    if isinstance(event, ActionTaken):
        return _action_line(event, names)
    if isinstance(event, BetReturned):
        return f"{event.amount} uncalled returned to {_name(names, event.seat)}"
    if isinstance(event, StreetDealt):
        return f"{event.street.capitalize()}: {cards_label(event.cards)}"
    if isinstance(event, CardsShown):
        who = _name(names, event.seat)
        return f"{_says(who, 'shows', 'show')} {cards_label(event.cards)}: {event.description}"
    if isinstance(event, PotAwarded):
        return _pot_line(event, names, several_pots=several_pots)
    if isinstance(event, Forfeited):
        who = _name(names, event.seat)
        return f"{_says(who, 'forfeits', 'forfeit')} the turn ({event.in_a_row} in a row)"
    if isinstance(event, Resigned):
        who = _name(names, event.seat)
        left = f": {event.vanished} chips leave the game" if event.vanished else ""
        return f"{_says(who, 'resigns', 'resign')}{left}"
    if isinstance(event, Eliminated):
        who = _name(names, event.seat)
        verb = "are" if who == "you" else "is"
        return f"{who} {verb} out in {ordinal(event.place)} place"
    if isinstance(event, TournamentEnded):
        who = _name(names, event.winner)
        return f"{_says(who, 'wins', 'win')} the tournament with {event.chips} chips"
    return None


def _action_line(event: ActionTaken, names: Sequence[str]) -> str:
    who = _name(names, event.seat)
    kind = event.kind
    if kind == "fold":
        line = _says(who, "folds", "fold")
        return line + (" (forced)" if event.forced else "")
    if kind == "check":
        line = _says(who, "checks", "check")
        return line + (" (time out)" if event.forced else "")
    if kind == "call":
        line = f"{_says(who, 'calls', 'call')} {event.added}"
    elif kind == "bet":
        line = f"{_says(who, 'bets', 'bet')} {event.total}"
    else:
        line = f"{_says(who, 'raises', 'raise')} to {event.total}"
    return line + (", all-in" if event.all_in else "")


def _pot_line(event: PotAwarded, names: Sequence[str], *, several_pots: bool) -> str:
    pot = ("the main pot" if several_pots else "the pot") if event.pot == 0 else f"side pot {event.pot}"
    winners = [(_name(names, seat), chips) for seat, chips in event.shares]
    with_hand = f" with {_lower_first(event.description)}" if event.description else ""
    if len(winners) == 1:
        who = winners[0][0]
        return f"{_says(who, 'wins', 'win')} {pot} ({event.amount}){with_hand}"
    people = ", ".join(who for who, _ in winners[:-1]) + f" and {winners[-1][0]}"
    shares = ", ".join(f"{who} {chips}" for who, chips in winners)
    return f"{people} split {pot} ({event.amount}: {shares}){with_hand}"


def _lower_first(text: str) -> str:
    """Mid-line a hand reads "... with full house, kings full of tens"."""
    return text[:1].lower() + text[1:] if text else text


def hand_lines(history: Sequence[Event], names: Sequence[str]) -> list[str]:
    """The current hand's public log, one line per event worth telling."""
    several = sum(1 for e in history if isinstance(e, PotAwarded)) > 1
    lines = [describe_event(e, names, several_pots=several) for e in history]
    return [line for line in lines if line]


def result_lines(history: Sequence[Event], names: Sequence[str]) -> list[str]:
    """The hand's outcome: shown hands, pots won, eliminations, the winner."""
    several = sum(1 for e in history if isinstance(e, PotAwarded)) > 1
    wanted = (CardsShown, PotAwarded, Resigned, Eliminated, TournamentEnded)
    lines = [describe_event(e, names, several_pots=several) for e in history if isinstance(e, wanted)]
    return [line for line in lines if line]


def shown_hands(history: Sequence[Event]) -> dict[int, str]:
    """Seat -> hand description for every hand shown at the showdown."""
    return {e.seat: e.description for e in history if isinstance(e, CardsShown)}


def blind_markers(history: Sequence[Event]) -> dict[int, str]:
    """Seat -> "SB"/"BB" for the blinds posted in the current hand."""
    short = {"small blind": "SB", "big blind": "BB"}
    return {e.seat: short.get(e.kind, e.kind) for e in history if isinstance(e, BlindPosted)}


def last_moves(history: Sequence[Event]) -> dict[int, str]:
    """Seat -> its last move on the current street ("raise 120", "call")."""
    moves: dict[int, str] = {}
    for event in history:
        if isinstance(event, StreetDealt):
            moves = {seat: word for seat, word in moves.items() if word in ("fold", "all-in")}
        elif isinstance(event, ActionTaken):
            if event.all_in:
                moves[event.seat] = "all-in"
            elif event.kind in ("bet", "raise"):
                moves[event.seat] = f"{event.kind} {event.total}"
            else:
                moves[event.seat] = event.kind
    return moves


def level_line(
    view: TableView, levels: Sequence[tuple[int, int]] = HOUSE_LEVELS, per_level: int = HANDS_PER_LEVEL
) -> str:
    """Blinds, level and how many hands until they rise (R6), short enough
    for an 80-column title bar."""
    number = max(view.hand_number, 1)
    level = min((number - 1) // per_level, len(levels) - 1)
    line = f"blinds {view.small_blind}/{view.big_blind} (level {level + 1})"
    if level == len(levels) - 1:
        return line + " · final level"
    small, big = levels[level + 1]
    left = view.hands_to_next_level
    if left == 0:
        return line + f" · {small}/{big} next hand"
    return line + f" · {small}/{big} in {left} hand{'s' if left != 1 else ''}"


def pots_line(view: TableView, names: Sequence[str]) -> str:
    """The whole pot, then the main and side pots with who may win each
    (R20), then the bets of this round still in front of the players."""
    bets = sum(seat.bet for seat in view.seats)
    total = sum(amount for amount, _ in view.pots) + bets
    if not total:
        return ""
    parts = [f"Pot {total}"]
    if len(view.pots) > 1:
        parts.append(f"main {view.pots[0][0]}")
        for index, (amount, eligible) in enumerate(view.pots[1:], start=1):
            parts.append(f"side {index}: {amount} ({', '.join(_name(names, s) for s in eligible)})")
    if bets and view.pots:
        parts.append(f"bets {bets}")
    return " · ".join(parts)


def legal_summary(legal: LegalActions) -> list[tuple[str, str]]:
    """(key, label) for every move open to the human, with the amounts."""
    moves = legal.moves
    keys: list[tuple[str, str]] = [("f", "fold")]
    keys.append(("c", "check") if "check" in moves else ("c", f"call {legal.call_amount}"))
    for word in ("bet", "raise"):
        if word in moves:
            low, high = legal.min_to, legal.max_to
            keys.append(
                (
                    "r",
                    f"{word} {low}"
                    if low == high
                    else f"{word} {'' if word == 'bet' else 'to '}{low}–{high}",
                )
            )
    if "allin" in moves:
        keys.append(("a", f"all-in {legal.all_in_to}"))
    return keys
