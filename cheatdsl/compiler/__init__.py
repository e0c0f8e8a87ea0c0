"""The compiler: a merged node tree (from the front end, cheatdsl/syntax) to the frozen model, collecting every
problem."""
