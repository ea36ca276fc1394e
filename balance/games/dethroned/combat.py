"""DETHRONED's combat rules, compiled: legality, actions, deadlines, deaths and win checks.

Every change of state during combat goes through the functions here; the event loop (rules.py)
and the positions API (positions.py) call them, and the policies read the table through them.
The state record, the codes and the role table are laid out in layout.py.
"""

from balance.engine.kernels import kernel
from balance.engine.rng import below
from balance.games.dethroned.layout import (
    ACT_ATTACK, ACT_BOMB, ACT_CLEAR, ACT_DEFEND, ACT_DOUBLE, ACT_HALVE, ACT_OVERWRITE, ACT_PASS, ACT_REDIRECT,
    ATTACK_BEATEN, ATTACK_FREE, ATTACK_UNBEATEN, AT_BOMBED, AT_CARD, AT_CREDIT, AT_DEADLINE, AT_DEF_CARD,
    AT_DEF_EXP, AT_DEF_STACK, AT_EXP, AT_MODS, AT_MOD_COUNT, AT_OWNER, AT_PLACED, AT_SERIAL, AT_STATE, AT_VICTIM,
    BOMB, CARD_BASE, DECK_SIZE, DEFENCE_UNITS, DOUBLE, HALVE, HAND_SIZE, H_ATTACK_TOP, H_DEATHS, H_NOW, H_OUTCOME,
    H_PASS_STREAK, H_PHASE, H_PLAYERS, H_SERIAL, H_TRACE_LEN, H_UNBEATEN, H_VERSION, KF_ASSAILANT,
    KF_ASSAILANT_NOT_ROYAL, KF_COMMONER, KF_ROYAL, KILL_ASSAILANT, KILL_COMMONER, KILL_NONE, KILL_ROYAL, LOC_DECK,
    LOC_DISCARD, LOC_FIELD, LOC_HAND, LOC_KILLING_BLOW, MAX_ATTACKS, MAX_MODS, MAX_PLAYERS, NO_CARD, OUTCOME_NONE,
    O_ART_SYMBOLS, O_BOMB_NEEDS_DEFENCE, O_COUNT_MS, O_DEFENCE_STACK, O_DEFENDER_REDIRECT,
    O_FIRST_VOTE_AFTER_TWO_AT_8, O_OVERWRITE, O_REDIRECT_CREDIT, O_REDIRECT_DEFENCE, O_REDIRECT_RESTARTS,
    O_SENTINEL_ROYAL_ASSAILANT, O_SHOP_COUNTS_HAND, O_WINDOW_MS, PHASE_COMBAT, PHASE_OVER, PHASE_PAUSE, PL_ALIVE,
    PL_ASSAILANT, PL_ATTACKING, PL_ATTACKS_ON, PL_CLAIM, PL_DEATH_ORDER, PL_DECK, PL_DECK_POS, PL_HAND,
    PL_KILLED_BY, PL_KILLED_ROLES, PL_KILLS, PL_KILL_FLAGS, PL_MODS_PLAYED, PL_ROLE, PL_ROYAL, PL_UNBEATEN_ON,
    REDIRECT, ROLE_ASSAILANT_ART, ROLE_ASSAILANT_DEFAULT, ROLE_COND_ANY, ROLE_COND_BASE, ROLE_COND_COUNT,
    ROLE_DECK_SUM_MAX, ROLE_KILL_CLASS, ROLE_KILL_ROLE, ROLE_MAX_KILLS, ROLE_MIN_DEAD, ROLE_MIN_KILLS,
    ROLE_MODS_PLAYED, ROLE_NEIGHBOURS, ROLE_ROYAL_ART, ROLE_ROYAL_DEFAULT, ROLE_SELF, SELF_ALIVE, SELF_DEAD,
    SIDE_ATTACK, SIDE_DEFENCE, TR_ARG, TR_ARG2, TR_EVENT, TR_PLAYER, TR_TIME, abase, action_attack, action_kind,
    action_side, action_slot, action_target, card_id, encode, is_battle, pbase, power,
)

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


@kernel(inline="always")
def tie_wins(stream, ties):
    """Ties that no rule orders are broken at random from the game's stream, never by seat index:
    the ``ties``-th equal candidate met in a scan replaces the kept one with probability 1 / ties,
    so each of them is kept with the same probability (reservoir sampling)."""
    return below(stream, ties) == 0


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
    """The defence's value: the defending card (and, stacking, the earlier ones); -1 if none."""
    b = abase(a)
    if s[b + AT_DEF_CARD] == NO_CARD:
        return -1.0
    return power(s[b + AT_DEF_CARD] % DECK_SIZE, s[b + AT_DEF_EXP]) + s[b + AT_DEF_STACK] / DEFENCE_UNITS


