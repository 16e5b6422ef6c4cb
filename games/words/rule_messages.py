"""The engine's explanations of a refused move, in the reader's language.

The engine (games/engine) stays free of Django and speaks English, naming the rule it
applies ("discard only after the draw (R3)"). Here each of its messages, by its shape, is
matched to a translatable sentence with the same values, read lazily: a service refuses a
move in a thread with no request, and each reader renders the refusal in their language.
tests/test_languages.py checks that every message the engine can raise has a shape here.
"""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_noop

from games.engine.cards import parse_card, short
from games.words.text import lazy_message

CARD = r"[2-9TJQKA][CDHS]|10[CDHS]"
CARDS = rf"(?:{CARD})(?:, (?:{CARD}))*"

# A move the rules forbid now (IllegalMoveError): each message as a sentence.
ILLEGAL: list[tuple[str, str]] = [
    (r"the game has already ended \(R11\)", gettext_noop("The game has already ended (R11).")),
    (
        r"seat (?P<seat>\d) may not act now: seat (?P<turn>\d) must \(R3\)",
        gettext_noop("Seat %(seat)s may not act now: seat %(turn)s must (R3)."),
    ),
    (r"unknown move type (?P<type>.*)", gettext_noop("Unknown move type %(type)s.")),
    (
        r"a card mask holds something that is not a card \(R1\)",
        gettext_noop("A card mask holds something that is not a card (R1)."),
    ),
    (r"(?P<type>\w+) takes no cards \(R3\)", gettext_noop("%(type)s takes no cards (R3).")),
    (
        r"a Draw call is waiting: answer it with fold or fight \(R7\)",
        gettext_noop("A Draw call is waiting: answer it with fold or fight (R7)."),
    ),
    (
        r"this move needs at least (?P<count>\d+) cards \(R3, R4\)",
        gettext_noop("This move needs at least %(count)s cards (R3, R4)."),
    ),
    (
        rf"seat (?P<seat>\d) does not hold (?P<card>{CARD}) \(R3\)",
        gettext_noop("Seat %(seat)s does not hold %(card)s (R3)."),
    ),
    (
        r"draw only at the start of a turn \(the dealer's first turn has no draw step\) \(R3\)",
        gettext_noop(
            "Draw only at the start of a turn (the dealer's first turn has no draw step) (R3)."
        ),
    ),
    (
        r"take only at the start of a turn \(the dealer's first turn has no draw step\) \(R3\)",
        gettext_noop(
            "Take only at the start of a turn (the dealer's first turn has no draw step) (R3)."
        ),
    ),
    (r"the discard pile is empty \(R3\)", gettext_noop("The discard pile is empty (R3).")),
    (
        rf"(?P<top>{CARD}) with (?P<cards>{CARDS}) is not a meld \(R3, R4\)",
        gettext_noop("%(top)s with %(cards)s is not a meld (R3, R4)."),
    ),
    (
        r"meld only in the play step, after the draw \(R3\)",
        gettext_noop("Meld only in the play step, after the draw (R3)."),
    ),
    (
        rf"(?P<cards>{CARDS}) is not a set or a run \(R4\)",
        gettext_noop("%(cards)s is not a set or a run (R4)."),
    ),
    (
        r"a secret set only in the play step, after the draw \(R3\)",
        gettext_noop("A secret set only in the play step, after the draw (R3)."),
    ),
    (
        r"a secret set is four cards of one rank \(R4\)",
        gettext_noop("A secret set is four cards of one rank (R4)."),
    ),
    (
        r"lay off only in the play step, after the draw \(R3\)",
        gettext_noop("Lay off only in the play step, after the draw (R3)."),
    ),
    (
        r"there is no meld number (?P<meld>\d+) \(R4\)",
        gettext_noop("There is no meld number %(meld)s (R4)."),
    ),
    (
        r"nothing can be laid off on a secret set \(R4\)",
        gettext_noop("Nothing can be laid off on a secret set (R4)."),
    ),
    (
        rf"(?P<cards>{CARDS}) does not fit meld (?P<meld>\d+) \(R5\)",
        gettext_noop("%(cards)s does not fit meld %(meld)s (R5)."),
    ),
    (r"discard only after the draw \(R3\)", gettext_noop("Discard only after the draw (R3).")),
    (r"discard exactly one card \(R3\)", gettext_noop("Discard exactly one card (R3).")),
    (
        r"Draw may be called only at the start of a turn \(R7\)",
        gettext_noop("Draw may be called only at the start of a turn (R7)."),
    ),
    (
        r"only a player who has opened may call Draw \(R7\)",
        gettext_noop("Only a player who has opened may call Draw (R7)."),
    ),
    (
        r"a lay-off blocks this player from calling Draw \(R5\)",
        gettext_noop("A lay-off blocks this player from calling Draw (R5)."),
    ),
    (
        r"fold and fight only answer a Draw call \(R7\)",
        gettext_noop("Fold and fight only answer a Draw call (R7)."),
    ),
]

