"""The one place that changes friendships, blocks and challenges.

Each change runs in a transaction and tells the people it concerns after the commit, on
their own groups: their lobby sockets (``person_group``) re-render what changed, and every
page's news (games/social/news.py) comes again over those and their table sockets. A friend
request and a challenge are also told on the person's phone or by email
(``games.notifications``, after the commit, by the background worker). A blocked
person is never told anything about the block: their request or challenge to the person
who blocked them is kept and looks sent to them, but never reaches that person.

Size: ~510 lines, kept whole: every write of friendships, blocks and challenges and the
order of their locks, which a split would scatter over modules that must agree on it.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.dispatch import Signal
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.models import display_name_for
from games import bots
from games.models import CORRESPONDENCE_SECONDS, CORRESPONDENCE_TURNS, Game, is_correspondence
from games.notifications import notices
from games.notifications.models import Kind
from games.play import tables, telling
from games.play.errors import NotAllowed, ServiceError
from games.play.telling import person_tables_group
from games.series import services as series_services
from games.series.models import Series
from games.social.models import Block, Challenge, Friendship, RequestSent
from games.words.text import lazy_message

# Sent after the commit of a new friendship, with both people's ``user_ids``.
friends_made = Signal()
# A challenge nobody answered is dropped after this long (a live table's: one to a
# correspondence table waits ``TONGITS_CORRESPONDENCE_ANSWER_DAYS``, ``challenge_ttl``).
CHALLENGE_TTL = timedelta(minutes=10)
MAX_FRIENDS = 200


def person_group(user_id: int) -> str:
    """The channel group of one person's lobby sockets (on any page that has one)."""
    return f"person-{user_id}"


def _tell(user_id: int, *, news: bool = True, **event) -> None:
    """Tell the person's lobby sockets (and their news-only kind) that something of
    theirs changed, and their table sockets too when it may be their ``news`` (what waits
    for their answer): a table's socket has nothing else of it to show."""
    event = {"type": "social.changed", **event}
    telling.notify_group(person_group(user_id), event)
    if news:
        telling.notify_group(person_tables_group(user_id), event)


def _asks(from_id: int, to_id: int) -> bool:
    """Whether a request or a challenge of ``from_id``'s waits for ``to_id``'s answer."""
    asked = Friendship.objects.filter(from_user_id=from_id, to_user_id=to_id, accepted_at=None)
    waiting = Challenge.objects.filter(
        from_user_id=from_id, to_user_id=to_id, status=Challenge.Status.PENDING
    )
    return asked.exists() or waiting.exists()


# --- Reading ------------------------------------------------------------------------------


def _pair(a: int, b: int) -> Q:
    return Q(from_user_id=a, to_user_id=b) | Q(from_user_id=b, to_user_id=a)


def blocked_ids(user_id: int) -> set[int]:
    """Whom ``user_id`` blocked."""
    return set(Block.objects.filter(blocker_id=user_id).values_list("blocked_id", flat=True))


def blocks(blocker_id: int, other_id: int) -> bool:
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=other_id).exists()


def friend_ids(user_id: int) -> list[int]:
    rows = Friendship.objects.filter(
        Q(from_user_id=user_id) | Q(to_user_id=user_id), accepted_at__isnull=False
    ).values_list("from_user_id", "to_user_id")
    return [b if a == user_id else a for a, b in rows]


def has_friends(user_id: int) -> bool:
    return Friendship.objects.filter(
        Q(from_user_id=user_id) | Q(to_user_id=user_id), accepted_at__isnull=False
    ).exists()


def are_friends(a: int, b: int) -> bool:
    return Friendship.objects.filter(_pair(a, b), accepted_at__isnull=False).exists()


def relation(viewer_id: int, other_id: int) -> str:
    """How ``viewer_id`` stands with ``other_id``: "self", "blocked" (by the viewer),
    "friends", "asked" (the viewer asked), "asks_you", or "none". Being blocked by the
    other is never told: it reads as the request it would otherwise be."""
    if viewer_id == other_id:
        return "self"
    if blocks(viewer_id, other_id):
        return "blocked"
    row = Friendship.objects.filter(_pair(viewer_id, other_id)).first()
    if row is None:
        return "none"
    if row.accepted_at is not None:
        return "friends"
    return "asked" if row.from_user_id == viewer_id else "asks_you"


