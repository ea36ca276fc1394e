"""The compiled rules kernel of The Imposter Kings (base game: 2 players, Cutthroat for 3, 2v2 for 4;
Fragments of Nersetti for 2 players, step 1: the Immortal, step 2: the Army).

A round is a state machine over one plain int64 array ``s`` (layout below). The machine stops only
at DECISIONS: ``legal_mask(s, cfg)`` is what the deciding seat (``s[DECIDER]``) may do, a bit mask
over action codes; ``pose_pending`` poses it through the engine (the decision header's D_CHOICES,
narrowed by the seat's restriction); ``apply_action(s, cfg, action)`` performs one choice and runs
every automatic step (Condemned removals, single Antechamber cards, turn passing, the knock-out of a
seat that cannot act) until the next decision or the end of the round. The batch kernel, the
policies' searches, the position API and the tests all drive rounds through these functions only:
the match through the engine's loop (balance.engine.step), with this module's round verbs
(``round_advance``, ``round_over``, ``round_pose``, ``round_apply``). The table's size is
``cfg[CFG_PLAYERS]``: with two seats every rule reduces to the 2-player game (the next seat is the
opponent, the one knock-out ends the round, every "choose an opponent" has one answer and is not
posed). In 2v2 (``cfg[CFG_TEAMS]``) a seat's side is its team (``side_of``): "an opponent" is a
player of the other team, "all other players" includes the partner, and the first knock-out ends the
round ("If either partner loses, the team loses").

The state and configuration layouts, phases and action codes are in ``layout``.

Compiled inline (``inline="always"``): expressions of the state (offsets, counts, values) and the
functions with a single caller (but apply_ability_choice and the picks only 3-4 players make,
see there). Numba compiles every other function on its own, with machine code for everything it
calls, so a helper called from many places (next_seat, forget_one, ...) stays a call, and a single
caller's step (start_turn, on_played, apply_exchange) is no extra copy of the state machine to
compile.
"""

import numpy as np

from balance.engine.config import live_types
from balance.engine.decision import pose
from balance.engine.kernels import allocating_kernel, kernel
from balance.engine.rng import bit_index, random_bit, shuffle
from balance.games.imposter_kings.layout import (
    ACCUSED, ACT_FLIP, ACT_NO, ACT_YES, ANTE, ASSASSIN, ASSASSINATED, BASE_VALUE, CAPPED, CFG_DECK, CFG_DIRECTION,
    SEATS_IN_PLAY, TEAM_PLAY,
    CFG_DUNGEON, CFG_FIRST_MODE, CFG_FIXED_ACCUSED, CFG_FULL_SCORING, CFG_HAND, CFG_HERALD_ANY, CFG_MULLIGANS, CFG_ARRIVAL_ABILITY, CFG_IMMORTAL_HAND, CFG_MYSTIC_IS_MUTE,
    IMMORTAL, IMMORTAL_COURT_VALUE, IMMORTAL_LOWERS, IMMORTAL_WEAKENS, STEADFAST, AEGIS, ARMY, ARMY_TAKEN, CFG_ARMY, CFG_HAS_ARMY,
    EXHAUST, FLAG_OWNER_SHIFT, MUSTER_PAID, ARMY_PICK, ARMY_PICK_LEFT, ARMY_PICK_THEN, ARMY_PICK_TYPES,
    CFG_RALLY_ALL_OR_NONE, CFG_SIGNATURES, CFG_SIGNATURES_FIXED, DRAFT, DRAFT_DECK, DRAFT_FACE_UP, DRAFT_FIRST,
    DRAFT_PICKS, DRAFT_SECOND_PICKS, PH_DRAFT, PH_DRAFT_ORDER, PH_SIGNATURE, SIGNATURE, SIGNATURE_CHOICES,
    SIGNATURE_MASK, SIGNATURE_TYPES, SIGNATURES, SIG_CHOOSE, SIG_NONE, SIG_RANDOM, SIG_TOURNAMENT,
    PICK_FLAG_BEARER_RETURN, ANCESTOR, ANCESTOR_ELDER_BONUS, CFG_ANCESTOR_ANTE, CFG_ANCESTOR_HAND,
    DUNGEON_SHOWN, FLAG_BEARER, INFORMANT, LOCKSHIFT, PICK_ANCESTOR_REMOVE, PICK_FLAG_BEARER, PICK_INFORMANT_GUESS,
    PICK_INFORMANT_PLAYER, PICK_INFORMANT_TAKE, PICK_LOCKSHIFT, THEN_ANCESTOR_OFFER, THEN_FLAG_BEARER_RALLY,
    THEN_FLAG_BEARER_RETURN, PICK_RALLY, PICK_RECALL, RALLIED, PH_PICK_COURT, PICK_AEGIS, PICK_MUSTER, PICK_RECOMMISSION_EXHAUST,
    PICK_RECOMMISSION_RETURN, PICK_RECRUIT_COST, PICK_RECRUIT_TAKE, RECOMMISSION_EXHAUSTS,
    CFG_MUTE_HAND, CFG_PLAYERS, CFG_PLY_CAP, CFG_POINTS, CFG_REVEAL, CFG_SECOND_POINT, CFG_SPY_USER_CHOOSES,
    CFG_TEAMS, CFG_TRADE_RETRIES, CHOOSER, CLOCKWISE, ACT_FOURTH, PARTNER_CARD, PICK_PARTNER_CARD,
    PICK_PARTNER_TAKE, PICK_TRADE, SIDES, TRADE_MAX, TRADE_OPEN, TRADE_TRY,
    CONDEMNED, CONDEMNED_HIDDEN, COUNTERCLOCKWISE, COURT_FLAGS, COURT_LEN, COURT_TYPE, CURRENT, DECIDER, DIRECTION,
    DIRECTION_BY_TRUE_KING, DISGRACED_VALUE, DUNGEON, ELDER, EXCH_FIRST, EXCH_STEP, EXCH_VICTIM, EXECUTIONER,
    FIRST, FIRST_BY_TRUE_KING, FIRST_SEAT0, FLAG_BONUS, FLAG_DISGRACED, FLIPPED, FOOL, FREE_MULLIGAN_USED, HAND,
    HERALD, HERALD_MIN_VALUE, INQUISITOR, JUDGE, JUDGE_MIN_BASE, KINGS_HAND, KNOWN, KNOWN_SUCCESSOR, MATCH_OVER,
    MULLIGANS, MUTED, MUTED_VALUE, MYSTIC, MYSTIC_HIGHEST, OATHBOUND, OUT, OUT_BONUS, OUT_COUNT,
    PEND_ARG, PEND_EFFECT, PEND_GIVE, PEND_IMMUNE, PEND_LEFT, PEND_TARGET, PEND_USER, PHASE, PH_ANTE, PH_ASSASSIN,
    PH_DIRECTION, PH_DUNGEON, PH_EXECUTIONER, PH_FIRST, PH_FIRST_SEAT, PH_FOOL, PH_HERALD_PLAY, PH_INQUISITOR,
    PH_JUDGE_ANTE, PH_JUDGE_NAME, PH_KINGS_HAND, PH_MULLIGAN, PH_MYSTIC, PH_OATH_FOLLOW, PH_PICK_CARD,
    PH_PICK_PLAYER, PH_PRINCESS, PH_PRINCESS_OPP, PH_PRINCESS_OWN, PH_REDEAL, PH_REVEAL, PH_ROUND_OVER,
    PH_SENTRY_GIVE, PH_SENTRY_PICK, PH_SOLDIER_DISGRACE, PH_SOLDIER_NAME, PH_SPY, PH_START, PH_SUCCESSOR, PH_TURN,
    PH_WARDEN, PICK_ASSASSIN_KEEP, PICK_EXCHANGE_START, PICK_EXCHANGE_TAKE, PICK_EXCHANGE_VICTIM,
    PICK_EXEC_CONDEMN, PICK_FOR, PICK_HERALD_SUCCESSOR, PICK_JUDGE, PICK_PRINCESS, PICK_SPY, PICK_SPY_SWAP,
    PICK_WARDEN_GIVE, PLACED, PLAYERS, PLIES, POINTS, POOL, PRINCESS, QUEEN, REMOVED, REMOVED_HIDDEN, REVEALED,
    REVEAL_FIRST, REVEAL_TOTAL, ROUND_FIELDS, ROYALTY, SCORE, SEAT_MASK, SECOND, SENTRY, SETUP_STAGE, SOLDIER,
    SOLDIER_BONUS, SOLDIER_DISGRACES, SPY, SUCCESSOR, TAKEN, TRUE_KING, TYPES, UNUSED, WARDEN, WARDEN_FACE_UP, WARLORD,
    WARLORD_COURT_WITH_ROYALTY, WARLORD_HAND_WITH_ROYALTY, WINNER, ZEALOT,
    CFG_EXILE_HAND, CFG_EXILE_SELF, CFG_STRANGER_IMMUNE, CONSPIRACIST, CONSPIRACY_BONUS, CONSPIRACY_TURN_ENDS,
    CONSPIRING, COPIED_SHIFT, EXILE, EXILE_HEAVY_BASE, EXILE_MUTE, FLAG_CONSPIRED, NAKTURN, NAKTURN_COURT_VALUE,
    PH_NAKTURN_GUESS, PICK_NAKTURN_CONDEMN, PICK_NAKTURN_GUESSER, PICK_NAKTURN_NAME, PICK_STRANGER_COPY,
    REACT_WITH, REACTION, STRANGER, CFG_MYSTIC_ROYALTY_LOST, KNOWN_CONDEMNED, KNOWN_REMOVED,
    ALL_TYPES, ARMY_CARDS, CFG_FACET_LEFTOVER_REMOVED, CFG_KING_FACETS, THEN_END_TURN, THEN_TACTICIAN_SQUIRE,
    FACET_LEADER, FACET_TACTICIAN, KING_FACET, PH_FACET_TAKE, PH_KING,
    PICK_LEADER_TAKE, PICK_SQUIRE, PICK_TACTICIAN_REVEAL, PICK_TACTICIAN_SQUIRE, PICK_TACTICIAN_TAKE, SQUIRE,
    ARBITER, BARD, BID_CARDS, BID_WINNER, CFG_MERC, CFG_SWAP_TO_AREA, CFG_TEXT_EFFECT, CFG_TEXT_NEEDS_OTHER,
    CFG_TEXT_ON_BASE, COURT_ROOM, EFFECT_RECALL, EXTRA_SHOWN, MERC, MERC_AREA, MERC_DEALT, PH_RAISE, PICK_BID_TIE,
    PICK_MERC_COST, PICK_MERC_GIVE, PICK_MERC_MUSTER, PICK_MERC_TAKE, PICK_RECOMMISSION_ARMY, PICK_SWAP_GIVE,
    PICK_SWAP_TAKE, RAISE_ASKED,
    EV_ACTION, EV_DEAL, EV_DECIDER, EV_LEGAL, EV_PHASE, EV_ROUND, EV_THRONE, EV_THRONE_VALUE, HAND_BITS,
)

SRC_HAND = 0
SRC_ANTE = 1
SRC_FOLLOW = 2  # the card played right after an Oathbound override: Immune to King's Hand
SRC_HERALD = 3  # the card played after the Herald: from hand, by the Herald's permission


# ---- reading the state -----------------------------------------------------------------------
@kernel(inline="always")
def types_of(cfg):
    """The card types the setup can deal, types 0..types_of(cfg)-1: a compile-time constant when the
    kernels run with a ``balance.engine.config.Config`` (the 2-player base game's 14), else all TYPES.
    The loops over a zone's types stop there; cards of later types are never in the record."""
    return live_types(cfg, TYPES)


@kernel(inline="always")
def dealt(cfg, t):
    """Card type t can be in this setup at all; False at compile time for a type past a Config's count,
    so that card's text is no code there (``in_mode`` says whether the mode deals it)."""
    return t < types_of(cfg)


@kernel(inline="always")
def zone_row(zone, p):
    """Offset of seat p's row of a per-type zone (HAND, ANTE, CONDEMNED, ...). The seat is masked
    to its bits, which changes no seat but shows the compiler an index that cannot be negative: a
    loop over the row's types then reads consecutive memory, without Numba's negative-index
    correction on every read (which kept those loops from vectorizing)."""
    return zone + (p & SEAT_MASK) * TYPES


@kernel(inline="always")
def zone_count(s, cfg, zone, p):
    """Cards in p's per-type zone (HAND, ANTE, CONDEMNED, ...)."""
    total = 0
    for t in range(types_of(cfg)):
        total += s[zone_row(zone, p) + t]
    return total


@kernel(inline="always")
def hand_count(s, cfg, p):
    return zone_count(s, cfg, HAND, p)


@kernel(inline="always")
def is_disgraced(s, i):
    return (s[COURT_FLAGS + i] & FLAG_DISGRACED) != 0


# ---- keywords (Steadfast, Muted, Royalty) and values ---------------------------------------------
# Fragments of Nersetti's Reference: "Muted: the card loses all of its card text, including Royalty
# and other keywords. Steadfast always beats Muted"; "Steadfast: the card can't be Muted or have its
# value lowered by other cards". Values (FAQ "several things that change its value"): effects that
# set a value (Disgrace's 1, the Mystic's 3, the Warlord's 9) beat additions and subtractions (the
# Soldier's +2, the Immortal's -1), which combine. No two setting effects can meet yet (the Mystic
# takes the Warlord's text), so "the most recent one" has nothing to order.
# Signature Cards: the Conspiracist gives its player's hand and Antechamber Steadfast and +1 (kept by
# the cards played meanwhile, FLAG_CONSPIRED); an Exile Mutes every card but the Steadfast ones; a
# Stranger goes by the name and ability it copied (court_card). A card's own text that lowers it (the
# Conspiracist's and the Exile's on the Throne) is no lowering "by other cards": Steadfast keeps it.
@kernel(inline="always")
def steadfast(t):
    """Card type t has Steadfast as printed (the Immortal, Conspiracist, Exile)."""
    return STEADFAST[t] == 1


@kernel(inline="always")
def conspiring(s, cfg, p):
    """p's Conspiracist holds: "until the end of your next turn, cards in your hand and Antechamber
    have Steadfast and +1 value"."""
    return dealt(cfg, CONSPIRACIST) and s[CONSPIRING + p] > 0


@kernel
def exile_mutes(s, cfg, held):
    """An Exile's "every card is Muted until the start of your next turn" holds; for cards in hands
    and Antechambers (``held``) only under option exile_scope 'everywhere'. A mode without the Exile
    returns at once: every value and keyword read asks this."""
    if (held and cfg[CFG_EXILE_HAND] == 0) or not in_mode(cfg, EXILE):
        return False
    for p in range(cfg[CFG_PLAYERS]):
        if s[EXILE_MUTE + p] != 0:
            return True
    return False


@kernel(inline="always")
def held_steadfast(s, cfg, p, t):
    """Card t in p's hand or Antechamber (or just played by p) has Steadfast: printed, the Aegis
    until p's King is flipped, given by p's Conspiracist, or an Elder's given by the Ancestor."""
    return (steadfast(t) or (t == AEGIS and s[FLIPPED + p] == 0) or conspiring(s, cfg, p)
            or (t == ELDER and ancestor_reaches(s, cfg, True)))


@kernel(inline="always")
def court_owner(s, i):
    """The seat that played Court card i (-1: not recorded; only the Aegis's is)."""
    return ((s[COURT_FLAGS + i] >> FLAG_OWNER_SHIFT) & 7) - 1


@kernel(inline="always")
def muted(t, reached):
    """A Mute that reaches card type t takes its text, unless it has Steadfast."""
    return reached and not steadfast(t)


@kernel(inline="always")
def mystic_named(s, t):
    return s[MUTED] != 0 and BASE_VALUE[t] == s[MUTED]


@kernel
def ancestor_in_court(s, cfg):
    """An Ancestor (or a Stranger that copied it) is face up in the Court and keeps its text: neither
    the Mystic's number (it has no Steadfast of its own unless the Conspiracist's gift) nor an
    Exile's Mute took it. Reads the card's own Steadfast only (court_steadfast asks this for Elders)."""
    if not in_mode(cfg, ANCESTOR):
        return False
    for i in range(s[COURT_LEN]):
        if court_card(s, i) == ANCESTOR and not is_disgraced(s, i):
            firm = own_court_steadfast(s, cfg, i)
            mystic = mystic_named(s, s[COURT_TYPE + i]) and (cfg[CFG_MYSTIC_IS_MUTE] == 0 or not firm)
            if not mystic and (firm or not exile_mutes(s, cfg, False)):
                return True
    return False


@kernel(inline="always")
def ancestor_reaches(s, cfg, in_hand):
    """"While in the Court, Elders have Steadfast and +3 value": in the Court, and in hand too unless
    option ancestor_scope keeps it to the Court."""
    return (not in_hand or cfg[CFG_ANCESTOR_HAND] != 0) and ancestor_in_court(s, cfg)


@kernel
def immortal_in_court(s, cfg):
    """The Immortal (or a Stranger that copied her) is face up in the Court and keeps her text:
    neither the Mystic's number (option mystic_steadfast) nor a Mute (a Stranger is not Steadfast)
    took it."""
    for i in range(s[COURT_LEN]):
        if court_card(s, i) == IMMORTAL and not is_disgraced(s, i):
            if not court_mystic_set(s, cfg, i) and (court_steadfast(s, cfg, i) or not exile_mutes(s, cfg, False)):
                return True
    return False


