"""Realistic memory texts for the demo store: what a coding agent learns about a developer."""

from __future__ import annotations

SUBJECTS = [
    ("package manager", ["pnpm", "npm", "yarn", "bun"]),
    ("Python tooling", ["uv", "poetry", "pip-tools", "hatch"]),
    ("test runner", ["pytest", "vitest", "jest", "go test"]),
    ("formatter", ["ruff format", "black", "prettier", "gofmt"]),
    ("editor", ["Neovim", "VS Code", "Helix", "Zed"]),
    ("shell", ["zsh", "fish", "bash"]),
    ("database", ["PostgreSQL", "SQLite", "DuckDB"]),
    ("cloud", ["Hetzner", "AWS", "Fly.io"]),
]

PREFERENCES = [
    "Prefers {tool} as the {subject} in every project",
    "Uses {tool} for the {subject}; do not suggest alternatives unless asked",
    "Switched the {subject} to {tool} last quarter and wants examples to follow",
    "Wants {tool} commands in examples, never other {subject} options",
    "Keeps {tool} configuration in the repository root, not in dotfiles",
]

HABITS = [
    "Asks for code first, explanation after, and short explanations at that",
    "Wants commit messages in the imperative mood, under 72 characters",
    "Runs the test suite before every commit and expects the agent to do the same",
    "Prefers small pull requests with one concern each",
    "Dislikes mocks of the database; wants tests against real SQLite files",
    "Writes type hints everywhere and runs mypy in strict mode",
    "Reads diffs in side-by-side mode and wants hunks kept small",
    "Works in UTC and writes timestamps as ISO 8601",
    "Prefers British spelling in documentation",
    "Wants error messages that say what to do next",
    "Keeps a CHANGELOG.md in Keep a Changelog format",
    "Uses conventional branch names: feat/, fix/, chore/",
    "Prefers composition over inheritance in Python code",
    "Wants SQL written by hand for hot paths rather than through an ORM",
    "Likes dark themes and high-contrast diffs",
    "Does code review in the morning; deep work in the afternoon",
    "Uses a split keyboard and prefers keyboard shortcuts to mouse-driven flows",
    "Keeps secrets in a password manager and never in .env files committed to git",
    "Prefers Makefiles as the entry point for common tasks",
    "Wants benchmarks to print ratios measured side by side, not absolute timings",
]

CONTEXT = [
    "Lives in Berlin (CET/CEST) and schedules meetings before 16:00",
    "Maintains an open-source SQLite tool in their spare time",
    "Team of four; the backend is Python, the frontend TypeScript",
    "Ships a desktop app built with PySide6 and PyInstaller",
    "On call every third week; prefers alerts that link to runbooks",
    "Mentors two junior developers and wants explanations they can reuse",
    "Works on a monorepo with about 40 packages",
    "Is learning Rust and wants idiomatic comparisons to Python",
]

LONG_NOTE = (
    "Project conventions for the billing service: money is stored as integer cents, never floats; "
    "currency codes follow ISO 4217; every migration is reversible and reviewed by two people; "
    "feature flags live in the database, not in environment variables; background jobs must be "
    "idempotent and carry a request id; logs are structured JSON with the tenant id on every line."
)

REVISIONS = [
    ("Prefers pnpm", "Prefers pnpm over npm and yarn, including in CI scripts and README examples"),
    ("Uses pytest", "Uses pytest with -q and --strict-markers; wants fixtures over setup methods"),
    ("Works in UTC", "Works in UTC; writes timestamps as ISO 8601 with a Z suffix"),
]


def all_texts() -> list[str]:
    texts = [
        template.format(tool=tool, subject=subject)
        for subject, tools in SUBJECTS
        for tool in tools
        for template in PREFERENCES
    ]
    return [*HABITS, *CONTEXT, LONG_NOTE, *texts]
