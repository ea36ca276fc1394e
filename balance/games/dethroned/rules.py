"""DETHRONED's compiled rules: one int64 state array, actions, deadlines, deaths and win checks.

Time is explicit, in integer milliseconds (H_NOW). The event loop (kernel.py) alternates two kinds
of event: a player's decision (at PL_READY_AT, after a reaction delay) and an attack's deadline
(placement + defence window + the attacker's 3-2-1 count). Every change of state goes through
the functions here, which the positions API (positions.py) calls too.

State layout (int64 array of STATE_SIZE, offsets are the named constants below)
  header      H_*                                      clock, phase, counters, outcome
  players     PLAYER_BASE + p * PLAYER_SIZE + PL_*     role, alive, hand, deck order, kill record
  cards       CARD_BASE + owner * DECK_SIZE + kind     where each card is (LOC_*): exactly one place
  attacks     ATTACK_BASE + a * ATTACK_SIZE + AT_*     attacking card, its defence, its modifiers

Card kinds 0..9 are Battle cards of value kind + 1; DOUBLE, HALVE, BOMB, REDIRECT are Modifiers.
A card's identity is owner * DECK_SIZE + kind. Doubling and halving change an exponent of two, so
values stay exact (a 7 halved twice is 7 * 2**-2 = 1.75); comparisons are exact in float64.

Actions are int64 codes: kind (ACT_*) | hand slot << 4 | attack << 8 | target << 16 | side << 24.
"""

from balance.engine.kernels import kernel
from balance.games.dethroned.roles import (
    KILL_ASSAILANT, KILL_COMMONER, KILL_NONE, KILL_ROYAL, ROLE_ASSAILANT_ART, ROLE_ASSAILANT_DEFAULT,
    ROLE_COND_ANY, ROLE_COND_BASE, ROLE_COND_COUNT, ROLE_DECK_SUM_MAX, ROLE_KILL_CLASS, ROLE_KILL_ROLE,
    ROLE_MAX_KILLS, ROLE_MIN_DEAD, ROLE_MIN_KILLS, ROLE_MODS_PLAYED, ROLE_NEIGHBOURS, ROLE_ROYAL_ART,
    ROLE_ROYAL_DEFAULT, ROLE_SELF, SELF_ALIVE, SELF_DEAD,
)

# ---- cards ---------------------------------------------------------------------------------
BATTLE_KINDS = 10
DOUBLE = 10
HALVE = 11
BOMB = 12
REDIRECT = 13
DECK_SIZE = 14
HAND_SIZE = 3
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
H_PLAYERS = 0
H_NOW = 1  # ms
H_PHASE = 2
H_DECISIONS = 3
H_DEATHS = 4
H_DEATHS_SINCE_VOTE = 5
H_PASS_STREAK = 6  # consecutive passes with no attack on the table
H_OUTCOME = 7
H_SERIAL = 8  # order in which attacks were placed
H_ATTACK_TOP = 9  # attack slots in use lie below this
H_VOTES = 10
H_TRACE_LEN = 11
H_UNBEATEN = 12  # unbeaten attacks on the table
H_VERSION = 13  # grows with every change a player can see (actions, draws, deaths, votes)
H_ERROR = 14  # checked runs only: why the game was stopped (ERROR_*)
HEADER_SIZE = 15

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
AT_MODS = 13  # MAX_MODS entries: card id * 2 + side
MAX_MODS = 16
ATTACK_SIZE = AT_MODS + MAX_MODS
MAX_ATTACKS = MAX_PLAYERS * MAX_PLAYERS

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
OPTIONS_SIZE = 11

