"""DETHRONED's rules as a step kernel (balance.engine.step): the game from the deal to the reveal.

One game: the deal (roles to seats, each deck shuffled, three cards each), the discussion phase
(claims clockwise from a random first player), then real time. The next event is whichever
comes first: the earliest deadline of an unbeaten attack (its victim dies) or the earliest
reaction of a living player (it draws back to three if free to, then acts). After a death the
game pauses: remaining attacks resolve (no new attacks or Redirects), then the living vote; a
player continues the game by attacking, the fastest such player's attack stands. An impasse
(every living player passed again and again with nothing on the table) is a vote too; nobody
able to attack ever again is a stalemate. A decision cap ends every game. The combat rules
themselves (legality, actions, deaths, win checks) are in combat.py.

The rules never ask a player: ``advance`` runs them until a decision is posed in the shared
header (a claim, a step of a move, a vote, a credit) and ``apply_answer`` takes its answer, so
the engine's loop (match.py) asks the seat's policy or the search in between. Where the rules
stand between two calls is the state's stage (H_STAGE, layout.py); a move posed in steps is
assembled in H_MOVE. What an answer showed the table (a claim, an action) is left in H_SEEN_*
for the policies' beliefs.

``table``: (options, the role table, the seats' parameter rows (their reaction speeds), copies of
each role in the setup, the game's random stream, the trace, two scratch buffers, checked). When
play stops (the game is over, or a rollout reached its horizon) H_WINNERS says whose win condition
holds: the step contract's scores. A checked run
also stops a game whose move is not in the combat rules' list of legal actions, or whose cards
are not each in one place (tests and replays).
"""

import numpy as np

from balance.engine.decision import D_CHOICES, D_KIND, D_SEAT
from balance.engine.kernels import kernel
from balance.engine.rng import below, shuffle, uniform
from balance.games.dethroned.combat import (
    alive, apply_action, attack_targets, battle_slots, card_of_move, cards_consistent, clear_all_beaten,
    credit_candidates, defending, draw_to_full, earliest_deadline, end_game, hand_kind, has_won, init_state, kill,
    legal_kinds, list_legal, living_count, modifier_sides, move_attacks, overwrite_slots, redirect_destinations,
    slot_of, stalemate, tie_wins, trace_event, unbeaten_total,
)
from balance.games.dethroned.layout import (
    ACT_ATTACK, ACT_CLEAR, ACT_DEFEND, ACT_DOUBLE, ACT_HALVE, ACT_OVERWRITE, ACT_PASS, ACT_REDIRECT,
    AT_CREDIT, AT_VICTIM, DECK_SIZE, DK_ACTION, DK_ATTACK, DK_CARD, DK_CLAIM, DK_CREDIT, DK_REDIRECT_TO, DK_SIDE,
    DK_TARGET, DK_VOTE, ERROR_CARDS, ERROR_ILLEGAL_ACTION, EV_ACTION, EV_CLAIM, EV_DEATH, EV_DRAW, EV_GAME_OVER,
    EV_VOTE_CONTINUE, EV_VOTE_END, H_CLAIMS, H_DECISIONS, H_ERROR, H_FIRST_CLAIMER, H_MOVE, H_MOVE_SERIAL,
    H_MOVE_STEPS, H_NOW, H_OUTCOME, H_PASS_STREAK, H_PHASE, H_PLAYERS, H_POSED_LEGAL, H_SEEN, H_SEEN_ACTION, H_SEEN_ACTOR,
    H_SEEN_VICTIM, H_STAGE, H_STOP_AT, H_VERSION, H_VOTE_ACTION, H_VOTE_BEST, H_VOTE_DELAY, H_VOTE_IMPASSE,
    H_VOTE_TIES, H_VOTER, H_VOTES, H_WINNERS, MAX_PLAYERS, NO_ERROR, NO_ROLE, OUTCOME_CAPPED, OUTCOME_LAST_STANDING,
    OUTCOME_STALEMATE, OUTCOME_VOTE, O_IMPASSE_ROUNDS, O_MAX_DECISIONS, PHASE_COMBAT, PHASE_OVER, PHASE_PAUSE,
    PL_ASSAILANT, PL_CLAIM, PL_DECK, PL_READY_AT, PL_ROLE, PL_ROYAL, PL_UNBEATEN_ON, P_REACTION_MEAN,
    P_REACTION_SPREAD, SEEN_ACTION, SEEN_CLAIM, SEEN_NOTHING, STAGE_AFTER_EVENT, STAGE_CLAIM_POSED,
    STAGE_CREDIT_POSED, STAGE_DISCUSSION, STAGE_NEXT_EVENT, STAGE_OVER, STAGE_REACTION_POSED, STAGE_STOPPED,
    STAGE_VOTE_POSED, VOTE_CONTINUE, VOTE_END, abase, action_attack, action_kind, action_slot, action_target, claim_bit,
    claim_role, encode, pbase,
)

