"""The subcommands of the `c4tui` command line, one module each."""
