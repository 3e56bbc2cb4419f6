"""The hub: a PostgreSQL database several machines publish their memories to (`hub publish`, `hub status`).

Qt-free. The hub's tables are its own (`hub_*`, created by `schema`), never in a host's database; every
row carries the role that published it, and row-level security shows each role only its own rows. The
password comes from libpq's own sources or the OS keyring (`password`), never from our settings.
"""
