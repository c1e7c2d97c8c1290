"""Hand names in English and Czech, from a hand's value (never from its cards).

The English names of high hands are the ones :mod:`.describe` has always
produced (the engine, server, web client and tests read them); Czech
follows the same pattern in natural Czech poker wording, kept neutral (no
address to the player).  Czech needs the rank in four forms: nominative
singular (*eso*), genitive singular (*postupka do esa*), genitive plural
(*pár es*) and nominative plural (*dva páry, esa a králové*).

Ranks here use the high numbering of :mod:`freezeout.cards` (deuce 0 ..
ace 12) unless a function says "ace-low".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from freezeout.evaluate import tables
from freezeout.evaluate.errors import EvaluationError

__all__ = [
    "LANGUAGES",
    "cards_text",
    "category_name",
    "check_language",
    "describe_high",
    "rank_word",
]

LANGUAGES: Final = ("en", "cs")

_EN: Final = (
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
    "ace",
)
_EN_PLURAL: Final = tuple("sixes" if name == "six" else name + "s" for name in _EN)
_CS: Final = (
    "dvojka", "trojka", "čtyřka", "pětka", "šestka", "sedmička", "osmička",
    "devítka", "desítka", "kluk", "dáma", "král", "eso",
)  # fmt: skip
_CS_GENITIVE: Final = (
    "dvojky", "trojky", "čtyřky", "pětky", "šestky", "sedmičky", "osmičky",
    "devítky", "desítky", "kluka", "dámy", "krále", "esa",
)  # fmt: skip
_CS_GENITIVE_PLURAL: Final = (
    "dvojek", "trojek", "čtyřek", "pětek", "šestek", "sedmiček", "osmiček",
    "devítek", "desítek", "kluků", "dam", "králů", "es",
)  # fmt: skip
_CS_PLURAL: Final = (
    "dvojky", "trojky", "čtyřky", "pětky", "šestky", "sedmičky", "osmičky",
    "devítky", "desítky", "kluci", "dámy", "králové", "esa",
)  # fmt: skip
_FORMS: Final = {
    ("en", "one"): _EN,
    ("en", "of"): _EN,
    ("en", "many"): _EN_PLURAL,
    ("en", "of many"): _EN_PLURAL,
    ("cs", "one"): _CS,
    ("cs", "of"): _CS_GENITIVE,
    ("cs", "many"): _CS_PLURAL,
    ("cs", "of many"): _CS_GENITIVE_PLURAL,
}

#: Category names by :mod:`.tables` category code.
_CATEGORIES: Final = {
    "en": tables.CATEGORIES,
    "cs": (
        "vysoká karta",
        "jeden pár",
        "dva páry",
        "trojice",
        "postupka",
        "barva",
        "full house",
        "čtveřice",
        "postupka v barvě",
    ),
}
_RANK_CHARS: Final = "23456789TJQKA"


def check_language(lang: str) -> str:
    """``lang`` if it is one we speak, else a clear :class:`EvaluationError`."""
    if lang not in LANGUAGES:
        raise EvaluationError(f"no hand names in language {lang!r}; known: {', '.join(LANGUAGES)}")
    return lang


def rank_word(rank: int, lang: str, form: str = "one") -> str:
    """The rank's name: ``form`` is "one" (ace), "of" (Czech genitive), "many" (aces) or "of many"."""
    return _FORMS[lang, form][rank]


def category_name(category: int, lang: str) -> str:
    """Name of a :mod:`.tables` category code, lower case (``"full house"``, ``"barva"``)."""
    return _CATEGORIES[check_language(lang)][category]


def cards_text(ranks: Sequence[int]) -> str:
    """``"8-6-4-2-A"``: ranks (high numbering) as card characters, joined by hyphens."""
    return "-".join(_RANK_CHARS[rank] for rank in ranks)


def _kickers(ranks: Sequence[int], lang: str) -> str:
    """The side cards that break ties within a made hand, so that every value reads differently."""
    if not ranks:
        return ""
    if lang == "en":
        word = "kicker" if len(ranks) == 1 else "kickers"
    else:
        word = "kicker" if len(ranks) == 1 else "kickery"
    return f"; {word} {', '.join(rank_word(rank, lang) for rank in ranks)}"


#: Per language and category: the wording (``{one0}``: first rank, ``{many1}``: second rank in
#: the plural, ``{of0}``, ``{ofmany0}``: Czech genitives, ``{all}``: every rank) and where the
#: kickers start among the tiebreak ranks (None: no kickers).
_HIGH_WORDING: Final = {
    "en": {
        tables.STRAIGHT_FLUSH: ("Straight flush, {one0} high", None),
        tables.QUADS: ("Four of a kind, {many0}", 1),
        tables.FULL_HOUSE: ("Full house, {many0} full of {many1}", None),
        tables.FLUSH: ("Flush, {all}", None),
        tables.STRAIGHT: ("Straight, {one0} high", None),
        tables.TRIPS: ("Three of a kind, {many0}", 1),
        tables.TWO_PAIR: ("Two pair, {many0} and {many1}", 2),
        tables.ONE_PAIR: ("One pair, {many0}", 1),
        tables.HIGH_CARD: ("High card, {one0}", 1),
    },
    "cs": {
        tables.STRAIGHT_FLUSH: ("Postupka v barvě do {of0}", None),
        tables.QUADS: ("Čtveřice {ofmany0}", 1),
        tables.FULL_HOUSE: ("Full house, trojice {ofmany0} a pár {ofmany1}", None),
        tables.FLUSH: ("Barva, {all}", None),
        tables.STRAIGHT: ("Postupka do {of0}", None),
        tables.TRIPS: ("Trojice {ofmany0}", 1),
        tables.TWO_PAIR: ("Dva páry, {many0} a {many1}", 2),
        tables.ONE_PAIR: ("Pár {ofmany0}", 1),
        tables.HIGH_CARD: ("Vysoká karta {one0}", 1),
    },
}
_ROYAL: Final = {"en": "Royal flush", "cs": "Královská postupka"}


def describe_high(category: int, ranks: Sequence[int], lang: str = "en") -> str:
    """Name of a high-poker value ``(category code, tiebreak ranks)``, e.g. "Full house, kings full of tens".

    Every rank that can decide a showdown is named, so distinct values read
    differently.  ``ranks`` is the tiebreak of :func:`.tables.five_card_classes`
    (a straight's top card, else the groups' ranks, biggest group first).
    """
    check_language(lang)
    if category == tables.STRAIGHT_FLUSH and ranks[0] == 12:
        return _ROYAL[lang]
    wording, kickers = _HIGH_WORDING[lang][category]
    fields = {"all": ", ".join(rank_word(rank, lang) for rank in ranks)}
    for position, rank in enumerate(ranks[:2]):
        for form in ("one", "of", "many", "of many"):
            fields[form.replace(" ", "") + str(position)] = rank_word(rank, lang, form)
    return wording.format(**fields) + ("" if kickers is None else _kickers(ranks[kickers:], lang))
