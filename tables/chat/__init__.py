"""Chat at every table, written once for every game (docs/table-chat.md).

Lines, whispers, reactions, mutes and the spectators' setting of any registered game's table,
kept in this nested app (label ``table_chat``) by the table's model and id, so a battle and
the tavern's four games share one store, one API (:func:`tables.chat.api.chat_api_urls`,
mounted by :func:`tables.api.table_api_urls`) and one browser panel
(``templates/tables/chat/panel.html``, ``static/js/table_chat.js``).

What differs between games comes from :mod:`tables.chat.rules`: who moderates, who reads
every whisper, and whom a member may whisper to (none: the game allows no private talk).
"""
