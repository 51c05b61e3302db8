"""The GM tools' pages: members, invitations, sessions, notes, handouts, the timeline and the
dashboard, one module per feature so no module grows past reading size.

Every view asks :mod:`campaign.permissions` first and every write goes through a service;
views only parse input and render. Writes answer with a redirect (POST, redirect, GET), so a
reload never repeats them.
"""
