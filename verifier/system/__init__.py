"""The transition system of a rulebook at one table, generated from the compiled model and encoded in Z3.

`spec` tabulates every rule (formulas evaluated concretely by `tabulate`), `state` and `transitions`
turn the tables into Z3 constraints over two copies of the state, `deal` gives the initial states,
`prove` and `search` run induction and bounded model checking, and `witness` turns what the solver
found into a scenario the interpreter replays.
"""