@kernel(inline="always")
def immortal_holds(s, cfg):
    """"As long as she is in Court (and not Disgraced or removed)" the Immortal's text holds (read
    only in a mode that deals her)."""
    return dealt(cfg, IMMORTAL) and cfg[CFG_DECK + IMMORTAL] != 0 and immortal_in_court(s, cfg)


@kernel(inline="always")
def immortal_weakens(s, cfg, t, in_hand):
    """The Immortal's -1 and Mute reach t (a Queen, Princess or Elder): in the Court, and in hand too
    unless option immortal_scope keeps them to the Court (the caller asks whether the card is
    Steadfast where it lies)."""
    return (IMMORTAL_WEAKENS[t] == 1 and (not in_hand or cfg[CFG_IMMORTAL_HAND] != 0)
            and immortal_holds(s, cfg))


@kernel
def held_muted(s, cfg, p, t):
    """Card t in p's hand or Antechamber has no text (reactions, play permissions, the Warlord's
    value): the Mystic's number (option mystic_scope; a Mute that Steadfast holds off under option
    mystic_steadfast), the Immortal's Mute (option immortal_scope), an Exile's (option exile_scope)."""
    mystic = cfg[CFG_MUTE_HAND] != 0 and mystic_named(s, t)
    if mystic and cfg[CFG_MYSTIC_IS_MUTE] == 0:
        return True
    mute = (mystic or (IMMORTAL_WEAKENS[t] == 1 and cfg[CFG_IMMORTAL_HAND] != 0 and immortal_holds(s, cfg))
            or exile_mutes(s, cfg, True))
    return mute and not held_steadfast(s, cfg, p, t)


@kernel
def played_muted(s, cfg, p, t):
    """Card t, played by p now, arrives without its text (so without its ability): the Mystic took
    it, or a Mute reaches it (the Immortal's, unless option immortal_arrival lets a Queen or
    Princess use its ability first; an Exile's), unless it is Steadfast (held_steadfast: a card p
    plays while its Conspiracist holds keeps the gift in the Court)."""
    firm = held_steadfast(s, cfg, p, t)
    if mystic_named(s, t) and (cfg[CFG_MYSTIC_IS_MUTE] == 0 or not firm):
        return True
    if firm:
        return False
    return ((cfg[CFG_ARRIVAL_ABILITY] == 0 and IMMORTAL_WEAKENS[t] == 1 and immortal_holds(s, cfg))
            or exile_mutes(s, cfg, False))


@kernel(inline="always")
def court_card(s, i):
    """The name Court card i goes by: the card a Stranger copied, else its own type."""
    copied = (s[COURT_FLAGS + i] >> COPIED_SHIFT) - 1
    return copied if copied >= 0 else s[COURT_TYPE + i]


@kernel
def own_court_steadfast(s, cfg, i):
    """Court card i has Steadfast of its own: printed, the Aegis until its player's King is flipped,
    or the Conspiracist's gift kept while in the Court."""
    t = s[COURT_TYPE + i]
    if steadfast(t) or (s[COURT_FLAGS + i] & FLAG_CONSPIRED) != 0:
        return True
    owner = court_owner(s, i)
    return t == AEGIS and (owner < 0 or s[FLIPPED + owner] == 0)


@kernel
def court_steadfast(s, cfg, i):
    """Court card i has Steadfast: its own, or an Elder's given by the Ancestor."""
    return own_court_steadfast(s, cfg, i) or (s[COURT_TYPE + i] == ELDER and ancestor_reaches(s, cfg, False))


@kernel
def court_mystic_set(s, cfg, i):
    """The Mystic's number takes face-up Court card i's text and sets its value to 3 (not a
    Steadfast one's, under option mystic_steadfast 'steadfast_wins')."""
    return mystic_named(s, s[COURT_TYPE + i]) and (cfg[CFG_MYSTIC_IS_MUTE] == 0 or not court_steadfast(s, cfg, i))


@kernel
def court_mute_reaches(s, cfg, i):
    """A Mute takes face-up Court card i's text (and a Stranger's copied one): the Immortal's (on
    the Queen, Princess and Elders) or an Exile's, unless the card is Steadfast."""
    if court_steadfast(s, cfg, i):
        return False
    return (IMMORTAL_WEAKENS[s[COURT_TYPE + i]] == 1 and immortal_holds(s, cfg)) or exile_mutes(s, cfg, False)


@kernel
def court_royalty(s, cfg, i):
    """Face-up Court card i has Royalty: printed (the Queen, Princess), or given by the Immortal
    (herself, the Warlord); a Muted card has none. Royalty is a keyword: a Stranger does not copy
    it. The Mystic's loss of text leaves Royalty (option mystic_royalty 'kept'), or takes it as a Mute
    does (option 'lost'; only the Warlord the Immortal gives it can be named: the Mystic names 1-8)."""
    t = s[COURT_TYPE + i]
    if ROYALTY[t] == 1 or ((t == IMMORTAL or t == WARLORD) and immortal_holds(s, cfg)):
        if cfg[CFG_MYSTIC_ROYALTY_LOST] != 0 and court_mystic_set(s, cfg, i):
            return False
        return not court_mute_reaches(s, cfg, i)
    return False


@kernel(inline="always")
def royalty_in_court(s, cfg):
    if immortal_holds(s, cfg):
        return True  # she has Royalty herself
    for i in range(s[COURT_LEN]):
        if ROYALTY[s[COURT_TYPE + i]] and not is_disgraced(s, i) and court_royalty(s, cfg, i):
            return True
    return False


@kernel(inline="always")
def throne_is_royalty(s, cfg):
    top = s[COURT_LEN] - 1
    return top >= 0 and not is_disgraced(s, top) and court_royalty(s, cfg, top)


@kernel
def exile_heavy_cards(s, cfg, i):
    """The face-up Court cards of base value 7 or more that lower the Exile at i (itself too only
    under option exile_counts 'itself')."""
    count = 0
    for j in range(s[COURT_LEN]):
        if (not is_disgraced(s, j) and BASE_VALUE[s[COURT_TYPE + j]] >= EXILE_HEAVY_BASE
                and (j != i or cfg[CFG_EXILE_SELF] != 0)):
            count += 1
    return count


@kernel(inline="always")
def court_value(s, cfg, i):
    """Value of Court card i: a setting effect (Disgrace, Mystic, Warlord) beats the additions and
    subtractions (the Soldier's +2, the Conspiracist's +1, the Immortal's -1, the Conspiracist's
    and the Exile's own "less on the Throne"), which combine; a Muted card's text (and a
    Stranger's copied one) adds nothing. Never below 0."""
    if is_disgraced(s, i):
        return DISGRACED_VALUE
    t = s[COURT_TYPE + i]
    if court_mystic_set(s, cfg, i):
        return MUTED_VALUE
    name = court_card(s, i)
    text = not court_mute_reaches(s, cfg, i)
    if name == WARLORD and text and royalty_in_court(s, cfg):
        return WARLORD_COURT_WITH_ROYALTY
    value = IMMORTAL_COURT_VALUE if t == IMMORTAL else NAKTURN_COURT_VALUE if t == NAKTURN else BASE_VALUE[t]
    on_throne = i == s[COURT_LEN] - 1
    if name == SOLDIER and text and (s[COURT_FLAGS + i] & FLAG_BONUS) != 0 and on_throne:
        value += SOLDIER_BONUS
    if t == ELDER and ancestor_reaches(s, cfg, False):
        value += ANCESTOR_ELDER_BONUS
    if IMMORTAL_WEAKENS[t] == 1 and immortal_holds(s, cfg) and not court_steadfast(s, cfg, i):
        value -= IMMORTAL_LOWERS
    if (s[COURT_FLAGS + i] & FLAG_CONSPIRED) != 0:
        value += CONSPIRACY_BONUS
    if on_throne and text and name == CONSPIRACIST:
        value -= CONSPIRACY_BONUS
    elif on_throne and text and name == EXILE:
        value -= exile_heavy_cards(s, cfg, i)
    return max(value, 0)


@kernel(inline="always")
def throne_value(s, cfg):
    if s[COURT_LEN] == 0:
        return 0
    return court_value(s, cfg, s[COURT_LEN] - 1)


@kernel(inline="always")
def hand_value(s, cfg, p, t):
    """Value of card t in p's hand: the Warlord's 8 (a setting effect) beats p's Conspiracist's +1,
    which as Steadfast also holds off the Immortal's -1."""
    if t == WARLORD and not held_muted(s, cfg, p, t) and royalty_in_court(s, cfg):
        return WARLORD_HAND_WITH_ROYALTY
    value = BASE_VALUE[t]
    if conspiring(s, cfg, p):
        value += CONSPIRACY_BONUS
    if t == ELDER and ancestor_reaches(s, cfg, True):
        value += ANCESTOR_ELDER_BONUS
    if immortal_weakens(s, cfg, t, True) and not held_steadfast(s, cfg, p, t):
        value -= IMMORTAL_LOWERS
    return value


@kernel(inline="always")
def oathbound_override(s, cfg, p):
    """The Oathbound may go onto a higher Throne card when another card can follow it."""
    return (s[COURT_LEN] > 0 and throne_value(s, cfg) > hand_value(s, cfg, p, OATHBOUND)
            and not played_muted(s, cfg, p, OATHBOUND) and not held_muted(s, cfg, p, OATHBOUND)
            and hand_count(s, cfg, p) >= 2)


@kernel
def can_play(s, cfg, p, t):
    """May p play a card of type t from hand as the turn (values, or a card's permission)?"""
    return can_play_on(s, cfg, p, t, throne_value(s, cfg), throne_is_royalty(s, cfg))


@kernel(inline="always")
def can_play_on(s, cfg, p, t, throne, royal_throne):
    """can_play with the Throne's value and Royalty already read (the legal-move loop)."""
    if s[zone_row(HAND, p) + t] == 0:
        return False
    if (t == BARD or t == ARBITER) and not text_card_playable(s, cfg, p, t):
        return False
    if s[COURT_LEN] == 0 or hand_value(s, cfg, p, t) >= throne:
        return True
    if (t == ELDER or t == ANCESTOR) and not held_muted(s, cfg, p, t) and royal_throne:
        return True  # "May be played on any Royalty"
    if t == ZEALOT and not held_muted(s, cfg, p, t) and s[FLIPPED + p] == 1 and not royal_throne:
        return True
    if t == AEGIS and not held_muted(s, cfg, p, t):
        return True  # "may be played on any card"
    return t == OATHBOUND and oathbound_override(s, cfg, p)


@kernel(inline="always")
def text_slot(t):
    """The Bard's or the Arbiter's index in TEXT_CARDS (their scenario-defined texts)."""
    return 0 if t == BARD else 1


@kernel
def text_card_playable(s, cfg, p, t):
    """A card whose text needs another card in hand (the Arbiter, FAQ: "Can I play the Arbiter if I
    have no other cards to exchange? No.") is not played from hand as the last one."""
    return cfg[CFG_TEXT_NEEDS_OTHER + text_slot(t)] == 0 or hand_count(s, cfg, p) >= 2


@kernel
def playable_types(s, cfg, p):
    """The hand types p may play as the turn (a mask): can_play_on for each type p holds, not for
    every type (a hand holds few of them)."""
    throne = throne_value(s, cfg)
    royal_throne = throne_is_royalty(s, cfg)
    mask = np.int64(0)
    held = hand_types(s, cfg, p)
    while held != 0:
        low = held & -held
        if can_play_on(s, cfg, p, bit_index(low), throne, royal_throne):
            mask |= low
        held ^= low
    return mask


@kernel(inline="always")
def can_flip(s, p):
    return s[FLIPPED + p] == 0 and s[COURT_LEN] > 0


# ---- seats -----------------------------------------------------------------------------------
@kernel(inline="always")
def known_row(observer, owner):
    """Offset of what ``observer`` knows of ``owner``'s hand (layout.known_at; seats masked as in
    ``zone_row``)."""
    return KNOWN + ((observer & SEAT_MASK) * PLAYERS + (owner & SEAT_MASK)) * TYPES


@kernel(inline="always")
def wrap_seat(q, n):
    """q (0 <= q < 2n) as a seat 0..n-1 of an n-seat table: a subtraction, not a division (it
    runs at every decision)."""
    return q - n if q >= n else q


@kernel
def next_seat(s, cfg, p):
    """The next seat after p in the direction of play that is still in the round (p if none is)."""
    n = cfg[CFG_PLAYERS]
    if n == 2:  # the 2-player game: the opponent, whichever the direction
        q = 1 - p
        return q if s[OUT + q] == 0 else p
    q = p
    for _ in range(n):
        q += s[DIRECTION]  # a step round the table without a division (it runs every turn)
        if q == n:
            q = 0
        elif q < 0:
            q = n - 1
        if s[OUT + q] == 0:
            return q
    return p


@kernel(inline="always")
def team_side(teams, p):
    """p's side: with ``teams`` (2v2) its team (partners opposite, seat p's team is p % 2), else p itself."""
    return p & 1 if teams else p


@kernel(inline="always")
def side_count(teams, players):
    """How many sides score: 2v2's two teams, else every seat."""
    return SIDES if teams else players


@kernel(inline="always")
def side_of(cfg, p):
    """p's side in the setup ``cfg`` (``team_side``)."""
    return team_side(cfg[CFG_TEAMS], p)


@kernel(inline="always")
def partner_of(p):
    """2v2: the seat across the table."""
    return p ^ 2


@kernel(inline="always")
def is_opponent(cfg, p, q):
    """q plays against p: another seat, and in 2v2 one of the other team."""
    return q != p and side_of(cfg, q) != side_of(cfg, p)


@kernel
def seat_at(s, cfg, first, k):
    """The seat k places after ``first`` in turn order."""
    q = first
    for _ in range(k):
        q = next_seat(s, cfg, q)
    return q


@kernel
def next_holder(s, cfg, user, after, t):
    """The next seat after ``after`` in turn order, before coming back to ``user``, holding an
    unmuted card of type t in hand: who may react next (-1: nobody). Reactions go in turn order
    from the player after the trigger's cause (rulebook), each player once per trigger."""
    q = after
    for _ in range(cfg[CFG_PLAYERS]):
        q = next_seat(s, cfg, q)
        if q == user:
            return -1
        if (s[zone_row(HAND, q) + t] > 0 and not held_muted(s, cfg, q, t)) or stranger_reacts(s, cfg, q, t):
            return q
    return -1


@kernel
def stranger_reacts(s, cfg, q, t):
    """q may react with a Stranger acting as Reaction card t ("In hand, may act as any Reaction card
    that is in the Court below the Throne"): it holds a Stranger with its text, and a t is face up
    in the Court below the Throne."""
    if s[zone_row(HAND, q) + STRANGER] == 0 or REACTION[t] == 0 or held_muted(s, cfg, q, STRANGER):
        return False
    for i in range(s[COURT_LEN] - 1):
        if court_card(s, i) == t and not is_disgraced(s, i):
            return True
    return False


@kernel
def reaction_mask(s, cfg, d, t):
    """d's answers to a trigger of Reaction card t: ACT_YES react with the card itself, bit STRANGER
    with a Stranger acting as it, ACT_NO let it pass (one reaction per trigger)."""
    mask = bit(ACT_NO)
    if s[zone_row(HAND, d) + t] > 0 and not held_muted(s, cfg, d, t):
        mask |= bit(ACT_YES)
    if stranger_reacts(s, cfg, d, t):
        mask |= bit(STRANGER)
    return mask


@kernel
def others_with_cards(s, cfg, p):
    """The seats still in the round, other than p, holding a card in hand (a mask): the
    Princess's "pick a player" (in 2v2 the partner too)."""
    mask = np.int64(0)
    for q in range(cfg[CFG_PLAYERS]):
        if q != p and s[OUT + q] == 0 and hand_count(s, cfg, q) > 0:
            mask |= bit(q)
    return mask


@kernel
def opponents_in_round(s, cfg, p):
    """The opponents (in 2v2: of the other team) still in the round (a mask)."""
    mask = np.int64(0)
    for q in range(cfg[CFG_PLAYERS]):
        if is_opponent(cfg, p, q) and s[OUT + q] == 0:
            mask |= bit(q)
    return mask


@kernel(inline="always")
def single(mask):
    """Exactly one bit set."""
    return mask != 0 and mask & (mask - 1) == 0


# ---- small state changes ---------------------------------------------------------------------
@kernel(inline="always")
def take_from_hand(s, cfg, p, t):
    """A card leaves p's hand in plain sight: whoever knew it was there knows it is gone."""
    s[zone_row(HAND, p) + t] -= 1
    for o in range(cfg[CFG_PLAYERS]):
        known = known_row(o, p) + t
        if o != p and s[known] > 0:
            s[known] -= 1


@kernel
def give_to_hand_public(s, cfg, p, t):
    """p takes a card in plain sight: every other player now knows it is in p's hand."""
    s[zone_row(HAND, p) + t] += 1
    for o in range(cfg[CFG_PLAYERS]):
        if o != p:
            s[known_row(o, p) + t] += 1


@kernel
def give_seen_by(s, p, t, observer):
    """p receives a card only ``observer`` (its giver) sees."""
    s[zone_row(HAND, p) + t] += 1
    s[known_row(observer, p) + t] += 1


@kernel(inline="always")
def known_condemned_row(observer, owner):
    """Offset of the KNOWN_CONDEMNED row: what ``observer`` knows lies Condemned face down in front of ``owner``."""
    return KNOWN_CONDEMNED + ((observer & SEAT_MASK) * PLAYERS + (owner & SEAT_MASK)) * TYPES


