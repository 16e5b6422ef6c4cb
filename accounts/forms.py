from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from accounts.guests import is_guest_username
from accounts.models import Profile
from games.words.text import validate_storable

GUEST_NAME_TAKEN = _(
    "Usernames beginning with “guest” are kept for guest accounts: choose another."
)


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional; only used to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and is_guest_username(username):
            raise forms.ValidationError(GUEST_NAME_TAKEN)
        return username


class ClaimForm(SignupForm):
    """A guest's own username and password, on the guest's account (``instance``): the
    same rules as signing up, and the account keeps its games."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # The generated guest name is not offered back: the person chooses their own.
        self.initial["username"] = ""


class ProfileForm(forms.ModelForm):
    class Meta:
        model = Profile
        fields = ("display_name", "suggest_throw", "puzzles_allowed")
        labels = {
            "display_name": _("Display name"),
            "suggest_throw": _("Suggest a card to throw"),
        }
        widgets = {"suggest_throw": forms.RadioSelect}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].validators.append(validate_storable)
        # A form sent without it (an older page, a script) keeps the choice made before.
        self.fields["suggest_throw"].required = False

    def clean_suggest_throw(self) -> str:
        return self.cleaned_data.get("suggest_throw") or self.instance.suggest_throw
