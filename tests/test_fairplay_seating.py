"""Fair play at the table (issue 28, "what the site does with it"): accounts that share a
network address (an IPv6 /64, an IPv4 address, behind our proxies the client's) or a
device cookie are said to be so to everyone at a rated table before the deal, in the
frames each seat's socket is actually sent; rated Quick play and a rated arena's pairing
never seat them together. Addresses are stored only as keyed hashes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games.fairplay import devices
from games.fairplay.models import Sighting
from games.models import Game, Seat
from games.play import after_game, hooks
from games.play import tables as play_tables
from games.tournaments import services as arena
from games.tournaments.pairing import BOT_WAIT, Waiting, pair
from tests.table.support import session_headers, socket

NOW = datetime(2026, 12, 3, 5, 0, tzinfo=UTC)
NOTE = "Fair play:"


def browser(user, address: str, device: str | None = None, **extra) -> Client:
    """A signed-in browser whose requests come from ``address`` (and carry ``device``)."""
    client = Client(REMOTE_ADDR=address, **extra)
    client.force_login(user)
    if device:
        client.cookies[devices.COOKIE] = device
    return client


def new_rated_table(client: Client) -> int:
    form = {"visibility": "public", "seat_2": "open", "seat_3": "open", "rated": "rated"}
    response = client.post(reverse("new_table"), form)
    assert response.status_code == 302, response.content[:300]
    return Game.objects.filter(seats__index=0).order_by("-pk").values_list("pk", flat=True)[0]


def join(client: Client, game_id: int) -> None:
    response = client.post(reverse("join_table", args=[game_id]))
    assert response.status_code == 302


# --- What is kept ---------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_browser_gets_a_device_cookie_and_a_post_keeps_only_keyed_hashes(alice):
    client = browser(alice, "2001:db8:1:2::7")
    page = client.get(reverse("lobby"))
    device = page.cookies[devices.COOKIE]
    assert len(device.value) >= 22 and device["httponly"] and device["max-age"] >= 365 * 86400
    client.post(reverse("quick_play"), {"level": "easy"})
    kept = list(Sighting.objects.filter(user=alice).values_list("kind", "digest"))
    assert sorted(k for k, _ in kept) == ["address", "device"]
    assert ("address", devices.digest("address", "2001:db8:1:2::")) in kept  # the /64
    assert ("device", devices.digest("device", device.value)) in kept
    for _, hashed in kept:
        assert "2001" not in hashed and device.value not in hashed
    # The same browser posting again within the hour writes nothing more.
    before = Sighting.objects.get(user=alice, kind="address").seen_at
    client.post(reverse("quick_play"), {"level": "easy"})
    assert Sighting.objects.get(user=alice, kind="address").seen_at == before


@pytest.mark.django_db
def test_a_cookie_that_is_no_device_id_is_replaced_and_never_stored(alice):
    client = browser(alice, "198.51.100.4", device="x" * 3000)
    response = client.post(reverse("quick_play"), {"level": "easy"})
    fresh = response.cookies[devices.COOKIE].value
    assert fresh != "x" * 3000
    assert Sighting.objects.filter(kind="device", digest=devices.digest("device", fresh)).exists()


@pytest.mark.django_db
def test_sightings_older_than_kept_are_deleted_and_stale_ones_share_nothing(alice, bob):
    devices.record(alice.pk, "203.0.113.7", None)
    devices.record(bob.pk, "203.0.113.7", None)
    assert devices.shared([alice.pk, bob.pk]) == [(alice.pk, bob.pk, ("address",))]
    Sighting.objects.update(seen_at=timezone.now() - devices.ADDRESS_WINDOW - timedelta(1))
    assert devices.shared([alice.pk, bob.pk]) == []  # an address is shared for a day
    Sighting.objects.update(seen_at=timezone.now() - devices.KEPT - timedelta(1))
    devices.record(alice.pk, "198.51.100.1", None)
    assert not Sighting.objects.filter(user=alice, digest=devices.digest("address", "203.0.113.7"))
    devices.record(bob.pk, "203.0.113.7", "f" * 32)  # seen again: refreshed, not deleted
    kept = Sighting.objects.filter(user=bob).values_list("kind", "seen_at")
    assert sorted(k for k, _ in kept) == ["address", "device"]
    assert all(at > timezone.now() - timedelta(minutes=1) for _, at in kept)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "one, other, shared",
    [
        ("2001:db8:1:2::7", "2001:db8:1:2:ffff::1", True),  # the same /64
        ("2001:db8:1:2::7", "2001:db8:1:3::7", False),  # the next /64
        ("203.0.113.7", "::ffff:203.0.113.7", True),  # IPv4, also written as IPv6
        ("203.0.113.7", "203.0.113.8", False),
    ],
)
def test_the_same_address_is_the_same_ipv4_address_or_ipv6_64(alice, bob, one, other, shared):
    table = new_rated_table(browser(alice, one))
    join(browser(bob, other), table)
    game = Game.objects.get(pk=table)
    assert game.shared == ([[0, 1, ["address"]]] if shared else [])


@pytest.mark.django_db
def test_behind_our_proxy_the_address_is_the_clients_not_the_proxys(settings, alice, bob, carol):
    settings.TONGITS_TRUSTED_PROXIES = 1
    proxy = "10.0.0.2"
    # Everyone comes through the proxy; Alice and Bob from one home, Carol from another.
    table = new_rated_table(browser(alice, proxy, HTTP_X_FORWARDED_FOR="203.0.113.7"))
    join(browser(bob, proxy, HTTP_X_FORWARDED_FOR="198.51.100.1, 203.0.113.7"), table)
    join(browser(carol, proxy, HTTP_X_FORWARDED_FOR="198.51.100.99"), table)
    assert Game.objects.get(pk=table).shared == [[0, 1, ["address"]]]


@pytest.mark.django_db
def test_the_same_device_cookie_is_shared_whatever_the_address(alice, bob):
    table = new_rated_table(browser(alice, "203.0.113.7", device="d" * 32))
    join(browser(bob, "198.51.100.1", device="d" * 32), table)
    assert Game.objects.get(pk=table).shared == [[0, 1, ["device"]]]


@pytest.mark.django_db
def test_each_hand_of_a_rated_series_is_checked_again_before_its_deal(alice, bob):
    """Two people who come to share a device between a series' hands are said to at the
    next hand's deal; the first hand, dealt before, said nothing."""
    from games.series import services as series
    from tests.fast_games import finish

    made = series.create_series(alice, ante=1, others=("open", "greedy"), rated=True)
    play_tables.join_table(series.state(made).latest.pk, bob)
    first = series.state(made).latest
    assert first.shared == []
    devices.record(alice.pk, "203.0.113.7", "e" * 32)
    devices.record(bob.pk, "198.51.100.1", "e" * 32)
    finish(first.pk)
    series.ready(made.pk, alice)
    st = series.ready(made.pk, bob)
    assert len(st.hands) == 2 and st.latest.shared == [[0, 1, ["device"]]]


