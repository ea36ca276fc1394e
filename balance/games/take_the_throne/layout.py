"""Take the Throne: cards, the state record's layout, decision kinds and trace events.

Shared by the rules kernel (rules.py), the policies (policies.py) and the game loop (match.py);
nothing here acts.

Cards are small integers; a set of cards (a hand, a discard pile, a player's whole deck) is a
bit mask with bit ``card``. Every house deck holds at most one card of each kind and there is
one copy of each crown card, so masks lose nothing.

The state of one game is one int64 array (``STATE_SIZE``). It starts with the engine's decision
header (balance.engine.decision: D_SEAT, D_KIND, D_CHOICES, the pending decision); the game's own
fields follow. The per-seat fields are blocks of ``MAX_PLAYERS`` entries starting at the named
offset (``state[HAND + seat]``).
"""

import numpy as np

from balance.engine.decision import DECISION_HEADER

# ---- cards ------------------------------------------------------------------------------
ABDICATE, AUTHORITY, RAID, COMMAND, CONSOLIDATE, DEFEND, CHAOS, ENTRAP = range(8)
ATTACK, CHARGE, FEINT, INFILTRATE, SABOTAGE, ALLY, AMBUSH, DOMINATE, RAVEN, REINFORCE = range(8, 18)
N_CARDS = 18
NO_CARD = -1

CARD_NAMES = ("Abdicate", "Authority", "Raid", "Command", "Consolidate", "Defend", "Chaos", "Entrap",
              "Attack", "Charge", "Feint", "Infiltrate", "Sabotage", "Ally", "Ambush", "Dominate", "Raven",
              "Reinforce")
CARD_IDS = {name.lower(): i for i, name in enumerate(CARD_NAMES)}

STRENGTH = np.array([0] * 8 + [1, 3, 0, 2, 0, 0, 0, 4, 0, 0], dtype=np.int64)

CROWN_CORE = (ABDICATE, AUTHORITY, RAID, COMMAND, CONSOLIDATE, DEFEND)  # additional: Chaos, Entrap
HOUSE_CORE = (ATTACK, CHARGE, FEINT, INFILTRATE, SABOTAGE)  # additional: Ally, Ambush, Dominate, Raven,
# and Reinforce, which is for the 2-player mode only
TWO_PLAYER_CARDS = (ATTACK, CHARGE, DOMINATE, INFILTRATE, REINFORCE)
# Variant draws: cards kept by everyone, and the pools the random cards come from.
MIRROR_HOUSE_KEPT = (ATTACK, CHARGE, INFILTRATE)
MIRROR_HOUSE_POOL = (FEINT, SABOTAGE, ALLY, AMBUSH, DOMINATE, RAVEN)
MIRROR_CROWN_KEPT = (RAID, DEFEND)
MIRROR_CROWN_POOL = (ABDICATE, AUTHORITY, COMMAND, CONSOLIDATE, CHAOS, ENTRAP)
MONARCH_HAND_SIZE = 6
HOUSE_HAND_SIZE = 5


