"""DETHRONED's layout: cards, roles, the state record, option slots, action and event codes.

Everything the compiled rules (combat.py, rules.py), the policies and the Python side share as
plain constants. Time is explicit, in integer milliseconds (H_NOW).

State layout (int64 array of STATE_SIZE, offsets are the named constants below)
  header      H_*                                      clock, phase, counters, outcome
  players     PLAYER_BASE + p * PLAYER_SIZE + PL_*     role, alive, hand, deck order, kill record
  cards       CARD_BASE + owner * DECK_SIZE + kind     where each card is (LOC_*): exactly one place
  attacks     ATTACK_BASE + a * ATTACK_SIZE + AT_*     attacking card, its defence, its modifiers

Card kinds 0..9 are Battle cards of value kind + 1; DOUBLE, HALVE, BOMB, REDIRECT are Modifiers.
A card's identity is owner * DECK_SIZE + kind. Doubling and halving change an exponent of two, so
values stay exact (a 7 halved twice is 7 * 2**-2 = 1.75); comparisons are exact in float64.

Actions are int64 codes: kind (ACT_*) | hand slot << 4 | attack << 8 | target << 16 | side << 24.

Roles: a role is one int64 row of ROLE_* fields: its two symbol variants (crown = Royalty, skull =
Assailant; the companion app's table is the default, the printed card art the alternative) and a
conjunction of win-condition building blocks (../shared/rules/dethroned.md):

  self            alive / dead / does not matter
  kills           at least MIN_KILLS and (if MAX_KILLS >= 0) at most MAX_KILLS kills credited
  kill class      credited with killing a Royalty / commoner / Assailant-at-that-moment / a named role
  role conditions up to MAX_ROLE_CONDS (role, alive|dead), all of them or any of them
  players dead    at least MIN_DEAD players dead (by anyone)
  modifiers       has played at least MODS_PLAYED of its own Modifier cards
  deck sum        Battle cards left in its own undrawn deck sum to at most DECK_SUM_MAX
  neighbours      not both of its seat neighbours dead

Role ids number the distinct roles in play (at most 8, so a 64-bit mask can hold "roles
killed"). A referenced role that is not in play is neither alive nor dead: its condition fails.

Output row of the batch kernel (int32): GAME_COLUMNS, then per seat SEAT_FIELDS; -1 pads.
"""

from __future__ import annotations

from dataclasses import dataclass

from balance.engine.decision import DECISION_HEADER
from balance.engine.kernels import kernel

# ---- cards ---------------------------------------------------------------------------------
BATTLE_KINDS = 10
DOUBLE = 10
HALVE = 11
BOMB = 12
REDIRECT = 13
DECK_SIZE = 14
HAND_SIZE = 3
MODIFIER_KINDS = DECK_SIZE - BATTLE_KINDS
FULL_DECK_SUM = BATTLE_KINDS * (BATTLE_KINDS + 1) // 2  # all Battle cards: 1 + 2 + ... + 10
NO_CARD = -1
KIND_NAMES = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Double", "Halve", "Bomb", "Redirect")

LOC_DECK = 0
LOC_HAND = 1
LOC_FIELD = 2
LOC_DISCARD = 3
LOC_KILLING_BLOW = 4

MAX_PLAYERS = 8
MIN_PLAYERS = 3

# ---- header ---------------------------------------------------------------------------------
# The engine's decision header (D_SEAT, D_KIND, D_CHOICES) comes first; the game's own header
# starts at DECISION_HEADER.
H_PLAYERS = DECISION_HEADER
H_NOW = H_PLAYERS + 1  # ms
H_PHASE = H_NOW + 1
H_DECISIONS = H_PHASE + 1
H_DEATHS = H_DECISIONS + 1
H_PASS_STREAK = H_DEATHS + 1  # consecutive passes with no attack on the table
H_OUTCOME = H_PASS_STREAK + 1
H_SERIAL = H_OUTCOME + 1  # order in which attacks were placed
H_ATTACK_TOP = H_SERIAL + 1  # attack slots in use lie below this
H_VOTES = H_ATTACK_TOP + 1
H_TRACE_LEN = H_VOTES + 1
H_UNBEATEN = H_TRACE_LEN + 1  # unbeaten attacks on the table
H_VERSION = H_UNBEATEN + 1  # grows with every change a player can see (actions, draws, deaths, votes)
H_ERROR = H_VERSION + 1  # checked runs only: why the game was stopped (ERROR_*)
H_MOVE = H_ERROR + 1  # the move being assembled from the answers of its posed steps (an action code)
H_MOVE_STEPS = H_MOVE + 1  # bit mask of the decision kinds (DK_*) answered so far for that move
H_MOVE_SERIAL = H_MOVE_STEPS + 1  # counts moves begun: a policy's plan belongs to one move
H_POSED_LEGAL = H_MOVE_SERIAL + 1  # the posed decision's legal answers before its seat's restriction narrowed
                                   # them (the heuristic plans around the kinds of move not legal now)
