"""The word filter of free text: better-profanity's English list and our Filipino one
(``filipino_words.txt``), each word and its spellings with digits hidden as ****.

Only free text is filtered (a preset is ours). It is slow for a library of its kind, about
0.2 ms a word, so the table's socket runs it on a thread of its own, never on the
database's threads that moves use.
"""

from __future__ import annotations

import threading
from pathlib import Path

from better_profanity import Profanity

FILIPINO = Path(__file__).with_name("filipino_words.txt")

_filter: Profanity | None = None
_lock = threading.Lock()


def filipino_words() -> list[str]:
    lines = FILIPINO.read_text(encoding="utf-8").splitlines()
    return [line.strip().lower() for line in lines if line.strip() and not line.startswith("#")]


def _loaded() -> Profanity:
    global _filter
    with _lock:
        if _filter is None:
            words = Profanity()
            words.load_censor_words()  # the library's English list
            words.add_censor_words(filipino_words())
            _filter = words
        return _filter


def clean(text: str) -> str:
    """``text`` with every listed word hidden."""
    return _loaded().censor(text)
