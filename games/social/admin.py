"""Staff's view of friendships, blocks, challenges and presence: who knows whom, never a
card. Lists search by username; a challenge's game is only a link to the game's own page
(which hides the deal until the end), and no list can be filtered by a game's secrets."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.admin_lookups import SecretsGuardedAdmin
from games.social.models import Block, Challenge, Friendship, Presence


class AcceptedFilter(admin.SimpleListFilter):
    title = _("accepted")
    parameter_name = "accepted"

    def lookups(self, request, model_admin):
        return [("yes", _("Friends")), ("no", _("Waiting for an answer"))]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(accepted_at__isnull=self.value() == "no")
        return queryset


@admin.register(Friendship)
class FriendshipAdmin(SecretsGuardedAdmin):
    list_display = ["from_user", "to_user", "created_at", "accepted_at"]
    list_filter = [AcceptedFilter]
    list_select_related = ["from_user", "to_user"]
    search_fields = ["from_user__username", "to_user__username"]
    autocomplete_fields = ["from_user", "to_user"]
    date_hierarchy = "created_at"


@admin.register(Block)
class BlockAdmin(SecretsGuardedAdmin):
    list_display = ["blocker", "blocked", "created_at"]
    list_select_related = ["blocker", "blocked"]
    search_fields = ["blocker__username", "blocked__username"]
    autocomplete_fields = ["blocker", "blocked"]


@admin.register(Challenge)
class ChallengeAdmin(SecretsGuardedAdmin):
    """Read only: a challenge is the two people's own doing."""

    list_display = ["from_user", "to_user", "ante", "bot_kind", "status", "created_at", "game"]
    list_filter = ["status", "bot_kind"]
    list_select_related = ["from_user", "to_user", "game"]
    search_fields = ["from_user__username", "to_user__username"]
    raw_id_fields = ["from_user", "to_user", "game"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Presence)
class PresenceAdmin(SecretsGuardedAdmin):
    """Read only: the sockets keep it (games/social/presence.py, heartbeat.py)."""

    list_display = ["user", "shown", "sockets", "away_sockets", "hidden", "changed_at"]
    list_filter = ["shown", "hidden"]
    list_select_related = ["user"]
    search_fields = ["user__username"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