# Where the step kernel (rules.py) stands: its stage (STAGE_*), the seat whose move is posed
H_STAGE = H_POSED_LEGAL + 1
H_FIRST_CLAIMER = H_STAGE + 1  # the discussion's first speaker (drawn at the deal)
H_CLAIMS = H_FIRST_CLAIMER + 1  # claims made so far
H_VOTER = H_CLAIMS + 1  # the seat voting (seats vote in seat order)
H_VOTE_IMPASSE = H_VOTER + 1  # this vote was called at an impasse (nobody continuing: a stalemate)
H_VOTE_BEST = H_VOTE_IMPASSE + 1  # the fastest seat voting to continue so far (-1: none)
H_VOTE_ACTION = H_VOTE_BEST + 1  # its attack
H_VOTE_DELAY = H_VOTE_ACTION + 1  # its reaction delay
H_VOTE_TIES = H_VOTE_DELAY + 1  # seats tied at that delay so far
H_STOP_AT = H_VOTE_TIES + 1  # a rollout's horizon: play stops at this time (0: at the end of the game)
# What the last answer showed the table, for the policies' beliefs (SEEN_*; cleared once seen)
H_SEEN = H_STOP_AT + 1
H_SEEN_ACTOR = H_SEEN + 1
H_SEEN_ACTION = H_SEEN_ACTOR + 1  # the action, or the role claimed
H_SEEN_VICTIM = H_SEEN_ACTION + 1  # the victim of the attack defended or overwritten (-1: none)
H_WINNERS = H_SEEN_VICTIM + 1  # once play stops (the game over, a rollout's horizon): bit p set if p's win holds
HEADER_SIZE = H_WINNERS + 1

# Stages of the step kernel: a decision is posed in the *_POSED stages, the rules run in the others.
STAGE_DISCUSSION = 0  # the next claim to pose (or the discussion is over)
STAGE_CLAIM_POSED = 1
STAGE_NEXT_EVENT = 2  # the event loop's top: the cap, then the next deadline or reaction
STAGE_REACTION_POSED = 3  # a step of a move at a reaction
STAGE_CREDIT_POSED = 4  # the dying defender's choice of credit
STAGE_VOTE_POSED = 5  # a step of a seat's vote
STAGE_AFTER_EVENT = 6  # an event is over: deaths, pauses, votes and impasses follow
STAGE_STOPPED = 7  # a rollout's horizon is reached
STAGE_OVER = 8  # the game is over (and traced so)

SEEN_NOTHING = 0
SEEN_CLAIM = 1
SEEN_ACTION = 2

NO_ERROR = 0
ERROR_ILLEGAL_ACTION = 1  # a policy chose an action list_legal does not offer
ERROR_CARDS = 2  # a card is not in exactly one place

PHASE_COMBAT = 0
PHASE_PAUSE = 1  # after a death: remaining attacks resolve, then the vote
PHASE_OVER = 2

OUTCOME_NONE = -1
OUTCOME_VOTE = 0  # living players voted to end
OUTCOME_STALEMATE = 1  # nobody could or would attack: hands shown, game ended
OUTCOME_LAST_STANDING = 2  # fewer than two players alive
OUTCOME_CAPPED = 3  # decision cap reached: its own outcome, never a win

