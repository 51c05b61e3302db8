"""The battles' chat lines (``battles_table_chat``, battles 0004) moved into the table core's
chat: one room per battle that had any, every line with its author, whisper, version and time,
in the order they were said. Reversible: the lines of battle rooms go back."""

from django.db import migrations

FORWARD_ROOMS = """
INSERT INTO table_chat_chatroom
    (table_label, table_id, campaign_id, spectators_may_chat, stamp, created_at)
SELECT 'battles.battle', b.id, b.campaign_id, FALSE, 1, CURRENT_TIMESTAMP
FROM campaign_battle b
WHERE EXISTS (SELECT 1 FROM battles_table_chat c WHERE c.battle_id = b.id)
"""
FORWARD_LINES = """
INSERT INTO table_chat_chatline
    (room_id, author_id, author_is_gm, spectator, text, to_gms, recipient_id, version, created_at)
SELECT r.id, c.author_id, c.author_is_gm, FALSE, c.text, c.to_gms, c.recipient_id, c.version,
       c.created_at
FROM battles_table_chat c
JOIN table_chat_chatroom r ON r.table_label = 'battles.battle' AND r.table_id = c.battle_id
ORDER BY c.id
"""
BACKWARD_LINES = """
INSERT INTO battles_table_chat
    (battle_id, author_id, author_is_gm, text, to_gms, recipient_id, version, created_at)
SELECT r.table_id, l.author_id, l.author_is_gm, l.text, l.to_gms, l.recipient_id, l.version,
       l.created_at
FROM table_chat_chatline l
JOIN table_chat_chatroom r ON r.id = l.room_id
WHERE r.table_label = 'battles.battle'
ORDER BY l.id
"""
_BATTLE_ROOMS = "SELECT id FROM table_chat_chatroom WHERE table_label = 'battles.battle'"
BACKWARD_DELETES = [
    "DELETE FROM table_chat_chatreaction WHERE line_id IN"
    f" (SELECT id FROM table_chat_chatline WHERE room_id IN ({_BATTLE_ROOMS}))",
    f"DELETE FROM table_chat_chatline WHERE room_id IN ({_BATTLE_ROOMS})",
    f"DELETE FROM table_chat_chatmute WHERE room_id IN ({_BATTLE_ROOMS})",
    "DELETE FROM table_chat_chatroom WHERE table_label = 'battles.battle'",
]


class Migration(migrations.Migration):
    dependencies = [
        ("table_chat", "0001_initial"),
        ("battles", "0006_table_waits_synced"),
    ]

    operations = [
        migrations.RunSQL([FORWARD_ROOMS, FORWARD_LINES], [BACKWARD_LINES, *BACKWARD_DELETES]),
    ]
