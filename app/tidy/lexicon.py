"""What the contradiction finder knows of the world: things one chooses between, and scopes.

Two memories that name different members of one category ("Uses Postgres", "Moved the project to
MySQL") may contradict; two that hold for different scopes ("Prefers tabs in Go", "Prefers spaces in
Python") do not. Words are as `app.tidy.words.stem` leaves them. A short list on purpose: a word missing
here costs a missed "may contradict", never a wrong merge.
"""

from __future__ import annotations

CHOICES: dict[str, frozenset[str]] = {
    "package manager": frozenset({"npm", "pnpm", "yarn", "bun"}),
    "Python tooling": frozenset({"uv", "poetry", "pip", "pip-tools", "hatch", "pipenv", "conda", "pdm"}),
    "test runner": frozenset({"pytest", "unittest", "vitest", "jest", "mocha", "nose", "go-test"}),
    "formatter": frozenset({"ruff", "black", "prettier", "gofmt", "rustfmt", "yapf", "autopep8"}),
    "editor": frozenset(
        {"neovim", "vim", "vscode", "helix", "zed", "emacs", "pycharm", "intellij", "sublime"}
    ),
    "shell": frozenset({"zsh", "fish", "bash", "nushell"}),
    "database": frozenset({"postgres", "mysql", "sqlite", "duckdb", "mongodb", "mariadb"}),
    "hosting": frozenset(
        {"hetzner", "aws", "fly.io", "gcp", "azure", "vercel", "netlify", "digitalocean", "heroku"}
    ),
    "CI": frozenset({"github-actions", "gitlab-ci", "circleci", "jenkins", "travis"}),
    "bundler": frozenset({"webpack", "vite", "rollup", "esbuild", "parcel", "turbopack"}),
    "UI framework": frozenset({"react", "vue", "svelte", "angular", "solid"}),
    "indentation": frozenset({"tab", "space"}),
    "quotes": frozenset({"single", "double"}),
    "theme": frozenset({"light", "dark"}),
    "spelling": frozenset({"american", "british"}),
}

# Where a memory holds: two memories for different members of one scope are about different things.
SCOPES: dict[str, frozenset[str]] = {
    "language": frozenset(
        {
            "python",
            "go",
            "rust",
            "typescript",
            "javascript",
            "java",
            "ruby",
            "kotlin",
            "swift",
            "c",
            "c++",
            "c#",
            "yaml",
            "json",
            "makefile",
            "toml",
            "sql",
        }
    ),
    "place": frozenset({"macos", "linux", "windows", "ci", "production", "local", "staging"}),
}

MEMBER_OF: dict[str, str] = {word: name for name, members in CHOICES.items() for word in members}
SCOPE_OF: dict[str, str] = {word: name for name, members in SCOPES.items() for word in members}
KNOWN = frozenset(MEMBER_OF) | frozenset(SCOPE_OF)

# Words too broad to be what two memories are about ("in every project", "side projects too") and words
# of when ("confirmed again this week"): never a shared subject.
BROAD_WORDS = frozenset(
    {"project", "side", "apply", "everything", "thing", "everywhere", "time"}
    | {"confirmed", "today", "week", "month", "quarter", "year", "last", "recently"}
)

# A memory that says one of these replaced another thing: the change itself is the subject.
SWITCH_WORDS = frozenset({"switch", "switched", "move", "moved", "migrate", "migrated", "replaced"})
# Words after which the clause's things are refused ("never npm", "no longer uses poetry").
NEGATIONS = frozenset(
    {
        "never",
        "not",
        "no",
        "no-longer",
        "don't",
        "doesn't",
        "didn't",
        "won't",
        "stop",
        "stopped",
        "avoid",
        "dislike",
        "hate",
    }
)
# Words after which the clause's things are the ones not chosen ("tabs over spaces", "Neovim instead of
# VS Code"); "to" counts only after "prefer" ("prefers early returns to nested ifs").
REJECTING = frozenset({"over", "instead-of", "rather-than", "than"})
PREFER = "prefer"
# Words that end the reach of a negation or a rejection: its object is named, the rest is its purpose
# or what the object belongs to ("dislikes mocks of the database" refuses the mocks, not the database).
CLAUSE_BREAKS = frozenset({"for", "in", "on", "of", "with", "when", "because", "but", "so", "to"})

# Verbs that say a memory's thing is chosen: one word in the text close wording compares, so "Prefers pnpm"
# and "Uses pnpm" read alike, while "Keeps pnpm configuration…" does not.
CHOICE_VERBS = frozenset(
    {"prefer", "use", "using", "want", "love", "always", "default", "main", "primary", "go-to"}
)
CHOOSE = "prefer"
CUE_WORDS = NEGATIONS | REJECTING | SWITCH_WORDS | {"instead", "longer"}