def requests_for(user_id: int) -> QuerySet[Friendship]:
    """Friend requests waiting for ``user_id``'s answer, less those of people blocked."""
    return (
        Friendship.objects.filter(to_user_id=user_id, accepted_at__isnull=True)
        .exclude(from_user_id__in=Block.objects.filter(blocker_id=user_id).values("blocked_id"))
        .select_related("from_user__profile")
        .order_by("-created_at")
    )


def requests_sent(user_id: int) -> QuerySet[Friendship]:
    return (
        Friendship.objects.filter(from_user_id=user_id, accepted_at__isnull=True)
        .select_related("to_user__profile")
        .order_by("-created_at")
    )


def challenge_ttl(turn_seconds: int) -> timedelta:
    """How long a challenge waits for its answer: ten minutes for a live table; days for
    a correspondence one, whose friend may be asleep in another time zone."""
    if is_correspondence(turn_seconds):
        return timedelta(days=settings.TONGITS_CORRESPONDENCE_ANSWER_DAYS)
    return CHALLENGE_TTL


def expires_at(found: Challenge) -> datetime:
    """When ``found`` stops waiting for its answer (both people are shown it)."""
    return found.created_at + challenge_ttl(found.turn_seconds)


def with_expiry(found: Iterable[Challenge]) -> list[Challenge]:
    """These challenges, each with its ``expires_at``, for the pages that show it."""
    made = list(found)
    for challenge in made:
        challenge.expires_at = expires_at(challenge)
    return made


def _fresh() -> Q:
    # Still waiting: a live challenge's ten minutes, a correspondence challenge's days.
    now, slow = timezone.now(), Q(turn_seconds__gte=CORRESPONDENCE_SECONDS)
    days = timedelta(days=settings.TONGITS_CORRESPONDENCE_ANSWER_DAYS)
    return (~slow & Q(created_at__gte=now - CHALLENGE_TTL)) | (slow & Q(created_at__gte=now - days))


def challenges_for(user_id: int) -> QuerySet[Challenge]:
    """Challenges waiting for ``user_id``'s answer: fresh, and from nobody they blocked."""
    return (
        Challenge.objects.filter(_fresh(), to_user_id=user_id, status=Challenge.Status.PENDING)
        .exclude(from_user_id__in=Block.objects.filter(blocker_id=user_id).values("blocked_id"))
        .select_related("from_user__profile")
        .order_by("-created_at")
    )


def any_challenge_pending(user_id: int) -> bool:
    """Whether any challenge to ``user_id`` still waits for an answer, fresh or not, from
    anyone: one written-out statement, asked of every seat at every game's end (a crowd's
    round of ends built a thousand ORM queries in seconds), where almost none has one;
    ``challenges_for`` says which count."""
    table, to, status = (
        connection.ops.quote_name(name)
        for name in (Challenge._meta.db_table, "to_user_id", "status")
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT 1 FROM {table} WHERE {to} = %s AND {status} = %s LIMIT 1",
            [user_id, Challenge.Status.PENDING.value],
        )
        return cursor.fetchone() is not None


def challenges_sent(user_id: int) -> QuerySet[Challenge]:
    return (
        Challenge.objects.filter(_fresh(), from_user_id=user_id, status=Challenge.Status.PENDING)
        .select_related("to_user__profile")
        .order_by("-created_at")
    )


# --- Friends ------------------------------------------------------------------------------


def _other(other_id: int | str) -> AbstractBaseUser:
    try:
        return get_user_model().objects.get(pk=int(other_id), is_active=True)
    except (ValueError, TypeError, get_user_model().DoesNotExist):
        raise ServiceError(_("There is no such player.")) from None


def find_person(username: str) -> AbstractBaseUser:
    people = get_user_model().objects.filter(is_active=True)
    person = people.filter(username__iexact=(username or "").strip()[:150]).first()
    if person is None:
        raise ServiceError(_("There is no player by that name."))
    return person


def _lock_pair(a: int, b: int) -> None:
    # Both people's rows, in id order: two people asking each other at once make one row.
    ids = sorted((a, b))
    list(get_user_model().objects.select_for_update().filter(pk__in=ids).order_by("pk"))


@dataclass(frozen=True)
class Done:
    """What a change did, for the message its person is shown."""

    message: str


