"""What was left in English beside the wiki's and the sheet's words (issue 42), in Japanese and
Simplified Chinese: a stat block's weapons and element (the catalog's names, read through the
data words), a natural weapon a person named (kept as written, marked as not for translating),
and the refusals of a picture upload, in the language of the request that sent it."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from battles.models import BattleMap
from campaign.permissions import access_for
from tests.battles.test_maps import image, media  # noqa: F401 - ``media``: a fixture used by name
from tests.factories import CharacterFactory, legal_draft
from tests.i18n.test_campaign_side import _get
from wiki import services as wiki
from wiki.stat_blocks import stat_block_set

pytestmark = pytest.mark.django_db

#: A stat block with two catalog weapons and an element.
BLOCK = {
    "pwr": 6, "cha": 8, "int": 9, "ins": 7, "hp": 120, "speed": 6, "range": 6,
    "element": "metal", "weapons": ["throwing_knives", "basic_improvised_weapon"],
}  # fmt: skip

#: (language, the weapons as the entry's page lists them, the element, a weapon of the form's).
WORDS = [
    ("ja", "素手、投げナイフ、基本の即席武器", "金", "爪、牙、その他の基本的な生まれつきの武器"),
    ("zh-hans", "赤手空拳、飞刀、基础临时武器", "金", "爪、牙或其他基础天生武器"),
]
ENGLISH = ["Bare Fists", "Throwing Knives", "Basic Improvised Weapon", "Metal", "Claws, teeth"]


@pytest.fixture
def sakuya(campaign, gm):
    access = access_for(gm, campaign)
    entry = wiki.entry_create(
        campaign_id=campaign.pk, by=access, author=gm, title="Sakuya Izayoi", kind="character"
    )
    stat_block_set(entry=entry, by=access, author=gm, data=BLOCK)
    return entry


@pytest.mark.parametrize(("lang", "weapons", "element", "choice"), WORDS)
def test_a_stat_blocks_weapons_and_element_read_in_her_language(
    sakuya, campaign, gm, client_for, lang, weapons, element, choice
):
    """The entry's stat block and its form name the catalog's weapons and the element in the
    GM's language; in English they are the catalog's own names."""
    client = client_for(gm)
    page = _get(client, f"/campaigns/{campaign.pk}/wiki/{sakuya.pk}/", lang)
    assert weapons in page and f"<dd>{element}</dd>" in page
    form = _get(client, f"/campaigns/{campaign.pk}/wiki/{sakuya.pk}/stat-block/", lang)
    knives = "投げナイフ" if lang == "ja" else "飞刀"
    assert choice in form and knives in form
    for words in ENGLISH:
        assert words not in page and words not in form, words
    english = _get(client, f"/campaigns/{campaign.pk}/wiki/{sakuya.pk}/", "en")
    assert "Bare Fists, Throwing Knives, Basic Improvised Weapon" in english
    assert "<dd>Metal</dd>" in english


@pytest.mark.parametrize("lang", ["ja", "zh-hans"])
def test_a_natural_weapon_she_named_stays_as_written(campaign, gm, client_for, lang):
    """A youkai's natural weapon is what her player typed (the wizard's free text): the sheet
    shows it as written, marked as not for translating, beside the catalog's weapons in her
    language."""
    npc = CharacterFactory(
        owner=gm, campaign=campaign, draft=legal_draft(race="youkai", natural_weapon="kicks")
    )
    page = _get(client_for(gm), f"/characters/{npc.pk}/", lang)
    assert '<span translate="no">Kicks</span>' in page
    assert ("素手" if lang == "ja" else "赤手空拳") in page and "Bare Fists" not in page


# --------------------------------------------------------------------------- picture uploads


#: (language, the file, its refusal in the language).
REFUSALS = [
    ("ja", image("PNG")[:60], "画像が壊れているか、欠けています。"),
    ("zh-hans", image("PNG")[:60], "图片已损坏或不完整。"),
    (
        "ja",
        image("GIF"),
        "GIF の画像は受け付けていません。PNG、JPEG または WebP の画像をアップロードしてください。",
    ),
    (
        "zh-hans",
        image("PNG", (32, 32)),
        "图片为 32×32 像素；每条边必须在 64 到 8192 之间。",
    ),
    (
        "zh-hans",
        b"<html><script>alert(1)</script></html>",
        "这不是图片：请上传 PNG、JPEG 或 WebP 图片。",
    ),
]


@pytest.mark.usefixtures("media")
@pytest.mark.parametrize(("lang", "data", "refusal"), REFUSALS)
def test_a_refused_picture_upload_answers_in_her_language(
    api_for, gm, campaign, lang, data, refusal
):
    """The map library's API refuses a file that is not a usable picture with a 400 whose
    field error reads in the language the request asked for."""
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/maps/",
        {"name": "Cave", "image": SimpleUploadedFile("cave.png", data)},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE=lang,
    )
    assert response.status_code == 400
    assert response.json()["errors"]["image"] == [refusal]
    assert not BattleMap.objects.exists()


@pytest.mark.usefixtures("media")
def test_an_oversized_picture_is_refused_in_her_language(api_for, gm, campaign):
    """The size in the refusal is written in the language's number format."""
    from battles import maps

    big = image() + b"\0" * (maps.MAP_MAX_BYTES + 1)
    response = api_for(gm).post(
        f"/api/campaigns/{campaign.pk}/maps/",
        {"name": "Cave", "image": SimpleUploadedFile("cave.png", big)},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert response.status_code == 400
    (said,) = response.json()["errors"]["image"]
    assert said.startswith("マップは 8.0 MB です。") and "8 MB 以下" in said, said
