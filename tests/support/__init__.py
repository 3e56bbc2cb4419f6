"""The helpers the tests share: host-shaped databases, a throwaway PostgreSQL cluster, a virtual X
server, the hub, the console script."""
