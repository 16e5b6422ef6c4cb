"""The hidden-information scanner shared by the table's tests.

Scans the actual text sent to a seat (a page, a partial, a socket frame) for anything that
seat may not see: another seat's cards, the stock, a secret set's cards, the seed. A card
counts as leaked if its code appears as a token (``data-card="TD"``, ``value="TD"``,
``card-TD``, a bare ``TD``), or its name ("10 of diamonds") or its face ("10♦") appears.
"""

from __future__ import annotations

import re

from games.engine import GameState
from games.engine.cards import cards_of, code, label, short


def hidden_cards(state: GameState, seat: int | None) -> set[int]:
    """What ``seat`` (None: a spectator) may not see in ``state``; nothing once it ended.

    Every secret set counts, the seat's own included: no frame shows a secret set's cards.
    """
    if state.outcome is not None:
        return set()
    hidden = set(state.stock[state.stock_pos :])
    for other in range(3):
        if other != seat:
            hidden.update(cards_of(state.hands[other]))
    for meld in state.melds:
        if meld.secret:
            hidden.update(cards_of(meld.cards))
    return hidden


def leaks(text: str, hidden: set[int], seed: str = "") -> list[str]:
    """Every way ``text`` gives away a hidden card or the seed (empty: no leak)."""
    found = []
    lowered = text.lower()
    for card in sorted(hidden):
        token = re.compile(rf"(?<![A-Za-z0-9]){code(card)}(?![A-Za-z0-9])")
        if token.search(text):
            found.append(f"code {code(card)}")
        if label(card) in lowered:
            found.append(f"name {label(card)!r}")
        if short(card) in text:
            found.append(f"face {short(card)}")
    if seed and seed in text:
        found.append("the seed")
    return found
