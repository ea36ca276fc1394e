"""DETHRONED's rules kernel: the game from the deal to the reveal, and the batch entry point.

One game: the deal (roles to seats, each deck shuffled, three cards each), the discussion phase
(claims clockwise from a random first player), then real time. The next event is whichever
comes first: the earliest deadline of an unbeaten attack (its victim dies) or the earliest
reaction of a living player (it draws back to three if free to, then acts). After a death the
game pauses: remaining attacks resolve (no new attacks or Redirects), then the living vote; a
player continues the game by attacking, the fastest such player's attack stands. An impasse
(every living player passed again and again with nothing on the table) is a vote too; nobody
able to attack ever again is a stalemate. A decision cap ends every game. The combat rules
themselves (legality, actions, deaths, win checks) are in combat.py.

The search policy chooses its move at the start of its reaction, once it has drawn
(fix_searched_move, in the game's event loop): the kind of move and, for an attack, the target,
fixed as the PREFER masks of those steps. Its rollouts play the same events with the heuristic, so
the rules reach the search only from that loop, never from inside an event.
"""

import numpy as np
from numba import prange

from balance.engine.decision import D_KIND, PREFER, answer_of, forced, pose
from balance.engine.kernels import allocating_kernel, kernel, seat_policies, seat_restrictions, split_game_index
from balance.engine.rng import STREAM_SIZE, below, open_stream, shuffle
from balance.engine.search import ROLLOUT_SIGNATURE, search_answer, seat_rollout_players
from balance.games.dethroned.combat import (
    alive, apply_action, attack_targets, battle_slots, card_of_move, cards_consistent, clear_all_beaten,
    credit_candidates, defending, draw_to_full, earliest_deadline, end_game, hand_kind, has_won, init_state, kill,
    legal_kinds, list_legal, living_count, modifier_sides, move_attacks, overwrite_slots, redirect_destinations,
    slot_of, stalemate, tie_wins, trace_event, unbeaten_total,
)
from balance.games.dethroned.layout import (
    ACT_ATTACK, ACT_CLEAR, ACT_DEFEND, ACT_DOUBLE, ACT_HALVE, ACT_OVERWRITE, ACT_PASS, ACT_REDIRECT, AT_CREDIT,
    AT_VICTIM, C_CAPPED,
    C_DEAL, C_DEATHS, C_DECISIONS, C_GAME, C_OUTCOME, C_PLAYERS, C_ROTATION, C_SECONDS, C_VOTES, DECK_SIZE,
    ERROR_CARDS, ERROR_ILLEGAL_ACTION, EV_ACTION, EV_CLAIM, EV_DEATH, EV_DRAW, EV_GAME_OVER, EV_VOTE_CONTINUE,
    EV_VOTE_END, H_DEATHS, H_DECISIONS, H_ERROR, H_NOW, H_OUTCOME, H_PASS_STREAK, H_PHASE, H_PLAYERS, H_VERSION,
    H_VOTES, MAX_LEGAL, MAX_PLAYERS, NO_ERROR, OUTCOME_CAPPED, OUTCOME_LAST_STANDING, OUTCOME_STALEMATE,
    OUTCOME_VOTE, O_IMPASSE_ROUNDS, O_MAX_DECISIONS, PHASE_COMBAT, PHASE_OVER, PHASE_PAUSE, PL_ALIVE, PL_ASSAILANT,
    PL_CLAIM, PL_DECK, PL_KILLS, PL_READY_AT, PL_ROLE, PL_ROYAL, PL_UNBEATEN_ON, SEAT_BASE, SEAT_FIELDS, STATE_SIZE,
    S_ALIVE, S_KILLS, S_ROLE, S_WON, TRACE_FIELDS, DK_ACTION, DK_ATTACK, DK_CARD, DK_CLAIM, DK_CREDIT,
    DK_REDIRECT_TO, DK_SIDE, DK_TARGET, DK_VOTE, H_MOVE, H_MOVE_SERIAL, H_MOVE_STEPS, NO_ROLE, VOTE_CONTINUE,
    VOTE_END, abase, action_attack, action_kind, action_slot, action_target, claim_bit, claim_role, encode, pbase,
    MAX_ATTACKS, POLICY_HEURISTIC, POLICY_SEARCH, ROLE_FIELDS,
)
from balance.games.dethroned.policies import (
    HEURISTIC_DEFAULTS, MARKS, MARK_SEEN, NOT_SEEN, PLAN_ATTACK, PLAN_ROLES, P_HORIZON, P_ROLLOUTS, SEARCH_BELIEF,
    SEARCH_CANDIDATES, SEARCH_CODES, SEARCH_MARKS, SEARCH_PARAMS, SEARCH_PLAN, SEARCH_ROLES, SEARCH_ROLE_COUNT,
    SEARCH_ROLLOUT_GRUDGE, SEARCH_SAMPLED, SEARCH_SAVED, SEARCH_TOTALS, SEARCH_WANT_COND, SEARCH_WANT_KILL,
    SEARCH_WANT_TOTAL, SEARCH_WORLD, decide, dress_world, forget_plans, heuristic_continue, init_beliefs,
    new_search_buffers, observe_claim, observe_hostility, prepare_search, put_dice_away, reaction_delay,
    roll_same_dice, sample_world,
)

