"""Throne Arcade: cards, the state record's layout, decision kinds, trace events, result columns.

Shared by the rules kernel (rules.py), the policies (policies.py) and the match loop (match.py);
nothing here acts.

A card FACE is colour * N_TYPES + type (32 faces). The deck is data (the option ``deck``, by default
one card of each face): its cards are INSTANCES 0..size-1, each with a face, so that a deck may
hold two cards of one face. A set of cards (a hand, the pile) is a bit mask over instances, which
is why a deck holds at most MAX_DECK cards (a decision's answers are bits 0..62 of one int64).

The state of one match is one int64 array (``STATE_SIZE``). Offsets 0-2 are the engine's common
decision header; per-seat fields are blocks of ``MAX_PLAYERS`` entries (``state[HAND + seat]``);
per-instance fields blocks of ``MAX_DECK`` entries.
"""

from balance.engine.decision import DECISION_HEADER, POLICY_RANDOM

# ---- cards ------------------------------------------------------------------------------
COLOURS = ("gold", "green", "blue", "orange")  # humans, elves, dwarfs, orcs
GOLD, GREEN, BLUE, ORANGE = range(4)
TYPES = ("Lord", "Hand", "King", "VII", "VIII", "IX", "X", "Ace")
LORD, HAND_CARD, KING, VII, VIII, IX, X, ACE = range(8)
N_COLOURS, N_TYPES = len(COLOURS), len(TYPES)
COLOURS_MASK = (1 << N_COLOURS) - 1  # a Hand names any colour
N_FACES = N_COLOURS * N_TYPES


def face_of(colour: int, kind: int) -> int:
    return colour * N_TYPES + kind


FACE_NAMES = tuple(f"{c} {t}" for c in COLOURS for t in TYPES)
FACE_IDS = {name.lower(): i for i, name in enumerate(FACE_NAMES)}
GREEN_LORD = face_of(GREEN, LORD)  # draws 3, as a VII
ORANGE_VII = face_of(ORANGE, VII)  # a VII that also brings back a player who just went out
DEFAULT_DECK = FACE_NAMES  # assumed: 4 colours x 8 types, one of each (the shape of Prsi)

MAX_DECK = 62
NONE = 62  # the answer bit "no card": draw instead of answering a penalty, stop adding, keep the drawn card
NONE_BIT = 1 << NONE
MAX_PLAYERS = 6
MIN_PLAYERS = 2
NOBODY = -1
NO_CARD = -1

START_HAND = 5  # cards dealt to a player who has lost no round
DRAW_PER_PENALTY_CARD = 3  # a VII or the green Lord: the next player draws 3
KING_DRAW = 5  # option king_draws_5
REVIVAL_DRAW = 3  # the orange VII: the player brought back draws 3

# ---- special kinds: a result row packs each seat's dealt cards of each kind, SPECIAL_BITS bits a kind
SPECIAL_KINDS = ("vii", "orange_vii", "green_lord", "hand", "ace")  # "vii": the VIIs but the orange one
K_VII, K_ORANGE_VII, K_GREEN_LORD, K_HAND, K_ACE = range(len(SPECIAL_KINDS))
SPECIAL_BITS = 4
SPECIAL_MAX = (1 << SPECIAL_BITS) - 1

# ---- rule options vector (int64 array passed to the kernel) ------------------------------
OPT_PLAYERS = 0
OPT_MAX_ROUNDS = 1  # rows per match (the match cap)
OPT_TURN_CAP = 2  # turns after which a round stops, capped
OPT_START_HAND = 3  # cards dealt to a player who lost no round
OPT_STACKING = 4  # 1: a player facing a draw penalty may pass it on with a VII or the green Lord (Prsi)
OPT_HAND_ON_ANYTHING = 5  # 1: a Hand may be laid on any card
OPT_KING_DRAWS = 6  # 1: a King makes the next player draw 5, unless they lay the Lord of the King's colour
OPT_PLAY_DRAWN = 7  # 1: a card drawn because nothing fitted may be laid at once if it fits
OPT_STARTING_CARD_ACTS = 8  # 1: the starting card's effect applies to the first player
OPT_DECK_SIZE = 9
OPT_DECK = 10  # per instance: its face
N_OPTIONS = OPT_DECK + MAX_DECK

