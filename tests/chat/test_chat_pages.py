"""Table talk on the pages: the drawer at each kind of table (no free text box where free
text is refused), the replay's transcript for the game's own people only, never in the
game's record, the staff dashboard's reports with their table's talk, the admin's
silences, and the word filter in both languages."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.models import Game
from games.social import services
from games.social.chat import frames, presets, rules, wordfilter
from games.social.chat import services as chat_services
from games.social.chat.models import ChatMessage, ChatMute, ChatReport, ChatSilence
from tests.table.support import play_to_the_end


def page(user, url: str) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def talk(game: Game, users) -> list[ChatMessage]:
    said = [
        ChatMessage(game=game, user=users[0], name="alice", seat=0, room="players",
                    kind="preset", body="p:nice"),
        ChatMessage(game=game, user=users[1], name="bob", seat=1, room="players",
                    kind="text", body="gago ka", shown="**** ka"),
        ChatMessage(game=game, user=users[3], name="dave", seat=None, room="watchers",
                    kind="preset", body="p:hurry"),
    ]  # fmt: skip
    return ChatMessage.objects.bulk_create(said)


@pytest.mark.django_db
def test_a_rated_tables_drawer_has_phrases_and_emotes_and_no_free_text_box(rated_table, alice):
    html = page(alice, reverse("table", args=[rated_table.pk]))
    assert 'id="chat-sheet"' in html
    assert 'value="p:nice"' in html and "Nice one!" in html and 'value="e:happy"' in html
    assert "chat_text" not in html and 'id="chat-text"' not in html
    assert "free text is for private, unrated tables of friends" in html


@pytest.mark.django_db
def test_a_private_unrated_table_of_friends_has_the_free_text_box(
    barkada_table, alice, all_friends
):
    html = page(alice, reverse("table", args=[barkada_table.pk]))
    assert 'name="chat_text"' in html and 'maxlength="200"' in html


@pytest.mark.django_db
def test_a_private_unrated_table_of_people_not_all_friends_has_no_free_text(
    barkada_table, alice, bob, carol
):
    services.request_friend(alice, bob.pk)
    services.accept_friend(bob, alice.pk)  # Carol is nobody's friend here
    assert rules.seats_are_friends([alice.pk, bob.pk]) is True
    assert rules.seats_are_friends([alice.pk, bob.pk, carol.pk]) is False
    assert not rules.free_text_allowed(barkada_table, alice.pk)
    assert "chat_text" not in page(alice, reverse("table", args=[barkada_table.pk]))


@pytest.mark.django_db
def test_the_free_text_rule(make_game, alice, bob, carol, dave, all_friends):
    def table(occupants, **kind) -> Game:
        # Each played out before the next is dealt: one game in play at a time.
        Game.objects.filter(status=Game.Status.PLAYING).update(status=Game.Status.FINISHED)
        return make_game(occupants, **kind)

    barkada = table([alice, bob, carol], public=False, rated=False)
    assert rules.free_text_allowed(barkada, alice.pk)
    assert not rules.free_text_allowed(barkada, dave.pk)  # not seated
    assert not rules.free_text_allowed(barkada, None)
    for kind in ({"public": True}, {"public": False, "rated": True}):
        game = table([alice, bob, carol], **kind)
        assert not rules.free_text_allowed(game, alice.pk), kind
    # With bots: the people seated must be at least two, all friends.
    assert rules.free_text_allowed(table([alice, "greedy", bob], public=False), alice.pk)
    assert not rules.free_text_allowed(table([alice, "greedy", "easy"], public=False), alice.pk)


@pytest.mark.django_db
def test_a_visitor_watching_a_public_table_is_asked_to_log_in_to_chat(rated_table):
    html = page(None, reverse("table", args=[rated_table.pk]))
    assert "Log in to chat" in html and 'name="chat_preset"' not in html


@pytest.mark.django_db
def test_the_replay_shows_the_talk_to_the_games_own_people_and_never_in_its_record(
    rated_table, alice, bob, carol, dave
):
    game = play_to_the_end(rated_table, [alice, bob, carol])
    talk(game, [alice, bob, carol, dave])
    url = reverse("replay", args=[game.pk])
    mine = page(alice, url)
    assert "Table talk" in mine and "Nice one!" in mine and "**** ka" in mine
    assert "Hurry up!" in mine and "(watching)" in mine
    assert "gago" not in mine  # the filtered text, as the table saw it
    # A public game's replay is anyone's; its talk is not.
    for other in (dave,):
        theirs = page(other, url)
        assert "Replay of game" in theirs and "Nice one!" not in theirs and "**** ka" not in theirs
    record = Client()
    record.force_login(alice)
    body = record.get(reverse("record_json", args=[game.pk])).content.decode()
    assert json.loads(body)["format"] == "tongits-record/1"
    for word in ("p:nice", "**** ka", "gago", "Hurry", "chat"):
        assert word not in body


@pytest.mark.django_db
def test_a_report_reaches_the_staff_dashboard_with_the_talk_and_the_game(
    rated_table, alice, bob, carol, dave, django_user_model
):
    said = talk(rated_table, [alice, bob, carol, dave])
    ChatReport.objects.create(message=said[1], reporter=carol)
    staff = django_user_model.objects.create_user("sam", "s@example.com", "pw", is_staff=True)
    html = page(staff, reverse("staff_dashboard"))
    assert "Reported messages" in html
    assert f"Game {rated_table.pk}" in html and "reported by carol" in html
    assert "**** ka" in html and "written: gago ka" in html  # staff see what was written
    assert "Nice one!" in html and "Hurry up!" in html  # and the table's talk around it
    assert "is-reported" in html


@pytest.mark.django_db
def test_staff_silence_an_account_for_a_time_in_the_admin(alice, django_user_model):
    staff = django_user_model.objects.create_superuser("root", "r@example.com", "pw")
    client = Client()
    client.force_login(staff)
    until = timezone.localtime(timezone.now() + timedelta(hours=2))
    response = client.post(
        reverse("admin:chat_chatsilence_add"),
        {
            "user": alice.pk,
            "until_0": until.strftime("%Y-%m-%d"),
            "until_1": until.strftime("%H:%M:%S"),
            "reason": "insults",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    silence = ChatSilence.objects.get()
    assert (silence.user, silence.created_by, silence.reason) == (alice, staff, "insults")


@pytest.mark.django_db
def test_staff_silence_a_reported_author_for_a_day_from_the_reports(
    rated_table, alice, bob, carol, dave, django_user_model
):
    said = talk(rated_table, [alice, bob, carol, dave])
    report = ChatReport.objects.create(message=said[1], reporter=carol)
    staff = django_user_model.objects.create_superuser("root", "r@example.com", "pw")
    client = Client()
    client.force_login(staff)
    response = client.post(
        reverse("admin:chat_chatreport_changelist"),
        {"action": "silence_for_a_day", "_selected_action": [report.pk]},
        follow=True,
    )
    assert "1 account silenced for a day." in response.content.decode()
    silence = ChatSilence.objects.get()
    assert silence.user == bob and silence.created_by == staff
    left = silence.until - timezone.now()
    assert timedelta(hours=23) < left <= timedelta(days=1)
    report.refresh_from_db()
    assert report.handled


def test_the_word_filter_hides_english_and_filipino_insults_and_leaves_the_rest():
    assert wordfilter.clean("you are a shit player") == "you are a **** player"
    assert wordfilter.clean("Putang ina mo, ang galing") == "**** mo, ang galing"
    assert wordfilter.clean("g4g0 ka talaga") == "**** ka talaga"
    assert wordfilter.clean("sh*t, $hit and a$$hole.") == "****, **** and ****."
    assert wordfilter.clean("PUTANGINA!! Hayop ka talaga") == "****!! **** talaga"
    assert wordfilter.clean("a class that passes, assess") == "a class that passes, assess"
    assert wordfilter.clean("Salamat sa laro, Good game!") == "Salamat sa laro, Good game!"
    for word in wordfilter.filipino_words():
        assert "*" in wordfilter.clean(f"ikaw {word} talaga"), word


@pytest.mark.parametrize("hidden", ["\u200b", "\u00ad", "\u2060", "\u200d", "\x07"])
def test_an_invisible_character_inside_a_word_does_not_hide_it_from_the_filter(hidden):
    """Free text is stored without characters that show nothing, which split a word for
    the filter and still showed it whole: "fu\u200bck" was stored and sent as it came."""
    text = chat_services.check_text(f"fu{hidden}ck you")
    assert text == "fuck you" and wordfilter.clean(text) == "**** you"


def test_dotted_letters_are_read_as_the_word_they_spell_and_emoji_keep_their_joiners():
    assert wordfilter.clean("f.u.c.k you") == "**** you"
    assert wordfilter.clean("e.g. a.b.c, www.example.com") == "e.g. a.b.c, www.example.com"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert chat_services.check_text(f"gg {family}") == f"gg {family}"


def test_presets_are_worded_in_the_readers_language():
    ev = {"id": 1, "room": "players", "seat": 0, "name": "alice", "user": 1, "kind": "preset"}
    with translation.override("fil"):
        assert "Ang galing!" in frames.message({**ev, "body": "p:nice"}, 2)
        assert "Bilis!" in frames.message({**ev, "body": "p:hurry"}, 2)
        assert "I-mute" in frames.message({**ev, "body": "p:gg"}, 2)
    with translation.override("en"):
        assert "Nice one!" in frames.message({**ev, "body": "p:nice"}, 2)
    assert presets.is_preset("e:cool") and not presets.is_preset("p:7H")


@pytest.mark.django_db
def test_a_blocked_persons_talk_is_not_shown_to_the_one_who_blocked_them(
    barkada_table, alice, bob, carol
):
    chat_services.say(barkada_table.pk, bob, preset="p:nice")
    chat_services.say(barkada_table.pk, carol, preset="p:thanks")
    services.block(alice, bob.pk)

    mine = chat_services.history(barkada_table.pk, alice.pk, watchers_too=False)
    assert [line["user"] for line in mine] == [carol.pk]
    assert bob.pk in chat_services.muted_ids(alice.pk)  # her socket drops his new lines
    # Bob is not told: his own view of the talk is whole.
    theirs = chat_services.history(barkada_table.pk, bob.pk, watchers_too=False)
    assert [line["user"] for line in theirs] == [bob.pk, carol.pk]


@pytest.mark.django_db
def test_the_replay_leaves_out_the_talk_of_people_one_blocked_or_muted(
    rated_table, alice, bob, carol, dave, django_user_model
):
    """The table hid a blocked person's lines; the replay's Table talk showed them."""
    chat_services.say(rated_table.pk, bob, preset="p:hurry")
    chat_services.say(rated_table.pk, carol, preset="p:nice")
    services.block(alice, bob.pk)
    game = play_to_the_end(rated_table, [alice, bob, carol])
    url = reverse("replay", args=[game.pk])

    ChatMute.objects.create(user=bob, muted=carol)
    staff = django_user_model.objects.create_user("sam", "s@example.com", "pw", is_staff=True)

    mine, his, staffs = page(alice, url), page(bob, url), page(staff, url)

    assert "Nice one!" in mine and "Hurry up!" not in mine
    assert "Hurry up!" in his and "Nice one!" not in his  # bob muted carol
    assert "Hurry up!" in staffs and "Nice one!" in staffs  # staff read it all


@pytest.mark.django_db
def test_the_drawer_lists_whom_one_muted_and_asks_for_them_only_if_any(rated_table, alice, bob):
    url = reverse("table", args=[rated_table.pk])
    assert "chat-muted" not in page(alice, url)
    ChatMute.objects.create(user=alice, muted=bob)
    assert f'name="chat_unmute" value="{bob.pk}"' in page(alice, url)
