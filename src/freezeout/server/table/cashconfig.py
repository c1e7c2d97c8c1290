"""A cash table's configuration: the one place a table's spec (its ``create`` entry's game and
cash options, server/gamespec.py) becomes the rules' :class:`CashConfig` (C1, C5, C6, C7, C10, V17, V18)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from freezeout.rules.cash import CashConfig
from freezeout.rules.errors import RulesError
from freezeout.rules.games import Mix
from freezeout.rules.pots import Rake
from freezeout.rules.variant import Forced
from freezeout.server.gamespec import CashOptions, GameRefused, GameSpec
from freezeout.server.table.commands import Refused

if TYPE_CHECKING:
    from freezeout.server.storage.users import UserRow

__all__ = ["MAX_CASH_CHIPS", "STUD_MIN_BIG_BLIND", "account_key", "cash_config", "cash_places", "cash_spec", "check_cash_stakes"]

#: The most chips a cash table's stakes and buy-ins may name: far beyond any balance, and well
#: inside the ledger's 64-bit amounts.
MAX_CASH_CHIPS = 10**12

#: The smallest big blind of a cash table that deals stud (alone or in a mix): its ante (V18,
#: a tenth of the big blind) is then at least one chip.
STUD_MIN_BIG_BLIND = 10


def cash_config(spec: GameSpec, seats: int, button: int) -> CashConfig:
    """The one place a table's spec becomes the rules' cash configuration; :class:`GameRefused` says why not."""
    options = spec.cash or CashOptions()
    rake = Rake(options.rake_bp, options.rake_caps) if options.rake_bp else None
    game = spec.game
    studs = [v.name for v in (game.games if isinstance(game, Mix) else (game,)) if v.forced is Forced.BRING_IN]
    if studs and options.big_blind < STUD_MIN_BIG_BLIND:
        # V18: a stud game's ante is a tenth of the big blind: below 10 it would be no chip at all
        raise GameRefused(f"{studs[0]} is dealt here at stakes of a big blind of at least {STUD_MIN_BIG_BLIND} chips "
                          f"(an ante of 1 and a bring-in of 5), not {options.big_blind}: below that the ante "
                          "would be less than one chip")
    try:
        return CashConfig(game=spec.game, blinds=options.blinds, seats=seats, min_buy_in=options.min_buy_in,
                          max_buy_in=options.max_buy_in, rake=rake, straddles=options.straddle,
                          button_straddle=options.button_straddle, show_called=options.show_called,
                          first_button=button)
    except RulesError as error:
        raise GameRefused(str(error)) from None


# -- a new cash table (the room's create, table/formats.py) ---------------------------------
def cash_spec(creator: UserRow, slots: Sequence[str | None], game: str | None, cash: Mapping[str, Any] | None,
              ranked: bool, sit: bool) -> GameSpec:
    """A cash table's spec (C1, C5–C7), or why not: guests hold no play chips (C9), so they
    may watch a cash table but not open one; its seats are taken by buy-ins, never by bots
    or the creator at once, and play chips are not rated."""
    if creator.kind != "user":
        raise Refused("forbidden", "guests hold no play chips: register or log in to open a cash table "
                                   "(a guest may watch one)")
    if ranked:
        raise Refused("bad_message", "a cash table is not ranked: play chips change no rating")
    if sit:
        raise Refused("bad_message", "a cash table's seat is taken with a buy-in, not at its creation "
                                     "(POST /api/tables/{id}/buy_in)")
    if any(level is not None for level in slots):
        raise Refused("bad_message", "bots do not sit at a cash table when it opens: its seats are bought into")
    try:
        return GameSpec.parse_cash(game, cash)
    except GameRefused as error:
        raise Refused("bad_message", str(error)) from None


def check_cash_stakes(spec: GameSpec, seats: int) -> None:
    """C1: buy-ins a player can make at these stakes: at least one big blind (a stack that
    cannot post the big blind cannot play a hand), and no more chips than the ledger counts."""
    config = cash_config(spec, seats, 0)
    big = config.blinds[1]
    if config.max_buy_in > MAX_CASH_CHIPS or big > MAX_CASH_CHIPS:
        raise Refused("bad_message", f"stakes and buy-ins are at most {MAX_CASH_CHIPS} chips")
    if config.min_buy_in < big:
        raise Refused("bad_message", f"a buy-in of {config.min_buy_in} cannot post the big blind of {big}: "
                                     f"the minimum buy-in must be at least one big blind")


def cash_places(game: str | None, slots: list[str | None], seats: int | None, sit: bool,
                sent: frozenset[str]) -> tuple[list[str | None], bool]:
    """A new cash table's places (``POST /api/tables``): ``seats`` empty ones (default the game's
    most), its creator not seated (the room refuses ``sit`` sent with a cash table: :func:`cash_spec`)."""
    if "slots" in sent:
        raise Refused("bad_message", "a cash table names how many seats it has (seats), not slots")
    if seats is None:
        try:
            seats = GameSpec.parse(game, format="cash").max_seats
        except GameRefused as error:
            raise Refused("bad_message", str(error)) from None
    return [None] * seats, sit if "sit" in sent else False


def account_key(account: int | None) -> str:
    """Who a seat's player is for C3 (hit-and-run) and C11 (the time bank kept): the account,
    never the name shown, which its owner may change (``POST /api/me/display``)."""
    return "" if account is None else f"account:{account}"