# ---- actions --------------------------------------------------------------------------------
ACT_PASS = 0
ACT_ATTACK = 1
ACT_DEFEND = 2  # a Battle card as the defence of an unbeaten attack (own or, helping, another's)
ACT_DOUBLE = 3
ACT_HALVE = 4
ACT_REDIRECT = 5
ACT_BOMB = 6
ACT_CLEAR = 7
ACTION_NAMES = ("pass", "attack", "defend", "double", "halve", "redirect", "bomb", "clear")
SLOT_SHIFT = 4
ATTACK_SHIFT = 8
TARGET_SHIFT = 16
SIDE_SHIFT = 24
FIELD_MASK = 0xFF
KIND_MASK = 0xF
MAX_LEGAL = 512

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
def trace_event(s, trace, event, player, arg, arg2):
    n = s[H_TRACE_LEN]
    if n < trace.shape[0]:
        trace[n, TR_TIME] = s[H_NOW]
        trace[n, TR_EVENT] = event
        trace[n, TR_PLAYER] = player
        trace[n, TR_ARG] = arg
        trace[n, TR_ARG2] = arg2
        s[H_TRACE_LEN] = n + 1


# ---- setting up -------------------------------------------------------------------------------
@kernel
def init_state(s, players, seat_roles, roles, opts):
    """Empty table: roles at seats (deal order), all decks in draw order 0..13, no hands."""
    s[:] = 0
    s[H_PLAYERS] = players
    s[H_OUTCOME] = OUTCOME_NONE
    royal_col = ROLE_ROYAL_ART if opts[O_ART_SYMBOLS] else ROLE_ROYAL_DEFAULT
    skull_col = ROLE_ASSAILANT_ART if opts[O_ART_SYMBOLS] else ROLE_ASSAILANT_DEFAULT
    for p in range(players):
        b = pbase(p)
        role = seat_roles[p]
        s[b + PL_ROLE] = role
        s[b + PL_ALIVE] = 1
        s[b + PL_ROYAL] = roles[role, royal_col]
        s[b + PL_ASSAILANT] = roles[role, skull_col]
        s[b + PL_KILLED_BY] = -1
        s[b + PL_DEATH_ORDER] = -1
        s[b + PL_CLAIM] = -1
        for h in range(HAND_SIZE):
            s[b + PL_HAND + h] = NO_CARD
        for k in range(DECK_SIZE):
            s[b + PL_DECK + k] = k
            s[CARD_BASE + card_id(p, k)] = LOC_DECK


@kernel(inline="always")
def draw_to_full(s, p):
    """Draw back up to HAND_SIZE from the own deck (no reshuffle). Returns cards drawn."""
    b = pbase(p)
    drawn = 0
    for h in range(HAND_SIZE):
        if s[b + PL_HAND + h] == NO_CARD and s[b + PL_DECK_POS] < DECK_SIZE:
            kind = s[b + PL_DECK + s[b + PL_DECK_POS]]
            s[b + PL_DECK_POS] += 1
            s[b + PL_HAND + h] = kind
            s[CARD_BASE + card_id(p, kind)] = LOC_HAND
            drawn += 1
    s[H_VERSION] += drawn
    return drawn


# ---- queries ----------------------------------------------------------------------------------
@kernel(inline="always")
def alive(s, p):
    return s[pbase(p) + PL_ALIVE] == 1


@kernel(inline="always")
def defending(s, p):
    """Under attack: an attack (beaten or not) is still in front of the player."""
    return s[pbase(p) + PL_ATTACKS_ON] > 0


@kernel(inline="always")
def hand_kind(s, p, slot):
    return s[pbase(p) + PL_HAND + slot]


@kernel(inline="always")
def attack_power(s, a):
    b = abase(a)
    return power(s[b + AT_CARD] % DECK_SIZE, s[b + AT_EXP])


@kernel(inline="always")
def defence_power(s, a):
    b = abase(a)
    if s[b + AT_DEF_CARD] == NO_CARD:
        return -1.0
    return power(s[b + AT_DEF_CARD] % DECK_SIZE, s[b + AT_DEF_EXP])


@kernel(inline="always")
def living_count(s):
    n = 0
    for p in range(s[H_PLAYERS]):
        n += s[pbase(p) + PL_ALIVE]
    return n


