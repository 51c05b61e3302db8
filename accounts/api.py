"""Token authentication for the API: a username and password for a token."""

from __future__ import annotations

from typing import Any, Final

from axes.exceptions import AxesBackendPermissionDenied
from django.http import HttpResponse
from rest_framework.authtoken.serializers import AuthTokenSerializer as DRFAuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.lockout import lockout_response
from apibase import serializers
from apibase.parsers import BoundedJSONParser
from apibase.throttles import AuthRateThrottle, AuthUserRateThrottle

#: User names are at most 150 characters (the user model's field); a password longer than this
#: is no one's, and hashing megabytes of one would be work done for an attacker.
MAX_USERNAME: Final = 150
MAX_PASSWORD: Final = 1024


class AuthTokenSerializer(DRFAuthTokenSerializer):
    """DRF's, with both fields bounded (same name, so the schema's component is unchanged)."""

    username = serializers.CharField(label="Username", write_only=True, max_length=MAX_USERNAME)
    password = serializers.CharField(
        label="Password",
        style={"input_type": "password"},
        trim_whitespace=False,
        write_only=True,
        max_length=MAX_PASSWORD,
    )


class ObtainTokenView(ObtainAuthToken):
    """Exchange a username and password for an API token (``Authorization: Token <key>``).

    Bounded JSON like every endpoint (it answers anonymous callers), and throttled per client
    address and per user name on top of the account lockout, with the log-in page's counts
    (:mod:`accounts.views`), so passwords cannot be guessed at speed."""

    parser_classes = (FormParser, MultiPartParser, BoundedJSONParser)
    serializer_class = AuthTokenSerializer
    throttle_classes = (AuthRateThrottle, AuthUserRateThrottle)

    # DRF answers whatever HttpResponse a view returns; its stubs narrow this one to Response.
    def post(  # type: ignore[override]
        self, request: Request, *args: Any, **kwargs: Any
    ) -> Response | HttpResponse:
        # django-axes marks the request it was given, which here is DRF's wrapper, so its
        # middleware never sees the lockout: answer it here, in the same words and status.
        try:
            return super().post(request, *args, **kwargs)
        except AxesBackendPermissionDenied:
            return lockout_response(request._request)
        except ValidationError:
            if getattr(request, "axes_locked_out", False):
                return lockout_response(request._request)
            raise
