from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import LoginView, LogoutView, PasswordChangeView
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from accounts import sockets
from accounts.forms import ClaimForm, ProfileForm, SignupForm
from accounts.models import Profile, is_guest
from games.notifications import views as notifications
from games.redirects import local_path

# With axes in front, login() must be told which backend vouched for the new user.
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend=MODEL_BACKEND)
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.get_username()})
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """My profile: the player's own page, which everyone else sees too."""
    return redirect("player", request.user.get_username())


@login_required
@require_http_methods(["GET", "POST"])
def account_settings(request: HttpRequest) -> HttpResponse:
    # Two forms on the page: the display name, and Notifications (``part``).
    posted = request.POST if request.method == "POST" else None
    notifying = posted is not None and posted.get("part") == "notifications"
    form = ProfileForm(None if notifying else posted, instance=Profile.for_user(request.user))
    alerts = notifications.preferences_form(request.user, posted if notifying else None)
    if posted is not None:
        done, anchor = (alerts, "#notifications") if notifying else (form, "")
        if done.is_valid():
            done.save()
            messages.success(request, _("Your settings are saved."))
            return redirect(reverse("settings") + anchor)
    context = {
        "form": form,
        "guest": is_guest(request.user),
        "guest_days": settings.TONGITS_GUEST_DAYS,
        **notifications.settings_context(request.user, alerts),
    }
    return render(request, "accounts/settings.html", context)


ALREADY_CLAIMED = gettext_lazy("This account has a username and password already: it is yours.")


@login_required
@require_http_methods(["GET", "POST"])
def claim(request: HttpRequest) -> HttpResponse:
    """A guest chooses a username and password: the same account, its games kept."""
    if not is_guest(request.user):
        messages.info(request, ALREADY_CLAIMED)
        return redirect("settings")
    user = get_user_model().objects.select_related("profile").get(pk=request.user.pk)
    guest_name = user.profile.display_name
    form = ClaimForm(request.POST or None, instance=user)
    if request.method == "POST" and form.is_valid():
        old_key = request.session.session_key
        try:
            with transaction.atomic():
                # Under the profile's lock, so two claims sent at once make one.
                claimed = Profile.objects.select_for_update().filter(user=user, is_guest=True)
                if not claimed.update(
                    is_guest=False, guest_address=None, display_name="", claimed_at=timezone.now()
                ):
                    messages.info(request, ALREADY_CLAIMED)
                    return redirect("settings")
                setattr(user, sockets.NOTICE_SENT_BY_VIEW, True)
                form.save()
        except IntegrityError:
            # Taken by someone else between the form's check and the save.
            form.add_error("username", _("That username was taken just now: choose another."))
        else:
            # Still logged in, under the new password; the session's sockets follow it.
            update_session_auth_hash(request, user)
            sockets.password_changed_here(user, old_key, request.session.session_key)
            messages.success(
                request,
                _(
                    "The account is yours: log in as %(username)s from now on. "
                    "The games of %(guest)s are in My games."
                )
                % {"username": user.get_username(), "guest": guest_name},
            )
            return redirect("my_games")
    context = {"form": form, "guest_name": guest_name, "guest_days": settings.TONGITS_GUEST_DAYS}
    return render(request, "accounts/claim.html", context)


class PasswordChange(PasswordChangeView):
    """Django's, telling the account's other sessions' sockets to close; this session's
    own sockets stay open (Django keeps it logged in under a new key)."""

    def form_valid(self, form):
        old_key = self.request.session.session_key
        setattr(form.user, sockets.NOTICE_SENT_BY_VIEW, True)
        response = super().form_valid(form)
        sockets.password_changed_here(form.user, old_key, self.request.session.session_key)
        return response


class OnlyLocalNext:
    """Django's ``next`` is taken only as a path of this site: it takes a bare word
    ("login?next=abc") as an address relative to the form's, which is a 404 once the
    person has logged in (or out)."""

    def get_redirect_url(self) -> str:
        return local_path(self.request, super().get_redirect_url(), "")


class LogIn(OnlyLocalNext, LoginView):
    pass


class LogOut(OnlyLocalNext, LogoutView):
    pass
