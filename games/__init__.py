"""Tongits: the game, played live, told, kept and replayed (one Django app, "games").

Grouped by capability; each package's docstring says what it owns and what it may import.
Imports point one way, from the top of this list down (pyproject.toml's import-linter
contracts; tests/test_architecture.py checks them and that no modules form a circle):

    urls, routing, admin, management   wiring: routes, sockets' routes, admin, commands
    sockets/        the table's and the lobby's WebSockets
    views/          the site's pages: home, lobby, table, how to play
    social/         friends, blocks, presence, challenges, rematch; chat/, a table's talk
    tournaments/    arena tournaments: scoring, pairing, the pages, the record
    fairplay/       pairs of accounts playing as one: evidence, the test, the staff page
    notifications/  Web Push and email: your turn, a game's end, challenges, the digest
    daily/          the daily deal: one deal a day for all, par, the duplicate score
    correspondence/ tables that wait days: Your turn, the badge, vacations
    history/        finished games: stats, records in and out, charts, history, replays
    analysis/       the coach (its own app: models, worker, views on the replay page)
    table/          what a seat is shown: context, HTML parts, the story, card markup
    play/           live play: the service that appends moves, the clock, live/
    words/          what the game says: narration, card names, rule messages, text
    bots/           the bots, from a seat's view alone
    engine/         the pure rules engine (no Django, clock or unseeded randomness)

Beside the layers, imported from any of them: models.py (the stored game), forms.py,
access.py (who may see a game), htmx.py, and the apps series/ and ratings/, whose sums
(models, ledger, record, hooks, core) sit below play and whose pages sit above it.
Migrations, admin and template tag libraries stay where Django looks for them.
"""
