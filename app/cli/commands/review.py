"""`memory-dashboard review prompt | apply | run`: the automated review from the command line."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from app.cli.arguments import read_text_input, seconds
from app.cli.registry import Opener, command_adder
from app.cli.render import print_json
from app.core.clock import format_instant
from app.core.settings import load_settings
from app.review.apply import ApplyResult, apply_verdict
from app.review.errors import ReviewerError, VerdictError
from app.review.prompt import build_prompt
from app.review.runner import extract_json, resolve_command, run_review
from app.review.verdict import parse_verdict
from app.store import InvalidInputError

MAX_RUN_ID = 200
MAX_VERDICT_BYTES = 64 * 1024 * 1024  # far above any real verdict (each content is at most 64 KiB)


def _read_verdict(path: str) -> str:
    """The verdict's JSON text from the file (or standard input, `-`), read bounded: a bare object, or a
    reviewer's answer with it in a ```json block, as `review run` reads it. Text that is not UTF-8 or
    holds several ```json blocks is a rejected verdict (exit 5), an unreadable or oversized file a plain
    error."""
    try:
        return extract_json(read_text_input(path, MAX_VERDICT_BYTES))
    except InvalidInputError as exc:
        if isinstance(exc.__cause__, UnicodeDecodeError):
            raise VerdictError([exc.message]) from exc
        raise
    except ReviewerError as exc:
        raise VerdictError([exc.message]) from exc


def _run_id(args: argparse.Namespace) -> str | None:
    run_id: str | None = args.run_id
    if run_id is not None and not (0 < len(run_id.strip()) <= MAX_RUN_ID):
        raise InvalidInputError(f"--run-id must be 1 to {MAX_RUN_ID} characters")
    return run_id.strip() if run_id else None


def _report(result: ApplyResult, as_json: bool) -> int:
    if as_json:
        print_json(result.summary())
        return 0
    if result.already_applied:
        print(
            f"run {result.run_id} was already applied at {format_instant(result.applied_at)}; "
            f"nothing changed ({result.counts_line()} then)"
        )
    else:
        print(f"run {result.run_id}: {result.counts_line()}")
        if result.changed_memory_ids:
            print("changed memories: " + ", ".join(f"#{i}" for i in result.changed_memory_ids))
    if result.skipped:
        print(f"skipped or ignored ({len(result.skipped)}):")
        for line in result.skipped:
            print(f"  - {line}")
    return 0


def cmd_prompt(args: argparse.Namespace, opener: Opener) -> int:
    with opener(args, write=False) as store:
        sys.stdout.write(build_prompt(store))
    return 0


def cmd_apply(args: argparse.Namespace, opener: Opener) -> int:
    verdict = parse_verdict(_read_verdict(args.verdict), allow_hidden=args.allow_hidden)
    run_id = _run_id(args)
    with opener(args, write=True) as store:
        result = apply_verdict(store, verdict, run_id=run_id, holder=args.holder)
    return _report(result, args.json)


def cmd_run(args: argparse.Namespace, opener: Opener) -> int:
    settings = load_settings()
    command = resolve_command(args.reviewer, settings)
    timeout = args.timeout if args.timeout is not None else settings.reviewer_timeout_s
    if timeout <= 0:
        raise InvalidInputError("--timeout must be a positive number of seconds")
    run_id = _run_id(args)
    with opener(args, write=True) as store:
        result = run_review(
            store,
            command,
            timeout_s=timeout,
            run_id=run_id,
            holder=args.holder,
            allow_hidden=args.allow_hidden,
        )
    return _report(result, args.json)


def _apply_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--run-id", metavar="ID", help="the run's id; a run id already applied is a no-op")
    parser.add_argument("--holder", metavar="ID", help="the lease holder to record (default: this process)")
    parser.add_argument(
        "--allow-hidden", action="store_true", help="accept content with invisible, bidi or tag characters"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    review = subparsers.add_parser(
        "review",
        parents=parents,
        help="the automated review: prompt, apply a verdict, run a reviewer command",
    )
    commands = review.add_subparsers(dest="review_command", metavar="SUBCOMMAND", required=True)

    add = command_adder(commands, parents)

    add("prompt", cmd_prompt, "print the reviewer's prompt: active memories and pending candidates")

    parser = add("apply", cmd_apply, "apply a verdict JSON under the user-memories lease, print counts")
    parser.add_argument("verdict", metavar="VERDICT.json", help="the verdict file (- for standard input)")
    _apply_options(parser)

    parser = add("run", cmd_run, "build the prompt, run the reviewer command, apply its verdict")
    parser.add_argument(
        "--reviewer", metavar="COMMAND", help="prompt on stdin, verdict on stdout (default: from settings)"
    )
    parser.add_argument(
        "--timeout", type=seconds, metavar="S", help="seconds to wait (default: from settings)"
    )
    _apply_options(parser)
