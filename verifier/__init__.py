"""The verifier: Z3 encodings of a compiled rulebook's properties, each answered with one of five verdicts.

In layers, bottom to top, each importing only those below it: `solving` (Z3 access: seeded solvers, terms,
and every shortcut past z3's Python API beside its plain call), `encoding` (a rulebook at one table, read
from its rules record, as Z3 terms), `properties` (each property's check and verdict, the settings and
caches a run uses), and this package's runner: `api` (what `verify`, compare, diff, sweep and explore
call), `runner` and `workers` (light checks here, heavy ones in forked workers with a kill timer), `report`,
`certificates` and `docs`.
"""