@kernel(inline="always")
def unbeaten_total(s):
    return s[H_UNBEATEN]


@kernel(inline="always")
def add_unbeaten(s, victim, delta):
    s[pbase(victim) + PL_UNBEATEN_ON] += delta
    s[H_UNBEATEN] += delta


@kernel(inline="always")
def battle_in_hand(s, p):
    for h in range(HAND_SIZE):
        if is_battle(hand_kind(s, p, h)):
            return True
    return False


@kernel(inline="always")
def could_attack_later(s, p):
    """A Battle card in hand, or room in hand and a Battle card still to draw."""
    if battle_in_hand(s, p):
        return True
    b = pbase(p)
    room = False
    for h in range(HAND_SIZE):
        if s[b + PL_HAND + h] == NO_CARD:
            room = True
    if not room:
        return False
    for k in range(s[b + PL_DECK_POS], DECK_SIZE):
        if is_battle(s[b + PL_DECK + k]):
            return True
    return False


@kernel(inline="always")
def earliest_deadline(s):
    """(time, attack) of the unbeaten attack whose count ends first; (-1, -1) if none."""
    best_t = -1
    best_a = -1
    for a in range(s[H_ATTACK_TOP]):
        b = abase(a)
        if s[b + AT_STATE] == ATTACK_UNBEATEN:
            if best_a < 0 or s[b + AT_DEADLINE] < best_t or (
                    s[b + AT_DEADLINE] == best_t and s[b + AT_SERIAL] < s[abase(best_a) + AT_SERIAL]):
                best_t = s[b + AT_DEADLINE]
                best_a = a
    return best_t, best_a


# ---- moving cards -----------------------------------------------------------------------------
@kernel(inline="always")
def take_from_hand(s, p, slot):
    b = pbase(p)
    kind = s[b + PL_HAND + slot]
    s[b + PL_HAND + slot] = NO_CARD
    return kind


@kernel
def add_mod(s, a, card, side):
    b = abase(a)
    n = s[b + AT_MOD_COUNT]
    s[b + AT_MODS + n] = card * 2 + side
    s[b + AT_MOD_COUNT] = n + 1
    s[CARD_BASE + card] = LOC_FIELD


