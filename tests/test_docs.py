"""The README stays a front door and the docs stay readable (issue 47): the README in at
most 200 lines, every link between the pages reaching a page and a heading that exist, and
each doc that keeps experiments opening with how it works now and its figures now."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
README_LINES = 200
PAGES = [REPO / "README.md", REPO / "bench" / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def headings(text: str) -> list[str]:
    """The Markdown headings outside code blocks."""
    found, fenced = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and (m := re.match(r"^#{1,6} (.*)$", line)):
            found.append(m.group(1).strip())
    return found


def anchors(text: str) -> set[str]:
    """The ids GitHub gives the headings: lower case, punctuation dropped, spaces as
    hyphens, a repeated one numbered."""
    seen: dict[str, int] = {}
    out = set()
    for heading in headings(text):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def broken_links(page: Path) -> list[str]:
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked.read_text()):
            broken.append(f"{target}: no such heading")
    return broken


def test_the_readme_is_a_front_door_of_at_most_200_lines():
    lines = (REPO / "README.md").read_text().count("\n")
    assert lines <= README_LINES, f"README.md has {lines} lines; move the detail to docs/"


def test_every_link_between_the_pages_reaches_a_page_and_a_heading_that_exist():
    broken = {p.relative_to(REPO).as_posix(): broken_links(p) for p in PAGES}
    assert {page: links for page, links in broken.items() if links} == {}


def test_the_link_check_finds_a_missing_page_and_a_missing_heading(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## Figures now\n")
    page = tmp_path / "page.md"
    page.write_text("[a](other.md#figures-now) [b](gone.md) [c](other.md#lab-notes)\n")
    assert broken_links(page) == ["gone.md: no such file", "other.md#lab-notes: no such heading"]


def test_a_doc_that_keeps_experiments_opens_with_how_it_works_now_and_its_figures_now():
    for page in sorted((REPO / "docs").glob("*.md")):
        text = page.read_text()
        top = [
            h for h in headings(text) if re.match(r"^(How it works now|Figures now|Lab notes)$", h)
        ]
        if "Lab notes" not in top:
            continue
        assert top == ["How it works now", "Figures now", "Lab notes"], page.name
        figures = text.split("\n## Figures now\n", 1)[1].split("\n## ", 1)[0]
        # The figures' command, and when they were measured.
        assert re.search(r"`(python -m bench\.|manage\.py )", figures), page.name
        assert re.search(r"\b20\d\d\b", figures), page.name