@kernel
def remove_known_condemned(s, cfg, p, t):
    """p's face-down Condemned card of type t is removed from the round face down. Who knew every
    face-down card in front of p knows which one went (the rule takes the lowest type, as here) and
    where it lies now; anyone else is one less sure of each card it knew there."""
    left = zone_count(s, cfg, CONDEMNED_HIDDEN, p)  # before the removal
    for o in range(cfg[CFG_PLAYERS]):
        row = known_condemned_row(o, p)
        known = zone_count(s, cfg, row, 0)
        if o == p or known == 0:
            continue
        if known == left:
            s[row + t] -= 1
            s[KNOWN_REMOVED + o * TYPES + t] += 1
        else:
            for u in range(types_of(cfg)):
                if s[row + u] > 0:
                    s[row + u] -= 1


@kernel(inline="always")
def learn_holds(s, observer, owner, t):
    known = known_row(observer, owner) + t
    if s[known] == 0:
        s[known] = 1


@kernel
def learn_by_all(s, cfg, owner, t):
    """``owner`` confirms openly that it holds a card of type t."""
    for o in range(cfg[CFG_PLAYERS]):
        if o != owner:
            learn_holds(s, o, owner, t)


@kernel
def forget_hand(s, cfg, owner):
    """``owner``'s hand left it face down: nobody else knows of a card there any more."""
    for o in range(cfg[CFG_PLAYERS]):
        if o != owner:
            for t in range(types_of(cfg)):
                s[known_row(o, owner) + t] = 0


@kernel
def forget_one(s, cfg, owner, keep):
    """One card left ``owner``'s hand face down (a Successor, a Dungeon card, a swapped card):
    every other player but ``keep`` (-1: nobody) is one less sure of each card it knew there.
    The same for every card, so it tells nothing about which card it was."""
    for o in range(cfg[CFG_PLAYERS]):
        if o != owner and o != keep:
            for t in range(types_of(cfg)):
                known = known_row(o, owner) + t
                if s[known] > 0:
                    s[known] -= 1


@kernel
def forget_successor(s, cfg, owner):
    for o in range(cfg[CFG_PLAYERS]):
        s[KNOWN_SUCCESSOR + o * PLAYERS + owner] = -1


@kernel
def condemn_face_down(s, cfg, p, t):
    """The Executioner: p Condemns a card of the named base value face down. Everyone knows its
    base value, not its type, so each card of that base value p was known to hold is one less sure."""
    s[zone_row(HAND, p) + t] -= 1
    s[zone_row(CONDEMNED_HIDDEN, p) + t] += 1
    for o in range(cfg[CFG_PLAYERS]):
        if o != p:
            for u in range(types_of(cfg)):
                known = known_row(o, p) + u
                if BASE_VALUE[u] == BASE_VALUE[t] and s[known] > 0:
                    s[known] -= 1


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
def face_up_count(s):
    count = 0
    for i in range(s[COURT_LEN]):
        if not is_disgraced(s, i):
            count += 1
    return count


@kernel
def highest_court_base(s):
    """The highest base value in the Court (a Disgraced card has none)."""
    best = 0
    for i in range(s[COURT_LEN]):
        if not is_disgraced(s, i) and BASE_VALUE[s[COURT_TYPE + i]] > best:
            best = BASE_VALUE[s[COURT_TYPE + i]]
    return best


@kernel
def any_disgraced(s):
    for i in range(s[COURT_LEN]):
        if is_disgraced(s, i):
            return True
    return False


@kernel
def sentry_target(s, cfg, i):
    return i < s[COURT_LEN] - 1 and not is_disgraced(s, i) and not court_royalty(s, cfg, i)


@kernel
def any_sentry_target(s, cfg):
    for i in range(s[COURT_LEN] - 1):
        if sentry_target(s, cfg, i):
            return True
    return False


@kernel
def has_judge_card(s, cfg, p):
    for t in range(types_of(cfg)):
        if s[zone_row(HAND, p) + t] > 0 and BASE_VALUE[t] >= JUDGE_MIN_BASE:
            return True
    return False


@kernel(inline="always")
def in_mode(cfg, t):
    """Type t is dealt in the mode (its deck, the fixed Accused, an Army, the Signature Cards, the
    Mercenary deck)."""
    return dealt(cfg, t) and (cfg[CFG_DECK + t] > 0 or cfg[CFG_FIXED_ACCUSED] == t or cfg[CFG_ARMY + t] > 0
                              or ((cfg[CFG_SIGNATURES] != SIG_NONE or cfg[CFG_MERC] == 1) and SIGNATURE[t] == 1))


# ---- round flow ------------------------------------------------------------------------------
@kernel(inline="always")
def decide(s, phase, player):
    s[PHASE] = phase
    s[DECIDER] = player


@kernel(inline="always")
def pick_player(s, pick_for, player):
    s[PICK_FOR] = pick_for
    decide(s, PH_PICK_PLAYER, player)


@kernel(inline="always")
def pick_court(s, pick_for, player):
    s[PICK_FOR] = pick_for
    decide(s, PH_PICK_COURT, player)


@kernel(inline="always")
def pick_card(s, pick_for, player):
    s[PICK_FOR] = pick_for
    decide(s, PH_PICK_CARD, player)


@kernel(inline="always")
def end_turn(s, cfg):
    p = s[CURRENT]
    if s[CONSPIRING + p] > 0:  # the Conspiracist's effect: "until the end of your next turn"
        s[CONSPIRING + p] -= 1
    s[CURRENT] = next_seat(s, cfg, p)
    s[PLIES] += 1
    s[PHASE] = PH_START


@kernel
def end_team_round(s, cfg, loser):
    """2v2: ``loser`` is knocked out, so its team loses. "The winning team scores 1 point, +1 if
    either teammate's King is still face up, and/or +1 if either opponent still has cards in
    their hand or a Successor." The knocked-out player takes the True King."""
    winner = 1 - side_of(cfg, loser)
    s[WINNER] = winner
    exhaust_taken(s, cfg)
    points = 1
    if cfg[CFG_MERC]:  # "1 point, plus +1 for each face-up King on their team. There are no bonus points"
        points += 2 - s[FLIPPED + winner] - s[FLIPPED + partner_of(winner)]
    elif cfg[CFG_FULL_SCORING]:
        if s[FLIPPED + winner] == 0 or s[FLIPPED + partner_of(winner)] == 0:
            points += 1
        other = partner_of(loser)
        if s[OUT_BONUS + loser] == 1 or hand_count(s, cfg, other) > 0 or s[SUCCESSOR + other] >= 0:
            points += 1
    s[POINTS] = points
    s[SCORE + winner] += points
    s[TRUE_KING] = loser
    if s[SCORE + winner] >= cfg[CFG_POINTS]:
        s[MATCH_OVER] = 1
    s[PHASE] = PH_ROUND_OVER


@kernel
def end_round(s, cfg, winner):
    """Score the round (rulebook scoring: 1, +1 King face up, +1 per opponent who could still have
    played; Cutthroat's second place 1) and hand the True King to the player who lost first."""
    n = cfg[CFG_PLAYERS]
    s[WINNER] = winner
    exhaust_taken(s, cfg)
    points = 1
    if cfg[CFG_FULL_SCORING]:
        if s[FLIPPED + winner] == 0:
            points += 1
        for q in range(n):
            if q != winner and s[OUT_BONUS + q] == 1:
                points += 1
    s[POINTS] = points
    s[SCORE + winner] += points
    for q in range(n):
        if s[OUT + q] == 1:
            s[TRUE_KING] = q
        if n > 2 and s[OUT + q] == n - 1:
            s[SECOND] = q
            s[SCORE + q] += cfg[CFG_SECOND_POINT]
    for q in range(n):
        if s[SCORE + q] >= cfg[CFG_POINTS]:
            s[MATCH_OVER] = 1
    s[PHASE] = PH_ROUND_OVER


@kernel
def knock_out(s, cfg, p):
    """p loses the round (cannot take a turn, or assassinated): it is out of play for the round,
    its cards stay face down in front of it. When one player is left, the round ends (True)."""
    s[OUT_COUNT] += 1
    s[OUT + p] = s[OUT_COUNT]
    s[OUT_BONUS + p] = 1 if hand_count(s, cfg, p) > 0 or s[SUCCESSOR + p] >= 0 else 0
    if cfg[CFG_TEAMS]:
        end_team_round(s, cfg, p)
        return True
    if s[OUT_COUNT] == cfg[CFG_PLAYERS] - 1:
        end_round(s, cfg, next_seat(s, cfg, p))
        return True
    return False


@kernel(inline="always")
def remove_condemned(s, cfg, p):
    """Remove one of p's Condemned cards from the round (as p's turn): a face-up one first."""
    if zone_count(s, cfg, CONDEMNED, p) + zone_count(s, cfg, CONDEMNED_HIDDEN, p) == 0:
        return False  # the common case, asked every turn: two vectorized sums, no search
    for t in range(types_of(cfg)):
        if s[zone_row(CONDEMNED, p) + t] > 0:
            s[zone_row(CONDEMNED, p) + t] -= 1
            s[REMOVED + t] += 1
            return True
    for t in range(types_of(cfg)):
        if s[zone_row(CONDEMNED_HIDDEN, p) + t] > 0:
            remove_known_condemned(s, cfg, p, t)
            s[zone_row(CONDEMNED_HIDDEN, p) + t] -= 1
            s[REMOVED_HIDDEN + t] += 1
            return True
    return False


@kernel(inline="always")
def start_turn(s, cfg):
    """Condemned card first, then a face-up Antechamber card, else a free choice (or a knock-out).
    p's Exile's Mute lasts "until the start of your next turn"."""
    p = s[CURRENT]
    s[EXILE_MUTE + p] = 0
    if s[PLIES] >= cfg[CFG_PLY_CAP] or s[COURT_LEN] > COURT_ROOM:  # the Court's room: layout.COURT_ROOM
        s[CAPPED] = 1
        exhaust_taken(s, cfg)
        s[PHASE] = PH_ROUND_OVER
        return
    if remove_condemned(s, cfg, p):
        end_turn(s, cfg)
        return
    if zone_count(s, cfg, ANTE, p) > 0:
        only = -1
        kinds = 0
        for t in range(types_of(cfg)):
            if s[zone_row(ANTE, p) + t] > 0:
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
    if playable_types(s, cfg, p) != 0:
        decide(s, PH_TURN, p)
        return
    if not knock_out(s, cfg, p):
        s[CURRENT] = next_seat(s, cfg, p)


@kernel
def advance(s, cfg):
    while s[PHASE] == PH_START:
        start_turn(s, cfg)


@kernel
def play_card(s, cfg, p, t, source):
    """Put a card on the Throne from hand, Antechamber, as the Oathbound's or the Herald's follow-up."""
    if source == SRC_ANTE:
        s[zone_row(ANTE, p) + t] -= 1
    else:
        take_from_hand(s, cfg, p, t)
    if source == SRC_HAND and t == OATHBOUND and s[COURT_LEN] > 0 and throne_value(s, cfg) > hand_value(s, cfg, p, t):
        disgrace(s, s[COURT_LEN] - 1)
        push_played(s, cfg, p, t)
        decide(s, PH_OATH_FOLLOW, p)
        return
    push_played(s, cfg, p, t)
    s[PEND_IMMUNE] = 1 if source == SRC_FOLLOW else 0
    s[PEND_USER] = p
    if t == AEGIS:
        s[COURT_FLAGS + s[COURT_LEN] - 1] |= (p + 1) << FLAG_OWNER_SHIFT
    if played_muted(s, cfg, p, t):
        end_turn(s, cfg)
        return
    on_played(s, cfg, p, t, source)


@kernel(inline="always")
def push_played(s, cfg, p, t):
    """p plays t onto the Throne; while p's Conspiracist holds, the card keeps its Steadfast and +1
    in the Court ("cards played in that time keep it while in the Court")."""
    push_court(s, t)
    if conspiring(s, cfg, p):
        s[COURT_FLAGS + s[COURT_LEN] - 1] |= FLAG_CONSPIRED


@kernel
def on_played(s, cfg, p, t, source):
    """The played card's ability (a Stranger's copied one too): open its first decision, or resolve
    a mandatory one."""
    if t == FOOL and any_face_up(s, True):
        decide(s, PH_FOOL, p)
    elif t == INQUISITOR:
        decide(s, PH_INQUISITOR, p)
    elif t == SOLDIER:
        decide(s, PH_SOLDIER_NAME, p)
    elif t == JUDGE:
        targets = opponents_in_round(s, cfg, p)
        if single(targets):
            s[PEND_TARGET] = bit_index(targets)
            decide(s, PH_JUDGE_NAME, p)
        else:
            pick_player(s, PICK_JUDGE, p)
    elif t == MYSTIC and any_disgraced(s):
        decide(s, PH_MYSTIC, p)
    elif t == SENTRY and hand_count(s, cfg, p) > 0 and any_sentry_target(s, cfg):
        decide(s, PH_SENTRY_PICK, p)
    elif t == PRINCESS and hand_count(s, cfg, p) > 0 and others_with_cards(s, cfg, p) != 0:
        decide(s, PH_PRINCESS, p)
    elif t == QUEEN:
        for i in range(s[COURT_LEN] - 1):
            disgrace(s, i)
        end_turn(s, cfg)
    elif t == EXECUTIONER:
        decide(s, PH_EXECUTIONER, p)
    elif t == HERALD and source != SRC_ANTE and s[SUCCESSOR + p] >= 0:
        choose_ability(s, cfg, HERALD, 0)  # mandatory, yet the King's Hand may stop it (rulebook FAQ)
    elif t == WARDEN and face_up_count(s) >= WARDEN_FACE_UP and hand_count(s, cfg, p) > 0:
        decide(s, PH_WARDEN, p)
    elif t == SPY:
        decide(s, PH_SPY, p)
    elif t == AEGIS:  # "then may Disgrace any Court card"; Immune to King's Hand: no reaction
        pick_court(s, PICK_AEGIS, p)
    elif t == STRANGER and any_face_up(s, True):  # "may copy the name and ability of any card in the Court"
        s[PEND_ARG] = source  # the copied ability is used as from where the Stranger was played
        pick_court(s, PICK_STRANGER_COPY, p)
    elif t == NAKTURN and any_disgraced(s) and opponents_in_round(s, cfg, p) != 0:
        nakturn_start(s, cfg, p)
    elif t == CONSPIRACIST:  # mandatory: the King's Hand cannot stop it
        s[CONSPIRING + p] = CONSPIRACY_TURN_ENDS
        end_turn(s, cfg)
    elif t == EXILE:  # mandatory: "every card is Muted until the start of your next turn"
        s[EXILE_MUTE + p] = 1
        end_turn(s, cfg)
    elif t == FLAG_BEARER and any_disgraced(s):
        pick_card(s, PICK_FLAG_BEARER, p)
    elif t == ANCESTOR and played_on_royalty(s, cfg) and (source != SRC_ANTE or cfg[CFG_ANCESTOR_ANTE] != 0):
        recall(s, cfg, p, ALL_TYPES, 1, THEN_ANCESTOR_OFFER)  # Immune to King's Hand: no reaction
    elif t == INFORMANT and dungeon_targets(s, cfg, p) != 0:
        informant_target(s, cfg, p)  # Immune to King's Hand: no reaction
    elif t == LOCKSHIFT and any_dungeon(s, cfg):
        pick_card(s, PICK_LOCKSHIFT, p)
    elif (t == BARD or t == ARBITER) and text_effect_applies(s, cfg, t):
        recall(s, cfg, p, ALL_TYPES, 1, THEN_END_TURN)  # EFFECT_RECALL, the only effect of the menu besides none
    else:
        end_turn(s, cfg)


@kernel
def stranger_copy(s, cfg, p, i):
    """The Stranger (the Throne) takes the name and ability of Court card i, which is removed from
    the round (face up); the copied ability then happens, Immune to King's Hand under option
    stranger_immune 'kept'. A copied Stranger's copy is what it goes by."""
    copied = court_card(s, i)
    s[REMOVED + remove_court(s, i)] += 1
    s[COURT_FLAGS + s[COURT_LEN] - 1] |= (copied + 1) << COPIED_SHIFT
    if cfg[CFG_STRANGER_IMMUNE] != 0:
        s[PEND_IMMUNE] = 1
    on_played(s, cfg, p, copied, s[PEND_ARG])


@kernel
def nakturn_start(s, cfg, p):
    """The Nakturn: "may name a card and have an opponent guess whether you hold it" (with more
    than one opponent, the user picks who guesses first; either step may decline)."""
    targets = opponents_in_round(s, cfg, p)
    if single(targets):
        s[PEND_TARGET] = bit_index(targets)
        pick_card(s, PICK_NAKTURN_NAME, p)
    else:
        pick_player(s, PICK_NAKTURN_GUESSER, p)


@kernel
def nakturn_guess(s, cfg, d, a):
    """d guessed (ACT_YES: "you hold it"). The outcome shows everyone whether the user holds the
    named card. "If they guess wrong, look at their hand and Condemn one of their cards"."""
    user = s[PEND_USER]
    named = s[PEND_ARG]
    holds = s[zone_row(HAND, user) + named] > 0
    if holds:
        learn_by_all(s, cfg, user, named)
    if (a == ACT_YES) == holds or hand_count(s, cfg, d) == 0:
        end_turn(s, cfg)
        return
    for t in range(types_of(cfg)):
        s[known_row(user, d) + t] = s[zone_row(HAND, d) + t]
    pick_card(s, PICK_NAKTURN_CONDEMN, user)


