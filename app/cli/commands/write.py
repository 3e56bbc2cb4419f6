"""Write commands: edit, add, dismiss, reactivate, delete, restore, promote, discard, expire, sweep, init.

Dismiss, reactivate, delete, expire and restore --deleted take several ids or a filter
(`app.cli.targets`) and act on all of them in one transaction; one id answers as it always did. Each
change is a command (`app.commands`), logged so that `undo` (and the window's Undo) can take it back.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.cli.arguments import add_kind_options, int64, read_text_input
from app.cli.project import reads as project_reads
from app.cli.project import writes as project_writes
from app.cli.registry import Opener, command_adder
from app.cli.render import memory_json, memory_line, one_line, print_json
from app.cli.targets import add_target_options, chosen_ids, id_list, memories_word
from app.commands.other import Discard
from app.commands.presence import Add, Delete, Promote, RestoreDeleted
from app.commands.runner import execute
from app.commands.status import Dismiss, Reactivate, SetExpiry
from app.commands.text import Edit, RestoreRevision
from app.core.clock import format_instant, instant_problem, parse_instant
from app.core.errors import DatabaseOpenError
from app.core.models import Memory, Revision
from app.core.paths import creatable_problem, is_url
from app.present.timefmt import parse_duration
from app.store import KEEP, InvalidInputError, MemoryStore
from app.store.connect.engine import create_host_database, is_server_url

CLI = "cli"


def _content(args: argparse.Namespace) -> str:
    """`--content`, or the file (or standard input) `--file` names: bounded, strict UTF-8."""
    if args.content is not None:
        return str(args.content)
    return read_text_input(args.file)


def cmd_edit(args: argparse.Namespace, opener: Opener) -> int:
    if args.kind == project_reads.KIND:
        return project_writes.cmd_edit(args, opener)
    project_reads.refuse_options(args, ("category",), "user")
    with opener(args, write=True) as store:
        before = store.get(args.id)
        memory = execute(store, Edit(args.id, _content(args)), CLI)
        print(
            memory_line(memory, store.now()) if memory.content != before.content else f"#{args.id}: no change"
        )
    return 0


def _memory(result: Memory | list[int]) -> Memory:
    """What a command on one id returned: the memory."""
    assert isinstance(result, Memory)
    return result


def _ids(result: Memory | list[int]) -> list[int]:
    """What a command on many ids returned: those that changed."""
    assert isinstance(result, list)
    return result


def _one(args: argparse.Namespace, ids: list[int]) -> int | None:
    """The id when the command named exactly one (it answers as it always did), else None."""
    return ids[0] if len(ids) == 1 and list(args.ids) == ids else None


def _summary(verb: str, ids: Sequence[int], changed: Sequence[int]) -> str:
    """`dismissed 3 memories: #1, #3, #4` and how many were already so."""
    line = f"{verb} {memories_word(len(changed))}" + (f": {id_list(changed)}" if changed else "")
    unchanged = len(set(ids)) - len(changed)
    return line + (f" ({unchanged:,} already {verb})" if unchanged else "")


def cmd_dismiss(args: argparse.Namespace, opener: Opener) -> int:
    if args.kind == project_reads.KIND:
        return project_writes.cmd_dismiss(args, opener)
    with opener(args, write=True) as store:
        ids = chosen_ids(store, args)
        one = _one(args, ids)
        if one is None:
            print(_summary("dismissed", ids, _ids(execute(store, Dismiss(ids, args.reason), CLI))))
            return 0
        was = store.get(one).status
        memory = _memory(execute(store, Dismiss(one, args.reason), CLI))
        print(f"#{one}: already {was}" if was == memory.status else memory_line(memory, store.now()))
        if args.reason and was != memory.status:
            print(f"        reason: {one_line(args.reason, 200)}")
    return 0


def _new_expiry(args: argparse.Namespace, now: int) -> int | object | None:
    """`--never`, `--at` or `--in` as an instant any date can show (`app.core.clock.instant_problem`)."""
    if getattr(args, "never", False):
        return None
    try:
        if getattr(args, "at", None):
            return parse_instant(args.at)
        if getattr(args, "in_", None):
            at = now + parse_duration(args.in_)
            problem = instant_problem(at)
            if problem is not None:
                raise ValueError(f"--in {args.in_.strip()[:30]} ends too far ahead: {problem}")
            return at
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from exc
    return KEEP


def cmd_reactivate(args: argparse.Namespace, opener: Opener) -> int:
    if args.kind == project_reads.KIND:
        return project_writes.cmd_reactivate(args, opener)
    with opener(args, write=True) as store:
        ids = chosen_ids(store, args)
        one = _one(args, ids)
        if one is None:
            changed = _ids(execute(store, Reactivate(ids, _new_expiry(args, store.now())), CLI))
            print(_summary("reactivated", ids, changed))
            return 0
        before = store.get(one)
        memory = _memory(execute(store, Reactivate(one, _new_expiry(args, store.now())), CLI))
        unchanged = (before.status, before.expires_at) == (memory.status, memory.expires_at)
        print(f"#{one}: already {memory.status}" if unchanged else memory_line(memory, store.now()))
    return 0


def cmd_delete(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=True) as store:
        ids = chosen_ids(store, args)
        one = _one(args, ids)
        if one is None:
            execute(store, Delete(ids), CLI)
            print(
                f"deleted {memories_word(len(ids))}: {id_list(ids)}; bring them back with: "
                f"memory-dashboard restore --deleted ID... (list them with: list --status deleted)"
            )
            return 0
        revision = execute(store, Delete(one), CLI)
        assert isinstance(revision, Revision)
    print(f"deleted #{one}; bring it back with: memory-dashboard restore {one} {revision.id}")
    return 0


def cmd_restore(args: argparse.Namespace, opener: Opener) -> int:
    """`restore ID REV` (a revision's content, or a deleted memory from its delete revision), or
    `restore --deleted ID...` / `--deleted --search TEXT`: deleted memories back from the trash."""
    with opener(args, write=True) as store:
        if args.ids is not None:
            ids = chosen_ids(store, args, deleted=True)
            restored = execute(store, RestoreDeleted(ids), CLI)
            print(f"restored {memories_word(len(restored))}: {id_list(restored)}")
            return 0
        if args.id is None or args.revision_id is None or args.search is not None:
            raise InvalidInputError("restore ID REVISION_ID, or restore --deleted ID... for deleted memories")
        memory = execute(store, RestoreRevision(args.id, args.revision_id), CLI)
        print(memory_line(memory, store.now()))
    return 0


def cmd_promote(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=True) as store:
        memory = execute(store, Promote(args.candidate_ids, args.content), CLI)
        if args.json:
            print_json({"id": memory.id})
        else:
            print(memory_line(memory, store.now()))
    return 0


def cmd_discard(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=True) as store:
        print(f"discarded {execute(store, Discard(args.candidate_ids), CLI)} candidate(s)")
    return 0


def cmd_expire(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=True) as store:
        at = _new_expiry(args, store.now())
        ids = chosen_ids(store, args)
        one = _one(args, ids)
        if one is None:
            changed = _ids(execute(store, SetExpiry(ids, at if isinstance(at, int) else None), CLI))
            when = "never expire" if not isinstance(at, int) else f"expire {format_instant(at)}"
            passed = " (already passed: dismissed)" if isinstance(at, int) and at <= store.now() else ""
            print(f"{memories_word(len(changed))} {when}: {id_list(changed)}{passed}")
            return 0
        memory = _memory(execute(store, SetExpiry(one, at if isinstance(at, int) else None), CLI))
        when = (
            "never expires" if memory.expires_at is None else f"expires {format_instant(memory.expires_at)}"
        )
        print(f"#{memory.id}: {when}" + (" (expired: dismissed)" if memory.expired else ""))
    return 0


def cmd_sweep(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=True) as store:
        # Opening a writable store already swept; report that and anything due since.
        dismissed = [*store.swept, *store.sweep()]
    print(
        f"dismissed {len(dismissed)} expired memor{'y' if len(dismissed) == 1 else 'ies'}"
        + (f": {', '.join(f'#{i}' for i in dismissed)}" if dismissed else "")
    )
    return 0


def cmd_init(args: argparse.Namespace, opener: Opener) -> int:
    target = getattr(args, "db", None)
    if target and is_server_url(target):
        store = MemoryStore.open(target)  # an empty database gets the host's tables, every one ours
        print(f"the memory store at {store.location} is ready")
        store.close()
        return 0
    if not target or is_url(target):
        raise InvalidInputError("init needs --db PATH for the new store file")
    path = Path(target)
    if path.exists() or path.is_symlink():
        raise DatabaseOpenError(f"{path} already exists; nothing was changed")
    problem = creatable_problem(path)
    if problem is not None:
        raise DatabaseOpenError(problem)
    create_host_database(path)
    MemoryStore.open(path).close()
    print(f"created an empty memory store at {path}")
    return 0


def _add_expiry_options(parser: argparse.ArgumentParser, required: bool) -> None:
    group = parser.add_mutually_exclusive_group(required=required)
    group.add_argument("--at", metavar="EPOCH_MS|ISO", help="an instant: epoch milliseconds or ISO 8601")
    group.add_argument("--in", dest="in_", metavar="DURATION", help="from now: 30m, 12h, 7d, 2w, 3mo, 1y")
    group.add_argument("--never", action="store_true", help="no expiry")


def cmd_add(args: argparse.Namespace, opener: Opener) -> int:
    """A memory a person writes, as the host writes a promotion (`MemoryStore.add`)."""
    content = str(args.content) if args.content is not None else read_text_input(args.file)
    with opener(args, write=True) as store:
        memory = execute(store, Add(content), CLI)
        now = store.now()
    if args.json:
        print_json(memory_json(memory, now))
    else:
        print(memory_line(memory, now))
    return 0


def _add_content_options(parser: argparse.ArgumentParser, *, category: bool = False) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--content", metavar="TEXT")
    source.add_argument("--file", metavar="FILE", help="read the content from FILE (- for standard input)")
    if category:
        source.add_argument(
            "--category", metavar="NAME", help="with --kind project: move it to this category"
        )


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)

    parser = add("edit", cmd_edit, "replace a memory's content (a dashboard revision)")
    parser.add_argument("id", type=int64)
    _add_content_options(parser, category=True)
    add_kind_options(parser)

    parser = add("add", cmd_add, "write a new memory yourself (active at once, trusted)")
    _add_content_options(parser)
    parser.add_argument("--json", action="store_true")

    parser = add("dismiss", cmd_dismiss, "stop the agent from being shown memories (ids or a filter)")
    add_target_options(parser)
    parser.add_argument("--reason", metavar="TEXT")
    add_kind_options(parser)  # a project memory is archived, its reason kept as the host keeps it

    parser = add("reactivate", cmd_reactivate, "make dismissed memories active again (ids or a filter)")
    add_target_options(parser)
    add_kind_options(parser)  # a project memory is restored
    _add_expiry_options(parser, required=False)

    parser = add(
        "delete",
        cmd_delete,
        "delete memories (ids or a filter; their revisions survive, restore brings back)",
    )
    add_target_options(parser)

    parser = add(
        "restore",
        cmd_restore,
        "bring back a revision's content (restore ID REV), or deleted memories (restore --deleted ID...)",
    )
    parser.add_argument("id", type=int64, nargs="?")
    parser.add_argument("revision_id", type=int64, nargs="?")
    parser.add_argument(
        "--deleted",
        dest="ids",
        type=int64,
        nargs="*",
        metavar="ID",
        help="deleted memories to bring back, each from its latest delete revision (or --search)",
    )
    parser.add_argument("--search", metavar="TEXT", help="with --deleted: the deleted memories matching TEXT")

    parser = add("promote", cmd_promote, "promote pending candidates into one new memory")
    parser.add_argument("candidate_ids", type=int64, nargs="+", metavar="CANDIDATE_ID")
    parser.add_argument(
        "--content", metavar="TEXT", help="default: the candidates' contents joined into one line"
    )
    parser.add_argument("--json", action="store_true")

    parser = add("discard", cmd_discard, "delete pending candidates from the pool without using them")
    parser.add_argument("candidate_ids", type=int64, nargs="+", metavar="CANDIDATE_ID")

    parser = add("expire", cmd_expire, "set when memories stop being recalled (ids or a filter)")
    add_target_options(parser)
    _add_expiry_options(parser, required=True)

    add("sweep", cmd_sweep, "dismiss memories whose expiry has passed (for a scheduler)")
    add("init", cmd_init, "create an empty store in the host's shape at --db PATH")