TABLE_TRACE = 5  # the trace's place in the table
ILLEGAL = -2  # trace mark of an illegal action found in checked runs
MOVE_UNFINISHED = -1  # a step answered, another posed: the move is not complete yet
MIN_DELAY_MS = 50
MS_PER_SECOND = 1000.0


# ---- the deal -------------------------------------------------------------------------------------
@kernel
def deal(s, opts, roles, players, setup_roles, stream):
    """Roles to seats, decks shuffled, the first claimer: drawn first, so every rotation of a
    deal sees the same deal. The discussion is next."""
    init_state(s, players, setup_roles, roles, opts)
    for i in range(players - 1, 0, -1):  # Fisher-Yates over the seats' roles, as rng.shuffle draws
        swap_roles(s, i, below(stream, i + 1))
    for p in range(players):
        b = pbase(p) + PL_DECK
        shuffle(stream, s[b:b + DECK_SIZE], DECK_SIZE)
        draw_to_full(s, p)
    s[H_FIRST_CLAIMER] = below(stream, players)
    s[H_STAGE] = STAGE_DISCUSSION


@kernel
def swap_roles(s, p, q):
    """Exchange the role cards (and their symbols) of seats p and q."""
    for field in (PL_ROLE, PL_ROYAL, PL_ASSAILANT):
        s[pbase(p) + field], s[pbase(q) + field] = s[pbase(q) + field], s[pbase(p) + field]


# ---- reaction times -----------------------------------------------------------------------------
@kernel(inline="always")
def delay_ms(mean_seconds, spread, stream):
    """A reaction delay: uniform in mean * [1 - spread, 1 + spread], at least MIN_DELAY_MS."""
    mean = mean_seconds * MS_PER_SECOND
    delay = mean * (1.0 + spread * (2.0 * uniform(stream) - 1.0))
    return max(MIN_DELAY_MS, np.int64(delay))


@kernel(inline="always")
def reaction_delay(params, p, stream):
    """p's next reaction comes this many ms later (its speed: the first two entries of its
    parameter row, shared by every policy)."""
    return delay_ms(params[p, P_REACTION_MEAN], params[p, P_REACTION_SPREAD], stream)


# ---- posing -------------------------------------------------------------------------------------
@kernel(inline="always")
def pend(s, p, kind, choices, stage):
    """Pose decision ``kind`` to p with its legal answers (the engine narrows them by p's
    restriction) and wait for the answer in ``stage``."""
    s[D_SEAT], s[D_KIND], s[D_CHOICES] = p, kind, choices
    s[H_POSED_LEGAL] = choices
    s[H_STAGE] = stage


@kernel(inline="always")
def begin_move(s):
    """A new move is posed: no step answered yet (a policy's plan belongs to one move)."""
    s[H_MOVE] = encode(ACT_PASS, 0, 0, 0, 0)
    s[H_MOVE_STEPS] = 0
    s[H_MOVE_SERIAL] += 1


@kernel
def pose_claim(s, role_count, p):
    """p claims a role in play (the truth or a lie: DK_CLAIM)."""
    own = s[pbase(p) + PL_ROLE]
    choices = 0
    for r in range(role_count.shape[0]):
        if role_count[r] > 0 or r == own:
            choices |= 1 << claim_bit(r, own)
    begin_move(s)
    pend(s, p, DK_CLAIM, choices, STAGE_CLAIM_POSED)


@kernel
def pose_kind(s, opts, p, kind, stage):
    """The move's kind is ``kind``: pose its next step (layout.py: decisions), or, for a kind that
    needs none, return the move."""
    s[H_MOVE] = encode(kind, 0, 0, 0, 0)
    if kind == ACT_PASS:
        return s[H_MOVE]
    if kind == ACT_ATTACK:
        pend(s, p, DK_TARGET, attack_targets(s, p), stage)
    else:
        pend(s, p, DK_ATTACK, move_attacks(s, opts, p, kind), stage)
    return MOVE_UNFINISHED


