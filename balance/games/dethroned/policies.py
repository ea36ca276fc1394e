"""DETHRONED's compiled policies: the heuristic, its beliefs, and the search's per-game pieces.

Decisions (posed by the step kernel rules.py in the shared header, balance.engine.decision; kinds
and answer bits in layout.py): a role claim (discussion phase: the truth or a lie), a move at each
reaction (its kind, then what that kind needs: target, card, attack, side), a vote after a death or
at an impasse (end, or continue by attacking), and the defender's choice of kill credit between
equal simultaneous attacks. The engine's ``decide`` (balance.engine.step) answers forced decisions
and the random player; ``policy`` answers the rest: the heuristic plans a whole move at the first
step it is asked and answers the later steps from that plan. ``observe`` updates every listener's
beliefs from what an answer showed the table (rules.py leaves it in H_SEEN_*). Every heuristic rule below
considers only the move kinds the posed decision leaves it (``allowed``), so a restricted
heuristic plays the rest of its game unchanged; when it finds no move of the kinds left (a seat
made to prefer a move it has no use for) it answers at random among them.

Policies see only public information plus their own role: claims, who attacks and helps whom,
who is dead and who was credited. The heuristic keeps beliefs belief[observer, player, role]
(probabilities over the roles in play), updated by Bayes from claims (trusting them with
probability ``trust``) and from actions: attacking k makes roles that want k dead more likely,
defending k makes them less likely (strength ``learning``). Its targets follow the win condition
through two role-by-role matrices computed from the role table (game.py):
  want_cond[R, V]  > 0 if role R wants role V dead, < 0 alive (role conditions, kill-free parts)
  want_kill[R, V]  the part that disappears once R's kill needs are met (kill counts/classes)
and role-aware play for the other building blocks: a role that must not kill burns only low
cards (or a card it can beat itself), never takes an attack by Redirect and continues a vote
with its lowest card; a role that hunts Assailants hunts only players who have not killed yet (a
murderer has lost its skull); a role that must play its Modifiers plays each where it can, and a
role whose own death completes its win (the Alchemist when it is the only Royalty) Redirects an
attack onto itself and lets it land. Its claim is a lie with a probability set by its role's
symbols (``lying_*``).
The search policy (``search``) is the heuristic with the engine's determinized Monte-Carlo search
(balance.engine.search) at the kind of its move at a reaction and an attack's target (``policy``
answers SEARCH there, ``search_at`` searches); its per-game pieces are at the end of this module: the sampled world
(``sample_world``: dealt from the seat's view, the other roles drawn by its beliefs) and the
rollout players' beliefs in it (``dress_world``).
Ties between equally good choices are broken at random from the game's stream, never by seat.
"""

import numpy as np

from balance.engine.decision import D_CHOICES, D_KIND, random_answer
from balance.engine.game import MAX_POLICY_PARAMS
from balance.engine.kernels import allocating_kernel, inlined_into, kernel, no_rows
from balance.engine.rng import COUNTER, below, chance, shuffle, uniform
from balance.engine.search import (
    DETERMINIZE_SIGNATURE, ROLLOUT_SIGNATURE, copy_world, packed, search_answer, search_buffers,
    seat_rollout_players)
from balance.engine.ismcts import ismcts_answer, ismcts_buffers, ismcts_views
from balance.engine.step import SEARCH, no_search, play, pose_pending
from balance.games.dethroned.combat import (
    alive, attack_power, bomb_anchor, conditions_hold, deck_battle_sum, defence_needed, defence_power, defending,
    hand_kind, kill_class_in, may_overwrite, own_conditions_met, redirect_target_ok, slot_of,
    strongest_attack_on, tie_wins, victim_flags,
)
from balance.games.dethroned.layout import (
    ACT_ATTACK, ACT_BOMB, ACT_DEFEND, ACT_DOUBLE, ACT_HALVE, ACT_OVERWRITE, ACT_PASS, ACT_REDIRECT, ATTACK_UNBEATEN,
    AT_CREDIT, AT_DEADLINE, AT_DEF_CARD, AT_MOD_COUNT, AT_OWNER, AT_STATE, AT_VICTIM, BOMB, DOUBLE, HALVE,
    HAND_SIZE, H_ATTACK_TOP, H_DEATHS, H_PHASE, H_PLAYERS, H_VERSION, KILL_ASSAILANT, KILL_NONE,
    MAX_MODS, NO_CARD, O_DEFENDER_REDIRECT, O_OVERWRITE, O_REDIRECT_CREDIT,
    PHASE_COMBAT, PL_ALIVE, PL_ASSAILANT, PL_ATTACKING, PL_KILLS, PL_MODS_PLAYED, PL_ROLE, PL_ROYAL, PL_UNBEATEN_ON,
    REDIRECT, ROLE_COND_BASE, ROLE_COND_COUNT, ROLE_DECK_SUM_MAX, ROLE_KILL_CLASS, ROLE_MAX_KILLS,
    ROLE_MIN_DEAD, ROLE_MIN_KILLS, ROLE_MODS_PLAYED, ROLE_NEIGHBOURS, ROLE_SELF, SELF_ALIVE, SIDE_ATTACK,
    SIDE_DEFENCE, CLAIM_TRUTH, DK_ACTION, DK_ATTACK, DK_CARD, DK_CLAIM, DK_CREDIT, DK_REDIRECT_TO, DK_SIDE,
    DK_TARGET, DK_VOTE, MAX_ATTACKS, H_MOVE, H_MOVE_SERIAL, H_MOVE_STEPS, H_POSED_LEGAL, H_SEEN_ACTION, H_SEEN_ACTOR, H_SEEN_VICTIM, SEEN_ACTION, SEEN_CLAIM, H_STOP_AT, MAX_PLAYERS, VOTE_CONTINUE, VOTE_END, abase,
    action_attack, action_kind, action_side, action_slot, action_target, claim_bit, encode, is_battle, pbase,
    CARD_BASE, DECK_SIZE, H_NOW, KF_ASSAILANT, KF_ASSAILANT_NOT_ROYAL, KF_COMMONER, KF_ROYAL, LOC_DECK, LOC_HAND,
    O_ART_SYMBOLS, PL_CLAIM, PL_DEATH_ORDER, PL_DECK, PL_DECK_POS, PL_HAND, PL_KILLED_BY, PL_KILLED_ROLES,
    PL_KILL_FLAGS, PL_READY_AT, POLICY_HEURISTIC, POLICY_ISMCTS, POLICY_SEARCH, P_REACTION_MEAN, P_REACTION_SPREAD, ROLE_ASSAILANT_ART,
    ROLE_ASSAILANT_DEFAULT, ROLE_FIELDS, ROLE_ROYAL_ART, ROLE_ROYAL_DEFAULT, STATE_SIZE, card_id,
)
from balance.games.dethroned.options import HEURISTIC_PARAMS
from balance.games.dethroned.rules import MS_PER_SECOND, advance, apply_answer, delay_ms, over, score, seen

# What the policies read besides the state (``mind``, one per block of games: match.new_table), by index:
# the options, the role table, the want matrices, copies of each role, every seat's policy code and
# parameter row, the beliefs belief[observer, player, role], the grudges, the marks, the search's buffers
(MIND_OPTS, MIND_ROLES, MIND_WANT_COND, MIND_WANT_KILL, MIND_WANT_TOTAL, MIND_ROLE_COUNT, MIND_CODES, MIND_PARAMS,
 MIND_BELIEF, MIND_GRUDGE, MIND_MARKS, MIND_SEARCH) = range(12)

# per-player integer policy memory ``marks[MARK_*, player]``
MARK_SEEN = 0  # table version at which the heuristic last chose to wait: it waits until a change
MARK_PLAN = 1  # the move planned for the move under way (an action code), answered step by step
MARK_PLAN_MOVE = 2  # H_MOVE_SERIAL of the move that plan belongs to (NO_PLAN: none)
MARKS = 3
NOT_SEEN = -1

# parameter row layout (shared by every policy: the first two are the speed of any player,
# layout.P_REACTION_MEAN and P_REACTION_SPREAD, which the rules read)
P_LYING_ROYALTY = 2  # a crown and no skull
P_LYING_ASSAILANT = 3  # a skull (with or without a crown)
P_LYING_COMMONER = 4  # neither symbol
P_TRUST = 5
P_AGGRESSION = 6
P_HELPING = 7
P_HOARDING = 8
P_STUBBORN = 9
P_LEARNING = 10
P_ROLLOUTS = 11  # the search's own, after the heuristic's (options.SEARCH_PARAMS)
TREE_PARAMS_AT = P_REACTION_SPREAD + 1  # the tree search's parameters follow the speed (options.POLICIES)
P_HORIZON = 12

# The heuristic's parameter row at its defaults: every player of the search's rollouts.
HEURISTIC_DEFAULTS = np.zeros(MAX_POLICY_PARAMS, dtype=np.float64)
HEURISTIC_DEFAULTS[:len(HEURISTIC_PARAMS)] = [p.default for p in HEURISTIC_PARAMS]