MS_PER_SECOND = 1000
GAMES_PER_BLOCK = 256
ILLEGAL = -2  # trace mark of an illegal action found in checked runs


@kernel
def deal(s, opts, roles, players, setup_roles, stream):
    """Roles to seats, decks shuffled, the first claimer: drawn first, so every rotation of a
    deal sees the same deal."""
    init_state(s, players, setup_roles, roles, opts)
    for i in range(players - 1, 0, -1):  # Fisher-Yates over the seats' roles, as rng.shuffle draws
        swap_roles(s, i, below(stream, i + 1))
    for p in range(players):
        b = pbase(p) + PL_DECK
        shuffle(stream, s[b:b + DECK_SIZE], DECK_SIZE)
        draw_to_full(s, p)
    return below(stream, players)


@kernel
def swap_roles(s, p, q):
    """Exchange the role cards (and their symbols) of seats p and q."""
    for field in (PL_ROLE, PL_ROYAL, PL_ASSAILANT):
        s[pbase(p) + field], s[pbase(q) + field] = s[pbase(q) + field], s[pbase(p) + field]


@kernel
def discussion(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script,
               marks, restrict, first, stream, trace):
    """Each player claims a role in play (the truth or a lie: DK_CLAIM), clockwise from the first;
    heuristic listeners update beliefs."""
    for k in range(s[H_PLAYERS]):
        p = (first + k) % s[H_PLAYERS]
        own = s[pbase(p) + PL_ROLE]
        choices = 0
        for r in range(role_count.shape[0]):
            if role_count[r] > 0 or r == own:
                choices |= 1 << claim_bit(r, own)
        begin_move(s)
        answer = ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                     script, marks, restrict, p, DK_CLAIM, choices, stream)
        claim = claim_role(answer, own)
        s[pbase(p) + PL_CLAIM] = claim
        trace_event(s, trace, EV_CLAIM, p, claim, 0)
        observe_claim(s, codes, params, role_count, belief, p, claim)


@kernel(inline="always")
def next_player(s, stream):
    """The living player whose reaction comes first (equal reaction times: one of them at random)."""
    best = -1
    ties = 0
    for p in range(s[H_PLAYERS]):
        if not alive(s, p):
            continue
        if best < 0 or s[pbase(p) + PL_READY_AT] < s[pbase(best) + PL_READY_AT]:
            best = p
            ties = 1
        elif s[pbase(p) + PL_READY_AT] == s[pbase(best) + PL_READY_AT]:
            ties += 1
            if tie_wins(stream, ties):
                best = p
    return best


@kernel(inline="always")
def observe_action(s, codes, params, want_total, belief, grudge, p, action, victim_before):
    """Public consequences of an action for the listeners' beliefs."""
    kind = action_kind(action)
    if kind == ACT_ATTACK or kind == ACT_REDIRECT:
        observe_hostility(s, codes, params, want_total, belief, grudge, p, action_target(action), 1.0)
    elif kind == ACT_OVERWRITE:
        observe_hostility(s, codes, params, want_total, belief, grudge, p, victim_before, 1.0)
    elif kind == ACT_DEFEND and victim_before != p:
        observe_hostility(s, codes, params, want_total, belief, grudge, p, victim_before, -1.0)


