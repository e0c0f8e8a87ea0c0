"""The compiler: node tree (from either surface form) to the frozen model, collecting every problem."""
