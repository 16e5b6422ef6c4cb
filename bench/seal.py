"""What the channel layer's seal costs a worker per message: ``python -m bench.seal``.

Times, on a move's event as a worker publishes it (``games.play.live.layer``): checking
its seal (what every worker does once per message it receives), and for scale packing the
same message with msgpack (what channels_redis does to every message anyway). Prints the
median microseconds of each over ``--repeat`` rounds of ``--number`` calls; the last line
is one JSON object for scripts. Pure CPU: no Redis, no database.
"""

from __future__ import annotations

import argparse
import json
import statistics
import timeit

import msgpack

from games.play.live.layer import EchoFreeLayer

EVENT = {
    "type": "game.update", "game": 123456, "rev": 88, "from": "0" * 24,
    "news": {
        "deal": "0123456789abcdef", "seq": 40,
        "move": [1, {"type": "discard", "seat": 1, "card": "KH"}],
        "status": "playing", "seed": "", "due_at": "2026-12-06T05:00:00+00:00",
        "seats": [[i, 1000 + i, "", False, f"player {i}"] for i in range(3)],
    },
}  # fmt: skip


def median_us(fn, number: int, repeat: int) -> float:
    return statistics.median(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--number", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    layer = EchoFreeLayer(hosts=["redis://127.0.0.1:6379/0"], prefix="bench-", secret_key="k" * 50)
    data = layer.serialize(EVENT)
    seal = median_us(lambda: layer.sealed_here(data), args.number, args.repeat)
    pack = median_us(lambda: msgpack.packb(EVENT), args.number, args.repeat)
    print(f"a move's event: {len(data)} bytes sealed")
    print(f"checking its seal: {seal:.2f} µs; packing it with msgpack: {pack:.2f} µs")
    print(json.dumps({"bytes": len(data), "seal_us": round(seal, 2), "pack_us": round(pack, 2)}))


if __name__ == "__main__":
    main()
