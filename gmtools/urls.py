from django.urls import path, re_path
from django.views.generic import RedirectView

from .pages import calendar, dashboard, handouts, invitations, members, notes, sessions, timeline

app_name = "gmtools"

# Under /campaigns/, beside the campaign core's pages (campaign/urls.py): the paths are the ones
# the pages always had (users' bookmarks, links in notifications).

urlpatterns = [
    # Members, leaving and invitations.
    path("<int:pk>/members/", members.member_list, name="members"),
    path("<int:pk>/members/<int:user_id>/role/", members.member_role, name="member_role"),
    path("<int:pk>/members/<int:user_id>/remove/", members.member_remove, name="member_remove"),
    path("<int:pk>/leave/", members.leave, name="leave"),
    path("<int:pk>/invitations/", invitations.invitation_list, name="invitations"),
    path(
        "<int:pk>/invitations/<int:invitation_id>/revoke/",
        invitations.invitation_revoke,
        name="invitation_revoke",
    ),
    path("join/<str:token>/", invitations.join, name="join"),
    # Sessions, GM notes, handouts, the timeline.
    path("<int:pk>/sessions/", sessions.session_list, name="sessions"),
    path("<int:pk>/sessions/<int:session_id>/", sessions.session_detail, name="session_detail"),
    path("<int:pk>/sessions/<int:session_id>/edit/", sessions.session_edit, name="session_edit"),
    path(
        "<int:pk>/sessions/<int:session_id>/delete/",
        sessions.session_delete,
        name="session_delete",
    ),
    path("<int:pk>/sessions/<int:session_id>/rsvp/", calendar.session_rsvp, name="session_rsvp"),
    # The in-world calendar and the members' calendar feeds.
    path("<int:pk>/calendar/", calendar.calendar, name="calendar"),
    path("calendar-feed/", calendar.feed_page, name="calendar_feed"),
    path("feed/<str:token>.ics", calendar.feed_ics, name="calendar_feed_ics"),
    path("<int:pk>/notes/", notes.note_list, name="notes"),
    path("<int:pk>/notes/<int:note_id>/edit/", notes.note_edit, name="note_edit"),
    path("<int:pk>/notes/<int:note_id>/delete/", notes.note_delete, name="note_delete"),
    path("<int:pk>/handouts/", handouts.handout_list, name="handouts"),
    path("<int:pk>/handouts/<int:handout_id>/", handouts.handout_detail, name="handout_detail"),
    path("<int:pk>/handouts/<int:handout_id>/file/", handouts.handout_file, name="handout_file"),
    path(
        "<int:pk>/handouts/<int:handout_id>/delete/",
        handouts.handout_delete,
        name="handout_delete",
    ),
    path("<int:pk>/timeline/", timeline.timeline, name="timeline"),
    # The GM dashboard, its live refresh and quick actions.
    path("<int:pk>/dashboard/", dashboard.dashboard, name="dashboard"),
    path("<int:pk>/dashboard/live/", dashboard.dashboard_live, name="dashboard_live"),
    path("<int:pk>/dashboard/award/", dashboard.quick_award, name="dashboard_award"),
    path("<int:pk>/dashboard/heal/", dashboard.quick_heal, name="dashboard_heal"),
    path("<int:pk>/dashboard/status/", dashboard.quick_status, name="dashboard_status"),
    path("<int:pk>/dashboard/level-up/", dashboard.quick_level_up, name="dashboard_level_up"),
    path("<int:pk>/dashboard/roll/", dashboard.quick_roll, name="dashboard_roll"),
]

#: The GM tools' admin pages were under /admin/campaign/ while they were part of the campaign
#: app: a bookmark there is sent on (config/urls.py mounts these before the admin).
MOVED_ADMIN_MODELS = (
    "invitation",
    "invitationacceptance",
    "gamesession",
    "attendance",
    "gmnote",
    "handout",
    "award",
    "awardrecipient",
    "levelup",
)
moved_admin_urlpatterns = [
    re_path(
        rf"^(?P<model>{'|'.join(MOVED_ADMIN_MODELS)})/(?P<rest>.*)$",
        RedirectView.as_view(
            url="/admin/gmtools/%(model)s/%(rest)s", permanent=True, query_string=True
        ),
    )
]
