"""After the load: was any move lost or applied twice, and was every turn notification
delivered exactly once? ``python -m tests.load.verify MOVES_DIR`` prints a JSON verdict.

* Moves: every ``201`` the GMs received (written by the locustfile) is one row of the battle's
  append-only log with that version, and the log holds no move nobody sent (a move sent whose
  answer never arrived, its user stopped at the run's end, is counted, not a problem).
* Turn notifications: every "your turn" notification has exactly one in-app delivery, sent,
  in one attempt; nothing is still pending or failed once the worker has drained.
* The yen ledger: in every seeded campaign, the characters' yen and the stakes still held at
  tables not yet settled add up to what was seeded (tests/load/seed.py), and every settled
  table paid its pot or returned its stakes: no stake lost, no pot paid twice.
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path


def _logged(kind: str, table: int) -> list[int]:
    """Versions of the moves the players and GMs sent (not the bots' or the setup's)."""
    from battles.models import BattleAction
    from minigames.models import TavernAction

    if kind == "battle":
        rows = BattleAction.objects.filter(battle_id=table, action__type="end_turn")
    else:
        rows = TavernAction.objects.filter(table_id=table, actor__isnull=False)
    return list(rows.values_list("version_after", flat=True))


def moves(moves_dir: Path) -> dict[str, object]:
    told: dict[tuple[str, int], list[int]] = defaultdict(list)
    sent: dict[tuple[str, int], set[int]] = defaultdict(set)
    for path in moves_dir.glob("moves-*.txt"):
        for line in path.read_text().splitlines():
            if line.startswith("sent "):
                _, kind, table, version = line.split()
                sent[(kind, int(table))].add(int(version))
                continue
            kind, table, version = line.split()
            told[(kind, int(table))].append(int(version))
    unanswered = 0
    problems: list[str] = []
    total = 0
    for (kind, battle), versions in told.items():
        total += len(versions)
        doubled = [v for v, n in Counter(versions).items() if n > 1]
        if doubled:
            problems.append(f"{kind} {battle}: versions {doubled} were reported twice")
        logged = _logged(kind, battle)
        if len(logged) != len(set(logged)):
            problems.append(f"{kind} {battle}: the log holds a version twice")
        lost = set(versions) - set(logged)
        # applied, sent, and not answered: the user stopped waiting (the run ended); not a loss
        applied_unanswered = (set(logged) - set(versions)) & sent[(kind, battle)]
        unanswered += len(applied_unanswered)
        extra = set(logged) - set(versions) - applied_unanswered
        if lost:
            problems.append(
                f"battle {battle}: moves {sorted(lost)} answered 201 but are not logged"
            )
        if extra:
            problems.append(f"{kind} {battle}: logged moves {sorted(extra)} nobody was told of")
    return {
        "moves_applied": total,
        "tables": len(told),
        "applied_but_unanswered": unanswered,
        "problems": problems,
    }


def notifications(timeout: float = 90.0) -> dict[str, object]:
    from notifications.models import Delivery, DeliveryStatus, Notification

    deadline = time.monotonic() + timeout
    while Delivery.objects.filter(status=DeliveryStatus.PENDING, channel="in_app").exists():
        if time.monotonic() > deadline:
            break
        time.sleep(1)
    turns = Notification.objects.filter(event="your_turn")
    in_app = Delivery.objects.filter(notification__in=turns, channel="in_app")
    problems: list[str] = []
    per_notification = Counter(in_app.values_list("notification_id", flat=True))
    if any(n != 1 for n in per_notification.values()):
        problems.append("a turn notification has more than one in-app delivery")
    missing = turns.count() - len(per_notification)
    if missing:
        problems.append(f"{missing} turn notifications have no in-app delivery")
    for status in (DeliveryStatus.PENDING, DeliveryStatus.FAILED):
        n = in_app.filter(status=status).count()
        if n:
            problems.append(f"{n} turn deliveries are {status}")
    retried = in_app.filter(attempts__gt=1).count()
    if retried:
        problems.append(f"{retried} turn deliveries took more than one attempt")
    undelivered = turns.filter(in_app_at__isnull=True).count()
    if undelivered:
        problems.append(f"{undelivered} turn notifications never reached the bell")
    return {"turn_notifications": turns.count(), "problems": problems}


def ledger() -> dict[str, object]:
    from campaign.models import Campaign
    from characters.models import Character
    from minigames.models import TavernTable
    from tests.load.seed import PURSE

    problems: list[str] = []
    settled = 0
    campaigns = Campaign.objects.filter(name__startswith="Load table")
    for campaign in campaigns:
        purses = list(Character.objects.filter(campaign=campaign).values_list("yen", flat=True))
        held = 0
        for stakes in TavernTable.objects.filter(campaign=campaign).values_list(
            "stakes", flat=True
        ):
            pot = sum(int(v) for v in (stakes.get("held") or {}).values())
            if stakes.get("settled"):
                settled += 1
                paid = sum(int(v) for v in (stakes.get("paid") or {}).values())
                if paid != pot and not stakes.get("returned"):
                    problems.append(f"{campaign.name}: a pot of {pot} yen paid {paid} yen")
            else:
                held += pot
        if sum(purses) + held != PURSE * len(purses):
            problems.append(
                f"{campaign.name}: {sum(purses)} yen in purses and {held} held, "
                f"not the {PURSE * len(purses)} seeded"
            )
    return {"campaigns": campaigns.count(), "settled_tables": settled, "problems": problems}


def main() -> None:
    import django

    django.setup()
    verdict = {
        "moves": moves(Path(sys.argv[1])),
        "notifications": notifications(),
        "ledger": ledger(),
    }
    print(json.dumps(verdict))


if __name__ == "__main__":
    main()