@kernel(inline="always")
def begin_move(s):
    """A new move is posed: no step answered yet (a policy's plan belongs to one move)."""
    s[H_MOVE] = encode(ACT_PASS, 0, 0, 0, 0)
    s[H_MOVE_STEPS] = 0
    s[H_MOVE_SERIAL] += 1


@kernel
def ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script, marks,
        restrict, p, kind, choices, stream):
    """Pose decision ``kind`` with its legal answers ``choices`` to p (narrowed by p's restriction)
    and return p's answer; the step is recorded as answered for the move under way."""
    pose(s, p, kind, choices, restrict)
    answer = decide(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                    script, marks, p, stream)
    s[H_MOVE_STEPS] |= 1 << kind
    return answer


@kernel
def choose_move(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script,
                marks, restrict, p, kind, stream):
    """The move of ``kind`` p makes, its further steps posed in turn (layout.py: decisions)."""
    s[H_MOVE] = encode(kind, 0, 0, 0, 0)
    if kind == ACT_PASS:
        return s[H_MOVE]
    if kind == ACT_ATTACK:
        target = ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                     script, marks, restrict, p, DK_TARGET, attack_targets(s, p), stream)
        s[H_MOVE] = encode(kind, 0, 0, target, 0)
        slot = ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                   script, marks, restrict, p, DK_CARD, battle_slots(s, p), stream)
        return encode(kind, slot, 0, target, 0)
    a = ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script,
            marks, restrict, p, DK_ATTACK, move_attacks(s, opts, p, kind), stream)
    s[H_MOVE] = encode(kind, 0, a, 0, 0)
    if kind == ACT_DEFEND or kind == ACT_OVERWRITE:
        slots = battle_slots(s, p) if kind == ACT_DEFEND else overwrite_slots(s, opts, p, a)
        slot = ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                   script, marks, restrict, p, DK_CARD, slots, stream)
        return encode(kind, slot, a, 0, 0)
    slot = slot_of(s, p, card_of_move(kind))
    if kind == ACT_DOUBLE or kind == ACT_HALVE:
        side = ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                   script, marks, restrict, p, DK_SIDE, modifier_sides(s, a), stream)
        return encode(kind, slot, a, 0, side)
    if kind == ACT_REDIRECT:
        to = ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                 script, marks, restrict, p, DK_REDIRECT_TO, redirect_destinations(s, opts, p, a), stream)
        return encode(kind, slot, a, to % MAX_PLAYERS, to // MAX_PLAYERS)
    return encode(kind, slot, a, 0, 0)  # BOMB


@kernel
def reaction(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script,
             marks, restrict, p, stream):
    """p's move at a reaction: its kind (DK_ACTION), then the steps that kind needs."""
    begin_move(s)
    kind = ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script,
               marks, restrict, p, DK_ACTION, legal_kinds(s, opts, p), stream)
    return choose_move(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                       script, marks, restrict, p, kind, stream)


@kernel
def begin_reaction(s, p, trace):
    """p's reaction comes: the clock moves to it and p, if free to, draws back to three."""
    s[H_NOW] = s[pbase(p) + PL_READY_AT]
    s[H_DECISIONS] += 1
    if not defending(s, p):
        drawn = draw_to_full(s, p)
        if drawn > 0:
            trace_event(s, trace, EV_DRAW, p, drawn, 0)


@kernel(inline="always")
def only_clearing(s, p):
    """Clearing its beaten attacks is all p can do (not a choice)."""
    return defending(s, p) and s[pbase(p) + PL_UNBEATEN_ON] == 0