def request_friend(user: AbstractBaseUser, other_id: int | str) -> Done:
    """Ask ``other_id`` to be friends; if they had asked ``user`` already, they are."""
    other = _other(other_id)
    if other.pk == user.pk:
        raise ServiceError(_("You cannot be your own friend."))
    with transaction.atomic():
        _lock_pair(user.pk, other.pk)
        if blocks(user.pk, other.pk):
            raise ServiceError(_("You blocked this player: unblock them first."))
        row = Friendship.objects.filter(_pair(user.pk, other.pk)).first()
        if row is not None and row.accepted_at is not None:
            return Done(_("You are friends already."))
        if row is not None and row.from_user_id == user.pk:
            return Done(_("Friend request sent."))
        if row is not None:  # they asked first: this is a yes
            return _accept(row, user)
        if len(friend_ids(user.pk)) >= MAX_FRIENDS:
            raise ServiceError(_("You have as many friends as a list may hold (200)."))
        # One person asking everyone on the leaderboard, or a script, is held to a few an
        # hour: every request asked counts, taken back, declined or not (the asker's row
        # is locked with the pair's, so requests to several people are counted in turn).
        asked = RequestSent.objects.filter(user=user)
        asked.filter(at__lt=timezone.now() - timedelta(hours=1)).delete()
        if asked.count() >= settings.TONGITS_FRIEND_REQUESTS_PER_HOUR:
            raise ServiceError(
                _("You have asked many people to be friends in the last hour: try again later.")
            )
        RequestSent.objects.create(user=user)
        row = Friendship.objects.create(from_user=user, to_user=other)
        if not blocks(other.pk, user.pk):
            _tell(other.pk)
            name = display_name_for(user)
            notices.tell(other, Kind.FRIEND_REQUEST, f"friend:{row.pk}", name=name, by=user.pk)
    return Done(_("Friend request sent."))


def _accept(row: Friendship, user: AbstractBaseUser) -> Done:
    # The cap holds for both: a request made while either had room may be answered later.
    if len(friend_ids(user.pk)) >= MAX_FRIENDS:
        raise ServiceError(_("You have as many friends as a list may hold (200)."))
    if len(friend_ids(row.from_user_id)) >= MAX_FRIENDS:
        raise ServiceError(_("They have as many friends as a list may hold (200)."))
    row.accepted_at = timezone.now()
    row.save(update_fields=["accepted_at"])
    _tell(row.from_user_id, news=False)
    _tell(user.pk)
    # Presence is not kept for a person with no friend: both are looked at again.
    made = functools.partial(friends_made.send, Friendship, user_ids=(row.from_user_id, user.pk))
    transaction.on_commit(made, robust=True)
    return Done(_("You are friends now."))


def accept_friend(user: AbstractBaseUser, other_id: int | str) -> Done:
    other = _other(other_id)
    with transaction.atomic():
        _lock_pair(user.pk, other.pk)
        row = Friendship.objects.filter(
            from_user=other, to_user=user, accepted_at__isnull=True
        ).first()
        if row is None or blocks(user.pk, other.pk):
            raise ServiceError(_("That friend request is no longer there."))
        return _accept(row, user)


def decline_friend(user: AbstractBaseUser, other_id: int | str) -> Done:
    """Say no to a request (the asker sees it still waiting, as after any no)."""
    other = _other(other_id)
    with transaction.atomic():
        gone, _n = Friendship.objects.filter(
            from_user=other, to_user=user, accepted_at__isnull=True
        ).delete()
    if not gone:
        raise ServiceError(_("That friend request is no longer there."))
    _tell(user.pk)
    return Done(_("Request declined."))


def remove_friend(user: AbstractBaseUser, other_id: int | str) -> Done:
    """End a friendship, or take back a request ``user`` sent."""
    other = _other(other_id)
    with transaction.atomic():
        _lock_pair(user.pk, other.pk)
        gone, _n = Friendship.objects.filter(_pair(user.pk, other.pk)).delete()
        if not gone:
            raise ServiceError(_("You are not friends with this player."))
        _cancel_challenges(user.pk, other.pk)
        _tell(user.pk)
        _tell(other.pk)
    return Done(_("Removed from your friends."))


