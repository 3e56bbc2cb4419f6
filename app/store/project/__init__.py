"""Project memories: the host's `memories` table (one fact about one project per row), read and written
by the host's own rules.

`tables` describes the host's tables this needs, `model` turns a raw row into `ProjectMemory`, `links`
follows supersession and merges both ways, `projects` lists the project identities, `injection` is
what the host injects for a project at an instant, `hashing` is the host's `normalized_hash`,
`authority` tells which projects the host's native module owns, and `writes` (with `write_steps`)
changes a row the way the host does. Nothing outside this package uses it yet.
"""
