"""Read commands: list, show, history, candidates, profile, recall, export."""

from __future__ import annotations

import argparse
from typing import Any

from app.cli.arguments import add_kind_options, instant, int64, plain_text, positive_int64, source_name
from app.cli.commands import history_views, project_past
from app.cli.commands.export import FORMATS, export_command
from app.cli.project import reads as project_reads
from app.cli.registry import Opener, add_force_option, command_adder
from app.cli.render import (
    candidate_json,
    candidate_line,
    memory_details,
    memory_json,
    memory_line,
    print_json,
    revision_json,
    revision_with_evidence,
)
from app.core.clock import format_instant
from app.core.errors import InvalidInputError, NotFoundError
from app.core.models import Revision, RevisionKind
from app.core.models.evidence import memory_candidate_ids
from app.core.models.filters import STATUS_FILTERS, TRUST_FILTERS, MemoryFilter, StatusFilter
from app.core.models.links import Link, grouped_phrases
from app.core.screening import make_visible
from app.store.read.recall import RECALL_ORDERS


def _user_status(text: str | None) -> StatusFilter:
    """`--status` of user memories: one of their filters (a project's status may be any text)."""
    if text is None:
        return "all"
    for status in STATUS_FILTERS:
        if text == status:
            return status
    raise InvalidInputError(f"--status: choose one of {', '.join(STATUS_FILTERS)} (not {text[:40]!r})")


def cmd_list(args: argparse.Namespace, opener: Opener) -> int:
    if args.kind == project_reads.KIND:
        return project_reads.cmd_list(args, opener)
    project_reads.refuse_options(args, ("project", "category"), "user")
    status = args.status = _user_status(args.status)  # the as-of listing reads it too
    if args.as_of is not None:
        return history_views.list_as_of(args, opener)
    with opener(args, write=False) as store:
        memories = store.list_memories(
            MemoryFilter(
                status=status,
                search=args.search or "",
                source=args.source or "",
                since=args.since,
                until=args.until,
                trust=args.trust or "",
            )
        )
        now = store.now()
    if args.json:
        print_json([memory_json(memory, now) for memory in memories])
    else:
        for memory in memories:
            print(memory_line(memory, now))
        if not memories:
            print("no memories match")
    return 0


def _not_found(memory_id: int, revisions: list[Revision]) -> NotFoundError:
    """A memory that is not there: for a deleted one, when it went and how to bring it back."""
    deleted = [revision for revision in revisions if revision.kind == RevisionKind.DELETE]
    if not deleted:
        return NotFoundError(f"memory #{memory_id} does not exist")
    last = deleted[-1]
    return NotFoundError(
        f"memory #{memory_id} was deleted {format_instant(last.changed_at)} (by {last.source}); "
        f"bring it back with: memory-dashboard restore {memory_id} {last.id}"
    )


def cmd_show(args: argparse.Namespace, opener: Opener) -> int:
    if args.kind == project_reads.KIND:
        return project_reads.cmd_show(args, opener)
    if args.as_of is not None:
        return history_views.show_as_of(args, opener)
    with opener(args, write=False) as store:
        try:
            memory = store.get(args.id)
        except NotFoundError:
            raise _not_found(args.id, store.history(args.id)) from None
        now = store.now()
        found = store.evidence(memory_candidate_ids(memory))
        links = store.links([memory.id]).get(memory.id, [])
    phrases = grouped_phrases(memory.id, links)
    if args.json:
        print_json(
            {**memory_json(memory, now, found), "links": [link_json(memory.id, link) for link in links]}
        )
    else:
        print(memory_details(memory, now, found) + (f"\nlinks: {'; '.join(phrases)}" if phrases else ""))
    return 0


def link_json(memory_id: int, link: Link) -> dict[str, object]:
    """One link of `show --json`: as seen from the memory shown ("merged into #12"), and who made it."""
    return {
        "phrase": link.phrase_for(memory_id),
        "relation": link.relation,
        "from": link.from_id,
        "to": link.to_id,
        "made_at": link.made_at,
        "made_by": link.made_by,
    }


