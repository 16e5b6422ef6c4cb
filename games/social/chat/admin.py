"""Staff's side of table talk: silence an account for a time, read reports and messages."""

from __future__ import annotations

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from games.social.chat.models import ChatMessage, ChatReport, ChatSilence


@admin.register(ChatSilence)
class ChatSilenceAdmin(admin.ModelAdmin):
    list_display = ["user", "until", "reason", "created_by", "created_at"]
    search_fields = ["user__username", "reason"]
    autocomplete_fields = ["user"]
    fields = ["user", "until", "reason"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(ChatReport)
class ChatReportAdmin(admin.ModelAdmin):
    list_display = ["message_text", "game", "reporter", "created_at", "handled"]
    list_filter = ["handled"]
    list_editable = ["handled"]
    readonly_fields = ["message", "reporter", "created_at"]

    @admin.display(description=_("message"))
    def message_text(self, obj: ChatReport) -> str:
        return f"{obj.message.name}: {obj.message.shown or obj.message.body}"

    @admin.display(description=_("game"))
    def game(self, obj: ChatReport) -> int:
        return obj.message.game_id


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    """Read only: what was said is kept as it was said."""

    list_display = ["created_at", "game_id", "name", "room", "kind", "body", "shown"]
    list_filter = ["room", "kind"]
    search_fields = ["name", "body"]
    raw_id_fields = ["game", "user"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
