"""Loading Alembic while SQLite checks a file never opened by the dashboard.

Such a file is about to be migrated, and before anything is written every page of it is read once
(`PRAGMA quick_check`, in `app.store.connect.file_checks`): SQLite's work, done without Python's lock.
Alembic's import is Python's (a third of a second: it loads its template and highlighting modules too), so it
runs in a thread of its own meanwhile; the migration's own `import` then finds it loaded, or waits for
the rest. Nothing else imports Alembic before the migration, and an up-to-date file never does.
"""

from __future__ import annotations

import importlib
import threading


def load_alembic_beside() -> None:
    """Start importing what a migration uses (`app.store.schema.migrate`) in a thread of its own."""
    threading.Thread(target=_load, name="alembic import", daemon=True).start()


def _load() -> None:
    try:
        for name in ("alembic.config", "alembic.command"):
            importlib.import_module(name)
    except ImportError:
        return  # the migration's own import says what is missing