@kernel
def nakturn_condemn(s, cfg, d, a):
    """The user Condemns the guesser's card a, face down in front of the guesser: with two players
    both know it (a Condemned card of known type); with more, the user remembers it and the others
    only saw a card go."""
    q = s[PEND_TARGET]
    s[zone_row(HAND, q) + a] -= 1
    s[known_row(d, q) + a] -= 1
    if cfg[CFG_PLAYERS] == 2:
        s[zone_row(CONDEMNED, q) + a] += 1
    else:
        s[zone_row(CONDEMNED_HIDDEN, q) + a] += 1
        s[known_condemned_row(d, q) + a] += 1
        forget_one(s, cfg, q, d)
    end_turn(s, cfg)


@kernel
def text_effect_applies(s, cfg, t):
    """The scenario-defined text of the Bard / Arbiter just played (rules sheet's Bard: "When played
    on a card of base value 3 or 4, Recall"): its effect is Recall and the card it was played on has
    a base value of the text's list (a Disgraced card has none). A mandatory effect: no King's Hand."""
    k = text_slot(t)
    if cfg[CFG_TEXT_EFFECT + k] != EFFECT_RECALL or s[COURT_LEN] < 2:
        return False
    under = s[COURT_LEN] - 2
    return not is_disgraced(s, under) and (cfg[CFG_TEXT_ON_BASE + k] >> BASE_VALUE[s[COURT_TYPE + under]]) & 1 == 1


@kernel
def choose_ability(s, cfg, effect, arg):
    """The user has chosen to use an ability (and its target): the King's Hand may answer."""
    s[PEND_EFFECT] = effect
    s[PEND_ARG] = arg
    reactor = -1
    if s[PEND_IMMUNE] == 0:
        reactor = next_holder(s, cfg, s[PEND_USER], s[PEND_USER], KINGS_HAND)
    if reactor >= 0:
        decide(s, PH_KINGS_HAND, reactor)
    else:
        resolve_effect(s, cfg)


@kernel
def counter(s, cfg, card):
    """King's Hand (``card``: it, or a Stranger acting as it): both cards are Condemned. A played card
    leaves at once and ends the turn."""
    reactor = s[DECIDER]
    user = s[PEND_USER]
    take_from_hand(s, cfg, reactor, card)
    s[zone_row(CONDEMNED, reactor) + card] += 1
    if s[PEND_EFFECT] == ASSASSIN:
        take_from_hand(s, cfg, user, s[REACT_WITH])
        s[zone_row(CONDEMNED, user) + s[REACT_WITH]] += 1
        complete_flip(s, cfg)
    else:
        s[REMOVED + pop_court(s)] += 1
        end_turn(s, cfg)


@kernel
def resolve_effect(s, cfg):
    effect = s[PEND_EFFECT]
    arg = s[PEND_ARG]
    p = s[PEND_USER]
    if effect == FOOL:
        give_to_hand_public(s, cfg, p, remove_court(s, arg))
        end_turn(s, cfg)
    elif effect == INQUISITOR:
        for q in range(cfg[CFG_PLAYERS]):
            if q != p and s[OUT + q] == 0 and s[zone_row(HAND, q) + arg] > 0:
                take_from_hand(s, cfg, q, arg)
                s[zone_row(ANTE, q) + arg] += 1
        end_turn(s, cfg)
    elif effect == SOLDIER:
        held = False
        for q in range(cfg[CFG_PLAYERS]):  # "If any opponent holds it": in 2v2 not the partner
            if is_opponent(cfg, p, q) and s[OUT + q] == 0 and s[zone_row(HAND, q) + arg] > 0:
                learn_by_all(s, cfg, q, arg)
                held = True
        if held:
            s[COURT_FLAGS + s[COURT_LEN] - 1] |= FLAG_BONUS
            s[PEND_LEFT] = SOLDIER_DISGRACES
            decide(s, PH_SOLDIER_DISGRACE, p)
        else:
            end_turn(s, cfg)
    elif effect == JUDGE:
        q = s[PEND_TARGET]
        if s[zone_row(HAND, q) + arg] > 0:
            learn_by_all(s, cfg, q, arg)
        if s[zone_row(HAND, q) + arg] > 0 and has_judge_card(s, cfg, p):
            decide(s, PH_JUDGE_ANTE, p)
        else:
            end_turn(s, cfg)
    elif effect == MYSTIC:
        s[MUTED] = arg
        end_turn(s, cfg)
    elif effect == SENTRY:
        decide(s, PH_SENTRY_GIVE, p)
    elif effect == PRINCESS:
        decide(s, PH_PRINCESS_OWN, p)
    elif effect == EXECUTIONER:
        s[PEND_LEFT] = 0
        executioner_next(s, cfg)
    elif effect == HERALD:
        successor_to_hand(s, cfg, p)  # "shuffle your Successor into your hand"
        pick_card(s, PICK_HERALD_SUCCESSOR, p)
    elif effect == WARDEN:
        pick_card(s, PICK_WARDEN_GIVE, p)
    elif effect == SPY:
        spy_look(s, cfg, p)
    elif effect == NAKTURN:
        decide(s, PH_NAKTURN_GUESS, s[PEND_TARGET])
    elif effect == FLAG_BEARER:  # "Recall once, then Rally twice"
        recall(s, cfg, p, ALL_TYPES, 1, THEN_FLAG_BEARER_RALLY)
    elif effect == LOCKSHIFT:
        lockshift(s, cfg, p)
    else:  # the Assassin's reaction stands: the King's flipper loses the round
        assassinate(s, cfg)


@kernel
def assassinate(s, cfg):
    """The flipper is knocked out. With three players still in (the Assassin's three-player rule),
    its owner adds the Assassin to the victim's hand and Successor and keeps one of them."""
    s[ASSASSINATED] = 1
    victim = s[CURRENT]
    user = s[PEND_USER]
    if knock_out(s, cfg, victim):
        return
    for t in range(types_of(cfg)):
        s[POOL + t] += s[zone_row(HAND, victim) + t]
        s[zone_row(HAND, victim) + t] = 0
    forget_hand(s, cfg, victim)
    if s[SUCCESSOR + victim] >= 0:
        s[POOL + s[SUCCESSOR + victim]] += 1
        s[SUCCESSOR + victim] = -1
        forget_successor(s, cfg, victim)
    take_from_hand(s, cfg, user, s[REACT_WITH])
    s[POOL + s[REACT_WITH]] += 1
    pick_card(s, PICK_ASSASSIN_KEEP, user)


@kernel
def executioner_next(s, cfg):
    """Every player holding a card of the named base value, in turn order from the Executioner's
    user (itself included), Condemns one face down; one holding several kinds chooses which.
    PEND_LEFT: how many seats of that order are done."""
    v = s[PEND_ARG]
    user = s[PEND_USER]
    q = user
    for k in range(cfg[CFG_PLAYERS]):
        if k > 0:
            q = next_seat(s, cfg, q)
            if q == user:
                break
        if k < s[PEND_LEFT]:
            continue
        kinds = 0
        only = -1
        for t in range(types_of(cfg)):
            if s[zone_row(HAND, q) + t] > 0 and BASE_VALUE[t] == v:
                kinds += 1
                only = t
        if kinds == 1:
            condemn_face_down(s, cfg, q, only)
        elif kinds > 1:
            s[PEND_LEFT] = k + 1
            pick_card(s, PICK_EXEC_CONDEMN, q)
            return
    end_turn(s, cfg)


@kernel
def herald_follow_mask(s, cfg, p):
    """The hand cards the Herald lets p play next: value 5 or more (and, unless the option says
    the Herald's permission ignores the Throne, at least the Herald's value)."""
    mask = np.int64(0)
    throne = throne_value(s, cfg)
    for t in range(types_of(cfg)):
        if s[zone_row(HAND, p) + t] > 0:
            value = hand_value(s, cfg, p, t)
            if value >= HERALD_MIN_VALUE and (cfg[CFG_HERALD_ANY] == 1 or value >= throne):
                mask |= bit(t)
    return mask


@kernel(inline="always")
def herald_follow(s, cfg, p, t):
    """The Herald (or a Stranger that copied it, a Stranger again in hand) returns to p's hand (in
    plain sight) and t is played in its place."""
    give_to_hand_public(s, cfg, p, remove_court(s, s[COURT_LEN] - 1))
    play_card(s, cfg, p, t, SRC_HERALD)


@kernel
def spy_targets(s, cfg):
    """Players the Spy may force to exchange: in the round, with a Successor and a hand card."""
    mask = np.int64(0)
    for q in range(cfg[CFG_PLAYERS]):
        if s[OUT + q] == 0 and s[SUCCESSOR + q] >= 0 and hand_count(s, cfg, q) > 0:
            mask |= bit(q)
    return mask


@kernel
def spy_look(s, cfg, p):
    for q in range(cfg[CFG_PLAYERS]):
        if q != p and s[OUT + q] == 0:
            s[KNOWN_SUCCESSOR + p * PLAYERS + q] = s[SUCCESSOR + q]
    if spy_targets(s, cfg) != 0:
        pick_player(s, PICK_SPY, p)
    else:
        end_turn(s, cfg)


@kernel
def flip_king(s, cfg, p):
    s[FLIPPED + p] = 1
    q = next_holder(s, cfg, p, p, ASSASSIN)
    if q >= 0:
        decide(s, PH_ASSASSIN, q)
    else:
        complete_flip(s, cfg)


@kernel
def complete_flip(s, cfg):
    """The King's power: Disgrace the Throne card, take the Successor into hand (Step 4's facets:
    the Master Tactician's ``tactician_flip``, the Charismatic Leader's choice ``apply_facet_take``)."""
    p = s[CURRENT]
    if s[KING_FACET + p] == FACET_TACTICIAN:
        tactician_flip(s, cfg, p)
        return
    if s[KING_FACET + p] == FACET_LEADER:
        disgrace(s, s[COURT_LEN] - 1)  # "either take the Successor or remove it from the round to Rally"
        if s[SUCCESSOR + p] >= 0:
            facet_choice(s, PICK_LEADER_TAKE, p)
        else:
            end_turn(s, cfg)
        return
    disgrace(s, s[COURT_LEN] - 1)
    if s[SUCCESSOR + p] >= 0:
        successor_to_hand(s, cfg, p)
    end_turn(s, cfg)


@kernel
def call_mulligan(s, cfg, p):
    """One free mulligan per match (2v2: per team); after it, the caller takes the True King and
    the other side (player or team) gains 2."""
    s[MULLIGANS] += 1
    side = side_of(cfg, p)
    other = 1 - side
    if s[FREE_MULLIGAN_USED + side] == 0:
        s[FREE_MULLIGAN_USED + side] = 1
    else:
        s[SCORE + other] += 2
        s[TRUE_KING] = p
        if s[SCORE + other] >= cfg[CFG_POINTS]:
            s[MATCH_OVER] = 1
            s[WINNER] = -1
            s[PHASE] = PH_ROUND_OVER
            return
    s[PHASE] = PH_REDEAL


# ---- before play: Cutthroat's Reveal and Exchange, first player, direction, Successor ---------
@kernel
def setup_step(s, cfg, seat):
    """The next pre-play decision of ``seat``: mulligan (if allowed) then Successor."""
    if cfg[CFG_MULLIGANS]:
        decide(s, PH_MULLIGAN, seat)
    else:
        decide(s, PH_SUCCESSOR, seat)


@kernel
def locked_in(s, cfg):
    """A player has placed Successor and Dungeon (2v2: its Dungeon): the next player in turn order,
    or play begins."""
    s[SETUP_STAGE] += 1
    if s[SETUP_STAGE] < cfg[CFG_PLAYERS]:
        if cfg[CFG_TEAMS]:
            decide(s, PH_DUNGEON, next_seat(s, cfg, s[DECIDER]))
        else:
            setup_step(s, cfg, next_seat(s, cfg, s[DECIDER]))
    else:
        reveal_leaders(s, cfg)
        s[CURRENT] = s[FIRST]
        s[PHASE] = PH_START
        advance(s, cfg)


@kernel
def set_first(s, cfg, seat):
    s[FIRST] = seat
    s[SETUP_STAGE] = 0
    if cfg[CFG_MERC]:
        merc_muster_next(s, cfg)
    elif cfg[CFG_TEAMS]:
        take_next(s, cfg)
    elif has_army(cfg):
        pick_card(s, PICK_MUSTER, 1 - seat)  # "The player going second musters first"
    else:
        setup_step(s, cfg, seat)


@kernel
def choose_direction(s, cfg):
    """Cutthroat: the True King chooses the direction of play (unless an option forces it)."""
    if cfg[CFG_DIRECTION] == DIRECTION_BY_TRUE_KING:
        decide(s, PH_DIRECTION, s[TRUE_KING])
    else:
        s[DIRECTION] = cfg[CFG_DIRECTION]
        set_first(s, cfg, s[FIRST])


@kernel
def choose_first(s, cfg):
    """Who goes first: the True King's holder chooses (or an option forces a seat)."""
    mode = cfg[CFG_FIRST_MODE]
    if mode == FIRST_BY_TRUE_KING:
        s[CHOOSER] = s[TRUE_KING]
        decide(s, PH_FIRST_SEAT if cfg[CFG_REVEAL] else PH_FIRST, s[TRUE_KING])
    elif cfg[CFG_REVEAL]:
        s[FIRST] = mode - FIRST_SEAT0
        choose_direction(s, cfg)
    else:
        set_first(s, cfg, mode - FIRST_SEAT0)


@kernel
def reveal_next(s, cfg):
    """Cutthroat's Reveal: everyone places 2 cards face down, revealed together; then a third,
    chosen after seeing the others' first two. Asks the next seat (from the True King's) that
    has not placed enough; when all have, reveals and moves on."""
    n = cfg[CFG_PLAYERS]
    merc = cfg[CFG_MERC] == 1
    while True:
        need = BID_CARDS if merc else (REVEAL_FIRST if s[SETUP_STAGE] == 0 and not cfg[CFG_TEAMS] else REVEAL_TOTAL)
        for k in range(n):
            q = wrap_seat(s[TRUE_KING] + k, n)
            if zone_count(s, cfg, PLACED, q) + zone_count(s, cfg, REVEALED, q) < need:
                decide(s, PH_REVEAL, q)
                return
            if merc and cfg[CFG_TEAMS] and s[PARTNER_CARD + q] < 0:  # the bid's extra card, placed with them
                pick_card(s, PICK_PARTNER_CARD, q)
                return
        for q in range(n):
            for t in range(types_of(cfg)):
                s[zone_row(REVEALED, q) + t] += s[zone_row(PLACED, q) + t]
                s[zone_row(PLACED, q) + t] = 0
        if s[SETUP_STAGE] == 1 or cfg[CFG_TEAMS] or merc:
            break
        s[SETUP_STAGE] = 1
    if merc:
        s[RAISE_ASKED] = 0
        raise_next(s, cfg)
    elif cfg[CFG_TEAMS]:
        partner_card_next(s, cfg)
    else:
        start_exchange(s, cfg)


@kernel
def highest_revealed(s, cfg, q):
    best = 0
    for t in range(types_of(cfg)):
        if s[zone_row(REVEALED, q) + t] > 0 and BASE_VALUE[t] > best:
            best = BASE_VALUE[t]
    return best


@kernel
def highest_seats(s, cfg, of_bids):
    """The seats with the highest value (a mask): the highest revealed card (the Exchange's start)
    or, ``of_bids``, the highest bid (the Mercenary modes)."""
    best = 0
    for q in range(cfg[CFG_PLAYERS]):
        best = max(best, bid_total(s, cfg, q) if of_bids else highest_revealed(s, cfg, q))
    mask = np.int64(0)
    for q in range(cfg[CFG_PLAYERS]):
        if (bid_total(s, cfg, q) if of_bids else highest_revealed(s, cfg, q)) == best:
            mask |= bit(q)
    return mask


@kernel
def tied_for_highest(s, cfg):
    """The seats that revealed the highest-value card (a mask)."""
    return highest_seats(s, cfg, False)


@kernel
def start_exchange(s, cfg):
    """The highest revealed card starts the Exchange; the True King breaks a tie."""
    tied = tied_for_highest(s, cfg)
    if single(tied):
        s[EXCH_FIRST] = bit_index(tied)
        pick_player(s, PICK_EXCHANGE_VICTIM, s[EXCH_FIRST])
    else:
        pick_player(s, PICK_EXCHANGE_START, s[TRUE_KING])


@kernel(inline="always")
def exchange_third(s):
    """The seat neither starting the Exchange nor losing the first card (3 seats: 0 + 1 + 2 = 3)."""
    return 3 - s[EXCH_FIRST] - s[EXCH_VICTIM]


@kernel
def exchange_taker(s):
    step = s[EXCH_STEP]
    if step == 0:
        return s[EXCH_FIRST]
    return s[EXCH_VICTIM] if step == 1 else exchange_third(s)


@kernel
def exchange_source(s):
    """Whose revealed cards this step takes from: the starter takes from its chosen opponent,
    that player from the third, the third from the starter's original cards (rulebook order)."""
    step = s[EXCH_STEP]
    if step == 0:
        return s[EXCH_VICTIM]
    return exchange_third(s) if step == 1 else s[EXCH_FIRST]


