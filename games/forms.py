"""Forms of the lobby: a new table."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.state import HELD_MELDS_FREE
from games.models import Seat

SEAT_CHOICES = [("open", _("Open for people")), *Seat.BOT_CHOICES]


class NewTableForm(forms.Form):
    visibility = forms.ChoiceField(
        label=_("Who can join"),
        choices=[
            ("public", _("Anyone: the table is listed in the lobby")),
            ("private", _("Only people I send the invite link to")),
        ],
        initial="public",
        widget=forms.RadioSelect,
    )
    seat_2 = forms.ChoiceField(label=_("Seat 2"), choices=SEAT_CHOICES, initial="open")
    seat_3 = forms.ChoiceField(label=_("Seat 3"), choices=SEAT_CHOICES, initial="open")
    held_melds_free = forms.BooleanField(
        label=_("Held melds are free"),
        required=False,
        help_text=_("A variant: at the end, cards that form melds in a hand do not count."),
    )

    def table_options(self) -> dict[str, Any]:
        """Keyword arguments for ``services.create_table``."""
        data = self.cleaned_data
        return {
            "public": data["visibility"] == "public",
            "others": (data["seat_2"], data["seat_3"]),
            "variants": [HELD_MELDS_FREE] if data["held_melds_free"] else [],
        }