def cmd_history(args: argparse.Namespace, opener: Opener) -> int:
    if project_past.wants_project(args):
        return project_past.history(args, opener)
    with opener(args, write=False) as store:
        revisions = store.history(args.id)
        if not revisions and not store.get_many([args.id]):
            raise NotFoundError(f"memory #{args.id} does not exist")
        found = store.evidence([item for revision in revisions for item in revision.candidate_ids])
    if args.json:
        print_json([revision_json(revision, found) for revision in revisions])
    elif not revisions:
        print(f"memory #{args.id} has no recorded revisions")
    else:
        for revision in revisions:
            print("\n".join(revision_with_evidence(revision, found)))
    return 0


def cmd_candidates(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=False) as store:
        pending = store.candidates()
        now = store.now()
    if args.json:
        print_json([candidate_json(candidate) for candidate in pending])
        return 0
    for candidate in pending:
        print(candidate_line(candidate, now))
    if not pending:
        print("no pending candidates")
    return 0


def cmd_profile(args: argparse.Namespace, opener: Opener) -> int:
    if args.kind == project_reads.KIND:
        if args.as_of is not None:
            return project_past.profile(args, opener)  # what the host injected then
        return project_reads.cmd_profile(args, opener)
    project_reads.refuse_options(args, ("project",), "user")
    if args.as_of is not None:
        return history_views.profile_as_of(args, opener)
    with opener(args, write=False) as store:
        memories = store.profile()
        now = store.now()
    if args.json:
        print_json([memory_json(memory, now) for memory in memories])
        return 0
    for memory in memories:
        print(f"- {make_visible(memory.content)}")
    return 0


def cmd_recall(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=False) as store:
        memories = store.recall(args.search or "", limit=args.limit, order=args.order)
        now = store.now()
    if args.json:
        print_json([memory_json(memory, now) for memory in memories])
    else:
        for memory in memories:
            print(f"- {make_visible(memory.content)}")
    return 0


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    add = command_adder(subparsers, parents)

    parser = add("list", cmd_list, "list memories (expired ones marked)")
    add_kind_options(parser, project=True)
    parser.add_argument(
        "--status",
        type=plain_text,
        metavar="S",
        help=f"user memories: {', '.join(STATUS_FILTERS)} (default all); project memories: any status",
    )
    parser.add_argument("--category", type=plain_text, metavar="C", help="with --kind project: this category")
    parser.add_argument("--search", metavar="TEXT", help="words that must all occur (or #ID)")
    parser.add_argument("--source", type=source_name, help="a source (session:ID, user:dashboard) or scheme")
    parser.add_argument("--since", type=instant, metavar="WHEN", help="promoted at or after WHEN")
    parser.add_argument("--until", type=instant, metavar="WHEN", help="promoted before WHEN")
    parser.add_argument("--trust", choices=TRUST_FILTERS, help="of this trust (screened: hidden characters)")
    parser.add_argument("--json", action="store_true")
    history_views.add_as_of_option(parser)

    parser = add("show", cmd_show, "one memory with its card line, provenance, sources and trust")
    parser.add_argument("id", type=int64)
    add_kind_options(parser)
    parser.add_argument("--json", action="store_true")
    history_views.add_as_of_option(parser)

    parser = add("history", cmd_history, "a memory's revisions, oldest first")
    parser.add_argument("id", type=int64)
    parser.add_argument("--json", action="store_true")
    add_kind_options(parser)

    parser = add("candidates", cmd_candidates, "pending candidates in the pool")
    parser.add_argument("--json", action="store_true")

    parser = add("profile", cmd_profile, "what the agent is shown now: active, unexpired memories")
    add_kind_options(parser, project=True)
    parser.add_argument("--json", action="store_true")
    history_views.add_as_of_option(parser)

    parser = add("recall", cmd_recall, "the agent's other reads: search, newest or best match first")
    parser.add_argument("--search", metavar="TEXT")
    parser.add_argument("--limit", type=positive_int64)
    parser.add_argument("--order", choices=RECALL_ORDERS, default="recent")
    parser.add_argument("--json", action="store_true")

    parser = add("export", export_command, "every memory with its provenance and revisions")
    parser.add_argument("--format", choices=FORMATS, default="json")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    add_force_option(parser)
