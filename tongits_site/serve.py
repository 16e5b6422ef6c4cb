"""A production worker: Daphne on uvloop's event loop.

    python -m tongits_site.serve -b 127.0.0.1 -p 8001 tongits_site.asgi:application

takes exactly Daphne's arguments. The only difference from ``daphne`` is the event loop:
Daphne makes its loop when its server module is imported, so uvloop's policy has to be in
place before that, which no setting or ASGI application can do. uvloop runs asyncio's loop
and its sockets in C; under a crowd at the table a worker spends about a tenth less CPU a
move (`python -m bench.live`, README). Without uvloop installed it is plain Daphne.
"""

from __future__ import annotations

import asyncio
import sys


def use_uvloop() -> bool:
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def main(argv: list[str] | None = None) -> None:
    if "daphne.server" in sys.modules:
        raise RuntimeError("tongits_site.serve must choose the event loop before Daphne loads")
    use_uvloop()
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()
