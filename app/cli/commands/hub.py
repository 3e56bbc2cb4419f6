"""`hub setup`, `publish`, `status`, `list`, `request-dismiss`, `pull`, `configure`, `open`: memories in a
shared PostgreSQL hub (`open`, and `--db URL` of a hub, open the hub window through the GUI hooks).

The hub's URL and this machine's name come from the options, else from the settings (`hub configure`);
the machine's name defaults to the host name. A URL holding a password is never saved; `configure
--store-password` keeps the password in the OS keyring instead. `app.hub` (and
psycopg) load only when a hub command runs, so every other command starts without them.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from app.cli.arguments import int64, positive_int64
from app.cli.commands import hub_projects
from app.cli.opener import database_choice
from app.cli.registry import Opener
from app.cli.render import print_json
from app.core.clock import clock_from_env, format_instant
from app.core.errors import InvalidInputError
from app.core.paths import DatabaseChoice
from app.core.settings import (
    hub_machine_setting,
    hub_publish_every_setting,
    hub_url_setting,
    load_settings,
    machine_name_problem,
    save_settings,
    with_hub,
)
from app.core.text_input import text_problem
from app.present.card import shown_word

if TYPE_CHECKING:
    from app.hub.browse import HubListing
    from app.hub.cards import HubCard
    from app.hub.status import MachineStatus
    from app.store.store import MemoryStore

REQUEST_HELP = (
    "Dismiss on every machine: queue a dismissal of this memory's copies, applied by each machine on its "
    "next publish"
)
PULL_HELP = (
    "Copy to this machine: another machine's memory from the hub as a new one here (provenance origin "
    "sync naming that machine)"
)
SETUP_HELP = (
    "make the database a hub, once, as an administrator (a role that may create roles and schemas): its "
    "schema and tables owned by a role that publishes nothing, row-level security forced, publishers given "
    "only what they need, no member of that role; lists the schemas that may hold an older version's hub, "
    "and moves the one `--from` names; running it again changes nothing"
)
LIST_HELP = "the hub's cards: one per memory across machines, each machine with its status there"
NO_HUB = "no hub: pass --to URL, or save one with `hub configure --url URL`"


def _hub(given: str | None) -> str:
    url = given or hub_url_setting(load_settings())
    if not url:
        raise InvalidInputError(NO_HUB)
    return url


def _machine(given: str | None) -> str:
    if given is None:
        return hub_machine_setting(load_settings())
    problem = machine_name_problem(given)
    if problem is not None:
        raise InvalidInputError(f"--machine {problem}")
    return given.strip()


def cmd_request_dismiss(args: argparse.Namespace, _opener: Opener) -> int:
    url, here = _hub(args.to), _machine(args.machine)
    problem = machine_name_problem(args.source_machine)
    if problem is None and args.reason is not None:
        problem = text_problem(args.reason)
    if problem is not None:
        raise InvalidInputError(f"the request {problem}")
    from app.hub.requests import queue_dismiss

    queued = queue_dismiss(
        url,
        args.source_machine,
        args.id,
        requested_on=here,
        now=clock_from_env().now_ms(),
        reason=args.reason,
    )
    if args.json:
        print_json({"queued": [item.to_json() for item in queued]})
    elif not queued:
        print("nothing queued: every machine's copy is dismissed already or has a request pending")
    else:
        from app.hub.words import machine_name

        shown = ", ".join(f"{machine_name(item.machine)} #{item.memory_id}" for item in queued)
        print(f"queued: dismiss on {shown}; each machine applies it on its next publish")
    return 0


def cmd_publish(args: argparse.Namespace, opener: Opener) -> int:
    url, machine = _hub(args.to), _machine(args.machine)

    def open_local() -> AbstractContextManager[MemoryStore]:
        result: AbstractContextManager[MemoryStore] = opener(args)
        return result

    from app.hub.publish import publish

    report = publish(open_local, url, machine, project=args.project)
    if args.json:
        print_json(report.to_json())
    else:
        print(report.text())
    return 0


def _when(at: int | None) -> str:
    return "never" if at is None else format_instant(at)


def status_text(rows: list[MachineStatus]) -> str:
    """The status as a table; a machine's name, written by whoever published it, on one line and cut,
    with hidden characters visible."""
    from app.hub.words import machine_name

    if not rows:
        return "no machine has published to this hub (as this role) yet"
    lines = [
        f"{'machine':24} {'last publish':22} {'memories':>9} {'active':>7} {'revisions':>10} {'evidence':>9}"
        f" {'requests':>8}"
    ]
    for row in rows:
        machine = machine_name(row.machine, 24)
        lines.append(
            f"{machine:24} {_when(row.published_at):22} {row.memories:>9,} {row.active:>7,} "
            f"{row.revisions:>10,} {row.evidence:>9,} {row.pending_requests:>8,}"
        )
    return "\n".join(lines)


def cmd_status(args: argparse.Namespace, _opener: Opener) -> int:
    from app.hub.status import hub_status

    rows = hub_status(_hub(args.to))
    if args.json:
        print_json({"machines": [row.to_json() for row in rows]})
    else:
        print(status_text(rows))
    return 0


def cmd_pull(args: argparse.Namespace, opener: Opener) -> int:
    url = _hub(args.to)
    problem = machine_name_problem(args.source_machine)
    if problem is not None:
        raise InvalidInputError(f"the machine's name {problem}")
    from app.hub.pull import pull

    machine = args.source_machine.strip()
    memory = pull(lambda: opener(args, write=True), url, machine, args.id, allow_hidden=args.allow_hidden)
    if args.json:
        print_json({"memory_id": memory.id, "copied_from": machine, "copied_memory_id": args.id})
    else:
        from app.hub.words import machine_name

        print(f"copied {machine_name(machine)} #{args.id} to this machine as #{memory.id}")
    return 0


def cmd_setup(args: argparse.Namespace, _opener: Opener) -> int:
    from app.hub.schema.setup import setup_hub

    report = setup_hub(_hub(args.to), move_from=args.move_from)
    if args.json:
        print_json(report.to_json())
    else:
        print(report.text())
    return 0


def card_text(card: HubCard) -> str:
    """Two lines of `hub list`: the newest text, then each machine with its status there."""
    from app.cli.render import one_line
    from app.hub.words import machine_name

    where = [
        f"{machine_name(c.machine, 40)} #{c.memory_id} {shown_word(c.shown_status)}" for c in card.copies
    ]
    where += [f"not on {machine_name(machine, 40)}" for machine in card.missing]
    if card.differs:
        where.append(f"differs: {len(card.versions())} texts")
    return f"{one_line(card.text, 100)}\n    {' · '.join(where)}"


def listing_text(listing: HubListing, cards: list[HubCard]) -> str:
    from app.hub.words import machine_name

    if not cards:
        return "the hub holds no memory this role published"
    counts = listing.counts
    machines = ", ".join(machine_name(machine, 40) for machine in listing.machines)
    head = (
        f"{counts.cards:,} cards, {counts.copies:,} copies on {len(listing.machines)} machines ({machines});"
        f" {counts.differing:,} with differing texts, {counts.on_every_machine:,} on every machine"
    )
    return "\n".join([head, *(card_text(card) for card in cards)])


def cmd_list(args: argparse.Namespace, _opener: Opener) -> int:
    from dataclasses import asdict

    from app.hub.browse import every_card

    if args.kind == hub_projects.PROJECT_KIND:
        return hub_projects.cmd_list_projects(args, _hub(args.to))
    listing, cards = every_card(_hub(args.to))
    if args.json:
        counts = asdict(listing.counts)
        counts.pop("machines")
        print_json(
            {"machines": list(listing.machines), "counts": counts, "cards": [c.to_json() for c in cards]}
        )
    else:
        print(listing_text(listing, cards))
    return 0


def read_password(prompt: str) -> str:
    """The password typed at a prompt that does not echo it, or the first line of standard input when
    that is not a terminal (never an argument: those show in `ps` and the shell's history)."""
    typed = getpass.getpass(prompt) if sys.stdin.isatty() else sys.stdin.readline().rstrip("\r\n")
    problem = "is empty" if not typed else text_problem(typed)
    if problem is not None:
        raise InvalidInputError(f"the password {problem}; nothing was saved")
    return typed


def _store_password(url: str) -> str:
    from app.hub.connect import hub_url
    from app.hub.password import keyring_user, store_password

    parsed = hub_url(url)
    who = keyring_user(parsed)
    backend = store_password(parsed, read_password(f"Password for {who}: "))
    return f"the password for {who} is kept in the OS keyring ({backend}), not in the settings"


def cmd_configure(args: argparse.Namespace, _opener: Opener) -> int:
    settings = load_settings()
    if args.url is not None or args.machine is not None or args.publish_every is not None:
        settings = with_hub(settings, args.url, args.machine, args.publish_every)
        save_settings(settings)
    data: dict[str, Any] = {
        "hub_url": hub_url_setting(settings),
        "machine": hub_machine_setting(settings),
        "publish_every_min": hub_publish_every_setting(settings),
    }
    if args.store_password:
        data["password_kept"] = _store_password(_hub(data["hub_url"]))
    if args.json:
        print_json(data)
    else:
        print(f"hub: {data['hub_url'] or '(none)'}\nmachine: {data['machine']}")
        every = data["publish_every_min"]
        print(f"publish automatically: {f'every {every} min while the window is open' if every else 'off'}")
        if "password_kept" in data:
            print(data["password_kept"])
    return 0


def _is_postgres_url(target: str) -> bool:
    return target.partition("://")[0].partition("+")[0].lower() in ("postgresql", "postgres")


def hub_to_open(args: argparse.Namespace) -> str | None:
    """The hub the window opens: `hub open`'s (the saved one by default), or `--db URL` when that
    database holds a hub's tables; None for any other database."""
    from_settings = getattr(args, "open_hub", False)
    target = _hub(args.to) if from_settings else getattr(args, "db", None)
    if not target or not (from_settings or _is_postgres_url(target)):
        return None
    from app.hub.browse import is_hub_url
    from app.hub.connect import HubError, hub_location

    if is_hub_url(target):
        return target
    if from_settings:
        raise HubError(f"{hub_location(target)} is not a hub: `hub setup` was never run there")
    return None


def local_database(args: argparse.Namespace, hub: str) -> DatabaseChoice:
    """Where the hub window's Copy to this machine writes: `--db` (when it is not the hub itself), else
    the default database (MEMORY_DASHBOARD_DB, the host's context.db, the embedded store)."""
    given = getattr(args, "db", None)
    return database_choice(
        argparse.Namespace(db=None if given == hub else given, demo=getattr(args, "demo", False))
    )


def _hub_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--to", "--hub", dest="to", metavar="URL",
        help="the hub: postgresql://USER@HOST/DB (no password: libpq reads ~/.pgpass, PGPASSFILE, a "
        "service file; sslmode and other options in the query); default: the saved one",
    )  # fmt: skip


