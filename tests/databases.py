"""A database of a test's own for a server it starts in another process."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


@contextmanager
def own_database(prefix: str, folder: Path, template: str | None = None) -> Iterator[str]:
    """A fresh PostgreSQL database (created here, dropped after) when DATABASE_URL is
    PostgreSQL, else a SQLite file in ``folder``: its URL. ``template``: the URL of a
    PostgreSQL database to copy (nobody may be connected to it meanwhile)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        yield f"sqlite:///{folder / 'db.sqlite3'}"
        return
    import psycopg

    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        copy = f' TEMPLATE "{urlsplit(template).path.lstrip("/")}"' if template else ""
        conn.execute(f'CREATE DATABASE "{name}"{copy}')
    try:
        yield urlunsplit(parts._replace(path=f"/{name}"))
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
