"""Django's own strings that our pages show, for our Filipino catalogue.

Django ships no Filipino translation, so the account forms (labels, help, errors) and the
month and day names of dates would stay in English on a Filipino page. Listed here
exactly as Django writes them, `makemessages` keeps them in locale/fil, and ours is the
catalogue Django finds for "fil". Never imported: only read by makemessages.
"""

from django.utils.translation import gettext_noop as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

FORMS = [
    _("This field is required."),
    _("Enter a valid email address."),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
]

AUTH = [
    _("username"),
    _("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    _("A user with that username already exists."),
    _(
        "Enter a valid username. This value may contain only letters, numbers, and "
        "@/./+/-/_ characters."
    ),
    _("Password"),
    _("Password confirmation"),
    _("Enter the same password as before, for verification."),
    _("The two password fields didn’t match."),
    _(
        "Please enter a correct %(username)s and password. Note that both fields may be "
        "case-sensitive."
    ),
    _("This account is inactive."),
    _("Email"),
    _("Old password"),
    _("New password"),
    _("New password confirmation"),
    _("Your old password was entered incorrectly. Please enter it again."),
    _("The password is too similar to the %(verbose_name)s."),
    _("Your password can’t be too similar to your other personal information."),
    _("This password is too common."),
    _("Your password can’t be a commonly used password."),
    _("This password is entirely numeric."),
    _("Your password can’t be entirely numeric."),
    _("email address"),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
]

# How long ago: a stuck game's "quiet for 12 minutes" (timesince).
TIMESINCE = [
    ngettext_lazy("%(num)d year", "%(num)d years", "num"),
    ngettext_lazy("%(num)d month", "%(num)d months", "num"),
    ngettext_lazy("%(num)d week", "%(num)d weeks", "num"),
    ngettext_lazy("%(num)d day", "%(num)d days", "num"),
    ngettext_lazy("%(num)d hour", "%(num)d hours", "num"),
    ngettext_lazy("%(num)d minute", "%(num)d minutes", "num"),
    _(", "),
]

DATES = [
    _("January"),
    _("February"),
    _("March"),
    _("April"),
    _("May"),
    _("June"),
    _("July"),
    _("August"),
    _("September"),
    _("October"),
    _("November"),
    _("December"),
    _("jan"),
    _("feb"),
    _("mar"),
    _("apr"),
    _("may"),
    _("jun"),
    _("jul"),
    _("aug"),
    _("sep"),
    _("oct"),
    _("nov"),
    _("dec"),
    pgettext_lazy("abbrev. month", "Jan."),
    pgettext_lazy("abbrev. month", "Feb."),
    pgettext_lazy("abbrev. month", "March"),
    pgettext_lazy("abbrev. month", "April"),
    pgettext_lazy("abbrev. month", "May"),
    pgettext_lazy("abbrev. month", "June"),
    pgettext_lazy("abbrev. month", "July"),
    pgettext_lazy("abbrev. month", "Aug."),
    pgettext_lazy("abbrev. month", "Sept."),
    pgettext_lazy("abbrev. month", "Oct."),
    pgettext_lazy("abbrev. month", "Nov."),
    pgettext_lazy("abbrev. month", "Dec."),
    _("Monday"),
    _("Tuesday"),
    _("Wednesday"),
    _("Thursday"),
    _("Friday"),
    _("Saturday"),
    _("Sunday"),
    _("Mon"),
    _("Tue"),
    _("Wed"),
    _("Thu"),
    _("Fri"),
    _("Sat"),
    _("Sun"),
    _("AM"),
    _("PM"),
    _("midnight"),
    _("noon"),
]
