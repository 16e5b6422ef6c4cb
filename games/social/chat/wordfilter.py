"""The word filter of free text: better-profanity's English word list and our Filipino one
(``filipino_words.txt``), each word hidden as **** however it is spelt to slip past.

Only free text is filtered (a preset is ours). ``spelling`` reads the message first (NFKC,
no marks, other scripts' look-alikes as Latin letters, spaced and tied letters as one
word); each word is then put in one canonical spelling with the digits and signs
better-profanity knows (g4g0, sh*t, $hit) and looked up in a set: microseconds, where the
library's own ``censor`` compares each word with every listed one, 3 to 5 ms a word
(``python -m bench.chat`` prints both). A word is looked up again with each letter
written three times or more read once and twice ("fuuuck", "asssshole"), and, when a
strong word is inside it, taken apart: it is hidden when it is made only of strong words
(``STRONG_ENGLISH``, every Filipino entry), the little words an insult is joined with
(``GLUE``) and English endings ("gagoka", "fuckyou", "youfuckingbitch"), so "Scunthorpe",
"therapist" and "gagawin" stay. Runs of up to four words are looked up for the entries
of several words ("putang ina"). ``allowed_words.txt`` takes a few ordinary words of a
card table off the English list ("pot", "puto", "paki").
"""

from __future__ import annotations

import itertools
import re
from functools import cache, lru_cache
from pathlib import Path

from better_profanity import Profanity
from better_profanity.utils import get_complete_path_of_file, read_wordlist

from games.social.chat import spelling
from games.social.chat.spelling import Word

HERE = Path(__file__).parent
FILIPINO = HERE / "filipino_words.txt"
ALLOWED = HERE / "allowed_words.txt"
HIDDEN = "****"
MOST_WORDS = 4  # the longest entry of either list, in words
VARIANTS = 64  # spellings tried for one word with wildcards, at most
REPEATS = 4  # runs of a letter repeated tried once and twice in a word, at most
LONGEST = 40  # letters: a longer word is looked up whole, never taken apart
WILD_JOINED = 4  # of a word with wildcards, the spellings taken apart or repeats read
# Words hidden inside a word, too ("fuckyou", "putanginamo"): strong ones, which no
# ordinary English or Filipino word is made of with the glue below. Every Filipino entry is
# one; the English list holds everyday words (kill, strip, screw) that are not.
STRONG_ENGLISH = (
    "fuck fuk phuck phuk shit cunt twat slut whore bitch pussy asshole bastard motherfucker "
    "nigger nigga faggot wanker douche dumbass jackass"
).split()
# What an insult is joined with: you, off, and the Filipino ka, mo, ang, talaga...
GLUE = (
    "you u ur your yourself me my off up ka mo kayo ikaw nyo niyo ninyo ang ng mga talaga naman"
).split()
# Endings an English strong word takes (fucking, bitches, fucker), only right after one
# ("titles" is no Filipino word with an ending).
ENDINGS = "s es ed er ers in ing".split()


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
    # Signs only read inside a word (spelling.WORD): sh!t, sh!+, fu|<.
    single.update({"!": "i", "|": "i", "+": "t"})
    return single, several


SINGLE, SEVERAL = _canonical_map()
CANONICAL = str.maketrans(SINGLE)
WILDCARDS = frozenset(SEVERAL)
# A letter three times or more: no word of either language has one ("maaari" reads as
# itself too), while a letter twice is often the word itself ("assess" is not "asses").
UNTIED = str.maketrans("", "", "".join(spelling.TIES))
RUN = re.compile(r"(.)\1{2,}")


@lru_cache(maxsize=8192)
def spellings(word: str) -> tuple[str, ...]:
    """``word``'s canonical spellings (several when it holds a wildcard)."""
    word = word.lower()
    if WILDCARDS.isdisjoint(word):
        return (word.translate(CANONICAL),)
    parts = [SEVERAL.get(c) or (SINGLE.get(c, c),) for c in word]
    return tuple("".join(p) for p in itertools.islice(itertools.product(*parts), VARIANTS))


def _entries(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip().lower() for line in lines if line.strip() and not line.startswith("#")]


def filipino_words() -> list[str]:
    return _entries(FILIPINO)


def _canonical(entry: str) -> str:
    # Each word whole, its ties dropped: "f-u-c-k", "p.u.s.s.y.", "sh!+" are one word each.
    return " ".join(spellings(w.translate(UNTIED))[0] for w in entry.split())


@cache
def allowed() -> frozenset[str]:
    """Entries never hidden: ordinary words (and phrases) the English list holds."""
    return frozenset(_canonical(e) for e in _entries(ALLOWED))


@cache
def listed() -> frozenset[str]:
    """Every listed entry, each of its words in canonical spelling, joined by a space;
    an entry of several words also as one word ("hayopka")."""
    english = read_wordlist(get_complete_path_of_file("profanity_wordlist.txt"))
    entries = set()
    for entry in [*english, *filipino_words()]:
        canonical = _canonical(entry)
        entries.update((canonical, canonical.replace(" ", "")))
    entries.discard("")
    return frozenset(entries - allowed())


@cache
def first_words(entries: frozenset[str] | None = None) -> frozenset[str]:
    """The first word of each entry of several words (listed, or those given): only a
    run that starts with one is looked up as a run."""
    entries = listed() if entries is None else entries
    return frozenset(entry.split(" ", 1)[0] for entry in entries if " " in entry)


