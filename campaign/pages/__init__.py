"""Campaign-play pages (members, invitations, sessions, notes, handouts, timeline, dashboard).

The campaign core's pages stay in ``campaign/views.py``; these are split by feature so no module
grows past reading size. Every view asks :mod:`campaign.permissions` first and every write goes
through a service; views only parse input and render. Writes answer with a redirect (POST,
redirect, GET), so a reload never repeats them.
"""
