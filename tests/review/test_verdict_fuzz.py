"""Fuzz (hypothesis): any JSON, and JSON shaped like a verdict with any values in it, is either a verdict
or a rejection with a printable message; applied to a real host file it is all or nothing, and whatever it
wrote can be exported again."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.cli.commands.export import export_data
from app.core.clock import ManualClock
from app.review.apply import apply_verdict
from app.review.errors import VerdictError
from app.review.verdict import parse_verdict
from app.store import MemoryStore
from tests.review.review_helpers import snapshot
from tests.support.hostdb import build_host_db

REVIEW_TIME = 1_792_552_412_000
# Text with the characters that broke exports before: lone surrogates, non-characters, NUL, controls.
texts = st.text(
    alphabet=st.one_of(
        st.characters(codec=None),
        st.sampled_from(["\ud800", "\udfff", "\ufffe", "\uffff", "\x00", "\u202e", " ", "\n"]),
    ),
    max_size=40,
)
numbers = st.one_of(
    st.integers(min_value=-(2**65), max_value=2**65),
    st.sampled_from([5, 3, 1, 141, 143, 145, 146, 151, 152]),  # real memories and candidates
    st.floats(allow_nan=False),
    st.booleans(),
    st.none(),
)
scalars = st.one_of(texts, numbers)
anything = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)
ids = st.lists(numbers, max_size=4)
entries = st.fixed_dictionaries(
    {"memory_id": numbers, "content": st.one_of(texts, anything), "candidate_ids": ids},
    optional={"reason": st.one_of(texts, anything), "extra": anything},
)
verdict_like = st.fixed_dictionaries(
    {},
    optional={
        "promote": st.lists(entries, max_size=2),
        "update_existing": st.lists(entries, max_size=2),
        "dismiss_existing": st.lists(entries, max_size=2),
        "consume_candidate_ids": ids,
        "unknown": anything,
    },
)


def _text_of(document: Any) -> str:
    return json.dumps(document, ensure_ascii=True)  # escapes keep lone surrogates as \ud800 in the JSON


@settings(max_examples=300, deadline=None)
@given(document=st.one_of(anything, verdict_like))
def test_any_json_is_a_verdict_or_a_printable_rejection(document: Any) -> None:
    try:
        parse_verdict(_text_of(document))
    except VerdictError as exc:
        exc.message.encode("utf-8")  # printable, whatever the verdict quoted


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=verdict_like)
def test_a_verdict_is_applied_whole_or_not_at_all_and_exports_after(document: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        db = build_host_db(Path(folder) / "context.db")
        store = MemoryStore.open(db, clock=ManualClock(REVIEW_TIME))
        try:
            before = snapshot(db)
            try:
                apply_verdict(store, parse_verdict(_text_of(document)), run_id="fuzz")
            except VerdictError:
                assert snapshot(db) == before
            json.dumps(export_data(store), ensure_ascii=False).encode("utf-8")
        finally:
            store.close()
        shutil.rmtree(folder, ignore_errors=True)
