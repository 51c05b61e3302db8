"""API routes for the GM tools, included by ``config/api_urls.py`` before the router (so
``campaigns/<id>/sessions/`` is never read as a router action)."""

from django.urls import path

from . import membership, party, play, world

urlpatterns = [
    path(
        "campaigns/<int:pk>/invitations/",
        membership.InvitationListView.as_view(),
        name="api-campaign-invitations",
    ),
    path(
        "campaigns/<int:pk>/invitations/<int:invitation_id>/revoke/",
        membership.InvitationRevokeView.as_view(),
        name="api-campaign-invitation-revoke",
    ),
    path(
        "invitations/<str:token>/",
        membership.InvitationTokenView.as_view(),
        name="api-invitation",
    ),
    path(
        "invitations/<str:token>/accept/",
        membership.InvitationAcceptView.as_view(),
        name="api-invitation-accept",
    ),
    path(
        "campaigns/<int:pk>/members/<int:user_id>/",
        membership.MemberView.as_view(),
        name="api-campaign-member",
    ),
    path("campaigns/<int:pk>/leave/", membership.LeaveView.as_view(), name="api-campaign-leave"),
    path(
        "campaigns/<int:pk>/sessions/",
        play.SessionListView.as_view(),
        name="api-campaign-sessions",
    ),
    path(
        "campaigns/<int:pk>/sessions/<int:session_id>/",
        play.SessionDetailView.as_view(),
        name="api-campaign-session",
    ),
    path(
        "campaigns/<int:pk>/sessions/<int:session_id>/attendance/",
        play.AttendanceView.as_view(),
        name="api-campaign-session-attendance",
    ),
    path(
        "campaigns/<int:pk>/sessions/<int:session_id>/rsvp/",
        world.RsvpView.as_view(),
        name="api-campaign-session-rsvp",
    ),
    path(
        "campaigns/<int:pk>/calendar/", world.CalendarView.as_view(), name="api-campaign-calendar"
    ),
    path(
        "campaigns/<int:pk>/calendar/date/",
        world.CalendarDateView.as_view(),
        name="api-campaign-calendar-date",
    ),
    path(
        "campaigns/<int:pk>/calendar/events/",
        world.WorldEventListView.as_view(),
        name="api-campaign-world-events",
    ),
    path(
        "campaigns/<int:pk>/calendar/events/<int:event_id>/",
        world.WorldEventDetailView.as_view(),
        name="api-campaign-world-event",
    ),
    path("calendar-feed/", world.CalendarFeedView.as_view(), name="api-calendar-feed"),
    path("campaigns/<int:pk>/notes/", play.NoteListView.as_view(), name="api-campaign-notes"),
    path(
        "campaigns/<int:pk>/notes/<int:note_id>/",
        play.NoteDetailView.as_view(),
        name="api-campaign-note",
    ),
    path(
        "campaigns/<int:pk>/handouts/",
        play.HandoutListView.as_view(),
        name="api-campaign-handouts",
    ),
    path(
        "campaigns/<int:pk>/handouts/<int:handout_id>/",
        play.HandoutDetailView.as_view(),
        name="api-campaign-handout",
    ),
    path("campaigns/<int:pk>/awards/", party.AwardListView.as_view(), name="api-campaign-awards"),
    path(
        "campaigns/<int:pk>/level-ups/",
        party.LevelUpListView.as_view(),
        name="api-campaign-level-ups",
    ),
    path("campaigns/<int:pk>/party/heal/", party.HealView.as_view(), name="api-campaign-heal"),
    path(
        "campaigns/<int:pk>/party/status/", party.StatusView.as_view(), name="api-campaign-status"
    ),
    path(
        "campaigns/<int:pk>/timeline/", party.TimelineView.as_view(), name="api-campaign-timeline"
    ),
    path(
        "campaigns/<int:pk>/dashboard/",
        party.DashboardView.as_view(),
        name="api-campaign-dashboard",
    ),
]
