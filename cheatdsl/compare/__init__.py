"""Rulebooks side by side (`cheatdsl compare`) and what a house rule changes (`cheatdsl diff`)."""