def _command(
    commands: Any,
    parents: list[argparse.ArgumentParser],
    name: str,
    handler: Any,
    help_text: str,
    *,
    json: bool = True,
) -> Any:
    """A hub subcommand with the global options, `--to URL` and (unless `json` is False) `--json`."""
    parser = commands.add_parser(name, parents=parents, help=help_text, description=help_text)
    parser.set_defaults(handler=handler)
    _hub_option(parser)
    if json:
        parser.add_argument("--json", action="store_true")
    return parser


def _memory_of_a_machine(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source_machine", metavar="MACHINE", help="the machine the memory id is of")
    parser.add_argument("id", type=positive_int64, metavar="ID", help="the memory's id on that machine")


def register(subparsers: Any, parents: list[argparse.ArgumentParser]) -> None:
    hub = subparsers.add_parser(
        "hub", help="publish this machine's memories to a shared PostgreSQL hub; its status",
        description="A hub: one PostgreSQL database several machines publish their memories to.",
    )  # fmt: skip
    commands = hub.add_subparsers(dest="hub_command", metavar="HUB_COMMAND", required=True)
    setup = _command(commands, parents, "setup", cmd_setup, SETUP_HELP)
    setup.add_argument(
        "--from", dest="move_from", metavar="SCHEMA",
        help="the schema of an older version's hub to move in (its rows as its owner role wrote them: name "
        "only a schema whose owner you trust)",
    )  # fmt: skip
    publish_parser = _command(
        commands, parents, "publish", cmd_publish,
        "send what changed since the last publish (all, the first time)",
    )  # fmt: skip
    publish_parser.add_argument(
        "--machine", metavar="NAME", help="this machine's name (default: saved, else host name)"
    )
    hub_projects.add_publish_options(publish_parser)
    _command(commands, parents, "status", cmd_status, "machines, last publish, counts, pending requests")
    hub_projects.add_list_options(_command(commands, parents, "list", cmd_list, LIST_HELP))
    request = _command(commands, parents, "request-dismiss", cmd_request_dismiss, REQUEST_HELP)
    _memory_of_a_machine(request)
    request.add_argument("--reason", metavar="TEXT", help="kept in each dismissal's revision")
    request.add_argument("--machine", metavar="NAME", help="this machine's name, named in the request")
    pull_parser = _command(commands, parents, "pull", cmd_pull, PULL_HELP)
    _memory_of_a_machine(pull_parser)
    pull_parser.add_argument(
        "--allow-hidden", action="store_true", help="accept content with invisible, bidi or tag characters"
    )
    opening = _command(  # a window, never JSON: `hub list --json` is the listing's JSON
        commands, parents, "open", None, "open the hub window: every machine's memories, one card each",
        json=False,
    )  # fmt: skip
    opening.set_defaults(open_hub=True)
    configure = commands.add_parser(
        "configure", parents=parents, help="save the hub URL (without password) and this machine's name"
    )
    configure.set_defaults(handler=cmd_configure)
    configure.add_argument("--url", metavar="URL", help="the hub's URL, without a password")
    configure.add_argument("--machine", metavar="NAME", help="this machine's name in the hub")
    configure.add_argument(
        "--publish-every", type=int64, metavar="MINUTES",
        help="the window publishes on its own every MINUTES while it is open (0: off, the default)",
    )  # fmt: skip
    configure.add_argument(
        "--store-password", action="store_true",
        help="keep the hub's password in the OS keyring (asked at a prompt that does not echo, or read "
        "from standard input; never saved in settings.json)",
    )  # fmt: skip
    configure.add_argument("--json", action="store_true")
