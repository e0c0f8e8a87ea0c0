"""The encoding, the verifier's second layer: a rulebook at one table as Z3 terms, read from one input.

`subject` holds a rulebook under verification and its rules record per player count
(`cheatdsl.derived.TableRules`); `spec` lays that record out as the finite tables the encoding reads (card
classes, claim sets by position, seat formulas tabulated by `tabulate` and `facts`, the claim graph in
`graph`); `state` and `transitions` turn them into constraints over two copies of the state, `deal` gives
the initial states, `symmetry` says when a step from seat 0 stands for every seat, and `engine_state` reads
an interpreter position in the encoding's terms. Imports only `verifier.solving` of the verifier.
"""
