"""Fair play's log in the admin: what staff did, who, whom, why and when. Read only:
the log is written by the actions alone (``actions.py``), never edited or deleted here,
and it is read by those given ``fairplay.view_staffaction`` (the Fair play group)."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from games.admin_lookups import SecretsGuardedAdmin
from games.fairplay.models import StaffAction


@admin.register(StaffAction)
class StaffActionAdmin(SecretsGuardedAdmin):
    list_display = ("at", "staff", "kind", "whom", "reason")
    list_filter = ("kind",)
    search_fields = ("staff__username", "whom", "reason")
    fields = ("at", "staff", "kind", "whom", "account", "pair", "reason", "games")
    readonly_fields = fields
    date_hierarchy = "at"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