@pytest.mark.django_db
def test_a_casual_series_says_so_at_its_first_hand_and_each_next_one(alice, bob):
    """A casual series' hands have a pot, so fair play counts them (issue 49), and its table
    says who shares, as a rated one does; a casual table outside a series does not (below)."""
    from games.series import services as series
    from tests.fast_games import finish

    devices.record(alice.pk, "203.0.113.7", "c" * 32)
    devices.record(bob.pk, "198.51.100.1", "c" * 32)
    made = series.create_series(alice, ante=1, others=("open", "greedy"))
    first = series.state(made).latest
    assert not first.rated
    play_tables.join_table(first.pk, bob)
    first.refresh_from_db()
    assert first.status == Game.Status.PLAYING and first.shared == [[0, 1, ["device"]]]
    page = browser(alice, "203.0.113.7").get(reverse("table", args=[first.pk])).content.decode()
    assert f"{NOTE} alice and bob play from the same device." in page
    finish(first.pk)
    series.ready(made.pk, alice)
    st = series.ready(made.pk, bob)
    assert len(st.hands) == 2 and st.latest.shared == [[0, 1, ["device"]]]


@pytest.mark.django_db
def test_a_casual_table_says_nothing(alice, bob):
    client = browser(alice, "203.0.113.7")
    form = {"visibility": "public", "seat_2": "open", "seat_3": "normal", "rated": "casual"}
    client.post(reverse("new_table"), form)
    table = Game.objects.get()
    join(browser(bob, "203.0.113.7"), table.pk)
    table.refresh_from_db()
    assert table.status == Game.Status.PLAYING and table.shared == []


# --- The notice, in the frames each seat is sent -------------------------------------------


async def drain(ws) -> list[str]:
    got = []
    while not await ws.receive_nothing(timeout=0.2):
        got.append(await ws.receive_from(timeout=1))
    return got


