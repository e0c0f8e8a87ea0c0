"""The language server (`cheatdsl lsp`): the checker, the field table and the printer, for editors."""
