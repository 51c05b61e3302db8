"""The campaign's pages: campaigns and the dice roller (``campaigns.py``), and campaign play
(members, invitations, sessions, notes, handouts, timeline, dashboard).

One module per feature so no module grows past reading size. Every view asks
:mod:`campaign.permissions` first and every write goes through a service; views only parse
input and render. Writes answer with a redirect (POST, redirect, GET), so a reload never
repeats them.
"""
