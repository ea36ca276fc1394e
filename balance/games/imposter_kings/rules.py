"""The compiled rules kernel of The Imposter Kings (2 players, base game).

A round is a state machine over one plain int64 array ``s`` (layout below). The machine stops
only at DECISIONS: ``legal_mask(s, cfg)`` is what the deciding seat (``s[DECIDER]``) may do, a
bit mask over action codes; ``pose_pending`` poses it through the engine (the decision header's
D_CHOICES, narrowed by the seat's restriction); ``apply_action(s, cfg, action)`` performs one
choice and runs every automatic step (Condemned removals, single Antechamber cards, turn
passing, the loss of a seat that cannot act) until the next decision or the end of the round.
The batch kernel, the policies' searches, the position API and the tests all drive rounds
through these functions only.

The state and configuration layouts, phases and action codes are in ``layout``.
"""

import numpy as np

from balance.engine.decision import pose
from balance.engine.kernels import allocating_kernel, kernel
from balance.engine.rng import bit_index, shuffle
from balance.games.imposter_kings.layout import (
    ACCUSED, ACT_FLIP, ACT_NO, ACT_YES, ANTE, ASSASSIN, ASSASSINATED, BASE_VALUE, CAPPED, CFG_DECK, CFG_DUNGEON,
    CFG_FIRST_MODE, CFG_FIXED_ACCUSED, CFG_FULL_SCORING, CFG_HAND, CFG_MULLIGANS, CFG_MUTE_HAND, CFG_PLY_CAP,
    CFG_POINTS, CHOOSER, CONDEMNED, COURT_FLAGS, COURT_LEN, COURT_TYPE, CURRENT, DECIDER, DISGRACED_VALUE, DUNGEON,
    ELDER, FIRST, FIRST_BY_TRUE_KING, FIRST_SEAT0, FLAG_BONUS, FLAG_DISGRACED, FLIPPED, FOOL, FREE_MULLIGAN_USED,
    HAND, INQUISITOR, JUDGE, JUDGE_MIN_BASE, KINGS_HAND, KNOWN, MATCH_OVER, MULLIGANS, MUTED, MUTED_VALUE, MYSTIC,
    MYSTIC_HIGHEST, OATHBOUND, OATHBOUND_VALUE, PEND_ARG, PEND_EFFECT, PEND_GIVE, PEND_IMMUNE, PEND_LEFT,
    PEND_USER, PHASE, PH_ANTE, PH_ASSASSIN, PH_DUNGEON, PH_FIRST, PH_FOOL, PH_INQUISITOR, PH_JUDGE_ANTE,
    PH_JUDGE_NAME, PH_KINGS_HAND, PH_MULLIGAN, PH_MYSTIC, PH_OATH_FOLLOW, PH_PRINCESS, PH_PRINCESS_OPP,
    PH_PRINCESS_OWN, PH_REDEAL, PH_ROUND_OVER, PH_SENTRY_GIVE, PH_SENTRY_PICK, PH_SOLDIER_DISGRACE,
    PH_SOLDIER_NAME, PH_START, PH_SUCCESSOR, PH_TURN, PLAYERS, PLIES, POINTS, PRINCESS, QUEEN, REMOVED,
    ROUND_FIELDS, ROYALTY, SCORE, SENTRY, SETUP_STAGE, SOLDIER, SOLDIER_BONUS, SOLDIER_DISGRACES, SUCCESSOR,
    TRUE_KING, TYPES, UNUSED, WARLORD, WARLORD_COURT_WITH_ROYALTY, WARLORD_HAND_WITH_ROYALTY, WINNER, ZEALOT,
)

SRC_HAND = 0
SRC_ANTE = 1
SRC_FOLLOW = 2  # the card played right after an Oathbound override: Immune to King's Hand


# ---- reading the state -----------------------------------------------------------------------
@kernel(inline="always")
def zone_count(s, zone, p):
    """Cards in p's per-type zone (HAND or ANTE)."""
    total = 0
    for t in range(TYPES):
        total += s[zone + p * TYPES + t]
    return total


@kernel(inline="always")
def hand_count(s, p):
    return zone_count(s, HAND, p)


@kernel(inline="always")
def is_disgraced(s, i):
    return (s[COURT_FLAGS + i] & FLAG_DISGRACED) != 0