# ---- players --------------------------------------------------------------------------------
PL_ROLE = 0
PL_ALIVE = 1
PL_HAND = 2  # HAND_SIZE slots of card kinds, NO_CARD when empty
PL_DECK = PL_HAND + HAND_SIZE  # DECK_SIZE card kinds in draw order
PL_DECK_POS = PL_DECK + DECK_SIZE  # next card to draw
PL_READY_AT = PL_DECK_POS + 1  # ms of the next decision
PL_KILLS = PL_READY_AT + 1
PL_KILLED_ROLES = PL_KILLS + 1  # bit mask of role ids killed
PL_KILL_FLAGS = PL_KILLED_ROLES + 1  # KF_* bits: classes of the players killed
PL_MODS_PLAYED = PL_KILL_FLAGS + 1
PL_KILLED_BY = PL_MODS_PLAYED + 1
PL_DEATH_ORDER = PL_KILLED_BY + 1
PL_ASSAILANT = PL_DEATH_ORDER + 1  # skull still active (no kill yet)
PL_ROYAL = PL_ASSAILANT + 1
PL_CLAIM = PL_ROYAL + 1
PL_ATTACKS_ON = PL_CLAIM + 1  # attacks in front of the player (unbeaten or beaten, uncleared)
PL_UNBEATEN_ON = PL_ATTACKS_ON + 1
PL_ATTACKING = PL_UNBEATEN_ON + 1  # bit mask of victims this player has a live attack on
PLAYER_SIZE = PL_ATTACKING + 1

KF_ROYAL = 1
KF_COMMONER = 2
KF_ASSAILANT = 4  # an Assailant at that moment
KF_ASSAILANT_NOT_ROYAL = 8

# ---- attacks --------------------------------------------------------------------------------
AT_STATE = 0
AT_VICTIM = 1
AT_OWNER = 2  # who controls it (one live attack per owner and victim)
AT_CREDIT = 3  # who gets the kill
AT_CARD = 4  # card id of the attacking Battle card
AT_EXP = 5
AT_DEF_CARD = 6  # card id of the current defending Battle card, NO_CARD if none
AT_DEF_EXP = 7
AT_PLACED = 8
AT_DEADLINE = 9
AT_SERIAL = 10
AT_BOMBED = 11
AT_MOD_COUNT = 12
AT_DEF_STACK = 13  # option defence_cards = "stack": earlier defending cards' value, in DEFENCE_UNITS
AT_MODS = 14  # MAX_MODS entries: card id * 2 + side
MAX_MODS = 16
ATTACK_SIZE = AT_MODS + MAX_MODS
MAX_ATTACKS = MAX_PLAYERS * MAX_PLAYERS

# stacked defence values are exact integers in units of 2**-20: a card halved by every one of an
# attack's MAX_MODS Modifiers is still a whole number of units
DEFENCE_UNITS = 2 ** 20

ATTACK_FREE = 0
ATTACK_UNBEATEN = 1
ATTACK_BEATEN = 2

SIDE_ATTACK = 0
SIDE_DEFENCE = 1

PLAYER_BASE = HEADER_SIZE
CARD_BASE = PLAYER_BASE + MAX_PLAYERS * PLAYER_SIZE
ATTACK_BASE = CARD_BASE + MAX_PLAYERS * DECK_SIZE
STATE_SIZE = ATTACK_BASE + MAX_ATTACKS * ATTACK_SIZE

# ---- options (int64 array, filled by game.py from the scenario's [options]) ------------------
O_WINDOW_MS = 0
O_COUNT_MS = 1
O_ART_SYMBOLS = 2
O_REDIRECT_CREDIT = 3
O_SHOP_COUNTS_HAND = 4
O_SENTINEL_ROYAL_ASSAILANT = 5
O_BOMB_NEEDS_DEFENCE = 6
O_DEFENDER_REDIRECT = 7
O_FIRST_VOTE_AFTER_TWO_AT_8 = 8
O_MAX_DECISIONS = 9
O_IMPASSE_ROUNDS = 10
O_OVERWRITE = 11  # a larger Battle card may overwrite an unbeaten attack on another player
O_REDIRECT_DEFENCE = 12  # a Redirect may take a defending Battle card as a new attack
O_REDIRECT_RESTARTS = 13  # a Redirected attack gets a fresh defence window and count
O_DEFENCE_STACK = 14  # defending cards on one attack add up instead of the newest replacing the rest
OPTIONS_SIZE = 15