@kernel
def finish_exchange(s, cfg):
    """Everyone takes the revealed (and taken) cards back into hand, in everyone's sight."""
    for q in range(cfg[CFG_PLAYERS]):
        for t in range(types_of(cfg)):
            for _ in range(s[zone_row(REVEALED, q) + t]):
                give_to_hand_public(s, cfg, q, t)
            s[zone_row(REVEALED, q) + t] = 0
        if s[TAKEN + q] >= 0:
            give_to_hand_public(s, cfg, q, s[TAKEN + q])
            s[TAKEN + q] = -1
    choose_first(s, cfg)


# ---- before play in 2v2: the fourth card, take a card, Successors seen, the Trade, Dungeon -------
@kernel
def partner_card_next(s, cfg):
    """"One for your partner. Each player places a fourth card face down, apart from the others."
    Asks the next seat (from the True King's) without one; when all have, the True King chooses
    the first player and the direction of play."""
    n = cfg[CFG_PLAYERS]
    for k in range(n):
        q = wrap_seat(s[TRUE_KING] + k, n)
        if s[PARTNER_CARD + q] < 0:
            pick_card(s, PICK_PARTNER_CARD, q)
            return
    choose_first(s, cfg)


@kernel
def take_next(s, cfg):
    """"Take a card. Starting with the first player and following turn order, each player takes one
    card from their partner's four cards." Taken cards go straight to the taker's hand, so a card
    cannot be taken back ("You can't take back a card your partner already took from you"); then
    every card in front of a player returns to its hand, and the Successors follow."""
    n = cfg[CFG_PLAYERS]
    if s[SETUP_STAGE] < n:
        pick_card(s, PICK_PARTNER_TAKE, seat_at(s, cfg, s[FIRST], s[SETUP_STAGE]))
        return
    for q in range(n):
        for t in range(types_of(cfg)):
            for _ in range(s[zone_row(REVEALED, q) + t]):
                give_to_hand_public(s, cfg, q, t)
            s[zone_row(REVEALED, q) + t] = 0
        if s[PARTNER_CARD + q] >= 0:
            give_seen_by(s, q, s[PARTNER_CARD + q], partner_of(q))
            s[PARTNER_CARD + q] = -1
    s[SETUP_STAGE] = 0
    setup_step(s, cfg, s[FIRST])


@kernel
def take_from_partner(s, cfg, d, a):
    """d takes a revealed card of type a (in everyone's sight) or the partner's fourth card
    (ACT_FOURTH: only the team knows it)."""
    q = partner_of(d)
    if a == ACT_FOURTH:
        give_seen_by(s, d, s[PARTNER_CARD + q], q)
        s[PARTNER_CARD + q] = -1
    else:
        s[zone_row(REVEALED, q) + a] -= 1
        give_to_hand_public(s, cfg, d, a)
    s[SETUP_STAGE] += 1
    take_next(s, cfg)


@kernel
def successor_placed(s, cfg):
    """2v2: the next player in turn order may mulligan and places a Successor; once all have,
    partners look at each other's Successor ("Once both partners have, they may secretly look at
    each other's Successor") and the Trade begins."""
    s[SETUP_STAGE] += 1
    n = cfg[CFG_PLAYERS]
    if s[SETUP_STAGE] < n:
        setup_step(s, cfg, next_seat(s, cfg, s[DECIDER]))
        return
    for q in range(n):
        s[KNOWN_SUCCESSOR + q * PLAYERS + partner_of(q)] = s[SUCCESSOR + partner_of(q)]
    s[TRADE_TRY] = 0
    s[TRADE_OPEN] = (np.int64(1) << SIDES) - 1
    s[SETUP_STAGE] = 0
    trade_next(s, cfg)


@kernel
def trade_next(s, cfg):
    """"Each player may place up to 2 cards face down to trade with their partner": the next seat
    in turn order of a side still trading, until each has placed up to 2 (or answered done);
    then the trades are settled (and tried again), and each player places a Dungeon card, in
    turn order."""
    n = cfg[CFG_PLAYERS]
    while True:
        while s[SETUP_STAGE] < n:
            q = seat_at(s, cfg, s[FIRST], s[SETUP_STAGE])
            if (s[TRADE_OPEN] >> side_of(cfg, q)) & 1 and zone_count(s, cfg, PLACED, q) < TRADE_MAX:
                pick_card(s, PICK_TRADE, q)
                return
            s[SETUP_STAGE] += 1
        if not settle_trades(s, cfg):
            break
    decide(s, PH_DUNGEON, s[FIRST])


@kernel
def settle_trades(s, cfg):
    """Partners who placed the same number of cards trade them (each seen by its giver only). "If
    partners put out a different number of cards, try again to match. If you can't, no cards are
    traded": the cards go back, and the pair tries again up to ``cfg[CFG_TRADE_RETRIES]`` times.
    Returns True when a pair tries again."""
    retry = np.int64(0)
    for side in range(SIDES):
        if (s[TRADE_OPEN] >> side) & 1 == 0:
            continue
        a = side
        b = partner_of(side)
        matched = zone_count(s, cfg, PLACED, a) == zone_count(s, cfg, PLACED, b)
        for t in range(types_of(cfg)):
            for _ in range(s[zone_row(PLACED, a) + t]):
                if matched:
                    give_seen_by(s, b, t, a)
                else:
                    s[zone_row(HAND, a) + t] += 1
            for _ in range(s[zone_row(PLACED, b) + t]):
                if matched:
                    give_seen_by(s, a, t, b)
                else:
                    s[zone_row(HAND, b) + t] += 1
            s[zone_row(PLACED, a) + t] = 0
            s[zone_row(PLACED, b) + t] = 0
        if not matched and s[TRADE_TRY] < cfg[CFG_TRADE_RETRIES]:
            retry |= np.int64(1) << side
    s[TRADE_OPEN] = retry
    s[SETUP_STAGE] = 0
    if retry == 0:
        return False
    s[TRADE_TRY] += 1
    return True


@kernel
def place_for_trade(s, cfg, d, a):
    """d places a hand card face down for the Trade (ACT_NO: d is done)."""
    if a == ACT_NO:
        s[SETUP_STAGE] += 1
    else:
        s[zone_row(HAND, d) + a] -= 1
        s[zone_row(PLACED, d) + a] += 1
        forget_one(s, cfg, d, -1)
    trade_next(s, cfg)


# ---- the Army (Fragments of Nersetti, step 2): the Mustering Phase and exhaustion ------------------
@kernel(inline="always")
def has_army(cfg):
    """The mode gives each player an Army (every Army holds the five Army cards, the Elder among them)."""
    return cfg[CFG_HAS_ARMY] > 0


@kernel
def open_armies(s, cfg):
    """The match's start: each player's Army is the mode's Army cards, nothing Exhausted."""
    for p in range(cfg[CFG_PLAYERS]):
        for t in range(types_of(cfg)):
            s[zone_row(ARMY, p) + t] = cfg[CFG_ARMY + t]
            s[zone_row(EXHAUST, p) + t] = 0


@kernel
def exhaust_taken(s, cfg):
    """"At the end of the round, every Army card taken into a hand this round is Exhausted" (face
    up: everyone now sees which were taken)."""
    if not has_army(cfg):
        return
    for p in range(cfg[CFG_PLAYERS]):
        for t in range(types_of(cfg)):
            s[zone_row(EXHAUST, p) + t] += s[zone_row(ARMY_TAKEN, p) + t]
            s[zone_row(ARMY_TAKEN, p) + t] = 0


@kernel
def muster_mask(s, cfg, d):
    """The mustering actions d may take: Recruit giving up a hand card (bit t; the Army must hold
    a card to take, and one more to Exhaust while the phase's cost is unpaid), Recommission
    (ACT_YES: two Army cards to Exhaust; the Exhaust zone then holds one to put back), choose a
    new King (ACT_FLIP, Step 4), done."""
    army = zone_count(s, cfg, ARMY, d)
    mask = bit(ACT_NO)
    if king_choices(s, cfg, d) != 0:
        mask |= bit(ACT_FLIP)
    if army >= (1 if s[MUSTER_PAID + d] else 2):
        mask |= hand_types(s, cfg, d)
    if army >= RECOMMISSION_EXHAUSTS:
        mask |= bit(ACT_YES)
    return mask


@kernel(inline="always")
def exhaust_army_card(s, d, t):
    """d Exhausts an Army card of type t (face up, in everyone's sight)."""
    s[zone_row(ARMY, d) + t] -= 1
    s[zone_row(EXHAUST, d) + t] += 1
    s[MUSTER_PAID + d] = 1


@kernel
def apply_muster(s, cfg, pick_for, d, a):
    """The Mustering Phase, the player going second first: Recruit ("remove a card from your hand
    from the round (face up), then take 1 card from your Army into your hand without revealing
    it; if you haven't Exhausted a card from your Army this Mustering Phase, you must Exhaust 1
    now as a cost") and Recommission ("Exhaust 2 cards from your Army to put 1 Exhausted card
    back"), as many times as d likes; then the other player, then Successors and Dungeons."""
    if pick_for == PICK_MUSTER:
        if a == ACT_NO:
            if d != s[FIRST]:
                pick_card(s, PICK_MUSTER, s[FIRST])
            else:
                setup_step(s, cfg, s[FIRST])
        elif a == ACT_YES:
            s[PEND_LEFT] = RECOMMISSION_EXHAUSTS
            pick_card(s, PICK_RECOMMISSION_EXHAUST, d)
        elif a == ACT_FLIP:
            decide(s, PH_KING, d)
        else:
            take_from_hand(s, cfg, d, a)
            s[REMOVED + a] += 1
            pick_card(s, PICK_RECRUIT_TAKE if s[MUSTER_PAID + d] else PICK_RECRUIT_COST, d)
    elif pick_for == PICK_RECRUIT_COST:
        exhaust_army_card(s, d, a)
        pick_card(s, PICK_RECRUIT_TAKE, d)
    elif pick_for == PICK_RECRUIT_TAKE:  # unseen by the others: no knowledge row changes
        s[zone_row(ARMY, d) + a] -= 1
        s[zone_row(HAND, d) + a] += 1
        s[zone_row(ARMY_TAKEN, d) + a] += 1
        muster_again(s, cfg, d)
    elif pick_for == PICK_RECOMMISSION_EXHAUST:
        exhaust_army_card(s, d, a)
        s[PEND_LEFT] -= 1
        s[PEND_TARGET] = d
        if s[PEND_LEFT] > 0:
            pick_card(s, PICK_RECOMMISSION_EXHAUST, d)
        elif cfg[CFG_MERC] and cfg[CFG_TEAMS]:  # "you may return a card to your partner's Army instead"
            pick_player(s, PICK_RECOMMISSION_ARMY, d)
        else:
            pick_card(s, PICK_RECOMMISSION_RETURN, d)
    else:  # PICK_RECOMMISSION_RETURN: into the Army of PEND_TARGET (d's, or in 2v2 Mercenaries its partner's)
        s[zone_row(EXHAUST, d) + a] -= 1
        s[zone_row(ARMY, s[PEND_TARGET]) + a] += 1
        muster_again(s, cfg, d)


# ---- the Mercenary modes: the Bid, the free swap, the Mercenary muster ------------------------------
@kernel
def bid_total(s, cfg, q):
    """q's bid: the total base value of its revealed bid cards, and of its extra card once revealed."""
    total = 0
    for t in range(types_of(cfg)):
        total += s[zone_row(REVEALED, q) + t] * BASE_VALUE[t]
    if s[EXTRA_SHOWN + q] == 1:
        total += BASE_VALUE[s[PARTNER_CARD + q]]
    return total


@kernel
def highest_bids(s, cfg):
    """The seats whose bid is the highest (a mask)."""
    return highest_seats(s, cfg, True)


@kernel
def raise_next(s, cfg):
    """2v2 Mercenaries: "within a set time, anyone may reveal their extra card to raise their bid ...
    Each time someone does, the timer restarts. Bidding ends when nobody reveals within the time,
    or there are no extra cards left." The timer as yes/no decisions in turn order from the True
    King: the next seat with a hidden extra card that has not let the timer run since the last
    raise; when none is left, the bid is settled (Cutthroat: at once)."""
    n = cfg[CFG_PLAYERS]
    if cfg[CFG_TEAMS]:
        for k in range(n):
            q = wrap_seat(s[TRUE_KING] + k, n)
            if s[PARTNER_CARD + q] >= 0 and s[EXTRA_SHOWN + q] == 0 and (s[RAISE_ASKED] >> q) & 1 == 0:
                decide(s, PH_RAISE, q)
                return
    tied = highest_bids(s, cfg)
    if single(tied):
        s[BID_WINNER] = bit_index(tied)
        swap_next(s, cfg)
    else:  # "If bids tie, the True King decides who wins"
        pick_player(s, PICK_BID_TIE, s[TRUE_KING])


@kernel
def swap_next(s, cfg):
    """"The highest bid wins and may swap any of their revealed cards for any Mercenary cards, for
    free": one Mercenary at a time while the winner has a bid card to give; then the True King
    chooses the first player and the direction of play."""
    w = s[BID_WINNER]
    if zone_count(s, cfg, REVEALED, w) > 0 and zone_count(s, cfg, MERC, 0) > 0:
        pick_card(s, PICK_SWAP_TAKE, w)
    else:
        choose_first(s, cfg)


@kernel
def merc_muster_next(s, cfg):
    """"Mustering Phase. Starting with the player going last and going in reverse turn order":
    SETUP_STAGE seats are done; then every card in front of a player goes back to its hand and
    the Successors are placed (2v2 Mercenaries: then the Trade, then the Dungeons)."""
    n = cfg[CFG_PLAYERS]
    if s[SETUP_STAGE] < n:
        merc_muster_start(s, cfg, seat_at(s, cfg, s[FIRST], n - 1 - s[SETUP_STAGE]))
        return
    for q in range(n):
        for t in range(types_of(cfg)):
            for _ in range(s[zone_row(REVEALED, q) + t]):
                give_to_hand_public(s, cfg, q, t)
            s[zone_row(REVEALED, q) + t] = 0
        card = s[PARTNER_CARD + q]
        if card >= 0:  # the extra card: everyone saw it if revealed, else the partner did after the bid
            if s[EXTRA_SHOWN + q] == 1:
                give_to_hand_public(s, cfg, q, card)
            else:
                give_seen_by(s, q, card, partner_of(q))
            s[PARTNER_CARD + q] = -1
            s[EXTRA_SHOWN + q] = 0
    s[SETUP_STAGE] = 0
    setup_step(s, cfg, s[FIRST])


@kernel
def merc_muster_start(s, cfg, d):
    """d's Mercenary muster begins. "A King with both facets": its first step is the King (PH_KING: a
    new King, or ACT_NO to keep the one it has), as Step 4's "choose a new King" during the Mustering
    Phase; nothing d learns while mustering bears on it, so one step per muster loses no choice."""
    if king_choices(s, cfg, d) != 0:
        decide(s, PH_KING, d)
    else:
        pick_card(s, PICK_MERC_MUSTER, d)


@kernel
def merc_muster_mask(s, cfg, d):
    """The Mercenary muster's actions: Recruit from the Army (bit t: give up bid card t; the Army
    holds a card), Recruit a Mercenary (ACT_FLIP: a bid card, an Army card to Exhaust, a Mercenary
    to take), Recommission (ACT_YES: two Army cards), done. "Either way, you can only swap out the
    3 cards you revealed for the bid": the cards taken go to the hand, so each Recruit spends one."""
    army = zone_count(s, cfg, ARMY, d)
    bid = zone_types(s, cfg, REVEALED, d)
    mask = bit(ACT_NO)
    if army >= 1:
        mask |= bid
        if bid != 0 and zone_count(s, cfg, MERC, 0) > 0:
            mask |= bit(ACT_FLIP)
    if army >= RECOMMISSION_EXHAUSTS:
        mask |= bit(ACT_YES)
    return mask


@kernel
def discard_bid_card(s, d, t):
    """A bid card given up is removed from the round face up (the Recruit's "discard")."""
    s[zone_row(REVEALED, d) + t] -= 1
    s[REMOVED + t] += 1


@kernel
def take_mercenary(s, cfg, d, t):
    """d takes Mercenary t from the Mercenary area into its hand, in everyone's sight."""
    s[MERC + t] -= 1
    give_to_hand_public(s, cfg, d, t)


@kernel
def apply_merc_pick(s, cfg, pick_for, d, a):
    """The Mercenary round's picks: the bid's tie and free swap, the Mercenary muster's steps."""
    if pick_for == PICK_SWAP_TAKE:
        if a == ACT_NO:
            choose_first(s, cfg)
        else:
            take_mercenary(s, cfg, d, a)
            pick_card(s, PICK_SWAP_GIVE, d)
    elif pick_for == PICK_SWAP_GIVE:
        if cfg[CFG_SWAP_TO_AREA]:
            s[zone_row(REVEALED, d) + a] -= 1
            s[MERC + a] += 1
        else:
            discard_bid_card(s, d, a)
        swap_next(s, cfg)
    elif pick_for == PICK_MERC_MUSTER:
        if a == ACT_NO:
            s[SETUP_STAGE] += 1
            merc_muster_next(s, cfg)
        elif a == ACT_YES:
            s[PEND_LEFT] = RECOMMISSION_EXHAUSTS
            pick_card(s, PICK_RECOMMISSION_EXHAUST, d)
        elif a == ACT_FLIP:  # "Exhaust a card from your Army ... You pay this cost every time."
            pick_card(s, PICK_MERC_COST, d)
        else:  # Recruit from your Army: no cost; the Army card comes face down (unseen)
            discard_bid_card(s, d, a)
            pick_card(s, PICK_RECRUIT_TAKE, d)
    elif pick_for == PICK_MERC_COST:
        exhaust_army_card(s, d, a)
        pick_card(s, PICK_MERC_GIVE, d)
    elif pick_for == PICK_MERC_GIVE:
        discard_bid_card(s, d, a)
        pick_card(s, PICK_MERC_TAKE, d)
    else:  # PICK_MERC_TAKE
        take_mercenary(s, cfg, d, a)
        pick_card(s, PICK_MERC_MUSTER, d)


