"""Fair play (to come): reports, reviews of a player's finished games against the bots'
moves, and the sanctions staff decide.

Reads history and the coach's analyses (never a game in play: hidden cards stay hidden
until the end); staff pages import it, never the other way."""
