"""The campaign's REST API: campaigns, the roll log, rolling and exact odds (``campaigns.py``).
The GM tools' endpoints under ``/api/campaigns/<id>/`` (invitations, members, sessions, notes,
handouts, awards, level-ups, party quick actions, the timeline, the dashboard) are in
``gmtools/rest/``.

Mounted under ``/api/`` by ``config/api_urls.py`` (the router). Every view asks
:func:`campaign.permissions.campaign_for` first (outsiders 404, members without the right 403)
and writes only through the services, which run in one transaction each and raise
``ValidationError`` for bad input: the API's error handler turns that into a 400 with field
errors, so nothing is half-applied and nothing is a 500.
"""