@kernel(inline="always")
def defence_needed(s, opts, a):
    """What a new defending card must be worth to beat attack ``a``: the attack's value, less the
    defence already there when defending cards stack."""
    if opts[O_DEFENCE_STACK] and s[abase(a) + AT_DEF_CARD] != NO_CARD:
        return attack_power(s, a) - defence_power(s, a)
    return attack_power(s, a)


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
        s[b + AT_DEF_STACK] = 0
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


@kernel(inline="always")
def slot_of(s, p, kind):
    """Hand slot of a card of ``kind`` (a player holds at most one of each); -1 if none."""
    for h in range(HAND_SIZE):
        if hand_kind(s, p, h) == kind:
            return h
    return -1


@kernel
def battle_slots(s, p):
    """Bit mask of the hand slots holding Battle cards."""
    mask = 0
    for h in range(HAND_SIZE):
        if is_battle(hand_kind(s, p, h)):
            mask |= 1 << h
    return mask


@kernel
def attack_targets(s, p):
    """Bit mask of the seats p may attack now: in combat, free, holding a Battle card; any other
    living player it has no live attack on."""
    if s[H_PHASE] != PHASE_COMBAT or defending(s, p) or battle_slots(s, p) == 0:
        return 0
    mask = 0
    for t in range(s[H_PLAYERS]):
        if t != p and alive(s, t) and not (s[pbase(p) + PL_ATTACKING] >> t) & 1:
            mask |= 1 << t
    return mask


@kernel
def overwrite_slots(s, opts, p, a):
    """Bit mask of the hand slots whose Battle card may overwrite attack ``a`` (option)."""
    if not opts[O_OVERWRITE] or s[H_PHASE] != PHASE_COMBAT or defending(s, p):
        return 0
    mask = 0
    for h in range(HAND_SIZE):
        kind = hand_kind(s, p, h)
        if is_battle(kind) and may_overwrite(s, p, a, kind):
            mask |= 1 << h
    return mask


@kernel
def redirect_destinations(s, opts, p, a):
    """Bit mask (target + MAX_PLAYERS * side) of where p's Redirect may send attack ``a`` (SIDE_ATTACK)
    or, with the option, its defending card (SIDE_DEFENCE)."""
    mask = 0
    for t in range(s[H_PLAYERS]):
        if not alive(s, t):
            continue
        if redirect_target_ok(s, p, a, t):
            mask |= 1 << t
        if (opts[O_REDIRECT_DEFENCE] and s[abase(a) + AT_DEF_CARD] != NO_CARD
                and not (s[pbase(p) + PL_ATTACKING] >> t) & 1):
            mask |= 1 << (t + MAX_PLAYERS)
    return mask


@kernel(inline="always")
def modifier_sides(s, a):
    """Bit mask of the cards of attack ``a`` a Double or Halve may modify."""
    return (1 << SIDE_ATTACK) | ((1 << SIDE_DEFENCE) if s[abase(a) + AT_DEF_CARD] != NO_CARD else 0)


@kernel
def card_of_move(kind):
    """The card kind a move of ``kind`` plays when that card fixes it (a Modifier); NO_CARD otherwise."""
    if kind == ACT_DOUBLE:
        return DOUBLE
    if kind == ACT_HALVE:
        return HALVE
    if kind == ACT_REDIRECT:
        return REDIRECT
    if kind == ACT_BOMB:
        return BOMB
    return NO_CARD


