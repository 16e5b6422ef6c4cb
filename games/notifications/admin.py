"""Staff's view of notifications: what was told to whom, how each delivery went, and which
devices allowed push; read only, searched by username. A notice's facts are ids, names,
chips and at most a public discard, never a hidden card; a device's keys are not shown."""

from __future__ import annotations

from django.contrib import admin

from games.admin_lookups import SecretsGuardedAdmin
from games.notifications.models import Delivery, Notice, Preferences, PushSubscription


class ReadOnly(SecretsGuardedAdmin):
    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class DeliveryInline(admin.TabularInline):
    model = Delivery
    fields = ["target", "status", "attempts", "error", "updated_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Notice)
class NoticeAdmin(ReadOnly):
    list_display = ["user", "kind", "key", "status", "why", "created_at", "deliver_after"]
    list_filter = ["kind", "status", "why"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
    date_hierarchy = "created_at"
    inlines = [DeliveryInline]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnly):
    """A person's devices; deleting one stops pushes to it (the browser may subscribe again)."""

    list_display = ["user", "device", "created_at"]
    fields = readonly_fields = ["user", "device", "created_at"]
    list_select_related = ["user"]
    search_fields = ["user__username"]


@admin.register(Preferences)
class PreferencesAdmin(ReadOnly):
    list_display = ["user", "time_zone", "quiet_from", "quiet_until", "email", "digest"]
    list_select_related = ["user"]
    search_fields = ["user__username"]
