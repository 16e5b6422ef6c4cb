"""The table as a card table (issue 48), on touch screens, by taps alone.

A whole game against bots at each size, tapping only: the stock to draw, the
discard to take it or to throw the card chosen (or the one the hand suggests), and Meld
with no card chosen (the hand's meld, or the one picked when it holds several). At every
turn, and so at the busiest positions the game reaches (the most melds on the felt,
thirteen cards in hand, a Draw called, the result): no page or felt scroll, every meld and
every hand card in view, each hand card's uncovered part at least 40x40 px. The taps of
each turn are counted and their median printed. At 360x740 the game is Quick play's (many
turns, and another if the bots end it early); at the other sizes it is dealt from a seed on
which the game ends in a few turns (tests/table/busy.py SHORT_SEEDS: a discard taken, a
draw from the stock, a Draw call folded, the result), all by taps.

The other sizes also start from a scripted game at its busiest (tests/table/busy.py): six
melds and thirteen cards, then nine melds. A hand dragged into another order is kept
after a reload, Arrange puts the hand's melds together, the discard is taken with the
only meld it makes in one tap, and a refused meld comes back to the hand with its reason
just above it. Screenshots: artifacts/card-table/.
"""

from __future__ import annotations

import re
import statistics
import time
import uuid

import pytest

from tests.browser.support import (
    ARTIFACTS,
    PASSWORD,
    SIZES,
    PageErrors,
    hand_seq,
    log_in,
    sign_up,
    wait_for_new_board,
)

pytestmark = pytest.mark.browser
SHOTS = ARTIFACTS / "card-table"


@pytest.fixture(scope="module")
def server_env(server_env) -> dict[str, str]:
    """The scripted games are made before their tests run: a turn clock of ten minutes,
    so that the server does not play a seat's turn for it meanwhile on a busy machine."""
    return {**server_env, "TONGITS_TURN_SECONDS": "600"}


@pytest.fixture(scope="module")
def browser(chromium):
    """One Chromium for the module's tests (each has a context of its own): starting one
    a test was a second or two of each, twelve times."""
    from tests.browser.conftest import launched

    with launched(chromium) as browser:
        yield browser


# What is wrong with the table as shown: a page or a felt that scrolls, a meld, pile or
# hand card not wholly on the screen (a meld also not inside the felt), a hand card whose
# part left uncovered by the cards over it is under 40x40 px or is not what a tap there
# reaches. [] when nothing is.
CARD_TABLE = """() => {
  const out = [];
  const page = document.scrollingElement;
  if (page.scrollHeight > innerHeight + 0.5) out.push(`page is ${page.scrollHeight} px tall`);
  if (page.scrollWidth > innerWidth + 0.5) out.push(`page is ${page.scrollWidth} px wide`);
  if (scrollY || scrollX) out.push(`page scrolled to ${scrollX},${scrollY}`);
  const felt = document.getElementById("table-melds");
  if (felt && felt.scrollHeight > felt.clientHeight + 1) out.push("the felt scrolls");
  const box = el => el.getBoundingClientRect();
  const onScreen = (el, what) => {
    const r = box(el);
    if (!r.width || !r.height) out.push(`${what} is not shown`);
    else if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5
             || r.bottom > innerHeight + 0.5) {
      out.push(`${what} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)}`);
    }
  };
  document.querySelectorAll("#table-melds .meld").forEach((meld, i) => {
    onScreen(meld, `meld ${i}`);
    const r = box(meld), f = box(felt);
    if (r.bottom > f.bottom + 0.5 || r.right > f.right + 0.5) out.push(`meld ${i} past the felt`);
  });
  document.querySelectorAll("#table-piles .pile").forEach((pile, i) => onScreen(pile, `pile ${i}`));
  const cards = [...document.querySelectorAll("#my-hand .hand-card[data-card]")];
  cards.forEach((card, i) => {
    const code = card.dataset.card;
    onScreen(card, `card ${code}`);
    const r = box(card);
    let right = r.right, bottom = r.bottom;
    cards.slice(i + 1).forEach(other => {
      const o = box(other);
      const across = o.left < r.right && o.right > r.left;
      const along = o.top < r.bottom && o.bottom > r.top;
      if (!across || !along) return;
      if (Math.abs(o.top - r.top) < 2) right = Math.min(right, o.left);
      else if (o.top > r.top) bottom = Math.min(bottom, o.top);
    });
    const w = right - r.left, h = bottom - r.top;
    if (w < 40 || h < 40) out.push(`card ${code} shows ${Math.round(w)}x${Math.round(h)} px`);
    const hit = document.elementFromPoint(r.left + w / 2, r.top + h / 2);
    if (!hit || !card.contains(hit)) out.push(`a tap on ${code} reaches ${hit && hit.className}`);
  });
  return out;
}"""

