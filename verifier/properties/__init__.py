"""The properties, the verifier's third layer: each property's check over the encoding, and its verdict.

`registry` names every property with its check; `verdict` holds the five verdicts and how player counts
combine; `settings` the searches, effort and time limit and the caches a run fills (made by the caller and
passed in). The light checks read the rules (`claims`, `challenges`, `dealing`, `threshold`); the
transition-system properties (`transition`, `analysis`) prove invariants (`invariant`, `ranking`,
`recurrence`), search for counterexamples (`search`, `counterexample`, `games`, `winnability`) and turn what
they find into replayed witnesses (`witness`, `true_claim`, `calls`); `helper` shares a rulebook's player
counts with a second process. Imports `verifier.encoding` and `verifier.solving`, never the runner.
"""