def block(user: AbstractBaseUser, other_id: int | str) -> Done:
    """``other_id`` disappears from ``user``'s lists; their requests and challenges stop
    reaching ``user``. They are not told: to them nothing changes but the friendship."""
    other = _other(other_id)
    if other.pk == user.pk:
        raise ServiceError(_("You cannot block yourself."))
    with transaction.atomic():
        _lock_pair(user.pk, other.pk)
        theirs, mine = _asks(other.pk, user.pk), _asks(user.pk, other.pk)
        Block.objects.get_or_create(blocker=user, blocked=other)
        # Only the friendship and what user asked go; a request of theirs stays, unseen.
        Friendship.objects.filter(_pair(user.pk, other.pk), accepted_at__isnull=False).delete()
        Friendship.objects.filter(from_user=user, to_user=other).delete()
        # Both ways: a challenge of theirs, kept unseen, came back with an unblock and
        # seated two people who were no longer friends.
        _cancel_challenges(user.pk, other.pk)
        _tell(user.pk, news=theirs)  # theirs no longer reach them
        _tell(other.pk, news=mine)  # what they asked of the other is gone
        # At once at the tables ``user`` has open: the other's talk stops there too.
        event = {"type": "chat.blocked", "blocked": other.pk}
        telling.notify_group(person_tables_group(user.pk), event)
    return Done(_("Blocked. They are not told."))


def unblock(user: AbstractBaseUser, other_id: int | str) -> Done:
    other = _other(other_id)
    with transaction.atomic():
        Block.objects.filter(blocker=user, blocked=other).delete()
        _tell(user.pk, news=_asks(other.pk, user.pk))  # their request shows again
        # At the tables ``user`` has open, the other's talk comes through again.
        event = {"type": "chat.unblocked", "unblocked": other.pk}
        telling.notify_group(person_tables_group(user.pk), event)
    return Done(_("Unblocked."))


# --- Challenges ---------------------------------------------------------------------------


def _cancel_challenges(a: int, b: int) -> None:
    Challenge.objects.filter(_pair(a, b), status=Challenge.Status.PENDING).update(
        status=Challenge.Status.CANCELLED, answered_at=timezone.now()
    )


def challenge(
    user: AbstractBaseUser,
    friend_id: int | str,
    *,
    ante: int | None,
    bot_kind: str,
    turn_seconds: int = 0,
) -> Challenge:
    """Ask a friend to play: one hand (``ante`` None) or a series with ``ante``, a bot of
    ``bot_kind`` in the third seat. Live on the friend's sockets, unless they blocked
    ``user`` (then it never reaches them, and ``user`` is not told). The same challenge
    again while it waits is that challenge; at most ``TONGITS_CHALLENGES_PER_HOUR`` are
    made an hour. ``turn_seconds``: 0 for a live table, else a correspondence table's
    turn (``games.models.CORRESPONDENCE_TURNS``)."""
    friend = _other(friend_id)
    if turn_seconds and turn_seconds not in CORRESPONDENCE_TURNS:
        raise ServiceError(_("Choose a turn of 1 hour, 12 hours, 1 day or 3 days."))
    if ante is not None and ante not in Series.ANTES:
        raise ServiceError(_("Choose an ante of 1, 2 or 5 chips."))
    if bot_kind not in bots.LEVELS:
        raise ServiceError(_("There is no such bot level: choose Easy, Normal or Hard."))
    with transaction.atomic():
        _lock_pair(user.pk, friend.pk)
        if not are_friends(user.pk, friend.pk):
            raise NotAllowed(_("You can challenge only your friends."))
        waiting = _waiting_challenge(user.pk, friend.pk)
        if waiting is not None and (waiting.ante, waiting.bot_kind, waiting.turn_seconds) == (
            ante,
            bot_kind,
            turn_seconds,
        ):
            return waiting  # sent again (a double click, another tab): nothing new to tell
        _check_challenges_left(user.pk)
        # One challenge a way: a new one replaces the last.
        Challenge.objects.filter(
            from_user=user, to_user=friend, status=Challenge.Status.PENDING
        ).update(status=Challenge.Status.CANCELLED, answered_at=timezone.now())
        made = Challenge.objects.create(
            from_user=user, to_user=friend, ante=ante, bot_kind=bot_kind,
            turn_seconds=turn_seconds,
        )  # fmt: skip
        if not blocks(friend.pk, user.pk):
            _tell(friend.pk, challenge=made.pk)
            _notify_challenge(made, user)
        _tell(user.pk, news=False)
    return made


def _notify_challenge(made: Challenge, user: AbstractBaseUser) -> None:
    # On the friend's phone too; past its time it is not sent (quiet hours included).
    notices.tell(
        made.to_user_id, Kind.CHALLENGE, f"challenge:{made.pk}",
        expires=expires_at(made), name=display_name_for(user), by=user.pk,
        ante=made.ante, correspondence=is_correspondence(made.turn_seconds),
    )  # fmt: skip