# Something for the person to do, or the game over (what the whole game's loop waits on
# while the bots play).
YOUR_MOVE = """() => {
  const shown = el => !!el && el.getClientRects().length > 0;
  const result = document.querySelector("#table-result");
  if (result && !result.hidden && shown(result)) return true;
  if ([...document.querySelectorAll("#my-hand button")]
      .some(b => b.textContent.trim() === "Fold" && shown(b))) return true;
  const stock = document.querySelector(".pile-stock");
  const pile = document.querySelector(".pile-discard");
  if (stock && !stock.disabled) return true;
  return !!document.querySelector("#act-discard") && !!pile && !pile.disabled;
}"""

STILL = (
    "() => [...document.querySelectorAll('#my-hand .hand-card, #table-melds .meld')]"
    ".every(el => el.getAnimations().length === 0)"
)


def card_table(page) -> list[str]:
    """What is wrong with the table as a person sees it: once its cards are still, and
    after two frames, so that what the page does in its next frame (the melds sized to
    a felt whose room just changed) has been drawn."""
    page.wait_for_function(STILL, timeout=5_000)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    return page.evaluate(CARD_TABLE)


def touch_context(browser, size: str):
    return browser.new_context(viewport=SIZES[size], has_touch=True, is_mobile=False)


def tap_card(page, code: str) -> None:
    """A finger on a card's corner, the part the cards over it leave uncovered."""
    page.locator(f'#my-hand .hand-card[data-card="{code}"]').tap(position={"x": 10, "y": 16})


def melds_on_felt(page) -> int:
    return page.locator("#table-melds .meld").count()


def first_meld(page) -> list[str]:
    """The cards of the first meld the hand's arrangement holds ([] if none)."""
    arranged = page.locator("#my-hand .hand").get_attribute("data-arrange") or ""
    for group in arranged.split("|"):
        kind, _, codes = group.partition(":")
        if kind == "meld":
            return codes.split()
    return []


