"""The automated review: verdict parsing and validation, apply under the host's lease, prompt, runner.

A person's triage of the same pool (promote, merge, discard) is the store's (`MemoryStore.promote`, ...).

No Qt here; the CLI (`memory-dashboard review ...`) and the window both call these.
"""

from app.core.errors import LeaseHeldError
from app.review.apply import ApplyResult, apply_verdict, new_run_id
from app.review.errors import ReviewerError, VerdictError
from app.review.prompt import build_prompt
from app.review.runner import run_review, run_reviewer, verdict_from_output
from app.review.verdict import Verdict, parse_verdict

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
