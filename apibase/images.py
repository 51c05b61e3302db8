"""Uploaded pictures checked by their content, never their name (portraits, battle maps).

One check for every upload of a picture, so a lie in a file's name or ``Content-Type`` is caught
the same way everywhere: Pillow reads the header and verifies the data, a decompression bomb is
refused before it is decoded, and the size, format and sides are bounded. The callers turn the
refusal into their own error (a form field, a 400 with field errors) with the words given here,
in the language of the request the upload came with (``gettext`` when refused).
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile


class ImageRefused(ValueError):
    """The upload is not an acceptable picture; ``str(exc)`` says why, in words."""


@dataclass(frozen=True, slots=True)
class CheckedImage:
    extension: str
    content_type: str
    width: int
    height: int


@dataclass(frozen=True, slots=True)
class ImageRules:
    """What one kind of upload accepts: ``formats`` maps Pillow's format name to the stored
    extension and content type; ``what`` names the upload in messages ("The map is 9.1 MB"),
    and it and ``not_an_image`` are lazy translations (``gettext_lazy``), read in the language
    of the request that is refused."""

    what: str | Promise
    formats: Mapping[str, tuple[str, str]]
    max_bytes: int
    min_side: int
    max_side: int
    not_an_image: str | Promise

    def kinds(self) -> str:
        """The accepted formats in words: "PNG, JPEG or WebP" (「PNG、JPEG または WebP」)."""
        names = [{"WEBP": "WebP"}.get(name, name) for name in self.formats]
        if len(names) == 1:
            return names[0]
        some = pgettext("between list items", ", ").join(names[:-1])
        return gettext("%(some)s or %(last)s") % {"some": some, "last": names[-1]}


def image_check(file: UploadedFile[bytes], rules: ImageRules) -> CheckedImage:
    """``file`` as a picture ``rules`` accept, else :class:`ImageRefused` in words. The file is
    left at its start for whoever stores it."""
    from PIL import Image, UnidentifiedImageError

    size = file.size or 0
    if size > rules.max_bytes:
        raise ImageRefused(
            gettext("The %(what)s is %(size)s MB; upload at most %(most)s MB.")
            % {
                "what": rules.what,
                "size": number_format(size / 1024 / 1024, 1),
                "most": rules.max_bytes // 1024 // 1024,
            }
        )
    if size == 0:
        raise ImageRefused(gettext("The file is empty."))
    file.seek(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(file) as image:
                kind = image.format
                width, height = image.size
                image.verify()
    except (UnidentifiedImageError, Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise ImageRefused(str(rules.not_an_image)) from None
    except (OSError, SyntaxError, ValueError):
        raise ImageRefused(gettext("The image is damaged or incomplete.")) from None
    finally:
        file.seek(0)
    if kind is None or kind not in rules.formats:
        raise ImageRefused(
            gettext("%(kind)s images are not accepted; upload a %(kinds)s picture.")
            % {"kind": kind, "kinds": rules.kinds()}
        )
    low, high = rules.min_side, rules.max_side
    if not (low <= width <= high and low <= height <= high):
        raise ImageRefused(
            gettext(
                "The image is %(width)s×%(height)s pixels; each side must be between %(low)s "
                "and %(high)s."
            )
            % {"width": width, "height": height, "low": low, "high": high}
        )
    extension, content_type = rules.formats[kind]
    return CheckedImage(extension, content_type, width, height)