THREAT_WEIGHT = 0.5  # how much "that role wants me dead" adds to wanting it dead
GRUDGE_WEIGHT = 0.3  # per attack received from that player
PILE_ON = 0.3  # a player already under attack is an easier kill
NEIGHBOUR_CARE = 0.8  # a player whose win needs a living neighbour protects it
BELIEF_FLOOR = 1e-6
BELIEVED = 0.5
TIE_EPS = 1e-9  # scores this close are a tie (broken at random)
SAFE_BURN_VALUE = 5  # highest card a role that must not kill attacks with: a free player usually beats it
SELF_ROUTE_DOUBT = 0.25  # own death is the route only if no other player is this likely a fitting victim
NO_PLAN = -1  # no move planned (action codes are >= 0)


@kernel(inline="always")
def allows(allowed, kind):
    """The mask of answers left to the policy (its restriction applied) holds move kind ``kind``."""
    return (allowed >> kind) & 1 == 1


@kernel(inline="always")
def allowed_slot(s, p, card, allowed, kind):
    """Hand slot of ``card`` if p holds it and may play it as a move of ``kind``; -1 otherwise."""
    return slot_of(s, p, card) if allows(allowed, kind) else -1


@kernel(inline="always")
def forget_plans(marks):
    """No wait and no plan yet (a new game, or a rollout's players)."""
    marks[MARK_SEEN, :] = NOT_SEEN
    marks[MARK_PLAN_MOVE, :] = NO_PLAN


@kernel(inline="always")
def keeps_beliefs(code):
    """The policies that infer roles from what they hear and see (the searches draw their worlds
    from their beliefs)."""
    return code == POLICY_HEURISTIC or code == POLICY_SEARCH or code == POLICY_ISMCTS


@kernel(inline="always")
def heuristic_param(codes, params, p, k):
    """p's heuristic parameter ``k`` (P_TRUST, P_LEARNING, P_LYING_*: how it hears, learns and
    claims): its own for the policies whose rows hold the heuristic's parameters (the heuristic and
    the flat search); the heuristic's defaults for the tree search, whose row holds its own
    parameters (it hears, learns and claims as the heuristic at its defaults, its rollout players)."""
    return HEURISTIC_DEFAULTS[k] if codes[p] == POLICY_ISMCTS else params[p, k]


# ---- beliefs ----------------------------------------------------------------------------------
@kernel
def init_beliefs(s, role_count, belief, grudge):
    """Uniform over the roles in play, minus one copy of the observer's own role."""
    players = s[H_PLAYERS]
    belief[:] = 0.0
    grudge[:] = 0.0
    for i in range(players):
        own = s[pbase(i) + PL_ROLE]
        for j in range(players):
            if j == i:
                belief[i, j, own] = 1.0
                continue
            total = 0.0
            for r in range(role_count.shape[0]):
                w = role_count[r] - (1.0 if r == own else 0.0)
                belief[i, j, r] = w
                total += w
            for r in range(role_count.shape[0]):
                belief[i, j, r] /= total


@kernel(inline="always")
def normalise(belief, i, j):
    total = 0.0
    for r in range(belief.shape[2]):
        total += belief[i, j, r]
    if total <= 0.0:
        return
    for r in range(belief.shape[2]):
        belief[i, j, r] /= total


# into the batch loop alone (kernels.inlined_into): a call there passed its arrays at every claim
@kernel(inline=inlined_into("play_on"))
def observe_claim(s, codes, params, role_count, belief, claimer, claim):
    distinct = 0
    for r in range(role_count.shape[0]):
        if role_count[r] > 0:
            distinct += 1
    for i in range(s[H_PLAYERS]):
        if i == claimer or not keeps_beliefs(codes[i]):
            continue
        trust = heuristic_param(codes, params, i, P_TRUST)
        other = (1.0 - trust) / max(1, distinct - 1)
        for r in range(belief.shape[2]):
            belief[i, claimer, r] *= trust if r == claim else other
        normalise(belief, i, claimer)


@kernel(inline="always")
def expected_want(belief, want, i, role, k):
    """How much ``role`` wants player k dead, in observer i's beliefs about k."""
    total = 0.0
    for v in range(belief.shape[2]):
        total += belief[i, k, v] * want[role, v]
    return total


@kernel
def observe_hostility(s, codes, params, want_total, belief, grudge, actor, victim, sign):
    """``actor`` attacked (sign +1) or defended (sign -1) ``victim``: every heuristic observer
    reweights its beliefs about the actor towards roles that want that, by the likelihood
    1 + learning * sign * (how much the role wants the victim dead), floored above zero."""
    if actor == victim:
        return
    grudge[victim, actor] += max(0.0, sign)
    for i in range(s[H_PLAYERS]):
        if i == actor or not keeps_beliefs(codes[i]) or not alive(s, i):
            continue
        rate = heuristic_param(codes, params, i, P_LEARNING)
        for r in range(belief.shape[2]):
            if belief[i, actor, r] > 0.0:
                shift = rate * sign * expected_want(belief, want_total, i, r, victim)
                belief[i, actor, r] *= max(BELIEF_FLOOR, 1.0 + shift)
        normalise(belief, i, actor)


# ---- the heuristic's view of the table ---------------------------------------------------------
@kernel(inline="always")
def role_fits_kill_class(opts, roles, own, r, unblooded):
    """A victim holding role r, that had killed nobody before it died (``unblooded``) or had, is of
    the kill class role ``own`` needs (the record combat.kill would make of it)."""
    royal = roles[r, ROLE_ROYAL_ART if opts[O_ART_SYMBOLS] else ROLE_ROYAL_DEFAULT]
    skull = roles[r, ROLE_ASSAILANT_ART if opts[O_ART_SYMBOLS] else ROLE_ASSAILANT_DEFAULT] == 1 and unblooded
    return kill_class_in(opts, roles, own, victim_flags(royal, skull), 1 << r)


@kernel
def believed_kill_class_met(s, opts, roles, belief, p):
    """p's own reading of the kill its role needs (a Royalty, a commoner, an Assailant, a role):
    a dead player's role stays hidden until the game ends, its killer's victims' too, so p counts
    the need met once it believes (BELIEVED) that at least one of its victims was of that class."""
    own = s[pbase(p) + PL_ROLE]
    cls = roles[own, ROLE_KILL_CLASS]
    if cls == KILL_NONE:
        return True
    none_fits = 1.0
    for v in range(s[H_PLAYERS]):
        if alive(s, v) or s[pbase(v) + PL_KILLED_BY] != p:
            continue
        unblooded = not killed_before_dying(s, v)
        fits = 0.0
        for r in range(belief.shape[2]):
            if role_fits_kill_class(opts, roles, own, r, unblooded):
                fits += belief[p, v, r]
        none_fits *= 1.0 - fits
    return 1.0 - none_fits >= BELIEVED


@kernel(inline="always")
def kill_needs_open(s, opts, roles, belief, p):
    """p still needs kills, as far as it can tell."""
    role = s[pbase(p) + PL_ROLE]
    return (s[pbase(p) + PL_KILLS] < roles[role, ROLE_MIN_KILLS] or s[H_DEATHS] < roles[role, ROLE_MIN_DEAD]
            or not believed_kill_class_met(s, opts, roles, belief, p))


@kernel(inline="always")
def desire(s, roles, want_cond, want_kill, want_total, belief, grudge, open_needs, p, q):
    """How much p wants q dead (negative: wants q alive), from p's win condition and beliefs;
    ``open_needs``: p still needs kills (kill_needs_open)."""
    own = s[pbase(p) + PL_ROLE]
    # an Assailant that has killed is a murderer: no longer the victim an Assailant-hunter needs
    kill_counts = open_needs and not (roles[own, ROLE_KILL_CLASS] == KILL_ASSAILANT and s[pbase(q) + PL_KILLS] > 0)
    total = 0.0
    for r in range(belief.shape[2]):
        w = belief[p, q, r]
        if w > 0.0:
            value = want_cond[own, r] + THREAT_WEIGHT * want_total[r, own]
            if kill_counts:
                value += want_kill[own, r]
            total += w * value
    total += GRUDGE_WEIGHT * grudge[p, q]
    if s[pbase(q) + PL_UNBEATEN_ON] > 0:
        total += PILE_ON
    if roles[own, ROLE_NEIGHBOURS]:
        n = s[H_PLAYERS]
        if q == (p + 1) % n or q == (p + n - 1) % n:
            total -= NEIGHBOUR_CARE
    return total


@kernel(inline="always")
def smallest_beating(s, p, needed):
    """Hand slot of the smallest Battle card worth at least ``needed``; -1 if none."""
    best = -1
    for h in range(HAND_SIZE):
        kind = hand_kind(s, p, h)
        if is_battle(kind) and kind + 1 >= needed and (best < 0 or kind < hand_kind(s, p, best)):
            best = h
    return best


