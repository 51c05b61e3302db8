"""The game-table core: what every turn-based game (battles, the tavern) stores and plays alike.

Public API (see docs/architecture.md, "How a new game plugs in"):

* models: :class:`tables.models.GameTable`, :class:`tables.models.TableAction` (abstract);
* registration: :class:`tables.registry.TableGame`, :func:`tables.registry.register`;
* writes: :func:`tables.services.table_create`, :func:`tables.services.table_action_apply`,
  :func:`tables.services.table_waits_sync`, :func:`tables.services.table_replay`;
* reads: :func:`tables.selectors.table_view` (with the cheap poll), :func:`tables.selectors.
  view_payload` (a move's answer, from memory), :func:`tables.selectors.table_log`,
  :func:`tables.selectors.table_for`;
* the store every hot read and write goes through (``TABLE_FAST_PATHS``): :mod:`tables.store`;
* errors: :class:`tables.errors.StaleVersion` (409 everywhere), :class:`tables.errors.BodyTooLarge`;
* action shapes: each engine's ``action_shapes()``, a 400 through :mod:`tables.schema`;
* replays: :func:`tables.replay.table_replay_step` (rebuilt by the engine from the log), the
  page :func:`tables.pages.replay_page` and ``static/js/replay.js``;
* API: :func:`tables.api.table_api_urls`;
* the browser client: ``static/js/table_client.js``.
"""
