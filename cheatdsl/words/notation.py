"""The text notation of cards, claims and actions, both ways, in a card player's words.

Cards: rank symbol and suit letter (`7C`, `KD`, `10H`, `AS`), or `JK` for a joker. In games that
claim a rank, suits never matter and a card is written by its rank alone (`7`, `K`); a suited
card is accepted and its suit dropped. Claims: `2 sevens`, `one ace`, `the seven of hearts`.
Actions: `play 7C KD as 2 sevens`, `pass`, `accept`, `challenge`, `challenge force`,
`discard sevens`, `keep`, and for chance `dealer 2`, `shuffle 12345`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..engine.actions import (
    ACCEPT,
    KEEP,
    PASS,
    Accept,
    Action,
    Challenge,
    ChanceCaller,
    ChanceDealer,
    ChanceShuffle,
    DiscardSet,
    IllegalAction,
    KeepSets,
    Pass,
    Phase,
    Play,
)
from ..model import Surplus
from ..engine.deal import JOKER, JOKER_TEXT, card_symbol
from ..engine.refusals import Doing, Refusal

if TYPE_CHECKING:
    from ..engine.game import Game
    from ..engine.state import State

_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
            "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
            "fifteen": 15, "sixteen": 16}
_SUIT_SYMBOLS = {"♣": "clubs", "♦": "diamonds", "♥": "hearts", "♠": "spades"}


class NotationError(ValueError):
    """Text that does not name a card, claim or action of the game."""


# -- cards ---------------------------------------------------------------------------------------

def suit_letter(game: Game, suit: int) -> str:
    return game.rules.suit_names[suit][0].upper()


def card_text(game: Game, value: int) -> str:
    """`7`, `K` (games claiming ranks), `7H` (games claiming exact cards), or `JK`."""
    return card_symbol(game, value)


def cards_text(game: Game, values: tuple[int, ...] | list[int]) -> str:
    return " ".join(card_text(game, v) for v in values) if values else "nothing"


def _rank_index(game: Game, word: str) -> int | None:
    w = word.upper()
    for i, symbol in enumerate(game.rules.rank_symbols):
        if symbol.upper() == w:
            return i
    lw = word.lower()
    for i in range(game.rules.rank_count):
        if lw in (game.rules.rank_names[i], game.rules.rank_plurals[i]):
            return i
    return None


def parse_suited(game: Game, text: str) -> tuple[int, int | None]:
    """(rank index, suit index or None) of a card written `7C`, `10H`, `7` or `7♣`; JOKER is (-1, None)."""
    t = text.strip()
    if t.upper() in (JOKER_TEXT, "JOKER"):
        return -1, None
    if t and t[-1] in _SUIT_SYMBOLS:
        t = t[:-1] + _SUIT_SYMBOLS[t[-1]][0].upper()
    rank = _rank_index(game, t)
    if rank is not None:
        return rank, None
    head, tail = t[:-1], t[-1:].upper()
    rank = _rank_index(game, head)
    letters = [suit_letter(game, s) for s in range(game.rules.suit_count)]
    if rank is None or tail not in letters:
        raise NotationError(f"`{text}` is not a card: {card_hint(game)}")
    return rank, letters.index(tail)


def card_hint(game: Game) -> str:
    """How cards are written at this table, with examples from its own deck."""
    symbols = [game.rules.rank_symbols[r] for r in sorted(game.rules.ranks_in_play)] or list(game.rules.rank_symbols)
    picks = [symbols[i * (len(symbols) - 1) // 2] for i in range(3)] if len(symbols) > 2 else symbols
    joker = f", or {JOKER_TEXT} for a joker" if game.rulebook.deck.jokers else ""
    if game.rules.by_rank:
        return "write its rank, such as " + ", ".join(picks) + joker
    examples = [f"{rank}{suit_letter(game, i % game.rules.suit_count)}" for i, rank in enumerate(picks)]
    return "write the rank and the suit letter, such as " + ", ".join(examples) + joker


CARD_MEMO = 1024  # spellings a game remembers: a scenario writes each card one way


def parse_card(game: Game, text: str) -> int:
    """The card value written `text` (remembered per game for the first `CARD_MEMO` spellings read)."""
    memo = game.card_memo
    value = memo.get(text)
    if value is None:
        value = _parse_card(game, text)
        if len(memo) < CARD_MEMO:
            memo[text] = value
    return value


def _parse_card(game: Game, text: str) -> int:
    rank, suit = parse_suited(game, text)
    if rank < 0:
        if game.rulebook.deck.jokers == 0:
            raise NotationError(f"`{text}`: this game has no jokers")
        return game.rules.joker
    if rank not in game.rules.ranks_in_play:
        raise NotationError(f"`{text}`: {game.rules.rank_plurals[rank]} are not in the deck at this table")
    if game.rules.by_rank:
        return rank
    if suit is None:
        raise NotationError(f"`{text}`: name the suit too, such as {text}{suit_letter(game, 0)}")
    return suit * game.rules.rank_count + rank


def deck_card_text(game: Game, card: int) -> str:
    """A card of the deck itself (`cheatdsl.cards` numbering), with its suit whatever the game claims: `7H`,
    `10C`, or `JK`: how a deck in shuffled order is written (a scenario's `deck:`)."""
    if card == JOKER:
        return JOKER_TEXT
    rank, suit = card % game.rules.rank_count, card // game.rules.rank_count
    return game.rules.rank_symbols[rank] + suit_letter(game, suit)


def parse_deck_card(game: Game, text: str) -> int:
    """The card of the deck written `text` (`7H`, `10C`, `JK`): its rank and its suit, whatever the game claims."""
    rank, suit = parse_suited(game, text)
    if rank < 0:
        if game.rulebook.deck.jokers == 0:
            raise NotationError(f"`{text}`: this game has no jokers")
        return JOKER
    if suit is None:
        raise NotationError(f"`{text}`: a card of the deck names its suit too, such as {text}{suit_letter(game, 0)}")
    return suit * game.rules.rank_count + rank


def parse_cards(game: Game, text: str | list[object]) -> tuple[int, ...]:
    """Card values from a space- or comma-separated text, or a list of card texts."""
    items = text if isinstance(text, list) else re.split(r"[\s,]+", text.strip())
    return tuple(sorted(parse_card(game, str(item)) for item in items if str(item).strip()))


# -- claims --------------------------------------------------------------------------------------

def rank_words(game: Game, rank: int, count: int = 2) -> str:
    """`sevens`, or `seven` for a count of one."""
    if not 0 <= rank < game.rules.rank_count:
        return f"rank {rank}"
    return game.rules.rank_names[rank] if count == 1 else game.rules.rank_plurals[rank]


def claim_text(game: Game, claim: int | None, count: int | None = None) -> str:
    """`2 sevens` with a count, `sevens` without; `the seven of hearts` for exact cards."""
    if claim is None:
        return "none"
    if game.rules.by_rank:
        if count is None:
            return rank_words(game, claim)
        return f"{count} {rank_words(game, claim, count)}"
    rank, suit = claim % game.rules.rank_count, claim // game.rules.rank_count
    return f"the {game.rules.rank_names[rank]} of {game.rules.suit_names[suit]}"


def claims_text(game: Game, claims: tuple[int, ...] | list[int]) -> str:
    if not claims:
        return "no claim"
    if len(claims) == len(game.rules.claim_order) and len(claims) > 1:
        return "any claim"
    return ", ".join(claim_text(game, c) for c in claims)


def parse_claim(game: Game, text: str) -> tuple[int, int | None]:
    """(claim, count or None) from `2 sevens`, `two sevens`, `a seven`, `sevens`, `the seven of hearts`."""
    words = text.strip().lower().split()
    count: int | None = None
    if words and (words[0].isdigit() or words[0] in _NUMBERS) and len(words) > 1:
        count = int(words[0]) if words[0].isdigit() else _NUMBERS[words[0]]
        words = words[1:]
    if words and words[0] == "the":
        words = words[1:]
    if not words:
        raise NotationError(f"`{text}` does not name a claim")
    if game.rules.by_rank:
        if len(words) != 1:
            raise NotationError(f"`{text}` is not a claim: write a count and a rank, such as `2 sevens`")
        rank = _rank_index(game, words[0])
        if rank is None and words[0].endswith("s"):
            rank = _rank_index(game, words[0][:-1])
        if rank is None:
            raise NotationError(f"`{words[0]}` is not a rank of this game")
        if rank not in game.rules.ranks_in_play:
            raise NotationError(f"`{text}`: {game.rules.rank_plurals[rank]} are not in the deck at this table")
        return rank, count
    if len(words) == 3 and words[1] == "of":
        rank = _rank_index(game, words[0])
        suits = [s for s in range(game.rules.suit_count) if game.rules.suit_names[s] in (words[2], words[2] + "s")]
        if rank is None or not suits:
            raise NotationError(f"`{text}` is not a card of this game")
        return suits[0] * game.rules.rank_count + rank, 1 if count is None else count
    if len(words) == 1:
        return parse_card(game, words[0]), 1 if count is None else count
    raise NotationError(f"`{text}` is not a claim: name the card, such as `the seven of hearts`")


# -- actions -------------------------------------------------------------------------------------

def action_text(game: Game, action: Action) -> str:
    """The action in the notation, e.g. `play 7 K as 2 sevens`."""
    if isinstance(action, Play):
        return f"play {cards_text(game, action.cards)} as {claim_text(game, action.claim, action.count)}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, Accept):
        return "accept"
    if isinstance(action, Challenge):
        return "challenge" if len(game.rules.all_kind_names) == 1 and action.kind in game.rules.all_kind_names else \
            f"challenge {action.kind}"
    if isinstance(action, DiscardSet):
        return f"discard {rank_words(game, action.rank)}"
    if isinstance(action, KeepSets):
        return "keep"
    if isinstance(action, ChanceDealer):
        return f"dealer {action.seat}"
    if isinstance(action, ChanceShuffle):
        return f"shuffle {action.seed}"
    if isinstance(action, ChanceCaller):
        return f"seat {action.seat} called first"
    return repr(action)


def parse_action(game: Game, text: str) -> Action:
    """The action written `text`."""
    t = " ".join(text.strip().split())
    low = t.lower()
    if low == "pass":
        return PASS
    if low == "accept":
        return ACCEPT
    if low in ("keep", "keep sets"):
        return KEEP
    if low == "challenge" or low.startswith("challenge "):
        kind = t[len("challenge"):].strip()
        if not kind:
            if not game.rules.all_kind_names:
                raise NotationError("this game has no challenge")
            return Challenge(game.rules.all_kind_names[0])
        for name in game.rules.all_kind_names:
            call = game.rulebook.challenge.kinds[game.rules.all_kind_names.index(name)].call
            if kind.lower() in (name.lower(), call.lower().strip("!?. ")):
                return Challenge(name)
        raise NotationError(f"`{text}`: there is no challenge `{kind}`; this game has "
                            + ", ".join(f"`{k}`" for k in game.rules.all_kind_names))
    if low.startswith("discard "):
        word = t.split(None, 1)[1]
        rank = _rank_index(game, word)
        if rank is None and word.endswith("s"):
            rank = _rank_index(game, word[:-1])
        if rank is None:
            raise NotationError(f"`{text}`: `{word}` is not a rank")
        return DiscardSet(rank)
    if low.startswith("dealer ") and low.split()[1].isdigit():
        return ChanceDealer(int(low.split()[1]))
    if low.startswith("shuffle ") and low.split()[1].isdigit():
        return ChanceShuffle(int(low.split()[1]))
    called = re.fullmatch(r"seat ([0-9]{1,4}) called first", low)
    if called:
        return ChanceCaller(int(called.group(1)))
    if low.startswith("play "):
        body = t[len("play "):]
        parts = re.split(r"\s+as\s+", body, maxsplit=1, flags=re.IGNORECASE)
        if len(parts) != 2:
            raise NotationError(f"`{text}`: write the cards and the claim, such as `play 7C KD as 2 sevens`")
        cards = parse_cards(game, parts[0])
        claim, count = parse_claim(game, parts[1])
        return Play(cards, claim, len(cards) if count is None else count)
    raise NotationError(f"`{text}` is not an action: write play ... as ..., pass, accept, challenge, "
                        "discard RANK or keep")


# -- messages ------------------------------------------------------------------------------------

def phase_text(state: State) -> str:
    """Who is to act and what for, in words."""
    g = state.game
    phase = state.phase
    if phase is Phase.TERMINAL:
        return "the game is over"
    if phase is Phase.CHANCE and state.callers():
        return (f"seats {seats_text(state.callers())} called at once on seat {state.claimant}'s claim and "
                "the lot decides who called first")
    if phase is Phase.CHANCE:
        return "the cards are being dealt"
    seat = state.current_player()
    if phase is Phase.RESPOND:
        play = state.pending_play()
        assert play is not None
        return (f"seat {seat} is to accept or challenge seat {state.claimant}'s claim of "
                f"{claim_text(g, play.claim, play.count)}")
    if phase is Phase.DISCARD:
        return f"seat {seat} is to discard sets or keep them"
    return f"seat {seat} is to play {claims_text(g, state.required_claims())}"


def not_now_text(state: State, what: str) -> str:
    """Why `what` is refused at this point of the game."""
    return f"cannot {what} now: {phase_text(state)}"


def bad_kind_text(game: Game, kind: str) -> str:
    """Why a challenge named `kind` is refused: not allowed at this player count, or not in the rules."""
    if kind in game.rules.all_kind_names:
        return f"the challenge `{kind}` is not allowed with {game.players} players"
    return f"there is no challenge `{kind}`; this game has " + ", ".join(f"`{k}`" for k in game.rules.kind_names)


def seats_text(seats: tuple[int, ...]) -> str:
    """Seats in words: `2`, `2 and 3`, `1, 2 and 3`."""
    words = [str(s) for s in seats]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def bad_play_text(state: State, action: Play) -> str:
    g = state.game
    n = len(action.cards)
    if action.claim not in state.required_claims():
        said = claim_text(g, action.claim) if isinstance(action.claim, int) else repr(action.claim)
        return f"seat {state.current_player()} may not claim {said}: the claim must be {claims_text(g, state.required_claims())}"
    top = "" if g.rules.max_cards is None else f" to {g.rules.max_cards}"
    if n < g.rules.min_cards or (g.rules.max_cards is not None and n > g.rules.max_cards):
        return f"a play holds {g.rules.min_cards}{top} cards, this one holds {n}"
    if g.rules.exact:
        return f"the count called must be the count played: {n} cards called as {action.count}"
    if g.rules.any_count:
        return f"the count called must be from {g.rules.min_cards} to {g.rules.count_cap}, not {action.count}"
    return f"the count called must be from {g.rules.min_cards} to the {n} cards played, not {action.count}"


def bad_cards_text(state: State, action: Play) -> str:
    g = state.game
    cards = action.cards
    if any(not isinstance(c, int) or not 0 <= c <= g.rules.values for c in cards):
        return f"{cards!r} are not card values of this game"
    if list(cards) != sorted(cards):
        return "the cards of a play are listed in ascending order"
    seat = state.current_player()
    hand = state.hand(seat)
    missing = [c for c in set(cards) if cards.count(c) > hand[c]]
    return (f"seat {seat} does not hold {cards_text(g, sorted(missing))} "
            f"(holds {cards_text(g, state.hand_cards(seat))})")


def describe_state(state: State) -> str:
    """A few lines showing the whole state (every hand), for debugging and failed scenarios."""
    g = state.game
    lines = [phase_text(state)]
    for seat in range(g.players):
        mark = "" if state.is_in(seat) else " (out)"
        lines.append(f"  seat {seat}{mark}: {cards_text(g, state.hand_cards(seat))}")
    lines.append(f"  pile: {cards_text(g, state.pile_cards())}")
    if state.game.rulebook.deal.surplus is Surplus.STOCK:
        lines.append(f"  stock: {len(state.stock())} cards")
    lines.append(f"  previous: {claim_text(g, state.previous)}; required: {claims_text(g, state.required_claims())}")
    return "\n".join(lines)


_DOING_WORDS = {Doing.PLAY: "play cards", Doing.ACCEPT: "accept a claim", Doing.CHALLENGE: "challenge",
                Doing.PASS: "pass", Doing.DISCARD: "discard a set", Doing.FINISH_DISCARDING: "finish discarding sets"}


def refusal_text(exc: IllegalAction) -> str:
    """Why the engine refused an action, in the game's words: the sentence a person is shown."""
    state, reason, seat, action = exc.state, exc.reason, exc.seat, exc.action
    if not isinstance(reason, Refusal):
        return str(exc)
    simple = _SIMPLE_WORDS.get(reason)
    if simple is not None:
        return simple
    about_seat = _SEAT_WORDS.get(reason)
    if about_seat is not None:
        return about_seat.format(seat=seat)
    if reason is Refusal.NOT_AN_ACTION:
        return f"{action!r} is not an action of this game"
    if reason is Refusal.NOT_A_PLAY:
        return f"{action!r} is not a play: cards are a tuple of card values, the claim and the count whole numbers"
    if reason is Refusal.BAD_SEED:
        return f"a shuffle seed is a whole number from 0 up, not {getattr(action, 'seed', action)!r}"
    if state is None:
        return str(exc)
    if reason is Refusal.PASS_NEEDS:
        when = state.game.rules.pass_when
        return f"seat {seat} may not pass now: passing needs `{when.text if when is not None else ''}`"
    if reason is Refusal.NOT_A_CALLER:
        return f"seat {seat!r} did not call; the callers are seats " + ", ".join(str(s) for s in state.callers())
    if reason is Refusal.NOT_NOW:
        assert exc.doing is not None
        return not_now_text(state, _DOING_WORDS[exc.doing])
    if reason is Refusal.BAD_PLAY:
        return bad_play_text(state, exc.action)
    if reason is Refusal.BAD_CARDS:
        return bad_cards_text(state, exc.action)
    if reason is Refusal.BAD_KIND:
        return bad_kind_text(state.game, exc.kind)
    rank = exc.rank
    name = rank_words(state.game, rank) if isinstance(rank, int) else repr(rank)
    return f"seat {exc.seat} holds no complete set of {name}"


# The refusals whose sentence names the seat refused, and nothing else.
_SEAT_WORDS = {
    Refusal.NOTHING_TO_PLAY: "seat {seat} has no play to make",
    Refusal.NOT_YOUR_TURN: "it is not seat {seat}'s turn to play",
    Refusal.LEADER_MAY_NOT_PASS: "seat {seat} leads the round and may not pass",
    Refusal.NO_SUCH_SEAT: "there is no seat {seat} to deal",
}

# The refusals whose sentence needs nothing but the reason.
_SIMPLE_WORDS = {
    Refusal.NO_PLAY_NOW: "there is no play to make now",
    Refusal.NO_PASSING: "passing is not allowed: a player without the rank must bluff",
    Refusal.NOT_CHANCE: "it is not chance's turn",
    Refusal.NO_LOT: "no calls made at once are waiting for the lot now",
    Refusal.NO_DEALER_CHOICE: "the dealer is not being chosen now",
    Refusal.NO_SHUFFLE: "the deck is not being shuffled now",
}


def why_illegal(state: State, action: Action) -> str | None:
    """Why `action` may not be applied now, in the game's words, or None when it may."""
    refused = state.refusal(action)
    return None if refused is None else refusal_text(refused)
