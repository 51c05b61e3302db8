"""Account pages. Log in/out and password change are Django's own views (see urls.py)."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from .forms import ProfileForm, SignUpForm


def _next(request: HttpRequest) -> str:
    """Where to go after signing up: a ``next`` on this site (an invitation link), else home.
    Anything pointing elsewhere is ignored, so the page cannot be used to redirect away."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


def signup(request: HttpRequest) -> HttpResponse:
    next_url = _next(request)
    if request.user.is_authenticated:
        return redirect(next_url or "home")
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "home")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": next_url},
        status=400 if form.errors else 200,
    )


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    """Her display name and time zone."""
    form = ProfileForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Profile saved.")
        return redirect("profile")
    return render(
        request, "registration/profile.html", {"form": form}, status=400 if form.errors else 200
    )
