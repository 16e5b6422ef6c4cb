"""What play answers a request that changes nothing: ``ServiceError`` and its kinds.

Every writer of play (``tables``, ``moves``, ``after_game``, ``aborts``) raises these
before it writes, and pages and sockets show ``message`` to the person who asked."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.play import seating

# The words of two refusals that more than one writer gives.
NO_SUCH_GAME = _("There is no such game.")
MOVE_ID_USED = _("That move id was already used; reload the table and try again.")


class ServiceError(Exception):
    """A request that changes nothing; ``message`` is for the person who made it.

    Messages are lazy (gettext_lazy, ``lazy_message``): a service may run in a thread with
    no request, so the message is put into words where it is shown, in its reader's
    language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotAllowed(ServiceError):
    pass


class InAnotherGame(NotAllowed):
    """A person who holds a game in play would sit at (or be dealt) another: ``people``
    are those who hold one (``games.play.seating``); at a ``correspondence`` table, those
    at as many correspondence tables as one may be, told so in words of its own."""

    def __init__(self, people: set[int], *, correspondence: bool = False) -> None:
        said = seating.at_correspondence_most() if correspondence else seating.IN_ANOTHER_GAME
        super().__init__(said)
        self.people = people


class BadMove(ServiceError):
    """Malformed or illegal by the rules (the engine's message)."""


class StaleMove(ServiceError):
    """Sent for an older version of the game than the current one."""

    def __init__(self, message: str, current_seq: int) -> None:
        super().__init__(message)
        self.current_seq = current_seq