# ---- actions --------------------------------------------------------------------------------
ACT_PASS = 0
ACT_ATTACK = 1
ACT_DEFEND = 2  # a Battle card as the defence of an unbeaten attack (own or, helping, another's)
ACT_DOUBLE = 3
ACT_HALVE = 4
ACT_REDIRECT = 5
ACT_BOMB = 6
ACT_CLEAR = 7
ACT_OVERWRITE = 8  # a larger Battle card replaces the attacking card of another's attack (option)
ACTION_NAMES = ("pass", "attack", "defend", "double", "halve", "redirect", "bomb", "clear", "overwrite")
SLOT_SHIFT = 4
ATTACK_SHIFT = 8
TARGET_SHIFT = 16
SIDE_SHIFT = 24
FIELD_MASK = 0xFF
KIND_MASK = 0xF
MAX_LEGAL = 2048

# ---- decisions --------------------------------------------------------------------------------
# Every choice a player makes is posed through balance.engine.decision.pose: the decision header
# holds who decides (D_SEAT), the kind below (D_KIND) and the legal answers as a bit mask
# (D_CHOICES). A move at a reaction has up to MAX_LEGAL forms, more than a mask holds, so it is
# posed in steps: its kind first (DK_ACTION), then what the kind needs:
#   ATTACK    DK_TARGET, DK_CARD          DEFEND, OVERWRITE   DK_ATTACK, DK_CARD
#   DOUBLE    DK_ATTACK, DK_SIDE          HALVE               DK_ATTACK, DK_SIDE
#   REDIRECT  DK_ATTACK, DK_REDIRECT_TO   BOMB                DK_ATTACK
#   PASS      nothing more                (CLEAR is never posed: the rules leave no choice)
# A vote is DK_VOTE, and a vote to continue is an attack: DK_TARGET, DK_CARD follow.
# What the bits of D_CHOICES mean, per kind:
DK_CLAIM = 0  # bit 0 (CLAIM_TRUTH): its own role; bit b >= 1: the b-th other role in play by role id (a lie)
DK_ACTION = 1  # bit = the move's kind ACT_* (PASS, ATTACK, DEFEND, DOUBLE, HALVE, REDIRECT, BOMB, OVERWRITE)
DK_TARGET = 2  # bit = the seat attacked
DK_CARD = 3  # bit = the hand slot of the Battle card played
DK_ATTACK = 4  # bit = the index of the attack acted on (live attacks are one per attacker and victim:
#                at most MAX_PLAYERS * (MAX_PLAYERS - 1) = 56, so indices stay below 63)
DK_SIDE = 5  # bit = SIDE_ATTACK / SIDE_DEFENCE: which card of the attack a Double or Halve modifies
DK_REDIRECT_TO = 6  # bit = target seat + MAX_PLAYERS * side (SIDE_DEFENCE: the defending card, an option)
DK_VOTE = 7  # bit VOTE_END (pass: vote to end) / VOTE_CONTINUE (continue by attacking)
DK_CREDIT = 8  # bit = the index of each equal simultaneous attack the dying defender may credit
DECISION_KINDS = 9
DECISION_NAMES = ("claim", "action", "target", "card", "attack", "side", "redirect to", "vote", "credit")
CLAIM_TRUTH = 0
VOTE_END = 0
VOTE_CONTINUE = 1
ALL_ANSWERS = -1  # every bit set: a mask that allows whatever is legal

# ---- a player's speed: the first two entries of every policy's parameter row (the rules draw each
# reaction time from them; options.SPEED) ------------------------------------------------------
P_REACTION_MEAN = 0  # seconds
P_REACTION_SPREAD = 1  # delay uniform in mean * [1 - spread, 1 + spread]

# ---- policy codes (POLICY_RANDOM = 0 is the engine's, balance.engine.decision) ----------------
POLICY_HEURISTIC = 1
POLICY_SEARCH = 3  # the engine's search at the move's kind and an attack's target (policies.policy)
POLICY_ISMCTS = 4  # the engine's tree search (balance.engine.ismcts) at every decision

# ---- trace ----------------------------------------------------------------------------------
TR_TIME = 0
TR_EVENT = 1
TR_PLAYER = 2
TR_ARG = 3
TR_ARG2 = 4
TRACE_FIELDS = 5
EV_CLAIM = 0
EV_ACTION = 1
EV_DEATH = 2
EV_VOTE_END = 3
EV_VOTE_CONTINUE = 4
EV_DRAW = 5
EV_GAME_OVER = 6


