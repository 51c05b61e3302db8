"""Campaigns: membership and roles, the one permission layer, the roll log, dashboards."""