@kernel(inline="always")
def court_muted(s, t):
    """A played card whose base value the Mystic named has lost its text."""
    return s[MUTED] != 0 and BASE_VALUE[t] == s[MUTED]


@kernel(inline="always")
def hand_muted(s, cfg, t):
    """Text of a card outside the Court (hand, reactions, play permissions)."""
    return cfg[CFG_MUTE_HAND] != 0 and court_muted(s, t)


@kernel(inline="always")
def royalty_in_court(s):
    for i in range(s[COURT_LEN]):
        if ROYALTY[s[COURT_TYPE + i]] and not is_disgraced(s, i):
            return True
    return False


@kernel(inline="always")
def throne_is_royalty(s):
    top = s[COURT_LEN] - 1
    return top >= 0 and ROYALTY[s[COURT_TYPE + top]] == 1 and not is_disgraced(s, top)


@kernel(inline="always")
def court_value(s, i):
    """Value of Court card i. Setting effects (Disgrace, Mystic, Warlord) beat the Soldier's +2."""
    if is_disgraced(s, i):
        return DISGRACED_VALUE
    t = s[COURT_TYPE + i]
    if court_muted(s, t):
        return MUTED_VALUE
    if t == WARLORD and royalty_in_court(s):
        return WARLORD_COURT_WITH_ROYALTY
    value = BASE_VALUE[t]
    if t == SOLDIER and (s[COURT_FLAGS + i] & FLAG_BONUS) != 0 and i == s[COURT_LEN] - 1:
        value += SOLDIER_BONUS
    return value


@kernel(inline="always")
def throne_value(s):
    if s[COURT_LEN] == 0:
        return 0
    return court_value(s, s[COURT_LEN] - 1)


@kernel(inline="always")
def hand_value(s, cfg, t):
    if t == WARLORD and not hand_muted(s, cfg, t) and royalty_in_court(s):
        return WARLORD_HAND_WITH_ROYALTY
    return BASE_VALUE[t]


@kernel(inline="always")
def oathbound_override(s, cfg, p):
    """The Oathbound may go onto a higher Throne card when another card can follow it."""
    return (s[COURT_LEN] > 0 and throne_value(s) > OATHBOUND_VALUE and not court_muted(s, OATHBOUND)
            and not hand_muted(s, cfg, OATHBOUND) and hand_count(s, p) >= 2)


@kernel
def can_play(s, cfg, p, t):
    """May p play a card of type t from hand as the turn (values, or a card's permission)?"""
    return can_play_on(s, cfg, p, t, throne_value(s), throne_is_royalty(s))


@kernel(inline="always")
def can_play_on(s, cfg, p, t, throne, royal_throne):
    """can_play with the Throne's value and Royalty already read (the legal-move loop)."""
    if s[HAND + p * TYPES + t] == 0:
        return False
    if s[COURT_LEN] == 0 or hand_value(s, cfg, t) >= throne:
        return True
    if t == ELDER and not hand_muted(s, cfg, t) and royal_throne:
        return True
    if t == ZEALOT and not hand_muted(s, cfg, t) and s[FLIPPED + p] == 1 and not royal_throne:
        return True
    return t == OATHBOUND and oathbound_override(s, cfg, p)


@kernel(inline="always")
def can_flip(s, p):
    return s[FLIPPED + p] == 0 and s[COURT_LEN] > 0


# ---- small state changes ---------------------------------------------------------------------
@kernel(inline="always")
def take_from_hand(s, p, t):
    s[HAND + p * TYPES + t] -= 1
    known = KNOWN + (1 - p) * TYPES + t
    if s[known] > 0:
        s[known] -= 1


@kernel
def give_to_hand_seen(s, p, t):
    """p takes a card in plain sight: the opponent now knows it is in p's hand."""
    s[HAND + p * TYPES + t] += 1
    s[KNOWN + (1 - p) * TYPES + t] += 1


@kernel
def learn_holds(s, observer, t):
    known = KNOWN + observer * TYPES + t
    if s[known] == 0:
        s[known] = 1


@kernel(inline="always")
def push_court(s, t):
    n = s[COURT_LEN]
    s[COURT_TYPE + n] = t
    s[COURT_FLAGS + n] = 0
    s[COURT_LEN] = n + 1


