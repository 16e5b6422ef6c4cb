"""Forms of the lobby: a new table."""

from __future__ import annotations

import secrets
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.engine.state import HELD_MELDS_FREE
from games.models import Seat

# A table's turn: live (the site's 45 seconds) or a correspondence table's time.
TURN_CHOICES = [
    (0, _("Live: 45 seconds a turn")),
    (3600, _("Correspondence: 1 hour a turn")),
    (12 * 3600, _("Correspondence: 12 hours a turn")),
    (24 * 3600, _("Correspondence: 1 day a turn")),
    (72 * 3600, _("Correspondence: 3 days a turn")),
]


def turn_field() -> forms.TypedChoiceField:
    return forms.TypedChoiceField(
        label=_("Time for a turn"),
        choices=TURN_CHOICES,
        coerce=int,
        initial=0,
        required=False,  # a form sent without it makes a live table, as it always did
        empty_value=0,
        help_text=_(
            "A correspondence table waits for its people: play many at once, and be told "
            "when it is your turn."
        ),
    )


SEAT_CHOICES = [("open", _("Open for people")), *Seat.LEVEL_CHOICES]


def new_form_key() -> str:
    return secrets.token_urlsafe(12)


class FormKeyField(forms.CharField):
    """A hidden key, new with each page: the same form sent twice is known as such
    (``tables.create_table``). A form sent without one is taken as it always was."""

    widget = forms.HiddenInput

    def __init__(self) -> None:
        super().__init__(required=False, max_length=32, initial=new_form_key)


class QuickPlayForm(forms.Form):
    level = forms.ChoiceField(label=_("Bots"), choices=Seat.LEVEL_CHOICES, initial="normal")
    private = forms.BooleanField(label=_("Private: nobody may watch"), required=False)
    key = FormKeyField()


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
    # The rules number the seats 0, 1 and 2 (docs/rules.md, R1) and the maker sits in 0;
    # the fields keep their old names, which posted forms and tests use.
    seat_2 = forms.ChoiceField(label=_("Seat 1"), choices=SEAT_CHOICES, initial="open")
    seat_3 = forms.ChoiceField(label=_("Seat 2"), choices=SEAT_CHOICES, initial="open")
    turn = turn_field()
    rated = forms.ChoiceField(
        label=_("Rating"),
        choices=[
            ("rated", _("Rated: the result moves the players' ratings")),
            ("casual", _("Casual: ratings stay as they are")),
        ],
        initial="rated",
        required=False,  # a form sent without it makes a rated table, as the page offers
        widget=forms.RadioSelect,
    )
    series = forms.BooleanField(
        label=_("Series"),
        required=False,
        help_text=_("Play hand after hand at this table with a pot: two wins in a row take it."),
    )
    ante = forms.TypedChoiceField(
        label=_("Ante per hand (series)"),
        choices=[(1, _("1 chip")), (2, _("2 chips")), (5, _("5 chips"))],
        coerce=int,
        initial=1,
        required=False,
        empty_value=1,
    )
    key = FormKeyField()
    held_melds_free = forms.BooleanField(
        label=_("Held melds are free"),
        required=False,
        help_text=_("A variant: at the end, cards that form melds in a hand do not count."),
    )

    def __init__(self, *args: Any, guest: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if guest:
            # A guest is never rated, so the choice would promise her nothing; the table
            # stays rated for people with accounts who join it.
            del self.fields["rated"]

    def table_options(self) -> dict[str, Any]:
        """Keyword arguments for ``tables.create_table``."""
        data = self.cleaned_data
        return {
            "public": data["visibility"] == "public",
            "others": (data["seat_2"], data["seat_3"]),
            "variants": [HELD_MELDS_FREE] if data["held_melds_free"] else [],
            "rated": data.get("rated") != "casual",
            "form_key": data["key"],
            "turn_seconds": data.get("turn") or None,
        }

    def series_ante(self) -> int | None:
        """The ante of a series table, or None for a table of single hands."""
        return self.cleaned_data["ante"] if self.cleaned_data["series"] else None