def mask_of(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


CROWN_MASK = mask_of(range(8))
HOUSE_MASK = mask_of(range(8, 18))
MIRROR_CROWN_KEPT_MASK = mask_of(MIRROR_CROWN_KEPT)
MIRROR_CROWN_POOL_MASK = mask_of(MIRROR_CROWN_POOL)
MIRROR_HOUSE_KEPT_MASK = mask_of(MIRROR_HOUSE_KEPT)
MIRROR_HOUSE_POOL_MASK = mask_of(MIRROR_HOUSE_POOL)

# ---- game constants ---------------------------------------------------------------------
MAX_PLAYERS = 5
WIN_VP = 8
START_VP = 1
START_VP_TWO_PLAYER = 0
RETAIN_VP = 2
TAKE_VP = 1
TAKE_BACK_VP = 1  # taking the throne back after Abdicate, where the option pays it
RETAIN_VP_TWO_PLAYER = 1
TAKE_VP_TWO_PLAYER = 2
AMBUSH_VP = 2
ALLY_VP = 2
NOBODY = -1

# ---- modes (rule-set codes in OPT_MODE) ---------------------------------------------------
MODE_CORE, MODE_MIRROR, MODE_ASYMMETRIC, MODE_CUSTOM, MODE_TWO_PLAYER = range(5)

# ---- rule options vector (int64 array passed to the kernel) ------------------------------
OPT_MODE = 0
OPT_PLAYERS = 1
OPT_MAX_ROUNDS = 2
OPT_FEINT_FROM_DISCARD = 3  # 1: Feint's extra card may come from the discard pile
OPT_AMBUSH_ON_VIEW = 4  # 1: Command's look springs an Ambush
OPT_CONTEST_ORDER = 5  # permutation of checks a,b,c as digits 0..2, e.g. 12 = "abc" -> 0*100+1*10+2
OPT_ABDICATE_SABOTAGE = 6  # 1: an Abdicating Monarch who takes the throne back counts as retaining for Sabotage
OPT_CUSTOM_CROWN = 7  # custom mode: crown card mask
OPT_CUSTOM_HOUSE = 8  # custom mode: house card mask (every house player)
OPT_SABOTAGE_MONARCH = 9  # 1: Sabotage may target the Monarch
OPT_AUTHORITY_IMMEDIATE = 10  # 1: Authority acts at its reveal; 0: with the end-of-turn texts
OPT_DEFEND_IMMEDIATE = 11  # 1: Defend acts at its reveal; 0: at resolution, before the contest checks
OPT_REPLACE_PICKS_UP = 12  # 1: a player made to replace a card with an empty hand picks up the discard pile
OPT_ENTRAP_RETAINS_AFTER_ABDICATE = 13  # 1: Entrap stopping a taker is a retention even after Abdicate
OPT_TAKE_BACK_PAYS = 14  # 1: taking the throne back after Abdicate pays TAKE_BACK_VP at the end of the turn
N_OPTIONS = 15

CHECK_CHARGES, CHECK_INFILTRATE, CHECK_DOMINATE = range(3)

# ---- state record (after the engine's decision header) -----------------------------------
HAND = DECISION_HEADER  # per seat: mask of cards in hand
DISCARD = HAND + MAX_PLAYERS  # per seat: mask of the face-down discard pile
OWNED = DISCARD + MAX_PLAYERS  # per seat: mask of the player's whole card set
MAIN = OWNED + MAX_PLAYERS  # per seat: the card played this round and still in play, or NO_CARD
EXTRA = MAIN + MAX_PLAYERS  # per seat: Feint's additional card in play, or NO_CARD
REVEALED = EXTRA + MAX_PLAYERS  # per seat: 1 once the seat's reveal step has passed
AMBUSH_SPRUNG = REVEALED + MAX_PLAYERS  # per seat: 1 once this round's Ambush has paid out
VP = AMBUSH_SPRUNG + MAX_PLAYERS  # per seat: victory points
CHOICE = VP + MAX_PLAYERS  # per seat: the card selected this round (before any replacement)
REIGNS = CHOICE + MAX_PLAYERS  # per seat: rounds started as Monarch
SHOWN = REIGNS + MAX_PLAYERS  # per seat: the cards of its deck every player knows are in it (moves with OWNED)
PLAYS = SHOWN + MAX_PLAYERS  # per card: times played (selected or added by Feint)
MONARCH = PLAYS + N_CARDS  # seat holding the Monarch token
PLAYERS = MONARCH + 1
RULESET = PLAYERS + 1  # the mode's MODE_* code (the 2-player mode has its own rules)
TAKE_BACK_PAY = RULESET + 1  # VP that taking the throne back after Abdicate pays (the option, for policies too)
ROUND = TAKE_BACK_PAY + 1  # rounds completed
ABDICATED = ROUND + 1  # 1 when this round's Monarch played Abdicate
VIEWED_SEAT = ABDICATED + 1  # Command: whose card the Monarch looked at (NOBODY if none)
VIEWED_CARD = VIEWED_SEAT + 1
WINNER = VIEWED_CARD + 1
RETENTIONS = WINNER + 1  # rounds the Monarch kept the throne
TAKES = RETENTIONS + 1  # rounds a house player took the throne
CHARGE_CLASHES = TAKES + 1  # rounds where several Charges cancelled
AMBUSHES = CHARGE_CLASHES + 1
ENTRAP_FLIPS = AMBUSHES + 1  # Entrap changed who holds the throne
TRACE_LEN = ENTRAP_FLIPS + 1  # events written to the trace buffer
PHASE = TRACE_LEN + 1  # where the rules stand (PH_* below; a decision kind while that decision is pending)
ROUND_STOP = PHASE + 1  # the rules stop at a round's start once ROUND reaches this (a position's round,
# a rollout's horizon; NEVER in a game)
STAGE = ROUND_STOP + 1  # PH_REVEAL or PH_AWARD: the stage a decision taken inside it returns to
CURSOR = STAGE + 1  # the stage's next step: a reveal (k-th seat from the Monarch), or an end-of-turn
# text (2k + slot: the k-th seat's main card, then its Feint's additional card)
ACTING = CURSOR + 1  # the revealed card whose immediate action resolves (NO_CARD: none), or the
# end-of-turn text that asked (Authority, Raven)
TAKER = ACTING + 1  # who takes the throne this round (NOBODY: the Monarch keeps or takes it back)
RETAINED = TAKER + 1  # 1 when the Monarch retains it
ALLY_SETTLED = RETAINED + 1  # 1 once this round's Ally offer was made (the taker decides once)
STATE_SIZE = ALLY_SETTLED + 1
NEVER = 1 << 62  # ROUND_STOP of a game played to its end

# ---- decision kinds (state[D_KIND]): every choice is "pick one set bit of this mask" -------
# A card mask has bit ``card`` per card id above; a seat mask bit ``seat``.
SELECT_CARD = 0  # which card to play this round (card mask)
RAID_TARGET = 1  # seat mask
COMMAND_VIEW = 2  # seat mask
COMMAND_REPLACE = 3  # seat mask
REPLACEMENT_CARD = 4  # card mask: the replaced player's new card
SABOTAGE_TARGET = 5  # seat mask
FEINT_EXTRA = 6  # card mask (hand, and discard pile where allowed)
TIE_BREAK = 7  # seat mask: the Monarch picks the taker among tied
ENTRAP_GIVE = 8  # seat mask
ALLY_ACCEPT = 9  # mask 0b11: bit 0 decline, bit 1 take the extra VP
STEAL_VICTIM = 10  # seat mask (Raven, Authority)
N_KINDS = 11
DECLINE, ACCEPT = 0, 1
ALLY_WORDS = ("decline", "accept")  # the readable names of ALLY_ACCEPT's answers
CARD_KINDS = (SELECT_CARD, REPLACEMENT_CARD, FEINT_EXTRA)  # the kinds whose answers are cards (else seats, or Ally's)

# ---- phases (state[PHASE]): a pending decision's kind (above), or a step the rules take alone
PH_ROUND_START = N_KINDS  # between rounds: the game ends (a winner, the round cap), stops (ROUND_STOP), or a round starts
PH_SELECT = PH_ROUND_START + 1  # every player without a card chosen chooses; then the cards are played
PH_REVEAL = PH_SELECT + 1  # reveals clockwise from the Monarch, each immediate action at once
PH_COMMAND_REPLACE = PH_REVEAL + 1  # Command, after its look: a house player replaces its card
PH_SETTLE = PH_COMMAND_REPLACE + 1  # resolution: Defend, the contest checks, who would take (the Monarch breaks ties)
PH_ENTRAP = PH_SETTLE + 1  # resolution: Entrap and Abdicate settle who holds the throne
PH_TALLY = PH_ENTRAP + 1  # VP for the throne
PH_AWARD = PH_TALLY + 1  # the other end-of-turn texts, clockwise from the Monarch
PH_CLEANUP = PH_AWARD + 1  # cleanup, the round counted, the win check
PH_TWO_PLAYER = PH_CLEANUP + 1  # the 2-player round after its selection (no decision is left in it)
PH_GAME_OVER = PH_TWO_PLAYER + 1

# ---- trace events: rows (round, event, seat, card, other, value) --------------------------
TRACE_FIELDS = 6
EV_ROUND, EV_SELECT, EV_REVEAL, EV_DISCARD, EV_REPLACE, EV_VIEW, EV_AMBUSH, EV_FEINT, EV_VP, EV_TAKE, \
    EV_RETAIN, EV_TAKE_BACK, EV_PICKUP, EV_SWAP, EV_WIN, EV_CAP, EV_REINFORCE = range(17)
# reasons for EV_DISCARD (in `value`)
BY_RAID, BY_ALLY, BY_DEFEND, BY_CHARGES, BY_NO_ATTACK, BY_NO_SINGLE_CHARGE = range(6)
DISCARD_REASONS = ("Raid", "Ally", "Defend", "more than one Charge", "no Attack left", "not exactly one Charge")
# reasons for EV_VP (in `other`)
VP_RETAIN, VP_TAKE, VP_CONSOLIDATE, VP_SABOTAGE, VP_FEINT, VP_ALLY, VP_ALLY_BONUS, VP_RAVEN, VP_AUTHORITY, \
    VP_AMBUSH, VP_ABDICATE, VP_ENTRAP, VP_FEINT_COST, VP_REINFORCE, VP_TAKE_BACK = range(15)
VP_REASONS = ("retains the throne", "takes the throne", "Consolidate", "Sabotage", "Feint", "Ally (taker's extra VP)",
              "Ally", "Raven", "Authority", "Ambush", "Abdicate", "Entrap", "Feint's cost", "Reinforce",
              "takes the throne back")

# ---- policies (codes; parameters are documented in options.py) ----------------------------
# POLICY_RANDOM = 0 is the engine's (uniform over the legal answers, the same code in every game).
POLICY_GREEDY, POLICY_HEURISTIC, POLICY_SEARCH, POLICY_ISMCTS = range(1, 5)