@kernel
def pop_court(s):
    s[COURT_LEN] -= 1
    return s[COURT_TYPE + s[COURT_LEN]]


@kernel
def remove_court(s, i):
    t = s[COURT_TYPE + i]
    for j in range(i, s[COURT_LEN] - 1):
        s[COURT_TYPE + j] = s[COURT_TYPE + j + 1]
        s[COURT_FLAGS + j] = s[COURT_FLAGS + j + 1]
    s[COURT_LEN] -= 1
    return t


@kernel(inline="always")
def disgrace(s, i):
    s[COURT_FLAGS + i] = FLAG_DISGRACED


@kernel
def any_face_up(s, below_top):
    last = s[COURT_LEN] - 1 if below_top else s[COURT_LEN]
    for i in range(last):
        if not is_disgraced(s, i):
            return True
    return False


@kernel
def any_disgraced(s):
    for i in range(s[COURT_LEN]):
        if is_disgraced(s, i):
            return True
    return False


@kernel
def sentry_target(s, i):
    return i < s[COURT_LEN] - 1 and not is_disgraced(s, i) and ROYALTY[s[COURT_TYPE + i]] == 0


@kernel
def any_sentry_target(s):
    for i in range(s[COURT_LEN] - 1):
        if sentry_target(s, i):
            return True
    return False


@kernel
def has_judge_card(s, p):
    for t in range(TYPES):
        if s[HAND + p * TYPES + t] > 0 and BASE_VALUE[t] >= JUDGE_MIN_BASE:
            return True
    return False


@kernel(inline="always")
def in_mode(cfg, t):
    return cfg[CFG_DECK + t] > 0 or cfg[CFG_FIXED_ACCUSED] == t


# ---- round flow ------------------------------------------------------------------------------
@kernel(inline="always")
def decide(s, phase, player):
    s[PHASE] = phase
    s[DECIDER] = player


@kernel(inline="always")
def end_turn(s):
    s[CURRENT] = 1 - s[CURRENT]
    s[PLIES] += 1
    s[PHASE] = PH_START


@kernel
def end_round(s, cfg, winner):
    """Score the round (rulebook scoring) and hand the True King to the loser."""
    loser = 1 - winner
    s[WINNER] = winner
    points = 1
    if cfg[CFG_FULL_SCORING]:
        if s[FLIPPED + winner] == 0:
            points += 1
        if hand_count(s, loser) > 0 or s[SUCCESSOR + loser] >= 0:
            points += 1
    s[POINTS] = points
    s[SCORE + winner] += points
    s[TRUE_KING] = loser
    if s[SCORE + winner] >= cfg[CFG_POINTS]:
        s[MATCH_OVER] = 1
    s[PHASE] = PH_ROUND_OVER


@kernel
def start_turn(s, cfg):
    """Condemned card first, then a face-up Antechamber card, else a free choice (or a loss)."""
    p = s[CURRENT]
    if s[PLIES] >= cfg[CFG_PLY_CAP]:
        s[CAPPED] = 1
        s[PHASE] = PH_ROUND_OVER
        return
    if s[CONDEMNED + p] >= 0:
        s[REMOVED + s[CONDEMNED + p]] += 1
        s[CONDEMNED + p] = -1
        end_turn(s)
        return
    if zone_count(s, ANTE, p) > 0:
        only = -1
        kinds = 0
        for t in range(TYPES):
            if s[ANTE + p * TYPES + t] > 0:
                only = t
                kinds += 1
        if kinds == 1:
            play_card(s, cfg, p, only, SRC_ANTE)
        else:
            decide(s, PH_ANTE, p)
        return
    if can_flip(s, p):
        decide(s, PH_TURN, p)
        return
    throne = throne_value(s)
    royal_throne = throne_is_royalty(s)
    for t in range(TYPES):
        if can_play_on(s, cfg, p, t, throne, royal_throne):
            decide(s, PH_TURN, p)
            return
    end_round(s, cfg, 1 - p)


@kernel
def advance(s, cfg):
    while s[PHASE] == PH_START:
        start_turn(s, cfg)


