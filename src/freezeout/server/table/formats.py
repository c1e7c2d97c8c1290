"""The formats a table can hold, each with its game: how a ``start`` entry begins one and
what a new table of it is checked for.  The one place that names both games (the
registry of :class:`~.game.TableGame` implementations): the fold (:mod:`.state`) and the
room ask here, and never which format they hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from freezeout.server.gamespec import FORMATS, GameRefused, GameSpec
from freezeout.server.table.cash import CashGame
from freezeout.server.table.cashconfig import cash_config, cash_places, cash_spec, check_cash_stakes
from freezeout.server.table.freezeout import (
    FreezeoutGame,
    freezeout_places,
    freezeout_spec,
    tournament_config,
)
from freezeout.server.table.game import TableGame

if TYPE_CHECKING:
    from freezeout.server.storage.users import UserRow
    from freezeout.server.table.state import TableState

__all__ = ["GAMES", "GameFormat", "check_game", "open_table", "start_game"]


@dataclass(frozen=True, slots=True)
class GameFormat:
    """A format's game: ``start`` begins it between the players of a ``start`` entry; ``check``
    raises :class:`GameRefused` unless a table of so many seats can deal it in this build;
    ``open`` is the table as its ``create`` entry opens it (a cash table's game runs from
    the start, a freezeout's waits for its ``start``)."""

    start: Callable[[GameSpec, tuple[str, ...], int], TableGame]
    check: Callable[[GameSpec, int], object]
    #: A new table's spec from a client's choice (creator, places, game, options, ranked, sit),
    #: or :class:`~.commands.Refused`: the room's create.
    new_spec: Callable[[UserRow, Sequence[str | None], str | None, Mapping[str, Any] | None, bool, bool], GameSpec]
    #: A new table's places and whether its creator sits, from ``POST /api/tables`` (game,
    #: slots, seats, sit, the fields sent), or :class:`~.commands.Refused`.
    places: Callable[[str | None, list[str | None], int | None, bool, frozenset[str]], tuple[list[str | None], bool]]
    #: What a new table of the format is checked for beyond its game (a cash table's stakes).
    check_new: Callable[[GameSpec, int], None] = lambda spec, seats: None
    open: Callable[[TableState, float], TableState] = lambda state, at: state


def _open_cash(state: TableState, at: float) -> TableState:
    """A cash table's state as its ``create`` entry opens it: the game runs from the start
    (no ``start`` entry: players sit down and leave while it goes on); a seat is its place."""
    game = CashGame.open(state.spec, state.size)
    return replace(state, table_game=game, game=1, game_id=state.id, seat_slots=tuple(range(state.size)),
                   players=game.players, started_at=at)


GAMES: dict[str, GameFormat] = {
    "freezeout": GameFormat(FreezeoutGame.start,
                            lambda spec, seats: tournament_config(spec, [f"p{i}" for i in range(seats)], 0),
                            freezeout_spec, freezeout_places),
    "cash": GameFormat(lambda spec, players, button: CashGame.open(spec, len(players), button),
                       lambda spec, seats: cash_config(spec, seats, 0), cash_spec, cash_places,
                       check_cash_stakes, _open_cash),
}
assert tuple(GAMES) == FORMATS, "every format a spec names has its game"


def _format(spec: GameSpec) -> GameFormat:
    try:
        return GAMES[spec.format]
    except KeyError:
        raise GameRefused(f"unknown format {spec.format!r}") from None


def start_game(spec: GameSpec, players: Sequence[str], button: int) -> TableGame:
    """The game a ``start`` entry begins (the format's own start)."""
    return _format(spec).start(spec, tuple(players), button)


def check_game(spec: GameSpec, seats: int) -> None:
    """Raise :class:`GameRefused` unless a table of ``seats`` seats can hold ``spec`` now: the
    game and seat count (:meth:`GameSpec.check`) and what its format can deal in this build."""
    spec.check(seats)
    _format(spec).check(spec, seats)


def open_table(state: TableState, at: float) -> TableState:
    """The table its ``create`` entry opens at ``at``, as its format opens it (an unknown
    format is refused when a game starts: :func:`start_game`)."""
    found = GAMES.get(state.spec.format)
    return found.open(state, at) if found is not None else state