# A move that is malformed (InvalidMoveError): the reason, said after "That move is
# malformed:".
MALFORMED: list[tuple[str, str]] = [
    (r"a move must be a JSON object", gettext_noop("a move must be a JSON object")),
    (r"unknown move type (?P<type>.*)", gettext_noop("unknown move type %(type)s")),
    (r"bad seat (?P<seat>.*)", gettext_noop("bad seat %(seat)s")),
    (r"'meld' must be a meld number", gettext_noop("'meld' must be a meld number")),
    (r"'(?P<key>\w+)' must be a card", gettext_noop("'%(key)s' must be a card")),
    (r"'cards' must be a list of cards", gettext_noop("'cards' must be a list of cards")),
    (r"a card is listed twice", gettext_noop("a card is listed twice")),
]

_ILLEGAL = [(re.compile(pattern, re.DOTALL), text) for pattern, text in ILLEGAL]
_MALFORMED = [(re.compile(pattern, re.DOTALL), text) for pattern, text in MALFORMED]


def _match(table: list[tuple[re.Pattern, str]], message: str) -> tuple[str, dict] | None:
    for pattern, text in table:
        found = pattern.fullmatch(message)
        if found:
            return text, found.groupdict()
    return None


def illegal(message: str) -> Promise:
    """The sentence for the engine's IllegalMoveError ``message``."""
    found = _match(_ILLEGAL, message)
    if found is None:  # a message of a newer engine: in English, as a sentence
        return lazy_message(lambda: message[:1].upper() + message[1:] + ".")
    text, values = found
    values = {name: _as_shown(name, value) for name, value in values.items()}
    return lazy_message(lambda: _capital(gettext(text) % values))


def _as_shown(name: str, value: str) -> str:
    """Cards as the table prints them ("A♣ J♦ 2♠"), not as the engine codes them."""
    try:
        if name in ("card", "top"):
            return short(parse_card(value))
        if name == "cards":
            return " ".join(short(parse_card(code)) for code in value.split(", "))
    except ValueError:  # a code the engine never writes ("10D"): as it came
        pass
    return value


def _capital(sentence: str) -> str:
    # A sentence that starts with a value ("draw takes no cards") starts with a capital.
    return sentence[:1].upper() + sentence[1:]


def malformed(message: str) -> Promise:
    """The sentence for the engine's InvalidMoveError ``message``."""
    found = _match(_MALFORMED, message)
    if found is None:
        reason = lambda: message  # noqa: E731
    else:
        text, values = found
        reason = lambda: gettext(text) % values  # noqa: E731
    return lazy_message(
        lambda: gettext("That move is malformed: %(reason)s.") % {"reason": reason()}
    )


def known(message: str) -> bool:
    """Whether an IllegalMoveError ``message`` has its sentence here (for tests)."""
    return _match(_ILLEGAL, message) is not None


def known_malformed(message: str) -> bool:
    return _match(_MALFORMED, message) is not None


