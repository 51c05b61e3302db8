"""Uploads in S3-compatible object storage (issue 41, "Many machines": "uploads in
S3-compatible object storage through django-storages, served to members only through signed,
short-lived URLs (tested against a local S3-compatible server)"; apibase/media.py).

The server is moto's (a real HTTP server on loopback that speaks S3); the storage is
django-storages' S3 backend configured as ``MEDIA_S3_BUCKET`` configures it. Files are written
through the models' own fields, stored private, read back over HTTP from the signed URL the app
hands out (its lifetime the setting's), and refused to anyone who may not see them. Moto does
not enforce signatures or expiry: that the URL is signed is checked in the URL itself.
"""

from __future__ import annotations

import io
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

import boto3
import pytest
from django.core.files.base import ContentFile
from moto.server import ThreadedMotoServer
from PIL import Image

from gmtools.models import Handout
from tests.factories import CharacterFactory
from tests.load.processes import free_port

BUCKET = "wr-media"
KEYS = {"access_key": "test-key", "secret_key": "test-secret"}  # moto's, not real


@pytest.fixture(scope="module")
def s3_endpoint() -> Iterator[str]:
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    client = boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=KEYS["access_key"],
        aws_secret_access_key=KEYS["secret_key"],
    )
    client.create_bucket(Bucket=BUCKET)
    try:
        yield endpoint
    finally:
        server.stop()


@pytest.fixture
def in_object_storage(settings: Any, s3_endpoint: str) -> Any:
    """The settings MEDIA_S3_BUCKET gives (config/settings/base.py), pointed at the server."""
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "storages.backends.s3.S3Storage",
            "OPTIONS": {
                "bucket_name": BUCKET,
                "endpoint_url": s3_endpoint,
                "region_name": "us-east-1",
                **KEYS,
                "addressing_style": "path",
                "signature_version": "s3v4",
                "default_acl": "private",
                "querystring_auth": True,
                "querystring_expire": 60,
                "file_overwrite": False,
            },
        },
    }
    settings.MEDIA_URL_SECONDS = 60
    return settings


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (4, 4), (200, 30, 40)).save(out, format="PNG")
    return out.getvalue()


def _fetch(url: str) -> tuple[int, bytes, Any]:
    """Status, body and headers (read without regard to case) of a GET of ``url``."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:  # noqa: S310 - loopback
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers


def _bucket(endpoint: str) -> Any:
    return boto3.client(
        "s3",
        endpoint_url=endpoint,
        region_name="us-east-1",
        aws_access_key_id=KEYS["access_key"],
        aws_secret_access_key=KEYS["secret_key"],
    )


def _query(url: str) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


@pytest.mark.django_db
def test_a_portrait_lives_in_the_bucket_and_reaches_only_who_may_see_it(
    in_object_storage, client_for, player, outsider, campaign, s3_endpoint
):
    character = CharacterFactory(owner=player, campaign=campaign)
    image = _png()
    character.portrait.save("reimu.png", ContentFile(image))
    bucket = _bucket(s3_endpoint)
    stored = bucket.head_object(Bucket=BUCKET, Key=character.portrait.name)
    assert stored["ContentLength"] == len(image)
    grants = bucket.get_object_acl(Bucket=BUCKET, Key=character.portrait.name)["Grants"]
    assert all("URI" not in g["Grantee"] for g in grants)  # private: no grant to everyone

    answer = client_for(player).get(f"/characters/{character.pk}/portrait/")
    assert answer.status_code == 302 and answer["Cache-Control"] == "private, no-store"
    url = answer["Location"]
    signed = _query(url)
    assert url.startswith(s3_endpoint) and signed["X-Amz-Expires"] == "60"
    assert signed["X-Amz-Credential"].startswith("test-key/") and signed["X-Amz-Signature"]
    status, body, headers = _fetch(url)
    assert (status, body) == (200, image)
    assert headers.get("Content-Type") == "image/png"
    assert headers.get("Cache-Control") == "private, max-age=300"

    refused = client_for(outsider).get(f"/characters/{character.pk}/portrait/")
    assert refused.status_code == 404 and not refused.has_header("Location")


@pytest.mark.django_db
def test_a_handout_downloads_under_its_own_name_from_a_url_signed_for_the_setting(
    in_object_storage, client_for, gm, player, campaign
):
    handout = Handout.objects.create(
        campaign=campaign, author=gm, title="Map of the mansion", file_name="mansion plan.txt"
    )
    handout.file.save("plan.txt", ContentFile(b"the library is in the basement"))
    in_object_storage.MEDIA_URL_SECONDS = 30

    answer = client_for(player).get(f"/campaigns/{campaign.pk}/handouts/{handout.pk}/file/")
    assert answer.status_code == 302
    assert _query(answer["Location"])["X-Amz-Expires"] == "30"
    status, body, headers = _fetch(answer["Location"])
    assert (status, body) == (200, b"the library is in the basement")
    assert headers.get("Content-Disposition") == 'attachment; filename="mansion plan.txt"'