@kernel
def play_card(s, cfg, p, t, source):
    """Put a card on the Throne from hand, Antechamber or as the Oathbound's follow-up."""
    if source == SRC_ANTE:
        s[ANTE + p * TYPES + t] -= 1
    else:
        take_from_hand(s, p, t)
    if source == SRC_HAND and t == OATHBOUND and s[COURT_LEN] > 0 and throne_value(s) > OATHBOUND_VALUE:
        disgrace(s, s[COURT_LEN] - 1)
        push_court(s, t)
        decide(s, PH_OATH_FOLLOW, p)
        return
    push_court(s, t)
    s[PEND_IMMUNE] = 1 if source == SRC_FOLLOW else 0
    s[PEND_USER] = p
    if court_muted(s, t):
        end_turn(s)
        return
    on_played(s, cfg, p, t)


@kernel
def on_played(s, cfg, p, t):
    """The played card's ability: open its first decision, or resolve a mandatory one."""
    q = 1 - p
    if t == FOOL and any_face_up(s, True):
        decide(s, PH_FOOL, p)
    elif t == INQUISITOR:
        decide(s, PH_INQUISITOR, p)
    elif t == SOLDIER:
        decide(s, PH_SOLDIER_NAME, p)
    elif t == JUDGE:
        decide(s, PH_JUDGE_NAME, p)
    elif t == MYSTIC and any_disgraced(s):
        decide(s, PH_MYSTIC, p)
    elif t == SENTRY and hand_count(s, p) > 0 and any_sentry_target(s):
        decide(s, PH_SENTRY_PICK, p)
    elif t == PRINCESS and hand_count(s, p) > 0 and hand_count(s, q) > 0:
        decide(s, PH_PRINCESS, p)
    elif t == QUEEN:
        for i in range(s[COURT_LEN] - 1):
            disgrace(s, i)
        end_turn(s)
    else:
        end_turn(s)


@kernel
def choose_ability(s, cfg, effect, arg):
    """The user has chosen to use an ability (and its target): the King's Hand may answer."""
    s[PEND_EFFECT] = effect
    s[PEND_ARG] = arg
    reactor = 1 - s[PEND_USER]
    if (s[PEND_IMMUNE] == 0 and s[HAND + reactor * TYPES + KINGS_HAND] > 0
            and not hand_muted(s, cfg, KINGS_HAND)):
        decide(s, PH_KINGS_HAND, reactor)
    else:
        resolve_effect(s, cfg)


@kernel
def counter(s, cfg):
    """King's Hand: both cards are Condemned. A played card leaves at once and ends the turn."""
    reactor = s[DECIDER]
    user = s[PEND_USER]
    take_from_hand(s, reactor, KINGS_HAND)
    s[CONDEMNED + reactor] = KINGS_HAND
    if s[PEND_EFFECT] == ASSASSIN:
        take_from_hand(s, user, ASSASSIN)
        s[CONDEMNED + user] = ASSASSIN
        complete_flip(s)
    else:
        s[REMOVED + pop_court(s)] += 1
        end_turn(s)


@kernel
def resolve_effect(s, cfg):
    effect = s[PEND_EFFECT]
    arg = s[PEND_ARG]
    p = s[PEND_USER]
    q = 1 - p
    if effect == FOOL:
        give_to_hand_seen(s, p, remove_court(s, arg))
        end_turn(s)
    elif effect == INQUISITOR:
        if s[HAND + q * TYPES + arg] > 0:
            take_from_hand(s, q, arg)
            s[ANTE + q * TYPES + arg] += 1
        end_turn(s)
    elif effect == SOLDIER:
        if s[HAND + q * TYPES + arg] > 0:
            learn_holds(s, p, arg)
            s[COURT_FLAGS + s[COURT_LEN] - 1] |= FLAG_BONUS
            s[PEND_LEFT] = SOLDIER_DISGRACES
            decide(s, PH_SOLDIER_DISGRACE, p)
        else:
            end_turn(s)
    elif effect == JUDGE:
        if s[HAND + q * TYPES + arg] > 0:
            learn_holds(s, p, arg)
        if s[HAND + q * TYPES + arg] > 0 and has_judge_card(s, p):
            decide(s, PH_JUDGE_ANTE, p)
        else:
            end_turn(s)
    elif effect == MYSTIC:
        s[MUTED] = arg
        end_turn(s)
    elif effect == SENTRY:
        decide(s, PH_SENTRY_GIVE, p)
    elif effect == PRINCESS:
        decide(s, PH_PRINCESS_OWN, p)
    else:  # the Assassin's reaction stands: the King's flipper loses the round
        s[ASSASSINATED] = 1
        end_round(s, cfg, p)


