"""Thron der Lügen: cards, the state record's layout, decision kinds, trace events, result columns.

Shared by the scoring rules (scoring.py), the rules kernel (rules.py) and the policies; nothing
here acts.

Seats sit clockwise 0..n-1; play passes clockwise, to the left: seat s+1 is the left neighbour of
seat s. Throne t lies between seat t and seat t+1: it is seat t's LEFT throne and seat t+1's RIGHT
throne, so seat s's thrones are t = s (left) and t = s-1 (right).

The 28 court cards are numbered 0..27 in deck-file order (copies expanded). What a card is (its
people, kind, values, intrigue effect) is not code: it is a row of the deck table, which the game
writes into the kernel's options vector from the scenario's deck file (deck.py).
"""

from balance.engine.decision import DECISION_HEADER

# ---- components and numbers of the rulebook -----------------------------------------------
N_COURT = 28  # 23 Fae and 5 intrigue cards (a deck file may split them otherwise, but holds 28)
N_FAE = 23
N_INTRIGUE = N_COURT - N_FAE
N_END = 4  # End cards
MIN_PLAYERS, MAX_PLAYERS = 3, 6
STONES_TO_WIN = 4
STONES_TO_WIN_LARGE = 3  # with 5 or 6 players
LARGE_TABLE = 5
HIGHEST_STONES = 2  # the highest score alone
TIED_STONES = 1  # each of the tied highest
LONE_STONES = 2  # the Sun -1 in hand with 3 points or less on the thrones: wins the round alone
LONE_LIMIT = 3
LOWEST_STONES = 1  # the Moon 1 in hand with the lowest throne score
PAIR_STONES = 1  # both Moon 3s as one seat's thrones
DOUBLE_VALUE = 2  # the x2's own value (both x2: 4; x2 with the -2 of its people: 2)
NO_CARD = -1
NOBODY = -1

# ---- peoples and card kinds (deck data) -----------------------------------------------------
PEOPLES = ("Sun", "Moon", "Wild Hunt", "Winter", "Summer", "Spring", "Autumn")
SUN = 0  # its cards may be swapped into any throne
NO_PEOPLE = -1  # intrigue cards belong to no people

# kinds: what a Fae card does besides its value; INTRIGUE for the intrigue cards
PLAIN, SPLIT, BONUS, LONE, LOWEST, PAIR, HUNT, DOUBLE, MINUS, INTRIGUE = range(10)
KIND_NAMES = ("plain", "split", "bonus", "lone", "lowest", "pair", "hunt", "double", "minus", "intrigue")
KIND_DOCS = {
    "plain": "a value (throne: the usual scoring)",
    "split": "two numbers, left and right: on a throne each neighbour reads the number on its side (Spring, Autumn)",
    "bonus": "hand: the value is added to the total; throne: the value (Sun +2)",
    "lone": "hand: the value is added, and with 3 points or less on the thrones the holder wins the round alone "
            "(Sun -1); throne: the value",
    "lowest": "hand: 1 point stone with the lowest throne score, ties included (Moon 1); throne: the value",
    "pair": "two of them as one seat's thrones end the round at once, 1 point stone (the Moon 3s); throne: the "
            "value",
    "hunt": "throne: the other throne card does not count for that seat (Wild Hunt)",
    "double": "throne: doubles the other throne card of another people; its own value is 2 (x2)",
    "minus": "hand: the value is added; throne: counts only beside another people (the -2)",
}
HAND_MODIFIES = (BONUS, LONE, MINUS)  # kinds whose value counts from the hand

# intrigue effects (deck data, with parameters)
SWAP_THRONES, PEEK_SWAP, REPLACE_FROM_PILE, HIDE_END = range(4)
EFFECT_NAMES = ("swap_thrones", "peek_swap", "replace_from_pile", "hide_end")
EFFECT_DOCS = {
    "swap_thrones": "swap two throne cards (param reach: 'any' two on the table, or 'own': one of them yours)",
    "peek_swap": "look at a throne card that is not yours, then you may swap it with one of your throne cards "
                 "(param swap = false: look only)",
    "replace_from_pile": "replace a throne card with the top card of the draw pile, the old one face up on the "
                         "discard pile (param reach: 'any' or 'own')",
    "hide_end": "turn up to `count` revealed End cards face down again (param count, 1-4)",
}
REACH_ANY, REACH_OWN = 0, 1

