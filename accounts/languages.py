"""The player's language: chosen with the switch in the menu or the footer (Django's
set_language, which keeps it in a cookie), kept in a signed-in player's profile, and put
back when they log in, on any device. A first visit follows the browser (LocaleMiddleware
reads Accept-Language); nothing in the URL says the language."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language

from accounts.models import Profile
from tongits_site.middleware import _TAGALOG

# Set on a request by a log-in whose profile holds a language: the response sets the cookie.
LOGIN_LANGUAGE = "_language_from_profile"


def known(code: str | None) -> bool:
    return bool(code) and code in dict(settings.LANGUAGES)


def remember(user: AbstractBaseUser, code: str) -> None:
    Profile.objects.update_or_create(user=user, defaults={"language": code})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's set_language (a cookie, then back to ``next``), and for a signed-in player
    the choice saved in their profile as well."""
    response = django_set_language(request)
    code = request.POST.get("language")
    if request.user.is_authenticated and known(code):
        remember(request.user, code)
    return response


@receiver(user_logged_in)
def apply_profile_language(sender, request, user, **kwargs) -> None:
    """At log-in, the language of the player's profile is the session's; a profile with
    none yet keeps the language in use now (the browser's or the switch's)."""
    if getattr(request, "LANGUAGE_CODE", None) is None:
        return  # not a request LocaleMiddleware saw (a test's force_login)
    profile = Profile.for_user(user)
    if known(profile.language):
        translation.activate(profile.language)
        request.LANGUAGE_CODE = profile.language
        setattr(request, LOGIN_LANGUAGE, profile.language)
    elif known(request.LANGUAGE_CODE):
        remember(user, request.LANGUAGE_CODE)


def set_cookie(response: HttpResponse, code: str) -> None:
    """The cookie Django's set_language sets, with the same settings."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class ProfileLanguageCookie:
    """Middleware: after a log-in that put the profile's language back, the browser keeps
    it too (the cookie LocaleMiddleware reads on the next requests)."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        code = getattr(request, LOGIN_LANGUAGE, None)
        if code:
            set_cookie(response, code)
        return response


class _Handshake:
    """What LocaleMiddleware reads of a request, from a socket's handshake."""

    def __init__(self, scope) -> None:
        self.COOKIES = scope.get("cookies") or {}
        accept = next(
            (v for k, v in scope.get("headers", ()) if k.lower() == b"accept-language"), b""
        )
        self.META = {"HTTP_ACCEPT_LANGUAGE": _TAGALOG.sub("fil", accept.decode("latin-1"))}
        self.path_info = scope.get("path", "/")


def of_socket(scope) -> str:
    """A socket's language, found as LocaleMiddleware finds a page's: the switch's cookie,
    else the browser's Accept-Language (Tagalog read as Filipino), else the site's. The
    page that opened the socket was in the same language; a switch reloads the page,
    and so opens a new socket."""
    return translation.get_language_from_request(_Handshake(scope))