@pytest.mark.django_db(transaction=True)
async def test_every_seat_is_told_before_the_deal_in_the_frames_it_is_sent(alice, bob, carol):
    """Alice and Bob share a home network: the notice reaches both while the table waits
    (before the deal) and all three with the frame that deals."""

    def seat_two() -> int:
        table = new_rated_table(browser(alice, "2001:db8:1:2::7"))
        join(browser(bob, "2001:db8:1:2::8"), table)
        return table

    table = await database_sync_to_async(seat_two)()
    sockets = {}
    for name, user in (("alice", alice), ("bob", bob)):
        ws = socket(table, await database_sync_to_async(session_headers)(user))
        assert (await ws.connect())[0]
        sockets[name] = ws
    expected = "alice and bob play from the same network address."
    for name, ws in sockets.items():
        frames = await drain(ws)
        assert frames and all(expected in f for f in frames if "table-status" in f), name
        assert not any('id="my-hand"' in f and "card-" in f for f in frames)  # not dealt yet

    await database_sync_to_async(lambda: join(browser(carol, "198.51.100.9"), table))()
    ws = socket(table, await database_sync_to_async(session_headers)(carol))
    assert (await ws.connect())[0]
    sockets["carol"] = ws
    game = await database_sync_to_async(Game.objects.get)(pk=table)
    assert game.status == Game.Status.PLAYING
    for name, ws in sockets.items():
        frames = [f for f in await drain(ws) if "table-status" in f]
        assert frames, f"{name} was sent no board after the deal"
        assert expected in frames[-1], name
        assert f'data-seq="{game.seq}"' in frames[-1]
        await ws.disconnect()
    # The page says it too, in the same words.
    client = await database_sync_to_async(browser)(carol, "198.51.100.9")
    page = await database_sync_to_async(client.get)(reverse("table", args=[table]))
    assert expected in page.content.decode()


@pytest.mark.django_db
def test_the_notice_is_in_filipino_for_a_filipino_reader(alice, bob):
    table = new_rated_table(browser(alice, "203.0.113.7", device="e" * 32))
    join(browser(bob, "203.0.113.7", device="e" * 32), table)
    client = browser(bob, "203.0.113.7")
    client.cookies["django_language"] = "fil"
    text = client.get(reverse("table", args=[table])).content.decode()
    assert "Patas na laro:" in text and "alice at bob" in text
    assert NOTE not in text


# --- Quick play and the arena never seat them together -------------------------------------


@pytest.mark.django_db
def test_rated_quick_play_never_seats_two_people_together(alice, bob):
    """Quick play is one person against two bots: two accounts on one device, each
    pressing it, are at two tables, each alone with bots."""
    games = []
    for user in (alice, bob):
        client = browser(user, "203.0.113.7", device="q" * 32)
        client.post(reverse("quick_play"), {"level": "easy"})
        games.append(Game.objects.filter(seats__user=user).get())
    assert devices.shared([alice.pk, bob.pk]) == [(alice.pk, bob.pk, ("address", "device"))]
    for game in games:
        assert game.rated
        people = Seat.objects.filter(game=game, user__isnull=False).count()
        assert people == 1


def waiting(key, rating=1000.0, ago=0.0):
    return Waiting(key, rating, NOW - timedelta(seconds=ago))


def apart(*pairs):
    banned = {frozenset(p) for p in pairs}
    return lambda group: any(frozenset((a, b)) in banned for a in group for b in group if a < b)


def test_pairing_never_makes_a_table_the_veto_refuses():
    people = [waiting(k, 1000 + k) for k in range(1, 7)]
    tables = pair(people, NOW, veto=apart((1, 2), (1, 3), (4, 5)))
    assert sum(len(t.people) for t in tables) == 6
    for t in tables:
        assert not {1, 2} <= set(t.people) and not {1, 3} <= set(t.people)
        assert not {4, 5} <= set(t.people)


def test_three_who_cannot_sit_together_wait_then_get_bots_apart():
    people = [waiting(1), waiting(2), waiting(3)]
    assert pair(people, NOW, veto=apart((1, 2))) == []
    later = pair(people, NOW + BOT_WAIT, veto=apart((1, 2)))
    assert sorted(t.people for t in later) in ([(1, 3), (2,)], [(1,), (2, 3)])
    for t in later:
        assert t.bots == 3 - len(t.people) and not {1, 2} <= set(t.people)