# the deck table: CARD_FIELDS entries per card, at opts[OPT_DECK + card * CARD_FIELDS + field]
F_PEOPLE, F_KIND, F_VALUE, F_LEFT, F_RIGHT, F_EFFECT, F_PARAM = range(7)
CARD_FIELDS = 7
VALUE_RANGE = (-9, 9)  # card values a deck file may give
SPLIT_RANGE = (0, 9)

# ---- rule options vector (int64, passed to the kernel) ---------------------------------------
OPT_PLAYERS = 0
OPT_STONES_TO_WIN = 1
OPT_MAX_ROUNDS = 2  # rounds per match before it is capped
OPT_SPLIT_PLACER = 3  # 1: whoever places a split card turns it to their side; 0: upright, as printed
OPT_HUNT_DOUBLED = 4  # 1: an x2 beside a Wild Hunt doubles it; 0: the Hunt cancels the x2
OPT_PAIR_AT_DEAL = 5  # 1: both Moon 3s dealt to one seat's thrones end the round before the first turn
OPT_CHECKS = 6  # 1: check the card invariants after every move (tests), counting breaches in BROKEN
OPT_TWO_HUNTS_CANCEL = 7  # 1: both Wild Hunts on one person's thrones cancel each other (0); 0: the higher counts
OPT_PRINTED_TOTALS = 8  # 1: both x2 (4) and an x2 beside its people's -2 (2) are the round total, hand ignored
OPT_LONE_CARD_SUM = 9  # 1: the Sun -1's "sum of your two throne cards" adds their values as they read
OPT_LONE_ALL_STONES = 10  # 1: the Sun -1's win alone leaves every other stone of the round ungiven (the Moon 1's too)
OPT_MOON_ONE_TOTAL = 11  # 1: the Moon 1's "lowest total score" compares round totals, not throne scores
OPT_DECK = 12
# Lookup tables derived from the deck table and the options, written once per setup by
# policies.fill_lookups from the scoring rules themselves: the heuristic evaluates hundreds of
# positions a round and reads a number where the rules decide case by case. A card on a throne as
# one seat reads it is an ORIENTED card: card * 2 + 1 when that seat reads the card's right half
# (a split card; every other card reads the same from both sides).
N_ORIENTED = 2 * N_COURT
OPT_FACE = OPT_DECK + N_COURT * CARD_FIELDS  # per oriented card: scoring.face_value
OPT_PAIR = OPT_FACE + N_ORIENTED  # per (oriented a, oriented b), at OPT_PAIR + a * N_ORIENTED + b:
#                                   scoring.pair_score of the two
OPT_ALONE = OPT_PAIR + N_ORIENTED * N_ORIENTED  # per oriented card: its part of a throne score beside an
#                                                 unseen card (policies.estimate: the x2 0, it only doubles)
OPT_PARTNER = OPT_ALONE + N_ORIENTED  # per oriented card: how many times the unseen card beside it counts
#                                       (a Wild Hunt 0, an x2 2, any other 1)
OPT_MEAN2 = OPT_PARTNER + N_ORIENTED  # per card: twice its value read from either side (policies.mean_face)
OPT_PLACED_FLIP = OPT_MEAN2 + N_COURT  # per card, at OPT_PLACED_FLIP + card * 2 + (placed on the placer's
#                                        left throne): scoring.placement_flip
N_OPTIONS = OPT_PLACED_FLIP + 2 * N_COURT

