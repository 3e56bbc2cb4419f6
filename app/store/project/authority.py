"""Which projects the host's native module owns, and the refusal of any write to them.

A project with a row in `authority_managed` (the module manages it) or `authority_repair_pending` (the
module is repairing it) is written only by that module: the host's guard triggers abort every other
writer unless `context_privilege_state` is enabled, which is the module's switch and never ours. We
check first and refuse with a message that says why, so the person reads the reason, not a trigger's
error. A file from before those tables (older hosts) has no owned project.
"""

from __future__ import annotations

from sqlalchemy import Connection, inspect, select

from app.core.errors import ReadOnlyError
from app.store.project.tables import authority_managed, authority_repair_pending, memories

MANAGED_REASON = "the host's native module manages this project (authority_managed)"
REPAIR_REASON = "the host's native module is repairing this project (authority_repair_pending)"


def _tables_present(conn: Connection) -> bool:
    names = set(inspect(conn).get_table_names())
    return {authority_managed.name, authority_repair_pending.name} <= names


def managed_projects(conn: Connection) -> dict[object, str]:
    """Every owned project's `project_path` value as stored, with the reason it is read-only."""
    if not _tables_present(conn):
        return {}
    owned: dict[object, str] = {
        row[0]: REPAIR_REASON for row in conn.execute(select(authority_repair_pending.c.project_path))
    }
    owned.update({row[0]: MANAGED_REASON for row in conn.execute(select(authority_managed.c.project_path))})
    return owned


def read_only_reason(conn: Connection, memory_id: int) -> str | None:
    """Why memory `memory_id`'s project is read-only to us, or None. Matched on the stored value
    itself (a subquery), as the triggers match it, whatever bytes the path holds."""
    if not _tables_present(conn):
        return None
    path = select(memories.c.project_path).where(memories.c.id == memory_id).scalar_subquery()
    if conn.execute(
        select(authority_managed.c.project_path).where(authority_managed.c.project_path == path)
    ).first():
        return MANAGED_REASON
    pending = authority_repair_pending.c.project_path
    if conn.execute(select(pending).where(pending == path)).first():
        return REPAIR_REASON
    return None


def ensure_writable(conn: Connection, memory_id: int) -> None:
    """Refuse (`ReadOnlyError`) a write to a memory of a project the host's native module owns."""
    reason = read_only_reason(conn, memory_id)
    if reason is not None:
        raise ReadOnlyError(f"project memory #{memory_id} is read-only: {reason}; nothing was written")
