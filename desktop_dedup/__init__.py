"""desktop_dedup: find exact and near-duplicate documents and remove extra copies safely."""

import os as _os

__version__ = "0.1.0"
APP_NAME = "desktop_dedup"

# numpy's OpenBLAS starts a thread per core when numpy is imported, and the threads spin for a
# while: about a tenth of a CPU second in every process that imports numpy (the command, the
# readers' fork server, the app), taken from the core the other process is starting on.
# Nothing here calls BLAS (the simhash avoids matrix products on purpose, see fingerprint.py),
# so one thread does. Set before any of our modules imports numpy; a setting of the user's
# own is kept.
_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
