"""Forms for the GM tools' pages: members' roles, invitations, sessions, notes, handouts and
the dashboard's quick actions. They only parse input; the services decide and refuse, and their
``ValidationError``s come back onto these forms' fields (:func:`add_service_errors`)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

# re-exported: the pages import it from here
from campaign.form_errors import add_service_errors as add_service_errors
from campaign.models import MAX_PROSE, Role
from campaign.services import DiceRequest, DiceRequestError, dice_request_from
from westernroses.catalog import get_catalog

from .awards import award_items_known
from .invitations import DEFAULT_EXPIRY_DAYS, MAX_EXPIRY_DAYS
from .models import AttendanceStatus, GameSession, RsvpAnswer
from .world_calendar import (
    MAX_ADVANCE_DAYS,
    MAX_MONTH_DAYS,
    MAX_MONTHS,
    MAX_YEAR,
    MIN_YEAR,
)

#: How many item lines the award form has without JavaScript.
AWARD_ITEM_LINES = 3


class MemberRoleForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices)


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices, initial=Role.PLAYER)
    expires_in_days = forms.IntegerField(
        label=gettext_lazy("Expires after (days)"),
        min_value=1,
        max_value=MAX_EXPIRY_DAYS,
        initial=DEFAULT_EXPIRY_DAYS,
    )
    max_uses = forms.IntegerField(
        label=gettext_lazy("Uses"),
        min_value=1,
        required=False,
        help_text=gettext_lazy("1: single-use. Empty: no limit."),
    )
    username = forms.CharField(
        label=gettext_lazy("Invite a user by name (optional)"),
        max_length=150,
        required=False,
        help_text=gettext_lazy("They get a notification with the link, and only they can use it."),
    )
    note = forms.CharField(
        label=gettext_lazy("Note"),
        max_length=120,
        required=False,
        help_text=gettext_lazy("Who it is for (GMs only)."),
    )

    def clean_username(self) -> Any:
        username = (self.cleaned_data.get("username") or "").strip()
        if not username:
            return None
        try:
            return get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist:
            raise forms.ValidationError(
                gettext("No user called “%(username)s”.") % {"username": username}
            ) from None


class SessionForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Title"), max_length=120)
    starts_at = forms.DateTimeField(
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M:%S"],
    )
    agenda = forms.CharField(
        label=gettext_lazy("Agenda"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=MAX_PROSE,
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # typed and shown in the viewer's zone (accounts.time_zones), which the label names
        zone = timezone.get_current_timezone_name().replace("_", " ")
        self.fields["starts_at"].label = gettext("Starts at (%(zone)s time)") % {"zone": zone}


class SessionRecordForm(forms.Form):
    """After play: the summary, and each member's attendance (one select per member)."""

    summary = forms.CharField(
        label=gettext_lazy("Summary"),
        widget=forms.Textarea(attrs={"rows": 6}),
        required=False,
        max_length=MAX_PROSE,
    )

    def __init__(self, *args: Any, members: list[Any], attendance: dict[int, str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.members = members
        for m in members:
            self.fields[f"attendance_{m.user_id}"] = forms.ChoiceField(
                label=m.user.shown_name,
                choices=[("", "—"), *AttendanceStatus.choices],
                required=False,
                initial=attendance.get(m.user_id, ""),
            )

    def statuses(self) -> dict[int, str | None]:
        return {
            m.user_id: self.cleaned_data.get(f"attendance_{m.user_id}") or None
            for m in self.members
        }

    def attendance_fields(self) -> list[forms.BoundField]:
        return [self[f"attendance_{m.user_id}"] for m in self.members]


class NoteForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Title"), max_length=120)
    body = forms.CharField(
        label=gettext_lazy("Body"),
        widget=forms.Textarea(attrs={"rows": 5}),
        required=False,
        max_length=MAX_PROSE,
    )
    session = forms.ModelChoiceField(
        label=gettext_lazy("Session"), queryset=GameSession.objects.none(), required=False
    )

    def __init__(self, *args: Any, campaign_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["session"]
        assert isinstance(field, forms.ModelChoiceField)  # noqa: S101 - declared above
        field.queryset = GameSession.objects.filter(campaign_id=campaign_id)


class HandoutForm(forms.Form):
    title = forms.CharField(label=gettext_lazy("Title"), max_length=120)
    body = forms.CharField(
        label=gettext_lazy("Body"),
        widget=forms.Textarea(attrs={"rows": 5}),
        required=False,
        max_length=MAX_PROSE,
    )
    file = forms.FileField(
        label=gettext_lazy("File"),
        required=False,
        help_text=gettext_lazy("Optional: PDF, text or a picture, at most 5 MB."),
    )
    shared_with_all = forms.BooleanField(
        label=gettext_lazy("Share with every member"), required=False, initial=True
    )
    recipients = forms.TypedMultipleChoiceField(
        label=gettext_lazy("…or only with"),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, members: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["recipients"]
        assert isinstance(field, forms.TypedMultipleChoiceField)  # noqa: S101 - declared above
        field.choices = [(m.user_id, m.user.shown_name) for m in members]


# --------------------------------------------------------------------------- quick actions


def _character_ids(party: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(row["id"], row["name"]) for row in party]


class AwardForm(forms.Form):
    characters = forms.TypedMultipleChoiceField(coerce=int)
    yen = forms.IntegerField(
        min_value=0, required=False, initial=0, help_text=gettext_lazy("Per character.")
    )
    reason = forms.CharField(max_length=200, required=False)

    def __init__(self, *args: Any, party: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["characters"]
        assert isinstance(field, forms.TypedMultipleChoiceField)  # noqa: S101 - declared above
        field.choices = _character_ids(party)
        items = [("", "—"), *sorted(award_items_known().items(), key=lambda kv: kv[1])]
        for n in range(1, AWARD_ITEM_LINES + 1):
            self.fields[f"item_{n}"] = forms.ChoiceField(choices=items, required=False)
            self.fields[f"quantity_{n}"] = forms.IntegerField(
                min_value=1, max_value=1000, required=False
            )

    def items(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for n in range(1, AWARD_ITEM_LINES + 1):
            slug = self.cleaned_data.get(f"item_{n}")
            if slug:
                out[slug] = out.get(slug, 0) + (self.cleaned_data.get(f"quantity_{n}") or 1)
        return out


class _OneCharacterForm(forms.Form):
    character = forms.TypedChoiceField(coerce=int)

    def __init__(self, *args: Any, party: list[dict[str, Any]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["character"]
        assert isinstance(field, forms.TypedChoiceField)  # noqa: S101 - declared above
        field.choices = _character_ids(party)


class HealForm(_OneCharacterForm):
    amount = forms.IntegerField(
        min_value=1, max_value=100_000, required=False, help_text=gettext_lazy("Empty: heal fully.")
    )


class StatusForm(_OneCharacterForm):
    status = forms.ChoiceField(choices=())
    action = forms.ChoiceField(
        choices=[("apply", "Apply"), ("clear", "Clear")], initial="apply", required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["status"]
        assert isinstance(field, forms.ChoiceField)  # noqa: S101 - declared above
        field.choices = [(s.slug, s.name) for s in get_catalog().status_effects.values()]


class LevelUpForm(_OneCharacterForm):
    levels = forms.IntegerField(min_value=1, max_value=10, initial=1)


class NpcRollForm(forms.Form):
    npc = forms.TypedChoiceField(coerce=int, required=False, empty_value=None)
    notation = forms.CharField(max_length=60, help_text=gettext_lazy("e.g. 4d+2"))
    target = forms.IntegerField(required=False, min_value=-1000, max_value=2000)
    label = forms.CharField(max_length=100, required=False)
    secret = forms.BooleanField(
        required=False, initial=True, help_text=gettext_lazy("Only the GMs see it.")
    )

    def __init__(self, *args: Any, party: list[dict[str, Any]], rules: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        field = self.fields["npc"]
        assert isinstance(field, forms.TypedChoiceField)  # noqa: S101 - declared above
        field.choices = [("", "— nobody in particular —")] + [
            (row["id"], row["name"]) for row in party if row["is_npc"]
        ]
        self.rules = rules
        self.dice_request: DiceRequest | None = None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            self.dice_request = dice_request_from(
                notation=data.get("notation") or "", target=data.get("target"), rules=self.rules
            )
        except DiceRequestError as exc:
            self.add_error(exc.field if exc.field in self.fields else "notation", str(exc))
        return data


# --------------------------------------------------------------------------- calendar, RSVP


class RsvpForm(forms.Form):
    answer = forms.ChoiceField(choices=RsvpAnswer.choices, label=gettext_lazy("Will you come?"))
    note = forms.CharField(max_length=200, required=False, label=gettext_lazy("Note (optional)"))


class DateAdvanceForm(forms.Form):
    days = forms.IntegerField(
        min_value=-MAX_ADVANCE_DAYS,
        max_value=MAX_ADVANCE_DAYS,
        initial=1,
        label=gettext_lazy("Days"),
    )


class DateSetForm(forms.Form):
    year = forms.IntegerField(label=gettext_lazy("Year"), min_value=MIN_YEAR, max_value=MAX_YEAR)
    month = forms.IntegerField(label=gettext_lazy("Month"), min_value=1, max_value=MAX_MONTHS)
    day = forms.IntegerField(label=gettext_lazy("Day"), min_value=1, max_value=MAX_MONTH_DAYS)


class WorldEventForm(DateSetForm):
    title = forms.CharField(label=gettext_lazy("Title"), max_length=120)
    body = forms.CharField(
        label=gettext_lazy("Body"),
        widget=forms.Textarea(attrs={"rows": 2}),
        required=False,
        max_length=MAX_PROSE,
    )
    gm_only = forms.BooleanField(required=False, label=gettext_lazy("Only the GMs see it"))
    session = forms.ModelChoiceField(
        queryset=GameSession.objects.none(),
        required=False,
        label=gettext_lazy("Happened in session"),
    )
    wiki_entry = forms.TypedChoiceField(
        label=gettext_lazy("About the wiki entry"),
        coerce=int,
        required=False,
        empty_value=None,
        choices=[("", gettext_lazy("No wiki entry"))],
    )

    def __init__(
        self,
        *args: Any,
        campaign_id: int,
        entries: list[tuple[int, str]] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["session"]
        if isinstance(field, forms.ModelChoiceField):
            field.queryset = GameSession.objects.filter(campaign_id=campaign_id)
        # The campaign's own entries, by title (gmtools.world.entry_choices)
        self.fields["wiki_entry"].choices = [("", gettext("No wiki entry")), *(entries or [])]  # type: ignore[attr-defined]


class CalendarDefineForm(forms.Form):
    months = forms.CharField(
        label=gettext_lazy("Months"),
        widget=forms.Textarea(attrs={"rows": 6}),
        required=False,
        max_length=4000,
        help_text=gettext_lazy(
            "One month a line: name, days, season. Leave months and weekdays empty "
            "for the Gregorian year."
        ),
    )
    weekdays = forms.CharField(
        label=gettext_lazy("Weekdays"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        max_length=1000,
        help_text=gettext_lazy("One weekday a line."),
    )

    def clean_months(self) -> list[dict[str, Any]]:
        months = []
        for number, line in enumerate(self.cleaned_data["months"].splitlines(), start=1):
            if not line.strip():
                continue
            parts = [p.strip() for p in line.split(",")]
            if len(parts) < 2 or not parts[1].isdigit():
                raise forms.ValidationError(
                    gettext(
                        "Line %(number)s: write the month's name, its number of days and "
                        "its season."
                    )
                    % {"number": number}
                )
            months.append(
                {"name": parts[0], "days": int(parts[1][:4]), "season": ", ".join(parts[2:])}
            )
        return months

    def clean_weekdays(self) -> list[str]:
        return [w.strip() for w in self.cleaned_data["weekdays"].splitlines() if w.strip()]
