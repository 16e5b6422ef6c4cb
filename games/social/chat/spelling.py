"""How the word filter reads a message: each character as the plain letter it shows, and
the message as words, each with where it stands in what was written.

A character is read as Unicode's NFKC makes it (full-width ｆ, mathematical 𝐟 and
circled ⓕ are f), without its marks (ú is u; a line drawn under each letter goes), in
lower case, and, when it is a letter of another script drawn like a Latin one (Cyrillic
а, Greek ο), as that Latin letter: the look-alikes are Unicode's own confusables table,
as the kept library ``confusable_homoglyphs`` ships it. Digits and signs that stand for
letters (g4g0, $hit) are left to the word filter, which reads them as better-profanity
does.

A word is a run of letters, digits and those signs; single letters spaced out
("f u c k", "g . a . g . o") and pieces tied by a hyphen, a dot or an underscore
("fu-ck") are also read together, as the word they spell.
"""

from __future__ import annotations

import re
import string
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache

from confusable_homoglyphs import confusables

LATIN = frozenset(string.ascii_lowercase + string.digits)
# A word: letters and digits (``_`` is not one), the signs that stand for letters
# anywhere in it ($hit, g@g0, sh*t), and ! | + only between two of those (sh!t, not "hi!").
WORD = re.compile(r"(?:[^\W_]|[@$*])+(?:[!|+](?:[^\W_]|[@$*])+)*")
TIES = frozenset("-_.")  # one of these alone between two pieces ties them: "fu-ck", "f.u.c.k"
SPACED = 3  # at most this many characters between single letters read as one word


@cache
def look_alikes() -> dict[str, str]:
    """Each character of another script that Unicode's confusables table draws like a
    Latin letter or digit, with that letter in lower case; one step further when its
    look-alike is itself one (Cyrillic к is drawn like ĸ, which is drawn like k)."""
    table = confusables.confusables_data
    found: dict[str, str] = {}
    for char, alikes in table.items():
        if len(char) == 1 and not char.isascii():
            latin = [a["c"].lower() for a in alikes if a["c"].lower() in LATIN]
            if latin:
                found[char] = latin[0]
    for char, alikes in table.items():
        if len(char) == 1 and not char.isascii() and char not in found:
            further = [found[a["c"]] for a in alikes if a["c"] in found]
            if further:
                found[char] = further[0]
    return found


@lru_cache(maxsize=4096)
def plain(char: str) -> str:
    """One character as the filter reads it (possibly none, or several: ﬁ is fi)."""
    alikes = look_alikes()
    out = []
    for part in unicodedata.normalize("NFD", unicodedata.normalize("NFKC", char)):
        if unicodedata.category(part)[0] == "M" or unicodedata.category(part) == "Cf":
            continue  # a mark on a letter, or a character that shows nothing
        if part.isascii():
            out.append(part.lower())
        else:
            out.append(alikes.get(part) or alikes.get(part.upper()) or part.lower())
    return "".join(out)


@dataclass(frozen=True)
class Reading:
    """A message as the filter reads it, and where each of its characters came from."""

    text: str
    origin: tuple[int, ...] | None  # None: character for character, as written
    length: int  # of what was written

    def span(self, start: int, end: int) -> tuple[int, int]:
        """Where ``text[start:end]`` stands in what was written, with any marks that
        followed its last letter."""
        if self.origin is None:
            return start, end
        after = self.origin[end] if end < len(self.origin) else self.length
        return self.origin[start], after


def read(text: str) -> Reading:
    if text.isascii():
        return Reading(text.lower(), None, len(text))
    parts = [plain(c) for c in text]
    origin = tuple(i for i, part in enumerate(parts) for _ in part)
    return Reading("".join(parts), origin, len(text))


@dataclass(frozen=True)
class Word:
    start: int  # in the reading
    end: int
    text: str
    pieces: int = 1  # how many words of the message it was read from


def words(reading: Reading) -> list[Word]:
    """The message's words, in order."""
    text = reading.text
    return [Word(m.start(), m.end(), m.group()) for m in WORD.finditer(text)]


def _tied(text: str, a: Word, b: Word) -> bool:
    between = text[a.end : b.start]
    if len(between) == 1 and between in TIES:
        return True
    # Single letters spaced out: "f u c k", "g . a . g . o". Letters, not digits: cards
    # are talked of as "A 5 5", which is no word.
    single = len(a.text) == len(b.text) == 1 and a.text.isalpha() and b.text.isalpha()
    return single and len(between) <= SPACED


def joined(reading: Reading, found: list[Word]) -> list[Word]:
    """Runs of words tied together (see ``_tied``), each read as one word."""
    runs: list[Word] = []
    first = 0
    for i in range(1, len(found) + 1):
        if i < len(found) and _tied(reading.text, found[i - 1], found[i]):
            continue
        if i - first > 1:
            spelt = "".join(w.text for w in found[first:i])
            runs.append(Word(found[first].start, found[i - 1].end, spelt, i - first))
        first = i
    return runs
