"""The GM tools' REST API under ``/api/campaigns/<id>/``: invitations, members, sessions, GM
notes, handouts, awards, level-ups, party quick actions, the timeline and the GM dashboard's
state (``urls.py``, mounted by ``config/api_urls.py`` before the router).

Every view asks :func:`campaign.permissions.campaign_for` first (outsiders 404, members without
the right 403) and writes only through the services, which run in one transaction each and
raise ``ValidationError`` for bad input: the API's error handler turns that into a 400 with
field errors, so nothing is half-applied and nothing is a 500.
"""