@kernel(inline="always")
def extreme_battle(s, p, highest):
    """Hand slot of the highest (or lowest) Battle card; -1 if none."""
    best = -1
    for h in range(HAND_SIZE):
        kind = hand_kind(s, p, h)
        if is_battle(kind) and (best < 0 or (kind > hand_kind(s, p, best)) == highest):
            best = h
    return best


@kernel(inline="always")
def wants_modifiers(s, roles, p):
    return s[pbase(p) + PL_MODS_PLAYED] < roles[s[pbase(p) + PL_ROLE], ROLE_MODS_PLAYED]


@kernel(inline="always")
def may_spend_modifier(s, roles, params, p, stream):
    return wants_modifiers(s, roles, p) or not chance(stream, params[p, P_HOARDING])


@kernel
def save_attack(s, opts, p, a, stream, params, roles, allow_modifiers, allowed):
    """The best way for p to beat unbeaten attack ``a`` now (a Battle card, then Modifiers), among
    the move kinds ``allowed`` leaves it."""
    b = abase(a)
    atk = attack_power(s, a)
    defend = allows(allowed, ACT_DEFEND)
    slot = smallest_beating(s, p, defence_needed(s, opts, a)) if defend else -1
    if slot >= 0:
        return encode(ACT_DEFEND, slot, a, 0, 0)
    if not allow_modifiers:
        return ACT_PASS
    has_def = s[b + AT_DEF_CARD] != NO_CARD
    room = s[b + AT_MOD_COUNT] < MAX_MODS
    halve = allowed_slot(s, p, HALVE, allowed, ACT_HALVE)
    double = allowed_slot(s, p, DOUBLE, allowed, ACT_DOUBLE)
    if room and halve >= 0 and (defence_power(s, a) >= atk / 2.0 or smallest_beating(s, p, atk / 2.0) >= 0):
        return encode(ACT_HALVE, halve, a, 0, SIDE_ATTACK)
    if room and double >= 0 and has_def and 2.0 * defence_power(s, a) >= atk:
        return encode(ACT_DOUBLE, double, a, 0, SIDE_DEFENCE)
    if double >= 0 and not has_def and defend:
        slot = smallest_beating(s, p, atk / 2.0)
        if slot >= 0:
            return encode(ACT_DEFEND, slot, a, 0, 0)  # the Double follows at the next reaction
    bomb_slot = allowed_slot(s, p, BOMB, allowed, ACT_BOMB)
    anchor = bomb_anchor(s, opts, s[b + AT_VICTIM])
    if bomb_slot >= 0 and anchor >= 0:
        return encode(ACT_BOMB, bomb_slot, anchor, 0, 0)
    if bomb_slot >= 0 and not has_def and defend:
        slot = extreme_battle(s, p, True)
        if slot >= 0:
            return encode(ACT_DEFEND, slot, a, 0, 0)  # a defending card for the Bomb to sit on
    return ACT_PASS


@kernel
def best_target(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream):
    """(target, desire) of the living player p most wants dead and has no live attack on; equal
    desires are a random choice."""
    open_needs = kill_needs_open(s, opts, roles, belief, p)
    best = -1
    best_score = -1e9
    ties = 0
    for q in range(s[H_PLAYERS]):
        if q == p or not alive(s, q) or (s[pbase(p) + PL_ATTACKING] >> q) & 1:
            continue
        score = desire(s, roles, want_cond, want_kill, want_total, belief, grudge, open_needs, p, q)
        if best < 0 or score > best_score + TIE_EPS:
            best = q
            best_score = score
            ties = 1
        elif score >= best_score - TIE_EPS:
            ties += 1
            if tie_wins(stream, ties):
                best = q
                best_score = score
    return best, best_score


@kernel
def own_death_wins(s, opts, roles, belief, p, mods_to_come):
    """p's own conditions would hold if p died now with the kill credited to itself (a Redirect
    onto itself), after ``mods_to_come`` more Modifiers: a role that need not survive and still
    needs (as far as it can tell) a kill its own role satisfies (the Alchemist when it is the only
    Royalty)."""
    b = pbase(p)
    role = s[b + PL_ROLE]
    if roles[role, ROLE_SELF] == SELF_ALIVE or believed_kill_class_met(s, opts, roles, belief, p):
        return False
    fits = kill_class_in(opts, roles, role, victim_flags(s[b + PL_ROYAL], s[b + PL_ASSAILANT]), 1 << role)
    kills = s[b + PL_KILLS] + 1
    limit = roles[role, ROLE_MAX_KILLS]
    return (fits and kills >= roles[role, ROLE_MIN_KILLS] and (limit < 0 or kills <= limit)
            and s[H_DEATHS] + 1 >= roles[role, ROLE_MIN_DEAD]
            and s[b + PL_MODS_PLAYED] + mods_to_come >= roles[role, ROLE_MODS_PLAYED]
            and roles[role, ROLE_COND_COUNT] == 0 and roles[role, ROLE_DECK_SUM_MAX] < 0)


@kernel
def only_self_fits(s, want_kill, belief, p):
    """No other living player is likely (SELF_ROUTE_DOUBT) to be a victim p's kill needs."""
    own = s[pbase(p) + PL_ROLE]
    for q in range(s[H_PLAYERS]):
        if q == p or not alive(s, q):
            continue
        mass = 0.0
        for r in range(belief.shape[2]):
            if want_kill[own, r] > 0.0:
                mass += belief[p, q, r]
        if mass >= SELF_ROUTE_DOUBT:
            return False
    return True


@kernel(inline="always")
def self_redirect_ok(s, opts, roles, want_kill, belief, p):
    """A Redirect onto itself, the last Modifier it needs, completes p's win (redirect credit on)."""
    return (opts[O_REDIRECT_CREDIT] and s[H_PHASE] == PHASE_COMBAT and own_death_wins(s, opts, roles, belief, p, 1)
            and (opts[O_DEFENDER_REDIRECT] or not defending(s, p)) and only_self_fits(s, want_kill, belief, p))


@kernel
def heuristic_defend(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, params, p, stream, allowed):
    """Under attack: let its own attack land if that death completes its win; Redirect an attack
    onto itself if that is its route; Redirect the strongest attack it cannot beat at its
    favourite target (the attacker if none; when the kill would count against it, only if it cannot
    save itself, at the player likeliest to beat it), else deal with the attack whose count ends first."""
    killing = strongest_attack_on(s, p)
    if (allows(allowed, ACT_PASS) and killing >= 0 and s[abase(killing) + AT_CREDIT] == p
            and own_death_wins(s, opts, roles, belief, p, 0)):
        return ACT_PASS
    redirect_slot = allowed_slot(s, p, REDIRECT, allowed, ACT_REDIRECT)
    if (redirect_slot >= 0 and killing >= 0 and s[abase(killing) + AT_MOD_COUNT] < MAX_MODS
            and self_redirect_ok(s, opts, roles, want_kill, belief, p)):
        return encode(ACT_REDIRECT, redirect_slot, killing, p, SIDE_ATTACK)
    urgent = -1
    strongest = -1
    for a in range(s[H_ATTACK_TOP]):
        b = abase(a)
        if s[b + AT_STATE] == ATTACK_UNBEATEN and s[b + AT_VICTIM] == p:
            if urgent < 0 or s[b + AT_DEADLINE] < s[abase(urgent) + AT_DEADLINE]:
                urgent = a
            if smallest_beating(s, p, attack_power(s, a)) < 0 and (
                    strongest < 0 or attack_power(s, a) > attack_power(s, strongest)):
                strongest = a
    takes_credit = opts[O_REDIRECT_CREDIT] and must_not_kill(s, roles, p)
    if redirect_slot >= 0 and strongest >= 0 and opts[O_DEFENDER_REDIRECT] and s[H_PHASE] == PHASE_COMBAT:
        if not takes_credit:
            target, score = best_target(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream)
            if target < 0 or not redirect_target_ok(s, p, strongest, target):
                target = s[abase(strongest) + AT_OWNER]
            if target != p and alive(s, target) and redirect_target_ok(s, p, strongest, target):
                return encode(ACT_REDIRECT, redirect_slot, strongest, target, 0)
        elif (roles[s[pbase(p) + PL_ROLE], ROLE_SELF] == SELF_ALIVE
              and action_kind(save_attack(s, opts, p, strongest, stream, params, roles, True, allowed)) == ACT_PASS):
            # It cannot save itself, and a dead player that must live has lost: sent on, the attack
            # breaks its "no kill" only if the new victim fails to beat it, so it goes to the player
            # likeliest to beat it (the Shopkeeper used to die rather than Redirect)
            target = sturdiest_target(s, p, strongest, stream)
            if target >= 0:
                return encode(ACT_REDIRECT, redirect_slot, strongest, target, 0)
    return save_attack(s, opts, p, urgent, stream, params, roles, True, allowed)


