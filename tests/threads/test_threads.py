"""Play-by-post (issue 43): members post as themselves or in character, roll inline with the
exact odds, react and edit; secret rolls reach only the roller and the GMs in pages, the API,
the live fragment and notifications; GMs lock, pin, move and make handouts; bad input is a
400 with field errors; a non-member finds nothing (404)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.utils import timezone

from campaign.models import Roll
from campaign.permissions import access_for
from campaign.selectors import rolls_visible_to
from notifications.models import EventType, Notification
from threads import digest, services
from threads.models import Post

pytestmark = pytest.mark.django_db


def _post(thread, user, body, character=None):
    campaign = thread.campaign
    return services.post_create(
        thread=thread,
        by=access_for(user, campaign),
        user=user,
        body=body,
        character_id=character.pk if character else None,
    )


def _seen_by(user, thread, client_for, api_for):
    """Everything ``user`` receives about the thread: page, live fragment and API."""
    base = f"/campaigns/{thread.campaign_id}/threads/{thread.pk}/"
    page = client_for(user).get(base)
    fragment = client_for(user).get(base + "posts/")
    api = api_for(user).get(f"/api/campaigns/{thread.campaign_id}/threads/{thread.pk}/posts/")
    assert page.status_code == fragment.status_code == api.status_code == 200
    return page.content.decode() + fragment.content.decode(), api.json()


def test_in_character_post_rolls_inline_with_exact_odds_into_the_roll_log(
    thread, player, other_player, cirno, client_for, api_for
):
    post = _post(thread, player, "Cirno dives for the frog.\n/roll 4d > 12 Dodge", cirno)
    roll = Roll.objects.get(post_roll__post=post)
    # the roll log's row: 4 dice against 12, logged in the campaign for every member
    assert (roll.notation, roll.target, roll.label, len(roll.dice)) == ("4d", 12, "Dodge", 4)
    assert roll in rolls_visible_to(access_for(other_player, thread.campaign))
    assert post.body == "Cirno dives for the frog."  # the /roll line is out of the text
    html, api = _seen_by(other_player, thread, client_for, api_for)
    assert "Cirno</strong>" in html and "played by" in html
    # 4d6 beating 12: 861 of the 1296 outcomes (sum 13 or more), 287/432, 66.44%
    odds = api[0]["rolls"][0]["odds"]
    assert odds["success"] == {"exact": "287/432", "percent": "66.44"}
    assert api[0]["rolls"][0]["total"] == roll.total and api[0]["speaker"] == "Cirno"
    assert "66.44%" in html and f">{roll.total}</strong>" in html


def test_secret_rolls_reach_only_the_roller_and_the_gms(
    thread, gm, player, other_player, client_for, api_for, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        post = _post(thread, player, "Quietly, @player-two...\n/roll secret 3d+1 > 9 Stealth")
    roll = Roll.objects.get(post_roll__post=post)
    assert roll.secret
    marker = "Stealth: 3d+1 vs 9"
    for user, sees in ((gm, True), (player, True), (other_player, False)):
        html, api = _seen_by(user, thread, client_for, api_for)
        shown = api[0]["rolls"][0]
        assert (marker in html) is sees
        assert shown["visible"] is sees
        assert ("total" in shown) is sees and ("notation" in shown) is sees
        if not sees:
            assert shown == {
                "id": roll.pk,
                "visible": False,
                "secret": True,
                "hidden_from_roller": False,
            }
            assert "only the game masters and the roller" in html
    # the mention's notification carries no roll
    note = Notification.objects.get(recipient=other_player, event=EventType.THREAD_MENTION)
    assert "3d" not in note.title + note.body and str(roll.total) not in note.body


def test_a_players_mental_roll_is_for_the_gms_only_under_the_house_rule(
    thread, gm, player, client_for, api_for
):
    post = _post(thread, player, "/roll 3d > 9 Will")
    roll = Roll.objects.get(post_roll__post=post)
    assert roll.detail["hidden_from_roller"] is True
    _, api = _seen_by(player, thread, client_for, api_for)
    assert api[0]["rolls"][0]["visible"] is False
    _, api = _seen_by(gm, thread, client_for, api_for)
    assert api[0]["rolls"][0]["total"] == roll.total


def test_markdown_is_sanitized_and_mentions_link_and_notify(
    thread, player, other_player, daiyousei, client_for
):
    _post(thread, player, "**Hi** @[Daiyousei] <script>alert(1)</script> [x](javascript:alert(1))")
    html = client_for(other_player).get(f"/campaigns/{thread.campaign_id}/threads/{thread.pk}/")
    text = html.content.decode()
    assert "<strong>Hi</strong>" in text and "<script>alert(1)" not in text
    assert 'href="javascript' not in text
    assert f'href="/characters/{daiyousei.pk}/"' in text
    assert Notification.objects.filter(recipient=other_player, event="thread_mention").count() == 1


def test_posting_as_someone_elses_character_is_a_400_on_the_field(
    thread, campaign, player, daiyousei, api_for
):
    url = f"/api/campaigns/{campaign.pk}/threads/{thread.pk}/posts/"
    answer = api_for(player).post(url, {"body": "Hello", "character": daiyousei.pk}, format="json")
    assert answer.status_code == 400 and "character" in answer.json()["errors"]


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({"body": ""}, "body"),
        ({"body": "x" * 20_001}, "body"),
        ({"body": "/roll 400d > 12"}, "body"),
        ({"body": "/roll 4d > 99999"}, "body"),
        ({"body": "\n".join(["/roll 2d"] * 6)}, "body"),
        ({"body": "/roll banana"}, "body"),
        ({"body": 12}, "body"),
        ({"body": "hi", "character": "x"}, "character"),
    ],
)
def test_bad_posts_are_400s_with_field_errors(thread, campaign, player, api_for, payload, field):
    url = f"/api/campaigns/{campaign.pk}/threads/{thread.pk}/posts/"
    answer = api_for(player).post(url, payload, format="json")
    assert answer.status_code == 400 and field in answer.json()["errors"]
    assert not Post.objects.exists() and not Roll.objects.exists()


def test_an_edit_is_shown_as_edited_and_never_rolls(
    thread, campaign, player, other_player, api_for
):
    post = _post(thread, player, "First.\n/roll 2d")
    roll = Roll.objects.get(post_roll__post=post)
    url = f"/api/campaigns/{campaign.pk}/threads/{thread.pk}/posts/{post.pk}/"
    assert api_for(other_player).patch(url, {"body": "Mine now"}, format="json").status_code == 403
    refused = api_for(player).patch(url, {"body": "Again\n/roll 2d"}, format="json")
    assert refused.status_code == 400 and "body" in refused.json()["errors"]
    edited = api_for(player).patch(url, {"body": "First, amended."}, format="json")
    assert edited.status_code == 200
    data = edited.json()
    assert data["edited_at"] is not None and data["body"] == "First, amended."
    assert data["rolls"][0]["total"] == roll.total and Roll.objects.count() == 1


def test_gms_lock_pin_and_move_threads_players_may_not(
    thread, campaign, gm, player, outsider, api_for
):
    url = f"/api/campaigns/{campaign.pk}/threads/{thread.pk}/"
    change = {"locked": True, "pinned": True, "category": "Act two", "position": 3}
    assert api_for(player).patch(url, change, format="json").status_code == 403
    assert api_for(outsider).patch(url, change, format="json").status_code == 404
    answer = api_for(gm).patch(url, change, format="json")
    assert answer.status_code == 200
    assert {k: answer.json()[k] for k in change} == change
    assert api_for(gm).patch(url, {"position": -1}, format="json").status_code == 400
    # locked: the player's post is refused, the GM's goes in
    posts = url + "posts/"
    assert api_for(player).post(posts, {"body": "Wait!"}, format="json").status_code == 403
    assert api_for(gm).post(posts, {"body": "The ice cracks."}, format="json").status_code == 201


def test_non_members_find_nothing(thread, campaign, player, outsider, client_for, api_for):
    post = _post(thread, player, "Hello")
    base = f"/campaigns/{campaign.pk}/threads/"
    for path in (base, f"{base}{thread.pk}/", f"{base}{thread.pk}/posts/"):
        assert client_for(outsider).get(path).status_code == 404
    api = f"/api/campaigns/{campaign.pk}/threads/"
    for path in (api, f"{api}{thread.pk}/", f"{api}{thread.pk}/posts/{post.pk}/"):
        assert api_for(outsider).get(path).status_code == 404
    answer = api_for(outsider).post(f"{api}{thread.pk}/posts/", {"body": "hi"}, format="json")
    assert answer.status_code == 404


def test_unread_counts_in_the_nav_and_list_until_read(
    thread, campaign, player, other_player, client_for, api_for
):
    _post(thread, player, "One")
    _post(thread, player, "Two")
    page = client_for(other_player).get(f"/campaigns/{campaign.pk}/")
    assert 'id="nav-threads-unread"' in page.content.decode()
    listed = api_for(other_player).get(f"/api/campaigns/{campaign.pk}/threads/").json()
    assert listed[0]["unread"] == 2 and listed[0]["post_count"] == 2
    assert api_for(player).get(f"/api/campaigns/{campaign.pk}/threads/").json()[0]["unread"] == 0
    client_for(other_player).get(f"/campaigns/{campaign.pk}/threads/{thread.pk}/")
    assert services.unread_total(access_for(other_player, campaign)) == 0


def test_reactions_toggle(thread, campaign, player, other_player, api_for):
    post = _post(thread, player, "Frogs!")
    url = f"/api/campaigns/{campaign.pk}/threads/{thread.pk}/posts/{post.pk}/reactions/"
    first = api_for(other_player).post(url, {"kind": "laugh"}, format="json").json()
    assert {"kind": "laugh", "emoji": "😄", "count": 1, "mine": True} in first["reactions"]
    again = api_for(other_player).post(url, {"kind": "laugh"}, format="json").json()
    assert {"kind": "laugh", "emoji": "😄", "count": 0, "mine": False} in again["reactions"]
    assert api_for(other_player).post(url, {"kind": "boo"}, format="json").status_code == 400


def test_gm_turns_an_excerpt_into_a_handout(thread, campaign, gm, player, cirno, api_for):
    post = _post(thread, player, "The map is under the third stone.\n/roll secret 2d", cirno)
    url = f"/api/campaigns/{campaign.pk}/threads/{thread.pk}/posts/{post.pk}/handout/"
    body = {"title": "The map", "excerpt": "under the third stone"}
    assert api_for(player).post(url, body, format="json").status_code == 403
    wrong = api_for(gm).post(url, {"title": "x", "excerpt": "not in it"}, format="json")
    assert wrong.status_code == 400 and "excerpt" in wrong.json()["errors"]
    made = api_for(gm).post(url, body, format="json")
    assert made.status_code == 201
    from gmtools.models import Handout

    handout = Handout.objects.get(pk=made.json()["handout"])
    assert handout.body.startswith("under the third stone") and "Cirno" in handout.body
    assert "2d" not in handout.body and handout.shared_with_all


def test_gm_turns_an_excerpt_into_a_wiki_entry_for_the_gms_only(
    thread, campaign, gm, player, other_player, cirno, api_for, client_for
):
    from wiki.models import Entry, Link

    post = _post(thread, player, "The map is under the third stone.\n/roll secret 2d", cirno)
    url = f"/api/campaigns/{campaign.pk}/threads/{thread.pk}/posts/{post.pk}/wiki-entry/"
    body = {"title": "The map", "excerpt": "under the third stone"}
    for seat in (player, other_player):
        assert api_for(seat).post(url, body, format="json").status_code == 403
        page = f"/campaigns/{campaign.pk}/threads/{thread.pk}/posts/{post.pk}/wiki-entry/"
        assert client_for(seat).get(page).status_code == 403
    with pytest.raises(PermissionDenied):
        services.excerpt_to_wiki_entry(
            post=post, by=access_for(player, campaign), author=player, title="x"
        )
    # the excerpt's bounds: a passage of the post's own words, at most 5,000 characters
    wrong = api_for(gm).post(url, {"title": "x", "excerpt": "not in it"}, format="json")
    assert wrong.status_code == 400 and "excerpt" in wrong.json()["errors"]
    long = api_for(gm).post(url, {"title": "x", "excerpt": "a" * 5_001}, format="json")
    assert long.status_code == 400 and "excerpt" in long.json()["errors"]
    untitled = api_for(gm).post(url, {"title": "  ", "excerpt": ""}, format="json")
    assert untitled.status_code == 400 and "title" in untitled.json()["errors"]
    no_kind = api_for(gm).post(url, {"title": "x", "kind": "dragons"}, format="json")
    assert no_kind.status_code == 400 and "kind" in no_kind.json()["errors"]
    assert not Entry.objects.filter(campaign=campaign).exists()  # nothing half-made

    made = api_for(gm).post(url, body, format="json")
    assert made.status_code == 201
    entry = Entry.objects.get(pk=made.json()["entry"])
    assert (entry.title, entry.kind.key, entry.visibility) == ("The map", "lore", "gm")
    # the passage, its speaker as a mention of her character, a link back to the post; no roll
    assert entry.body.startswith("under the third stone\n\n— @[[character:")
    assert f"/campaigns/{campaign.pk}/threads/{thread.pk}/#post-{post.pk}" in entry.body
    assert "2d" not in entry.body
    assert Link.objects.filter(source=entry, target_character=cirno).exists()
    html = client_for(gm).get(f"/campaigns/{campaign.pk}/wiki/{entry.pk}/").content.decode()
    assert f'href="/characters/{cirno.pk}/"' in html and f"#post-{post.pk}" in html
    # a GM-only entry: no player reads it
    for seat in (player, other_player):
        assert client_for(seat).get(f"/campaigns/{campaign.pk}/wiki/{entry.pk}/").status_code == 404

    # the page: the whole post, shown to everyone
    thread_page = f"/campaigns/{campaign.pk}/threads/{thread.pk}/"
    page = f"{thread_page}posts/{post.pk}/wiki-entry/"
    assert "Make a wiki entry" in client_for(gm).get(thread_page).content.decode()
    assert "Make a wiki entry" not in client_for(player).get(thread_page).content.decode()
    sent = client_for(gm).post(page, {"title": "Stone", "kind": "place", "visibility": "all"})
    shared = Entry.objects.get(title="Stone")
    assert sent.status_code == 302 and sent["Location"].endswith(f"/wiki/{shared.pk}/")
    assert shared.visibility == "all" and shared.body.startswith("The map is under")
    assert client_for(player).get(f"/campaigns/{campaign.pk}/wiki/{shared.pk}/").status_code == 200


def test_the_daily_digest_counts_others_posts_and_says_nothing_of_them(
    thread, campaign, gm, player, other_player
):
    _post(thread, player, "A secret plan.\n/roll secret 2d")
    _post(thread, other_player, "Hi")
    yesterday = timezone.now() - timedelta(days=1)
    Post.objects.update(created_at=yesterday)
    made = digest.send_daily_digests(yesterday.date())
    again = digest.send_daily_digests(yesterday.date())
    assert (made, again) == (3, 0)  # each member once per day
    notes = {n.recipient_id: n for n in Notification.objects.filter(event="thread_digest")}
    assert notes[gm.pk].title.startswith("2 new posts in Scarlet Mist")
    assert notes[player.pk].body == "The misty lake: 1 new post"
    assert all("secret" not in n.body and "2d" not in n.body for n in notes.values())


def test_thread_pages_answer_for_members(thread, campaign, gm, player, client_for):
    for user in (gm, player):
        assert client_for(user).get(f"/campaigns/{campaign.pk}/threads/").status_code == 200
    bad = client_for(player).post(f"/campaigns/{campaign.pk}/threads/", {"title": ""})
    assert bad.status_code == 400
    made = client_for(player).post(
        f"/campaigns/{campaign.pk}/threads/{thread.pk}/", {"body": "Hello\n/roll 2d"}
    )
    assert made.status_code == 302
    assert (
        client_for(player)
        .post(
            f"/campaigns/{campaign.pk}/threads/{thread.pk}/manage/",
            {"title": "x", "position": 0},
        )
        .status_code
        == 403
    )
    with pytest.raises(ValidationError):
        services.thread_update(thread=thread, by=access_for(gm, campaign), title="")