@kernel
def flip_king(s, cfg, p):
    s[FLIPPED + p] = 1
    q = 1 - p
    if s[HAND + q * TYPES + ASSASSIN] > 0 and not hand_muted(s, cfg, ASSASSIN):
        decide(s, PH_ASSASSIN, q)
    else:
        complete_flip(s)


@kernel
def complete_flip(s):
    """The King's power: Disgrace the Throne card, take the Successor into hand."""
    p = s[CURRENT]
    disgrace(s, s[COURT_LEN] - 1)
    if s[SUCCESSOR + p] >= 0:
        s[HAND + p * TYPES + s[SUCCESSOR + p]] += 1
        s[SUCCESSOR + p] = -1
    end_turn(s)


@kernel
def call_mulligan(s, cfg, p):
    """One free mulligan per match; after it, the caller takes the True King and the opponent +2."""
    s[MULLIGANS] += 1
    if s[FREE_MULLIGAN_USED + p] == 0:
        s[FREE_MULLIGAN_USED + p] = 1
    else:
        s[SCORE + 1 - p] += 2
        s[TRUE_KING] = p
        if s[SCORE + 1 - p] >= cfg[CFG_POINTS]:
            s[MATCH_OVER] = 1
            s[WINNER] = -1
            s[PHASE] = PH_ROUND_OVER
            return
    s[PHASE] = PH_REDEAL


@kernel
def setup_step(s, cfg, seat):
    """The next pre-play decision of ``seat``: mulligan (if allowed) then Successor."""
    if cfg[CFG_MULLIGANS]:
        decide(s, PH_MULLIGAN, seat)
    else:
        decide(s, PH_SUCCESSOR, seat)


@kernel
def locked_in(s, cfg):
    """A player has placed Successor (and Dungeon): the second player's turn, or play begins."""
    if s[SETUP_STAGE] == 0:
        s[SETUP_STAGE] = 1
        setup_step(s, cfg, 1 - s[FIRST])
    else:
        s[CURRENT] = s[FIRST]
        s[PHASE] = PH_START
        advance(s, cfg)


@kernel
def set_first(s, cfg, seat):
    s[FIRST] = seat
    s[SETUP_STAGE] = 0
    setup_step(s, cfg, seat)


@kernel
def apply_action(s, cfg, a):
    """Perform decision ``a`` of s[DECIDER] in the current phase, then run to the next decision."""
    phase = s[PHASE]
    d = s[DECIDER]
    if phase == PH_FIRST:
        set_first(s, cfg, d if a == ACT_YES else 1 - d)
    elif phase == PH_MULLIGAN:
        if a == ACT_YES:
            call_mulligan(s, cfg, d)
        else:
            decide(s, PH_SUCCESSOR, d)
    elif phase == PH_SUCCESSOR:
        s[HAND + d * TYPES + a] -= 1
        s[SUCCESSOR + d] = a
        if cfg[CFG_DUNGEON]:
            decide(s, PH_DUNGEON, d)
        else:
            locked_in(s, cfg)
    elif phase == PH_DUNGEON:
        s[HAND + d * TYPES + a] -= 1
        s[DUNGEON + d] = a
        locked_in(s, cfg)
    elif phase == PH_TURN:
        if a == ACT_FLIP:
            flip_king(s, cfg, d)
        else:
            play_card(s, cfg, d, a, SRC_HAND)
    elif phase == PH_ANTE:
        play_card(s, cfg, d, a, SRC_ANTE)
    elif phase == PH_OATH_FOLLOW:
        play_card(s, cfg, d, a, SRC_FOLLOW)
    else:
        apply_ability_choice(s, cfg, phase, d, a)
    advance(s, cfg)