def _waiting_challenge(from_id: int, to_id: int) -> Challenge | None:
    found = (
        Challenge.objects.filter(
            from_user_id=from_id, to_user_id=to_id, status=Challenge.Status.PENDING
        )
        .order_by("-created_at")
        .first()
    )
    return found if found is not None and _waiting(found) else None


def _check_challenges_left(user_id: int) -> None:
    # Each challenge is a notice on a friend's lobby: a script sent sixty in two seconds.
    # Every one made counts, answered, taken back or replaced; the caller holds the
    # challenger's row lock, so a burst from many tabs or workers is counted in turn.
    since = timezone.now() - timedelta(hours=1)
    made = Challenge.objects.filter(from_user_id=user_id, created_at__gte=since).count()
    if made >= settings.TONGITS_CHALLENGES_PER_HOUR:
        raise ServiceError(
            _("You have challenged your friends many times in the last hour: try again later.")
        )


def _locked_challenge(challenge_id: int | str) -> Challenge:
    try:
        return Challenge.objects.select_for_update().get(pk=int(challenge_id))
    except (ValueError, TypeError, Challenge.DoesNotExist):
        raise ServiceError(_("That challenge is no longer there.")) from None


def _waiting(found: Challenge) -> bool:
    fresh = timezone.now() <= expires_at(found)
    return found.status == Challenge.Status.PENDING and fresh


def accept_challenge(user: AbstractBaseUser, challenge_id: int | str) -> Game:
    """Seat the challenger and ``user`` at a new private table with the bot, dealt at once
    (the first hand of a series, with an ante). The challenger's sockets are sent there."""
    with transaction.atomic():
        found = _locked_challenge(challenge_id)
        mine = (
            found.to_user_id == user.pk
            and not blocks(user.pk, found.from_user_id)
            and are_friends(user.pk, found.from_user_id)  # challenges are between friends
        )
        if not mine or not _waiting(found):
            raise ServiceError(_("That challenge is no longer there."))
        challenger = found.from_user
        others = ("open", found.bot_kind)
        turn = found.turn_seconds or None  # a correspondence table's, or live
        try:  # the table is the challenger's: their limits on tables apply
            if found.ante is not None:
                made = series_services.create_series(
                    challenger, ante=found.ante, others=others, public=False,
                    bot_kind=found.bot_kind, turn_seconds=turn,
                )  # fmt: skip
                game = made.hands.get(number=1).game
            else:
                game = tables.create_table(
                    challenger, public=False, others=others, turn_seconds=turn
                )
        except ServiceError:  # worded for them ("You already sit at ..."), not for user
            name = display_name_for(challenger)
            raise ServiceError(
                lazy_message(
                    lambda: (
                        gettext(
                            "%(name)s cannot open another table just now: the challenge "
                            "stays, so accept it again in a little while."
                        )
                        % {"name": name}
                    )
                )
            ) from None
        game = tables.join_table(game.pk, user, invite_token=game.invite_token)
        found.status = Challenge.Status.ACCEPTED
        found.answered_at = timezone.now()
        found.game = game
        found.save(update_fields=["status", "answered_at", "game"])
        _tell(challenger.pk, go=game.pk)
        _tell(user.pk)
    return game


def decline_challenge(user: AbstractBaseUser, challenge_id: int | str) -> Done:
    with transaction.atomic():
        found = _locked_challenge(challenge_id)
        if found.to_user_id != user.pk or not _waiting(found):
            raise ServiceError(_("That challenge is no longer there."))
        found.status = Challenge.Status.DECLINED
        found.answered_at = timezone.now()
        found.save(update_fields=["status", "answered_at"])
        _tell(user.pk)
        _tell(found.from_user_id, news=False)
    return Done(_("Challenge declined."))


def cancel_challenge(user: AbstractBaseUser, challenge_id: int | str) -> Done:
    with transaction.atomic():
        found = _locked_challenge(challenge_id)
        if found.from_user_id != user.pk or not _waiting(found):
            raise ServiceError(_("That challenge is no longer there."))
        found.status = Challenge.Status.CANCELLED
        found.answered_at = timezone.now()
        found.save(update_fields=["status", "answered_at"])
        _tell(user.pk, news=False)
        if not blocks(found.to_user_id, user.pk):
            _tell(found.to_user_id)
    return Done(_("Challenge taken back."))
