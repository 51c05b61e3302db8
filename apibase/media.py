"""Uploaded files answered to someone already checked: the file itself, or a signed URL.

Portraits, map images and handouts are never public. Their views check who asks first (the
sheet's, the campaign's or the handout's permission) and then call :func:`private_file`:

* on disk (``make run``, one machine): the file streamed by Django (``FileResponse``);
* in S3-compatible object storage (``MEDIA_S3_BUCKET``, several web machines): a 302 to a URL
  the storage signs for ``MEDIA_URL_SECONDS`` (60 s by default), carrying the content type, the
  caching and, for a download, the file name the view chose. The file's bytes never pass
  through the web process, and a URL copied out of the page stops working a minute later.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models.fields.files import FieldFile
from django.http import FileResponse, Http404, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.utils.http import content_disposition_header


def signs_urls(storage: Any) -> bool:
    """Whether ``storage`` hands out signed URLs (the S3 backend with query-string auth)."""
    from storages.backends.s3 import S3Storage

    return isinstance(storage, S3Storage) and bool(storage.querystring_auth)


def _signed_url(storage: Any, name: str, parameters: dict[str, str]) -> str:
    url: str = storage.url(name, parameters=parameters, expire=settings.MEDIA_URL_SECONDS)
    return url


def private_file(
    file: FieldFile,
    *,
    content_type: str,
    cache_control: str,
    download_as: str | None = None,
    missing: str = "No such file.",
) -> HttpResponseBase:
    """``file`` for a request already allowed to see it (``missing``: the 404's words)."""
    if not file:
        raise Http404(missing)
    if signs_urls(file.storage):
        parameters = {"ResponseContentType": content_type, "ResponseCacheControl": cache_control}
        if download_as is not None:
            parameters["ResponseContentDisposition"] = str(
                content_disposition_header(as_attachment=True, filename=download_as)
            )
        redirect = HttpResponseRedirect(_signed_url(file.storage, str(file.name), parameters))
        redirect["Cache-Control"] = "private, no-store"  # the signed URL expires: never kept
        return redirect
    try:
        handle = file.open("rb")
    except (FileNotFoundError, ValueError):
        raise Http404(missing) from None
    response = FileResponse(
        handle,
        content_type=content_type,
        as_attachment=download_as is not None,
        filename=download_as or "",
    )
    response["X-Content-Type-Options"] = "nosniff"
    response["Cache-Control"] = cache_control
    return response