@kernel
def beating_chance(s, q, needed):
    """The chance that q holds a Battle card worth at least ``needed``, as anyone can count it: its
    hand (of known size) drawn from the cards of its deck not yet played (hand and undrawn deck)."""
    unseen = beating = 0
    for kind in range(DECK_SIZE):
        where = s[CARD_BASE + card_id(q, kind)]
        if where == LOC_DECK or where == LOC_HAND:
            unseen += 1
            if is_battle(kind) and kind + 1 >= needed:
                beating += 1
    missing = 1.0
    for i in range(hand_count(s, q)):
        if unseen - i <= 0:
            break
        missing *= max(0.0, (unseen - beating - i) / (unseen - i))
    return 1.0 - missing


@kernel
def sturdiest_target(s, p, a, stream):
    """The living player other than p that attack ``a`` may be sent to with the best chance to beat
    it (beating_chance); -1 if no one can (equal chances: at random)."""
    needed = attack_power(s, a)
    best = -1
    best_chance = 0.0
    ties = 0
    for q in range(s[H_PLAYERS]):
        if q == p or not alive(s, q) or not redirect_target_ok(s, p, a, q):
            continue
        chance = beating_chance(s, q, needed)
        if chance <= 0.0 or chance < best_chance:
            continue
        if chance > best_chance:
            best, best_chance, ties = q, chance, 1
        else:
            ties += 1
            if tie_wins(stream, ties):
                best = q
    return best


@kernel(inline="always")
def must_not_kill(s, roles, p):
    """A kill now would break its win condition (the Shopkeeper's 'no kill')."""
    limit = roles[s[pbase(p) + PL_ROLE], ROLE_MAX_KILLS]
    return limit >= 0 and s[pbase(p) + PL_KILLS] >= limit


@kernel(inline="always")
def hand_count(s, q):
    n = 0
    for h in range(HAND_SIZE):
        if hand_kind(s, q, h) != NO_CARD:
            n += 1
    return n


@kernel
def spend_modifier_anywhere(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, open_needs, p,
                            stream, allowed):
    """A role that must play its Modifiers (Alchemist) plays one wherever it is legal: Double or
    Halve in the direction its feelings about the victim point, the Bomb for the victim it likes
    best (for anyone if need be), the Redirect at its favourite target, or, when its own death is
    its route, kept for last and played onto itself."""
    redirect_slot = allowed_slot(s, p, REDIRECT, allowed, ACT_REDIRECT)
    bomb_slot = allowed_slot(s, p, BOMB, allowed, ACT_BOMB)
    double = allowed_slot(s, p, DOUBLE, allowed, ACT_DOUBLE)
    halve = allowed_slot(s, p, HALVE, allowed, ACT_HALVE)
    self_route = redirect_slot >= 0 and self_redirect_ok(s, opts, roles, want_kill, belief, p)
    # the Redirect is kept for last while its own death is the route (whatever Modifiers remain)
    keep_redirect = (opts[O_REDIRECT_CREDIT] and own_death_wins(s, opts, roles, belief, p, MAX_MODS)
                     and only_self_fits(s, want_kill, belief, p))
    target = -1
    if redirect_slot >= 0 and s[H_PHASE] == PHASE_COMBAT and not keep_redirect:
        target, score = best_target(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream)
    bomb_at = -1
    bomb_feeling = 0.0
    for a in range(s[H_ATTACK_TOP]):
        b = abase(a)
        if s[b + AT_STATE] != ATTACK_UNBEATEN or s[b + AT_VICTIM] == p or s[b + AT_MOD_COUNT] >= MAX_MODS:
            continue
        victim = s[b + AT_VICTIM]
        if self_route:
            return encode(ACT_REDIRECT, redirect_slot, a, p, SIDE_ATTACK)
        feeling = desire(s, roles, want_cond, want_kill, want_total, belief, grudge, open_needs, p, victim)
        if target >= 0 and redirect_target_ok(s, p, a, target):
            return encode(ACT_REDIRECT, redirect_slot, a, target, SIDE_ATTACK)
        has_def = s[b + AT_DEF_CARD] != NO_CARD
        if double >= 0:
            return encode(ACT_DOUBLE, double, a, 0, SIDE_ATTACK if feeling > 0.0 or not has_def else SIDE_DEFENCE)
        if halve >= 0:
            return encode(ACT_HALVE, halve, a, 0, SIDE_DEFENCE if feeling > 0.0 and has_def else SIDE_ATTACK)
        anchor = bomb_anchor(s, opts, victim)
        if bomb_slot >= 0 and anchor >= 0 and (bomb_at < 0 or feeling < bomb_feeling):
            bomb_at = anchor
            bomb_feeling = feeling
    if bomb_at >= 0:
        return encode(ACT_BOMB, bomb_slot, bomb_at, 0, 0)
    return ACT_PASS


@kernel
def support_action(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, params, p, stream, a,
                   open_needs, cycling, allowed):
    """What p does about another's unbeaten attack ``a``: help a player it wants alive (a cycling
    Shopkeeper helps anyone it does not want dead, and every role that must not kill beats its
    own attack), push an attack on a player it wants dead with a Modifier, or nothing (PASS)."""
    b = abase(a)
    victim = s[b + AT_VICTIM]
    feeling = desire(s, roles, want_cond, want_kill, want_total, belief, grudge, open_needs, p, victim)
    own_kill = s[b + AT_CREDIT] == p and must_not_kill(s, roles, p)
    if -feeling > 1.0 - params[p, P_HELPING] or (cycling and feeling <= 0.0) or own_kill:
        allow = may_spend_modifier(s, roles, params, p, stream)
        return save_attack(s, opts, p, a, stream, params, roles, allow, allowed)
    if feeling > 1.0 - params[p, P_AGGRESSION] and s[b + AT_MOD_COUNT] < MAX_MODS:
        if s[b + AT_DEF_CARD] != NO_CARD and may_spend_modifier(s, roles, params, p, stream):
            double = allowed_slot(s, p, DOUBLE, allowed, ACT_DOUBLE)
            if double >= 0:
                return encode(ACT_DOUBLE, double, a, 0, SIDE_ATTACK)
            halve = allowed_slot(s, p, HALVE, allowed, ACT_HALVE)
            if halve >= 0:
                return encode(ACT_HALVE, halve, a, 0, SIDE_DEFENCE)
    return ACT_PASS


@kernel
def overwritable(s, opts, p, target, slot):
    """Another's unbeaten attack on ``target`` that p's card in ``slot`` may overwrite; -1 if none."""
    if not opts[O_OVERWRITE]:
        return -1
    for a in range(s[H_ATTACK_TOP]):
        if s[abase(a) + AT_VICTIM] == target and may_overwrite(s, p, a, hand_kind(s, p, slot)):
            return a
    return -1


@kernel
def heuristic_act(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, params, p, stream, allowed):
    """The heuristic's move at a reaction, of a kind ``allowed`` leaves it (PASS if it finds none)."""
    if defending(s, p):
        return heuristic_defend(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, params, p, stream,
                                allowed)
    own = s[pbase(p) + PL_ROLE]
    open_needs = kill_needs_open(s, opts, roles, belief, p)
    cycling = roles[own, ROLE_DECK_SUM_MAX] >= 0 and deck_battle_sum(s, opts, p) > roles[own, ROLE_DECK_SUM_MAX]
    if wants_modifiers(s, roles, p):
        action = spend_modifier_anywhere(s, opts, roles, want_cond, want_kill, want_total, belief, grudge,
                                         open_needs, p, stream, allowed)
        if action_kind(action) != ACT_PASS:
            return action
    # the other combats, the one whose count ends first first (equal deadlines: at random)
    chosen = ACT_PASS
    chosen_deadline = 0
    ties = 0
    for a in range(s[H_ATTACK_TOP]):
        b = abase(a)
        if s[b + AT_STATE] != ATTACK_UNBEATEN or s[b + AT_VICTIM] == p:
            continue
        if chosen != ACT_PASS and s[b + AT_DEADLINE] > chosen_deadline:
            continue
        action = support_action(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, params, p, stream,
                                a, open_needs, cycling, allowed)
        if action_kind(action) == ACT_PASS:
            continue
        if chosen == ACT_PASS or s[b + AT_DEADLINE] < chosen_deadline:
            chosen = action
            chosen_deadline = s[b + AT_DEADLINE]
            ties = 1
        else:
            ties += 1
            if tie_wins(stream, ties):
                chosen = action
    if chosen != ACT_PASS:
        return chosen
    if s[H_PHASE] != PHASE_COMBAT or extreme_battle(s, p, True) < 0:
        return ACT_PASS
    target, score = best_target(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream)
    if target < 0:
        return ACT_PASS
    if must_not_kill(s, roles, p):
        # cycle the deck by burning its lowest card on a free player holding cards, when that card
        # is low enough for the target to beat or it holds a higher one to beat the attack itself
        slot = extreme_battle(s, p, False)
        value = hand_kind(s, p, slot) + 1
        safe = value <= SAFE_BURN_VALUE or extreme_battle(s, p, True) != slot
        if (allows(allowed, ACT_ATTACK) and cycling and safe and s[pbase(target) + PL_UNBEATEN_ON] == 0
                and hand_count(s, target) >= HAND_SIZE - 1):
            return encode(ACT_ATTACK, slot, 0, target, 0)
        return ACT_PASS
    slot = extreme_battle(s, p, True)
    if score <= 1.0 - params[p, P_AGGRESSION]:
        return ACT_PASS
    if open_needs and allows(allowed, ACT_OVERWRITE):  # it needs the credit: take over another's attack
        a = overwritable(s, opts, p, target, slot)     # on the target where the rules allow
        if a >= 0:
            return encode(ACT_OVERWRITE, slot, a, 0, 0)
    return encode(ACT_ATTACK, slot, 0, target, 0) if allows(allowed, ACT_ATTACK) else ACT_PASS