def tap_and_wait(page, target) -> None:
    seq = hand_seq(page)
    target.tap()
    wait_for_new_board(page, seq)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_game_by_taps_alone(browser, server, busy, size):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = touch_context(browser, size)
    page = context.new_page()
    errors = PageErrors(page)
    long = size == "360x740"
    if long:  # the phone: Quick play, a game of many turns (and up to two more)
        sign_up(page, server)
        # Quick play is rated: the ringed card to throw is there because she asked for it
        # at every table (Settings), as a player of two taps a turn does.
        page.goto(f"{server}/accounts/settings/")
        page.get_by_label("At every table, rated and arena tables too").check()
        page.screenshot(path=SHOTS / f"{size}-settings-suggest.png", full_page=True)
        page.get_by_role("button", name="Save").first.click()
        page.goto(f"{server}/")
        page.get_by_role("button", name="Quick play").click()
        page.wait_for_url(re.compile(r"/games/\d+/$"))
    else:  # a short game (busy.SHORT_SEEDS): a take, a draw, a Draw call, the result
        tag, game = busy[f"{size}-short"]
        log_in(page, server, f"cat{tag}", PASSWORD)
        page.goto(f"{server}/games/{game}/")
    page.locator('#connection[data-state="connected"]').wait_for()
    stock, pile = page.locator(".pile-stock"), page.locator(".pile-discard")
    result = page.locator("#table-result")
    taps: list[int] = []
    turn = 0
    most = {"melds": -1, "cards": 0}
    tapped = {"stock": 0, "discard": 0, "draw call": 0}
    deadline = time.monotonic() + 120
    games = 1
    while True:
        assert time.monotonic() < deadline, "the games did not end in time"
        if result.is_visible():
            # A game the bots end early is too few turns to count: Play again (twice at
            # most), by a tap. A short game is played once.
            if not long or len(taps) >= 6 or games == 3:
                break
            ended = page.url
            result.get_by_role("button", name="Play again").tap()
            page.wait_for_url(lambda url, ended=ended: url != ended)
            page.locator('#connection[data-state="connected"]').wait_for()
            games += 1
            continue
        fold = page.get_by_role("button", name="Fold", exact=True)
        if fold.is_visible():  # a Draw called: the call and every meld in view
            assert card_table(page) == [], "a Draw call"
            page.screenshot(path=SHOTS / f"{size}-draw-call.png")
            tap_and_wait(page, fold)
            tapped["draw call"] += 1
        elif stock.is_enabled():  # a turn begins: take the discard if it melds, else draw
            turn = 1
            take = page.locator("#act-take").count() > 0
            seq = hand_seq(page)
            (pile if take else stock).tap()
            tapped["discard" if take else "stock"] += 1
            page.wait_for_function(
                "seq => document.querySelector('#table-status').dataset.seq !== seq"
                " || document.querySelector('.take-choice')",
                arg=seq,
            )
            if page.locator(".take-choice .button").count():  # several ways: the first
                page.locator(".take-choice .button").first.tap()
                turn += 1
            wait_for_new_board(page, seq)
        elif page.locator("#act-discard").count() and pile.is_enabled():
            held = page.locator("#my-hand .hand-card[data-card]").count()
            if held >= most["cards"]:
                most["cards"] = held
                assert card_table(page) == [], f"{held} cards in hand"
                if long:
                    page.screenshot(path=SHOTS / f"{size}-most-cards.png")
            meld = first_meld(page)
            if meld and page.locator("#act-meld").count() and held > len(meld) + 1:
                # Meld with no card chosen: the hand's meld, or the first of those asked.
                seq = hand_seq(page)
                page.locator("#act-meld").tap()
                turn += 1
                choice = page.locator(".take-choice .button")
                page.wait_for_function(
                    "seq => document.querySelector('#table-status').dataset.seq !== seq"
                    " || document.querySelector('.take-choice')",
                    arg=seq,
                )
                if choice.count():
                    choice.first.tap()
                    turn += 1
                wait_for_new_board(page, seq)
                continue
            if melds_on_felt(page) > most["melds"]:
                most["melds"] = melds_on_felt(page)
                assert card_table(page) == [], f"{most['melds']} melds on the felt"
                if long:
                    page.screenshot(path=SHOTS / f"{size}-most-melds.png")
            tap_and_wait(page, pile)  # the suggested card (ringed) is thrown
            taps.append(turn + 1)
        else:
            page.wait_for_function(YOUR_MOVE, timeout=30_000)  # the bots' turns
    page.wait_for_function(  # the result come in and still
        "() => document.getAnimations().every(a => a.playState !== 'running'"
        " || a.effect?.getComputedTiming().iterations === Infinity)",
        timeout=5_000,
    )
    page.screenshot(path=SHOTS / f"{size}-result.png")
    assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
    assert taps, "the person never finished a turn"
    print(
        f"\ntaps a turn at {size}: median {statistics.median(taps)} over {len(taps)} turns"
        f" of {games} game(s): {taps}"
    )
    if long:  # the phone; at the others a deal of many melds may ask 3
        assert statistics.median(taps) <= 2.5
    else:  # the stock drew, the discard was taken, a Draw call folded, each by a tap
        assert tapped["stock"] and tapped["discard"] and tapped["draw call"], tapped
    errors.assert_none()
    context.close()


BUSY = (
    "from tests.table.busy import set_up\n"
    "for tag, upto in {games!r}:\n"
    "    print(set_up([n + tag for n in ('ann', 'ben', 'cat')], {pw!r}, upto))"
)
# A short game against two bots, dealt from a seed (tests/table/busy.py SHORT_SEEDS).
SHORT = (
    "from django.contrib.auth import get_user_model\n"
    "from games.play.tables import create_table\n"
    "from tests.table.busy import SHORT_SEEDS\n"
    "for tag in {tags!r}:\n"
    "    who = get_user_model().objects.create_user('cat' + tag, password={pw!r})\n"
    "    print(create_table(who, others=('normal', 'normal'), seed=SHORT_SEEDS[0]).pk)"
)
# The scripted games the tests below start from, made in one go (a shell is slow to start):
# for each, its people's name tag and the move it is played up to.
WANTED = {
    **{
        f"{size}-{upto}": upto
        for size in ("412x915", "740x360", "915x412", "1280x800")
        for upto in (10, 14)
    },
}


SHORT_SIZES = ("412x915", "740x360", "915x412", "1280x800")


