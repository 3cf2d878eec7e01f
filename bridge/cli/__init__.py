"""The `relay` command line: one module per command family, each with `register(subparsers)`."""