@kernel
def take_decision(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, legal,
                  script, marks, restrict, p, stream, trace, checked):
    """p's move at its reaction (begin_reaction has run), applied and observed."""
    if only_clearing(s, p):
        action = encode(ACT_CLEAR, 0, 0, 0, 0)  # clearing beaten attacks is not a choice
    else:
        action = reaction(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                          script, marks, restrict, p, stream)
        if checked:
            n = list_legal(s, opts, p, legal)
            if not is_listed(legal, n, action):
                trace_event(s, trace, EV_ACTION, p, action, ILLEGAL)  # the state stays for inspection
                s[H_ERROR] = ERROR_ILLEGAL_ACTION
                end_game(s, OUTCOME_CAPPED)
                return
    kind = action_kind(action)
    victim_before = s[abase(action_attack(action)) + AT_VICTIM] if kind == ACT_DEFEND or kind == ACT_OVERWRITE else -1
    card = hand_kind(s, p, action_slot(action))
    apply_action(s, opts, p, action)
    if kind != ACT_PASS:
        trace_event(s, trace, EV_ACTION, p, action, card)
    observe_action(s, codes, params, want_total, belief, grudge, p, action, victim_before)


@kernel
def is_listed(legal, n, action):
    for i in range(n):
        if legal[i] == action:
            return True
    return False


@kernel
def resolve_deadline(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                     script, marks, restrict, candidates, a, stream, trace):
    """Attack ``a``'s count ends: its victim dies; among equal attacks placed at the same moment
    the victim chooses who gets the credit (DK_CREDIT)."""
    victim = s[abase(a) + AT_VICTIM]
    n = credit_candidates(s, victim, candidates)
    choices = 0
    for i in range(n):
        choices |= 1 << candidates[i]
    begin_move(s)
    chosen = ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script,
                 marks, restrict, victim, DK_CREDIT, choices, stream)
    killer = s[abase(chosen) + AT_CREDIT]
    kill(s, opts, victim, chosen)
    trace_event(s, trace, EV_DEATH, victim, killer, s[pbase(victim) + PL_ROLE])


@kernel
def vote(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script, marks,
         restrict, p, stream):
    """p's vote (DK_VOTE): PASS to end, or the attack (DK_TARGET, DK_CARD) it continues with."""
    begin_move(s)
    choices = 1 << VOTE_END
    if attack_targets(s, p) != 0:
        choices |= 1 << VOTE_CONTINUE
    if ask(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script,
           marks, restrict, p, DK_VOTE, choices, stream) == VOTE_END:
        return encode(ACT_PASS, 0, 0, 0, 0)
    return choose_move(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                       script, marks, restrict, p, ACT_ATTACK, stream)


@kernel
def hold_vote(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script,
              marks, restrict, stream, trace, impasse):
    """The living vote; the fastest player who wants to go on continues by attacking."""
    clear_all_beaten(s)
    s[H_VOTES] += 1
    s[H_VERSION] += 1
    s[H_PASS_STREAK] = 0
    s[H_PHASE] = PHASE_COMBAT
    best_p = -1
    best_action = ACT_PASS
    best_delay = 0
    ties = 0
    for p in range(s[H_PLAYERS]):
        if not alive(s, p):
            continue
        action = vote(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                      script, marks, restrict, p, stream)
        delay = reaction_delay(params, p, stream)
        s[pbase(p) + PL_READY_AT] = s[H_NOW] + delay
        if action_kind(action) == ACT_ATTACK:
            trace_event(s, trace, EV_VOTE_CONTINUE, p, action, 0)
            if best_p < 0 or delay < best_delay:
                best_p, best_action, best_delay = p, action, delay
                ties = 1
            elif delay == best_delay:
                ties += 1
                if tie_wins(stream, ties):
                    best_p, best_action = p, action
        else:
            trace_event(s, trace, EV_VOTE_END, p, 0, 0)
    if best_p < 0:
        end_game(s, OUTCOME_STALEMATE if impasse else OUTCOME_VOTE)
        return
    card = hand_kind(s, best_p, action_slot(best_action))
    apply_action(s, opts, best_p, best_action)
    trace_event(s, trace, EV_ACTION, best_p, best_action, card)
    observe_action(s, codes, params, want_total, belief, grudge, best_p, best_action, -1)


@kernel
def after_event(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script,
                marks, restrict, stream, trace):
    living = living_count(s)
    if living == 0 or (living == 1 and unbeaten_total(s) == 0):
        end_game(s, OUTCOME_LAST_STANDING)
    elif s[H_PHASE] == PHASE_PAUSE:
        if unbeaten_total(s) == 0:
            hold_vote(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                      script, marks, restrict, stream, trace, False)
    elif s[H_PASS_STREAK] > 0 and stalemate(s):
        end_game(s, OUTCOME_STALEMATE)
    elif s[H_PASS_STREAK] >= opts[O_IMPASSE_ROUNDS] * living:
        hold_vote(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                  script, marks, restrict, stream, trace, True)