@pytest.fixture(scope="module")
def busy(manage) -> dict[str, tuple[str, int]]:
    """name -> (the name tag of its people, the game's id): log in as "cat" + tag. The
    scripted games of WANTED, and a short game at each size but 360x740 ("412x915-short")."""
    run = uuid.uuid4().hex[:6]
    games = [(f"{run}{i}", upto) for i, upto in enumerate(WANTED.values())]
    tags = [f"{run}s{i}" for i in range(len(SHORT_SIZES))]
    code = BUSY.format(games=games, pw=PASSWORD) + "\n" + SHORT.format(tags=tags, pw=PASSWORD)
    made = manage("shell", "-c", code).split()[-len(games) - len(tags) :]
    names = [*WANTED, *(f"{size}-short" for size in SHORT_SIZES)]
    tagged = [tag for tag, _ in games] + tags
    return {name: (tag, int(game)) for name, tag, game in zip(names, tagged, made, strict=True)}


@pytest.mark.parametrize("size", ["412x915", "740x360", "915x412", "1280x800"])
def test_the_busiest_positions_fit_the_screen(browser, server, busy, size):
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = touch_context(browser, size)
    page = context.new_page()
    errors = PageErrors(page)
    thirteen = busy[f"{size}-10"][1]
    for i, (tag, game) in enumerate((busy[f"{size}-10"], busy[f"{size}-14"])):
        if i:
            context.clear_cookies()
        log_in(page, server, f"cat{tag}", PASSWORD)
        page.goto(f"{server}/games/{game}/")
        page.locator('#connection[data-state="connected"]').wait_for()
        if game == thirteen:  # a tap on the stock draws: thirteen cards, six melds
            tap_and_wait(page, page.locator(".pile-stock"))
            assert page.locator("#my-hand .hand-card[data-card]").count() == 13
        assert card_table(page) == [], f"game {game}"
        page.screenshot(path=SHOTS / f"{size}-{'thirteen' if i == 0 else 'nine-melds'}.png")
    assert melds_on_felt(page) == 9
    errors.assert_none()
    context.close()


def test_a_drawn_busy_hand_at_360x740_and_its_order_kept_after_a_reload(browser, server, manage):
    # Made here, not with the others: nothing may have moved at it before the test.
    tag = uuid.uuid4().hex[:7]
    code = BUSY.format(games=[(tag, 10)], pw=PASSWORD)
    game = int(manage("shell", "-c", code).split()[-1])
    context = touch_context(browser, "360x740")
    page = context.new_page()
    errors = PageErrors(page)
    log_in(page, server, f"cat{tag}", PASSWORD)
    page.goto(f"{server}/games/{game}/")
    page.locator('#connection[data-state="connected"]').wait_for()
    shown = (
        "() => [...document.querySelectorAll('#my-hand .hand-card[data-card]')]"
        ".map(c => c.dataset.card)"
    )

    # Arrange: each meld of the hand's best arrangement together, the deadwood last.
    page.locator("#arrange").tap()
    order = page.evaluate(shown)
    for meld in (["5H", "6H", "7H"], ["8C", "8D", "8H"], ["TS", "JS", "QS"]):
        assert set(meld) <= set(order), (meld, order, page.url)
        at = sorted(order.index(code) for code in meld)
        assert at == list(range(at[0], at[0] + len(meld))), (meld, order)
    assert order[-1] in {"AD", "3H", "6D"}

    # Dragged: the last card carried to the front, by its corner, as a finger does.
    cards = page.locator("#my-hand .hand-card[data-card]")
    page.wait_for_function("() => !!window.Sortable")
    last, first = cards.last.bounding_box(), cards.first.bounding_box()
    x0, y0 = last["x"] + 10, last["y"] + 16
    x1, y1 = first["x"] + 4, first["y"] + 16
    page.mouse.move(x0, y0)
    page.mouse.down()
    for i in range(1, 21):
        page.mouse.move(x0 + (x1 - x0) * i / 20, y0 + (y1 - y0) * i / 20)
        page.wait_for_timeout(25)
    page.wait_for_timeout(150)  # held a moment where it goes, then let go
    page.mouse.up()
    dragged = page.evaluate(shown)
    # Carried towards the front: it now comes before cards it came after.
    assert dragged != order and dragged.index(order[-1]) < len(order) - 1, dragged

    page.reload()
    page.locator('#connection[data-state="connected"]').wait_for()
    assert page.evaluate(shown) == dragged

    # A tap on the stock: the card comes at once (face down), then the server's, at the end.
    seq = hand_seq(page)
    moved = page.evaluate(
        "() => { document.querySelector('.pile-stock').click();"
        " return !!document.querySelector('#my-hand .hand > li.is-pending'); }"
    )
    assert moved  # shown in the same task as the tap, before any answer
    wait_for_new_board(page, seq)
    after = page.evaluate(shown)
    assert after[:-1] == dragged and after[-1] == "9S"
    assert card_table(page) == []
    page.screenshot(path=SHOTS / "360x740-thirteen.png")
    errors.assert_none()
    context.close()


