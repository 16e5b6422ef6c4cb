"""The settings pick PostgreSQL and Redis from the environment, as production and CI do."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "")
REPO = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(not DATABASE_URL.startswith("postgres"), reason="DATABASE_URL is not set")
@pytest.mark.django_db
def test_it_uses_postgresql_with_a_connection_pool_when_database_url_is_set():
    assert connection.vendor == "postgresql"
    assert settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"] >= 2
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def fresh_settings(expression: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Import the settings in a new process with `env` and print `expression`."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_"))}
    clean.pop("REDIS_URL", None)
    return subprocess.run(
        [sys.executable, "-c", f"from tongits_site.settings import *; print(repr(({expression})))"],
        cwd=REPO,
        env={**clean, **env},
        capture_output=True,
        text=True,
    )


@pytest.mark.skipif(bool(DATABASE_URL), reason="DATABASE_URL is set")
def test_it_uses_sqlite_while_testing_without_database_url():
    assert connection.vendor == "sqlite"


def test_it_defaults_to_sqlite_in_the_repository_and_the_in_memory_layer():
    result = fresh_settings("DATABASES['default']['NAME'], CHANNEL_LAYERS['default']['BACKEND']")

    assert result.stdout.strip() == repr(
        (str(REPO / "db.sqlite3"), "channels.layers.InMemoryChannelLayer")
    )


def test_it_reads_the_database_and_redis_from_the_environment():
    result = fresh_settings(
        "DATABASES['default']['ENGINE'], DATABASES['default']['OPTIONS'],"
        " DATABASES['default']['CONN_MAX_AGE'], CHANNEL_LAYERS['default']['CONFIG']['hosts']",
        DATABASE_URL="postgres://someone@db.example:5432/tongits",
        REDIS_URL="redis://cache.example:6379/1",
    )

    assert result.stdout.strip() == repr(
        (
            "django.db.backends.postgresql",
            # A connection for each of the moves' 8 and the arrivals' 2 database threads,
            # the clock's, the thread after a move's, and the 4 pages let in at once.
            {"pool": {"min_size": 2, "max_size": 16, "timeout": 20}},
            0,
            [{"address": "redis://cache.example:6379/1", "socket_timeout": None}],
        )
    )


def test_it_refuses_the_development_secret_key_when_debug_is_off():
    result = fresh_settings("SECRET_KEY", DJANGO_DEBUG="0")

    assert result.returncode != 0
    assert "Set DJANGO_SECRET_KEY" in result.stderr


def test_it_reads_debug_and_allowed_hosts_from_the_environment():
    result = fresh_settings(
        "DEBUG, ALLOWED_HOSTS",
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="not-the-dev-one",
        DJANGO_ALLOWED_HOSTS="tongits.example, www.tongits.example",
    )

    assert result.stdout.strip() == repr((False, ["tongits.example", "www.tongits.example"]))


@pytest.mark.skipif(not REDIS_URL, reason="REDIS_URL is not set")
def test_it_uses_the_redis_channel_layer_when_redis_url_is_set():
    layer = get_channel_layer()

    # Redis pub/sub: one message per worker per event, pushed to it (but not to the
    # worker that made the move: it tells its own sockets).
    from channels_redis.pubsub import RedisPubSubChannelLayer

    from games.play.live.layer import EchoFreeLayer

    assert type(layer) is EchoFreeLayer and isinstance(layer, RedisPubSubChannelLayer)


@pytest.mark.skipif(bool(REDIS_URL), reason="REDIS_URL is set")
def test_it_uses_the_in_memory_channel_layer_by_default():
    assert type(get_channel_layer()).__name__ == "InMemoryChannelLayer"


async def test_it_round_trips_a_group_message_through_the_channel_layer():
    layer = get_channel_layer()
    # A fresh group name, since other test runs may share this Redis.
    group = f"test-{uuid.uuid4().hex}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    try:
        await layer.group_send(group, {"type": "game.changed", "game": 7, "version": 3})
        message = await asyncio.wait_for(layer.receive(channel), timeout=5)
    finally:
        await layer.group_discard(group, channel)
        if hasattr(layer, "close_pools"):
            await layer.close_pools()

    assert message == {"type": "game.changed", "game": 7, "version": 3}
