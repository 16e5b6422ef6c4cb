from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import PasswordChangeView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from accounts import sockets
from accounts.forms import ProfileForm, SignupForm
from accounts.models import Profile

# With axes in front, login() must be told which backend vouched for the new user.
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend=MODEL_BACKEND)
        messages.success(request, f"Welcome, {user.get_username()}!")
        return redirect("lobby")
    return render(request, "registration/signup.html", {"form": form})


@login_required
@require_http_methods(["GET", "POST"])
def profile(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=Profile.for_user(request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your profile is saved.")
        return redirect("profile")
    return render(request, "accounts/profile.html", {"form": form})


class PasswordChange(PasswordChangeView):
    """Django's, telling the account's other sessions' sockets to close; this session's
    own sockets stay open (Django keeps it logged in under a new key)."""

    def form_valid(self, form):
        old_key = self.request.session.session_key
        setattr(form.user, sockets.NOTICE_SENT_BY_VIEW, True)
        response = super().form_valid(form)
        sockets.password_changed_here(form.user, old_key, self.request.session.session_key)
        return response
