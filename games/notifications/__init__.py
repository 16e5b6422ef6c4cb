"""Notifications (issue 50): telling a person, on their phone (Web Push) or by email, that a
game waits for them, ended, or that a friend asks or challenges; delivered by the background
worker, once per event, honouring their per-kind choices and quiet hours (its own app).

May import play's hooks (a game's end), the stored game, words and the engine; the apps above
(friends, the pages, the wiring) call ``notices.tell``. Never holds a card but a discard."""
