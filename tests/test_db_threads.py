"""The sockets' database threads (games/play/live/db.py): each keeps its connection from one
call to the next, and lets go of one that failed or was left in a transaction."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from games.play.live.db import in_db_thread, thread_pool

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def _connection_id() -> int:
    connection.ensure_connection()
    return id(connection.connection)


def _fail() -> None:
    connection.ensure_connection()
    connection.errors_occurred = True  # as after a query that raised a DatabaseError


def _leave_a_transaction_open() -> None:
    transaction.set_autocommit(False)


def _has_connection() -> bool:
    return connection.connection is not None


async def test_a_database_thread_keeps_its_connection_between_calls():
    one = thread_pool("test-db-one", 1)
    first = await in_db_thread(_connection_id, executor=one)()
    assert await in_db_thread(_connection_id, executor=one)() == first


@pytest.mark.skipif(
    connection.vendor == "sqlite", reason="Django never closes the tests' in-memory SQLite"
)
async def test_a_database_thread_lets_go_of_a_connection_that_failed_or_was_left_in_a_transaction():
    one = thread_pool("test-db-one", 1)
    await in_db_thread(_fail, executor=one)()
    assert not await in_db_thread(_has_connection, executor=one)()

    await in_db_thread(_leave_a_transaction_open, executor=one)()
    assert not await in_db_thread(_has_connection, executor=one)()
