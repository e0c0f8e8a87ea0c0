"""The compiled engine: one numba kernel that plays simulated games from flat tables.

A rulebook at a table becomes `tables.KernelTables` (numpy arrays read from `derived.TableRules`; its
formulas are worked out once for every case they can meet), and `kernel.play_games` plays them;
`playouts.CompiledPlayouts` plays the search bot's playouts on the kernel. Rules
the kernel does not play are refused in general terms by `support.refusal`; `--engine python` plays
them. numba is optional (`pip install cheatdsl[compiled]`); `cache.load_numba` imports it with its
disk cache under the user's cache folder. The Python engine stays the reference: `replay` replays a
kernel game's action log through it.
"""