@kernel(inline="always")
def muster_again(s, cfg, d):
    """d's next mustering action (the Army step's or the Mercenary muster)."""
    pick_card(s, PICK_MERC_MUSTER if cfg[CFG_MERC] else PICK_MUSTER, d)


# ---- Rally and Recall (Fragments of Nersetti, step 3): Army picks with a continuation ----------------
@kernel(inline="always")
def army_pick_mask(s, cfg, d):
    """The Army (Rally) or Exhaust zone (Recall) cards d may take, within the run's types."""
    zone = ARMY if s[ARMY_PICK] == PICK_RALLY else EXHAUST
    return zone_types(s, cfg, zone, d) & s[ARMY_PICK_TYPES]


@kernel
def set_rally(s, cfg, p, types, count, then):
    """Set up ``count`` Rallies of p (types within the mask ``types``), then ``then``; the caller poses
    them with ``army_pick_next``. "If you don't have enough cards in your Army, ignore it": the
    Rallies beyond the Army's valid cards are ignored (option rally_short: all of them)."""
    s[ARMY_PICK] = PICK_RALLY
    s[ARMY_PICK_TYPES] = types
    s[ARMY_PICK_THEN] = then
    valid = 0
    for t in range(types_of(cfg)):
        if (types >> t) & 1:
            valid += s[zone_row(ARMY, p) + t]
    s[ARMY_PICK_LEFT] = 0 if cfg[CFG_RALLY_ALL_OR_NONE] and valid < count else count
    for t in range(types_of(cfg)):
        s[RALLIED + t] = 0


@kernel
def set_recall(s, p, types, count, then):
    """Set up ``count`` Recalls of p (Exhausted cards of types within ``types``), then ``then``."""
    s[ARMY_PICK] = PICK_RECALL
    s[ARMY_PICK_TYPES] = types
    s[ARMY_PICK_THEN] = then
    s[ARMY_PICK_LEFT] = count


@kernel
def army_pick_next(s, cfg, p):
    """Pose p's next Rally / Recall pick; when none is left or valid ("ignore it"), run the
    continuation, and again for a continuation that sets up another run."""
    while True:
        if s[ARMY_PICK_LEFT] > 0 and army_pick_mask(s, cfg, p) != 0:
            pick_card(s, s[ARMY_PICK], p)
            return
        s[ARMY_PICK_LEFT] = 0
        if not then_step(s, cfg, p, s[ARMY_PICK_THEN]):
            if not (s[PHASE] == PH_PICK_CARD and s[PICK_FOR] == PICK_FLAG_BEARER_RETURN):
                for t in range(types_of(cfg)):  # unrevealed: nobody may read them later
                    s[RALLIED + t] = 0
            return


@kernel
def rally(s, cfg, p, types, count, then):
    set_rally(s, cfg, p, types, count, then)
    army_pick_next(s, cfg, p)


@kernel
def recall(s, cfg, p, types, count, then):
    set_recall(s, p, types, count, then)
    army_pick_next(s, cfg, p)


@kernel
def apply_army_pick(s, cfg, d, a):
    """A Rally takes Army card a into d's hand unseen (taken this round: Exhausted at its end); a
    Recall puts Exhausted card a back into d's Army (both zones are face up: everyone sees it)."""
    if s[ARMY_PICK] == PICK_RALLY:
        s[zone_row(ARMY, d) + a] -= 1
        s[zone_row(HAND, d) + a] += 1
        s[zone_row(ARMY_TAKEN, d) + a] += 1
        s[RALLIED + a] += 1
    else:
        s[zone_row(EXHAUST, d) + a] -= 1
        s[zone_row(ARMY, d) + a] += 1
    s[ARMY_PICK_LEFT] -= 1
    army_pick_next(s, cfg, d)


@kernel
def then_step(s, cfg, p, then):
    """The continuation ``then`` of p's finished Rally / Recall run: True when it set up another
    run (``army_pick_next`` goes on with it), False when it posed a decision or ended the turn."""
    if then == THEN_FLAG_BEARER_RALLY:
        set_rally(s, cfg, p, ALL_TYPES, FLAG_BEARER_RALLIES, THEN_FLAG_BEARER_RETURN)
        return True
    if then == THEN_FLAG_BEARER_RETURN and zone_count(s, cfg, RALLIED, 0) > 0:
        for o in range(cfg[CFG_PLAYERS]):  # "reveal the Rallied cards"
            if o != p:
                for t in range(types_of(cfg)):
                    s[known_row(o, p) + t] += s[RALLIED + t]
        pick_card(s, PICK_FLAG_BEARER_RETURN, p)
    elif then == THEN_ANCESTOR_OFFER and hand_count(s, cfg, p) > 0:
        pick_card(s, PICK_ANCESTOR_REMOVE, p)
    elif then == THEN_TACTICIAN_SQUIRE:
        tactician_squire(s, cfg, p)
    else:
        end_turn(s, cfg)
    return False


# ---- the Signature Cards of this step: the Flag Bearer, Ancestor, Informant and Lockshift -----------
FLAG_BEARER_RALLIES = 2  # "Recall once, then Rally twice"


@kernel
def played_on_royalty(s, cfg):
    """The card just played went onto a Royalty card (face up): the Ancestor's "if so"."""
    under = s[COURT_LEN] - 2
    return under >= 0 and not is_disgraced(s, under) and court_royalty(s, cfg, under)


@kernel
def dungeon_targets(s, cfg, p):
    """The opponents in the round with a Dungeon card (a mask): whose the Informant may guess."""
    mask = np.int64(0)
    for q in range(cfg[CFG_PLAYERS]):
        if is_opponent(cfg, p, q) and s[OUT + q] == 0 and s[DUNGEON + q] >= 0:
            mask |= bit(q)
    return mask


@kernel
def any_dungeon(s, cfg):
    for q in range(cfg[CFG_PLAYERS]):
        if s[OUT + q] == 0 and s[DUNGEON + q] >= 0:
            return True
    return False


@kernel
def informant_target(s, cfg, p):
    """"Guess the card in an opponent's Dungeon": the opponent (asked when several have one), then the guess."""
    targets = dungeon_targets(s, cfg, p)
    if single(targets):
        s[PEND_TARGET] = bit_index(targets)
        pick_card(s, PICK_INFORMANT_GUESS, p)
    else:
        pick_player(s, PICK_INFORMANT_PLAYER, p)


@kernel
def lockshift(s, cfg, p):
    """"Make all other players reveal their Dungeon card; if so, every player puts their Dungeon card
    into their hand": the others' in everyone's sight, the Lockshift player's own unseen (unless the
    Informant left it face up)."""
    for q in range(cfg[CFG_PLAYERS]):
        t = s[DUNGEON + q]
        if s[OUT + q] == 0 and t >= 0:
            s[DUNGEON + q] = -1
            if q == p and s[DUNGEON_SHOWN + q] == 0:
                s[zone_row(HAND, q) + t] += 1
            else:
                give_to_hand_public(s, cfg, q, t)
            s[DUNGEON_SHOWN + q] = 0
    end_turn(s, cfg)


@kernel
def flag_bearer_return(s, cfg, d, a):
    """"Then return one of them secretly to the Army": the others saw the Rallied cards, so they know
    the kept one only when both were of one type."""
    one_kind = single(zone_types(s, cfg, RALLIED, 0))
    for o in range(cfg[CFG_PLAYERS]):
        if o != d:
            for t in range(types_of(cfg)):
                s[known_row(o, d) + t] = max(s[known_row(o, d) + t] - s[RALLIED + t], 0)
    s[zone_row(HAND, d) + a] -= 1
    s[zone_row(ARMY_TAKEN, d) + a] -= 1
    s[zone_row(ARMY, d) + a] += 1
    s[RALLIED + a] -= 1
    for t in range(types_of(cfg)):
        if one_kind:
            for o in range(cfg[CFG_PLAYERS]):
                if o != d:
                    s[known_row(o, d) + t] += s[RALLIED + t]
        s[RALLIED + t] = 0
    end_turn(s, cfg)


@kernel
def signature_pick_mask(s, cfg, pick_for, d):
    """The legal answers of this step's card picks (and of Rally / Recall)."""
    if pick_for == PICK_RALLY or pick_for == PICK_RECALL:
        return army_pick_mask(s, cfg, d)
    if pick_for == PICK_FLAG_BEARER:
        return bit(FLAG_BEARER) | bit(ACT_NO)
    if pick_for == PICK_LOCKSHIFT:
        return bit(LOCKSHIFT) | bit(ACT_NO)
    if pick_for == PICK_FLAG_BEARER_RETURN:
        return zone_types(s, cfg, RALLIED, 0)
    if pick_for == PICK_ANCESTOR_REMOVE:
        return hand_types(s, cfg, d) | bit(ACT_NO)
    if pick_for == PICK_INFORMANT_TAKE:
        return bit(s[DUNGEON + s[PEND_TARGET]]) | bit(ACT_YES)
    mask = np.int64(0)  # PICK_INFORMANT_GUESS: any card of the mode
    for t in range(types_of(cfg)):
        if in_mode(cfg, t):
            mask |= bit(t)
    return mask


@kernel
def apply_signature_pick(s, cfg, pick_for, d, a):
    if pick_for == PICK_RALLY or pick_for == PICK_RECALL:
        apply_army_pick(s, cfg, d, a)
    elif a == ACT_NO:  # the Flag Bearer, the Lockshift or the Ancestor's Rally declined
        end_turn(s, cfg)
    elif pick_for == PICK_FLAG_BEARER:  # "Disgrace this card to ...": then the King's Hand may answer
        disgrace(s, s[COURT_LEN] - 1)
        choose_ability(s, cfg, FLAG_BEARER, 0)
    elif pick_for == PICK_LOCKSHIFT:
        choose_ability(s, cfg, LOCKSHIFT, 0)
    elif pick_for == PICK_FLAG_BEARER_RETURN:
        flag_bearer_return(s, cfg, d, a)
    elif pick_for == PICK_ANCESTOR_REMOVE:  # "reveal and remove a hand card to Rally"
        take_from_hand(s, cfg, d, a)
        s[REMOVED + a] += 1
        rally(s, cfg, d, ALL_TYPES, 1, THEN_END_TURN)
    elif pick_for == PICK_INFORMANT_GUESS:  # "if right they reveal it"
        q = s[PEND_TARGET]
        if s[DUNGEON + q] == a:
            s[DUNGEON_SHOWN + q] = 1
            pick_card(s, PICK_INFORMANT_TAKE, d)
        else:
            end_turn(s, cfg)
    elif a == ACT_YES:  # PICK_INFORMANT_TAKE: "or Rally"
        rally(s, cfg, d, ALL_TYPES, 1, THEN_END_TURN)
    else:  # "take it into your hand"
        q = s[PEND_TARGET]
        s[DUNGEON + q] = -1
        s[DUNGEON_SHOWN + q] = 0
        give_to_hand_public(s, cfg, d, a)
        end_turn(s, cfg)


# ---- Step 3: the Signature Cards, chosen at the match's start (before round 1) ---------------------
@kernel
def open_signatures(s, cfg):
    """Seats whose three Signature Cards a scenario fixes hold them from the match's start."""
    for p in range(cfg[CFG_PLAYERS]):
        for t in range(types_of(cfg)):
            fixed = (cfg[CFG_SIGNATURES_FIXED + p] >> t) & 1
            s[zone_row(SIGNATURES, p) + t] = fixed
            s[zone_row(ARMY, p) + t] += fixed


@kernel
def start_signatures(s, cfg, stream, cards):
    """Step 3's choice at the match's start, before round 1 (no round in play: the round's fields
    are cleared). Option signatures: 'random' deals each seat 3 of the 9 at once ("give each player 3
    random Signature Cards"); 'tournament' shuffles the draft deck now (dealt once both have chosen);
    'choose' and 'tournament' then pose the choices (``signature_next``)."""
    s[:ROUND_FIELDS] = 0
    s[DRAFT_FIRST] = -1
    s[DRAFT_PICKS] = 0
    if cfg[CFG_SIGNATURES] == SIG_RANDOM:
        for p in range(cfg[CFG_PLAYERS]):
            if cfg[CFG_SIGNATURES_FIXED + p] == 0:
                for _ in range(SIGNATURE_CHOICES):
                    t = random_bit(stream, SIGNATURE_MASK & ~zone_types(s, cfg, SIGNATURES, p))
                    s[zone_row(SIGNATURES, p) + t] = 1
                    s[zone_row(ARMY, p) + t] += 1
    n = len(SIGNATURE_TYPES)
    for k in range(n):
        cards[k] = SIGNATURE_TYPES[k]
    shuffle(stream, cards, n)
    for k in range(n):
        s[DRAFT_DECK + k] = cards[k]
    signature_next(s, cfg)


@kernel
def signature_next(s, cfg):
    """The next choice: each seat in turn (not fixed) chooses its 3 in secret ('choose'; Tournament
    Mode: 1), one decision a card; Tournament Mode then deals 5 of the draft deck face up, the player
    without the True King chooses to pick first or second, and the draft's four picks follow. Once
    all have chosen, the choices are revealed into the Armies and nothing is pending (PH_ROUND_OVER:
    round 1 is dealt next)."""
    n = cfg[CFG_PLAYERS]
    mode = cfg[CFG_SIGNATURES]
    if mode == SIG_CHOOSE or mode == SIG_TOURNAMENT:
        need = SIGNATURE_CHOICES if mode == SIG_CHOOSE else 1
        for p in range(n):
            if cfg[CFG_SIGNATURES_FIXED + p] == 0 and zone_count(s, cfg, SIGNATURES, p) < need:
                decide(s, PH_SIGNATURE, p)
                return
    if mode == SIG_TOURNAMENT and cfg[CFG_SIGNATURES_FIXED] == 0:  # fixed seats: both or neither
        if s[DRAFT_FIRST] < 0:
            deal_draft(s, cfg)
            decide(s, PH_DRAFT_ORDER, 1 - s[TRUE_KING])
            return
        if s[DRAFT_PICKS] < len(DRAFT_SECOND_PICKS):
            second = DRAFT_SECOND_PICKS[s[DRAFT_PICKS]]
            decide(s, PH_DRAFT, s[DRAFT_FIRST] if second == 0 else 1 - s[DRAFT_FIRST])
            return
    for p in range(n):  # "Both players reveal their choices at the same time and add them to their Army"
        if cfg[CFG_SIGNATURES_FIXED + p] == 0 and mode != SIG_RANDOM:
            for t in range(types_of(cfg)):
                s[zone_row(ARMY, p) + t] += s[zone_row(SIGNATURES, p) + t]
    s[PHASE] = PH_ROUND_OVER


@kernel
def deal_draft(s, cfg):
    """"Make a draft deck with one copy of every Signature Card except the ones chosen (if both
    players chose the same card, just remove that one). Shuffle the draft deck and deal 5 cards face
    up": the first 5 of the shuffled deck that no player chose."""
    chosen = np.int64(0)
    for p in range(cfg[CFG_PLAYERS]):
        chosen |= zone_types(s, cfg, SIGNATURES, p)
    dealt = 0
    for k in range(len(SIGNATURE_TYPES)):
        t = s[DRAFT_DECK + k]
        if dealt < DRAFT_FACE_UP and (chosen & bit(t)) == 0:
            s[DRAFT + t] = 1
            dealt += 1


@kernel
def apply_signature_choice(s, cfg, phase, d, a):
    if phase == PH_DRAFT_ORDER:
        s[DRAFT_FIRST] = d if a == ACT_YES else 1 - d
    else:  # a Signature Card chosen in secret, or picked from the face-up draft
        if phase == PH_DRAFT:
            s[DRAFT + a] = 0
            s[DRAFT_PICKS] += 1
        s[zone_row(SIGNATURES, d) + a] = 1
    signature_next(s, cfg)


# ---- Step 4, Facets of the King: the King chosen while mustering, the Squire, the facets' flips ----
@kernel
def king_choices(s, cfg, p):
    """The Kings p may choose while mustering (bit f: facet f): "you may now also choose a new King",
    one of the two facets (the base King is only the starting one), not the King it has."""
    if cfg[CFG_KING_FACETS] == 0:
        return np.int64(0)
    return (bit(FACET_TACTICIAN) | bit(FACET_LEADER)) & ~bit(s[KING_FACET + p])


@kernel
def successor_done(s, cfg, d):
    """d placed its Successor (and Squire): 2v2's Successors are seen and traded, else the Dungeon."""
    if cfg[CFG_TEAMS]:
        successor_placed(s, cfg)
    elif cfg[CFG_DUNGEON]:
        decide(s, PH_DUNGEON, d)
    else:
        locked_in(s, cfg)


@kernel
def reveal_successor(s, cfg, p):
    """The Charismatic Leader's Successor lies face up: every player sees its type."""
    for o in range(cfg[CFG_PLAYERS]):
        if o != p:
            s[KNOWN_SUCCESSOR + o * PLAYERS + p] = s[SUCCESSOR + p]


