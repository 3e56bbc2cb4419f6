"""The demo store: realistic memories, revisions and candidates for `--demo` and the screenshots."""
