"""The reviewer's prompt: the active memories, the pending candidates, and what to answer.

Lines follow the host's prompt: `Memory #5: "…"` and `Candidate #141 [session ses_c3f1]: "…"`. Content is
untrusted, so it is quoted as a JSON string (a newline or quote cannot end the line or the quote) and
hidden characters are escaped as `\\uXXXX` so they are visible to the reviewer rather than acted upon.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from app.core.screening import classify
from app.store import Candidate, Memory, MemoryFilter, MemoryStore

_PLAIN_SESSION = re.compile(r"[A-Za-z0-9_.:@/+-]{1,200}")
_LINE_BREAKS = frozenset("\u2028\u2029\u0085")

INSTRUCTIONS = """\
You review the long-term memories an AI coding agent keeps about its user. Below are the user's active
memories and new candidate observations from recent sessions. Decide, for the candidates:

- promote: a candidate (or several saying the same thing) states a durable fact or preference about the
  user that no memory covers yet; write one concise memory for them.
- update_existing: candidates refine, extend or correct an existing memory; rewrite that memory's content
  and list the candidates it now rests on.
- dismiss_existing: a memory is wrong, obsolete or contradicted; give the reason.
- consume_candidate_ids: every candidate you have dealt with, including the ones you used above and the
  ones not worth keeping. Candidates you leave out stay pending for a later review.

Rules: use only the ids listed below; a candidate serves at most one promotion or update; never update
and dismiss the same memory; content is plain text without hidden characters, at most 64 KiB.

Answer with the verdict JSON only, in one ```json block, exactly this shape:
{
  "promote": [{"content": "...", "candidate_ids": [1, 2]}],
  "update_existing": [{"memory_id": 5, "content": "...", "candidate_ids": [3]}],
  "dismiss_existing": [{"memory_id": 7, "reason": "..."}],
  "consume_candidate_ids": [1, 2, 3, 4]
}
Use empty lists for what you do not need."""


def quote(text: str) -> str:
    """A JSON string literal of `text`, readable (non-ASCII kept) but with hidden characters escaped."""
    dumped = json.dumps(text, ensure_ascii=False)
    return "".join(_escape(char) if _needs_escape(char) else char for char in dumped)


def _needs_escape(char: str) -> bool:
    return not char.isascii() and (char in _LINE_BREAKS or classify(char) is not None)


def _escape(char: str) -> str:
    return json.dumps(char, ensure_ascii=True)[1:-1]


def session_label(session_id: str) -> str:
    """A plain session id as it is; anything else (spaces, brackets, newlines) quoted."""
    return session_id if _PLAIN_SESSION.fullmatch(session_id) else quote(session_id)


def memory_line(memory: Memory) -> str:
    return f"Memory #{memory.id}: {quote(memory.content)}"


def candidate_line(candidate: Candidate) -> str:
    session = session_label(candidate.session_id)
    return f"Candidate #{candidate.id} [session {session}]: {quote(candidate.content)}"


def render_prompt(memories: Sequence[Memory], candidates: Sequence[Candidate]) -> str:
    memory_lines = [memory_line(m) for m in memories] or ["(none)"]
    candidate_lines = [candidate_line(c) for c in candidates] or ["(none)"]
    return "\n".join(
        [
            INSTRUCTIONS,
            "",
            "Active memories:",
            *memory_lines,
            "",
            "Pending candidates:",
            *candidate_lines,
            "",
        ]
    )


def build_prompt(store: MemoryStore) -> str:
    """The prompt for the store as it is now: memories the agent is shown, every pending candidate
    (observed first: outside rewrites recorded, and each candidate archived before the review consumes
    it)."""
    store.observe()
    memories = [m for m in store.list_memories(MemoryFilter(status="active")) if m.injected]
    return render_prompt(memories, store.candidates())