@kernel
def apply_ability_choice(s, cfg, phase, d, a):
    if phase == PH_KINGS_HAND:
        if a == ACT_YES:
            counter(s, cfg)
        else:
            resolve_effect(s, cfg)
    elif phase == PH_ASSASSIN:
        if a == ACT_YES:
            s[PEND_USER] = d
            s[PEND_IMMUNE] = 0
            choose_ability(s, cfg, ASSASSIN, 0)
        else:
            complete_flip(s)
    elif a == ACT_NO and phase != PH_SOLDIER_NAME and phase != PH_JUDGE_NAME:
        end_turn(s)  # the optional ability is declined (or the Soldier stops disgracing)
    elif phase == PH_FOOL:
        choose_ability(s, cfg, FOOL, a)
    elif phase == PH_INQUISITOR:
        choose_ability(s, cfg, INQUISITOR, a)
    elif phase == PH_SOLDIER_NAME:
        choose_ability(s, cfg, SOLDIER, a)
    elif phase == PH_JUDGE_NAME:
        choose_ability(s, cfg, JUDGE, a)
    elif phase == PH_MYSTIC:
        disgrace(s, s[COURT_LEN] - 1)
        choose_ability(s, cfg, MYSTIC, a)
    elif phase == PH_SENTRY_PICK:
        disgrace(s, s[COURT_LEN] - 1)
        choose_ability(s, cfg, SENTRY, a)
    elif phase == PH_PRINCESS:
        choose_ability(s, cfg, PRINCESS, a)
    else:
        apply_exchange(s, phase, d, a)


@kernel
def apply_exchange(s, phase, d, a):
    """The follow-up choices of a resolved ability: which card moves where."""
    if phase == PH_SOLDIER_DISGRACE:
        disgrace(s, a)
        s[PEND_LEFT] -= 1
        if s[PEND_LEFT] == 0 or not any_face_up(s, False):
            end_turn(s)
    elif phase == PH_JUDGE_ANTE:
        take_from_hand(s, d, a)
        s[ANTE + d * TYPES + a] += 1
        end_turn(s)
    elif phase == PH_SENTRY_GIVE:
        i = s[PEND_ARG]
        taken = s[COURT_TYPE + i]
        take_from_hand(s, d, a)
        s[COURT_TYPE + i] = a
        s[COURT_FLAGS + i] = 0
        give_to_hand_seen(s, d, taken)
        end_turn(s)
    elif phase == PH_PRINCESS_OWN:
        s[PEND_GIVE] = a
        decide(s, PH_PRINCESS_OPP, 1 - d)
    else:  # PH_PRINCESS_OPP: the two chosen cards change hands, each seen by its receiver only
        owner = 1 - d
        given = s[PEND_GIVE]
        take_from_hand(s, owner, given)
        take_from_hand(s, d, a)
        give_to_hand_seen(s, d, given)
        give_to_hand_seen(s, owner, a)
        end_turn(s)


# ---- legal answers (the posed decision) ------------------------------------------------------
@kernel(inline="always")
def bit(a):
    return np.int64(1) << np.int64(a)


@kernel
def hand_types(s, p):
    """The types in p's hand, as a mask."""
    mask = np.int64(0)
    for t in range(TYPES):
        if s[HAND + p * TYPES + t] > 0:
            mask |= bit(t)
    return mask


@kernel
def legal_mask(s, cfg):
    """The legal answers of the pending decision, bit ``a`` for action code ``a`` (layout's
    "Decisions" table)."""
    phase = s[PHASE]
    d = s[DECIDER]
    mask = np.int64(0)
    if phase == PH_FIRST or phase == PH_MULLIGAN or phase == PH_PRINCESS or phase == PH_KINGS_HAND \
            or phase == PH_ASSASSIN:
        return bit(ACT_YES) | bit(ACT_NO)
    if phase == PH_TURN:
        throne = throne_value(s)
        royal_throne = throne_is_royalty(s)
        for t in range(TYPES):
            if can_play_on(s, cfg, d, t, throne, royal_throne):
                mask |= bit(t)
        if can_flip(s, d):
            mask |= bit(ACT_FLIP)
        return mask
    if phase == PH_ANTE:
        for t in range(TYPES):
            if s[ANTE + d * TYPES + t] > 0:
                mask |= bit(t)
        return mask
    if phase == PH_SUCCESSOR or phase == PH_DUNGEON or phase == PH_OATH_FOLLOW or phase == PH_SENTRY_GIVE \
            or phase == PH_PRINCESS_OWN or phase == PH_PRINCESS_OPP:
        return hand_types(s, d)
    if phase == PH_INQUISITOR or phase == PH_SOLDIER_NAME or phase == PH_JUDGE_NAME:
        for t in range(TYPES):
            if in_mode(cfg, t):
                mask |= bit(t)
    elif phase == PH_FOOL:
        for i in range(s[COURT_LEN] - 1):
            if not is_disgraced(s, i):
                mask |= bit(i)
    elif phase == PH_SOLDIER_DISGRACE:
        for i in range(s[COURT_LEN]):
            if not is_disgraced(s, i):
                mask |= bit(i)
    elif phase == PH_JUDGE_ANTE:
        for t in range(TYPES):
            if s[HAND + d * TYPES + t] > 0 and BASE_VALUE[t] >= JUDGE_MIN_BASE:
                mask |= bit(t)
    elif phase == PH_MYSTIC:
        for v in range(1, MYSTIC_HIGHEST + 1):
            mask |= bit(v)
    elif phase == PH_SENTRY_PICK:
        for i in range(s[COURT_LEN] - 1):
            if sentry_target(s, i):
                mask |= bit(i)
    if phase != PH_SOLDIER_NAME and phase != PH_JUDGE_NAME:
        mask |= bit(ACT_NO)
    return mask