# ---- state record (one flat int64 array) ----------------------------------------------------
# 0..2: the decision header (D_SEAT, D_KIND, D_CHOICES), see decision.py
PLAYERS = DECISION_HEADER
TURN_SEAT = PLAYERS + 1  # whose turn it is
FIRST = TURN_SEAT + 1  # who began this round
LAST_TURN = FIRST + 1  # who had the last turn (the next round begins to their left)
THRONE = LAST_TURN + 1  # per throne: the court card on it
FLIP = THRONE + MAX_PLAYERS  # per throne: 1 when a split card lies turned (option split_cards = placer)
PLACER = FLIP + MAX_PLAYERS  # per throne: who put its card there from their hand (public), NOBODY if dealt or
#                              drawn from the pile; it moves with the card
HAND = PLACER + MAX_PLAYERS  # per seat: the court card in hand
DRAWN = HAND + MAX_PLAYERS  # the card drawn this turn (the second hand card), or NO_CARD
PILE = DRAWN + 1  # the draw pile, top at PILE + PILE_TOP
PILE_TOP = PILE + N_COURT  # index of the top card; N_COURT when the pile is used up
DISCARDS = PILE_TOP + 1  # bit mask of the face-up discard pile (public)
END_SHOWN = DISCARDS + 1  # End cards revealed (0..4)
KNOWN = END_SHOWN + 1  # per (seat, throne), at KNOWN + seat * MAX_PLAYERS + throne: the card the seat
#                        knows lies on a throne not beside it (it placed, moved or looked at it), or NO_CARD
VIEW = KNOWN + MAX_PLAYERS * MAX_PLAYERS  # per throne: policy scratch, the card as the deciding seat knows it
VIEW_FLIP = VIEW + MAX_PLAYERS  # per throne: policy scratch, how a split card there lies
PLACING = VIEW_FLIP + MAX_PLAYERS  # the card being placed by a Sun swap (known to its placer), or NO_CARD
PENDING = PLACING + 1  # the throne chosen first (swap_thrones) or looked at (peek_swap)
DECK_VALUE2 = PENDING + 1  # twice the summed throne value of the 28 cards (split cards: their mean), for policies
STONES = DECK_VALUE2 + 1  # per seat: point stones in the match
ROUND_STONES = STONES + MAX_PLAYERS  # per seat: point stones won this round
SCORE = ROUND_STONES + MAX_PLAYERS  # per seat: this round's total score (throne score + hand)
THRONE_SCORE = SCORE + MAX_PLAYERS  # per seat: this round's throne score
ROUND = THRONE_SCORE + MAX_PLAYERS  # rounds completed in the match
END_REASON = ROUND + 1  # how the round ended (END_* below), 0 while it runs
TURNS = END_REASON + 1  # turns this round
DRAWS = TURNS + 1
SWAPS = DRAWS + 1  # hand cards swapped into thrones
FAR_SWAPS = SWAPS + 1  # Sun cards swapped into another seat's throne
INTRIGUES = FAR_SWAPS + 1  # intrigue cards played
REVEALS = INTRIGUES + 1  # End cards revealed (before any was turned back)
HIDDEN = REVEALS + 1  # End cards turned face down again
WINNER = HIDDEN + 1  # the match's winner, or NOBODY
MATCH_OVER = WINNER + 1  # 1 once the match is decided
TRACE_LEN = MATCH_OVER + 1  # events written to the trace buffer
PHASE = TRACE_LEN + 1  # where the rules stand (PH_* below; a decision kind while that decision is pending)
USED = PHASE + 1  # the intrigue card being carried out (it goes to the discard pile after), or NO_CARD
BROKEN = USED + 1  # card invariant breaches seen (with OPT_CHECKS)
ESTIMATE = BROKEN + 1  # per seat: policy scratch, float64 bits: each seat's throne estimate in the deciding
#                        seat's view (policies.load_estimates)
SUMMED_DISCARDS = ESTIMATE + MAX_PLAYERS  # policy scratch: the discard mask DISCARDS_VALUE2 was summed for
DISCARDS_VALUE2 = SUMMED_DISCARDS + 1  # policy scratch: twice the summed value of those discards
#                                        (policies.discards_value2; both 0 in a fresh state, which is consistent)
EXCHANGE_BEST = DISCARDS_VALUE2 + 1  # per throne: policy scratch, float64 bits: the best swap_thrones exchange
#                                      of its card in the deciding seat's view (policies.exchange_values)
STATE_SIZE = EXCHANGE_BEST + MAX_PLAYERS

