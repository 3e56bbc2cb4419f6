"""The reviewer runner with fake reviewer commands (small Python scripts), JSON extraction, settings."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from app.core.settings import Settings, SettingsError, load_settings, save_settings, settings_path
from app.review.errors import ReviewCancelled, ReviewerError, VerdictError
from app.review.runner import (
    ReviewCancel,
    extract_json,
    resolve_command,
    run_review,
    run_reviewer,
    verdict_from_output,
)
from app.store import MemoryStore
from tests.review.review_helpers import seed_verdict

PYTHON = sys.executable


def script(tmp_path: Path, body: str) -> str:
    path = tmp_path / "fake_reviewer.py"
    path.write_text(body, encoding="utf-8")
    return f"{PYTHON} {path}"


def test_the_prompt_goes_to_stdin_and_stdout_comes_back(tmp_path: Path) -> None:
    command = script(tmp_path, "import sys\nprint(sys.stdin.read().upper())\n")
    assert run_reviewer(command, "memory #5 → pnpm", timeout_s=60).strip() == "MEMORY #5 → PNPM"


def test_arguments_are_split_without_a_shell(tmp_path: Path) -> None:
    command = script(tmp_path, "import sys\nprint(sys.argv[1:])\n") + " 'two words' '$HOME' ';' 'x'"
    assert run_reviewer(command, "", timeout_s=60).strip() == "['two words', '$HOME', ';', 'x']"


def test_a_non_zero_exit_reports_the_tail_of_stderr(tmp_path: Path) -> None:
    body = "import sys\nsys.stderr.write('noise\\n' * 1000 + 'model not loaded\\n')\nsys.exit(3)\n"
    with pytest.raises(ReviewerError) as caught:
        run_reviewer(script(tmp_path, body), "prompt", timeout_s=60)
    message = caught.value.message
    assert "exited with status 3" in message and message.endswith("model not loaded")
    assert len(message) < 2_200


def test_a_reviewer_killed_by_a_signal_says_so(tmp_path: Path) -> None:
    body = "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n"
    with pytest.raises(ReviewerError, match="killed by signal 15"):
        run_reviewer(script(tmp_path, body), "", timeout_s=60)


def test_a_reviewer_that_does_not_answer_in_time_is_stopped(tmp_path: Path) -> None:
    with pytest.raises(ReviewerError, match=r"did not answer within 0\.5 s and was stopped"):
        run_reviewer(script(tmp_path, "import time\ntime.sleep(600)\n"), "", timeout_s=0.5)


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("/no/such/reviewer --flag", "cannot run the reviewer '/no/such/reviewer'"),
        ("'unbalanced", "cannot read"),
        ("  ", "empty"),
    ],
)
def test_commands_that_cannot_run_are_messages(command: str, expected: str) -> None:
    with pytest.raises(ReviewerError, match=expected):
        run_reviewer(command, "", timeout_s=5)


@pytest.mark.parametrize(
    "output",
    [
        '{"promote": []}',
        'Sure! Here it is:\n```json\n{"promote": []}\n```\nAnything else?',
        '```JSON\n{"promote": []}\n```',
        '```\n{"promote": []}\n```',
        'My verdict is {"promote": []} as requested.',
        '```python\nprint("example")\n```\n```json\n{"promote": []}\n```',
    ],
)
def test_the_json_is_extracted_from_what_models_print(output: str) -> None:
    assert json.loads(extract_json(output)) == {"promote": []}


def test_two_json_blocks_are_ambiguous() -> None:
    with pytest.raises(ReviewerError, match="2 ```json blocks"):
        extract_json('```json\n{"promote": []}\n```\n```json\n{}\n```')


def test_a_reviewer_that_prints_past_the_answer_limit_is_stopped(tmp_path: Path) -> None:
    # Kept whole, an answer of hundreds of megabytes (or an endless one until the timeout) would fill
    # memory: reading stops at the limit and the reviewer with it.
    body = "import sys\nfor _ in range(100):\n    sys.stdout.buffer.write(b'x' * 2**20)\n"
    with pytest.raises(ReviewerError, match="more than 64 MiB"):
        run_reviewer(script(tmp_path, body), "prompt", timeout_s=600)


def test_stderr_past_the_limit_keeps_only_its_tail(tmp_path: Path) -> None:
    body = (
        "import sys\n"
        "for _ in range(100):\n    sys.stderr.buffer.write(b'e' * 2**20)\n"
        "sys.stderr.write('the end')\nsys.exit(3)\n"
    )
    with pytest.raises(ReviewerError, match="exited with status 3") as raised:
        run_reviewer(script(tmp_path, body), "prompt", timeout_s=600)
    assert str(raised.value).endswith("the end")


def test_output_that_is_not_json_is_a_reviewer_error() -> None:
    with pytest.raises(ReviewerError, match=r"not verdict JSON.*it began:\nI cannot help"):
        verdict_from_output("I cannot help with that.")


DEEP_ANSWERS = ["[" * 100_000 + "]" * 100_000, '{"promote": ' * 50_000 + "[]" + "}" * 50_000]


@pytest.mark.parametrize("output", DEEP_ANSWERS)
def test_an_answer_nested_past_any_verdict_is_a_reviewer_error(output: str) -> None:
    # Python's parser recurses: an answer nested deep enough must be a message, never a RecursionError.
    with pytest.raises(ReviewerError, match="not verdict JSON"):
        verdict_from_output(output)


def test_an_answer_that_names_a_field_twice_is_refused() -> None:
    # A plain parser keeps the last of the two: which one the reviewer meant cannot be told.
    output = '{"dismiss_existing": [{"memory_id": 5, "reason": "x"}], "dismiss_existing": []}'
    with pytest.raises(VerdictError, match="dismiss_existing"):
        verdict_from_output(output)


def test_json_that_is_not_a_valid_verdict_is_a_verdict_error() -> None:
    with pytest.raises(VerdictError, match="promote\\[0\\]: lacks 'candidate_ids'"):
        verdict_from_output('```json\n{"promote": [{"content": "x"}]}\n```')


def test_run_review_applies_what_the_reviewer_answers(store: MemoryStore, tmp_path: Path) -> None:
    answer = json.dumps(seed_verdict())
    body = (
        "import sys\n"
        "assert 'Memory #5: \"Prefers pnpm\"' in sys.stdin.read()\n"
        f"print('```json\\n' + {answer!r} + '\\n```')\n"
    )
    result = run_review(store, script(tmp_path, body), timeout_s=60, run_id="nightly")
    assert (result.updated, result.consumed, result.run_id) == (1, 4, "nightly")
    assert store.get(5).source_candidate_ids[-4:] == (141, 143, 145, 146)


def test_a_cancelled_review_stops_the_reviewer_and_applies_nothing(
    store: MemoryStore, tmp_path: Path
) -> None:
    started = tmp_path / "started"
    answer = json.dumps(seed_verdict())
    body = (
        "import os, sys, time\n"
        f"open({str(started)!r}, 'w').write(str(os.getpid()))\n"
        "time.sleep(600)\n"
        f"print('```json\\n' + {answer!r} + '\\n```')\n"
    )
    before = store.get(5)
    cancel = ReviewCancel()
    outcome: list[BaseException] = []

    def run() -> None:
        try:
            run_review(store, script(tmp_path, body), timeout_s=600, cancel=cancel)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    while not (started.exists() and started.read_text()):  # the reviewer is running
        time.sleep(0.01)
    assert cancel.cancel()
    worker.join()
    assert len(outcome) == 1 and isinstance(outcome[0], ReviewCancelled)
    assert str(outcome[0]) == "Review cancelled; nothing was changed."
    with pytest.raises(ProcessLookupError):
        os.kill(int(started.read_text()), 0)  # stopped and reaped
    assert store.get(5) == before


def test_a_review_cancelled_before_it_starts_never_runs_the_reviewer(
    store: MemoryStore, tmp_path: Path
) -> None:
    ran = tmp_path / "ran"
    cancel = ReviewCancel()
    assert cancel.cancel()
    with pytest.raises(ReviewCancelled):
        run_review(store, script(tmp_path, f"open({str(ran)!r}, 'w')\n"), timeout_s=60, cancel=cancel)
    assert not ran.exists()


def test_cancel_is_refused_once_the_verdict_is_being_applied() -> None:
    cancel = ReviewCancel()
    cancel.begin_apply()
    assert not cancel.cancel() and not cancel.cancelled


def test_settings_round_trip_and_keep_unknown_keys(tmp_path: Path) -> None:
    path = settings_path()
    assert path.parent == tmp_path / "appdata" and load_settings() == Settings()
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps({"window": {"width": 900}, "reviewer_command": "ollama run x"}), encoding="utf-8"
    )
    loaded = load_settings()
    assert loaded.reviewer_command == "ollama run x"
    save_settings(loaded.with_changes(reviewer_timeout_s=30.0))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data == {"window": {"width": 900}, "reviewer_command": "ollama run x", "reviewer_timeout_s": 30.0}
    assert resolve_command(None, load_settings()) == "ollama run x"
    assert resolve_command("other", load_settings()) == "other"


@pytest.mark.parametrize("text", ["{not json", "[]", '{"reviewer_command": 3}', '{"reviewer_timeout_s": -1}'])
def test_a_bad_settings_file_is_a_message_and_is_not_overwritten(text: str) -> None:
    path = settings_path()
    path.parent.mkdir(parents=True)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SettingsError, match=str(path.name)):
        load_settings()
    assert path.read_text(encoding="utf-8") == text