@kernel
def pose_pending(s, cfg, restrict):
    """Pose the pending decision through the engine: D_CHOICES = its legal answers, narrowed by
    the deciding seat's restriction (``restrict`` is indexed by seat). Returns the mask."""
    return pose(s, s[DECIDER], s[PHASE], legal_mask(s, cfg), restrict)


@kernel
def answers(mask, out):
    """The answers of a mask listed into ``out`` in ascending code order; returns how many."""
    n = 0
    m = mask
    while m != 0:
        low = m & -m
        out[n] = bit_index(low)
        n += 1
        m ^= low
    return n


# ---- dealing ---------------------------------------------------------------------------------
@kernel
def deal_round(s, cfg, stream, rotation, cards):
    """Reset the round, shuffle and deal. Hands belong to policy SLOTS (slot k sits at seat
    (k + rotation) % 2), so a deal replayed under the other rotation swaps the seats' hands."""
    s[:ROUND_FIELDS] = 0
    for p in range(PLAYERS):
        s[SUCCESSOR + p] = -1
        s[DUNGEON + p] = -1
        s[CONDEMNED + p] = -1
    s[WINNER] = -1
    s[CHOOSER] = -1
    n = 0
    for t in range(TYPES):
        for _ in range(cfg[CFG_DECK + t]):
            cards[n] = t
            n += 1
    shuffle(stream, cards, n)
    hand = cfg[CFG_HAND]
    for slot in range(PLAYERS):
        seat = (slot + rotation) % PLAYERS
        for k in range(hand):
            s[HAND + seat * TYPES + cards[slot * hand + k]] += 1
    left = PLAYERS * hand
    if cfg[CFG_FIXED_ACCUSED] >= 0:
        s[ACCUSED] = cfg[CFG_FIXED_ACCUSED]
    else:
        s[ACCUSED] = cards[left]
        left += 1
    s[UNUSED] = cards[left] if left < n else -1
    mode = cfg[CFG_FIRST_MODE]
    if mode == FIRST_BY_TRUE_KING:
        s[CHOOSER] = s[TRUE_KING]
        decide(s, PH_FIRST, s[TRUE_KING])
    else:
        set_first(s, cfg, 0 if mode == FIRST_SEAT0 else 1)


@allocating_kernel
def count_cards(s):
    """Cards of each type in every zone of the round (for the conservation invariant)."""
    counts = np.zeros(TYPES, dtype=np.int64)
    for p in range(PLAYERS):
        for t in range(TYPES):
            counts[t] += s[HAND + p * TYPES + t] + s[ANTE + p * TYPES + t]
        for zone in (SUCCESSOR, DUNGEON, CONDEMNED):
            if s[zone + p] >= 0:
                counts[s[zone + p]] += 1
    for i in range(s[COURT_LEN]):
        counts[s[COURT_TYPE + i]] += 1
    for t in range(TYPES):
        counts[t] += s[REMOVED + t]
    counts[s[ACCUSED]] += 1
    if s[UNUSED] >= 0:
        counts[s[UNUSED]] += 1
    return counts
