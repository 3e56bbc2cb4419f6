"""Opening the store a command asked for: `--db`, `--demo`, or the default choice, with warnings shown."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from app.core.clock import NOW_ENV, clock_from_env
from app.core.errors import DatabaseOpenError
from app.core.paths import DatabaseChoice, choice_problem, choose_database, is_url
from app.store import InvalidInputError, MemoryStore, ReadOnlyError


def database_choice(args: argparse.Namespace) -> DatabaseChoice:
    """The database a command names, checked before anything follows a bad link or creates a file."""
    demo = bool(getattr(args, "demo", False))
    if demo:
        from app.demo.build import demo_path, ensure_demo_store

        choice = DatabaseChoice(str(demo_path()), "demo")
    else:
        choice = choose_database(getattr(args, "db", None))
    problem = choice_problem(choice)
    if problem is not None:
        raise DatabaseOpenError(problem)
    if demo:  # built to end at the command's clock, so MEMORY_DASHBOARD_NOW gives the same store each time
        ensure_demo_store(Path(choice.target), now=clock_from_env().now_ms())
    return choice


@contextmanager
def open_store(
    args: argparse.Namespace, write: bool = False, observe: bool = True, first_look: bool = False
) -> Iterator[MemoryStore]:
    """The store for one command, outside rewrites recorded (`observe`) before the command reads: no
    read of the store observes by itself. A writer on a read-only store is refused by the store itself.
    `observe=False`: the caller observes when it reads (the window's complete listing, after its first
    frame), so the launch does not wait for a scan of every memory first. `first_look`: the window's
    first frame, read before its own store opens (`MemoryStore.open`)."""
    try:
        clock = clock_from_env()
    except ValueError as exc:
        raise InvalidInputError(f"{NOW_ENV}: {exc}") from exc
    store = MemoryStore.open(
        database_choice(args),
        read_only=bool(getattr(args, "read_only", False)),
        clock=clock,
        first_look=first_look,
    )
    if write and store.read_only:
        store.close()
        raise ReadOnlyError(
            f"{store.location} is open read-only ({store.read_only_reason}); nothing was written"
        )
    try:
        if observe:
            store.observe()
        yield store
    finally:
        for warning in store.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        store.close()


def database_files(store: MemoryStore) -> list[Path]:
    """The open database's file (none for a server URL): what a command writing a file must not hit."""
    return [] if is_url(store.location) else [Path(store.location)]
