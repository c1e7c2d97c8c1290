"""PokerStars text of cash hands (docs/formats.md "PokerStars hand histories", issue #32
item 9): a cash table's hands as the site writes a ring game's, for trackers.

A cash hand's history (``freezeout.cash_hand/1``, formats.md "Cash hand histories") carries
the hand as PHH; its replay through the rules gives the events the one writer of the site's
text (:mod:`freezeout.formats.stars`) walks.  What differs from a tournament hand:

* the header: ``PokerStars Hand #N:  Hold'em No Limit (10/20) - <time>`` (play chips: no
  currency), the table by the name people saw, ``(Play Money)``, its size and button:
  ``Table 'Eli's table' 9-max (Play Money) Seat #3 is the button``;
* the seats are the table's own numbers (seat 1 is the table's first seat);
* the rake (C5): ``Total pot N | Rake R``, the pots collected net of it;
* the posts of a player who comes back owing blinds (C4) are written as the site writes
  them, after the table's own blinds: the big blind posted live out of turn as ``posts big
  blind N`` (PHH carries it as the player's first move, a call of the same chips, or as a
  dead ante when they fold it), with the dead small blind ``posts small & big blinds N``
  (both together); the poster then checks when nobody raised, or calls only the rest.
  fpdb-3's parser reads the first ``posts small blind`` as the live small blind and a later
  one as dead money, so a dead small blind alone follows the live one.

The text is written from the asker's copy of the hand (``cash_hand_for``: their own cards,
others' only as shown or face up), so it can hold nothing they did not see.  Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from freezeout.formats.record import PlayedHand, RecordError
from freezeout.formats.stars import _stakes, _Writer
from freezeout.formats.stars_names import _date, stars_game_name, tournament_number
from freezeout.rules.events import ActionTaken, BlindPosted, CardsDealt, Event, HandStarted
from freezeout.rules.tournament import Level
from freezeout.rules.variant import VARIANTS

__all__ = ["cash_hand_to_stars", "cash_hands_to_stars"]


def cash_hand_to_stars(hand: Mapping[str, Any], *, hero: str | None = None, table: str = "",
                       table_size: int | None = None, names: Mapping[str, str] | None = None) -> str:
    """One cash hand (the asker's copy) as the site's text.  ``table`` is the table's name,
    ``table_size`` its seat count (default: the hand's seat count), ``names`` the names
    people saw for the hand's player ids (a bot's persona).  :class:`RecordError` for a hand
    without PHH (one the format cannot say)."""
    from freezeout.formats.phh import PhhError
    from freezeout.formats.phh_replay import replay_phh_text

    phh = hand.get("phh")
    if not isinstance(phh, str):
        raise RecordError(f"hand {hand.get('number')} has no PHH to write from: {hand.get('phh_error', 'none given')}")
    try:
        replayed = replay_phh_text(phh)
    except (PhhError, ValueError) as error:
        raise RecordError(f"hand {hand.get('number')}: its PHH does not replay: {error}") from None
    variant = VARIANTS.get(str(hand.get("game")))
    if variant is None or variant is not replayed.setup.variant:
        raise RecordError(f"hand {hand.get('number')}: its game {hand.get('game')!r} is not its PHH's")
    ids = list(replayed.hand.players)
    players: list[str] = list(hand["players"])
    seats: list[int] = list(hand.get("seats", range(len(players))))
    numbers = [seats[players.index(player)] + 1 for player in ids]
    shown = [(names or {}).get(player, player) for player in ids]
    setup = replayed.setup
    number = int(hand.get("number", 0))
    started = HandStarted(number, setup.button, 0, setup.big_blind, tuple(range(len(ids))), setup.stacks)
    head: list[Event] = [started]
    if not (variant.deals_later_hole_cards or variant.has_draws):
        head.append(CardsDealt(tuple((i, tuple(cards)) for i, cards in enumerate(replayed.state.cards)), (), (), ()))
    events = [*head, *_posts_as_the_site_writes(replayed.events, ids, hand.get("posts", ()), setup.blinds)]
    played = PlayedHand(number=number, button=shown[setup.button], blinds=(0, setup.big_blind), stacks={},
                        eliminated=(), setup=setup, actions=(), events=tuple(events))
    level = Level(_small_blind(hand, setup.big_blind), setup.big_blind, small_bet=setup.small_bet,
                  big_bet=setup.big_bet)
    small, big = _stakes(variant, level)
    at = hand.get("started_at")
    when = datetime.fromtimestamp(at if isinstance(at, int | float) else 0, UTC)
    hand_id = tournament_number(f"{hand.get('table', table)}:{number}")
    header = f"PokerStars Hand #{hand_id}:  {stars_game_name(variant)} ({small}/{big}) - {_date(when)}"
    size = table_size or max(len(ids), max(seats) + 1, 2)
    label = (table or str(hand.get("table", "Freezeout"))).replace("'", "’")
    writer = _Writer(played, shown, hero=(names or {}).get(hero, hero) if hero is not None else None, header=header,
                     table=f"Table '{label}' {size}-max (Play Money)", numbers=numbers, rake=int(hand.get("rake", 0)))
    return writer.write()


def _posts_as_the_site_writes(events: Sequence[Event], ids: Sequence[str], posts: Sequence[Sequence[Any]],
                              blinds: Sequence[int]) -> list[Event]:
    """The replayed PHH's events with a returning player's posts (C4) as the site writes them.

    PHH has no word for them (docs/formats.md, PHH export of cash hands): the dead small blind
    is in the player's ante, and a big blind posted out of turn is either in the ante too
    (folded at their first turn, or all in by the post) or the chips of their first move.
    Here they become posts again, after the table's own blinds, and that first move only what
    it added beyond the big blind (a check when it added nothing)."""
    owed = {str(name): 0 for name, _kind, _amount in posts}
    late = dict(owed)
    for name, kind, amount in posts:
        if kind == "dead":
            owed[str(name)] += int(amount)
        elif kind == "big blind":
            late[str(name)] = int(amount)
    # a big blind PHH does not hold as a blind was posted out of turn
    late = {name: amount for name, amount in late.items()
            if amount and name in ids and not (blinds and blinds[ids.index(name)])}
    posted: dict[int, tuple[int, int, bool]] = {}  # seat: (dead, live, all in)
    moved: dict[int, int] = {}  # seat: the live blind their first move still holds
    out: list[Event] = []
    for event in events:
        if isinstance(event, BlindPosted) and event.kind == "ante" and ids[event.seat] in owed:
            name = ids[event.seat]
            dead, live = owed.get(name, 0), late.get(name, 0)
            in_ante = live if event.amount - dead >= live else 0
            ante = event.amount - dead - in_ante
            if dead or in_ante or live:
                posted[event.seat] = (dead, live, event.all_in)
                if live and not in_ante:
                    moved[event.seat] = live
            if ante > 0:
                out.append(event._replace(amount=ante, all_in=event.all_in and not (dead or in_ante)))
            continue
        if posted and not isinstance(event, BlindPosted):
            out += [_late_post(seat, *posted[seat]) for seat in sorted(posted)]
            posted = {}
        if isinstance(event, ActionTaken) and event.seat in moved:
            live = moved.pop(event.seat)
            added = event.added - live
            kind = "check" if event.kind == "call" and not added else event.kind
            out.append(event._replace(kind=kind, added=added))
            continue
        out.append(event)
    return out


def _late_post(seat: int, dead: int, live: int, all_in: bool) -> BlindPosted:
    if dead and live:
        return BlindPosted(seat, "small & big blinds", dead + live, all_in)
    return BlindPosted(seat, "big blind" if live else "small blind", live or dead, all_in)


def _small_blind(hand: Mapping[str, Any], big: int) -> int:
    posted = [int(amount) for _, kind, amount in hand.get("posts", ()) if kind == "small blind"]
    return max(posted) if posted else big // 2


def cash_hands_to_stars(hands: Sequence[Mapping[str, Any]], *, hero: str | None = None, table: str = "",
                        table_size: int | None = None, names: Mapping[str, str] | None = None) -> str:
    """Several cash hands (each the asker's copy), one file: each hand, then two blank lines."""
    chunks = [cash_hand_to_stars(hand, hero=hero, table=table, table_size=table_size, names=names) for hand in hands]
    return "\n\n".join(chunks) + ("\n\n" if chunks else "")
