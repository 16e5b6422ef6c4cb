from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import models


class Profile(models.Model):
    """What a player chooses to show others; created the first time it is needed."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(
        max_length=40, blank=True, help_text="Shown at the table instead of your username."
    )

    def __str__(self) -> str:
        return f"Profile of {self.user}"

    @classmethod
    def for_user(cls, user: AbstractBaseUser) -> Profile:
        profile, _ = cls.objects.get_or_create(user=user)
        return profile


def display_name_for(user: AbstractBaseUser | AnonymousUser) -> str:
    """The name other players see: the display name if set, else the username."""
    try:
        # Goes through the relation, so a select_related("profile") saves the query.
        display_name = user.profile.display_name
    except (Profile.DoesNotExist, AttributeError):
        display_name = ""
    return display_name or user.get_username()
