"""What a hub row brings into this machine (`hub pull`, Copy to this machine), checked where it enters.

A hub row was written by another role, perhaps a hostile one: it is input like a verdict or a typed edit
and meets the same rules before the local database is opened. The content is a memory's
(`app.core.text_input.content_problem`); hidden, bidi, tag or control characters are refused unless the
person allows them, with the review's own rule (`app.core.screening.hidden_problem`, `--allow-hidden`).
What the copy writes into the host's columns stays within what the host can hold: candidate ids are a
JSON array of at most `MAX_CANDIDATE_IDS` positive 64-bit integers (an item that is not one is refused,
never dropped unsaid), and every value of a provenance entry the copy keeps is a 64-bit integer, a
finite number or storable text (hidden characters refused as in the content), in JSON with unique keys
and a verdict's nesting bound, at most `MAX_CANDIDATE_IDS` entries. Entries the host cannot read, which
the copy leaves out, are no problem. These rules are `app.core.incoming_checks`, which `import` shares;
a hub row's text also may not hold line or paragraph separators (U+2028, U+2029), which break a line
where a reader sees none: they are refused with the hidden characters. The machine's name and the
memory's id, which the copy records, are checked as a typed `--machine` and a typed id are.

A dismissal the hub requests (`request_problem`) brings the requesting machine's name and a reason into
the dismissal's revision: the name is checked as a machine's name, the reason as storable text of at most
a memory's size, neither with hidden characters.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from app.core.errors import InvalidInputError
from app.core.incoming_checks import Problems
from app.core.settings import machine_name_problem
from app.core.text_input import content_problem, text_problem, tolerant_json_loads
from app.present.card import shown_word
from app.store.write.synced import MachineMemory

# A memory rests on a handful of candidates; far more is a hostile row (2 million ids are 15 MB of host
# column), refused whole.
MAX_CANDIDATE_IDS = 10_000
SEPARATORS = re.compile("[\u2028\u2029]")
SHOWN_PROBLEMS = 10  # a hostile row may hold thousands; the first ones say enough
LINE_CHARS = 200
ALLOW_HIDDEN = "`hub pull --allow-hidden` copies it anyway"


def _message(problems: Problems, memory: MachineMemory) -> str:
    lines = []
    for item in problems.items[:SHOWN_PROBLEMS]:
        line = f"{item.where}: {item.what}"  # a number past 64 bits may have thousands of digits
        lines.append(line if len(line) <= LINE_CHARS else line[: LINE_CHARS - 1] + "…")
    more = len(problems.items) - SHOWN_PROBLEMS
    lines += [f"and {more:,} more"] if more > 0 else []
    head = f"the hub's copy of {shown_word(memory.machine)} #{memory.memory_id} is refused"
    tail = f" ({ALLOW_HIDDEN})" if any(item.hidden for item in problems.items) else ""
    return "\n  - ".join([f"{head}; nothing was copied{tail}", *lines])


def _separator_problem(text: str) -> str | None:
    found = SEPARATORS.search(text)
    if found is None:
        return None
    return (
        f"holds a line or paragraph separator (U+{ord(found.group()):04X}) at character {found.start() + 1}"
    )


class HubProblems(Problems):
    """The shared rules, and no line or paragraph separator in any text unless hidden ones are allowed."""

    def text(self, where: str, value: str, rule: Callable[[str], str | None] = text_problem) -> None:
        found = len(self.items)
        super().text(where, value, rule)
        if len(self.items) == found and not self.allow_hidden:
            self.add(where, _separator_problem(value), hidden=True)


def _too_many(problems: Problems, where: str, raw: str | None) -> bool:
    """Whether the JSON array `raw` holds more items than a memory rests on (then refused, unread)."""
    data = tolerant_json_loads(raw) if raw is not None else None
    if not isinstance(data, list) or len(data) <= MAX_CANDIDATE_IDS:
        return False
    problems.add(
        where, f"holds {len(data):,} items; a memory rests on at most {MAX_CANDIDATE_IDS:,} candidates"
    )
    return True


def check_memory(memory: MachineMemory, *, allow_hidden: bool = False) -> None:
    """Everything of `memory` a copy writes here, checked; InvalidInputError listing what is refused."""
    problems = HubProblems(allow_hidden)
    problems.text("the machine's name", memory.machine, machine_name_problem)
    problems.whole_id("the memory's id", memory.memory_id)
    problems.text("the content", memory.content, content_problem)
    ids, provenance = memory.candidate_ids, memory.provenance
    if ids is not None and not _too_many(problems, "source_candidate_ids", ids):
        problems.candidate_ids_json("source_candidate_ids", ids, whole=True)  # every item an id
    if not _too_many(problems, "source_candidate_provenance", provenance):
        problems.provenance_json("source_candidate_provenance", provenance)
    if problems.items:
        raise InvalidInputError(_message(problems, memory))


def _reason_problem(reason: str) -> str | None:
    """A request's reason: storable text, at most a memory's size (blank is no reason)."""
    return content_problem(reason) if reason.strip() else None


def request_problem(requested_on: str, reason: str | None) -> str | None:
    """Why a dismissal the hub requests may not be applied here, or None: what its revision would keep."""
    problems = HubProblems(allow_hidden=False)
    problems.text("requested_on", requested_on, machine_name_problem)
    if reason is not None:
        problems.text("reason", reason, _reason_problem)
    return "; ".join(f"{item.where}: {item.what}" for item in problems.items) or None