@kernel(inline="always")  # into legal_kinds, where each kind is a constant and the other kinds' tests fold away
def move_attacks_from(s, opts, p, kind, first_only):
    """Bit mask of the attacks on the table a move of ``kind`` (DEFEND, OVERWRITE or a Modifier)
    may act on now: defenders act only on attacks against themselves, others on any unbeaten
    attack; Modifiers need room on the attack, a Redirect combat (a defender's only with the
    option) and a destination, a Bomb is laid on its victim's anchor attack. ``first_only``: stop
    at the first such attack (whether the move is legal at all)."""
    if kind == ACT_DEFEND and battle_slots(s, p) == 0:
        return 0
    card = card_of_move(kind)
    if card != NO_CARD and slot_of(s, p, card) < 0:
        return 0
    if kind == ACT_REDIRECT and (s[H_PHASE] != PHASE_COMBAT or (defending(s, p) and not opts[O_DEFENDER_REDIRECT])):
        return 0
    mask = 0
    for a in range(s[H_ATTACK_TOP]):
        if kind == ACT_OVERWRITE:
            ok = overwrite_slots(s, opts, p, a) != 0
        elif not may_act_on(s, p, a):
            ok = False
        elif kind == ACT_DEFEND:
            ok = True
        elif kind == ACT_BOMB:
            ok = bomb_anchor(s, opts, s[abase(a) + AT_VICTIM]) == a
        else:
            ok = s[abase(a) + AT_MOD_COUNT] < MAX_MODS and (
                kind != ACT_REDIRECT or redirect_destinations(s, opts, p, a) != 0)
        if ok:
            mask |= 1 << a
            if first_only:
                break
    return mask


@kernel(inline="always")
def move_attacks(s, opts, p, kind):
    """Bit mask of every attack a move of ``kind`` may act on now (``move_attacks_from``)."""
    return move_attacks_from(s, opts, p, kind, False)


@kernel
def legal_kinds(s, opts, p):
    """Bit mask of the kinds of move (ACT_*) living player ``p`` has now: PASS always, unless
    clearing its beaten attacks is all that is left (CLEAR alone). Asked at every reaction, so a
    kind's attacks are searched only until one is found."""
    if defending(s, p) and s[pbase(p) + PL_UNBEATEN_ON] == 0:
        return 1 << ACT_CLEAR
    mask = 1 << ACT_PASS
    if attack_targets(s, p) != 0:
        mask |= 1 << ACT_ATTACK
    if unbeaten_total(s) == 0:  # every other kind acts on an unbeaten attack
        return mask
    # one line a kind, not a loop: each kind a constant, so the tests of the other kinds fold away
    return (mask | kind_bit(s, opts, p, ACT_DEFEND) | kind_bit(s, opts, p, ACT_DOUBLE) | kind_bit(s, opts, p, ACT_HALVE)
            | kind_bit(s, opts, p, ACT_REDIRECT) | kind_bit(s, opts, p, ACT_BOMB) | kind_bit(s, opts, p, ACT_OVERWRITE))


@kernel(inline="always")
def kind_bit(s, opts, p, kind):
    """``1 << kind`` when a move of ``kind`` may act on some attack now, else 0."""
    return (1 << kind) if move_attacks_from(s, opts, p, kind, True) != 0 else 0


