"""A service's refusal onto a form, shared by every app's pages (part of the campaign core, so
every app above it, notifications included, may use it)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import ValidationError


def add_service_errors(form: forms.Form, exc: ValidationError) -> None:
    """Put a service's refusal beside the form's fields (unknown fields at the top)."""
    if hasattr(exc, "error_dict"):
        for field, errors in exc.message_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, exc.messages)
