"""What the chat's word filter costs a message: ``python -m bench.chat [--repeat N]``.

Times better-profanity's own ``censor`` and ours (``games.social.chat.wordfilter``, the
same English list and look-alikes, plus our Filipino list, read through NFKC, look-alikes
of other scripts, spaced, repeated and joined letters) on a short message, a long clean
one, a long rude one and a long one spelt to slip past, and prints the median
milliseconds a message for each: ours with its words met before (a table's talk repeats
them; the filter keeps its last 8,192 words' answers) and cold, every cache emptied
before each message, the target being under 1 ms either way. The last line is one JSON
object for scripts. The filter is called directly: a socket's frame costs more around it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from better_profanity import Profanity

from games.social.chat import wordfilter

MESSAGES = {
    "short": "Nice hand, kain tayo mamaya after this game",
    "long, clean": ("Salamat sa laro, that was a close one and I almost had it " * 4)[:200],
    "long, rude": ("gago ka talaga, you sh*t player, putang ina mo naman " * 4)[:200],
    "long, evasive": (
        "g\u0430go ka, f u c k, shiiiit player, putanginamo, \uff46\uff55\uff43\uff4b, "
        "b0b0 ka talaga, tang1na, f-u-c-k you, gagoka, youfuckingbitch, \u0440uta, ulooool "
        "ang t a n g a mo, \u0455h\u0456t, fuckoff, a$$hole, bobokayo, p u t a, g.a.g.o"
    )[:200],
}


def cold(text: str) -> None:
    """The filter on words it has never met: its caches emptied first."""
    wordfilter.forget()
    wordfilter.clean(text)


def median_ms(fn, text: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn(text)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    library = Profanity()
    library.load_censor_words()
    library.add_censor_words(wordfilter.filipino_words())
    wordfilter.clean("warm up")
    results = {}
    for name, text in MESSAGES.items():
        theirs = median_ms(library.censor, text, args.repeat)
        ours = median_ms(wordfilter.clean, text, args.repeat * 10)
        first = median_ms(cold, text, args.repeat * 10)
        results[name] = {
            "chars": len(text), "library_ms": theirs, "ours_ms": ours, "ours_cold_ms": first
        }  # fmt: skip
        print(
            f"{name:13} {len(text):3} chars: better-profanity {theirs:8.2f} ms, "
            f"ours {ours:6.3f} ms, cold {first:6.3f} ms ({theirs / first:,.0f} times faster)"
        )
    print(json.dumps(results))


if __name__ == "__main__":
    main()