# --- Uploaded records -----------------------------------------------------------------------
# Why a record cannot be read: the engine's RecordError (games/engine/record.py), the card
# reader's error inside it, and the series record's own checks (games/series/record.py).
# ``manage.py replay`` prints them as they are; an upload's page puts them into words.
UNREADABLE: list[tuple[str, str]] = [
    (r"it is nested too deeply", gettext_noop("it is nested too deeply")),
    (r"the record is not JSON", gettext_noop("the record is not JSON")),
    (r"a record must be a JSON object", gettext_noop("a record must be a JSON object")),
    (r"format must be '(?P<format>[^']*)'", gettext_noop("format must be '%(format)s'")),
    (r"dealer must be 0, 1 or 2", gettext_noop("dealer must be 0, 1 or 2")),
    (r"moves must be a list", gettext_noop("moves must be a list")),
    (r"variants must be a list of names", gettext_noop("variants must be a list of names")),
    (r"unknown variant (?P<name>.*)", gettext_noop("unknown variant %(name)s")),
    (r"hands must be a list of three hands", gettext_noop("hands must be a list of three hands")),
    (
        r"hands\[(?P<seat>\d)\] must hold (?P<size>\d+) cards",
        gettext_noop("hands[%(seat)s] must hold %(size)s cards"),
    ),
    (
        r"the deal must hold each of the 52 cards exactly once",
        gettext_noop("the deal must hold each of the 52 cards exactly once"),
    ),
    (
        r"(?P<where>hands\[\d\]|stock) must be a list of cards",
        gettext_noop("%(where)s must be a list of cards"),
    ),
    (
        r"(?P<where>hands\[\d\]|stock): (?P<text>.*) is not a card",
        gettext_noop("%(where)s: %(text)s is not a card"),
    ),
    # The series record's.
    (r"ante must be 1, 2 or 5", gettext_noop("ante must be 1, 2 or 5")),
    (r"the only dealer rule is (?P<rule>.*)", gettext_noop("the only dealer rule is %(rule)s")),
    (r"hands must be a list of game records", gettext_noop("hands must be a list of game records")),
    (
        r"people_at_end must list seats 0, 1 or 2",
        gettext_noop("people_at_end must list seats 0, 1 or 2"),
    ),
    (
        r"hand (?P<hand>\d+) is dealt by seat (?P<dealer>\d), not the winner (?P<winner>\d)",
        gettext_noop("hand %(hand)s is dealt by seat %(dealer)s, not the winner %(winner)s"),
    ),
    (
        r"a series has at most (?P<max>\d+) hands",
        gettext_noop("a series has at most %(max)s hands"),
    ),
    (r"ended must be true or false", gettext_noop("ended must be true or false")),
    (
        r"bots must name each seat's bot, or null for a person",
        gettext_noop("bots must name each seat's bot, or null for a person"),
    ),
    (r"no person is seated in this hand", gettext_noop("no person is seated in this hand")),
    (
        r"seat (?P<seat>\d) was a bot, so it stays the same bot",
        gettext_noop("seat %(seat)s was a bot, so it stays the same bot"),
    ),
    (r"aborted must be true or false", gettext_noop("aborted must be true or false")),
    (
        r"the hand is marked aborted, yet its moves end it",
        gettext_noop("the hand is marked aborted, yet its moves end it"),
    ),
    (
        r"the hand did not end and is not marked aborted",
        gettext_noop("the hand did not end and is not marked aborted"),
    ),
    (
        r"people_at_end must be empty while the series goes on",
        gettext_noop("people_at_end must be empty while the series goes on"),
    ),
    (
        r"people_at_end must be people seated in the last hand",
        gettext_noop("people_at_end must be people seated in the last hand"),
    ),
    (
        r"pot must be the list of the pot's events",
        gettext_noop("pot must be the list of the pot's events"),
    ),
    (
        r"pot event (?P<index>\d+) does not follow from the hands",
        gettext_noop("pot event %(index)s does not follow from the hands"),
    ),
    (
        r"held can only be true, on a pot taken",
        gettext_noop("held can only be true, on a pot taken"),
    ),
]

_UNREADABLE = [(re.compile(pattern, re.DOTALL), text) for pattern, text in UNREADABLE]


def unreadable(message: str) -> str:
    """Why a record cannot be read (a RecordError's or a series check's ``message``), in
    the active language; a message with no sentence here reads as it came."""
    found = _match(_UNREADABLE, message)
    if found is None:
        return message
    text, values = found
    return gettext(text) % values


def known_unreadable(message: str) -> bool:
    return _match(_UNREADABLE, message) is not None


def refused_move(message: str) -> str:
    """A record's move the engine refused, from the message its replay kept (malformed or
    against the rules: the replay does not say which, and only "unknown move type" could
    be either, which a record's move always meets as malformed)."""
    if known_malformed(message):
        return str(malformed(message))
    return str(illegal(message))
