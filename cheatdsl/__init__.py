"""cheatdsl: checkable, runnable, provable rulebooks for the Cheat family of card games."""

__version__ = "0.1.0"
