"""The automated review: verdict parsing and validation, apply under the host's lease, prompt, runner.

A person's triage of the same pool (promote, merge, discard) is the store's (`MemoryStore.promote`, ...).

No Qt here; the CLI (`memory-dashboard review ...`) and the window both call these. The names below
load on first use (`__getattr__`): importing one module of this package (its errors, for the window)
does not import the store and SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.lazy import lazy_names

if TYPE_CHECKING:
    from app.core.errors import LeaseHeldError
    from app.review.apply import ApplyResult, apply_verdict, new_run_id
    from app.review.errors import ReviewerError, VerdictError
    from app.review.prompt import build_prompt
    from app.review.runner import run_review, run_reviewer, verdict_from_output
    from app.review.verdict import Verdict, parse_verdict

_WHERE = {
    "ApplyResult": "app.review.apply",
    "LeaseHeldError": "app.core.errors",
    "ReviewerError": "app.review.errors",
    "Verdict": "app.review.verdict",
    "VerdictError": "app.review.errors",
    "apply_verdict": "app.review.apply",
    "build_prompt": "app.review.prompt",
    "new_run_id": "app.review.apply",
    "parse_verdict": "app.review.verdict",
    "run_review": "app.review.runner",
    "run_reviewer": "app.review.runner",
    "verdict_from_output": "app.review.runner",
}
__all__ = [
    "ApplyResult",
    "LeaseHeldError",
    "ReviewerError",
    "Verdict",
    "VerdictError",
    "apply_verdict",
    "build_prompt",
    "new_run_id",
    "parse_verdict",
    "run_review",
    "run_reviewer",
    "verdict_from_output",
]


__getattr__ = lazy_names(__name__, _WHERE)
