"""A cash table's configuration: the one place a table's spec (its ``create`` entry's game and
cash options, server/gamespec.py) becomes the rules' :class:`CashConfig` (C1, C5, C6, C7, C10, V17, V18)."""

from __future__ import annotations

from freezeout.rules.cash import CashConfig
from freezeout.rules.errors import RulesError
from freezeout.rules.games import Mix
from freezeout.rules.pots import Rake
from freezeout.rules.variant import Forced
from freezeout.server.gamespec import CashOptions, GameRefused, GameSpec

__all__ = ["STUD_MIN_BIG_BLIND", "cash_config"]

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
