"""Scenarios: table rulings as executable tests, and the file format of verifier counterexamples.

A scenario file (YAML) holds:

    scenario: a correct challenge            # what the ruling says
    source: "seed 000, section 06"           # the sentence it checks
    rulebook: ../../rulebooks/my-table.yaml   # relative to this file, or a shipped profile name
    variations: []
    players: 3
    seed: 7          # EITHER a deal by the rules from this shuffle seed (optional `dealer: N`) ...
    position:        # ... OR an explicit table
      dealer: 2
      hands: {0: [7C, KD], 1: [...], 2: [...]}   # every seat not `out`
      pile: [2S, 3S]      # bottom first: one bundle that no challenge turns over
      stock: [4D, 5D]     # top card first
      aside: []
      to_play: 0
      previous: sixes     # the last claim made, or none (then the first play of the game)
      leading: false      # the seat to play leads a new round
      out: []             # seats already out, in the order they went out
      last_player: 1      # the last seat to add cards (for all_pass_leader)
    actions:
      - "0: play 7C KD as 2 sevens"   # SEAT: action, in the notation of cheatdsl.words.notation
      - expect: {to_act: 1}           # a checkpoint part way through
      - "1: challenge"
    expect:
      hand_sizes: {0: 7}        hands: {1: [...]}       holds: {1: [AH]} (at least these)
      pile: 0 or [cards]        stock: N or [cards]      aside: N or [cards]   gone: N or [cards]
      to_play: 1 | none         to_act: 1 | none         phase: play|respond|discard|over
      required: [eights] | any  previous: sevens         leading: true
      winner: 0 | none          loser: 2 | none          out: [0, 2]   over: true   capped: false
      revealed: [7C, KD]        caught: true             picked_up: 0 (who took the pile or drew; none: nobody paid)
      pile_shown: [...] | none  discarded: [nines]       last_cards: true
      rule_gaps: [next_player, all_pass_leader, lead] | []   (gaps in the rules met, each filled to go on)
      legal: ["pass"]           illegal: ["play 7C as 1 eight"]
      refused: "not allowed"    # the last action must be refused with a message containing this

`cheatdsl scenario FILE...` runs them; `run_scenario(path)` does the same from Python, and a
`Scenario` built in code (for instance from a verifier witness) is written with `to_yaml()`.
"""

from .model import Scenario
from .reader import ScenarioError, read_scenario
from .runner import Failure, ScenarioResult, position_notation, run, run_scenario, scenario_from_game

__all__ = ["Failure", "Scenario", "ScenarioError", "ScenarioResult", "position_notation", "read_scenario", "run",
           "run_scenario", "scenario_from_game"]