@kernel
def restrict_to_role(s, restrict, restricted_role):
    """With a restricted role (scenario key ``restrict_role``), the seats' restrictions bind only
    the seat dealt that role: the others play unrestricted."""
    if restricted_role == NO_ROLE:
        return
    for p in range(s[H_PLAYERS]):
        if s[pbase(p) + PL_ROLE] != restricted_role:
            restrict[p, :, :] = 0


@kernel
def reached_cap(s, opts):
    """The decision cap is reached: the game ends, capped."""
    if s[H_DECISIONS] >= opts[O_MAX_DECISIONS]:
        end_game(s, OUTCOME_CAPPED)
        return True
    return False


@kernel
def next_event(s, stream):
    """(time, attack, player) of the next event: the deadline of ``attack``, or (attack -1) the
    reaction of ``player`` (a deadline first at the same moment)."""
    deadline, a = earliest_deadline(s)
    p = next_player(s, stream)
    if a >= 0 and (p < 0 or deadline <= s[pbase(p) + PL_READY_AT]):
        return deadline, a, -1
    return deadline, -1, p


@kernel
def play_event(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, legal,
               candidates, script, marks, restrict, deadline, a, p, stream, trace, checked):
    """The event next_event found: attack a's deadline, or p's reaction (begun by begin_reaction)
    and its next reaction time."""
    if a >= 0:
        s[H_NOW] = deadline
        resolve_deadline(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief,
                         grudge, script, marks, restrict, candidates, a, stream, trace)
    else:
        take_decision(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                      legal, script, marks, restrict, p, stream, trace, checked)
        s[pbase(p) + PL_READY_AT] = s[H_NOW] + reaction_delay(params, p, stream)


@kernel
def play_game(s, opts, roles, want_cond, want_kill, want_total, setup_roles, role_count, codes, params, restrict,
              restricted_role, belief, grudge, legal, candidates, script, marks, stream, trace, checked, search):
    """One whole game from the deal to the reveal; ``codes``/``params``/``restrict`` are indexed
    by seat (``restrict`` is narrowed to the restricted role's seat, if any); ``search``: the
    search's buffers (policies.new_search_buffers)."""
    players = codes.shape[0]
    first = deal(s, opts, roles, players, setup_roles, stream)
    restrict_to_role(s, restrict, restricted_role)
    init_beliefs(s, role_count, belief, grudge)
    forget_plans(marks)
    discussion(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, script,
               marks, restrict, first, stream, trace)
    for p in range(players):
        s[pbase(p) + PL_READY_AT] = reaction_delay(params, p, stream)
    while s[H_PHASE] != PHASE_OVER:
        if reached_cap(s, opts):
            break
        deadline, a, p = next_event(s, stream)
        fixed = False
        if a < 0:
            begin_reaction(s, p, trace)
            fixed = fix_searched_move(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params,
                                      belief, grudge, marks, restrict, p, stream, search)
        play_event(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge, legal,
                   candidates, script, marks, restrict, deadline, a, p, stream, trace, checked)
        if fixed:
            release_move(restrict, p, search[0][SEARCH_SAVED])
        if checked and s[H_ERROR] == NO_ERROR and not cards_consistent(s, legal):  # legal: free between decisions
            s[H_ERROR] = ERROR_CARDS
            end_game(s, OUTCOME_CAPPED)
        if s[H_ERROR] != NO_ERROR:
            break
        after_event(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                    script, marks, restrict, stream, trace)
    trace_event(s, trace, EV_GAME_OVER, -1, s[H_OUTCOME], 0)


# ---- the search policy: its move fixed at the start of its reaction -----------------------------
SEARCHED_STEPS = (DK_ACTION, DK_TARGET, DK_CARD)  # the steps a searched move fixes


