"""API: invitations (create, list, revoke, preview and accept by token) and members (promote,
demote, remove, leave)."""

from __future__ import annotations

from django.db import IntegrityError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.typing import signed_in
from campaign.members import membership_set_role
from campaign.permissions import campaign_for
from campaign.rest.serializers import MemberSerializer

from .. import invitations as invitation_services
from .. import members as member_services
from ..models import Invitation
from .serializers import (
    InvitationInputSerializer,
    InvitationPreviewSerializer,
    InvitationSerializer,
    JoinedSerializer,
    MemberRoleSerializer,
)


class InvitationListView(APIView):
    """A campaign's invitation links (GMs only), newest first; POST creates one."""

    @extend_schema(responses=InvitationSerializer(many=True))
    def get(self, request: Request, pk: int) -> Response:
        campaign, _ = campaign_for(request.user, pk, manage=True)
        invitations = invitation_services.invitations_of(campaign.pk)
        return Response(
            InvitationSerializer(invitations, many=True, context={"request": request}).data
        )

    @extend_schema(request=InvitationInputSerializer, responses={201: InvitationSerializer})
    def post(self, request: Request, pk: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = InvitationInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        invitation = invitation_services.invitation_create(
            campaign=campaign,
            by=access,
            created_by=signed_in(request),
            role=data["role"],
            expires_in_days=data["expires_in_days"],
            max_uses=data.get("max_uses"),
            invited_user=data.get("username"),
            note=data.get("note", ""),
        )
        return Response(
            InvitationSerializer(invitation, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


class InvitationRevokeView(APIView):
    """Stop a link from working (GMs only)."""

    @extend_schema(request=None, responses=InvitationSerializer)
    def post(self, request: Request, pk: int, invitation_id: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        invitation = invitation_services.invitation_for(campaign, invitation_id)
        invitation_services.invitation_revoke(invitation=invitation, by=access)
        return Response(InvitationSerializer(invitation, context={"request": request}).data)


def _gone(exc: invitation_services.InvitationUnusable) -> Response:
    return Response({"detail": str(exc), "state": exc.state}, status=status.HTTP_410_GONE)


class InvitationTokenView(APIView):
    """What an invitation link shows: the campaign's name, the role and whether it works.
    Anyone logged in who holds the link may ask; unknown tokens are 404."""

    @extend_schema(responses=InvitationPreviewSerializer)
    def get(self, request: Request, token: str) -> Response:
        invitation = invitation_services.invitation_by_token(token)
        if invitation is None:
            return Response({"detail": "No such invitation."}, status=status.HTTP_404_NOT_FOUND)
        state = invitation.state()
        if state == "active" and invitation.invited_user_id not in (None, request.user.pk):
            state = "not_for_you"
        return Response(
            {
                "campaign": {"id": invitation.campaign_id, "name": invitation.campaign.name},
                "role": invitation.role,
                "state": state,
                "invited_by": invitation.created_by.shown_name,
                "expires_at": invitation.expires_at,
            }
        )


class InvitationAcceptView(APIView):
    """Join with a link: 201 joined, 200 already a member, 410 (with ``state``) if the link
    was revoked, expired, used up or made for someone else, 404 if there is no such link."""

    @extend_schema(
        request=None,
        responses={
            201: JoinedSerializer,
            200: JoinedSerializer,
            410: OpenApiResponse(description="The link does not work any more."),
        },
    )
    def post(self, request: Request, token: str) -> Response:
        if invitation_services.invitation_by_token(token) is None:
            return Response({"detail": "No such invitation."}, status=status.HTTP_404_NOT_FOUND)
        try:
            joined = invitation_services.invitation_accept(token=token, user=signed_in(request))
        except invitation_services.InvitationUnusable as exc:
            return _gone(exc)
        except Invitation.DoesNotExist:
            return Response({"detail": "No such invitation."}, status=status.HTTP_404_NOT_FOUND)
        except IntegrityError:  # the same user joined at the same instant elsewhere
            invitation = get_object_or_404(Invitation, token=token)
            return Response(
                {
                    "campaign": invitation.campaign_id,
                    "role": invitation.role,
                    "already_member": True,
                }
            )
        membership = joined.membership
        return Response(
            {
                "campaign": membership.campaign_id,
                "role": membership.role,
                "already_member": joined.already_member,
            },
            status=status.HTTP_200_OK if joined.already_member else status.HTTP_201_CREATED,
        )


class MemberView(APIView):
    """GMs change a member's role (PATCH) or remove them (DELETE). The last GM stays: 400."""

    @extend_schema(request=MemberRoleSerializer, responses=MemberSerializer)
    def patch(self, request: Request, pk: int, user_id: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        serializer = MemberRoleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        membership = membership_set_role(
            campaign=campaign, user_id=user_id, role=serializer.validated_data["role"], by=access
        )
        return Response(MemberSerializer(membership).data)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request: Request, pk: int, user_id: int) -> Response:
        campaign, access = campaign_for(request.user, pk, manage=True)
        member_services.membership_remove(campaign=campaign, user_id=user_id, by=access)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LeaveView(APIView):
    """Leave the campaign (anyone but its last GM). Your characters leave with you."""

    @extend_schema(request=None, responses={204: None})
    def post(self, request: Request, pk: int) -> Response:
        campaign, _ = campaign_for(request.user, pk)
        member_services.membership_leave(campaign=campaign, user=signed_in(request))
        return Response(status=status.HTTP_204_NO_CONTENT)
