"""The review's errors: each a message fit to show as it is, with its CLI exit code (as app.core.errors).

`LeaseHeldError` lives in app.core.errors (the store refuses a person's pool writes with it too).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.core.errors import StoreError

EXIT_VERDICT_REJECTED = 5
EXIT_REVIEWER_FAILED = 7


class VerdictError(StoreError):
    """The verdict is malformed or does not fit the database; nothing was written."""

    exit_code = EXIT_VERDICT_REJECTED

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        count = len(self.problems)
        header = f"verdict rejected ({count} problem{'s' if count != 1 else ''}); nothing was changed"
        super().__init__("\n  - ".join([header, *self.problems]))


class ReviewerError(StoreError):
    """The reviewer command failed, timed out, or printed something that is not a verdict."""

    exit_code = EXIT_REVIEWER_FAILED


class ReviewCancelled(ReviewerError):
    """The person cancelled the review before its verdict was applied; nothing was written."""

    def __init__(self) -> None:
        super().__init__("Review cancelled; nothing was changed.")
