"""The admin: games to look at, not to edit.

Everything about a game follows from its deal and move log, so nothing here changes them.
The seed and the deal (every hand) stay hidden until the game is over, and so do the
cards of a secret set: staff are players too.
"""

from __future__ import annotations

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.admin_lookups import SecretsGuardedAdmin
from games.engine.moves import SECRET
from games.models import Game, Move, Seat


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["index", "user", "display_name", "bot_kind", "away"]


class MoveInline(ReadOnlyInline):
    model = Move
    fields = ["seq", "seat", "move", "by_server", "client_move_id", "created_at"]
    readonly_fields = fields

    @admin.display(description=_("move"))
    def move(self, row: Move) -> object:
        if row.payload.get("type") == SECRET and not row.game.revealed:
            return {"seat": row.seat, "type": SECRET, "cards": gettext("hidden until the end")}
        return row.payload


@admin.register(Game)
class GameAdmin(SecretsGuardedAdmin):
    list_display = [
        "id", "status", "public", "created_by", "created_at", "seq", "turn_seat", "replay_link",
    ]  # fmt: skip
    readonly_fields = ["replay_link"]
    list_filter = ["status", "public"]
    search_fields = ["seats__user__username"]
    inlines = [SeatInline, MoveInline]
    SECRET_FIELDS = ("seed", "deal")

    @admin.display(description=_("replay"))
    def replay_link(self, game: Game) -> str:
        # A game in play has no replay for anyone, staff included: it would show hands.
        if not game.revealed or game.deal is None:
            return gettext("after the end")
        return format_html(
            '<a href="{}">{}</a>', reverse("replay", args=[game.pk]), gettext("replay")
        )

    def get_exclude(self, request, obj=None):
        if obj is None or not obj.revealed:
            return self.SECRET_FIELDS
        return ()

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