# ---- state record (after the common decision header, offsets 0-2) ------------------------
FACE = DECISION_HEADER  # per instance: its face (copied from the options at the match's start)
COLOUR_CARDS = FACE + MAX_DECK  # per colour: mask of the deck's instances of that colour
TYPE_CARDS = COLOUR_CARDS + N_COLOURS  # per type: mask of the deck's instances of that type
PENALTY_CARDS = TYPE_CARDS + N_TYPES  # mask: the VIIs and the green Lord (draw 3)
ORANGE_VII_CARDS = PENALTY_CARDS + 1  # mask: the orange VIIs
KING_RULE = ORANGE_VII_CARDS + 1  # 1 when Kings make the next player draw 5 (the option, for policies too)
HAND = KING_RULE + 1  # per seat: mask of the cards in hand
LOSSES = HAND + MAX_PLAYERS  # per seat: rounds lost this match
IN_GAME = LOSSES + MAX_PLAYERS  # per seat: 1 until eliminated
IN_ROUND = IN_GAME + MAX_PLAYERS  # per seat: 1 while the seat holds cards in this round
DEALT = IN_ROUND + MAX_PLAYERS  # per seat: mask of the cards dealt this round
START_SIZE = DEALT + MAX_PLAYERS  # per seat: cards dealt this round (0 when out of the game)
TALON = START_SIZE + MAX_PLAYERS  # the draw pile, bottom first: TALON + i, i < TALON_LEN
TALON_LEN = TALON + MAX_DECK
PILE = TALON_LEN + 1  # mask of the cards laid on the table, the top card included
TOP = PILE + 1  # the instance on top of the pile
COLOUR_IN_FORCE = TOP + 1  # the top card's colour, or the colour a Hand named
PENDING_DRAW = COLOUR_IN_FORCE + 1  # cards the next player to take a turn must draw
PENDING_KING = PENDING_DRAW + 1  # colour of the King that set the penalty (option king_draws_5), or -1
PENDING_SKIPS = PENDING_KING + 1  # players the next turn passes over (Aces)
JUST_OUT = PENDING_SKIPS + 1  # the seat that emptied its hand on the last turn, or NOBODY
TURN = JUST_OUT + 1  # the seat whose turn it is
PLAYERS = TURN + 1  # seats at the table (the match's player count)
ROUND = PLAYERS + 1  # rounds completed in this match
STARTER = ROUND + 1  # who started this round
LOSER = STARTER + 1  # this round's loser, or NOBODY while it runs (and when capped)
ELIMINATED = LOSER + 1  # the seat this round eliminated, or NOBODY
ROUND_CAPPED = ELIMINATED + 1  # 1 when this round hit the turn cap or stalled
TURNS = ROUND_CAPPED + 1  # turns taken this round (a skipped player takes none)
IDLE_TURNS = TURNS + 1  # turns in a row in which no card moved (a full table of them: the round is stalled)
DRAWN = IDLE_TURNS + 1  # cards drawn from the talon this round
REFRESHES = DRAWN + 1  # talon refreshes this round
REVIVALS = REFRESHES + 1  # players the orange VII brought back this round
WINNER = REVIVALS + 1  # the match winner, or NOBODY
TRACE_LEN = WINNER + 1  # events written to the trace buffer
PHASE = TRACE_LEN + 1  # where the rules stand (PH_* below; a decision kind while that decision is pending)
LAID = PHASE + 1  # mask of the cards laid this turn
DRAWN_BEFORE = LAID + 1  # state[DRAWN] at the turn's start (a turn in which no card moved is idle)
TURN_STOP = DRAWN_BEFORE + 1  # the rules stop at a turn's start once TURNS reaches this (a position's
# turn, a rollout's horizon; NEVER in a match)
STATE_SIZE = TURN_STOP + 1
NEVER = 1 << 62  # TURN_STOP of a round played to its end