def test_the_discard_taken_in_one_tap_and_a_refused_meld_put_back(browser, server, manage):
    # tests/table/story.py at Carol's turn: the 6 of clubs on the pile melds with her 6 of
    # diamonds and 6 of hearts, the only way (R3).
    names = [f"{who}{uuid.uuid4().hex[:6]}" for who in ("ann", "ben", "cat")]
    code = f"from tests.table.story import set_up; print(set_up({names!r}, {PASSWORD!r}, 6))"
    game = int(manage("shell", "-c", code).split()[-1])
    context = touch_context(browser, "740x360")
    page = context.new_page()
    errors = PageErrors(page)
    log_in(page, server, names[2], PASSWORD)
    page.goto(f"{server}/games/{game}/")
    page.locator('#connection[data-state="connected"]').wait_for()
    assert "take the discard" in page.locator(".turn-text").inner_text()
    # An opponent's last turn is a line of its cards; its story, a tap away.
    story = page.locator("#seats .seat-story").first
    assert not story.locator(".seat-last").is_visible()
    story.locator("summary").tap()
    assert story.locator(".seat-last").is_visible()
    page.screenshot(path=SHOTS / "740x360-story.png")
    story.locator("summary").tap()
    tap_and_wait(page, page.locator(".pile-discard"))
    mine = page.locator('#table-center .meld-group[aria-label="Your melds"] [data-card]')
    assert {c.get_attribute("data-card") for c in mine.all()} == {"6C", "6D", "6H"}

    # A meld the server refuses: its cards leave the hand at once, then come back, with
    # the reason just above the hand.
    tap_card(page, "2H")
    tap_card(page, "JC")
    page.locator("#act-meld").tap()
    message = page.locator("#messages p")
    message.wait_for()
    assert page.locator("#my-hand .is-leaving").count() == 0
    assert page.locator(".is-pending").count() == 0
    hand = page.locator("#my-hand").bounding_box()
    said = message.bounding_box()
    assert said["y"] + said["height"] <= hand["y"] + 1 and hand["y"] - said["y"] < 80
    page.screenshot(path=SHOTS / "740x360-refused.png")
    errors.assert_none()
    context.close()


def test_a_discard_that_melds_several_ways_is_taken_with_the_one_picked(browser, server, manage):
    # tests/table/busy.py MANY_WAYS: the 5 of clubs on the pile, Ben holds three fives.
    names = [f"{who}{uuid.uuid4().hex[:6]}" for who in ("ann", "ben", "cat")]
    code = (
        "from tests.table.busy import MANY_WAYS, set_up; "
        f"print(set_up({names!r}, {PASSWORD!r}, 1, MANY_WAYS))"
    )
    game = int(manage("shell", "-c", code).split()[-1])
    context = touch_context(browser, "412x915")
    page = context.new_page()
    errors = PageErrors(page)
    log_in(page, server, names[1], PASSWORD)
    page.goto(f"{server}/games/{game}/")
    page.locator('#connection[data-state="connected"]').wait_for()
    page.locator(".pile-discard").tap()
    ways = page.locator(".take-choice .button")
    assert ways.count() == 4  # asked, just above the hand; nothing sent yet
    assert page.locator("#my-hand .hand-card[data-card]").count() == 12
    page.screenshot(path=SHOTS / "412x915-which-take.png")
    three = next(w for w in ways.all() if w.locator(".chip").count() == 3)
    tap_and_wait(page, three)
    mine = page.locator('#table-center .meld-group[aria-label="Your melds"] [data-card]')
    assert {c.get_attribute("data-card") for c in mine.all()} == {"5C", "5D", "5H", "5S"}
    assert page.locator(".take-choice").count() == 0
    errors.assert_none()
    context.close()
