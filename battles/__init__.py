"""Grid battles in a campaign: the Django side of :mod:`westernroses.battle`.

The engine knows the rules; this package stores a battle (its state as JSON with a version
number, and the append-only action log), decides who may send which action (through
:mod:`campaign.permissions`), applies actions with a version-checked write so two clicks
never apply twice, sends each viewer only ``engine.view(state, player)``, and tells players when
it is their turn.

Layout: ``models`` (tables, registered under the campaign app by one line in
``campaign/models.py``), ``services`` (writes), ``selectors`` (reads), ``views`` (pages),
``api`` + ``serializers`` (REST), ``tasks`` (Celery), ``integration`` (the campaign timeline
and GM dashboard). See docs/battles.md.
"""
