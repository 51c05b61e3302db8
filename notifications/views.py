"""Notification pages: the list with mark-as-read, preferences, and a campaign's webhook.

Views parse input and render; writes go through :mod:`.services`. A notification id that is not
the user's answers 404, like one that does not exist.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from accounts.typing import AuthedRequest
from campaign.form_errors import add_service_errors
from campaign.models import Role
from campaign.permissions import campaign_for
from notifications.models import Notification, PushSubscription

from . import selectors, services, webpush
from .forms import CampaignWebhookForm, PreferencesForm

PAGE_SIZE = 50


@login_required
def notification_list(request: AuthedRequest) -> HttpResponse:
    page = Paginator(selectors.inbox(request.user), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "notifications/list.html", {"page": page})


def _back(request: HttpRequest) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(target)
    return redirect("notifications:list")


@login_required
@require_http_methods(["POST"])
def notification_read(request: AuthedRequest, pk: int) -> HttpResponse:
    try:
        services.notification_mark_read(user=request.user, notification_id=pk)
    except Notification.DoesNotExist:
        raise Http404("No such notification.") from None
    return _back(request)


@login_required
@require_http_methods(["POST"])
def notification_read_all(request: AuthedRequest) -> HttpResponse:
    count = services.notifications_mark_all_read(user=request.user)
    if count:
        messages.success(request, f"Marked {count} notification{'s' if count != 1 else ''} read.")
    return _back(request)


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: AuthedRequest) -> HttpResponse:
    pref = selectors.preference_for(request.user)
    form = PreferencesForm(request.POST or None, preference=pref)
    if request.method == "POST" and form.is_valid():
        try:
            services.preferences_update(
                user=request.user,
                channels=form.channels(),
                quiet=form.cleaned_data["quiet"],
                digest_minutes=form.cleaned_data["digest_minutes"],
                webhook_url=form.cleaned_data["webhook_url"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, "Notification preferences saved.")
            return redirect("notifications:preferences")
    gm_campaigns = request.user.memberships.filter(role=Role.GM).select_related("campaign")
    context = {
        "form": form,
        "gm_campaigns": [m.campaign for m in gm_campaigns],
        "push": {
            "available": webpush.available(),
            "public_key": webpush.public_key(),
            "devices": list(selectors.push_devices(request.user)),
        },
    }
    return render(request, "notifications/preferences.html", context, status=_status(form))


@login_required
@require_http_methods(["POST"])
def push_device_remove(request: AuthedRequest, pk: int) -> HttpResponse:
    """Stop push notifications to one of her devices (someone else's: 404)."""
    try:
        services.push_subscription_remove(user=request.user, subscription_id=pk)
    except PushSubscription.DoesNotExist:
        raise Http404("No such device.") from None
    messages.success(request, "The device no longer receives push notifications.")
    return redirect(f"{reverse('notifications:preferences')}#push-devices")


def _status(form: PreferencesForm | CampaignWebhookForm) -> int:
    return 400 if form.is_bound and form.errors else 200


@login_required
@require_http_methods(["GET", "POST"])
def campaign_webhook(request: HttpRequest, pk: int) -> HttpResponse:
    """A campaign's webhook settings: outsiders 404, players 403, GMs edit."""
    campaign, access = campaign_for(request.user, pk, manage=True)
    config = selectors.campaign_settings_for(campaign)
    initial = {
        "webhook_url": config.webhook_url,
        "events": list(config.events or []),
        "digest_minutes": config.digest_minutes,
    }
    form = CampaignWebhookForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.campaign_settings_update(
                campaign=campaign,
                by=access,
                webhook_url=form.cleaned_data["webhook_url"],
                events=form.cleaned_data["events"],
                digest_minutes=form.cleaned_data["digest_minutes"],
            )
        except ValidationError as exc:
            add_service_errors(form, exc)
        else:
            messages.success(request, f"Webhook settings of “{campaign.name}” saved.")
            return redirect("notifications:campaign_webhook", campaign.pk)
    context = {"form": form, "campaign": campaign, "access": access}
    return render(request, "notifications/campaign_webhook.html", context, status=_status(form))
