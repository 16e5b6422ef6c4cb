"""The form that makes a tournament."""

from __future__ import annotations

from datetime import timedelta

from django import forms
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.tournaments.models import Tournament
from games.tournaments.services import MINUTES, TURN_SECONDS


def _soon() -> str:
    start = timezone.now() + timedelta(minutes=5)
    return start.strftime("%Y-%m-%dT%H:%M")


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=80)
    starts_at = forms.DateTimeField(
        label=_("Starts at (UTC)"),
        initial=_soon,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    minutes = forms.TypedChoiceField(
        label=_("Length"), coerce=int, initial=30,
        choices=[(m, m) for m in MINUTES],  # worded in __init__, in the reader's language
    )  # fmt: skip
    variant = forms.ChoiceField(
        label=_("Rules"), required=False, choices=list(Tournament.VARIANTS.items())
    )
    rated = forms.ChoiceField(
        label=_("Rating"),
        choices=[
            ("rated", _("Rated: the games move the players' ratings")),
            ("casual", _("Casual: ratings stay as they are")),
        ],
        initial="rated",
        widget=forms.RadioSelect,
    )
    turn_seconds = forms.TypedChoiceField(
        label=_("Turn clock"), coerce=int, initial=20,
        choices=[(s, s) for s in TURN_SECONDS],
    )  # fmt: skip
    bot_kind = forms.ChoiceField(
        label=_("Bots that fill a seat"), choices=Tournament.LEVELS, initial="normal"
    )
    public = forms.BooleanField(
        label=_("Public: listed for everyone (staff)"), required=False, initial=True
    )

    def __init__(self, *args, staff: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["minutes"].choices = [(m, gettext("%(m)s minutes") % {"m": m}) for m in MINUTES]
        self.fields["turn_seconds"].choices = [
            (s, gettext("%(s)s seconds") % {"s": s}) for s in TURN_SECONDS
        ]
        if not staff:
            del self.fields["public"]
