"""The API's account endpoints: a username and password for a token, and your own settings."""

from __future__ import annotations

from typing import Any, Final

from axes.exceptions import AxesBackendPermissionDenied
from django.conf import settings
from django.http import HttpResponse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema
from rest_framework.authtoken.serializers import AuthTokenSerializer as DRFAuthTokenSerializer
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.lockout import lockout_response
from accounts.time_zones import known_zones
from accounts.typing import signed_in
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


class AccountSerializer(serializers.Serializer[Any]):
    """The signed-in user's own settings: her name as others see it, her preferred language
    (Django's code, or "" for her browser's) and her time zone ("" for her browser's)."""

    username = serializers.CharField(read_only=True)
    display_name = serializers.CharField(required=False, allow_blank=True, max_length=60)
    language = serializers.ChoiceField(
        choices=[("", "")] + [(code, name) for code, name in settings.LANGUAGES],
        required=False,
        allow_blank=True,
    )
    time_zone = serializers.CharField(required=False, allow_blank=True, max_length=64)

    def validate_time_zone(self, value: str) -> str:
        if value and value not in known_zones():
            raise serializers.ValidationError(_("Not a time zone this site knows."))
        return value


class AccountView(APIView):
    """Your account's settings. PATCH changes only the fields sent; an unknown language or
    zone is a 400 on its field and changes nothing."""

    @extend_schema(responses=AccountSerializer)
    def get(self, request: Request) -> Response:
        return Response(AccountSerializer(signed_in(request)).data)

    @extend_schema(request=AccountSerializer, responses=AccountSerializer)
    def patch(self, request: Request) -> Response:
        user = signed_in(request)
        serializer = AccountSerializer(data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        changed = sorted(serializer.validated_data)
        for name in changed:
            setattr(user, name, serializer.validated_data[name])
        if changed:
            user.save(update_fields=changed)
        return Response(AccountSerializer(user).data)
