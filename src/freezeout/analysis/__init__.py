"""Game review: all-in equity, all-in EV and luck, push/fold mistakes, the odds calculator.

* :mod:`.games` — which games have an equity (every game where no decision
  remains once the betting is over: not the draws) and their aliases;
* :mod:`.equity` — exact enumeration of the remaining cards, or seeded
  Monte Carlo with its ± where that is too much work;
* :mod:`.ranges` — hold'em ranges (``QQ+,AKs``) as lists of combinations;
* :mod:`.odds` — ``freezeout odds``;
* :mod:`.review` and :mod:`.mistakes` — ``freezeout review``.

Everything here is pure (no I/O, no clock); randomness only from a seed.
docs/review.md explains the numbers.
"""