# ---- output row -----------------------------------------------------------------------------
GAME_COLUMNS = ("game", "deal", "rotation", "outcome", "capped", "decisions", "deaths", "votes", "seconds",
                "players")
SEAT_FIELDS = ("role", "won", "alive", "kills")
C_GAME, C_DEAL, C_ROTATION, C_OUTCOME, C_CAPPED, C_DECISIONS, C_DEATHS, C_VOTES, C_SECONDS, C_PLAYERS = \
    range(len(GAME_COLUMNS))
SEAT_BASE = len(GAME_COLUMNS)
ROW_WIDTH = SEAT_BASE + MAX_PLAYERS * len(SEAT_FIELDS)
S_ROLE, S_WON, S_ALIVE, S_KILLS = range(len(SEAT_FIELDS))

# ---- roles ----------------------------------------------------------------------------------
ROLE_ROYAL_DEFAULT = 0
ROLE_ASSAILANT_DEFAULT = 1
ROLE_ROYAL_ART = 2
ROLE_ASSAILANT_ART = 3
ROLE_SELF = 4  # SELF_ANY / SELF_ALIVE / SELF_DEAD
ROLE_MIN_KILLS = 5
ROLE_MAX_KILLS = 6  # -1: no limit
ROLE_KILL_CLASS = 7  # KILL_NONE / KILL_ROYAL / KILL_COMMONER / KILL_ASSAILANT / KILL_ROLE
ROLE_KILL_ROLE = 8  # role id when ROLE_KILL_CLASS == KILL_ROLE
ROLE_MIN_DEAD = 9
ROLE_MODS_PLAYED = 10
ROLE_DECK_SUM_MAX = 11  # -1: no condition
ROLE_NEIGHBOURS = 12  # 1: not both seat neighbours dead
ROLE_COND_ANY = 13  # 0: every role condition must hold, 1: at least one
ROLE_COND_COUNT = 14
ROLE_COND_BASE = 15  # pairs (role id, want alive 1 / want dead 0)
MAX_ROLE_CONDS = 4
ROLE_FIELDS = ROLE_COND_BASE + 2 * MAX_ROLE_CONDS

SELF_ANY = 0
SELF_ALIVE = 1
SELF_DEAD = 2

KILL_NONE = 0
KILL_ROYAL = 1
KILL_COMMONER = 2
KILL_ASSAILANT = 3
KILL_ROLE = 4

NOT_IN_PLAY = -1  # a referenced role that no player holds: neither alive nor dead
NO_ROLE = -1  # no restricted role: restrictions follow the policy slots (scenario key restrict_role)

KILL_CLASS_NAMES = {"royalty": KILL_ROYAL, "commoner": KILL_COMMONER, "assailant": KILL_ASSAILANT}


@dataclass(frozen=True)
class RoleSpec:
    """One role card, readable. ``symbols`` = ((royal, assailant) default, (royal, assailant) art)."""

    name: str
    deck: str
    royal: tuple[bool, bool]  # (default, art)
    assailant: tuple[bool, bool]
    alive: bool | None = None  # True: must be alive, False: must be dead, None: does not matter
    min_kills: int = 0
    max_kills: int = -1
    kill_class: str | None = None  # royalty / commoner / assailant / a role name
    roles_alive: tuple[str, ...] = ()
    roles_dead: tuple[str, ...] = ()
    any_role_condition: bool = False
    min_dead: int = 0
    modifiers_played: int = 0
    deck_sum_at_most: int = -1
    neighbours_not_both_dead: bool = False
    text: str = ""


