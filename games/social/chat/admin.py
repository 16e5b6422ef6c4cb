"""Staff's side of table talk: silence an account for a time, read reports and messages."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import admin, messages
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.admin_lookups import SecretsGuardedAdmin
from games.social.chat.models import ChatMessage, ChatReport, ChatSilence


@admin.register(ChatSilence)
class ChatSilenceAdmin(SecretsGuardedAdmin):
    list_display = ["user", "until", "reason", "created_by", "created_at"]
    search_fields = ["user__username", "reason"]
    autocomplete_fields = ["user"]
    fields = ["user", "until", "reason"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.created_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(ChatReport)
class ChatReportAdmin(SecretsGuardedAdmin):
    list_display = ["message_text", "game", "reporter", "created_at", "handled"]
    list_filter = ["handled"]
    list_editable = ["handled"]
    readonly_fields = ["message", "reporter", "created_at"]
    actions = ["silence_for_a_day"]

    @admin.action(description=_("Silence the authors for a day and mark the reports handled"))
    def silence_for_a_day(self, request, queryset) -> None:
        until = timezone.now() + timedelta(days=1)
        authors = {r.message.user_id for r in queryset.select_related("message")}
        authors.discard(None)
        for user_id in authors:
            ChatSilence.objects.create(
                user_id=user_id,
                until=until,
                reason="Reported messages",  # stored in English, like staff's own words
                created_by=request.user,
            )
        queryset.update(handled=True)
        count = len(authors)
        self.message_user(
            request,
            ngettext(
                "%(count)d account silenced for a day.",
                "%(count)d accounts silenced for a day.",
                count,
            )
            % {"count": count},
            messages.SUCCESS,
        )

    @admin.display(description=_("message"))
    def message_text(self, obj: ChatReport) -> str:
        return f"{obj.message.name}: {obj.message.shown or obj.message.body}"

    @admin.display(description=_("game"))
    def game(self, obj: ChatReport) -> int:
        return obj.message.game_id


@admin.register(ChatMessage)
class ChatMessageAdmin(SecretsGuardedAdmin):
    """Read only: what was said is kept as it was said."""

    list_display = ["created_at", "game_id", "name", "room", "kind", "body", "shown"]
    list_filter = ["room", "kind"]
    search_fields = ["name", "body"]
    raw_id_fields = ["game", "user"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
