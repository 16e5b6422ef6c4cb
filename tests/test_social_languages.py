"""Filipino covers friends and table talk (issue 27): every string marked for translation
in games/social (its Python and the templates of friends and chat) has a Filipino
translation in the catalogue. The strings are found as ``makemessages`` finds them
(Django's template reader, then xgettext), without touching the catalogue."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils.translation.template import templatize

from tests.test_languages import PO, REPO, _po_entries

SOURCES = [
    *sorted(p for p in (REPO / "games" / "social").rglob("*.py") if "migrations" not in p.parts),
]
TEMPLATES = [
    *sorted((REPO / "templates" / "social").glob("*.html")),
    *sorted((REPO / "templates" / "chat").glob("*.html")),
]
# Django's own keywords for xgettext (as makemessages gives them), besides its defaults.
KEYWORDS = [
    "gettext_noop", "gettext_lazy", "ngettext_lazy:1,2", "pgettext:1c,2", "npgettext:1c,2,3",
    "pgettext_lazy:1c,2", "npgettext_lazy:1c,2,3",
]  # fmt: skip


def used_msgids(tmp_path: Path) -> set:
    """The catalogue's keys (``ctx\\x04id``, or (id, n) for plurals) these files use."""
    files = [str(p) for p in SOURCES]
    for path in TEMPLATES:
        made = tmp_path / (path.parent.name + "-" + path.name + ".py")
        made.write_text(templatize(path.read_text(encoding="utf-8"), origin=str(path)))
        files.append(str(made))
    found = subprocess.run(
        ["xgettext", "--language=Python", "--from-code=UTF-8", "--output=-",
         *(f"--keyword={k}" for k in KEYWORDS), *files],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return set(_po_entries(found))


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="needs GNU gettext's xgettext")
def test_every_string_of_friends_and_chat_has_a_filipino_translation(tmp_path):
    used = used_msgids(tmp_path)
    catalogue = _po_entries(PO.read_text(encoding="utf-8"))

    assert len(used) > 100  # the files were read
    missing = sorted(str(key) for key in used if not catalogue.get(key))
    assert missing == []
