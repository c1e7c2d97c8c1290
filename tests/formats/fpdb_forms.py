"""The line forms fpdb-3's PokerStars parser (``PokerStarsToFpdb.py``, jejellyroll-fr/fpdb-3) reads,
described here in our own words and patterns (issue #32 items 8, 10): a referee for our
PokerStars text.  A move the parser does not know is silently dropped by it (and its chips with
it), so every move line we write must have one of these forms, and the chips those forms say —
read the way the parser reads them — must add up to the engine's stacks.

* posts: ``P: posts the ante N``, ``P: posts small blind N``, ``P: posts big blind N``,
  ``P: posts small & big blinds N`` (a returning player: the header's small blind dead, its
  big blind a bet of the round), ``P: brings in for N``; the parser takes the first ``posts
  small blind`` as the live one and a later one as dead money, no bet of the round (the site also writes ``brings-in``/``brings in low``);
* moves: ``P: folds``, ``P: checks``, ``P: calls N``, ``P: bets N`` (N added), ``P: raises N to T``
  (the parser takes T, the round total), ``P: discards N card(s) [cards]``, ``P: stands pat``,
  each optionally ``and is all-in``;
* streets: flop games ``*** HOLE CARDS ***``, ``*** FLOP ***``, ``*** TURN ***``, ``*** RIVER ***``;
  stud ``*** 3rd STREET ***`` … ``*** 6th STREET ***``, ``*** RIVER ***``; single-draw games
  (five-card draw, 2-7 single draw) ``*** DEALING HANDS ***``, ``*** DRAW ***``; triple draws
  ``*** DEALING HANDS ***``, ``*** FIRST DRAW ***``, ``*** SECOND DRAW ***``, ``*** THIRD DRAW ***``;
* ``Uncalled bet (N) returned to P``, ``P collected N from [main |side ]pot``, the summary's
  ``Total pot N … | Rake N``.
"""

from __future__ import annotations

import re

ACTION = re.compile(
    r"^(?P<p>.+?): (?P<verb>bets|checks|raises|calls|folds|discards|stands pat)"
    r"(?: (?P<amount>\d+))?(?: to (?P<to>\d+))?(?: and is all-in)?(?: on| cards?)?(?: \[[^\]]+\])?$"
)
POST = re.compile(r"^(?P<p>.+?): (?:posts (?P<kind>the ante|small blind|big blind|small & big blinds|straddle) |brings in for )(?P<amount>\d+)(?: and is all-in)?$")
RETURNED = re.compile(r"^Uncalled bet \((?P<amount>\d+)\) returned to (?P<p>.+)$")
COLLECTED = re.compile(r"^(?P<p>.+) collected (?P<amount>\d+) from (?:main |side |side pot-\d+ )?pot$|^(?P<p2>.+) collected (?P<amount2>\d+) from side pot-\d+$")
SEAT = re.compile(r"^Seat (?P<seat>\d+): (?P<p>.+) \((?P<chips>\d+) in chips\)$")
STREETS = {
    "flop": ("HOLE CARDS", "FLOP", "TURN", "RIVER", "SECOND FLOP", "SECOND TURN", "SECOND RIVER"),
    "stud": ("3rd STREET", "4th STREET", "5th STREET", "6th STREET", "RIVER"),
    "single draw": ("DEALING HANDS", "DRAW"),
    "triple draw": ("DEALING HANDS", "FIRST DRAW", "SECOND DRAW", "THIRD DRAW"),
}
#: Lines the parser reads elsewhere or passes over without moving chips.
OTHER = re.compile(
    r"^(\*\*\* SHOW DOWN \*\*\*|Dealt to .+|.+: shows \[.+|.+ has timed out|.+ resigns and leaves the .+"
    r"|.+ finished the tournament in \d+\w\w place|.+ wins the tournament - congratulations!"
    r"|Pair on board - a double bet is allowed|.+ leaves the table|.+: doesn't show hand|.+: mucks hand)$"
)


def family(streets: tuple[str, ...], *, bring_in: bool, draws: int) -> str:
    if bring_in:
        return "stud"
    if draws == 1:
        return "single draw"
    return "triple draw" if draws else "flop"


def read_chips(text: str, kind: str) -> dict[str, int]:
    """One hand's stacks at its end, read as the parser reads the text: every line before the
    summary must be a form it knows; a raise counts to its round total, a bet or call adds."""
    body = text.split("*** SUMMARY ***")[0].splitlines()
    stacks: dict[str, int] = {}
    round_bets: dict[str, int] = {}
    stakes = re.search(r"\((\d+)/(\d+)\)", text.splitlines()[0])
    small, big = (int(stakes[1]), int(stakes[2])) if stakes else (0, 0)
    live_small_blind = True
    allowed = STREETS[kind]
    for line in body[2:]:
        if match := SEAT.match(line):
            stacks[match["p"]] = int(match["chips"])
        elif line.startswith("*** ") and line != "*** SHOW DOWN ***":
            header = re.fullmatch(r"\*\*\* (.+?) \*\*\*(?: .*)?", line)
            assert header and header[1] in allowed, f"street {line!r} is not one of {allowed}"
            if header[1] not in ("HOLE CARDS", "DEALING HANDS", "3rd STREET"):
                round_bets = {}
        elif match := POST.match(line):
            amount = int(match["amount"])
            stacks[match["p"]] -= amount
            kind = match["kind"]
            if kind == "small blind" and not live_small_blind:
                continue  # dead money
            live_small_blind = live_small_blind and kind != "small blind"
            if kind == "small & big blinds":
                assert amount == small + big, line
                amount = big
            if kind != "the ante":
                round_bets[match["p"]] = round_bets.get(match["p"], 0) + amount
        elif match := ACTION.match(line):
            player, verb = match["p"], match["verb"]
            if verb in ("bets", "calls"):
                assert match["amount"] and not match["to"], line
                stacks[player] -= int(match["amount"])
                round_bets[player] = round_bets.get(player, 0) + int(match["amount"])
            elif verb == "raises":
                assert match["to"], line
                total = int(match["to"])
                stacks[player] -= total - round_bets.get(player, 0)
                round_bets[player] = total
        elif match := RETURNED.match(line):
            stacks[match["p"]] += int(match["amount"])
        elif match := COLLECTED.match(line):
            stacks[match["p"] or match["p2"]] += int(match["amount"] or match["amount2"])
        else:
            assert OTHER.match(line), f"fpdb-3 reads no such line: {line!r}"
    return stacks