@kernel
def list_legal(s, opts, p, out):
    """All legal actions of living player ``p`` now into ``out``, by kind (PASS first); returns
    how many. Built from the masks its decisions are posed with, so both say the same."""
    kinds = legal_kinds(s, opts, p)
    if kinds == 1 << ACT_CLEAR:
        out[0] = encode(ACT_CLEAR, 0, 0, 0, 0)  # the only thing left to do
        return 1
    out[0] = encode(ACT_PASS, 0, 0, 0, 0)
    n = 1
    targets = attack_targets(s, p)
    for t in range(s[H_PLAYERS]):
        if (targets >> t) & 1:
            for h in range(HAND_SIZE):
                if (battle_slots(s, p) >> h) & 1:
                    out[n] = encode(ACT_ATTACK, h, 0, t, 0)
                    n += 1
    for kind in (ACT_DEFEND, ACT_DOUBLE, ACT_HALVE, ACT_REDIRECT, ACT_BOMB, ACT_OVERWRITE):
        attacks = move_attacks(s, opts, p, kind)
        for a in range(s[H_ATTACK_TOP]):
            if not (attacks >> a) & 1:
                continue
            if kind == ACT_DEFEND or kind == ACT_OVERWRITE:
                slots = battle_slots(s, p) if kind == ACT_DEFEND else overwrite_slots(s, opts, p, a)
                for h in range(HAND_SIZE):
                    if (slots >> h) & 1:
                        out[n] = encode(kind, h, a, 0, 0)
                        n += 1
            elif kind == ACT_DOUBLE or kind == ACT_HALVE:
                sides = modifier_sides(s, a)
                for side in (SIDE_ATTACK, SIDE_DEFENCE):
                    if (sides >> side) & 1:
                        out[n] = encode(kind, slot_of(s, p, card_of_move(kind)), a, 0, side)
                        n += 1
            elif kind == ACT_REDIRECT:
                destinations = redirect_destinations(s, opts, p, a)
                for d in range(2 * MAX_PLAYERS):
                    if (destinations >> d) & 1:
                        out[n] = encode(kind, slot_of(s, p, REDIRECT), a, d % MAX_PLAYERS, d // MAX_PLAYERS)
                        n += 1
            else:
                out[n] = encode(kind, slot_of(s, p, BOMB), a, 0, 0)
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
def may_overwrite(s, p, a, kind):
    """Free player p may overwrite another's unbeaten attack ``a`` with a Battle card of ``kind``
    worth more than the attack now (detailed rules), unless p already attacks that victim."""
    b = abase(a)
    victim = s[b + AT_VICTIM]
    return (s[b + AT_STATE] == ATTACK_UNBEATEN and victim != p and s[b + AT_OWNER] != p
            and not (s[pbase(p) + PL_ATTACKING] >> victim) & 1 and kind + 1 > attack_power(s, a))


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
        s[b + AT_DEF_STACK] = 0
        s[b + AT_CREDIT] = p
        s[CARD_BASE + card] = LOC_FIELD
        place_attack(s, opts, na, p, action_target(action))
    elif kind == ACT_DEFEND:
        b = abase(a)
        if opts[O_DEFENCE_STACK] and s[b + AT_DEF_CARD] != NO_CARD:
            stack_defence(s, a)
        else:
            discard_defence(s, a)
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
    elif kind == ACT_REDIRECT and action_side(action) == SIDE_DEFENCE:
        redirect_defence(s, opts, p, a, action_target(action), card)
    elif kind == ACT_REDIRECT:
        redirect(s, opts, p, a, action_target(action), card)
    elif kind == ACT_OVERWRITE:
        overwrite(s, p, a, card)
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
    deadline = s[b + AT_DEADLINE]
    place_attack(s, opts, a, p, target)
    if not opts[O_REDIRECT_RESTARTS]:
        s[b + AT_DEADLINE] = deadline


@kernel
def redirect_defence(s, opts, p, a, target, card):
    """Main rules' Redirect of a defending card: it leaves attack ``a`` (with the Modifiers on it)
    and goes, as a new attack of p's, at ``target``; ``a`` is left without that defence."""
    b = abase(a)
    na = new_attack_slot(s)
    nb = abase(na)
    s[nb + AT_CARD] = s[b + AT_DEF_CARD]
    s[nb + AT_EXP] = s[b + AT_DEF_EXP]
    s[nb + AT_DEF_CARD] = NO_CARD
    s[nb + AT_DEF_EXP] = 0
    s[nb + AT_DEF_STACK] = 0
    s[nb + AT_MOD_COUNT] = 0
    s[nb + AT_BOMBED] = 0
    s[nb + AT_CREDIT] = p if opts[O_REDIRECT_CREDIT] else s[b + AT_DEF_CARD] // DECK_SIZE
    kept = 0
    for m in range(s[b + AT_MOD_COUNT]):
        entry = s[b + AT_MODS + m]
        if entry % 2 == SIDE_DEFENCE:
            add_mod(s, na, entry // 2, SIDE_ATTACK)
        else:
            s[b + AT_MODS + kept] = entry
            kept += 1
    s[b + AT_MOD_COUNT] = kept
    s[b + AT_DEF_CARD] = NO_CARD
    s[b + AT_DEF_EXP] = 0
    s[b + AT_DEF_STACK] = 0
    add_mod(s, na, card, SIDE_ATTACK)
    s[pbase(p) + PL_MODS_PLAYED] += 1
    place_attack(s, opts, na, p, target)


@kernel
def overwrite(s, p, a, card):
    """Detailed rules: p lays a larger Battle card over another's unbeaten attack; the attack, its
    defence and deadline stay, the old attacking card and its Modifiers go to the centre, and the
    attack is p's (ownership and kill credit)."""
    b = abase(a)
    victim = s[b + AT_VICTIM]
    s[pbase(s[b + AT_OWNER]) + PL_ATTACKING] &= ~(1 << victim)
    s[CARD_BASE + s[b + AT_CARD]] = LOC_DISCARD
    kept = 0
    for m in range(s[b + AT_MOD_COUNT]):
        entry = s[b + AT_MODS + m]
        if entry % 2 == SIDE_ATTACK:
            s[CARD_BASE + entry // 2] = LOC_DISCARD
        else:
            s[b + AT_MODS + kept] = entry
            kept += 1
    s[b + AT_MOD_COUNT] = kept
    s[b + AT_CARD] = card
    s[b + AT_EXP] = 0
    s[CARD_BASE + card] = LOC_FIELD
    s[b + AT_OWNER] = p
    s[b + AT_CREDIT] = p
    s[pbase(p) + PL_ATTACKING] |= 1 << victim


@kernel
def stack_defence(s, a):
    """Stacking defence: the current defending card's value joins the stack (the card itself is
    spent to the centre; its Modifiers stay on the attack until it is cleared)."""
    b = abase(a)
    units = (s[b + AT_DEF_CARD] % DECK_SIZE + 1) * DEFENCE_UNITS
    exponent = s[b + AT_DEF_EXP]
    s[b + AT_DEF_STACK] += units << exponent if exponent >= 0 else units >> -exponent
    s[CARD_BASE + s[b + AT_DEF_CARD]] = LOC_DISCARD
    s[b + AT_DEF_CARD] = NO_CARD
    s[b + AT_DEF_EXP] = 0


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
def strongest_attack_on(s, victim):
    """The unbeaten attack on ``victim`` that gets the kill now: the highest value, then the first
    placed; -1 if none."""
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
    return best


@kernel
def credit_candidates(s, victim, out):
    """Unbeaten attacks on ``victim`` that would get the kill now: the strongest; several only if
    they are equal in value and were placed at the same moment (the defender then chooses).
    Returns how many, written to ``out``."""
    best = strongest_attack_on(s, victim)
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


@kernel(inline="always")
def victim_flags(royal, skull):
    """The kill-class flags a victim adds to its killer's record: Royalty or commoner by its crown,
    an Assailant while its skull is unspent (it had killed nobody yet)."""
    flags = KF_ROYAL if royal else KF_COMMONER
    if skull:
        flags |= KF_ASSAILANT
        if not royal:
            flags |= KF_ASSAILANT_NOT_ROYAL
    return flags


@kernel
def kill(s, opts, victim, a):
    """``victim`` dies to attack ``a``: the killing blow goes on its role card, the other attacks
    on it are cleared, the credited player's kill record grows and its skull is spent."""
    killer = s[abase(a) + AT_CREDIT]
    vb = pbase(victim)
    kb = pbase(killer)
    flags = victim_flags(s[vb + PL_ROYAL], s[vb + PL_ASSAILANT])
    s[vb + PL_ALIVE] = 0
    s[vb + PL_KILLED_BY] = killer
    s[vb + PL_DEATH_ORDER] = s[H_DEATHS]
    s[H_DEATHS] += 1
    s[H_VERSION] += 1
    s[kb + PL_KILLS] += 1
    s[kb + PL_KILLED_ROLES] |= 1 << s[vb + PL_ROLE]
    s[kb + PL_KILL_FLAGS] |= flags
    s[kb + PL_ASSAILANT] = 0
    free_attack(s, a, LOC_KILLING_BLOW)
    for x in range(s[H_ATTACK_TOP]):
        if s[abase(x) + AT_STATE] != ATTACK_FREE and s[abase(x) + AT_VICTIM] == victim:
            free_attack(s, x, LOC_DISCARD)
    # "after the first Player death, or after 2, if there are 8 players": deaths are counted, so an
    # earlier impasse vote does not turn the first death into a pause
    if not (opts[O_FIRST_VOTE_AFTER_TWO_AT_8] and s[H_PLAYERS] == MAX_PLAYERS and s[H_DEATHS] == 1):
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
    return kill_class_in(opts, roles, role, s[pbase(p) + PL_KILL_FLAGS], s[pbase(p) + PL_KILLED_ROLES])


@kernel(inline="always")
def kill_class_in(opts, roles, role, flags, killed_roles):
    """``role``'s kill class is among kills of these flags (victim_flags) and roles (a mask)."""
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
    return roles[role, ROLE_KILL_ROLE] >= 0 and (killed_roles >> roles[role, ROLE_KILL_ROLE]) & 1 == 1


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
    return (own_conditions_met(s, opts, roles, p) and kill_class_met(s, opts, roles, p)
            and role_conditions_met(s, roles, p))


@kernel
def own_conditions_met(s, opts, roles, p):
    """The building blocks the player can check without knowing hidden roles (not its kill class:
    its victims' roles stay hidden until the game ends)."""
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
