"""Persistence: SQLAlchemy 2.x on SQLite (WAL). See schema.py for the tables."""

from desktop_dedup.core.store.engine import SCHEMA_VERSION, explain_query_plan
from desktop_dedup.core.store.repository import KnownFile, Store, StoredFingerprint, split_blocks

__all__ = [
    "SCHEMA_VERSION",
    "KnownFile",
    "Store",
    "StoredFingerprint",
    "explain_query_plan",
    "split_blocks",
]