@cache
def strong() -> dict[str, bool]:
    """The strong words, each with whether it takes an English ending."""
    english = {_canonical(w): True for w in STRONG_ENGLISH}
    filipino = {_canonical(e).replace(" ", ""): False for e in filipino_words()}
    return {w: ending for w, ending in {**filipino, **english}.items() if w in listed()}


@cache
def _strong_inside() -> re.Pattern[str]:
    return re.compile("|".join(sorted(map(re.escape, strong()), key=len, reverse=True)))


@cache
def _glue() -> tuple[frozenset[str], frozenset[str]]:
    return frozenset(_canonical(g) for g in GLUE), frozenset(_canonical(e) for e in ENDINGS)


def _repeats(word: str) -> list[str]:
    """``word``, then ``word`` with each of its first runs of a letter repeated (as
    written: "galil" reads "gaiii" but has none) once and twice."""
    runs = list(RUN.finditer(word))[:REPEATS]
    out = [word]
    for counts in itertools.product((1, 2), repeat=len(runs)) if runs else ():
        parts, at = [], 0
        for run, n in zip(runs, counts, strict=True):
            parts.append(word[at : run.start()] + run.group(1) * n)
            at = run.end()
        out.append("".join(parts) + word[at:])
    return out


def _made_of_strong_words(word: str) -> bool:
    """Whether ``word`` is strong words joined with glue and endings, one strong at least:
    "gagoka" (gago ka), "youfuckingbitch" (you fuck ing bitch); not "scunthorpe"."""
    glue, endings = _glue()
    pieces = strong()
    longest = max(map(len, [*pieces, *glue]))
    # Where a reading of word[:i] may end: (may an ending follow?, any strong word yet?).
    states: list[set[tuple[bool, bool]]] = [set() for _ in range(len(word) + 1)]
    states[0].add((False, False))
    for i in range(len(word)):
        for may_end, seen in states[i]:
            for j in range(i + 1, min(len(word), i + longest) + 1):
                piece = word[i:j]
                if piece in pieces:
                    states[j].add((pieces[piece], True))
                elif piece in glue or (may_end and piece in endings):
                    states[j].add((False, seen))
    return any(seen for _after, seen in states[-1])


@lru_cache(maxsize=8192)  # a table's talk says the same words again and again
def _is_listed_word(written: str) -> bool:
    """One word as read: listed in one of its spellings, with a letter repeated read
    once or twice, or made of strong words joined together."""
    entries = listed()
    spelt = spellings(written)
    if spelt[0] in allowed():
        return False
    if any(s in entries for s in spelt):
        return True
    for variant in _repeats(written):
        for s in spellings(variant)[:WILD_JOINED]:
            if s in entries:
                return True
            if len(s) <= LONGEST and _strong_inside().search(s) and _made_of_strong_words(s):
                return True
    return False


def _is_listed(options: list[tuple[str, ...]]) -> bool:
    """A run of several words (their canonical spellings): an entry of several words."""
    entries = listed()
    if all(len(o) == 1 for o in options):  # no wildcard: one spelling, one look-up
        return " ".join(o[0] for o in options) in entries
    tries = itertools.islice(itertools.product(*options), 256)
    return any(" ".join(c) in entries for c in tries)


def _is_listed_run(run: Word) -> bool:
    """Words tied or spaced out, read as one: listed, or single letters spaced out with
    a strong word among them ("g a g o x y z": nobody spaces out letters to say nothing)."""
    if _is_listed_word(run.text):
        return True
    if run.pieces != len(run.text):
        return False
    return any(
        _strong_inside().search(s) for v in _repeats(run.text) for s in spellings(v)[:WILD_JOINED]
    )


def _allowed_run(options: list[tuple[str, ...]]) -> int:
    """How many words from the first make a phrase allowed ("leche flan"), or 0."""
    for n in range(2, min(len(options), MOST_WORDS) + 1):
        if " ".join(o[0] for o in options[:n]) in allowed():
            return n
    return 0


def _hidden_words(found: list[Word]) -> list[tuple[int, int]]:
    """Where the listed words (and runs of words) are among ``found``."""
    spans = []
    options = [spellings(w.text) for w in found]
    openers, allowed_openers = first_words(), first_words(allowed())
    i = 0
    while i < len(found):
        if options[i][0] in allowed_openers and (skip := _allowed_run(options[i:])):
            i += skip
            continue
        longest = MOST_WORDS if any(o in openers for o in options[i]) else 1
        for n in range(min(longest, len(found) - i), 0, -1):
            if _is_listed(options[i : i + n]) if n > 1 else _is_listed_word(found[i].text):
                spans.append((found[i].start, found[i + n - 1].end))
                i += n
                break
        else:
            i += 1
    return spans


def clean(text: str) -> str:
    """``text`` with every listed word (or run of words) replaced by ****."""
    reading = spelling.read(text)
    found = spelling.words(reading)
    runs = [r for r in spelling.joined(reading, found) if _is_listed_run(r)]
    # A word of a run hidden whole is not looked at again.
    taken = [(r.start, r.end) for r in runs]
    rest = [w for w in found if not any(s <= w.start < e for s, e in taken)]
    spans = sorted(taken + _hidden_words(rest))
    out, at = [], 0
    for start, end in spans:
        start, end = reading.span(start, end)
        if start >= at:
            out.append(text[at:start] + HIDDEN)
            at = end
    out.append(text[at:])
    return "".join(out)


def forget() -> None:
    """Empty the caches of words met (for a benchmark of words never met)."""
    spellings.cache_clear()
    _is_listed_word.cache_clear()
    spelling.plain.cache_clear()
