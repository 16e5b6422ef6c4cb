from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin

from accounts.models import Profile
from games.admin_lookups import SecretsGuardedAdmin


@admin.register(Profile)
class ProfileAdmin(SecretsGuardedAdmin):
    list_display = ("user", "display_name", "is_guest")
    list_filter = ("is_guest",)
    search_fields = ("user__username", "display_name")


# People sit at games: their list must not reach a game's secrets through their seats.
admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class GuardedUserAdmin(SecretsGuardedAdmin, UserAdmin):
    pass