@kernel
def believes_won(s, opts, roles, belief, p):
    """p's own reading of its win condition now: its kill class and the role conditions judged by
    its beliefs."""
    if not own_conditions_met(s, opts, roles, p) or not believed_kill_class_met(s, opts, roles, belief, p):
        return False
    own = s[pbase(p) + PL_ROLE]
    count = roles[own, ROLE_COND_COUNT]
    if count == 0:
        return True
    hits = 0
    for c in range(count):
        role = roles[own, ROLE_COND_BASE + 2 * c]
        want_alive = roles[own, ROLE_COND_BASE + 2 * c + 1]
        mass = 0.0
        for q in range(s[H_PLAYERS] if role >= 0 else 0):  # a role not in play never holds
            if s[pbase(q) + PL_ALIVE] == want_alive:
                mass += belief[p, q, role]
        if mass >= BELIEVED:
            hits += 1
    return conditions_hold(roles, own, hits)


@kernel
def heuristic_continue(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream):
    """The attack it continues a vote with: its favourite target, its highest card (a role that
    must not kill risks its lowest); PASS if it has none."""
    target, score = best_target(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream)
    slot = extreme_battle(s, p, not must_not_kill(s, roles, p))
    if target < 0 or slot < 0:
        return ACT_PASS
    return encode(ACT_ATTACK, slot, 0, target, 0)


@kernel
def heuristic_vote(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, params, p, stream, allowed):
    """End (PASS) when it believes it has won; otherwise continue (by attacking) with P_STUBBORN;
    ``allowed``: the DK_VOTE answers left to it."""
    if (allowed >> VOTE_END) & 1 and (believes_won(s, opts, roles, belief, p)
                                      or not chance(stream, params[p, P_STUBBORN])):
        return ACT_PASS
    return heuristic_continue(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream)


@kernel
def heuristic_claim(s, codes, params, role_count, p, stream, allowed):
    """The truth, or with its role's lying probability (P_LYING_*, by the role's symbols) another
    role in play (chosen by copies in play), among the DK_CLAIM answers ``allowed``."""
    own = s[pbase(p) + PL_ROLE]
    if s[pbase(p) + PL_ASSAILANT]:
        lying = heuristic_param(codes, params, p, P_LYING_ASSAILANT)
    elif s[pbase(p) + PL_ROYAL]:
        lying = heuristic_param(codes, params, p, P_LYING_ROYALTY)
    else:
        lying = heuristic_param(codes, params, p, P_LYING_COMMONER)
    lies = allowed & ~(1 << CLAIM_TRUTH)
    if lies == 0 or ((allowed >> CLAIM_TRUTH) & 1 and not chance(stream, lying)):
        return CLAIM_TRUTH
    total = 0
    for r in range(role_count.shape[0]):
        if r != own and (lies >> claim_bit(r, own)) & 1:
            total += role_count[r]
    pick = below(stream, total)
    for r in range(role_count.shape[0]):
        if r != own and (lies >> claim_bit(r, own)) & 1:
            if pick < role_count[r]:
                return claim_bit(r, own)
            pick -= role_count[r]
    return CLAIM_TRUTH


@kernel
def heuristic_credit(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, victim, stream, allowed):
    """The dying defender credits, among the equal simultaneous attacks ``allowed`` (DK_CREDIT),
    the one whose credited player it likes best (equal liking: at random)."""
    best = -1
    best_score = 1e9
    ties = 0
    open_needs = kill_needs_open(s, opts, roles, belief, victim)
    for a in range(s[H_ATTACK_TOP]):
        if not (allowed >> a) & 1:
            continue
        credited = s[abase(a) + AT_CREDIT]
        score = desire(s, roles, want_cond, want_kill, want_total, belief, grudge, open_needs, victim, credited)
        if best < 0 or score < best_score - TIE_EPS:
            best = a
            best_score = score
            ties = 1
        elif score <= best_score + TIE_EPS:
            ties += 1
            if tie_wins(stream, ties):
                best = a
    return best


# ---- answering a posed decision -----------------------------------------------------------------
@kernel
def step_answer(s, action, kind):
    """The answer to a step of kind ``kind`` that the move ``action`` gives."""
    if kind == DK_ACTION:
        return action_kind(action)
    if kind == DK_VOTE:
        return VOTE_END if action_kind(action) == ACT_PASS else VOTE_CONTINUE
    if kind == DK_TARGET:
        return action_target(action)
    if kind == DK_CARD:
        return action_slot(action)
    if kind == DK_ATTACK:
        return action_attack(action)
    if kind == DK_SIDE:
        return action_side(action)
    return action_target(action) + MAX_PLAYERS * action_side(action)  # DK_REDIRECT_TO


@kernel
def fits_move(s, action):
    """``action`` agrees with every step of the move under way answered so far."""
    steps = s[H_MOVE_STEPS]
    for kind in (DK_ACTION, DK_TARGET, DK_CARD, DK_ATTACK, DK_SIDE, DK_REDIRECT_TO):
        if (steps >> kind) & 1 and step_answer(s, action, kind) != step_answer(s, s[H_MOVE], kind):
            return False
    return not ((steps >> DK_VOTE) & 1) or action_kind(action) == ACT_ATTACK


@kernel
def heuristic_plan(s, opts, roles, want_cond, want_kill, want_total, params, belief, grudge, marks, p, stream):
    """The move the heuristic makes, planned at the first step of a move it is asked: at a
    reaction (it waits while nothing has changed since it last chose to wait), at a vote, or
    (when the first steps were forced) of the kind already chosen."""
    kind = s[D_KIND]
    if kind == DK_VOTE:
        return heuristic_vote(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, params, p, stream,
                              s[D_CHOICES])
    if (s[H_MOVE_STEPS] >> DK_VOTE) & 1:
        return heuristic_continue(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream)
    allowed = 1 << action_kind(s[H_MOVE])
    if kind == DK_ACTION:  # kinds not legal now stay open to its plans (a defence for a Bomb to sit on)
        allowed = s[D_CHOICES] | ~s[H_POSED_LEGAL]
    if allows(allowed, ACT_PASS) and marks[MARK_SEEN, p] == s[H_VERSION]:
        return ACT_PASS  # nothing changed since it last chose to wait
    action = heuristic_act(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, params, p, stream,
                           allowed)
    marks[MARK_SEEN, p] = s[H_VERSION] if action == ACT_PASS else NOT_SEEN
    return action


@kernel
def planned_answer(s, marks, p, plan, stream):
    """Answer the posed step from the seat's plan for this move (kept for its later steps); at
    random among the answers left when the plan does not fit them (a restriction took its choice,
    or it found no move of the kind it must make)."""
    marks[MARK_PLAN, p] = plan
    marks[MARK_PLAN_MOVE, p] = s[H_MOVE_SERIAL]
    if plan != NO_PLAN and fits_move(s, plan):
        answer = step_answer(s, plan, s[D_KIND])
        if (s[D_CHOICES] >> answer) & 1:
            return answer
    return random_answer(s, stream)


@kernel(inline="always")  # into the loop: a call would pass the whole mind at every decision
def policy(s, table, p, code, params_row, stream, mind):
    """p's answer to the posed decision (already narrowed by its restriction; the engine's decide
    has answered forced decisions and the random player): the heuristic's, which chooses only among
    the answers left in D_CHOICES, so a restriction binds it without its knowing. A move posed in
    steps is planned once, at its first step the policy is asked, and answered from that plan. A
    search seat's move at a reaction gets its kind and an attack's target from the search (SEARCH:
    ``search_at``). ``mind``: what the policies read besides the state (MIND_*)."""
    opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, marks, search = mind
    kind = s[D_KIND]
    choices = s[D_CHOICES]
    if kind == DK_CLAIM:
        return heuristic_claim(s, codes, params, role_count, p, stream, choices)
    if kind == DK_CREDIT:
        return heuristic_credit(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream, choices)
    if code == POLICY_ISMCTS:
        return SEARCH
    if code == POLICY_SEARCH and searched_step(s, kind):
        if kind == DK_ACTION and (choices >> ACT_PASS) & 1 and marks[MARK_SEEN, p] == s[H_VERSION]:
            return ACT_PASS  # nothing changed since it last chose to wait (as the heuristic waits)
        return SEARCH
    planned = marks[MARK_PLAN_MOVE, p] == s[H_MOVE_SERIAL]
    plan = marks[MARK_PLAN, p] if planned else NO_PLAN
    if not planned or not fits_move(s, plan):
        # plan now, or again when a restriction made the move another kind than planned
        plan = heuristic_plan(s, opts, roles, want_cond, want_kill, want_total, params, belief, grudge, marks, p,
                              stream)
    return planned_answer(s, marks, p, plan, stream)