@kernel
def move_step(s, opts, p, kind, answer, stage):
    """p answered step ``kind`` of the move under way: the move, complete, or MOVE_UNFINISHED with
    its next step posed."""
    move = s[H_MOVE]
    if kind == DK_ACTION:
        return pose_kind(s, opts, p, answer, stage)
    if kind == DK_VOTE:
        if answer == VOTE_END:
            return encode(ACT_PASS, 0, 0, 0, 0)
        return pose_kind(s, opts, p, ACT_ATTACK, stage)  # a vote to continue is an attack
    if kind == DK_TARGET:
        s[H_MOVE] = encode(ACT_ATTACK, 0, 0, answer, 0)
        pend(s, p, DK_CARD, battle_slots(s, p), stage)
        return MOVE_UNFINISHED
    move_kind = action_kind(move)
    if kind == DK_CARD:
        if move_kind == ACT_ATTACK:
            return encode(ACT_ATTACK, answer, 0, action_target(move), 0)
        return encode(move_kind, answer, action_attack(move), 0, 0)  # DEFEND, OVERWRITE
    if kind == DK_ATTACK:
        s[H_MOVE] = encode(move_kind, 0, answer, 0, 0)
        if move_kind == ACT_DEFEND or move_kind == ACT_OVERWRITE:
            slots = battle_slots(s, p) if move_kind == ACT_DEFEND else overwrite_slots(s, opts, p, answer)
            pend(s, p, DK_CARD, slots, stage)
        elif move_kind == ACT_DOUBLE or move_kind == ACT_HALVE:
            pend(s, p, DK_SIDE, modifier_sides(s, answer), stage)
        elif move_kind == ACT_REDIRECT:
            pend(s, p, DK_REDIRECT_TO, redirect_destinations(s, opts, p, answer), stage)
        else:  # BOMB
            return encode(move_kind, slot_of(s, p, card_of_move(move_kind)), answer, 0, 0)
        return MOVE_UNFINISHED
    slot = slot_of(s, p, card_of_move(move_kind))
    if kind == DK_SIDE:
        return encode(move_kind, slot, action_attack(move), 0, answer)
    return encode(move_kind, slot, action_attack(move), answer % MAX_PLAYERS, answer // MAX_PLAYERS)  # REDIRECT_TO


# ---- the event loop -----------------------------------------------------------------------------
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
def reached_cap(s, opts):
    """The decision cap is reached: the game ends, capped."""
    if s[H_DECISIONS] >= opts[O_MAX_DECISIONS]:
        end_game(s, OUTCOME_CAPPED)
        return True
    return False


@kernel(inline="always")
def show(s, what, actor, action, victim):
    """Leave what an answer showed the table for the policies (H_SEEN_*)."""
    s[H_SEEN] = what
    s[H_SEEN_ACTOR] = actor
    s[H_SEEN_ACTION] = action
    s[H_SEEN_VICTIM] = victim


@kernel
def act(s, opts, p, action, trace):
    """p's move applied, traced and shown."""
    kind = action_kind(action)
    victim_before = s[abase(action_attack(action)) + AT_VICTIM] if kind == ACT_DEFEND or kind == ACT_OVERWRITE else -1
    card = hand_kind(s, p, action_slot(action))
    apply_action(s, opts, p, action)
    if kind != ACT_PASS:
        trace_event(s, trace, EV_ACTION, p, action, card)
    show(s, SEEN_ACTION, p, action, victim_before)


@kernel
def is_listed(legal, n, action):
    for i in range(n):
        if legal[i] == action:
            return True
    return False


@kernel(inline="always")  # into the loop: a call would pass the whole table (nine arrays) at every decision
def finish_reaction(s, table, p, action):
    """p's move at its reaction, complete: checked against the legal list in checked runs,
    applied; p's next reaction time drawn."""
    opts, roles, params, role_count, stream, trace, legal, candidates, checked = table
    if checked:
        n = list_legal(s, opts, p, legal)
        if not is_listed(legal, n, action):
            trace_event(s, trace, EV_ACTION, p, action, ILLEGAL)  # the state stays for inspection
            s[H_ERROR] = ERROR_ILLEGAL_ACTION
            end_game(s, OUTCOME_CAPPED)
    if s[H_ERROR] == NO_ERROR:
        act(s, opts, p, action, trace)
    s[pbase(p) + PL_READY_AT] = s[H_NOW] + reaction_delay(params, p, stream)
    s[H_STAGE] = STAGE_AFTER_EVENT


@kernel
def pose_credit(s, candidates, a):
    """Attack ``a``'s count ends: its victim will die; among equal attacks placed at the same
    moment the victim chooses who gets the credit (DK_CREDIT: the attack's index)."""
    victim = s[abase(a) + AT_VICTIM]
    n = credit_candidates(s, victim, candidates)
    choices = 0
    for i in range(n):
        choices |= 1 << candidates[i]
    begin_move(s)
    pend(s, victim, DK_CREDIT, choices, STAGE_CREDIT_POSED)


@kernel
def die(s, opts, victim, a, trace):
    """``victim`` dies to attack ``a``, whose credited player gets the kill."""
    killer = s[abase(a) + AT_CREDIT]
    kill(s, opts, victim, a)
    trace_event(s, trace, EV_DEATH, victim, killer, s[pbase(victim) + PL_ROLE])
    s[H_STAGE] = STAGE_AFTER_EVENT


# ---- votes --------------------------------------------------------------------------------------
@kernel
def start_vote(s, opts, impasse, trace):
    """The living vote, in seat order; the fastest player who wants to go on continues by attacking."""
    clear_all_beaten(s)
    s[H_VOTES] += 1
    s[H_VERSION] += 1
    s[H_PASS_STREAK] = 0
    s[H_PHASE] = PHASE_COMBAT
    s[H_VOTE_IMPASSE] = impasse
    s[H_VOTE_BEST] = -1
    s[H_VOTE_ACTION] = encode(ACT_PASS, 0, 0, 0, 0)
    s[H_VOTE_DELAY] = 0
    s[H_VOTE_TIES] = 0
    s[H_VOTER] = -1
    if not next_voter(s):
        settle_vote(s, opts, trace)


@kernel
def next_voter(s):
    """Pose the next living seat's vote (DK_VOTE: PASS to end, or continue by attacking); False
    when everyone has voted."""
    for p in range(s[H_VOTER] + 1, s[H_PLAYERS]):
        if alive(s, p):
            s[H_VOTER] = p
            begin_move(s)
            choices = 1 << VOTE_END
            if attack_targets(s, p) != 0:
                choices |= 1 << VOTE_CONTINUE
            pend(s, p, DK_VOTE, choices, STAGE_VOTE_POSED)
            return True
    return False


@kernel(inline="always")  # into the loop: a call would pass the whole table (nine arrays) at every decision
def cast_vote(s, table, p, action):
    """p's vote, complete (PASS or the attack it continues with), and its next reaction time."""
    opts, roles, params, role_count, stream, trace, legal, candidates, checked = table
    delay = reaction_delay(params, p, stream)
    s[pbase(p) + PL_READY_AT] = s[H_NOW] + delay
    if action_kind(action) == ACT_ATTACK:
        trace_event(s, trace, EV_VOTE_CONTINUE, p, action, 0)
        if s[H_VOTE_BEST] < 0 or delay < s[H_VOTE_DELAY]:
            s[H_VOTE_BEST], s[H_VOTE_ACTION], s[H_VOTE_DELAY] = p, action, delay
            s[H_VOTE_TIES] = 1
        elif delay == s[H_VOTE_DELAY]:
            s[H_VOTE_TIES] += 1
            if tie_wins(stream, s[H_VOTE_TIES]):
                s[H_VOTE_BEST], s[H_VOTE_ACTION] = p, action
    else:
        trace_event(s, trace, EV_VOTE_END, p, 0, 0)
    if not next_voter(s):
        settle_vote(s, opts, trace)


@kernel
def settle_vote(s, opts, trace):
    """Everyone has voted. Nobody continues: the game ends (a stalemate at an impasse); else the
    fastest attack stands. The event loop goes on."""
    s[H_STAGE] = STAGE_NEXT_EVENT
    best = s[H_VOTE_BEST]
    if best < 0:
        end_game(s, OUTCOME_STALEMATE if s[H_VOTE_IMPASSE] else OUTCOME_VOTE)
        return
    action = s[H_VOTE_ACTION]
    card = hand_kind(s, best, action_slot(action))
    apply_action(s, opts, best, action)
    trace_event(s, trace, EV_ACTION, best, action, card)
    show(s, SEEN_ACTION, best, action, -1)


@kernel
def after_event(s, opts, trace):
    """Deaths, pauses and impasses after an event: the game over, a vote posed, or play on."""
    living = living_count(s)
    if living == 0 or (living == 1 and unbeaten_total(s) == 0):
        end_game(s, OUTCOME_LAST_STANDING)
    elif s[H_PHASE] == PHASE_PAUSE:
        if unbeaten_total(s) == 0:
            start_vote(s, opts, False, trace)
    elif s[H_PASS_STREAK] > 0 and stalemate(s):
        end_game(s, OUTCOME_STALEMATE)
    elif s[H_PASS_STREAK] >= opts[O_IMPASSE_ROUNDS] * living:
        start_vote(s, opts, True, trace)


# ---- the step kernel's verbs ----------------------------------------------------------------
@kernel(inline="always")  # into the loop: a call would pass the whole table (nine arrays) at every decision
def advance(s, table):
    """Run the rules until a decision is posed or the game (or a rollout's horizon) is over."""
    opts, roles, params, role_count, stream, trace, legal, candidates, checked = table
    while True:
        stage = s[H_STAGE]
        if stage == STAGE_NEXT_EVENT:
            if s[H_PHASE] == PHASE_OVER:
                trace_event(s, trace, EV_GAME_OVER, -1, s[H_OUTCOME], 0)
                stop(s, opts, roles, STAGE_OVER)
                return
            if s[H_STOP_AT] > 0 and s[H_NOW] >= s[H_STOP_AT]:
                stop(s, opts, roles, STAGE_STOPPED)
                return
            if reached_cap(s, opts):
                continue
            deadline, a, p = next_event(s, stream)
            if a >= 0:
                s[H_NOW] = deadline
                pose_credit(s, candidates, a)
                return
            begin_reaction(s, p, trace)
            if only_clearing(s, p):  # not a choice
                finish_reaction(s, table, p, encode(ACT_CLEAR, 0, 0, 0, 0))
                continue
            begin_move(s)
            pend(s, p, DK_ACTION, legal_kinds(s, opts, p), STAGE_REACTION_POSED)
            return
        if stage == STAGE_AFTER_EVENT:
            if checked and s[H_ERROR] == NO_ERROR and not cards_consistent(s, legal):  # legal: free here
                s[H_ERROR] = ERROR_CARDS
                end_game(s, OUTCOME_CAPPED)
            s[H_STAGE] = STAGE_NEXT_EVENT
            if s[H_ERROR] == NO_ERROR:
                after_event(s, opts, trace)  # may pose a vote
            continue
        if stage == STAGE_DISCUSSION:
            if s[H_CLAIMS] < s[H_PLAYERS]:
                pose_claim(s, role_count, (s[H_FIRST_CLAIMER] + s[H_CLAIMS]) % s[H_PLAYERS])
                return
            for p in range(s[H_PLAYERS]):
                s[pbase(p) + PL_READY_AT] = reaction_delay(params, p, stream)
            s[H_STAGE] = STAGE_NEXT_EVENT
            continue
        return  # a decision is posed, or the game is over or stopped


@kernel
def stop(s, opts, roles, stage):
    """Play stops (the game is over, or a rollout's horizon is reached): whose win holds now."""
    winners = 0
    for p in range(s[H_PLAYERS]):
        if seat_won(s, opts, roles, p):
            winners |= 1 << p
    s[H_WINNERS] = winners
    s[H_STAGE] = stage


@kernel(inline="always")
def over(s):
    """Nothing more to play: the game is over, or a rollout reached its horizon."""
    return s[H_STAGE] >= STAGE_STOPPED


@kernel(inline="always")  # into the loop: a call would pass the whole table (nine arrays) at every decision
def apply_answer(s, table, answer):
    """The posed decision answered; the rules go on as far as the answer takes them."""
    opts, roles, params, role_count, stream, trace, legal, candidates, checked = table
    p = s[D_SEAT]
    kind = s[D_KIND]
    s[H_MOVE_STEPS] |= 1 << kind
    stage = s[H_STAGE]
    if stage == STAGE_CLAIM_POSED:
        claim = claim_role(answer, s[pbase(p) + PL_ROLE])
        s[pbase(p) + PL_CLAIM] = claim
        trace_event(s, trace, EV_CLAIM, p, claim, 0)
        show(s, SEEN_CLAIM, p, claim, -1)
        s[H_CLAIMS] += 1
        s[H_STAGE] = STAGE_DISCUSSION
    elif stage == STAGE_CREDIT_POSED:
        die(s, opts, p, answer, trace)
    else:
        move = move_step(s, opts, p, kind, answer, stage)
        if move == MOVE_UNFINISHED:
            return
        if stage == STAGE_REACTION_POSED:
            finish_reaction(s, table, p, move)
        else:
            cast_vote(s, table, p, move)


@kernel(inline="always")
def seen(s):
    """What the last answer showed (SEEN_*), and forget it: the policies see it once."""
    what = s[H_SEEN]
    s[H_SEEN] = SEEN_NOTHING
    return what


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
def seat_won(s, opts, roles, p):
    """p's result as the output row records it: its win condition holds (a capped game is nobody's)."""
    return s[H_OUTCOME] != OUTCOME_CAPPED and has_won(s, opts, roles, p)


@kernel(inline="always")
def score(s, p):
    """p's score where play stopped: 1 if its win condition holds, else 0."""
    return float((s[H_WINNERS] >> p) & 1)
