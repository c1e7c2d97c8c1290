"""Words and rich text for the terminal game, apart from any widget.

Everything here is a pure function of a :class:`~freezeout.rules.views.TableView`
and its public event log, so the table the human sees is rebuilt from the
view after every move (no UI state to drift from the rules) and the wording
can be tested without starting textual.  What a game deals (how many cards,
a board or not, the betting structure) is read from the variant the view
names, never decided here: a card is drawn face up only if the view gives it.
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
    Drew,
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
from freezeout.rules.tournament import HANDS_PER_LEVEL, HOUSE_LEVELS, Level
from freezeout.rules.variant import VARIANTS, BettingStructure, Variant
from freezeout.rules.views import PotView, SeatView, TableView

__all__ = [
    "SUIT_SYMBOLS",
    "blind_markers",
    "board_slots",
    "card_label",
    "cards_label",
    "cards_text",
    "describe_event",
    "game_line",
    "hand_lines",
    "last_moves",
    "legal_summary",
    "level_line",
    "level_words",
    "ordinal",
    "pots_line",
    "result_lines",
    "seat_cards",
    "shown_hands",
    "split_result_lines",
    "variant_of",
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


def cards_text(
    cards: Sequence[Card | None] | None,
    *,
    hidden: int = 0,
    slots: int = 0,
    down: Sequence[bool] = (),
    selected: Iterable[int] = (),
) -> Text:
    """Cards as little face-up tiles, red for hearts and diamonds; ``hidden``
    face-down tiles when the cards are not ours to see (and for each
    ``None`` card: a face-down card of another player), and empty ``slots``
    for board cards still to come.  ``down[i]`` marks our own card that the
    others cannot see (stud's down cards: ``[A♠]``); ``selected`` are the
    indexes picked for a discard (``✕A♠``)."""
    text = Text()
    shown = list(cards or ())
    picked = set(selected)
    for index, card in enumerate(shown):
        if card is None:
            text.append(" ▒▒ ", style="bright_blue on blue")
            text.append(" ")
            continue
        colour = "red3" if card.suit_char in _RED else "black"
        if index in picked:
            text.append(f"✕{card_label(card)} ", style=f"bold {colour} on yellow")
        elif index < len(down) and down[index]:
            text.append(f"[{card_label(card)}]", style=f"bold {colour} on light_steel_blue1")
        else:
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
        if event.bring_in:  # V7: stud has no button
            return f"Hand {event.number}: ante {event.ante}, bring-in {event.bring_in}"
        return (
            f"Hand {event.number}: blinds {event.small_blind}/{event.big_blind}, "
            f"button {_name(names, event.button)}"
        )
    if isinstance(event, BlindPosted):
        who = _name(names, event.seat)
        line = f"{_says(who, 'posts', 'post')} the {event.kind} {event.amount}"
        return line + (f" and {_says(who, 'is', 'are').split()[-1]} all-in" if event.all_in else "")
    if isinstance(event, Drew):  # V11: how many, never which (the view hides them)
        who = _name(names, event.seat)
        if not event.drawn:
            return f"{_says(who, 'stands', 'stand')} pat"
        count = len(event.drawn)
        return f"{_says(who, 'draws', 'draw')} {count} card{'s' if count != 1 else ''}"
    if isinstance(event, ActionTaken):
        return _action_line(event, names)
    if isinstance(event, BetReturned):
        return f"{event.amount} uncalled returned to {_name(names, event.seat)}"
    if isinstance(event, StreetDealt):
        if not event.cards:
            return f"{event.street.capitalize()}"
        return f"{event.street.capitalize()}: {cards_label(event.cards)}"
    if isinstance(event, CardsShown):
        who = _name(names, event.seat)
        low = f"; low {event.low_description}" if event.low_description else ""
        return f"{_says(who, 'shows', 'show')} {cards_label(event.cards)}: {event.description}{low}"
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


def _action_line(event: ActionTaken, names: Sequence[str]) -> str | None:
    who = _name(names, event.seat)
    kind = event.kind
    if kind == "fold":
        line = _says(who, "folds", "fold")
        return line + (" (forced)" if event.forced else "")
    if kind == "check":
        line = _says(who, "checks", "check")
        return line + (" (time out)" if event.forced else "")
    if kind in ("discard", "standpat"):
        return None  # the Drew that follows says how many (a timeout: V12 chose them)
    if kind == "bringin":
        line = f"{_says(who, 'brings', 'bring')} in {event.total}"
        return line + (" (time out)" if event.forced else "") + (", all-in" if event.all_in else "")
    if kind == "complete":
        line = f"{_says(who, 'completes', 'complete')} to {event.total}"
    elif kind == "call":
        line = f"{_says(who, 'calls', 'call')} {event.added}"
    elif kind == "bet":
        line = f"{_says(who, 'bets', 'bet')} {event.total}"
    else:
        line = f"{_says(who, 'raises', 'raise')} to {event.total}"
    return line + (", all-in" if event.all_in else "")


def _pot_line(event: PotAwarded, names: Sequence[str], *, several_pots: bool) -> str:
    pot = ("the main pot" if several_pots else "the pot") if event.pot == 0 else f"side pot {event.pot}"
    if event.half:  # V6: each half of a split pot is awarded on its own
        pot = f"the {event.half} half of {pot}"
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


def result_lines(
    history: Sequence[Event], names: Sequence[str], result: Sequence[PotView] = ()
) -> list[str]:
    """The hand's outcome: shown hands, pots won, eliminations, the winner.
    In a split game (V6) each pot is one line of its halves, from the
    view's ``result`` (:func:`split_result_lines`)."""
    several = len({e.pot for e in history if isinstance(e, PotAwarded)}) > 1
    if not any(pot.half for pot in result):
        wanted = (CardsShown, PotAwarded, Resigned, Eliminated, TournamentEnded)
        lines = [describe_event(e, names, several_pots=several) for e in history if isinstance(e, wanted)]
        return [line for line in lines if line]
    shown = [describe_event(e, names) for e in history if isinstance(e, CardsShown)]
    after = [describe_event(e, names) for e in history if isinstance(e, (Resigned, Eliminated, TournamentEnded))]
    return [line for line in (*shown, *split_result_lines(result, names), *after) if line]


def _winners(pot: PotView, names: Sequence[str]) -> str:
    return " and ".join(_name(names, w.seat) for w in pot.winners)


def split_result_lines(result: Sequence[PotView], names: Sequence[str]) -> list[str]:
    """V6: one line per pot of a split game, its halves side by side —
    ``Pot 240: High: Flush, ace high — Alice; Low: 8-6-4-2-A — Bob``; a pot
    that nobody had a low for goes whole to the high hand (V6) and says so."""
    several = len({pot.pot for pot in result}) > 1
    lines: list[str] = []
    for number in sorted({pot.pot for pot in result}):
        parts = [pot for pot in result if pot.pot == number]
        amount = sum(pot.amount for pot in parts)
        title = ("Main pot" if several else "Pot") if number == 0 else f"Side pot {number}"
        halves = []
        for pot in parts:
            label = {"high": "High", "low": "Low"}.get(pot.half, "")
            hand = f"{pot.hand} — " if pot.hand else ""
            shares = f" ({', '.join(str(w.chips) for w in pot.winners)})" if len(pot.winners) > 1 else ""
            halves.append(f"{label + ': ' if label else ''}{hand}{_winners(pot, names)}{shares}")
        if len(parts) == 1 and parts[0].half == "high":
            halves.append("no low")
        lines.append(f"{title} {amount}: " + "; ".join(halves))
    return lines


def shown_hands(history: Sequence[Event]) -> dict[int, str]:
    """Seat -> hand description for every hand shown at the showdown."""
    return {e.seat: e.description for e in history if isinstance(e, CardsShown)}


def blind_markers(history: Sequence[Event]) -> dict[int, str]:
    """Seat -> "SB"/"BB" for the blinds posted in the current hand."""
    short = {"small blind": "SB", "big blind": "BB"}
    # Antes are everyone's (V7): not a mark of one seat.
    return {e.seat: short.get(e.kind, e.kind) for e in history if isinstance(e, BlindPosted) and e.kind != "ante"}


def last_moves(history: Sequence[Event]) -> dict[int, str]:
    """Seat -> its last move on the current street ("raise 120", "call")."""
    moves: dict[int, str] = {}
    for event in history:
        if isinstance(event, StreetDealt):
            moves = {seat: word for seat, word in moves.items() if word in ("fold", "all-in")}
        elif isinstance(event, Drew):  # V11: how many, never which
            moves[event.seat] = f"drew {len(event.drawn)}" if event.drawn else "stood pat"
        elif isinstance(event, ActionTaken):
            if event.all_in:
                moves[event.seat] = "all-in"
            elif event.kind in ("bet", "raise", "complete"):
                moves[event.seat] = f"{event.kind} {event.total}"
            elif event.kind == "bringin":
                moves[event.seat] = f"bring-in {event.total}"
            elif event.kind not in ("discard", "standpat"):
                moves[event.seat] = event.kind
    return moves


def level_words(level: Level, *, short: bool = False) -> str:
    """A level's forced bets as a player reads them: ``blinds 10/20``;
    fixed limit ``limit 20/40`` (blinds 10/20); stud ``ante 2, bring-in 5,
    limit 20/40`` (V7, V18).  ``short``: the next level, in few words."""
    if level.bring_in:
        if short:
            return f"{level.small_bet}/{level.big_bet}"
        return f"ante {level.ante}, bring-in {level.bring_in}, limit {level.small_bet}/{level.big_bet}"
    if level.small_bet:
        if short:
            return f"{level.small_bet}/{level.big_bet}"
        return f"blinds {level.small_blind}/{level.big_blind}, limit {level.small_bet}/{level.big_bet}"
    if short:
        return f"{level.small_blind}/{level.big_blind}"
    return f"blinds {level.small_blind}/{level.big_blind}"


def level_line(
    view: TableView,
    levels: Sequence[Level | tuple[int, int]] = HOUSE_LEVELS,
    per_level: int = HANDS_PER_LEVEL,
    *,
    upcoming: Level | None = None,
) -> str:
    """Forced bets, level and how many hands until they rise (R6, V18),
    short enough for an 80-column title bar.  ``upcoming`` is the next
    level in its own game (a mix, V19); by default ``levels`` gives it."""
    level = min(view.level_number - 1, len(levels) - 1)  # V18: the view counts levels (orbits past 6 players)
    current = view.level if any(view.level) else Level(view.small_blind, view.big_blind)
    line = f"{level_words(current)} (level {level + 1})"
    if level == len(levels) - 1:
        return line + " · final level"
    following = upcoming or view.next_level or Level(*levels[level + 1])
    words = level_words(following, short=True)
    left = view.hands_to_next_level
    if left == 0:
        return line + f" · {words} next hand"
    return line + f" · {words} in {left} hand{'s' if left != 1 else ''}"


def variant_of(code: str) -> Variant:
    """The game a view names (``view.game``)."""
    return VARIANTS[code]


def game_line(view: TableView) -> str:
    """The game being dealt and how it is bet (V1–V4), and in a mix (V19)
    the mix, the current game and the next one: ``HORSE · now Razz ·
    next Seven-Card Stud in 3 hands``."""
    game = variant_of(view.game)
    cap = f" · cap: a bet and {game.raise_cap - 1} raises" if game.raise_cap is not None else ""
    mix = view.mix
    if mix is None:
        return game.name + cap
    following = variant_of(mix.next_game).name
    left = mix.hands_to_next_game
    when = "next hand" if left == 0 else f"in {left} hand{'s' if left != 1 else ''}"
    if mix.next_game == view.game:
        return f"{mix.name} · now {game.name}{cap}"
    return f"{mix.name} · now {game.name} · next {following} {when}{cap}"


def board_slots(view: TableView) -> int:
    """How many board cards the game deals (flop games 5; stud's shared card
    and draw games none)."""
    return variant_of(view.game).board_size


def seat_cards(view: TableView, seat: SeatView, *, selected: Iterable[int] = ()) -> Text:
    """A seat's cards exactly as the view gives them: its own (stud's down
    cards marked), another's up-cards (stud) and a face-down tile for every
    card that is not ours to see — as many as the game deals face down."""
    if seat.cards is not None:
        own = seat.seat == view.viewer
        down = tuple(not up for up in seat.up) if own and any(seat.up) else ()
        return cards_text(seat.cards, down=down, selected=selected)
    if seat.in_hand and seat.in_tournament and not view.hand_over:
        return cards_text(None, hidden=variant_of(view.game).hole_cards)
    return Text("")


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


def legal_summary(
    legal: LegalActions, *, selected: int = 0, structure: BettingStructure = BettingStructure.NO_LIMIT
) -> list[tuple[str, str]]:
    """(key, label) for every move open to the human, with the amounts: a
    draw's picker (V11), a bring-in or complete (V7), fixed-limit sizes
    with no amount to enter (V3), pot limit's Pot (V2)."""
    moves = legal.moves
    if legal.draw:
        cards = f"1-{legal.draw}" if legal.draw > 1 else "1"
        draw = ("d", f"draw {selected}") if selected else ("d", "stand pat (select cards to draw)")
        return [(cards, "select cards"), draw, ("s", "stand pat")]
    keys: list[tuple[str, str]] = []
    if legal.bring_in:
        keys.append(("b", f"bring in {legal.bring_in}"))
    else:
        keys.append(("f", "fold"))
        keys.append(("c", "check") if "check" in moves else ("c", f"call {legal.call_amount}"))
    for word in ("bet", "raise", "complete"):
        if word not in moves:
            continue
        low, high = legal.min_to, legal.max_to
        to = "" if word == "bet" else "to "
        if legal.sizes:  # fixed limit (or a complete): the amounts are fixed
            keys.append(("r", f"{word} {to}{legal.sizes[0]}"))
            if len(legal.sizes) > 1:
                keys.append(("R", f"{word} {to}{legal.sizes[-1]}"))
        elif low == high:
            keys.append(("r", f"{word} {low}"))
        else:
            pot = " (p: pot)" if structure is BettingStructure.POT_LIMIT else ""
            keys.append(("r", f"{word} {to}{low}–{high}{pot}"))
    if "allin" in moves:
        keys.append(("a", f"all-in {legal.all_in_to}"))
    return keys
