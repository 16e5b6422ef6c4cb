"""The phrases and emotes anyone at a table may send with one tap.

A preset travels and is kept as its key; each reader sees it in her own language (the
Filipino catalogue words them), so a phrase carries nothing a person chose but the key.
An emote is a picture character with a name for screen readers.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

PHRASES = {
    "nice": _("Nice one!"),
    "wow": _("Amazing!"),
    "hurry": _("Hurry up!"),
    "luck": _("Good luck!"),
    "thanks": _("Thanks!"),
    "oops": _("Oops!"),
    "gg": _("Good game"),
    "again": _("One more game?"),
}

# (the character, what a screen reader says)
EMOTES = {
    "happy": ("\N{GRINNING FACE}", _("Happy")),
    "laugh": ("\N{FACE WITH TEARS OF JOY}", _("Laughing")),
    "wow": ("\N{FACE WITH OPEN MOUTH}", _("Surprised")),
    "sad": ("\N{CRYING FACE}", _("Sad")),
    "cool": ("\N{SMILING FACE WITH SUNGLASSES}", _("Cool")),
    "phew": ("\N{SMILING FACE WITH OPEN MOUTH AND COLD SWEAT}", _("Phew")),
}

KEYS = {f"p:{key}" for key in PHRASES} | {f"e:{key}" for key in EMOTES}


def is_preset(key: object) -> bool:
    return isinstance(key, str) and key in KEYS


def words(key: str) -> tuple[str, str]:
    """(what is shown, what a screen reader says) for a preset key, in the active language."""
    kind, _sep, name = key.partition(":")
    if kind == "e" and name in EMOTES:
        char, label = EMOTES[name]
        return char, str(label)
    text = str(PHRASES.get(name, "?"))
    return text, text


def choices() -> list[dict[str, str]]:
    """The drawer's buttons, phrases first, in the active language."""
    out = [{"key": f"p:{k}", "text": str(v), "label": str(v)} for k, v in PHRASES.items()]
    for k, (char, label) in EMOTES.items():
        out.append({"key": f"e:{k}", "text": char, "label": str(label)})
    return out
