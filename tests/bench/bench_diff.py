"""Benchmark of `app.diff.text_diff` against a plain line-level `difflib.SequenceMatcher`
(not part of the test run).

Run from the repository root: `.venv/bin/python tests/bench/bench_diff.py [--quick]`. For each case it
prints the best time of the baseline (`SequenceMatcher(None, old.splitlines(), new.splitlines())
.get_opcodes()`), of `word_diff` and of `side_by_side`, and their ratios to the baseline. The target is a
ratio of at most 1.5 for `word_diff`; the worst cases are there to show that nothing blows up.
"""

from __future__ import annotations

import difflib
import random
import re
import sys
import time
from collections.abc import Callable
from functools import cache, partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from app.diff.text_diff import side_by_side, word_diff
from tests.bench.texts import SYLLABLES

SIZE = 64 * 1024
SEED = 20_260_101


def _vocabulary(rng: random.Random, count: int = 3000) -> list[str]:
    return ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 4))) for _ in range(count)]


@cache
def _zipf_weights(count: int) -> list[float]:
    # Zipf's law, as in prose: the commonest word makes about a tenth of the text.
    total = 0.0
    cumulative = []
    for rank in range(1, count + 1):
        total += 1 / rank
        cumulative.append(total)
    return cumulative


def _words(rng: random.Random, vocabulary: list[str], count: int, repetitive: bool = False) -> str:
    if repetitive:  # a handful of words make up most of the text: a low-entropy worst case
        return " ".join(vocabulary[min(int(rng.paretovariate(1.1)) - 1, 5)] for _ in range(count))
    return " ".join(rng.choices(vocabulary, cum_weights=_zipf_weights(len(vocabulary)), k=count))


def realistic_memory(rng: random.Random, size: int = SIZE, repetitive: bool = False) -> str:
    """Markdown-ish notes: headings, bullets, unwrapped paragraphs, blank lines, some punctuation."""
    vocabulary = _vocabulary(rng)
    lines: list[str] = []
    total = 0
    while total < size:
        shape = rng.random()
        if shape < 0.08:
            line = "## " + _words(rng, vocabulary, 4, repetitive).title()
        elif shape < 0.2:
            line = ""
        elif shape < 0.7:
            line = (
                "- "
                + _words(rng, vocabulary, rng.randint(6, 25), repetitive)
                + rng.choice([".", "", ";", ", `x`."])
            )
        else:
            sentences = [
                _words(rng, vocabulary, rng.randint(8, 20), repetitive) for _ in range(rng.randint(3, 7))
            ]
            line = ". ".join(sentence.capitalize() for sentence in sentences) + "."
        lines.append(line)
        total += len(line) + 1
    return "\n".join(lines)[:size]


def change_words(rng: random.Random, text: str, share: float, clustered: bool) -> str:
    """`text` with `share` of its words replaced, spread uniformly or in a few rewritten passages."""
    tokens = re.split(r"(\W+)", text)
    words = [index for index, token in enumerate(tokens) if token[:1].isalnum()]
    targets = max(1, int(len(words) * share))
    if clustered:
        chosen: set[int] = set()
        while len(chosen) < targets:
            start = rng.randrange(len(words))
            chosen.update(words[start : start + rng.randint(10, 60)])
    else:
        chosen = set(rng.sample(words, targets))
    for index in chosen:
        tokens[index] = "zz" + str(index)
    return "".join(tokens)


def cases(rng: random.Random) -> list[tuple[str, str, str]]:
    memory = realistic_memory(rng)
    other = realistic_memory(random.Random(SEED + 1))
    one_line = memory.replace("\n", " ")
    repetitive = realistic_memory(rng, repetitive=True)
    vocabulary = _vocabulary(rng)
    short_lines = "\n".join(_words(rng, vocabulary, 8) for _ in range(SIZE // 50))[:SIZE]
    every_line_edited = "\n".join(line + " x" for line in short_lines.split("\n"))
    blob = "".join(
        rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(SIZE)
    )
    return [
        ("realistic: 5% of words, scattered", memory, change_words(rng, memory, 0.05, clustered=False)),
        ("realistic: 5% of words, clustered", memory, change_words(rng, memory, 0.05, clustered=True)),
        ("worst: completely different texts", memory, other),
        ("worst: six-word vocabulary, 5% of words", repetitive, change_words(rng, repetitive, 0.05, False)),
        ("worst: one long line, 5% of words", one_line, change_words(rng, one_line, 0.05, clustered=False)),
        ("worst: one long line, all different", one_line, other.replace("\n", " ")),
        ("worst: many small edits (every line)", short_lines, every_line_edited),
        ("worst: 64 KiB word without spaces", blob, blob[: SIZE // 2] + "!" + blob[SIZE // 2 + 1 :]),
        ("worst: repeated lines", "same line\n" * (SIZE // 10), "same line\n" * (SIZE // 20) + "other\n"),
        ("worst: blank lines vs text", "\n" * SIZE, memory),
    ]


def baseline(old: str, new: str) -> object:
    return difflib.SequenceMatcher(None, old.splitlines(), new.splitlines()).get_opcodes()


def best_times(functions: list[Callable[[], object]], repeats: int) -> list[float]:
    """The best time of each function, run in turns so that a busy moment hits them all alike."""
    best = [float("inf")] * len(functions)
    for _ in range(repeats):
        for index, function in enumerate(functions):
            start = time.perf_counter()
            function()
            best[index] = min(best[index], time.perf_counter() - start)
    return best


def main() -> None:
    repeats = 5 if "--quick" in sys.argv else 40
    print(f"{'case':42} {'baseline':>10} {'word_diff':>10} {'ratio':>7} {'side_by_side':>13} {'ratio':>7}")
    for name, old, new in cases(random.Random(SEED)):
        base, inline, rows = best_times(
            [
                partial(baseline, old, new),
                partial(word_diff, old, new),
                partial(side_by_side, old, new),
            ],
            repeats,
        )
        print(
            f"{name:42} {base * 1e3:8.2f}ms {inline * 1e3:8.2f}ms {inline / base:6.1f}x "
            f"{rows * 1e3:11.2f}ms {rows / base:6.1f}x"
        )


if __name__ == "__main__":
    main()
