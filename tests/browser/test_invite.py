"""The invite link on a waiting table's page: the Copy button puts it on the clipboard and
says so; the QR code shows on a phone only; the guest follows the link and takes the seat
(issue 39, "Invites, spectators, rematch")."""

from __future__ import annotations

import pytest

from minigames.models import TavernSeat
from tests.browser.conftest import wait_until
from tests.minigames.conftest import one_open_seat

pytestmark = pytest.mark.django_db(transaction=True)


def test_copy_the_invite_link_and_follow_it(new_page, live_server, player, other_player):
    table = one_open_seat(player, "rso")
    host = new_page(player)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    host.goto(f"/tavern/tables/{table.pk}/")
    link = host.input_value("#tavern-invite-url")
    assert link.startswith(live_server.url + "/tavern/invite/")
    assert not host.is_visible("#tavern-invite-qr")  # a wide screen: no QR code
    host.click("#tavern-invite-copy")
    wait_until(host, lambda: "Copied" in host.text_content("#tavern-invite-status"), "Copied")
    assert host.evaluate("navigator.clipboard.readText()") == link
    host.set_viewport_size({"width": 390, "height": 844})
    assert host.is_visible("#tavern-invite-qr svg")

    guest = new_page(other_player)
    guest.goto(link)
    guest.click("#invite-take")
    guest.wait_for_url(f"**/tavern/tables/{table.pk}/")
    assert "You sit at seat 2." in guest.text_content(".messages")
    assert TavernSeat.objects.get(table=table, index=1).user == other_player