@kernel(inline="always")
def searched_step(s, kind):
    """The steps the search decides: a reaction's kind of move and an attack's target (not a
    vote's)."""
    return kind == DK_ACTION or (kind == DK_TARGET and not (s[H_MOVE_STEPS] >> DK_VOTE) & 1)


@kernel(inline=inlined_into("play_on"))  # as observe_claim
def observe_action(s, codes, params, want_total, belief, grudge, p, action, victim_before):
    """Public consequences of an action for the listeners' beliefs."""
    kind = action_kind(action)
    if kind == ACT_ATTACK or kind == ACT_REDIRECT:
        observe_hostility(s, codes, params, want_total, belief, grudge, p, action_target(action), 1.0)
    elif kind == ACT_OVERWRITE:
        observe_hostility(s, codes, params, want_total, belief, grudge, p, victim_before, 1.0)
    elif kind == ACT_DEFEND and victim_before != p:
        observe_hostility(s, codes, params, want_total, belief, grudge, p, victim_before, -1.0)


@kernel(inline="always")  # into the loop: a call would pass the whole mind (twelve arrays) at every answer
def observe(s, mind):
    """Every listener's beliefs after what the last answer showed the table (rules.seen)."""
    opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, marks, search = mind
    what = seen(s)
    if what == SEEN_CLAIM:
        observe_claim(s, codes, params, role_count, belief, s[H_SEEN_ACTOR], s[H_SEEN_ACTION])
    elif what == SEEN_ACTION:
        observe_action(s, codes, params, want_total, belief, grudge, s[H_SEEN_ACTOR], s[H_SEEN_ACTION],
                       s[H_SEEN_VICTIM])


# ---- the rules' verbs over the table (rules' table, mind): the policies observe every answer -------
@kernel(inline="always")
def step_advance(s, table):
    advance(s, table[0])


@kernel(inline="always")
def step_apply(s, table, answer):
    """The answer applied by the rules, then seen by every listener."""
    apply_answer(s, table[0], answer)
    observe(s, table[1])


# ---- the search policy's per-game pieces (the driver is balance.engine.search) -----------------
# The search's buffers (one set per block of games; new_search_buffers). Int rows, STATE_SIZE wide:
SEARCH_SAMPLED = 0  # a sampled world
SEARCH_WORLD = 1  # the world a rollout plays on
SEARCH_CODES = 2  # every rollout player's policy code
SEARCH_PLAN = 3  # [PLAN_*]: the number of roles in play, its favourite attack, the rollouts' dice
SEARCH_ROLE_COUNT = 4  # copies of each role in the setup
SEARCH_LEFT = 5  # scratch: copies of each role still to deal
SEARCH_POOL = 6  # scratch: seats or cards to shuffle
SEARCH_CANDIDATES = 7  # the rollouts' credit candidates
SEARCH_MARKS = 8  # MARKS rows: the rollout players' policy memory (search_marks)
SEARCH_WEIGHTS = SEARCH_MARKS + MARKS  # MAX_PLAYERS rows: the searcher's evidence about each player's role
SEARCH_ROLES = SEARCH_WEIGHTS + MAX_PLAYERS  # MAX_PLAYERS rows: the role table (search_roles)
SEARCH_INT_ROWS = SEARCH_ROLES + MAX_PLAYERS
PLAN_ROLES, PLAN_ATTACK, PLAN_DICE, PLAN_DICE_END = range(4)  # dice: a sampled world's rollouts' first
# draw on the stream's counter (every candidate of a world plays with the same dice) and the last one used
# Float rows, SEARCH_WIDTH wide:
SEARCH_TOTALS = 0  # the driver's total per candidate
SEARCH_PARAMS = 1  # MAX_PLAYERS rows: every rollout player's parameters
SEARCH_GRUDGE = SEARCH_PARAMS + MAX_PLAYERS  # MAX_PLAYERS rows: the grudges on the table (attacks seen)
SEARCH_ROLLOUT_GRUDGE = SEARCH_GRUDGE + MAX_PLAYERS  # MAX_PLAYERS rows: a rollout's grudges (rollout_grudge)
SEARCH_OWN_BELIEF = SEARCH_ROLLOUT_GRUDGE + MAX_PLAYERS  # MAX_PLAYERS rows: the searcher's beliefs
SEARCH_WANT_COND = SEARCH_OWN_BELIEF + MAX_PLAYERS  # MAX_PLAYERS rows each: the role matrices (search_want)
SEARCH_WANT_KILL = SEARCH_WANT_COND + MAX_PLAYERS
SEARCH_WANT_TOTAL = SEARCH_WANT_KILL + MAX_PLAYERS
SEARCH_BELIEF = SEARCH_WANT_TOTAL + MAX_PLAYERS  # MAX_PLAYERS**2 rows: a rollout's belief[observer, player, role]
# (packed, as the tables marked so are: the functions below)
SEARCH_FLOAT_ROWS = SEARCH_BELIEF + MAX_PLAYERS * MAX_PLAYERS
SEARCH_WIDTH = MAX_POLICY_PARAMS  # at least the roles in play, the seats and the kinds of move
WEIGHT_SCALE = 1 << 30  # the searcher's evidence as integers (a sampled world is dealt from int rows)


@allocating_kernel
def new_search_buffers():
    """The searches' buffers: the flat search's (rows above: int matrix, float matrix, the rollouts'
    restrictions), the tree search's rollout beliefs [observer, player, role] and its tree's words
    (balance.engine.ismcts.ismcts_buffers)."""
    ints, floats, restrict = search_buffers(SEARCH_INT_ROWS, STATE_SIZE, SEARCH_FLOAT_ROWS, SEARCH_WIDTH, MAX_PLAYERS)
    return (ints, floats, restrict, np.zeros((MAX_PLAYERS, MAX_PLAYERS, MAX_PLAYERS), dtype=np.float64),
            ismcts_buffers(STATE_SIZE, MAX_PLAYERS, MAX_POLICY_PARAMS))


# The search buffers' copies of the tables the policies read, each packed C-contiguous at the start of
# its rows as the batch's own tables are (balance.engine.search.packed): the heuristic the rollouts
# play is then the batch's compiled heuristic, not a second copy for views of another layout.
@kernel(inline="always")
def search_roles(ints, n):
    """The role table of the n roles in play (prepare_search's copy)."""
    return packed(ints[SEARCH_ROLES:SEARCH_INT_ROWS], (n, ROLE_FIELDS))


@kernel(inline="always")
def search_want(floats, first, n):
    """One of the role matrices (rows ``first``: SEARCH_WANT_COND, _KILL or _TOTAL), n x n."""
    return packed(floats[first:first + MAX_PLAYERS], (n, n))


@kernel(inline="always")
def search_marks(ints, players):
    """The rollout players' policy memory."""
    return packed(ints[SEARCH_MARKS:SEARCH_MARKS + MARKS], (MARKS, players))


@kernel(inline="always")
def rollout_grudge(floats):
    """A rollout's grudges [player, player]."""
    return packed(floats[SEARCH_ROLLOUT_GRUDGE:SEARCH_OWN_BELIEF], (MAX_PLAYERS, MAX_PLAYERS))


@kernel(inline="always")
def evidence(belief, role_count, seat, own, p, r):
    """What the seat's beliefs about p say of role r beyond the prior they started from (the
    setup's roles less its own): the likelihood of what it heard and saw."""
    prior = role_count[r] - (1 if r == own else 0)
    return belief[seat, p, r] / prior if prior > 0 else 0.0


@kernel
def prepare_search(s, seat, roles, want_cond, want_kill, want_total, role_count, belief, grudge, ints, floats):
    """The search buffers' copy of what its worlds and rollouts read: the role table and matrices,
    the grudges on the table, the seat's beliefs and its evidence about every player's role (as
    integer weights, the largest WEIGHT_SCALE)."""
    n = role_count.shape[0]
    own = s[pbase(seat) + PL_ROLE]
    ints[SEARCH_PLAN, PLAN_ROLES] = n
    roles_copy = search_roles(ints, n)
    cond_copy, kill_copy, total_copy = (search_want(floats, SEARCH_WANT_COND, n),
                                        search_want(floats, SEARCH_WANT_KILL, n),
                                        search_want(floats, SEARCH_WANT_TOTAL, n))
    for r in range(n):
        ints[SEARCH_ROLE_COUNT, r] = role_count[r]
        for f in range(ROLE_FIELDS):
            roles_copy[r, f] = roles[r, f]
        for v in range(n):
            cond_copy[r, v] = want_cond[r, v]
            kill_copy[r, v] = want_kill[r, v]
            total_copy[r, v] = want_total[r, v]
    for p in range(s[H_PLAYERS]):
        for q in range(s[H_PLAYERS]):
            floats[SEARCH_GRUDGE + p, q] = grudge[p, q]
        top = 0.0
        for r in range(n):
            floats[SEARCH_OWN_BELIEF + p, r] = belief[seat, p, r]
            top = max(top, evidence(belief, role_count, seat, own, p, r))
        for r in range(n):
            weight = evidence(belief, role_count, seat, own, p, r) / top if top > 0.0 else 0.0
            ints[SEARCH_WEIGHTS + p, r] = np.int64(weight * WEIGHT_SCALE)


