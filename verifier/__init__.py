"""The verifier: Z3 encodings of a compiled rulebook's properties, each answered with one of five verdicts."""
