"""The Notifications part of the Settings page: each kind on or off, email as the fallback
(and the address it goes to), the time zone and quiet hours."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Preferences
from .quiet import zone

KIND_FIELDS = ("your_turn", "game_ended", "challenge", "friend_request", "digest")
TIME = forms.TimeInput(attrs={"type": "time"}, format="%H:%M")


class PreferencesForm(forms.ModelForm):
    address = forms.EmailField(
        label=_("Email address"),
        required=False,
        help_text=_("Where emails go. Leave it empty to get none."),
    )

    class Meta:
        model = Preferences
        fields = (*KIND_FIELDS, "email", "time_zone", "quiet_from", "quiet_until")
        labels = {"time_zone": _("Time zone"), "quiet_from": _("Quiet from"),
                  "quiet_until": _("Quiet until")}  # fmt: skip
        help_texts = {
            "time_zone": _(
                "A name such as Asia/Manila; this device's own is filled in when it is empty."
            ),
            "quiet_until": _(
                "In your time zone. Nothing is sent in quiet hours: it comes when they end."
            ),
        }
        widgets = {
            "quiet_from": TIME,
            "quiet_until": TIME,
            "time_zone": forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
        }

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.fields["address"].initial = user.email
        self.fields["time_zone"].widget.attrs["data-detect-time-zone"] = ""

    def kind_fields(self) -> list:
        """The kinds' checkboxes, for the template to put each inside its label."""
        return [self[name] for name in KIND_FIELDS]

    def clean_time_zone(self) -> str:
        name = (self.cleaned_data.get("time_zone") or "").strip()
        if name and zone(name) is None:
            raise forms.ValidationError(_("There is no time zone by that name."))
        return name

    def clean(self) -> dict:
        data = super().clean()
        if (data.get("quiet_from") is None) != (data.get("quiet_until") is None):
            raise forms.ValidationError(_("Give quiet hours both a start and an end, or neither."))
        return data

    def save(self, commit: bool = True) -> Preferences:
        prefs = super().save(commit=False)
        prefs.user = self.user
        if commit:
            prefs.save()
            address = self.cleaned_data.get("address") or ""
            if address != self.user.email:
                self.user.email = address
                self.user.save(update_fields=["email"])
        return prefs
