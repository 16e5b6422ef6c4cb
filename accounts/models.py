from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """What a player chooses to show others; created the first time it is needed."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("user"),
    )
    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("Shown at the table instead of your username."),
    )
    # A guest account: made by Play now for a visitor, with a generated name and no
    # password, until its person claims it (a username and password of their own).
    # Unclaimed guests are removed after a while (manage.py remove_guests).
    is_guest = models.BooleanField(_("guest"), default=False, db_index=True)
    # Where the guest was made from, to limit how many one address makes; cleared when
    # the guest is claimed (an ordinary account keeps no address).
    guest_address = models.GenericIPAddressField(_("guest's address"), null=True, blank=True)
    # When a guest was claimed: its games finished before were a guest's, which rated no
    # one's seat as theirs, and a rebuild of the ratings must read them so too.
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    # The language the player chose (a code of settings.LANGUAGES), applied when they log
    # in; blank until their first log-in, which keeps the language they were using.
    language = models.CharField(_("language"), max_length=10, blank=True)
    # Whether positions of the player's finished games may become puzzles (games.puzzles):
    # on for new accounts, off for those made before it was asked (migration 0007).
    puzzles_allowed = models.BooleanField(
        _("Let my games become puzzles"),
        default=True,
        help_text=_(
            "Positions from your finished games may be shown to others as puzzles: only "
            "your own cards at that moment, never your name."
        ),
    )

    class Suggest(models.TextChoices):
        CASUAL = "casual", _("At casual tables")
        ALWAYS = "always", _("At every table, rated and arena tables too")
        NEVER = "never", _("Never")

    # Whether the hand rings a card to throw (the one a tap on the discard pile throws
    # when none is chosen): at casual tables unless turned off; at rated and arena tables
    # only when chosen here; never in the daily deal (games.table.rendering).
    suggest_throw = models.CharField(
        _("suggest a card to throw"),
        max_length=6,
        choices=Suggest,
        default=Suggest.CASUAL,
        help_text=_("The hand rings the card it would throw. From your next game."),
    )

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return gettext("Profile of %(user)s") % {"user": self.user}

    @classmethod
    def for_user(cls, user: AbstractBaseUser) -> Profile:
        profile, _ = cls.objects.get_or_create(user=user)
        return profile


def is_guest(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether ``user`` is an unclaimed guest account."""
    try:
        return user.is_authenticated and user.profile.is_guest
    except (Profile.DoesNotExist, AttributeError):
        return False


def display_name_for(user: AbstractBaseUser | AnonymousUser) -> str:
    """The name other players see: the display name if set, else the username."""
    try:
        # Goes through the relation, so a select_related("profile") saves the query.
        display_name = user.profile.display_name
    except (Profile.DoesNotExist, AttributeError):
        display_name = ""
    return display_name or user.get_username()
