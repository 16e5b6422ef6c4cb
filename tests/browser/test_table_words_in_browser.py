"""The table's words and sheets on a phone (issue 48), in English and Filipino: the result
leads with your own outcome, fits one screen on a phone on its side with Chat and Menu in
reach and "Good game" one tap away; an arena's table names its tournament; the hand is at
most 3 Tabs from the page's start, focus stays on its card through a board, and a card is
one name; in Filipino no button's words are cut at 360 px. Screenshots go to artifacts/.
"""

from __future__ import annotations

import pytest

from tests.browser.support import ARTIFACTS, PASSWORD, SIZES, PageErrors, log_in

pytestmark = pytest.mark.browser

# People with a finished game each against two bots, and one with a game in play, made
# in one shell (their ids printed last, in this order).
MAKE = f"""
from django.contrib.auth import get_user_model
from games.play import tables
from tests.fast_games import finish
User = get_user_model()
out = []
for name in ("rita", "rico"):
    user = User.objects.create_user(name, password="{PASSWORD}")
    out.append(finish(tables.quick_play(user).pk).pk)
user = User.objects.create_user("kara", password="{PASSWORD}")
out.append(tables.quick_play(user).pk)
print(*out)
"""


@pytest.fixture(scope="module")
def games(server, manage) -> dict[str, int]:
    rita, rico, kara = (int(n) for n in manage("shell", "-c", MAKE).split()[-3:])
    return {"rita": rita, "rico": rico, "kara": kara}


def at(browser, server, who: str, game: int, size: str, lang: str = "en"):
    context = browser.new_context(
        viewport=SIZES[size], device_scale_factor=1, has_touch=True, locale="en-US"
    )
    page = context.new_page()
    errors = PageErrors(page)
    log_in(page, server, who, PASSWORD)  # (which puts back the account's language)
    context.add_cookies([{"name": "django_language", "value": lang, "url": server}])
    page.goto(f"{server}/games/{game}/")
    page.locator('#connection[data-state="connected"]').wait_for()
    return context, page, errors


# Whether an element lies wholly on the screen and a tap at its middle reaches it.
REACHABLE = """el => {
  const r = el.getBoundingClientRect();
  if (!r.width || r.left < 0 || r.top < 0 || r.right > innerWidth || r.bottom > innerHeight)
    return false;
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (hit === el || el.contains(hit));
}"""


@pytest.mark.parametrize("lang", ["en", "fil"])
def test_the_result_leads_with_your_outcome_on_one_screen_with_chat_and_menu_in_reach(
    browser, server, games, lang
):
    ARTIFACTS.mkdir(exist_ok=True)
    for size in ("740x360", "360x740"):
        context, page, errors = at(browser, server, "rita", games["rita"], size, lang)
        result = page.locator("#table-result")
        result.wait_for()
        page.wait_for_timeout(300)  # the sheet settles
        page.screenshot(path=ARTIFACTS / f"result-{lang}-{size}.png")
        heading = result.get_by_role("heading", level=2).inner_text()
        if lang == "en":
            assert heading.startswith(("You won ", "You lost ", "You neither")), heading
            assert heading.endswith((" chip", " chips")) or "neither" in heading, heading
        else:
            assert heading.startswith(("Nanalo ka ", "Natalo ka ", "Wala kang")), heading
        sheet = page.locator(".result-sheet")
        box = sheet.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= SIZES[size]["height"] + 1
        if SIZES[size]["width"] > SIZES[size]["height"]:
            # Landscape, one screen (issue 48): the sheet does not scroll.
            assert sheet.evaluate("s => s.scrollHeight <= s.clientHeight + 1"), size
        else:
            # Upright, a winner with many melds may need the sheet to scroll in itself:
            # the way on is in view all the same, and the page never scrolls.
            play_again = result.locator(".result-actions .button").first
            assert play_again.evaluate(REACHABLE), size
            assert page.evaluate("document.scrollingElement.scrollHeight <= innerHeight")
        # Chat and Menu stay in reach above it.
        for summary in ("#chat-sheet > summary", "#menu-sheet > summary"):
            assert page.locator(summary).evaluate(REACHABLE), (summary, size)
        gg = result.locator(".result-gg")
        assert gg.evaluate(REACHABLE)
        if size == "740x360" and lang == "en":
            gg.tap()
            page.locator("#chat-sheet > summary").tap()
            page.locator("#chat-log .chat-line", has_text="Good game").wait_for(timeout=5_000)
        errors.assert_none()
        context.close()


