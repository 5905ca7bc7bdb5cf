"""Thin Qt item models over the service: they hold ids and small summaries, never the store."""

from desktop_dedup.gui.models.groups import GroupsModel
from desktop_dedup.gui.models.members import MembersModel
from desktop_dedup.gui.models.rows import RowsModel

__all__ = ["GroupsModel", "MembersModel", "RowsModel"]
