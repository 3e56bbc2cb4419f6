"""The kinds of memory the host keeps, each described once: its table and how a write to it ends.

A write transaction (`app.store.database.Database.write`) ends with one call of each kind's
`WriteProtocol.finish`: what the host needs to see once per transaction after we changed its rows of
that kind. For user memories that is the one bump of `project_user_profile_version`, when anything the
host injects changed (`WriteContext.profile_changed`).
"""

from __future__ import annotations

from app.store.write.revision_log import WriteContext, bump_profile_version


class WriteProtocol:
    """How the host learns that rows of one kind changed; the base does nothing."""

    def finish(self, ctx: WriteContext) -> None:
        """Once, at the end of a write transaction that may have changed rows of this kind."""


class UserMemoryWrites(WriteProtocol):
    """User memories: the host re-renders the profile it injects only when its version moves."""

    def finish(self, ctx: WriteContext) -> None:
        if ctx.profile_changed:
            bump_profile_version(ctx.conn, ctx.now)


USER_WRITES = UserMemoryWrites()
