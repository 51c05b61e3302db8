"""The campaign core's pages: campaigns, their settings, adding members and the dice roller
(``campaigns.py``). The GM tools' pages (members, invitations, sessions, notes, handouts, the
timeline, the dashboard) are in ``gmtools/pages/``.

Every view asks :mod:`campaign.permissions` first and every write goes through a service;
views only parse input and render. Writes answer with a redirect (POST, redirect, GET), so a
reload never repeats them.
"""