@kernel
def fix_move(restrict, seat, move, saved):
    """Fix ``move`` as the seat's PREFER masks of its kind and, for an attack, its target and card
    (its own masks kept in ``saved``): the heuristic then answers its other steps."""
    for kind in SEARCHED_STEPS:
        saved[kind] = restrict[seat, kind, PREFER]
    restrict[seat, DK_ACTION, PREFER] = 1 << action_kind(move)
    if action_kind(move) == ACT_ATTACK:
        restrict[seat, DK_TARGET, PREFER] = 1 << action_target(move)
        restrict[seat, DK_CARD, PREFER] = 1 << action_slot(move)


@kernel
def release_move(restrict, seat, saved):
    """The seat's own PREFER masks back after its move."""
    for kind in SEARCHED_STEPS:
        restrict[seat, kind, PREFER] = saved[kind]


@kernel
def seat_won(s, opts, roles, p):
    """p's result as the output row records it: its win condition holds (a capped game is nobody's)."""
    return s[H_OUTCOME] != OUTCOME_CAPPED and has_won(s, opts, roles, p)


@allocating_kernel(ROLLOUT_SIGNATURE)
def play_out(world, answer, seat, opts, params, restrict, ints, floats, rng):
    """The search's rollout (balance.engine.search): in a sampled world, ``seat``'s reaction with
    the candidate ``answer`` (a kind of move, whose attack is its favourite one; or, at the target
    step, the target of that attack) fixed, then every event to the end of the game, or for
    ``horizon`` seconds, every player the heuristic at its defaults (rows prepare_search and
    seat_rollout_players filled, beliefs dressed from the seat's view), with the world's dice;
    scored 1 if the seat's win condition holds then, else 0. Trace and script are empty. Compiled with reference counting: the
    belief rows are viewed as the (observer, player, role) array the policies read."""
    n = ints[SEARCH_PLAN, PLAN_ROLES]
    players = world[H_PLAYERS]
    roles = ints[SEARCH_ROLES:SEARCH_ROLES + n, :ROLE_FIELDS]
    role_count = ints[SEARCH_ROLE_COUNT, :n]
    want_cond = floats[SEARCH_WANT_COND:SEARCH_WANT_COND + n, :n]
    want_kill = floats[SEARCH_WANT_KILL:SEARCH_WANT_KILL + n, :n]
    want_total = floats[SEARCH_WANT_TOTAL:SEARCH_WANT_TOTAL + n, :n]
    codes = ints[SEARCH_CODES, :players]
    rollout_params = floats[SEARCH_PARAMS:SEARCH_PARAMS + players]
    grudge = floats[SEARCH_ROLLOUT_GRUDGE:SEARCH_ROLLOUT_GRUDGE + MAX_PLAYERS, :MAX_PLAYERS]
    rows = floats[SEARCH_BELIEF:SEARCH_BELIEF + MAX_PLAYERS * MAX_PLAYERS, :n]
    belief = np.lib.stride_tricks.as_strided(
        rows, shape=(MAX_PLAYERS, MAX_PLAYERS, n), strides=(MAX_PLAYERS * rows.strides[0], rows.strides[0],
                                                            rows.strides[1]))
    marks = ints[SEARCH_MARKS:SEARCH_MARKS + MARKS, :players]
    candidates = ints[SEARCH_CANDIDATES, :MAX_ATTACKS]
    no_legal = ints[SEARCH_CANDIDATES, :0]
    no_script = ints[SEARCH_MARKS:SEARCH_MARKS + players, :0]
    no_trace = ints[:0, :TRACE_FIELDS]
    roll_same_dice(ints, rng)
    dress_world(world, seat, codes, rollout_params, role_count, belief, grudge, floats)
    forget_plans(marks)
    attack = ints[SEARCH_PLAN, PLAN_ATTACK]
    if world[D_KIND] == DK_TARGET:
        move = encode(ACT_ATTACK, action_slot(attack), 0, answer, 0)
    else:
        move = attack if answer == ACT_ATTACK else encode(answer, 0, 0, 0, 0)
    saved = ints[SEARCH_SAVED]  # free: the game's own masks are fixed only after the search
    fix_move(restrict, seat, move, saved)
    play_event(world, opts, roles, want_cond, want_kill, want_total, role_count, codes, rollout_params, belief,
               grudge, no_legal, candidates, no_script, marks, restrict, -1, -1, seat, rng, no_trace, False)
    release_move(restrict, seat, saved)
    horizon = params[P_HORIZON] * MS_PER_SECOND
    end = world[H_NOW] + horizon
    while world[H_PHASE] != PHASE_OVER:
        after_event(world, opts, roles, want_cond, want_kill, want_total, role_count, codes, rollout_params, belief,
                    grudge, no_script, marks, restrict, rng, no_trace)
        if world[H_PHASE] == PHASE_OVER or (horizon > 0 and world[H_NOW] >= end) or reached_cap(world, opts):
            break
        deadline, a, p = next_event(world, rng)
        if a < 0:
            begin_reaction(world, p, no_trace)
        play_event(world, opts, roles, want_cond, want_kill, want_total, role_count, codes, rollout_params, belief,
                   grudge, no_legal, candidates, no_script, marks, restrict, deadline, a, p, rng, no_trace, False)
    put_dice_away(ints, rng)
    return 1.0 if seat_won(world, opts, roles, seat) else 0.0


