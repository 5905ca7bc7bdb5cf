"""desktop_dedup: find exact and near-duplicate documents and remove extra copies safely."""

__version__ = "0.1.0"
APP_NAME = "desktop_dedup"
