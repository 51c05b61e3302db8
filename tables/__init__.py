"""The game-table core: what every turn-based game (battles, the tavern) stores and plays alike.

Public API (see docs/architecture.md, "How a new game plugs in"):

* models: :class:`tables.models.GameTable`, :class:`tables.models.TableAction` (abstract);
* registration: :class:`tables.registry.TableGame`, :func:`tables.registry.register`;
* writes: :func:`tables.services.table_create`, :func:`tables.services.table_action_apply`,
  :func:`tables.services.table_waits_sync`, :func:`tables.services.table_replay`;
* reads: :func:`tables.selectors.table_view` (with the cheap poll), :func:`tables.selectors.
  table_log`, :func:`tables.selectors.table_for`;
* errors: :class:`tables.errors.StaleVersion` (409 everywhere), :class:`tables.errors.BodyTooLarge`;
* action schemas: :mod:`tables.schema`; API: :func:`tables.api.table_api_urls`;
* the browser client: ``static/js/table_client.js``.
"""
