"""Account pages. Log out, password change and reset are Django's own views (see urls.py); log
in is Django's with the same limits as the API's token endpoint, and sign-up is limited per
address."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views import i18n
from django.views.decorators.http import require_POST
from django_stubs_ext import StrOrPromise

from apibase.throttles import (
    AuthRateThrottle,
    AuthUserRateThrottle,
    PasswordResetEmailThrottle,
    PasswordResetRateThrottle,
    SignupRateThrottle,
)

from .forms import ProfileForm, SignUpForm
from .languages import supported
from .lockout import wait_words

#: What each limit says when it refuses, with the wait in words.
_REFUSALS: dict[type[AuthRateThrottle], StrOrPromise] = {
    AuthRateThrottle: _("Too many log-in attempts from your address."),
    AuthUserRateThrottle: _("Too many log-in attempts for this account."),
    SignupRateThrottle: _("Too many sign-ups from your address."),
    PasswordResetRateThrottle: _("Too many password resets asked for from your address."),
    PasswordResetEmailThrottle: _("Too many password resets asked for that email address."),
}


def _over_limit(request: HttpRequest, *throttles: AuthRateThrottle) -> HttpResponse | None:
    """A 429 page (with ``Retry-After``) when any of ``throttles`` refuses this request, which
    each of them counts; None when all allow it."""
    for throttle in throttles:
        if throttle.allow_request(request, None):
            continue
        seconds = max(1, math.ceil(throttle.wait() or 60))
        message = gettext("%(refusal)s Try again in %(wait)s.") % {
            "refusal": _REFUSALS[type(throttle)],
            "wait": wait_words(seconds),
        }
        response = render(request, "registration/locked_out.html", {"message": message}, status=429)
        response["Retry-After"] = str(seconds)
        return response
    return None


class LoginView(auth_views.LoginView):
    """Django's log-in page, counted per address and per user name with the token endpoint
    (the same throttles and counters), besides django-axes' lockout of a name and address."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refused = _over_limit(request, AuthRateThrottle(), AuthUserRateThrottle())
        return refused or super().post(request, *args, **kwargs)


class LanguagePasswordResetForm(PasswordResetForm):
    """Django's form, writing each account's email in that account's preferred language (the
    request's when she has none: she is probably the one asking)."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        from django.utils import translation

        user = context.get("user")
        code = getattr(user, "language", "") or translation.get_language()
        with translation.override(code):
            super().send_mail(
                subject_template_name,
                email_template_name,
                context,
                from_email,
                to_email,
                html_email_template_name,
            )


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset by email, limited per client address and per email address.
    Django's view answers the same page whether or not an account has the address (and sends
    nothing when none has), so the form tells no one who has an account. The link in the
    email starts from ``SITE_URL``, as every email's links do."""

    form_class = LanguagePasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refused = _over_limit(request, PasswordResetRateThrottle(), PasswordResetEmailThrottle())
        return refused or super().post(request, *args, **kwargs)

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        self.extra_email_context = {"site_url": str(settings.SITE_URL).rstrip("/")}
        return super().form_valid(form)


def _next(request: HttpRequest) -> str:
    """Where to go after signing up: a ``next`` on this site (an invitation link), else home.
    Anything pointing elsewhere is ignored, so the page cannot be used to redirect away."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    # a path on this site: anything else ("a b") would be taken for a URL name by redirect()
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def signup(request: HttpRequest) -> HttpResponse:
    next_url = _next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    if request.method == "POST":
        refused = _over_limit(request, SignupRateThrottle())
        if refused is not None:
            return refused
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="accounts.backends.CachedModelBackend")
        return redirect(next_url or "home")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": next_url},
        status=400 if form.errors else 200,
    )


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """Her display name, language and time zone. The note that it is saved is in the language
    she chose (the next page is too)."""
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        translation.activate(user.language or translation.get_language_from_request(request))
        messages.success(request, gettext("Profile saved."))
        return redirect("profile")
    return render(
        request, "registration/profile.html", {"form": form}, status=400 if form.errors else 200
    )


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The header's switcher: Django's ``set_language`` (the language cookie, back to ``next``),
    and for a signed-in user her account's preferred language too, so every device she signs in
    on speaks it. A language the site does not have is refused (400) and nothing changes."""
    code = request.POST.get("language", "")
    if not supported(code):
        return HttpResponseBadRequest(
            gettext("%(code)s is not one of this site's languages.") % {"code": code[:20]},
            content_type="text/plain; charset=utf-8",
        )
    response = i18n.set_language(request)
    user = request.user
    if user.is_authenticated and getattr(user, "language", None) != code:
        user.language = code
        user.save(update_fields=["language"])
    return response