@kernel
def discard_defence(s, a):
    """The defending card and the Modifiers on it leave the attack (to the centre)."""
    b = abase(a)
    if s[b + AT_DEF_CARD] != NO_CARD:
        s[CARD_BASE + s[b + AT_DEF_CARD]] = LOC_DISCARD
        s[b + AT_DEF_CARD] = NO_CARD
        s[b + AT_DEF_EXP] = 0
    kept = 0
    for m in range(s[b + AT_MOD_COUNT]):
        entry = s[b + AT_MODS + m]
        if entry % 2 == SIDE_DEFENCE:
            s[CARD_BASE + entry // 2] = LOC_DISCARD
        else:
            s[b + AT_MODS + kept] = entry
            kept += 1
    s[b + AT_MOD_COUNT] = kept


@kernel
def free_attack(s, a, attack_card_loc):
    """Take an attack off the table: its cards go to the centre (or the card to a role card)."""
    b = abase(a)
    victim = s[b + AT_VICTIM]
    owner = s[b + AT_OWNER]
    if s[b + AT_STATE] == ATTACK_UNBEATEN:
        add_unbeaten(s, victim, -1)
    s[pbase(victim) + PL_ATTACKS_ON] -= 1
    s[pbase(owner) + PL_ATTACKING] &= ~(1 << victim)
    s[CARD_BASE + s[b + AT_CARD]] = attack_card_loc
    discard_defence(s, a)
    for m in range(s[b + AT_MOD_COUNT]):
        s[CARD_BASE + s[b + AT_MODS + m] // 2] = LOC_DISCARD
    s[b + AT_MOD_COUNT] = 0
    s[b + AT_STATE] = ATTACK_FREE
    top = s[H_ATTACK_TOP]
    while top > 0 and s[abase(top - 1) + AT_STATE] == ATTACK_FREE:
        top -= 1
    s[H_ATTACK_TOP] = top


@kernel
def place_attack(s, opts, a, owner, victim):
    """Point attack slot ``a`` at ``victim`` as a fresh attack of ``owner`` (deadline restarts)."""
    b = abase(a)
    s[b + AT_STATE] = ATTACK_UNBEATEN
    s[b + AT_VICTIM] = victim
    s[b + AT_OWNER] = owner
    s[b + AT_PLACED] = s[H_NOW]
    s[b + AT_DEADLINE] = s[H_NOW] + opts[O_WINDOW_MS] + opts[O_COUNT_MS]
    s[b + AT_SERIAL] = s[H_SERIAL]
    s[H_SERIAL] += 1
    s[pbase(victim) + PL_ATTACKS_ON] += 1
    add_unbeaten(s, victim, 1)
    s[pbase(owner) + PL_ATTACKING] |= 1 << victim
    s[H_PASS_STREAK] = 0


@kernel
def new_attack_slot(s):
    for a in range(MAX_ATTACKS):
        if s[abase(a) + AT_STATE] == ATTACK_FREE:
            if a >= s[H_ATTACK_TOP]:
                s[H_ATTACK_TOP] = a + 1
            return a
    return -1


@kernel(inline="always")
def check_beaten(s, a):
    """An attack is beaten when its defending card is worth at least as much."""
    b = abase(a)
    if s[b + AT_STATE] == ATTACK_UNBEATEN and s[b + AT_DEF_CARD] != NO_CARD:
        if defence_power(s, a) >= attack_power(s, a):
            s[b + AT_STATE] = ATTACK_BEATEN
            add_unbeaten(s, s[b + AT_VICTIM], -1)


# ---- legality ---------------------------------------------------------------------------------
@kernel(inline="always")
def may_act_on(s, p, a):
    """Defenders act only on attacks against themselves; others on any unbeaten attack."""
    b = abase(a)
    if s[b + AT_STATE] != ATTACK_UNBEATEN:
        return False
    if defending(s, p):
        return s[b + AT_VICTIM] == p
    return True


@kernel
def list_legal(s, opts, p, out):
    """All legal actions of living player ``p`` now into ``out``; returns how many (PASS first)."""
    n = 0
    out[n] = encode(ACT_PASS, 0, 0, 0, 0)
    n += 1
    b = pbase(p)
    players = s[H_PLAYERS]
    if defending(s, p) and s[b + PL_UNBEATEN_ON] == 0:
        out[0] = encode(ACT_CLEAR, 0, 0, 0, 0)  # the only thing left to do
        return 1
    combat = s[H_PHASE] == PHASE_COMBAT
    for h in range(HAND_SIZE):
        kind = s[b + PL_HAND + h]
        if kind == NO_CARD:
            continue
        if is_battle(kind):
            if combat and not defending(s, p):
                for t in range(players):
                    if t != p and alive(s, t) and not (s[b + PL_ATTACKING] >> t) & 1:
                        out[n] = encode(ACT_ATTACK, h, 0, t, 0)
                        n += 1
            for a in range(s[H_ATTACK_TOP]):
                if may_act_on(s, p, a):
                    out[n] = encode(ACT_DEFEND, h, a, 0, 0)
                    n += 1
        elif kind == DOUBLE or kind == HALVE:
            act = ACT_DOUBLE if kind == DOUBLE else ACT_HALVE
            for a in range(s[H_ATTACK_TOP]):
                if may_act_on(s, p, a) and s[abase(a) + AT_MOD_COUNT] < MAX_MODS:
                    out[n] = encode(act, h, a, 0, SIDE_ATTACK)
                    n += 1
                    if s[abase(a) + AT_DEF_CARD] != NO_CARD:
                        out[n] = encode(act, h, a, 0, SIDE_DEFENCE)
                        n += 1
        elif kind == REDIRECT:
            if not combat or (defending(s, p) and not opts[O_DEFENDER_REDIRECT]):
                continue
            for a in range(s[H_ATTACK_TOP]):
                if may_act_on(s, p, a) and s[abase(a) + AT_MOD_COUNT] < MAX_MODS:
                    for t in range(players):
                        if alive(s, t) and redirect_target_ok(s, p, a, t):
                            out[n] = encode(ACT_REDIRECT, h, a, t, 0)
                            n += 1
        else:  # BOMB: one action per victim, whatever attack it is laid on
            for a in range(s[H_ATTACK_TOP]):
                if may_act_on(s, p, a) and bomb_anchor(s, opts, s[abase(a) + AT_VICTIM]) == a:
                    out[n] = encode(ACT_BOMB, h, a, 0, 0)
                    n += 1
    return n


@kernel
def bomb_anchor(s, opts, victim):
    """The attack a Bomb for ``victim`` is laid on: the first unbeaten attack on it with a
    defending card (or with the option off, any); -1 if none."""
    for a in range(s[H_ATTACK_TOP]):
        b = abase(a)
        if (s[b + AT_STATE] == ATTACK_UNBEATEN and s[b + AT_VICTIM] == victim and s[b + AT_MOD_COUNT] < MAX_MODS
                and (s[b + AT_DEF_CARD] != NO_CARD or not opts[O_BOMB_NEEDS_DEFENCE])):
            return a
    return -1


@kernel
def redirect_target_ok(s, p, a, t):
    """The redirector may hold only one live attack per victim (this one excepted)."""
    b = abase(a)
    if not (s[pbase(p) + PL_ATTACKING] >> t) & 1:
        return True
    return s[b + AT_OWNER] == p and s[b + AT_VICTIM] == t


# ---- applying actions -------------------------------------------------------------------------
@kernel
def apply_action(s, opts, p, action):
    """Apply one legal action of player ``p`` at time H_NOW."""
    kind = action_kind(action)
    slot = action_slot(action)
    a = action_attack(action)
    if kind == ACT_PASS:
        if unbeaten_total(s) == 0:
            s[H_PASS_STREAK] += 1
        return
    s[H_VERSION] += 1
    if kind == ACT_CLEAR:
        clear_front(s, p)
        draw_to_full(s, p)
        return
    card = card_id(p, take_from_hand(s, p, slot))
    if kind == ACT_ATTACK:
        na = new_attack_slot(s)
        b = abase(na)
        s[b + AT_CARD] = card
        s[b + AT_EXP] = 0
        s[b + AT_DEF_CARD] = NO_CARD
        s[b + AT_DEF_EXP] = 0
        s[b + AT_MOD_COUNT] = 0
        s[b + AT_BOMBED] = 0
        s[b + AT_CREDIT] = p
        s[CARD_BASE + card] = LOC_FIELD
        place_attack(s, opts, na, p, action_target(action))
    elif kind == ACT_DEFEND:
        discard_defence(s, a)
        b = abase(a)
        s[b + AT_DEF_CARD] = card
        s[b + AT_DEF_EXP] = 0
        s[CARD_BASE + card] = LOC_FIELD
        check_beaten(s, a)
    elif kind == ACT_DOUBLE or kind == ACT_HALVE:
        step = 1 if kind == ACT_DOUBLE else -1
        side = action_side(action)
        s[abase(a) + (AT_EXP if side == SIDE_ATTACK else AT_DEF_EXP)] += step
        add_mod(s, a, card, side)
        s[pbase(p) + PL_MODS_PLAYED] += 1
        check_beaten(s, a)
    elif kind == ACT_REDIRECT:
        redirect(s, opts, p, a, action_target(action), card)
    elif kind == ACT_BOMB:
        bomb(s, a, card)
        s[pbase(p) + PL_MODS_PLAYED] += 1


@kernel
def redirect(s, opts, p, a, target, card):
    """Claim attack ``a`` with its Modifiers and send it, as a new attack, at ``target``."""
    b = abase(a)
    old_victim = s[b + AT_VICTIM]
    s[pbase(old_victim) + PL_ATTACKS_ON] -= 1
    add_unbeaten(s, old_victim, -1)
    s[pbase(s[b + AT_OWNER]) + PL_ATTACKING] &= ~(1 << old_victim)
    discard_defence(s, a)
    add_mod(s, a, card, SIDE_ATTACK)
    s[pbase(p) + PL_MODS_PLAYED] += 1
    if opts[O_REDIRECT_CREDIT]:
        s[b + AT_CREDIT] = p
    place_attack(s, opts, a, p, target)


@kernel
def bomb(s, a, card):
    """Every unbeaten attack on this attack's victim is beaten at once."""
    b = abase(a)
    victim = s[b + AT_VICTIM]
    side = SIDE_DEFENCE if s[b + AT_DEF_CARD] != NO_CARD else SIDE_ATTACK
    add_mod(s, a, card, side)
    s[b + AT_BOMBED] = 1
    for x in range(s[H_ATTACK_TOP]):
        xb = abase(x)
        if s[xb + AT_STATE] == ATTACK_UNBEATEN and s[xb + AT_VICTIM] == victim:
            s[xb + AT_STATE] = ATTACK_BEATEN
            add_unbeaten(s, victim, -1)


@kernel
def clear_front(s, p):
    """The defender clears every beaten attack in front of it (all must be beaten)."""
    for a in range(s[H_ATTACK_TOP]):
        b = abase(a)
        if s[b + AT_STATE] == ATTACK_BEATEN and s[b + AT_VICTIM] == p:
            free_attack(s, a, LOC_DISCARD)


@kernel
def clear_all_beaten(s):
    for p in range(s[H_PLAYERS]):
        if s[pbase(p) + PL_UNBEATEN_ON] == 0 and s[pbase(p) + PL_ATTACKS_ON] > 0:
            clear_front(s, p)


# ---- deaths -----------------------------------------------------------------------------------
@kernel
def credit_candidates(s, victim, out):
    """Unbeaten attacks on ``victim`` that would get the kill now: the highest value, then the
    first placed; several only if they are equal in value and were placed at the same moment
    (the defender then chooses). Returns how many, written to ``out``."""
    best = -1
    for a in range(s[H_ATTACK_TOP]):
        b = abase(a)
        if s[b + AT_STATE] == ATTACK_UNBEATEN and s[b + AT_VICTIM] == victim:
            if best < 0:
                best = a
                continue
            pa = attack_power(s, a)
            pb = attack_power(s, best)
            if pa > pb or (pa == pb and s[b + AT_SERIAL] < s[abase(best) + AT_SERIAL]):
                best = a
    if best < 0:
        return 0
    n = 0
    for a in range(s[H_ATTACK_TOP]):
        b = abase(a)
        if (s[b + AT_STATE] == ATTACK_UNBEATEN and s[b + AT_VICTIM] == victim
                and attack_power(s, a) == attack_power(s, best) and s[b + AT_PLACED] == s[abase(best) + AT_PLACED]):
            out[n] = a
            n += 1
    return n


@kernel
def kill(s, opts, victim, a):
    """``victim`` dies to attack ``a``: the killing blow goes on its role card, the other attacks
    on it are cleared, the credited player's kill record grows and its skull is spent."""
    killer = s[abase(a) + AT_CREDIT]
    vb = pbase(victim)
    kb = pbase(killer)
    flags = KF_ROYAL if s[vb + PL_ROYAL] else KF_COMMONER
    if s[vb + PL_ASSAILANT]:
        flags |= KF_ASSAILANT
        if not s[vb + PL_ROYAL]:
            flags |= KF_ASSAILANT_NOT_ROYAL
    s[vb + PL_ALIVE] = 0
    s[vb + PL_KILLED_BY] = killer
    s[vb + PL_DEATH_ORDER] = s[H_DEATHS]
    s[H_DEATHS] += 1
    s[H_DEATHS_SINCE_VOTE] += 1
    s[H_VERSION] += 1
    s[kb + PL_KILLS] += 1
    s[kb + PL_KILLED_ROLES] |= 1 << s[vb + PL_ROLE]
    s[kb + PL_KILL_FLAGS] |= flags
    s[kb + PL_ASSAILANT] = 0
    free_attack(s, a, LOC_KILLING_BLOW)
    for x in range(s[H_ATTACK_TOP]):
        if s[abase(x) + AT_STATE] != ATTACK_FREE and s[abase(x) + AT_VICTIM] == victim:
            free_attack(s, x, LOC_DISCARD)
    first_pause = 2 if (opts[O_FIRST_VOTE_AFTER_TWO_AT_8] and s[H_PLAYERS] == MAX_PLAYERS
                        and s[H_VOTES] == 0) else 1
    if s[H_DEATHS_SINCE_VOTE] >= first_pause:
        s[H_PHASE] = PHASE_PAUSE


# ---- the end ----------------------------------------------------------------------------------
@kernel
def deck_battle_sum(s, opts, p):
    b = pbase(p)
    total = 0
    for k in range(s[b + PL_DECK_POS], DECK_SIZE):
        kind = s[b + PL_DECK + k]
        if is_battle(kind):
            total += kind + 1
    if opts[O_SHOP_COUNTS_HAND]:
        for h in range(HAND_SIZE):
            kind = s[b + PL_HAND + h]
            if is_battle(kind):
                total += kind + 1
    return total


@kernel
def role_status(s, role, want_alive):
    """Some player holding ``role`` is alive (want_alive) / dead; False if the role is not in play."""
    for q in range(s[H_PLAYERS]):
        if s[pbase(q) + PL_ROLE] == role and s[pbase(q) + PL_ALIVE] == want_alive:
            return True
    return False


@kernel
def kill_class_met(s, opts, roles, p):
    role = s[pbase(p) + PL_ROLE]
    flags = s[pbase(p) + PL_KILL_FLAGS]
    cls = roles[role, ROLE_KILL_CLASS]
    if cls == KILL_NONE:
        return True
    if cls == KILL_ROYAL:
        return (flags & KF_ROYAL) != 0
    if cls == KILL_COMMONER:
        return (flags & KF_COMMONER) != 0
    if cls == KILL_ASSAILANT:
        need = KF_ASSAILANT if opts[O_SENTINEL_ROYAL_ASSAILANT] else KF_ASSAILANT_NOT_ROYAL
        return (flags & need) != 0
    return roles[role, ROLE_KILL_ROLE] >= 0 and (s[pbase(p) + PL_KILLED_ROLES] >> roles[role, ROLE_KILL_ROLE]) & 1 == 1


@kernel
def role_conditions_met(s, roles, p):
    role = s[pbase(p) + PL_ROLE]
    count = roles[role, ROLE_COND_COUNT]
    if count == 0:
        return True
    hits = 0
    for c in range(count):
        if role_status(s, roles[role, ROLE_COND_BASE + 2 * c], roles[role, ROLE_COND_BASE + 2 * c + 1]):
            hits += 1
    return conditions_hold(roles, role, hits)


@kernel(inline="always")
def conditions_hold(roles, role, hits):
    """All of the role's role conditions hold, or (ROLE_COND_ANY) at least one."""
    return hits > 0 if roles[role, ROLE_COND_ANY] else hits == roles[role, ROLE_COND_COUNT]


@kernel
def has_won(s, opts, roles, p):
    """Every building block of the player's win condition holds now."""
    return own_conditions_met(s, opts, roles, p) and role_conditions_met(s, roles, p)


@kernel
def own_conditions_met(s, opts, roles, p):
    """The building blocks the player can check without knowing hidden roles."""
    b = pbase(p)
    role = s[b + PL_ROLE]
    is_alive = s[b + PL_ALIVE] == 1
    if roles[role, ROLE_SELF] == SELF_ALIVE and not is_alive:
        return False
    if roles[role, ROLE_SELF] == SELF_DEAD and is_alive:
        return False
    kills = s[b + PL_KILLS]
    limit = roles[role, ROLE_MAX_KILLS]
    if kills < roles[role, ROLE_MIN_KILLS] or (limit >= 0 and kills > limit):
        return False
    if not kill_class_met(s, opts, roles, p):
        return False
    if s[H_DEATHS] < roles[role, ROLE_MIN_DEAD] or s[b + PL_MODS_PLAYED] < roles[role, ROLE_MODS_PLAYED]:
        return False
    if roles[role, ROLE_DECK_SUM_MAX] >= 0 and deck_battle_sum(s, opts, p) > roles[role, ROLE_DECK_SUM_MAX]:
        return False
    if roles[role, ROLE_NEIGHBOURS]:
        n = s[H_PLAYERS]
        if not alive(s, (p + n - 1) % n) and not alive(s, (p + 1) % n):
            return False
    return True


@kernel
def end_game(s, outcome):
    s[H_PHASE] = PHASE_OVER
    s[H_OUTCOME] = outcome


@kernel
def stalemate(s):
    """No attack on the table and no living player can ever attack again."""
    if unbeaten_total(s) > 0:
        return False
    for p in range(s[H_PLAYERS]):
        if alive(s, p) and could_attack_later(s, p):
            return False
    return True


@kernel
def cards_consistent(s, seen):
    """Each card is in exactly one place: the places read off the deck orders, hands and attacks
    agree with the card locations, nothing is listed twice, and one killing blow lies on each
    dead player's role card. ``seen`` is scratch space of at least MAX_PLAYERS * DECK_SIZE entries."""
    players = s[H_PLAYERS]
    for c in range(MAX_PLAYERS * DECK_SIZE):
        seen[c] = 0
    for p in range(players):
        b = pbase(p)
        for k in range(DECK_SIZE):
            card = card_id(p, s[b + PL_DECK + k])
            if k >= s[b + PL_DECK_POS]:
                seen[card] += 1
                if s[CARD_BASE + card] != LOC_DECK:
                    return False
            elif s[CARD_BASE + card] == LOC_DECK:
                return False
        for h in range(HAND_SIZE):
            kind = s[b + PL_HAND + h]
            if kind != NO_CARD:
                seen[card_id(p, kind)] += 1
                if s[CARD_BASE + card_id(p, kind)] != LOC_HAND:
                    return False
    for a in range(s[H_ATTACK_TOP]):
        b = abase(a)
        if s[b + AT_STATE] == ATTACK_FREE:
            continue
        seen[s[b + AT_CARD]] += 1
        if s[b + AT_DEF_CARD] != NO_CARD:
            seen[s[b + AT_DEF_CARD]] += 1
            if s[CARD_BASE + s[b + AT_DEF_CARD]] != LOC_FIELD:
                return False
        if s[CARD_BASE + s[b + AT_CARD]] != LOC_FIELD:
            return False
        for m in range(s[b + AT_MOD_COUNT]):
            seen[s[b + AT_MODS + m] // 2] += 1
            if s[CARD_BASE + s[b + AT_MODS + m] // 2] != LOC_FIELD:
                return False
    blows = 0
    for c in range(players * DECK_SIZE):
        loc = s[CARD_BASE + c]
        if seen[c] > 1:
            return False
        if seen[c] == 0 and loc != LOC_DISCARD and loc != LOC_KILLING_BLOW:
            return False
        if loc == LOC_KILLING_BLOW:
            blows += 1
    return blows == s[H_DEATHS]
