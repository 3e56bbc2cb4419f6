"""The kinds of memory (`app.store.kinds`): the user memories' rule and protocol as the store uses them,
and the project memories' injection rule on a table of the host's shape."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sqlalchemy import BigInteger, Column, Integer, MetaData, Table, Text, create_engine, insert, select

from app.core.clock import ManualClock
from app.store import MemoryStore
from app.store.connect.engine import open_sqlite_file
from app.store.kinds import USER_MEMORIES, UserMemoryWrites, project_injected, project_order
from app.store.schema.migrate import upgrade
from app.store.write.revision_log import WriteContext


class Recording(UserMemoryWrites):
    """The user memories' protocol, noting each call the store makes of it."""

    def __init__(self) -> None:
        self.calls: list[object] = []

    def content_written(self, ctx: WriteContext, memory_id: int) -> None:
        self.calls.append(("content", memory_id))

    def status_written(self, ctx: WriteContext, memory_id: int) -> None:
        self.calls.append(("status", memory_id))

    def finish(self, ctx: WriteContext) -> None:
        self.calls.append("finish")
        super().finish(ctx)


def test_the_store_tells_its_kinds_protocol_of_each_row_and_each_transaction(
    host_db: Path, clock: ManualClock
) -> None:
    recording = Recording()
    opened = open_sqlite_file(host_db, read_only=False, create=False)
    upgrade(opened.engine, opened.location)
    store = MemoryStore(opened, clock, kind=dataclasses.replace(USER_MEMORIES, writes=recording))
    try:
        store.edit(4, "Lives in Lisbon")
        store.dismiss([1, 2, 3])  # #2 is dismissed already: nothing written for it
        assert recording.calls == [("content", 4), "finish", ("status", 1), ("status", 3), "finish"]
        profile = [memory.id for memory in store.profile()]
        assert profile == [4, 5]
    finally:
        store.close()


def test_the_user_memories_rule_is_the_hosts() -> None:
    rule = str(USER_MEMORIES.injection_rule(0).compile(compile_kwargs={"literal_binds": True}))
    assert rule == "user_memories.status = 'active'"
    assert [str(column) for column in USER_MEMORIES.injection_order()] == [
        "user_memories.promoted_at",
        "user_memories.id",
    ]


def test_project_memories_are_injected_by_status_and_the_hosts_expiry() -> None:
    memories = Table(
        "memories",
        MetaData(),
        Column("id", Integer, primary_key=True),
        Column("category", Text),
        Column("status", Text),
        Column("updated_at", BigInteger),
        Column("expires_at", BigInteger),
    )
    engine = create_engine("sqlite://")
    memories.metadata.create_all(engine)
    now = 1_000
    rows = [
        (1, "b", "active", 10, None),
        (2, "a", "permanent", 10, None),
        (3, "a", "active", 20, now + 1),  # expires after now: injected
        (4, "a", "active", 30, now),  # expires at now (half-open): not injected
        (5, "a", "archived", 40, None),
        (6, "a", "active", 20, None),  # ties on time: by id
    ]
    keys = ("id", "category", "status", "updated_at", "expires_at")
    with engine.begin() as conn:
        conn.execute(insert(memories), [dict(zip(keys, row, strict=True)) for row in rows])
        query = (
            select(memories.c.id).where(project_injected(memories, now)).order_by(*project_order(memories))
        )
        assert list(conn.execute(query).scalars()) == [3, 6, 2, 1]
    engine.dispose()
