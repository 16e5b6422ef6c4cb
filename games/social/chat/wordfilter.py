"""The word filter of free text: better-profanity's English word list and our Filipino one
(``filipino_words.txt``), each word hidden as **** however it is spelt with the look-alike
characters better-profanity knows (g4g0, sh*t, $hit).

Only free text is filtered (a preset is ours). better-profanity's own ``censor`` compares
each word of a message with every listed word in turn, 3 to 5 ms a word here (140 ms for
a message of 190 characters, holding the interpreter that the table's moves also need;
``python -m bench.chat`` prints both). So we keep its list and its look-alikes and match
otherwise: every word is put in one canonical spelling and looked up in a set, which
costs microseconds. Runs of up to four words are looked up too, for entries of several
words ("putang ina").
"""

from __future__ import annotations

import itertools
import re
from functools import cache
from pathlib import Path

from better_profanity import Profanity
from better_profanity.utils import get_complete_path_of_file, read_wordlist

FILIPINO = Path(__file__).with_name("filipino_words.txt")
HIDDEN = "****"
MOST_WORDS = 4  # the longest entry of either list, in words
VARIANTS = 64  # spellings tried for one word with wildcards, at most

# A word: letters and digits, and the look-alikes and joiners people put in them; or
# single letters with dots between ("f.o.o"), read as the word they spell.
WORD = re.compile(r"(?<!\w)(?:\w\.){2,}\w(?!\w)|[\w@$*\-]+")
JOINERS = str.maketrans("", "", "-_.")


def _canonical_map() -> tuple[dict[str, str], dict[str, tuple[str, ...]]]:
    """From better-profanity's look-alikes: each character's one spelling, and the
    characters that stand for several letters (``*`` for any vowel, ``@`` for a or o)."""
    stands_for: dict[str, set[str]] = {}
    for letter, looks in Profanity().CHARS_MAPPING.items():
        for look in looks:
            stands_for.setdefault(look, set()).add(letter)
    # Letters the library counts as one another (i, l and 1; u and v) share a spelling.
    same = {"l": "i", "1": "i", "v": "u"}
    single: dict[str, str] = {}
    several: dict[str, tuple[str, ...]] = {}
    for look, letters in stands_for.items():
        letters = {same.get(x, x) for x in letters}
        if look.isalpha() and look in letters:
            single[look] = same.get(look, look)
        elif len(letters) == 1:
            single[look] = letters.pop()
        else:
            several[look] = tuple(sorted(letters))
    return single, several


SINGLE, SEVERAL = _canonical_map()


def spellings(word: str) -> list[str]:
    """``word``'s canonical spellings (several when it holds a wildcard)."""
    word = word.lower().translate(JOINERS)
    if not any(c in SEVERAL for c in word):
        return ["".join(SINGLE.get(c, c) for c in word)]
    parts = [SEVERAL.get(c) or (SINGLE.get(c, c),) for c in word]
    return ["".join(p) for p in itertools.islice(itertools.product(*parts), VARIANTS)]


def filipino_words() -> list[str]:
    lines = FILIPINO.read_text(encoding="utf-8").splitlines()
    return [line.strip().lower() for line in lines if line.strip() and not line.startswith("#")]


@cache
def listed() -> frozenset[str]:
    """Every listed entry, each of its words in canonical spelling, joined by a space."""
    english = read_wordlist(get_complete_path_of_file("profanity_wordlist.txt"))
    entries = set()
    for entry in [*english, *filipino_words()]:
        words = [spellings(w)[0] for w in entry.split()]
        entries.add(" ".join(words))
    return frozenset(entries)


@cache
def first_words() -> frozenset[str]:
    """The first word of each entry of several words: only a run that starts with one is
    looked up as a run."""
    return frozenset(entry.split(" ", 1)[0] for entry in listed() if " " in entry)


def _is_listed(options: list[list[str]]) -> bool:
    entries = listed()
    if all(len(o) == 1 for o in options):  # no wildcard: one spelling, one look-up
        return " ".join(o[0] for o in options) in entries
    tries = itertools.islice(itertools.product(*options), 256)
    return any(" ".join(c) in entries for c in tries)


def clean(text: str) -> str:
    """``text`` with every listed word (or run of words) replaced by ****."""
    spans = [(m.start(), m.end(), spellings(m.group())) for m in WORD.finditer(text)]
    out, at, i = [], 0, 0
    openers = first_words()
    while i < len(spans):
        longest = MOST_WORDS if any(o in openers for o in spans[i][2]) else 1
        for n in range(min(longest, len(spans) - i), 0, -1):
            if _is_listed([s[2] for s in spans[i : i + n]]):
                start, end = spans[i][0], spans[i + n - 1][1]
                out.append(text[at:start] + HIDDEN)
                at, i = end, i + n
                break
        else:
            i += 1
    out.append(text[at:])
    return "".join(out)