@kernel
def draw_role(ints, p, n, rng):
    """A role for p among the copies left to deal, by the seat's evidence about p times the copies
    left (by the copies alone when its evidence rules out every role left)."""
    total = 0
    for r in range(n):
        total += ints[SEARCH_WEIGHTS + p, r] * ints[SEARCH_LEFT, r]
    by_evidence = total > 0
    if not by_evidence:
        for r in range(n):
            total += ints[SEARCH_LEFT, r]
    pick = below(rng, total)
    role = 0
    for r in range(n):
        weight = ints[SEARCH_LEFT, r] * (ints[SEARCH_WEIGHTS + p, r] if by_evidence else 1)
        if pick < weight:
            role = r
            break
        pick -= weight
    return role


@kernel
def deal_roles(s, seat, opts, roles, ints, rng):
    """Every other player's role dealt again from the setup's roles less the seat's own, the
    players in random order, each by draw_role; its symbols follow (a skull stays only on a player
    who has not killed)."""
    n = ints[SEARCH_PLAN, PLAN_ROLES]
    own = s[pbase(seat) + PL_ROLE]
    royal_col = ROLE_ROYAL_ART if opts[O_ART_SYMBOLS] else ROLE_ROYAL_DEFAULT
    skull_col = ROLE_ASSAILANT_ART if opts[O_ART_SYMBOLS] else ROLE_ASSAILANT_DEFAULT
    for r in range(n):
        ints[SEARCH_LEFT, r] = ints[SEARCH_ROLE_COUNT, r] - (1 if r == own else 0)
    others = 0
    for p in range(s[H_PLAYERS]):
        if p != seat:
            ints[SEARCH_POOL, others] = p
            others += 1
    shuffle(rng, ints[SEARCH_POOL], others)
    for i in range(others):
        p = ints[SEARCH_POOL, i]
        role = draw_role(ints, p, n, rng)
        ints[SEARCH_LEFT, role] -= 1
        b = pbase(p)
        s[b + PL_ROLE] = role
        s[b + PL_ROYAL] = roles[role, royal_col]
        s[b + PL_ASSAILANT] = roles[role, skull_col] if s[b + PL_KILLS] == 0 else 0


@kernel(inline="always")
def killed_before_dying(s, v):
    """v was credited with a kill before its own death."""
    for w in range(s[H_PLAYERS]):
        if (s[pbase(w) + PL_KILLED_BY] == v and not alive(s, w)
                and s[pbase(w) + PL_DEATH_ORDER] < s[pbase(v) + PL_DEATH_ORDER]):
            return True
    return False


@kernel
def record_kills(s, opts, roles):
    """Every player's record of whom it killed (the classes and roles of its victims), rebuilt from
    the roles at the seats as combat.kill records it: a victim was an Assailant if its role has a
    skull and it had killed nobody before it died."""
    skull_col = ROLE_ASSAILANT_ART if opts[O_ART_SYMBOLS] else ROLE_ASSAILANT_DEFAULT
    for p in range(s[H_PLAYERS]):
        s[pbase(p) + PL_KILL_FLAGS] = 0
        s[pbase(p) + PL_KILLED_ROLES] = 0
    for v in range(s[H_PLAYERS]):
        vb = pbase(v)
        killer = s[vb + PL_KILLED_BY]
        if alive(s, v) or killer < 0:
            continue
        flags = KF_ROYAL if s[vb + PL_ROYAL] else KF_COMMONER
        if roles[s[vb + PL_ROLE], skull_col] and not killed_before_dying(s, v):
            flags |= KF_ASSAILANT
            if not s[vb + PL_ROYAL]:
                flags |= KF_ASSAILANT_NOT_ROYAL
        s[pbase(killer) + PL_KILL_FLAGS] |= flags
        s[pbase(killer) + PL_KILLED_ROLES] |= 1 << s[vb + PL_ROLE]


@kernel
def shuffle_unseen_cards(s, p, with_hand, pool, rng):
    """p's cards nobody has seen shuffled anew: its undrawn deck and, ``with_hand``, its hand (each
    keeps its count); the drawn part of the deck order is rewritten to the cards now out of it.
    The cards are gathered in kind order, so where they lay does not change the shuffle."""
    b = pbase(p)
    top = s[b + PL_DECK_POS]
    n = 0
    for kind in range(DECK_SIZE):
        where = s[CARD_BASE + card_id(p, kind)]
        if where == LOC_DECK or (with_hand and where == LOC_HAND):
            pool[n] = kind
            n += 1
    shuffle(rng, pool, n)
    i = 0
    if with_hand:
        for h in range(HAND_SIZE):
            if s[b + PL_HAND + h] != NO_CARD:
                s[b + PL_HAND + h] = pool[i]
                s[CARD_BASE + card_id(p, pool[i])] = LOC_HAND
                i += 1
    for k in range(top, DECK_SIZE):
        s[b + PL_DECK + k] = pool[i]
        s[CARD_BASE + card_id(p, pool[i])] = LOC_DECK
        i += 1
    k = 0
    for kind in range(DECK_SIZE):
        if s[CARD_BASE + card_id(p, kind)] != LOC_DECK:
            s[b + PL_DECK + k] = kind
            k += 1


@kernel(inline="always")
def unseen_wait(stream):
    """The wait until the next reaction of a player the seat cannot time: a uniform share of a
    default player's delay."""
    return np.int64(uniform(stream) * delay_ms(HEURISTIC_DEFAULTS[P_REACTION_MEAN],
                                               HEURISTIC_DEFAULTS[P_REACTION_SPREAD], stream))


@kernel(DETERMINIZE_SIGNATURE)
def sample_world(state, sampled, seat, opts, ints, rng):
    """A world consistent with what ``seat`` knows (the module docstring: claims, actions, deaths
    and credits, its own role and cards), built from that view alone: a copy of the state in which
    every other player's role is dealt again (deal_roles: by the seat's beliefs, so a heard claim
    counts only as much as it trusts it), the kill records follow the dealt roles (roles stay
    hidden until the end, its own victims' too), every other hand and every undrawn deck (its own
    too) is shuffled anew, and every other player's next reaction is drawn anew."""
    copy_world(sampled, state, STATE_SIZE)
    roles = search_roles(ints, ints[SEARCH_PLAN, PLAN_ROLES])
    deal_roles(sampled, seat, opts, roles, ints, rng)
    record_kills(sampled, opts, roles)
    for p in range(sampled[H_PLAYERS]):
        shuffle_unseen_cards(sampled, p, p != seat, ints[SEARCH_POOL], rng)
        if p != seat and alive(sampled, p):
            sampled[pbase(p) + PL_READY_AT] = sampled[H_NOW] + unseen_wait(rng)
    ints[SEARCH_PLAN, PLAN_DICE] = np.int64(rng[COUNTER])
    ints[SEARCH_PLAN, PLAN_DICE_END] = np.int64(rng[COUNTER])


@kernel(inline="always")
def roll_same_dice(ints, rng):
    """A rollout of the current world draws from where that world's rollouts start (common random
    numbers: the candidates differ by their move, not by their luck)."""
    rng[COUNTER] = np.uint64(ints[SEARCH_PLAN, PLAN_DICE])


@kernel(inline="always")
def put_dice_away(ints, rng):
    """After a rollout the stream goes on past every draw the world's rollouts have made."""
    ints[SEARCH_PLAN, PLAN_DICE_END] = max(ints[SEARCH_PLAN, PLAN_DICE_END], np.int64(rng[COUNTER]))
    rng[COUNTER] = np.uint64(ints[SEARCH_PLAN, PLAN_DICE_END])


@kernel
def dress_world(s, seat, codes, params, role_count, belief, grudge, floats):
    """A rollout's beliefs and grudges in a sampled world, from what the seat knows: its own beliefs
    as they are; every other player's from its dealt role and the claims it heard, at its trust
    (what it inferred from the fighting would need its true role); the grudges as on the table."""
    init_beliefs(s, role_count, belief, grudge)
    players = s[H_PLAYERS]
    for p in range(players):
        claim = s[pbase(p) + PL_CLAIM]
        if claim >= 0:
            observe_claim(s, codes, params, role_count, belief, p, claim)
    for p in range(players):
        for q in range(players):
            grudge[p, q] = floats[SEARCH_GRUDGE + p, q]
        for r in range(role_count.shape[0]):
            belief[seat, p, r] = floats[SEARCH_OWN_BELIEF + p, r]


