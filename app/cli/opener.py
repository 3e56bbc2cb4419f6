"""Opening the store a command asked for: `--db`, `--demo`, or the default choice, with warnings shown."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from app.clock import NOW_ENV, clock_from_env
from app.paths import DatabaseChoice, choose_database
from app.store import InvalidInputError, MemoryStore, ReadOnlyError


def database_choice(args: argparse.Namespace) -> DatabaseChoice:
    if getattr(args, "demo", False):
        from app.demo import ensure_demo_store

        return DatabaseChoice(str(ensure_demo_store()), "demo")
    return choose_database(getattr(args, "db", None))


@contextmanager
def open_store(args: argparse.Namespace, write: bool = False) -> Iterator[MemoryStore]:
    """The store for one command; a writer on a read-only store is refused by the store itself."""
    try:
        clock = clock_from_env()
    except ValueError as exc:
        raise InvalidInputError(f"{NOW_ENV}: {exc}") from exc
    store = MemoryStore.open(
        database_choice(args), read_only=bool(getattr(args, "read_only", False)), clock=clock
    )
    if write and store.read_only:
        store.close()
        raise ReadOnlyError(
            f"{store.location} is open read-only ({store.read_only_reason}); nothing was written"
        )
    try:
        yield store
    finally:
        for warning in store.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        store.close()
