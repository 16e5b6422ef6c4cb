from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser

# On PostgreSQL each process draws its connections from a psycopg pool sized for a worker
# (settings.py: the sockets' database threads, which keep theirs, and a few more). The test
# process is more than a worker: its sockets' threads keep their connections from test to
# test while a race test opens several threads of its own. Its pool is made larger, so a
# race waits for rows, never for a connection ("couldn't get a connection after 20 s").
TEST_POOL_MAX = 40


def pytest_configure(config) -> None:
    from django.conf import settings

    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if isinstance(pool, dict):
        pool["max_size"] = max(pool.get("max_size", 0), TEST_POOL_MAX)
    # A test run shares the Redis server with whatever else runs here (a live site, another
    # run): its channel layer's names are its own, fresh each run, so it hears no one else.
    layer = settings.CHANNEL_LAYERS["default"].get("CONFIG", {})
    if "prefix" in layer:
        import uuid

        layer["prefix"] = f"{layer['prefix']}test-{uuid.uuid4().hex[:8]}-"


PASSWORDS = {
    "alice": "pw-alice-123!",
    "bob": "pw-bob-123!",
    "carol": "pw-carol-123!",
}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings) -> None:
    # The real hasher is slow on purpose; tests hash dozens of passwords.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def users(db) -> dict[str, AbstractUser]:
    """The three players every scenario starts from."""
    User = get_user_model()
    return {
        name: User.objects.create_user(name, f"{name}@example.com", password)
        for name, password in PASSWORDS.items()
    }


@pytest.fixture
def alice(users: dict[str, AbstractUser]) -> AbstractUser:
    return users["alice"]


@pytest.fixture
def bob(users: dict[str, AbstractUser]) -> AbstractUser:
    return users["bob"]


@pytest.fixture
def carol(users: dict[str, AbstractUser]) -> AbstractUser:
    return users["carol"]


@pytest.fixture(autouse=True)
def server_clock_off(settings) -> None:
    # Tests drive the clock themselves (games.play.server_moves.play_due), so no worker task races
    # them; bots move without their human-like pause.
    settings.TONGITS_CLOCK_IN_WORKERS = False
    settings.TONGITS_BOT_PAUSE = (0.0, 0.0)
    # A tournament's page shows each change at once (no batching of its standings).
    settings.TONGITS_STANDINGS_SECONDS = 0.0
    # Turn clocks run from the deal: the tests of the wait for a first board set it.
    settings.TONGITS_FIRST_BOARD_GRACE = 0


@pytest.fixture(autouse=True)
def socket_presence_on_postgresql_only(settings) -> None:
    # Sockets count their person as here (games/social/presence.py), writing from the
    # socket's thread while a test writes from its own. SQLite's in-memory test database
    # refuses a second writer at once ("table is locked") where PostgreSQL waits, so on
    # SQLite the sockets leave presence alone; the presence tests run on PostgreSQL.
    from django.db import connection

    settings.TONGITS_SOCKET_PRESENCE = connection.vendor == "postgresql"


@pytest.fixture(autouse=True)
def english_after_each_test():
    # A request in Filipino leaves its language active in the test's thread (the
    # middleware activates; nothing deactivates after the response): a later test calling
    # a service directly would get its messages in Filipino.
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def fresh_caches() -> None:
    # A rolled-back game's id can come back for another game (SQLite): no process cache
    # may carry a snapshot, a position or a board from one test into the next.
    from games.play.live import snapshots
    from games.ratings import pages as rating_pages
    from games.table import rendering
    from games.tournaments import pages as tournament_pages

    rating_pages._lines.clear()
    snapshots.forget()
    rendering.forget_boards()
    tournament_pages.forget()


@pytest.fixture
def make_game():
    """Seat people and bots and deal from a fixed seed: ``make_game([alice, "greedy",
    bob], seed=7)``. Returns the started Game (the dealer comes from the seed)."""
    from games.models import Game, Seat
    from games.play import dealing

    def make(occupants: list, seed: int = 7, public: bool = True, **fields) -> Game:
        people = [o for o in occupants if not isinstance(o, str)]
        game = Game.objects.create(
            created_by=people[0] if people else None, public=public, **fields
        )
        for index, who in enumerate(occupants):
            if isinstance(who, str):
                Seat.objects.create(game=game, index=index, bot_kind=who)
            else:
                Seat.objects.create(game=game, index=index, user=who)
        dealing.start_game(game, seed=seed)
        game.refresh_from_db()
        return game

    return make