@kernel
def fix_searched_move(s, opts, roles, want_cond, want_kill, want_total, role_count, codes, params, belief, grudge,
                      marks, restrict, p, stream, search):
    """A search seat's move at its reaction (it has drawn): the kind of move by the engine's search,
    posed as the reaction will pose it; for an attack, then its target, by a second search posed
    as the target step, and the card its heuristic attacks with. An attack searched at the first
    step is its favourite one (heuristic_continue). While nothing has changed since it last chose
    to pass it passes again (as the heuristic waits). The move is fixed as PREFER masks (fix_move);
    returns whether it was (the seat plays search and has a choice to make)."""
    if codes[p] != POLICY_SEARCH or only_clearing(s, p):
        return False
    ints, floats, rollout_restrict = search
    kinds = pose(s, p, DK_ACTION, legal_kinds(s, opts, p), restrict)
    attack = ACT_PASS
    if (kinds >> ACT_ATTACK) & 1:
        attack = heuristic_continue(s, opts, roles, want_cond, want_kill, want_total, belief, grudge, p, stream)
    ints[SEARCH_PLAN, PLAN_ATTACK] = attack
    prepared = False
    if forced(s):
        kind = answer_of(s)
    elif (kinds >> ACT_PASS) & 1 and marks[MARK_SEEN, p] == s[H_VERSION]:
        kind = ACT_PASS
    else:
        prepare_rollouts(s, p, roles, want_cond, want_kill, want_total, role_count, belief, grudge, restrict, ints,
                         floats, rollout_restrict)
        prepared = True
        kind = search_answer(s, int(params[p, P_ROLLOUTS]), opts, params[p], rollout_restrict, ints[SEARCH_SAMPLED],
                             ints[SEARCH_WORLD], floats[SEARCH_TOTALS], ints, floats, stream, sample_world, play_out)
        marks[MARK_SEEN, p] = s[H_VERSION] if kind == ACT_PASS else NOT_SEEN
    move = encode(kind, 0, 0, 0, 0)
    if kind == ACT_ATTACK:
        pose(s, p, DK_TARGET, attack_targets(s, p), restrict)
        if forced(s):
            target = answer_of(s)
        else:
            if not prepared:
                prepare_rollouts(s, p, roles, want_cond, want_kill, want_total, role_count, belief, grudge, restrict,
                                 ints, floats, rollout_restrict)
            target = search_answer(s, int(params[p, P_ROLLOUTS]), opts, params[p], rollout_restrict,
                                   ints[SEARCH_SAMPLED], ints[SEARCH_WORLD], floats[SEARCH_TOTALS], ints, floats,
                                   stream, sample_world, play_out)
        move = encode(ACT_ATTACK, action_slot(attack), 0, target, 0)
    fix_move(restrict, p, move, ints[SEARCH_SAVED])
    return True


