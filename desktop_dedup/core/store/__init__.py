"""Persistence: SQLAlchemy 2.x on SQLite (WAL) or PostgreSQL. See schema.py for the tables."""

from desktop_dedup.core.store.engine import (
    SCHEMA_VERSION,
    display_name,
    explain_query_plan,
    has_index,
    is_database_url,
)
from desktop_dedup.core.store.repository import KnownFile, Store, StoredFingerprint, split_blocks

__all__ = [
    "SCHEMA_VERSION",
    "display_name",
    "has_index",
    "is_database_url",
    "KnownFile",
    "Store",
    "StoredFingerprint",
    "explain_query_plan",
    "split_blocks",
]
