"""Z3 access, the verifier's bottom layer: `solver` makes seeded, limited solvers and reads their answers,
`terms` builds the encoding's terms, and `shortcuts` holds every call past z3's Python API (Z3's C
interface, glibc's malloc setting) beside the plain z3 call it replaces. Imports nothing else of `verifier`."""
