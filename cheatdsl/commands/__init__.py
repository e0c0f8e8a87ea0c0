"""The `cheatdsl` subcommands, one module each; a module has `register(subparsers)` and `run(args)`."""

COMMANDS: tuple[str, ...] = ("check", "fmt", "scenario", "simulate", "play", "verify", "compare", "diff", "list", "serve", "schema", "lsp", "sweep", "explore", "rate")