@kernel
def prepare_rollouts(s, seat, roles, want_cond, want_kill, want_total, role_count, belief, grudge, restrict, ints,
                     floats, rollout_restrict):
    """The search buffers for ``seat``'s search (prepare_search) and its rollout players: every
    seat the heuristic at its defaults, the searcher with its own restriction."""
    prepare_search(s, seat, roles, want_cond, want_kill, want_total, role_count, belief, grudge, ints, floats)
    seat_rollout_players(s[H_PLAYERS], seat, restrict, POLICY_HEURISTIC, HEURISTIC_DEFAULTS, ints[SEARCH_CODES],
                         floats[SEARCH_PARAMS:], rollout_restrict)


@kernel
def write_row(s, opts, roles, out, i, game, deal_index, rotation):
    players = s[H_PLAYERS]
    capped = s[H_OUTCOME] == OUTCOME_CAPPED
    out[i, :] = -1
    out[i, C_GAME] = game
    out[i, C_DEAL] = deal_index
    out[i, C_ROTATION] = rotation
    out[i, C_OUTCOME] = s[H_OUTCOME]
    out[i, C_CAPPED] = capped
    out[i, C_DECISIONS] = s[H_DECISIONS]
    out[i, C_DEATHS] = s[H_DEATHS]
    out[i, C_VOTES] = s[H_VOTES]
    out[i, C_SECONDS] = s[H_NOW] // MS_PER_SECOND
    out[i, C_PLAYERS] = players
    for p in range(players):
        b = SEAT_BASE + p * len(SEAT_FIELDS)
        out[i, b + S_ROLE] = s[pbase(p) + PL_ROLE]
        out[i, b + S_WON] = seat_won(s, opts, roles, p)
        out[i, b + S_ALIVE] = s[pbase(p) + PL_ALIVE]
        out[i, b + S_KILLS] = s[pbase(p) + PL_KILLS]


@allocating_kernel(parallel=True)
def simulate_batch(seed, start, count, rotations, opts, roles, want_cond, want_kill, want_total, setup_roles,
                   role_count, slot_codes, slot_params, slot_restrict, restricted_role, out):
    """Games start .. start + count - 1, in blocks of GAMES_PER_BLOCK reusing scratch buffers."""
    players = slot_codes.shape[0]
    blocks = (count + GAMES_PER_BLOCK - 1) // GAMES_PER_BLOCK
    for block in prange(blocks):
        # thread-private copies of the read-only inputs: the reference counts of shared arrays
        # would otherwise bounce between cores at every call
        local_opts, local_roles, local_setup_roles, local_count = opts.copy(), roles.copy(), setup_roles.copy(), \
            role_count.copy()
        local_cond, local_kill, local_total = want_cond.copy(), want_kill.copy(), want_total.copy()
        s = np.zeros(STATE_SIZE, dtype=np.int64)
        belief = np.zeros((MAX_PLAYERS, MAX_PLAYERS, roles.shape[0]), dtype=np.float64)
        grudge = np.zeros((MAX_PLAYERS, MAX_PLAYERS), dtype=np.float64)
        legal = np.zeros(MAX_LEGAL, dtype=np.int64)
        candidates = np.zeros(MAX_PLAYERS * MAX_PLAYERS, dtype=np.int64)
        script = np.zeros((players, 0), dtype=np.int64)
        marks = np.zeros((MARKS, players), dtype=np.int64)
        stream = np.zeros(STREAM_SIZE, dtype=np.uint64)
        trace = np.zeros((0, TRACE_FIELDS), dtype=np.int64)
        codes = np.zeros(players, dtype=np.int64)
        params = np.zeros(slot_params.shape, dtype=np.float64)
        restrict = np.zeros(slot_restrict.shape, dtype=np.int64)
        search = new_search_buffers()
        for i in range(block * GAMES_PER_BLOCK, min(count, (block + 1) * GAMES_PER_BLOCK)):
            game = start + i
            deal_index, rotation = split_game_index(game, rotations)
            open_stream(stream, seed, deal_index)
            seat_policies(rotation, slot_codes, slot_params, codes, params)
            seat_restrictions(rotation, slot_restrict, restrict)
            play_game(s, local_opts, local_roles, local_cond, local_kill, local_total, local_setup_roles, local_count,
                      codes, params, restrict, restricted_role, belief, grudge, legal, candidates, script, marks,
                      stream, trace, False, search)
            write_row(s, local_opts, local_roles, out, i, game, deal_index, rotation)