def test_no_guest_line_at_the_table_the_menu_says_it(browser, server):
    context = browser.new_context(viewport=SIZES["740x360"], has_touch=True)
    page = context.new_page()
    page.goto(f"{server}/")
    page.get_by_role("button", name="Play now").tap()
    page.locator('#connection[data-state="connected"]').wait_for()
    assert page.url.rstrip("/").split("/")[-2] == "games"
    assert page.locator(".message-guest").count() == 0
    page.locator("#menu-sheet > summary").tap()
    assert "a guest" in page.locator("#menu-sheet .menu-guest").inner_text()
    context.close()


IN_HAND = "() => !!document.activeElement.closest('#my-hand')"
FOCUS = "() => { const e = document.activeElement; return e.id || e.outerHTML.slice(0, 120); }"


def wait_for_my_move(page) -> str:
    """Wait for this seat's move (Draw, Discard, or Fold a Draw call): its name, or "" when
    the hand ended first (a bot went out while this seat waited)."""
    try:
        name = page.wait_for_function(
            "() => { const r = document.getElementById('table-result');"
            " if (r && r.getClientRects().length) return 'over';"
            " const b = [...document.querySelectorAll('#my-hand button[name=action]')]"
            ".find(b => ['Draw', 'Discard', 'Fold'].includes(b.textContent.trim())"
            " && !b.disabled && b.offsetParent); return b && b.textContent.trim(); }",
            timeout=30_000,
        ).json_value()
        return "" if name == "over" else name
    except Exception as waited:
        shown = page.evaluate(
            "() => [document.querySelector('#table-status')?.innerText,"
            " [...document.querySelectorAll('#my-hand button[name=action]')]"
            ".map(b => b.textContent.trim() + (b.disabled ? ' (disabled)' : '')"
            " + (b.offsetParent ? '' : ' (hidden)')),"
            " document.getElementById('connection')?.dataset.state]"
        )
        raise AssertionError(
            f"no move of this seat came in 30 s; the table showed {shown}"
        ) from waited


def test_the_hand_is_one_tab_away_focus_stays_on_the_board_and_a_card_is_one_name(browser, server):
    context = browser.new_context(viewport=SIZES["360x740"])
    page = context.new_page()
    errors = PageErrors(page)
    page.goto(f"{server}/")
    page.get_by_role("button", name="Play now").click()
    page.locator('#connection[data-state="connected"]').wait_for()
    page.locator("#my-hand .hand-card").first.wait_for()

    # From the page's start: the first Tab is the way to the hand, Enter goes there. The
    # seats' badges and the links in their closed tips are no Tab stops.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.textContent") == "Skip to your hand"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.name") == "cards", page.evaluate(FOCUS)
    assert (
        page.locator(
            "#seats button:not([tabindex='-1']), #seats a[href]:not([tabindex='-1'])"
        ).count()
        == 0
    )
    # Each card is one name and nothing else to a screen reader.
    snapshot = page.locator("#my-hand .hand").aria_snapshot()
    names = page.eval_on_selector_all(
        "#my-hand input[name=cards]",
        "els => els.map(e => document.getElementById(e.getAttribute('aria-labelledby'))"
        ".textContent.split(',')[0].trim())",
    )
    assert len(names) >= 12
    for name in names:
        assert snapshot.count(f'"{name}') == 1, (name, snapshot)
    assert snapshot.count("checkbox") == len(names)

    # Moves by keyboard: after each new board the focus is in the hand, never the page.
    moves = 0
    while moves < 4 and not page.locator("#table-result").is_visible():
        name = wait_for_my_move(page)
        if not name:
            break  # a bot went out before this seat's turn came
        if name == "Discard":
            page.locator("#my-hand input[name=cards]").last.focus()
            page.keyboard.press("Space")
        page.get_by_role("button", name=name, exact=True).focus()
        seq = page.locator("#table-status").get_attribute("data-seq")
        page.keyboard.press("Enter")
        page.wait_for_function(
            "s => document.querySelector('#table-status').dataset.seq !== s", arg=seq
        )
        moves += 1
        page.wait_for_timeout(100)
        if page.locator("#table-result").is_visible():
            break
        assert page.evaluate(IN_HAND), page.evaluate(FOCUS)
        if name == "Discard":
            # While the bots play, focus stays where it is: on the same card.
            page.keyboard.press("ArrowLeft")
            card = page.evaluate(FOCUS)
            page.wait_for_timeout(400)
            if page.locator("#table-result").is_visible():
                break  # a bot went out: focus is on the way on (Play again)
            assert page.evaluate(FOCUS) == card
    errors.assert_none()
    context.close()