# ---- the search policy's answer and its rollouts --------------------------------------------------
@kernel
def prepare_rollouts(s, seat, roles, want_cond, want_kill, want_total, role_count, belief, grudge, restrict, ints,
                     floats, rollout_restrict):
    """The search buffers for ``seat``'s search (prepare_search) and its rollout players: every
    seat the heuristic at its defaults, the searcher with its own restriction."""
    prepare_search(s, seat, roles, want_cond, want_kill, want_total, role_count, belief, grudge, ints, floats)
    seat_rollout_players(s[H_PLAYERS], seat, restrict, POLICY_HEURISTIC, HEURISTIC_DEFAULTS, ints[SEARCH_CODES],
                         floats[SEARCH_PARAMS:], rollout_restrict)


@kernel
def plan_move(marks, s, p, move):
    """``move`` is p's plan for the move under way (its later steps are answered from it)."""
    marks[MARK_PLAN, p] = move
    marks[MARK_PLAN_MOVE, p] = s[H_MOVE_SERIAL]


@kernel
def search_at(s, table, p, code, params_row, restrict, stream, mind):
    """The search's answer at p's reaction (the engine's search, balance.engine.search, with
    ``sample_world`` and ``play_out``): the kind of its move, or an attack's target. An attack is
    made with the card its heuristic favours (``heuristic_continue``, planned here: a searched
    attack's card step is answered from that plan); a kind searched to pass is kept while nothing
    changes, as the heuristic waits."""
    opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, marks, search = mind
    ints, floats, rollout_restrict, rollout_belief, tree_words = search
    if code == POLICY_ISMCTS:
        return tree_search(s, p, params_row, restrict, stream, mind)
    kind = s[D_KIND]
    if kind == DK_TARGET and marks[MARK_PLAN_MOVE, p] == s[H_MOVE_SERIAL]:
        attack = marks[MARK_PLAN, p]
    elif kind == DK_TARGET or (s[D_CHOICES] >> ACT_ATTACK) & 1:
        attack = heuristic_continue(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream)
    else:
        attack = encode(ACT_PASS, 0, 0, 0, 0)
    ints[SEARCH_PLAN, PLAN_ATTACK] = attack
    prepare_rollouts(s, p, roles, want_cond, want_kill, want_total, role_count, belief, grudge, restrict, ints,
                     floats, rollout_restrict)
    answer = search_answer(s, int(params_row[P_ROLLOUTS]), opts, params_row, rollout_restrict, ints[SEARCH_SAMPLED],
                           ints[SEARCH_WORLD], floats[SEARCH_TOTALS], ints, floats, stream, sample_world, play_out)
    if kind == DK_TARGET:
        plan_move(marks, s, p, encode(ACT_ATTACK, action_slot(attack), 0, answer, 0))
        return answer
    marks[MARK_SEEN, p] = s[H_VERSION] if answer == ACT_PASS else NOT_SEEN
    if answer == ACT_ATTACK:
        plan_move(marks, s, p, attack)
    else:
        marks[MARK_PLAN_MOVE, p] = NO_PLAN  # its heuristic plans a move of that kind at its next step
    return answer


@kernel(ROLLOUT_SIGNATURE)
def play_out(world, answer, seat, opts, params, restrict, ints, floats, rng):
    """The search's rollout (balance.engine.search): in a sampled world, ``seat``'s pending step
    answered with the candidate ``answer`` (a kind of move, whose attack is its favourite one; or,
    at the target step, the target of that attack), then the game played on through the rules' own
    step loop to its end, or for ``horizon`` seconds, every player the heuristic at its defaults
    (rows prepare_search and seat_rollout_players filled, beliefs dressed from the seat's view),
    with the world's dice; scored 1 if the seat's win condition holds then, else 0. No trace."""
    n = ints[SEARCH_PLAN, PLAN_ROLES]
    players = world[H_PLAYERS]
    roles = search_roles(ints, n)
    role_count = ints[SEARCH_ROLE_COUNT, :n]
    want_cond = search_want(floats, SEARCH_WANT_COND, n)
    want_kill = search_want(floats, SEARCH_WANT_KILL, n)
    want_total = search_want(floats, SEARCH_WANT_TOTAL, n)
    codes = ints[SEARCH_CODES, :players]
    rollout_params = floats[SEARCH_PARAMS:SEARCH_PARAMS + players]
    grudge = rollout_grudge(floats)
    belief = packed(floats[SEARCH_BELIEF:SEARCH_FLOAT_ROWS], (MAX_PLAYERS, MAX_PLAYERS, n))
    marks = search_marks(ints, players)
    candidates = ints[SEARCH_CANDIDATES, :MAX_ATTACKS]
    no_legal = ints[SEARCH_CANDIDATES, :0]
    no_trace = no_rows(ints)
    roll_same_dice(ints, rng)
    dress_world(world, seat, codes, rollout_params, role_count, belief, grudge, floats)
    forget_plans(marks)
    attack = ints[SEARCH_PLAN, PLAN_ATTACK]
    if world[D_KIND] == DK_TARGET:
        plan_move(marks, world, seat, encode(ACT_ATTACK, action_slot(attack), 0, answer, 0))
    elif answer == ACT_ATTACK:
        plan_move(marks, world, seat, attack)
    horizon = params[P_HORIZON] * MS_PER_SECOND
    if horizon > 0:
        world[H_STOP_AT] = world[H_NOW] + np.int64(horizon)
    table = ((opts, roles, rollout_params, role_count, rng, no_trace, no_legal, candidates, False),
             (opts, roles, want_cond, want_kill, want_total, role_count, codes, rollout_params, belief, grudge, marks,
              (ints, floats, restrict)))
    step_apply(world, table, answer)
    play(world, table, rng, codes, rollout_params, restrict, table[1], step_advance, over, pose_pending, step_apply,
         policy, no_search)
    put_dice_away(ints, rng)
    return score(world, seat)


# ---- the tree search (balance.engine.ismcts) -------------------------------------------------------
# Its worlds are played with a table of their own: (the rules' table and the rollout players' mind, that
# mind), so a world is dealt and its players' beliefs dressed from the one table (``dressed_world``).
@kernel(inline="always")
def tree_advance(s, table):
    advance(s, table[0][0])


@kernel(inline="always")
def tree_apply(s, table, answer):
    apply_answer(s, table[0][0], answer)
    observe(s, table[1])


@kernel
def dressed_world(state, world, seat, table, ints, rng):
    """A world dealt from ``seat``'s view (``sample_world``) with its rollout players' beliefs and
    grudges dressed from what the seat knows (``dress_world``) and no plans yet."""
    rules_table, mind = table
    opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, marks, search = mind
    sample_world(state, world, seat, opts, ints, rng)
    dress_world(world, seat, codes, params, role_count, belief, grudge, search[1])
    forget_plans(marks)


@kernel
def tree_finish(world, table, rng, codes, params, restrict, mind):
    """A tree search's rollout: the world played to the end of the game through the rules' own loop."""
    play(world, table, rng, codes, params, restrict, mind, tree_advance, over, pose_pending, tree_apply, policy,
         no_search)


@kernel(inline="always")  # into search_at: no compiled copy of the whole search of its own (docs/speed.md)
def tree_search(s, p, params_row, restrict, stream, mind):
    """The tree search's answer for p (balance.engine.ismcts): worlds dealt from its view (every other
    role drawn by its beliefs, hidden cards shuffled), every rollout player the heuristic at its
    defaults with beliefs dressed from what p knows, scored by p's win where the world's game ends."""
    opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, marks, search = mind
    ints, floats, rollout_restrict, rollout_belief, tree_words = search
    tree = ismcts_views(tree_words, STATE_SIZE, MAX_PLAYERS, MAX_POLICY_PARAMS)
    players = s[H_PLAYERS]
    prepare_search(s, p, roles, want_cond, want_kill, want_total, role_count, belief, grudge, ints, floats)
    rollout_mind = (opts, roles, want_cond, want_kill, want_total, role_count, tree[3][:players], tree[4][:players],
                    packed(rollout_belief, (MAX_PLAYERS, MAX_PLAYERS, role_count.shape[0])), rollout_grudge(floats),
                    search_marks(ints, players), search)
    rules_table = (opts, roles, tree[4][:players], role_count, stream, no_rows(ints),
                   ints[SEARCH_CANDIDATES, :0], ints[SEARCH_CANDIDATES, :MAX_ATTACKS], False)
    table = ((rules_table, rollout_mind), rollout_mind)
    return ismcts_answer(s, table, stream, players, params_row[TREE_PARAMS_AT:], POLICY_HEURISTIC, HEURISTIC_DEFAULTS, restrict,
                         rollout_mind, tree, ints, tree_advance, over, pose_pending, tree_apply, policy,
                         dressed_world, tree_finish, score)