def test_without_a_veto_the_pairing_is_as_before():
    people = [waiting(1), waiting(2), waiting(3), waiting(4, ago=30), waiting(5, ago=30)]
    assert pair(people, NOW) == pair(people, NOW, veto=lambda group: False)


@given(
    n=st.integers(0, 12),
    banned=st.sets(st.tuples(st.integers(0, 11), st.integers(0, 11)), max_size=12),
    ratings=st.lists(st.integers(900, 1100), min_size=12, max_size=12),
)
def test_no_table_ever_seats_a_vetoed_pair_and_nobody_is_seated_twice(n, banned, ratings):
    people = [waiting(k, ratings[k], ago=k * 5) for k in range(n)]
    vetoed = apart(*(p for p in banned if p[0] != p[1]))
    tables = pair(people, NOW + BOT_WAIT, veto=vetoed)
    seated = [k for t in tables for k in t.people]
    assert len(seated) == len(set(seated)) and set(seated) <= set(range(n))
    for t in tables:
        assert not vetoed(t.people) and 1 <= len(t.people) <= 3 and t.bots == 3 - len(t.people)
    assert len(seated) == n  # everyone waited long enough: all are seated, apart


@pytest.mark.django_db
def test_a_rated_arena_does_not_seat_two_accounts_of_one_device_together(alice, bob, carol):
    User = get_user_model()
    dave = User.objects.create_user("dave")
    for user in (alice, bob):
        devices.record(user.pk, None, "one-phone-" + "z" * 20)
    staff = User.objects.create_user("staff", is_staff=True)
    t = arena.create(staff, name="Arena", starts_at=timezone.now(), minutes=30, public=True)
    assert t.rated
    for person in (alice, bob, carol, dave):
        arena.join(t.pk, person)
    # Four wait: only Alice or Bob can sit with Carol and Dave; the other waits.
    [game] = arena.pair(t.pk)
    people = set(game.seats.exclude(user=None).values_list("user__username", flat=True))
    assert people in ({"alice", "carol", "dave"}, {"bob", "carol", "dave"})
    # Once the one left has waited for bots, they get a table of their own.
    [alone] = arena.pair(t.pk, timezone.now() + BOT_WAIT)
    assert alone.seats.exclude(user=None).count() == 1


@pytest.mark.django_db
def test_an_unrated_arena_pairs_as_before(alice, bob, carol):
    """An unrated arena seats sharers together (docs/fair-play.md says why)."""
    for user in (alice, bob):
        devices.record(user.pk, "203.0.113.7", None)
    staff = get_user_model().objects.create_user("staff", is_staff=True)
    t = arena.create(
        staff, name="Casual", starts_at=timezone.now(), minutes=30, public=True, rated=False
    )
    for person in (alice, bob, carol):
        arena.join(t.pk, person)
    [game] = arena.pair(t.pk)
    assert game.seats.exclude(user=None).count() == 3


def test_with_nobody_answering_play_finds_nobody_sharing(monkeypatch):
    monkeypatch.setattr(hooks, "_sharing", [])
    assert hooks.shared([1, 2, 3]) == []
    assert not hooks.veto([1, 2, 3])((1, 2, 3))
    assert play_tables.SEAT_CHOICES  # play itself needs no fair play


@pytest.mark.django_db
def test_a_person_who_gets_up_takes_the_shared_notice_with_them(make_game, alice, bob, carol):
    """Seated next to someone on the same device, then gone before the deal: the table was
    dealt (bots in the empty seats at the rematch's deadline) still telling everyone that
    two seats shared a device, one of them a bot's."""
    game = make_game([alice, bob, carol])
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, rated=True)
    devices.record(alice.pk, "203.0.113.7", "e" * 32)
    devices.record(bob.pk, "198.51.100.1", "e" * 32)
    rematch = after_game.play_again(game.pk, alice, rematch=True)
    after_game.play_again(game.pk, bob, rematch=True)
    assert Game.objects.get(pk=rematch.pk).shared == [[0, 1, ["device"]]]

    play_tables.leave_table(rematch.pk, bob)
    assert Game.objects.get(pk=rematch.pk).shared == []
    assert after_game.fill_due(rematch.pk, timezone.now() + timedelta(hours=1))

    dealt = Game.objects.get(pk=rematch.pk)
    assert dealt.status == Game.Status.PLAYING and dealt.seats.get(index=1).bot_kind
    assert dealt.shared == []
