"""The one entry point the rest of the site calls: ``tell(user, kind, event_key, **facts)``.

Call it anywhere, in a transaction or not: after the commit (``transaction.on_commit``, so a
change rolled back tells nobody) it stores the notice, unique per person and event key, and
queues its delivery for the background worker in the same transaction, so a notice is never
stored without its task nor queued twice. The caller's thread (a request, a socket's) never
sends anything and never waits for a push service or a mail server.

Facts are what the words need (``wording``): ids, names, chips, a public discard; never a
card of anyone's hand, the stock or the seed. ``expires``: a datetime past which the notice
is dropped rather than sent (a challenge after ten minutes).
"""

from __future__ import annotations

import functools
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction

from . import delivery
from .models import Kind, Notice


def tell(
    user_or_id: Any, kind: str, event_key: str, *, expires: datetime | None = None, **facts
) -> None:
    """Tell one person of one event, once (see the module's docstring)."""
    user_id = getattr(user_or_id, "pk", user_or_id)
    kind = Kind(kind).value  # an unknown kind is the caller's bug: it raises here
    if expires is not None:
        facts["expires"] = expires.isoformat()
    record = functools.partial(_record, user_id, kind, event_key, facts)
    transaction.on_commit(record, robust=True)


def _record(user_id: int, kind: str, key: str, facts: dict) -> Notice | None:
    try:
        with transaction.atomic():
            notice = Notice.objects.create(user_id=user_id, kind=kind, key=key, facts=facts)
            delivery.deliver.enqueue(notice.pk)
    except IntegrityError:
        return None  # told already: this event reached this person once
    return notice