@kernel
def reveal_leaders(s, cfg):
    """The round starts: "The Charismatic Leader reveals the Successor once the round starts"."""
    if cfg[CFG_KING_FACETS] == 0:
        return
    for p in range(cfg[CFG_PLAYERS]):
        if s[KING_FACET + p] == FACET_LEADER and s[SUCCESSOR + p] >= 0:
            reveal_successor(s, cfg, p)


@kernel
def successor_to_hand(s, cfg, p):
    """p takes its Successor into its hand: hidden, unless it lay face up (the Charismatic Leader's)."""
    t = s[SUCCESSOR + p]
    if s[KING_FACET + p] == FACET_LEADER:
        give_to_hand_public(s, cfg, p, t)
    else:
        s[zone_row(HAND, p) + t] += 1
    s[SUCCESSOR + p] = -1
    forget_successor(s, cfg, p)


@kernel(inline="always")
def facet_choice(s, pick_for, p):
    s[PICK_FOR] = pick_for
    decide(s, PH_FACET_TAKE, p)


@kernel
def tactician_flip(s, cfg, p):
    """The Master Tactician: "Disgrace the Throne card; if the Successor has the same base value as
    that card you may reveal and take it, Recall a base Army card, then take the Squire or remove it
    to Rally; otherwise take the Successor or the Squire." The base value is the Throne card's before
    this Disgrace: a card Disgraced already "has no base value, so your Successor can never match it"
    (FAQ)."""
    matches = tactician_matches(s, p)
    disgrace(s, s[COURT_LEN] - 1)
    if matches:
        facet_choice(s, PICK_TACTICIAN_REVEAL, p)
    else:
        tactician_take(s, cfg, p)


@kernel
def tactician_matches(s, p):
    """p's Successor has the same base value as the Throne card (not Disgraced: it "has no base
    value"): the Master Tactician's flip may reveal and take it, Recall, then take the Squire or Rally."""
    top = s[COURT_LEN] - 1
    succ = s[SUCCESSOR + p]
    return succ >= 0 and top >= 0 and not is_disgraced(s, top) and BASE_VALUE[succ] == BASE_VALUE[s[COURT_TYPE + top]]


@kernel
def tactician_take(s, cfg, p):
    """The Master Tactician's "otherwise take the Successor or the Squire" (asked when both lie there;
    else the one there is taken)."""
    if s[SUCCESSOR + p] >= 0 and s[SQUIRE + p] >= 0:
        facet_choice(s, PICK_TACTICIAN_TAKE, p)
        return
    if s[SUCCESSOR + p] >= 0:
        successor_to_hand(s, cfg, p)
    elif s[SQUIRE + p] >= 0:
        squire_to_hand(s, p)
    end_turn(s, cfg)


@kernel(inline="always")
def squire_to_hand(s, p):
    s[zone_row(HAND, p) + s[SQUIRE + p]] += 1
    s[SQUIRE + p] = -1


@kernel
def tactician_squire(s, cfg, p):
    """After the matching Successor and the Recall: "then take the Squire or remove it to Rally"."""
    if s[SQUIRE + p] >= 0:
        facet_choice(s, PICK_TACTICIAN_SQUIRE, p)
    else:
        end_turn(s, cfg)


@kernel(inline="always")
def type_mask(table):
    """The types a per-type table marks, as a mask."""
    mask = np.int64(0)
    for t in range(TYPES):
        if table[t] > 0:
            mask |= bit(t)
    return mask


@kernel(inline="always")
def types_up_to(value):
    """The types of base value ``value`` or lower, as a mask."""
    mask = np.int64(0)
    for t in range(TYPES):
        if BASE_VALUE[t] <= value:
            mask |= bit(t)
    return mask


@kernel
def leave_facet_card(s, cfg, p):
    """The card a flipped facet King did not take (its Successor or Squire): it stays where it lies
    (option facet_leftover 'stays': a Successor still counts as one), or it is removed from the round
    face down ('removed')."""
    if cfg[CFG_FACET_LEFTOVER_REMOVED] == 0:
        return
    if s[SUCCESSOR + p] >= 0:
        s[REMOVED_HIDDEN + s[SUCCESSOR + p]] += 1
        s[SUCCESSOR + p] = -1
        forget_successor(s, cfg, p)
    if s[SQUIRE + p] >= 0:
        s[REMOVED_HIDDEN + s[SQUIRE + p]] += 1
        s[SQUIRE + p] = -1


@kernel
def apply_facet_take(s, cfg, d, a):
    """A flipped facet King's choice (PICK_FOR says which; ACT_YES / ACT_NO)."""
    pick_for = s[PICK_FOR]
    if pick_for == PICK_TACTICIAN_REVEAL:
        if a == ACT_NO:
            tactician_take(s, cfg, d)
            return
        succ = s[SUCCESSOR + d]
        s[SUCCESSOR + d] = -1
        forget_successor(s, cfg, d)
        give_to_hand_public(s, cfg, d, succ)  # revealed: everyone saw it taken
        recall(s, cfg, d, type_mask(ARMY_CARDS), 1, THEN_TACTICIAN_SQUIRE)
    elif pick_for == PICK_TACTICIAN_TAKE:
        if a == ACT_YES:
            successor_to_hand(s, cfg, d)
        else:
            squire_to_hand(s, d)
        leave_facet_card(s, cfg, d)
        end_turn(s, cfg)
    elif pick_for == PICK_TACTICIAN_SQUIRE:
        if a == ACT_YES:
            squire_to_hand(s, d)
            end_turn(s, cfg)
        else:
            s[REMOVED_HIDDEN + s[SQUIRE + d]] += 1  # removed face down: nobody else learns it
            s[SQUIRE + d] = -1
            rally(s, cfg, d, ALL_TYPES, 1, THEN_END_TURN)
    else:  # PICK_LEADER_TAKE
        if a == ACT_YES:
            successor_to_hand(s, cfg, d)
            end_turn(s, cfg)
        else:
            succ = s[SUCCESSOR + d]
            s[REMOVED + succ] += 1  # it lay face up
            s[SUCCESSOR + d] = -1
            forget_successor(s, cfg, d)
            rally(s, cfg, d, types_up_to(BASE_VALUE[succ]), 1, THEN_END_TURN)


# ---- performing a decision -------------------------------------------------------------------
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
        s[zone_row(HAND, d) + a] -= 1
        s[SUCCESSOR + d] = a
        forget_one(s, cfg, d, -1)
        if s[KING_FACET + d] == FACET_TACTICIAN:
            pick_card(s, PICK_SQUIRE, d)  # "their Successor (and Squire, with the Master Tactician)"
        else:
            successor_done(s, cfg, d)
    elif phase == PH_DUNGEON:
        s[zone_row(HAND, d) + a] -= 1
        s[DUNGEON + d] = a
        forget_one(s, cfg, d, -1)
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
    elif phase == PH_REVEAL:
        s[zone_row(HAND, d) + a] -= 1
        s[zone_row(PLACED, d) + a] += 1
        reveal_next(s, cfg)
    elif phase == PH_FIRST_SEAT:
        s[FIRST] = wrap_seat(d + a, cfg[CFG_PLAYERS])
        choose_direction(s, cfg)
    elif phase == PH_DIRECTION:
        s[DIRECTION] = CLOCKWISE if a == ACT_YES else COUNTERCLOCKWISE
        set_first(s, cfg, s[FIRST])
    elif phase == PH_RAISE:
        if a == ACT_YES:  # the timer restarts for everyone
            s[EXTRA_SHOWN + d] = 1
            s[RAISE_ASKED] = 0
        else:
            s[RAISE_ASKED] |= bit(d)
        raise_next(s, cfg)
    else:
        apply_ability_choice(s, cfg, phase, d, a)
    advance(s, cfg)


@kernel
def apply_ability_choice(s, cfg, phase, d, a):
    """The choices within an ability, a reaction or a pick. A call, not inline: a compiled function
    zeroes the stack slots of all its call sites each time it is entered, so apply_action, entered
    at every turn, keeps its own few sites and not this dispatch's many (about 100 slots inline);
    likewise the picks only 3 or 4 players make (apply_pick_player, apply_pick_card) are calls
    from here."""
    if phase == PH_SIGNATURE or phase == PH_DRAFT or phase == PH_DRAFT_ORDER:
        apply_signature_choice(s, cfg, phase, d, a)
    elif phase == PH_KINGS_HAND:
        if a != ACT_NO:
            counter(s, cfg, KINGS_HAND if a == ACT_YES else STRANGER)
        else:
            reactor = next_holder(s, cfg, s[PEND_USER], d, KINGS_HAND)
            if reactor >= 0:
                decide(s, PH_KINGS_HAND, reactor)
            else:
                resolve_effect(s, cfg)
    elif phase == PH_ASSASSIN:
        if a != ACT_NO:
            s[PEND_USER] = d
            s[REACT_WITH] = ASSASSIN if a == ACT_YES else STRANGER
            s[PEND_IMMUNE] = 1 if a == STRANGER and cfg[CFG_STRANGER_IMMUNE] != 0 else 0
            choose_ability(s, cfg, ASSASSIN, 0)
        else:
            reactor = next_holder(s, cfg, s[CURRENT], d, ASSASSIN)
            if reactor >= 0:
                decide(s, PH_ASSASSIN, reactor)
            else:
                complete_flip(s, cfg)
    elif phase == PH_PICK_CARD:  # before the declines: 2v2's trade answers ACT_NO when done placing
        apply_pick_card(s, cfg, d, a)
    elif phase == PH_NAKTURN_GUESS:  # ACT_NO is a guess, not a decline
        nakturn_guess(s, cfg, d, a)
    elif phase == PH_KING:
        if a != ACT_NO:  # ACT_NO: the Mercenary muster's King step keeps the King
            s[KING_FACET + d] = a  # "Place the new King over your current one" (the True King stays with d)
        muster_again(s, cfg, d)
    elif phase == PH_FACET_TAKE:
        apply_facet_take(s, cfg, d, a)
    elif a == ACT_NO and phase != PH_SOLDIER_NAME and phase != PH_JUDGE_NAME:
        end_turn(s, cfg)  # the optional ability is declined (or the Soldier stops disgracing)
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
        targets = others_with_cards(s, cfg, d)
        if single(targets):
            s[PEND_TARGET] = bit_index(targets)
            choose_ability(s, cfg, PRINCESS, s[PEND_TARGET])
        else:
            pick_player(s, PICK_PRINCESS, d)
    elif phase == PH_EXECUTIONER:
        choose_ability(s, cfg, EXECUTIONER, a)
    elif phase == PH_WARDEN:
        choose_ability(s, cfg, WARDEN, 0)
    elif phase == PH_SPY:
        disgrace(s, s[COURT_LEN] - 1)
        choose_ability(s, cfg, SPY, 0)
    elif phase == PH_HERALD_PLAY:
        herald_follow(s, cfg, d, a)
    elif phase == PH_PICK_COURT:
        if s[PICK_FOR] == PICK_STRANGER_COPY:
            stranger_copy(s, cfg, d, a)
        else:  # PICK_AEGIS
            disgrace(s, a)
            end_turn(s, cfg)
    elif phase == PH_PICK_PLAYER:
        apply_pick_player(s, cfg, d, a)
    else:
        apply_exchange(s, cfg, phase, d, a)


@kernel
def apply_pick_player(s, cfg, d, a):
    pick_for = s[PICK_FOR]
    if pick_for == PICK_EXCHANGE_START:
        s[EXCH_FIRST] = a
        pick_player(s, PICK_EXCHANGE_VICTIM, a)
    elif pick_for == PICK_EXCHANGE_VICTIM:
        s[EXCH_VICTIM] = a
        s[EXCH_STEP] = 0
        pick_card(s, PICK_EXCHANGE_TAKE, d)
    elif pick_for == PICK_JUDGE:
        s[PEND_TARGET] = a
        decide(s, PH_JUDGE_NAME, d)
    elif pick_for == PICK_PRINCESS:
        s[PEND_TARGET] = a
        choose_ability(s, cfg, PRINCESS, a)
    elif pick_for == PICK_NAKTURN_GUESSER:
        s[PEND_TARGET] = a
        pick_card(s, PICK_NAKTURN_NAME, d)
    elif pick_for == PICK_INFORMANT_PLAYER:
        s[PEND_TARGET] = a
        pick_card(s, PICK_INFORMANT_GUESS, d)
    elif pick_for == PICK_BID_TIE:
        s[BID_WINNER] = a
        swap_next(s, cfg)
    elif pick_for == PICK_RECOMMISSION_ARMY:
        s[PEND_TARGET] = a
        pick_card(s, PICK_RECOMMISSION_RETURN, d)
    else:  # PICK_SPY: who chooses the card that becomes that player's Successor (option spy_chooser)
        s[PEND_TARGET] = a
        if cfg[CFG_SPY_USER_CHOOSES] == 1 and a != d:
            for t in range(types_of(cfg)):  # the Spy's user looks at the hand it chooses from
                s[known_row(d, a) + t] = s[zone_row(HAND, a) + t]
            pick_card(s, PICK_SPY_SWAP, d)
        else:
            pick_card(s, PICK_SPY_SWAP, a)


@kernel
def apply_pick_card(s, cfg, d, a):
    pick_for = s[PICK_FOR]
    if pick_for == PICK_EXCHANGE_TAKE:
        s[zone_row(REVEALED, exchange_source(s)) + a] -= 1
        s[TAKEN + d] = a
        s[EXCH_STEP] += 1
        if s[EXCH_STEP] < 3:
            pick_card(s, PICK_EXCHANGE_TAKE, exchange_taker(s))
        else:
            finish_exchange(s, cfg)
    elif pick_for == PICK_EXEC_CONDEMN:
        condemn_face_down(s, cfg, d, a)
        executioner_next(s, cfg)
    elif pick_for == PICK_HERALD_SUCCESSOR:
        s[zone_row(HAND, d) + a] -= 1
        s[SUCCESSOR + d] = a
        forget_one(s, cfg, d, -1)
        if s[KING_FACET + d] == FACET_LEADER:
            reveal_successor(s, cfg, d)
        if herald_follow_mask(s, cfg, d) != 0:
            decide(s, PH_HERALD_PLAY, d)
        else:
            end_turn(s, cfg)
    elif pick_for == PICK_WARDEN_GIVE:
        take_from_hand(s, cfg, d, a)
        taken = s[ACCUSED]
        s[ACCUSED] = a
        give_to_hand_public(s, cfg, d, taken)
        end_turn(s, cfg)
    elif pick_for == PICK_SPY_SWAP:
        spy_swap(s, cfg, d, a)
    elif pick_for == PICK_PARTNER_CARD:
        s[zone_row(HAND, d) + a] -= 1
        s[PARTNER_CARD + d] = a
        if cfg[CFG_MERC]:  # 2v2 Mercenaries: the extra card is placed with the bid
            reveal_next(s, cfg)
        else:
            partner_card_next(s, cfg)
    elif pick_for == PICK_PARTNER_TAKE:
        take_from_partner(s, cfg, d, a)
    elif pick_for == PICK_TRADE:
        place_for_trade(s, cfg, d, a)
    elif pick_for == PICK_NAKTURN_NAME:  # the user has chosen to use the ability: the King's Hand may answer
        if a == ACT_NO:
            end_turn(s, cfg)
        else:
            choose_ability(s, cfg, NAKTURN, a)
    elif pick_for == PICK_NAKTURN_CONDEMN:
        nakturn_condemn(s, cfg, d, a)
    elif PICK_RALLY <= pick_for <= PICK_LOCKSHIFT:
        apply_signature_pick(s, cfg, pick_for, d, a)
    elif pick_for == PICK_SQUIRE:
        s[zone_row(HAND, d) + a] -= 1
        s[SQUIRE + d] = a
        forget_one(s, cfg, d, -1)
        successor_done(s, cfg, d)
    elif pick_for >= PICK_SWAP_TAKE:
        apply_merc_pick(s, cfg, pick_for, d, a)
    elif pick_for >= PICK_MUSTER:
        apply_muster(s, cfg, pick_for, d, a)
    else:  # PICK_ASSASSIN_KEEP: one card back to hand, the rest removed face down
        s[POOL + a] -= 1
        s[zone_row(HAND, d) + a] += 1
        for t in range(types_of(cfg)):
            s[REMOVED_HIDDEN + t] += s[POOL + t]
            s[POOL + t] = 0
        end_turn(s, cfg)


@kernel
def spy_swap(s, cfg, d, a):
    """The Spy's forced exchange: card a of the target's hand becomes its Successor, the old
    Successor goes to its hand. ``d`` chose a: the target itself, or the Spy's user, who looked at
    the hand and so knows the exchange exactly."""
    q = s[PEND_TARGET]
    user = s[PEND_USER]
    old = s[SUCCESSOR + q]
    s[zone_row(HAND, q) + a] -= 1
    s[SUCCESSOR + q] = a
    forget_one(s, cfg, q, d)
    s[zone_row(HAND, q) + old] += 1
    forget_successor(s, cfg, q)
    if d != q:
        s[known_row(d, q) + a] -= 1
        s[known_row(d, q) + old] += 1
        s[KNOWN_SUCCESSOR + d * PLAYERS + q] = a
    elif user != q:  # the Spy's user saw the old Successor: it is now in q's hand
        learn_holds(s, user, q, old)
    if s[KING_FACET + q] == FACET_LEADER:  # the old Successor lay face up; the new one does too
        learn_by_all(s, cfg, q, old)
        reveal_successor(s, cfg, q)
    end_turn(s, cfg)