BUILTIN_ROLES: tuple[RoleSpec, ...] = (
    RoleSpec("King", "T&K", (True, True), (False, False), alive=True, text="alive"),
    RoleSpec("King's Hand", "T&K", (True, True), (False, False), alive=True, roles_alive=("King",),
             text="alive, and the King alive"),
    RoleSpec("Assassin", "T&K", (False, False), (True, True), alive=True, min_kills=1,
             text="alive, and credited with at least one kill"),
    RoleSpec("Fool", "T&K", (False, False), (True, False), alive=True, roles_dead=("King",),
             text="alive, and the King dead"),
    RoleSpec("Shopkeeper", "T&K", (False, False), (False, False), alive=True, max_kills=0, deck_sum_at_most=10,
             text="alive, no kill, Battle cards left in its undrawn deck sum to 10 or less"),
    RoleSpec("Princess", "T&K", (True, True), (True, False), alive=True, roles_dead=("King",), roles_alive=("Fool",),
             text="alive, the King dead, and the Fool alive"),
    RoleSpec("Sage", "T&K", (False, True), (False, False), roles_alive=("Princess", "Fool"), any_role_condition=True,
             text="the Princess or the Fool alive"),
    RoleSpec("Maniac", "T&K", (False, False), (True, True), alive=True, kill_class="commoner",
             text="alive, and credited with killing a commoner"),
    RoleSpec("Suitor", "G&T", (False, False), (False, False), alive=True, roles_alive=("Sweetheart",),
             text="alive, and the Sweetheart alive"),
    RoleSpec("Sweetheart", "G&T", (False, True), (False, False), alive=True, roles_alive=("Suitor",),
             text="alive, and the Suitor alive"),
    RoleSpec("Alchemist", "G&T", (True, True), (True, True), modifiers_played=4, kill_class="royalty",
             text="played all four own Modifiers, and credited with killing a Royalty"),
    RoleSpec("Anarchist", "G&T", (False, False), (True, True), kill_class="royalty",
             text="credited with killing a Royalty"),
    RoleSpec("Butcher", "G&T", (False, False), (True, True), min_kills=2, text="credited with at least two kills"),
    RoleSpec("Butcher's Boy", "G&T", (False, False), (True, True), alive=True, min_dead=2,
             text="alive, and at least two players dead"),
    RoleSpec("Arbiter", "G&T", (True, True), (False, False), alive=True, neighbours_not_both_dead=True,
             text="alive, and not both seat neighbours dead"),
    RoleSpec("Sentinel", "G&T", (True, True), (True, True), alive=True, kill_class="assailant",
             text="alive, and credited with killing an Assailant"),
)

TK = ("King", "King's Hand", "Assassin", "Fool", "Shopkeeper", "Princess", "Sage", "Maniac")
GT = ("Suitor", "Sweetheart", "Alchemist", "Anarchist", "Butcher", "Butcher's Boy", "Arbiter", "Sentinel")

# file stem -> (title, roles); the 22 suggested setups, Out To Play in both 7th-role variants


@kernel(inline="always")
def pbase(p):
    return PLAYER_BASE + p * PLAYER_SIZE


@kernel(inline="always")
def abase(a):
    return ATTACK_BASE + a * ATTACK_SIZE


@kernel(inline="always")
def card_id(owner, kind):
    return owner * DECK_SIZE + kind


@kernel(inline="always")
def encode(kind, slot, attack, target, side):
    return (kind | (slot << SLOT_SHIFT) | (attack << ATTACK_SHIFT) | (target << TARGET_SHIFT)
            | (side << SIDE_SHIFT))


@kernel(inline="always")
def action_kind(action):
    return action & KIND_MASK


@kernel(inline="always")
def action_slot(action):
    return (action >> SLOT_SHIFT) & KIND_MASK


@kernel(inline="always")
def action_attack(action):
    return (action >> ATTACK_SHIFT) & FIELD_MASK


@kernel(inline="always")
def action_target(action):
    return (action >> TARGET_SHIFT) & FIELD_MASK


@kernel(inline="always")
def action_side(action):
    return (action >> SIDE_SHIFT) & 1


@kernel(inline="always")
def is_battle(kind):
    return 0 <= kind < BATTLE_KINDS


@kernel(inline="always")
def power(kind, exponent):
    """Exact value of a Battle card after its Doubles and Halves."""
    return (kind + 1) * 2.0 ** exponent


@kernel(inline="always")
def claim_bit(role, own):
    """DK_CLAIM's answer that claims ``role`` for a player holding ``own``."""
    if role == own:
        return CLAIM_TRUTH
    return role + 1 if role < own else role


@kernel(inline="always")
def claim_role(bit, own):
    """The role DK_CLAIM's answer ``bit`` claims for a player holding ``own``."""
    if bit == CLAIM_TRUTH:
        return own
    return bit - 1 if bit <= own else bit
