"""The PySide6 desktop app: a thin face of :class:`desktop_dedup.core.service.DedupService`."""
