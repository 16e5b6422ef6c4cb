"""Tournaments in the admin: staff see and correct a tournament and its entries (the
games are the games' own admin's, which hides their secrets)."""

from __future__ import annotations

from django.contrib import admin

from games.tournaments.models import Entry, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ("user", "state", "waiting_since", "game")
    raw_id_fields = ("user", "game")
    readonly_fields = ("waiting_since", "game")


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "starts_at", "minutes", "rated", "public", "finished_at")
    list_filter = ("public", "rated")
    search_fields = ("name",)
    raw_id_fields = ("created_by",)
    readonly_fields = ("invite_token", "schedule_key", "finished_at")
    inlines = [EntryInline]