# ---- decisions: every choice is "pick one set bit of D_CHOICES" --------------------------
LAY_FIRST = 0  # instance mask: the first card of the turn's play
LAY_MORE = 1  # instance mask of the same type, or NONE: lay another card of the type just laid, or stop
NAME_COLOUR = 2  # colour bits 0..3: the colour a Hand names
PLAY_DRAWN = 3  # the drawn card's bit, or NONE: lay the card just drawn (option play_drawn_card)
ANSWER_PENALTY = 4  # instance mask, or NONE (draw): pass a penalty on (stacking) or cancel a King's
N_KINDS = 5
KIND_NAMES = ("lay a card", "lay another of the type", "name a colour", "lay the drawn card", "answer a penalty")
NONE_WORDS = ("", "stop", "", "keep", "draw")  # per kind, the readable name of its answer NONE

# ---- phases (state[PHASE]): a pending decision's kind (above), or a step the rules take alone
PH_TURN_START = N_KINDS  # between turns: the round ends, stops (TURN_STOP), is capped, or a turn starts
PH_PLAY = PH_TURN_START + 1  # no card laid yet (no penalty answered): lay a first card, or draw
PH_MORE = PH_PLAY + 1  # a card laid: more of its type, or stop
PH_ACT = PH_MORE + 1  # the cards laid act (penalties, the orange VII, a Hand's colour)
PH_END_TURN = PH_ACT + 1  # a player without cards leaves the round; the turn passes on
PH_ROUND_OVER = PH_END_TURN + 1  # one player holds cards (or the round is capped)

# ---- trace events: rows (round, event, seat, card, value) ---------------------------------
TRACE_FIELDS = 5
EV_DEAL, EV_START_CARD, EV_LAY, EV_NAME, EV_DRAW, EV_PENALTY, EV_SKIPPED, EV_OUT, EV_REVIVED, EV_REFRESH, \
    EV_LOSE, EV_ELIMINATED, EV_CAP, EV_WIN = range(14)

# ---- result rows (one per round) ----------------------------------------------------------
ROUND_COLUMNS = ("game", "deal", "rotation", "row", "players", "alive", "starter", "loser", "starter_lost",
                 "capped", "turns", "drawn", "refreshes", "revivals", "eliminated", "prev_loser", "prev_loser_lost",
                 "match_winner", "match_capped", "match_rounds", "last_round")
(C_GAME, C_DEAL, C_ROTATION, C_ROW, C_PLAYERS, C_ALIVE, C_STARTER, C_LOSER, C_STARTER_LOST, C_CAPPED, C_TURNS,
 C_DRAWN, C_REFRESHES, C_REVIVALS, C_ELIMINATED, C_PREV_LOSER, C_PREV_LOSER_LOST, C_MATCH_WINNER, C_MATCH_CAPPED,
 C_MATCH_ROUNDS, C_LAST_ROUND) = range(len(ROUND_COLUMNS))
C_HAND_SIZE = len(ROUND_COLUMNS)  # per seat: cards dealt this round (0: out of the game)
C_SPECIALS = C_HAND_SIZE + MAX_PLAYERS  # per seat: its dealt special cards, counted per kind and packed
COLUMNS = ROUND_COLUMNS + tuple(f"hand_{s}" for s in range(MAX_PLAYERS)) + \
    tuple(f"specials_{s}" for s in range(MAX_PLAYERS))
N_COLUMNS = len(COLUMNS)

# ---- policies (codes; parameters are documented in options.py) ----------------------------
# POLICY_RANDOM (0) is the engine's, the same in every game.
POLICY_GREEDY, POLICY_HEURISTIC, POLICY_SEARCH, POLICY_ISMCTS = 1, 2, 3, 4
assert POLICY_RANDOM == 0