# how a round ends
END_PILE, END_CARDS, END_MOON_PAIR = 1, 2, 3
END_REASON_NAMES = {END_PILE: "the draw pile is used up", END_CARDS: "all 4 End cards are revealed",
                    END_MOON_PAIR: "both Moon 3s lie beside one person"}

# ---- decisions: every choice is one set bit of D_CHOICES ------------------------------------
TURN = 0  # bit DRAW or REVEAL_END
DRAW, REVEAL_END = 0, 1
ACT = 1  # after drawing: bit act * 2 + slot; slot 0 = the card held before, 1 = the drawn card
SWAP_LEFT, SWAP_RIGHT, SWAP_FAR, PLAY, DISCARD = range(5)
N_ACTS = 5
HELD, DRAWN_SLOT = 0, 1
FAR_THRONE = 2  # throne mask: where a Sun card goes (thrones not beside the player)
SWAP_FIRST = 3  # throne mask: swap_thrones' first card
SWAP_SECOND = 4  # throne mask: swap_thrones' second card
PEEK_TARGET = 5  # throne mask: which throne card peek_swap looks at
PEEK_CHOICE = 6  # bit KEEP, WITH_LEFT or WITH_RIGHT: what peek_swap does with it
KEEP, WITH_LEFT, WITH_RIGHT = 0, 1, 2
REPLACE_TARGET = 7  # throne mask: which throne card replace_from_pile replaces
N_KINDS = 8
KIND_DECISION_NAMES = ("turn", "act", "far throne", "swap first", "swap second", "peek target", "peek choice",
                       "replace target")

# ---- phases (state[PHASE]): a pending decision's kind (above), or a step the rules take alone
PH_TURN_START = N_KINDS  # between turns: the round ends (scored), or the next player's turn starts
PH_END_TURN = PH_TURN_START + 1  # the turn is done: the card check, then the next player
PH_ROUND_OVER = PH_END_TURN + 1  # the round is scored and its stones handed out: nothing is pending

# ---- trace events: rows (round, event, seat, a, b, c) -----------------------------------------
TRACE_FIELDS = 6
EV_DEAL, EV_DRAW, EV_SWAP, EV_DISCARD, EV_INTRIGUE, EV_THRONES_SWAPPED, EV_PEEK, EV_REPLACE, EV_HIDE, \
    EV_REVEAL_END, EV_MOON_PAIR, EV_SCORE, EV_ROUND_END, EV_MATCH_WIN, EV_CAP = range(15)

# ---- policies (codes; parameters in options.py) -----------------------------------------------
POLICY_RANDOM, POLICY_HEURISTIC, POLICY_SEARCH, POLICY_ISMCTS = 0, 1, 3, 4  # (2 was a scripted policy's; positions now step the rules)

# ---- result row (one per round; unused rows of a match have row = -1) ------------------------
SEAT_FIELDS = ("score", "throne", "stones", "total")
COLUMNS = ("game", "deal", "rotation", "row", "players", "first", "last_turn", "end_reason", "turns", "draws",
           "swaps", "far_swaps", "intrigues", "reveals", "hidden", "match_winner", "last_round", "match_capped",
           "match_rounds",
           *[f"{field}_{s}" for field in SEAT_FIELDS for s in range(MAX_PLAYERS)])
C_SEATS = COLUMNS.index("score_0")
C_MATCH_WINNER, C_LAST_ROUND, C_MATCH_CAPPED, C_MATCH_ROUNDS = (COLUMNS.index(c) for c in (
    "match_winner", "last_round", "match_capped", "match_rounds"))
N_COLUMNS = len(COLUMNS)