@kernel(inline="always")
def apply_exchange(s, cfg, phase, d, a):
    """The follow-up choices of a resolved ability: which card moves where."""
    if phase == PH_SOLDIER_DISGRACE:
        disgrace(s, a)
        s[PEND_LEFT] -= 1
        if s[PEND_LEFT] == 0 or not any_face_up(s, False):
            end_turn(s, cfg)
    elif phase == PH_JUDGE_ANTE:
        take_from_hand(s, cfg, d, a)
        s[zone_row(ANTE, d) + a] += 1
        end_turn(s, cfg)
    elif phase == PH_SENTRY_GIVE:
        i = s[PEND_ARG]
        taken = s[COURT_TYPE + i]
        take_from_hand(s, cfg, d, a)
        s[COURT_TYPE + i] = a
        s[COURT_FLAGS + i] = 0
        give_to_hand_public(s, cfg, d, taken)
        end_turn(s, cfg)
    elif phase == PH_PRINCESS_OWN:
        s[PEND_GIVE] = a
        decide(s, PH_PRINCESS_OPP, s[PEND_TARGET])
    else:  # PH_PRINCESS_OPP: the two chosen cards change hands, each seen by its receiver only
        owner = s[PEND_USER]
        given = s[PEND_GIVE]
        take_from_hand(s, cfg, owner, given)
        take_from_hand(s, cfg, d, a)
        give_seen_by(s, d, given, owner)
        give_seen_by(s, owner, a, d)
        forget_one(s, cfg, owner, d)  # a third player saw two cards change hands, not which
        forget_one(s, cfg, d, owner)
        end_turn(s, cfg)


# ---- legal answers (the posed decision) ------------------------------------------------------
@kernel(inline="always")
def bit(a):
    return np.int64(1) << np.int64(a)


@kernel
def hand_types(s, cfg, p):
    """The types in p's hand, as a mask."""
    return zone_types(s, cfg, HAND, p)


@kernel
def zone_types(s, cfg, zone, p):
    """The types in p's per-type zone ``zone``, as a mask."""
    mask = np.int64(0)
    row = zone_row(zone, p)
    for t in range(types_of(cfg)):  # without a branch, so the loop vectorizes (it runs at every turn)
        mask |= np.int64(s[row + t] > 0) << np.int64(t)
    return mask


@kernel
def pick_player_mask(s, cfg, d):
    pick_for = s[PICK_FOR]
    if pick_for == PICK_EXCHANGE_START:
        return tied_for_highest(s, cfg)
    if pick_for == PICK_EXCHANGE_VICTIM or pick_for == PICK_JUDGE:
        return opponents_in_round(s, cfg, d)
    if pick_for == PICK_PRINCESS:
        return others_with_cards(s, cfg, d)
    if pick_for == PICK_NAKTURN_GUESSER:
        return opponents_in_round(s, cfg, d) | bit(ACT_NO)
    if pick_for == PICK_INFORMANT_PLAYER:
        return dungeon_targets(s, cfg, d)
    if pick_for == PICK_BID_TIE:
        return highest_bids(s, cfg)
    if pick_for == PICK_RECOMMISSION_ARMY:
        return bit(d) | bit(partner_of(d))
    return spy_targets(s, cfg) | bit(ACT_NO)


@kernel
def pick_card_mask(s, cfg, d):
    pick_for = s[PICK_FOR]
    if pick_for == PICK_EXCHANGE_TAKE:
        return zone_types(s, cfg, REVEALED, exchange_source(s))
    if pick_for == PICK_ASSASSIN_KEEP:
        return zone_types(s, cfg, POOL, 0)
    if pick_for == PICK_SPY_SWAP:
        return hand_types(s, cfg, s[PEND_TARGET])
    if pick_for == PICK_EXEC_CONDEMN:
        mask = np.int64(0)
        for t in range(types_of(cfg)):
            if s[zone_row(HAND, d) + t] > 0 and BASE_VALUE[t] == s[PEND_ARG]:
                mask |= bit(t)
        return mask
    if pick_for == PICK_PARTNER_TAKE:
        q = partner_of(d)
        return zone_types(s, cfg, REVEALED, q) | (bit(ACT_FOURTH) if s[PARTNER_CARD + q] >= 0 else 0)
    if pick_for == PICK_TRADE:
        return hand_types(s, cfg, d) | bit(ACT_NO)
    if pick_for == PICK_MUSTER:
        return muster_mask(s, cfg, d)
    if pick_for == PICK_NAKTURN_NAME:
        mask = bit(ACT_NO)
        for t in range(types_of(cfg)):
            if in_mode(cfg, t):
                mask |= bit(t)
        return mask
    if pick_for == PICK_NAKTURN_CONDEMN:
        return hand_types(s, cfg, s[PEND_TARGET])
    if PICK_RALLY <= pick_for <= PICK_LOCKSHIFT:
        return signature_pick_mask(s, cfg, pick_for, d)
    if pick_for == PICK_SQUIRE:
        return hand_types(s, cfg, d)
    if pick_for >= PICK_SWAP_TAKE:
        return merc_pick_mask(s, cfg, pick_for, d)
    if pick_for == PICK_RECOMMISSION_RETURN:
        return zone_types(s, cfg, EXHAUST, d)
    if pick_for >= PICK_RECRUIT_COST:  # the Recruit's cost and take, the Recommission's Exhausts
        return zone_types(s, cfg, ARMY, d)
    return hand_types(s, cfg, d)


@kernel
def merc_pick_mask(s, cfg, pick_for, d):
    if pick_for == PICK_SWAP_TAKE:
        return zone_types(s, cfg, MERC, 0) | bit(ACT_NO)
    if pick_for == PICK_SWAP_GIVE or pick_for == PICK_MERC_GIVE:
        return zone_types(s, cfg, REVEALED, d)
    if pick_for == PICK_MERC_MUSTER:
        return merc_muster_mask(s, cfg, d)
    if pick_for == PICK_MERC_COST:
        return zone_types(s, cfg, ARMY, d)
    return zone_types(s, cfg, MERC, 0)  # PICK_MERC_TAKE


@kernel
def legal_mask(s, cfg):
    """The legal answers of the pending decision, bit ``a`` for action code ``a`` (layout's
    "Decisions" table)."""
    phase = s[PHASE]
    d = s[DECIDER]
    mask = np.int64(0)
    if phase == PH_FIRST or phase == PH_MULLIGAN or phase == PH_PRINCESS or phase == PH_DIRECTION \
            or phase == PH_WARDEN or phase == PH_SPY or phase == PH_NAKTURN_GUESS or phase == PH_FACET_TAKE \
            or phase == PH_RAISE:
        return bit(ACT_YES) | bit(ACT_NO)
    if phase == PH_KINGS_HAND:
        return reaction_mask(s, cfg, d, KINGS_HAND)
    if phase == PH_ASSASSIN:
        return reaction_mask(s, cfg, d, ASSASSIN)
    if phase == PH_KING:
        if cfg[CFG_MERC]:  # the Mercenary muster's own King step: keeping the King is an answer too
            return king_choices(s, cfg, d) | bit(ACT_NO)
        return king_choices(s, cfg, d)
    if phase == PH_TURN:
        mask = playable_types(s, cfg, d)
        if can_flip(s, d):
            mask |= bit(ACT_FLIP)
        return mask
    if phase == PH_ANTE:
        return zone_types(s, cfg, ANTE, d)
    if phase == PH_SIGNATURE:
        return SIGNATURE_MASK & ~zone_types(s, cfg, SIGNATURES, d)
    if phase == PH_DRAFT:
        return zone_types(s, cfg, DRAFT, 0)
    if phase == PH_DRAFT_ORDER:
        return bit(ACT_YES) | bit(ACT_NO)
    if phase == PH_SUCCESSOR or phase == PH_DUNGEON or phase == PH_OATH_FOLLOW or phase == PH_SENTRY_GIVE \
            or phase == PH_PRINCESS_OWN or phase == PH_PRINCESS_OPP or phase == PH_REVEAL:
        return hand_types(s, cfg, d)
    if phase == PH_FIRST_SEAT:
        return bit(cfg[CFG_PLAYERS]) - 1
    if phase == PH_PICK_PLAYER:
        return pick_player_mask(s, cfg, d)
    if phase == PH_PICK_CARD:
        return pick_card_mask(s, cfg, d)
    if phase == PH_HERALD_PLAY:
        return herald_follow_mask(s, cfg, d) | bit(ACT_NO)
    if phase == PH_INQUISITOR or phase == PH_SOLDIER_NAME or phase == PH_JUDGE_NAME:
        for t in range(types_of(cfg)):
            if in_mode(cfg, t):
                mask |= bit(t)
    elif phase == PH_FOOL:
        for i in range(s[COURT_LEN] - 1):
            if not is_disgraced(s, i):
                mask |= bit(i)
    elif phase == PH_SOLDIER_DISGRACE or phase == PH_PICK_COURT:
        # any face-up card (the Aegis's Disgrace too); the Stranger's copy: one below the Stranger itself
        last = s[COURT_LEN] - 1 if s[PICK_FOR] == PICK_STRANGER_COPY and phase == PH_PICK_COURT else s[COURT_LEN]
        for i in range(last):
            if not is_disgraced(s, i):
                mask |= bit(i)
    elif phase == PH_JUDGE_ANTE:
        for t in range(types_of(cfg)):
            if s[zone_row(HAND, d) + t] > 0 and BASE_VALUE[t] >= JUDGE_MIN_BASE:
                mask |= bit(t)
    elif phase == PH_MYSTIC:
        for v in range(1, MYSTIC_HIGHEST + 1):
            mask |= bit(v)
    elif phase == PH_EXECUTIONER:
        for v in range(1, highest_court_base(s) + 1):
            mask |= bit(v)
    elif phase == PH_SENTRY_PICK:
        for i in range(s[COURT_LEN] - 1):
            if sentry_target(s, cfg, i):
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
@kernel(inline="always")
def observer_rows(n_seats):
    """The words of an observer-by-owner zone (KNOWN, KNOWN_CONDEMNED) that an n-seat table can
    write: the rows of observers 0..n-1, up to the last one's row of owner n-1 (seats past the
    table's never observe nor hold a card, layout's "the others stay empty")."""
    return ((n_seats - 1) * PLAYERS + n_seats) * TYPES


@kernel(inline="always")
def reset_round(s, n_seats):
    """Zero the round's part of the record (everything before TRUE_KING), but of the two
    observer-by-owner zones only the rows an n-seat table writes: they are 960 of its 2,266 words,
    and a two-player deal zeroed them all (about a twentieth of its round's time)."""
    s[:KNOWN] = 0
    s[KNOWN:KNOWN + observer_rows(n_seats)] = 0
    s[KNOWN_SUCCESSOR:KNOWN_CONDEMNED] = 0
    s[KNOWN_CONDEMNED:KNOWN_CONDEMNED + observer_rows(n_seats)] = 0
    s[KNOWN_REMOVED:ROUND_FIELDS] = 0


@kernel
def deal_round(s, cfg, stream, rotation, cards):
    """Reset the round, shuffle and deal. Hands belong to policy SLOTS (slot k sits at seat
    (k + rotation) % players), so a deal replayed under another rotation moves the hands over
    the seats."""
    n_seats = cfg[CFG_PLAYERS]
    reset_round(s, n_seats)
    s[SEATS_IN_PLAY] = n_seats
    s[TEAM_PLAY] = cfg[CFG_TEAMS]
    for p in range(PLAYERS):
        s[SUCCESSOR + p] = -1
        s[DUNGEON + p] = -1
        s[TAKEN + p] = -1
        s[PARTNER_CARD + p] = -1
        s[SQUIRE + p] = -1
        for o in range(PLAYERS):
            s[KNOWN_SUCCESSOR + o * PLAYERS + p] = -1
    s[WINNER] = -1
    s[SECOND] = -1
    s[CHOOSER] = -1
    s[DIRECTION] = CLOCKWISE
    n = 0
    for t in range(types_of(cfg)):
        for _ in range(cfg[CFG_DECK + t]):
            cards[n] = t
            n += 1
    shuffle(stream, cards, n)
    hand = cfg[CFG_HAND]
    for slot in range(n_seats):
        seat = wrap_seat(slot + rotation, n_seats)
        for k in range(hand):
            s[zone_row(HAND, seat) + cards[slot * hand + k]] += 1
    left = n_seats * hand
    if cfg[CFG_FIXED_ACCUSED] >= 0:
        s[ACCUSED] = cfg[CFG_FIXED_ACCUSED]
    else:
        s[ACCUSED] = cards[left]
        left += 1
    s[UNUSED] = cards[left] if left < n else -1
    s[BID_WINNER] = -1
    if cfg[CFG_MERC]:
        deal_mercenaries(s, stream, cards)
    if cfg[CFG_REVEAL]:
        reveal_next(s, cfg)
    else:
        choose_first(s, cfg)


@kernel
def deal_mercenaries(s, stream, cards):
    """"Shuffle the Mercenary deck and deal 5 cards face up to the Mercenary area" (the deck: one of
    each Signature Card; last round's are back in it)."""
    n = 0
    for t in range(TYPES):
        if SIGNATURE[t] == 1:
            cards[n] = t
            n += 1
    shuffle(stream, cards, n)
    for k in range(MERC_AREA):
        s[MERC + cards[k]] += 1
        s[MERC_DEALT + cards[k]] += 1


@allocating_kernel
def count_cards(s):
    """Cards of each type in every zone of the round (for the conservation invariant)."""
    counts = np.zeros(TYPES, dtype=np.int64)
    for p in range(PLAYERS):
        for t in range(TYPES):
            for zone in (HAND, ANTE, PLACED, REVEALED, CONDEMNED, CONDEMNED_HIDDEN):
                counts[t] += s[zone_row(zone, p) + t]
        for zone in (SUCCESSOR, DUNGEON, TAKEN, PARTNER_CARD, SQUIRE):
            if s[zone + p] >= 0:
                counts[s[zone + p]] += 1
    for i in range(s[COURT_LEN]):
        counts[s[COURT_TYPE + i]] += 1
    for t in range(TYPES):
        counts[t] += s[REMOVED + t] + s[REMOVED_HIDDEN + t] + s[POOL + t] + s[MERC + t]
    counts[s[ACCUSED]] += 1
    if s[UNUSED] >= 0:
        counts[s[UNUSED]] += 1
    return counts


# ---- a round as a step kernel (balance.engine.step) ----------------------------------------------
# The match plays each round, and the match start's choice of Signature Cards, through the engine's
# loop with these verbs. ``table`` is (cfg, the deals' stream, the rotation, the deck's buffer, the
# decision trace, its fill, the round's index): what the rules read and write besides the state. A
# trace without rows is off; its events are declared in ``layout``.
@kernel
def record(trace, fill, round_index, s, cfg, action):
    """The trace's event of a decision answered ``action`` (before it is applied)."""
    k = fill[0]
    if k < trace.shape[0]:
        trace[k, EV_ROUND] = round_index
        trace[k, EV_PHASE] = s[PHASE]
        trace[k, EV_DECIDER] = s[DECIDER]
        trace[k, EV_ACTION] = action
        top = s[COURT_LEN] - 1
        trace[k, EV_THRONE] = -1
        if top >= 0:
            trace[k, EV_THRONE] = s[COURT_TYPE + top] + (TYPES if is_disgraced(s, top) else 0)
        trace[k, EV_THRONE_VALUE] = throne_value(s, cfg)
        trace[k, EV_LEGAL] = legal_mask(s, cfg)
        fill[0] = k + 1


@kernel
def record_deal(trace, fill, round_index, s, cfg):
    """The trace's events of a deal: each seat's hand (and the Accused and the unused card)."""
    for seat in range(cfg[CFG_PLAYERS]):
        k = fill[0]
        if k >= trace.shape[0]:
            return
        packed = 0
        for t in range(TYPES):
            packed |= s[zone_row(HAND, seat) + t] << (HAND_BITS * t)
        trace[k, EV_ROUND] = round_index
        trace[k, EV_PHASE] = EV_DEAL
        trace[k, EV_DECIDER] = seat
        trace[k, EV_ACTION] = packed
        trace[k, EV_THRONE] = s[ACCUSED]
        trace[k, EV_THRONE_VALUE] = s[UNUSED]
        fill[0] = k + 1


@kernel
def deal_traced(s, table):
    """The round's deal (a new round: every round field reset), traced."""
    cfg, deals, rotation, cards, trace, fill, round_index = table
    deal_round(s, cfg, deals, rotation, cards)
    if trace.shape[0] > 0:
        record_deal(trace, fill, round_index, s, cfg)


@kernel(inline="always")
def round_advance(s, table):
    """A called mulligan's new deal (PH_REDEAL), keeping the count of mulligans: the one step no
    answer runs on to, as ``apply_action`` runs every other automatic step itself."""
    while s[PHASE] == PH_REDEAL:
        mulligans = s[MULLIGANS]
        deal_traced(s, table)
        s[MULLIGANS] = mulligans


@kernel(inline="always")
def round_over(s):
    """Nothing is pending: the round is over (or the Signature Cards are chosen)."""
    return s[PHASE] == PH_ROUND_OVER


@kernel(inline="always")
def round_pose(s, table, restrict):
    pose_pending(s, table[0], restrict)


@kernel(inline="always")
def round_apply(s, table, answer):
    """The answer traced, then performed (the rules run on to the next decision)."""
    cfg, _, _, _, trace, fill, round_index = table
    if trace.shape[0] > 0:
        record(trace, fill, round_index, s, cfg, answer)
    apply_action(s, cfg, answer)