# Every button and bar word shown at the table, with its words cut or spilling: "" if none.
CUT = """() => {
  const cut = [];
  const title = document.getElementById('table-title');
  if (title.scrollWidth > title.clientWidth + 1) cut.push('title: ' + title.textContent);
  document.querySelectorAll('.table button, .table summary').forEach(b => {
    const r = b.getBoundingClientRect();
    if (!r.width || b.closest('details:not([open]) > .sheet-body, [hidden]')) return;
    // The words a person sees: text for screen readers only (.visually-hidden) is no word
    // on the screen, wherever its 1 px box lies.
    let spills = false;
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) {
      const node = walker.currentNode;
      if (!node.textContent.trim() || node.parentElement.closest('.visually-hidden')) continue;
      const words = document.createRange();
      words.selectNodeContents(node);
      for (const t of words.getClientRects()) {
        if (t.width && (t.left < r.left - 1 || t.right > r.right + 1)) spills = true;
      }
    }
    const clipped = getComputedStyle(b).overflow !== 'visible' && b.scrollWidth > b.clientWidth + 1;
    const off = r.right > innerWidth + 1 || r.left < -1;
    if (clipped || spills || off) cut.push(b.textContent.trim());
  });
  return cut.join(' | ');
}"""


def test_filipino_at_360_px_cuts_no_word_and_speaks_one_vocabulary(browser, server):
    ARTIFACTS.mkdir(exist_ok=True)
    for lang in ("fil", "en"):
        for size in ("360x740", "740x360"):
            context = browser.new_context(viewport=SIZES[size], has_touch=True)
            context.add_cookies([{"name": "django_language", "value": lang, "url": server}])
            page = context.new_page()
            errors = PageErrors(page)
            page.goto(f"{server}/")
            page.locator(".home-play button").tap()
            page.locator('#connection[data-state="connected"]').wait_for()
            page.locator("#my-hand .hand-card").first.wait_for()
            page.wait_for_timeout(400)  # the dealt cards' fade-in
            # and a bot's discard flying to the pile, if one was on its way
            page.wait_for_function(
                "document.getAnimations().every(a => a.playState !== 'running'"
                " || a.effect.getComputedTiming().endTime === Infinity)",
                timeout=5000,
            )
            page.screenshot(path=ARTIFACTS / f"table-words-{lang}-{size}.png")
            if size == "360x740":
                assert page.evaluate(CUT) == "", (lang, page.evaluate(CUT))
            if lang == "fil":
                # One vocabulary: the hand's count has its plural, and no English verb of
                # the table's own is left on a button.
                assert " cards · " in page.locator("#my-hand .hand-info").inner_text()
                words = " ".join(page.locator(".table button").all_inner_texts())
                for english in ("Fold", "Fight", "Meld", "Lay off", "Draw\n", "Discard"):
                    assert english not in words.split(" "), (english, words)
            errors.assert_none()
            context.close()
