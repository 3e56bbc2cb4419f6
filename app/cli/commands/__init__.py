"""The subcommands, one module per family; each has `register(subparsers, parents)` (`app.cli.registry`)."""
