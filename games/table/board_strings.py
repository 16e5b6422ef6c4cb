"""Strings of the board's parts made in Python that ``makemessages`` cannot find there, for
our catalogue: the action buttons' labels, translated from a table of them
(``pgettext("action", label)``, ``games/table/board_hand.py``), and a meld's heading, whose
``gettext`` sits inside an f-string (``games/table/board_felt.py``). Listed exactly as those
modules write them. Never imported: only read by
makemessages (as ``tongits_site/django_strings.py`` is for Django's own strings)."""

from django.utils.translation import gettext_noop as _
from django.utils.translation import pgettext_lazy

ACTIONS = [
    pgettext_lazy("action", "Draw"),
    pgettext_lazy("action", "Meld"),
    pgettext_lazy("action", "Secret set"),
    pgettext_lazy("action", "Lay off"),
    pgettext_lazy("action", "Take discard"),
    pgettext_lazy("action", "Discard"),
    pgettext_lazy("action", "Call Draw"),
    pgettext_lazy("action", "Fold"),
    pgettext_lazy("action", "Fight"),
]

MELDS = [_("Meld %(n)s:")]
