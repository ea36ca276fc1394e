"""Compiled policies of The Imposter Kings: the ladder random < greedy < heuristic < search, and the
engine's tree search (balance.engine.ismcts) on the rules' own steps.

Every decision of a round is posed first (``rules.pose_pending``: the decision header's D_CHOICES
holds the legal answers less what the seat's restriction forbids, or only what it prefers) and then
comes to the engine's ``step.decide`` (the match plays every decision through balance.engine.step):
a forced answer is taken, then ``policy`` answers (the random policy's draw, the greedy's or the
heuristic's pick) or asks ``search_at`` for the searches'. Every policy chooses among the answers
left in D_CHOICES, so a restriction binds them without their knowing. Where no restriction binds
they play exactly as before; where one does, they skip the answers it took away and otherwise reason
as before. Policies read only what their seat may know: the public zones (Court, Antechambers,
Accused, face-up removed and Condemned cards, Cutthroat's revealed cards, counts), their own hand,
Successor, Dungeon and face-down cards, ``layout.KNOWN`` (cards seen entering another player's hand,
or named correctly) and ``layout.KNOWN_SUCCESSOR`` (Successors the Spy showed). With three players
(Cutthroat) the heuristic reads the other players as one field (the chance that some opponent holds
a card) and aims its targeted choices by turn order from its own seat, never by seat number. In 2v2
it plays for its team: the field is the two opponents only, it never reacts against its partner (no
King's Hand on the partner's ability, no Assassin on the partner's flip), aims the Princess and the
Executioner away from the partner, takes the best card of the partner's four, and trades one card to
even the partners' hands. As True King it chooses the direction of play by who follows the first
player; it judges a seat's cards (for the direction and the trade) by the estimated mean value of
the cards it holds: the cards its seat saw revealed, knows in that hand or sees as a 2v2 fourth card
at their values, every other card at the mean value of the cards its seat cannot see. Fragments of
Nersetti's Signature Cards: the heuristic copies with the Stranger the Court card of highest base
value that has an ability to gain, reacts with a Stranger rather than the Reaction card itself,
names with the Nakturn a card it holds that the guesser does not know of (the rarest), guesses "you
hold it" when it thinks that at least even odds, Condemns the guesser's best card, and scores the
Nakturn, Conspiracist and Exile by their prospects (a Disgraced card; cards left to gain the +1; the
opponents' reactions the Mute silences). The search policies sample every hidden element (the unseen
cards and the Princess owner's pending pick) from exactly that view, so their decisions are
functions of the view and the stream alone.

The heuristic's per-decision helpers with one caller compile inline into it (see ``rules``), but
heuristic_pick (the decisions besides the turn's card) and cutthroat_pick (those only 3 or 4 players
make): a compiled function zeroes the stack slots of all its call sites each time it is entered, so
the heuristic, entered at every turn, keeps only the few of the turn's scoring.
"""

import numpy as np
from numba.extending import overload

from balance.engine.config import ConfigType, config_maker, row_of
from balance.engine.decision import D_CHOICES, random_answer
from balance.engine.ismcts import N_PARAMS, ismcts_answer, ismcts_views, ismcts_words
from balance.engine.kernels import kernel
from balance.engine.search import DETERMINIZE_SIGNATURE, ROLLOUT_SIGNATURE, copy_world, search_answer
from balance.engine.rng import below, chance, random_bit, shuffle
from balance.engine.step import SEARCH as SEARCH_DECIDES  # a policy's "the search answers this one"
from balance.engine.step import no_search, play
from balance.games.imposter_kings.layout import (
    BASE_MODES, CFG_MERC, EXTRA_SHOWN, MERC, MERC_DEALT, PH_RAISE, PICK_BID_TIE, PICK_MERC_COST, PICK_MERC_GIVE,
    PICK_MERC_MUSTER, PICK_MERC_TAKE, PICK_RECOMMISSION_ARMY, PICK_SWAP_GIVE, PICK_SWAP_TAKE,
    ACCUSED, ACT_FLIP, ACT_NO, ACT_YES, ANTE, ASSASSIN, BASE_VALUE, CFG_DECK, CFG_FIXED_ACCUSED, CFG_PLAYERS,
    CFG_REVEAL, CFG_TYPES, CONDEMNED, CONDEMNED_HIDDEN, COURT_LEN, COURT_TYPE, DECIDER, DUNGEON, EXECUTIONER, FLIPPED, FOOL,
    FREE_MULLIGAN_USED, HAND, INQUISITOR, JUDGE, KINGS_HAND, KNOWN_SUCCESSOR, MAX_ACTIONS, MAX_CARDS, MYSTIC,
    OUT, PEND_ARG, PEND_EFFECT, PEND_GIVE, PHASE, PH_ANTE, PH_ASSASSIN, PH_DIRECTION, PH_EXECUTIONER, PH_FIRST,
    PH_FIRST_SEAT, PH_FOOL, PH_HERALD_PLAY, PH_INQUISITOR, PH_JUDGE_ANTE, PH_JUDGE_NAME, PH_KINGS_HAND,
    PH_MULLIGAN, PH_MYSTIC, PH_OATH_FOLLOW, PH_PICK_CARD, PH_PICK_PLAYER, PH_PRINCESS, PH_PRINCESS_OPP,
    PH_PRINCESS_OWN, PH_REDEAL, PH_REVEAL, PH_ROUND_OVER, PH_SENTRY_GIVE, PH_SENTRY_PICK, PH_SOLDIER_DISGRACE,
    SEATS_IN_PLAY, TEAM_PLAY,
    PH_SOLDIER_NAME, PH_SPY, PH_SUCCESSOR, PH_TURN, PH_WARDEN, PICK_ASSASSIN_KEEP, PICK_EXCHANGE_START,
    PICK_EXCHANGE_TAKE, PICK_EXCHANGE_VICTIM, PICK_EXEC_CONDEMN, PICK_FOR, PICK_HERALD_SUCCESSOR, PICK_JUDGE,
    PICK_PRINCESS, PICK_SPY_SWAP, PICK_WARDEN_GIVE, PLACED, PLAYERS, POOL, QUEEN, REMOVED, REVEALED,
    ACT_FOURTH, CFG_TEAMS, CURRENT, PARTNER_CARD, PEND_USER, PICK_PARTNER_CARD, PICK_PARTNER_TAKE, PICK_TRADE,
    ROYALTY, SOLDIER, STATE_SIZE, SUCCESSOR, TAKEN, TYPES, UNUSED, WINNER,
    REMOVED_HIDDEN, SCORE, FIRST, TRADE_TRY, ARMY, ARMY_TAKEN, PH_PICK_COURT, PICK_MUSTER,
    PICK_RECOMMISSION_EXHAUST, PICK_RECOMMISSION_RETURN, PICK_RECRUIT_COST, PICK_RECRUIT_TAKE, AEGIS, CFG_ARMY,
    CONSPIRACIST, EXILE, HERALD, IMMORTAL, NAKTURN, PEND_TARGET, PH_NAKTURN_GUESS, PICK_NAKTURN_CONDEMN,
    PICK_NAKTURN_GUESSER, PICK_NAKTURN_NAME, PICK_STRANGER_COPY, PRINCESS, REACT_WITH, SENTRY, SPY, STRANGER,
    WARDEN, WARLORD, PICK_RALLY, PH_SIGNATURE, PH_DRAFT, PH_DRAFT_ORDER, ANCESTOR, LOCKSHIFT,
    INFORMANT, FLAG_BEARER, EXHAUST, PICK_ANCESTOR_REMOVE, PICK_FLAG_BEARER, PICK_FLAG_BEARER_RETURN,
    PICK_INFORMANT_GUESS, PICK_INFORMANT_TAKE, PICK_LOCKSHIFT, DUNGEON_SHOWN,
    FACET_BASE, FACET_LEADER, FACET_TACTICIAN, KING_FACET, PH_FACET_TAKE, PH_KING, PICK_SQUIRE, PICK_TACTICIAN_REVEAL,
    PICK_TACTICIAN_SQUIRE, PICK_TACTICIAN_TAKE, SQUIRE, KNOWN_REMOVED,
)
from balance.games.imposter_kings.rules import (
    answers, any_disgraced, apply_action, bid_total, bit, court_royalty, court_value, hand_count, hand_value,
    has_army, highest_revealed, in_mode, is_disgraced, is_opponent, known_condemned_row, known_row, legal_mask,
    next_seat, partner_of, pose_pending, sentry_target, tactician_matches, throne_is_royalty,
    side_count, side_of, team_side, types_of, wrap_seat, zone_count, zone_row, zone_types)

GREEDY = 1
HEURISTIC = 2
SEARCH = 3
ISMCTS = 4  # the engine's tree search (``ismcts_policies``: ismcts and its budget presets)
# The random policy has parameters (its odds of a mulligan and of mustering, ``random_choice``), so
# it is not the engine's uniform POLICY_RANDOM, which ``step.decide`` answers before any policy:
# it has a code of its own, and ``policy`` draws its answers (from the same stream, in the same order).
RANDOM = 5

# Heuristic weights (their order in the policy's parameter row; defaults in options.py).
W_LOW_CARD = 0        # cost of spending a card, per point of its value / 9
W_BLOCK = 1           # reward for a Throne value the opponent probably cannot beat
W_FLIP_COST = 2       # cost of flipping the King (the face-up bonus point is gone)
W_ASSASSIN_FEAR = 3   # extra flip cost times P(opponent holds the Assassin)
W_ABILITY = 4         # reward for an ability likely to succeed
W_FIRST = 5           # go first when the hand's mean value is at least this (measured: going second
                      # wins more often for this policy, so the default rarely goes first)
W_MULLIGAN = 6        # call the free mulligan when the hand's mean value is below this
W_KINGS_HAND = 7      # react with the King's Hand when the harm estimate reaches this
W_FACET = 8           # Step 4: the King it chooses while mustering (a KING_FACET code; 0 keeps the base King)
HEURISTIC_PARAMS = 9
# Tuned one weight at a time against the previous defaults (16,000 rotated matches each).
HEURISTIC_DEFAULTS = np.array([0.5, 1.0, 1.0, 3.0, 3.0, 7.0, 5.0, 0.5, 0.0], dtype=np.float64)

# Random policy parameters.
R_MULLIGAN = 0        # probability of calling a mulligan when one is offered
RANDOM_MULLIGAN_DEFAULT = 0.1  # see options.py
R_MUSTER = 1          # probability of another mustering action (uniform ones would spend the whole
                      # Army in the first round)
RANDOM_MUSTER_DEFAULT = 0.25  # see options.py

# Search parameters.
S_ROLLOUTS = 0        # determinized rollouts per legal action
S_INNER = 1           # inner policy of the rollouts: 1 greedy, 2 heuristic
I_FACET = N_PARAMS  # the tree search's parameter after the engine's: the King it chooses while mustering

MAX_VALUE = 9.0
MAX_BASE = 9
EXECUTIONER_AT_LEAST = 0.3  # name a number only when the opponents likely hold it (summed odds)
HARM_ALWAYS = 10.0
MYSTIC_NAME_THRESHOLD = 0.3
PRINCESS_GIVE_AT_MOST = 4
NAKTURN_BELIEVE = 0.5    # the Nakturn's guesser says "you hold it" when it thinks it at least this likely
NAKTURN_PROSPECT = 0.5   # the Nakturn's ability reward: its guesser is wrong about half the time
CONSPIRACY_PROSPECT = 0.5  # the Conspiracist's reward when cards stay in hand to gain its +1
# The Court cards whose ability a Stranger's copy gains (an ability when played, or a text in the
# Court); the others' (play permissions, reactions) would be nothing once the Stranger is played.
COPY_WORTH = np.zeros(TYPES, dtype=np.int64)
COPY_WORTH[[FOOL, INQUISITOR, SOLDIER, JUDGE, MYSTIC, WARLORD, SENTRY, PRINCESS, QUEEN, EXECUTIONER, HERALD,
            WARDEN, SPY, IMMORTAL, AEGIS, NAKTURN, CONSPIRACIST, EXILE]] = 1
TRADE_CARDS = 1    # 2v2's Trade: the cards each partner puts out (one rule for both, so the counts match;
                   # measured: 2 cards lose 1.8 points of rounds against not trading, 1 card gains)
TRADE_GAP = 0.5    # ... when the partners' estimated mean card values differ by at least this (measured
                   # against 0 and 1.0: +0.6 points of rounds against +0.5 and +0.2)
SOLDIER_DISGRACE_FROM = 7
ASSASSIN_VALUE = 2
KINGS_HAND_VALUE = 8
HARM_MYSTIC = 0.6
HARM_SWAP = 0.5
MUSTER_GIVE_AT_MOST = 3  # the heuristic Recruits only to give up a card worth at most this
LOCKSHIFT_OWN_FROM = 5   # the heuristic uses the Lockshift when its own Dungeon card is worth this or more
# The heuristic's Signature Cards, best first (its secret choice and its draft picks): the rulebook's
# first-game three ("we recommend the Exile, Aegis and Ancestor"), then the others by base value (the
# higher card is the likelier to hold the Throne; ties in the sheet's order).
SIGNATURE_PREFERENCE = np.array([EXILE, AEGIS, ANCESTOR, CONSPIRACIST, LOCKSHIFT, NAKTURN, INFORMANT, STRANGER,
                                 FLAG_BEARER], dtype=np.int64)
HEURISTIC_NEW_KING = FACET_LEADER  # the King the heuristic takes when made to choose one (see facet_pick)
ARMY_DEAL_ATTEMPTS = 1000  # shuffles to find a deal that fills every face-down Army (one fits almost always)
MERC_GAIN = 3        # ... and pays an Army card for a Mercenary worth at least this much more than it
MERC_KEEP_ARMY = 3   # ... only while its Army holds at least this many cards

# Scratch rows (one int64 scratch matrix per game, reused).
SCR_DET = 0       # a determinized copy of the state
SCR_WORK = 1      # the state a rollout plays on
SCR_ACTIONS = 2   # the rollout's legal actions
SCR_POOL = 3      # the hidden cards being shuffled
SCR_UNSEEN = 4    # the hidden cards' counts per type (the Army step: an opponent's face-down Army included)
SCRATCH_ROWS = 5
SCRATCH_WIDTH = max(STATE_SIZE, MAX_ACTIONS, 2 * MAX_CARDS)
FS_ODDS = 0       # float scratch: the inferred opponent hand
FS_TOTALS = 1     # float scratch: the search's sums per action
FS_BEAT = 2       # float scratch: chance the opponent can beat each value
FS_WEIGHTS = 3    # float scratch: HEURISTIC_DEFAULTS, the search's inner heuristic (copied by the buffers'
                  # allocator: a writable row types like a seat's parameter row, so the heuristic compiles once)
FS_TREE_WEIGHTS = 4  # float scratch: the tree search's own heuristic (its decisions outside the search): the
                     # defaults but the King it musters (``I_FACET``)
FSCRATCH_ROWS = 5
BEAT_VALUES = 11  # Throne values 0..10 (a Soldier with its bonus is 7; a Warlord 9)
FSCRATCH_WIDTH = max(TYPES, MAX_ACTIONS)
# The tree search's buffers (balance.engine.ismcts) live in rows after these, carved out by ``tree_buffers``:
# a batch's hot path then passes no more arguments than it did without the tree search (its seven arrays
# passed down to every decision, with a second search call in the dispatcher, cost a greedy round about a
# tenth of its speed). Those rows are left unfilled (``game_buffers``): the tree search writes every
# word before reading it.
TREE_INT_WORDS, TREE_FLOAT_WORDS = ismcts_words.py_func(STATE_SIZE, PLAYERS, HEURISTIC_PARAMS)
SCRATCH_TREE_ROWS = -(-TREE_INT_WORDS // SCRATCH_WIDTH)
FSCRATCH_TREE_ROWS = -(-TREE_FLOAT_WORDS // FSCRATCH_WIDTH)


# ---- what a seat may infer -------------------------------------------------------------------
@kernel
def nakturn_seen(s, cfg, me, out):
    """Less the face-down cards ``me`` saw go: the cards its Nakturn Condemned in front of the other
    players (3-4 players), and those of them since removed face down."""
    for t in range(cfg[CFG_TYPES]):
        out[t] -= s[KNOWN_REMOVED + me * TYPES + t]
    for p in range(cfg[CFG_PLAYERS]):
        if p != me:
            row = known_condemned_row(me, p)
            for t in range(cfg[CFG_TYPES]):
                out[t] -= s[row + t]


@kernel
def unseen_counts(s, cfg, me, out):
    """out[t]: cards of type t that ``me`` cannot see (the opponents' hands beyond what ``me``
    knows is there, their Successors unless the Spy showed them, their Dungeons, face-down
    Condemned and removed cards but those its Nakturn Condemned, cards placed for the Reveal, the
    unused card): the mode's deck
    less every zone ``me`` sees. Reads ``me``'s view only. Returns their total (the positive
    counts). The zones every table has are read in one pass over the mode's types (the types past
    ``cfg[CFG_TYPES]`` have no cards: 0), a 2-seat table's two seats written out as the 2-player
    game always had them, a larger table's seats zone by zone; a deck without the Executioner reads
    no face-down Condemned cards, a mode without the Reveal none of its zones."""
    types = cfg[CFG_TYPES]
    out[types:TYPES] = 0
    hand = zone_row(HAND, me)
    if cfg[CFG_PLAYERS] == 2:
        known = known_row(me, 1 - me)
        for t in range(types):
            out[t] = (cfg[CFG_DECK + t] - s[hand + t] - s[REMOVED + t] - s[known + t]
                      - s[zone_row(ANTE, 0) + t] - s[zone_row(ANTE, 1) + t]
                      - s[zone_row(CONDEMNED, 0) + t] - s[zone_row(CONDEMNED, 1) + t])
    else:
        for t in range(types):
            out[t] = cfg[CFG_DECK + t] - s[hand + t] - s[REMOVED + t]
        for p in range(cfg[CFG_PLAYERS]):
            for t in range(types):
                out[t] -= s[zone_row(ANTE, p) + t] + s[zone_row(CONDEMNED, p) + t]
            if p != me:
                row = known_row(me, p)
                for t in range(types):
                    out[t] -= s[row + t]
        if in_mode(cfg, NAKTURN):
            nakturn_seen(s, cfg, me, out)
    if in_mode(cfg, EXECUTIONER):
        for t in range(types):
            out[t] -= s[zone_row(CONDEMNED_HIDDEN, me) + t]
    if has_army(cfg):  # in the round besides the deck: my taken Army cards, and every card of an
        for p in range(cfg[CFG_PLAYERS]):  # opponent's face-down Army or taken from it (which: unseen)
            for t in range(types):
                out[t] += s[zone_row(ARMY_TAKEN, p) + t] + (s[zone_row(ARMY, p) + t] if p != me else 0)
    if cfg[CFG_MERC]:  # the round's Mercenaries, less those still face up in the Mercenary area
        for t in range(types):
            out[t] += s[MERC_DEALT + t] - s[MERC + t]
    if cfg[CFG_FIXED_ACCUSED] >= 0:
        out[cfg[CFG_FIXED_ACCUSED]] += 1
    if cfg[CFG_REVEAL]:  # the zones of Cutthroat's Reveal and Exchange
        for p in range(cfg[CFG_PLAYERS]):
            for t in range(types):
                out[t] -= s[zone_row(REVEALED, p) + t]
            if s[TAKEN + p] >= 0:
                out[s[TAKEN + p]] -= 1
        for t in range(types):
            out[t] -= s[zone_row(PLACED, me) + t]
    for p in range(cfg[CFG_PLAYERS]):
        seen = s[KNOWN_SUCCESSOR + me * PLAYERS + p]
        if p != me and seen >= 0:
            out[seen] -= 1
    if s[PHASE] == PH_PICK_CARD and s[PICK_FOR] == PICK_ASSASSIN_KEEP and s[DECIDER] == me:
        for t in range(types):
            out[t] -= s[POOL + t]  # the Assassin's owner looks at the pool it chooses from
    for i in range(s[COURT_LEN]):
        out[s[COURT_TYPE + i]] -= 1
    out[s[ACCUSED]] -= 1
    for zone in (SUCCESSOR + me, DUNGEON + me, SQUIRE + me):
        if s[zone] >= 0:
            out[s[zone]] -= 1
    for p in range(cfg[CFG_PLAYERS]):  # a Dungeon card the Informant's right guess left face up
        if p != me and s[DUNGEON_SHOWN + p] == 1:
            out[s[DUNGEON + p]] -= 1
    total = 0  # a sum of whole counts: as integers it vectorizes (a float sum does not)
    for t in range(types):
        total += max(np.int64(out[t]), 0)
    return total


@kernel
def opponent_odds(s, cfg, me, odds):
    """odds[t]: estimated probability that an opponent still in the round holds type t in hand,
    from my view (with one opponent: that the opponent holds it; in 2v2 the partner is no
    opponent: its unknown hand cards count among the unseen, not among the opponents')."""
    hidden = unseen_counts(s, cfg, me, odds)
    types = cfg[CFG_TYPES]
    hidden_in_hand = 0        # the opponents' hand cards I do not know
    known_types = np.int64(0)  # the types I know some opponent holds (a mask)
    for q in range(cfg[CFG_PLAYERS]):
        if is_opponent(cfg, me, q) and s[OUT + q] == 0:
            row = known_row(me, q)
            for t in range(types):
                hidden_in_hand += s[zone_row(HAND, q) + t] - s[row + t]
                if s[row + t] > 0:
                    known_types |= bit(t)
    share = hidden_in_hand / hidden if hidden > 0 else 0.0
    for t in range(types):
        if (known_types & bit(t)) != 0:
            odds[t] = 1.0
        else:
            odds[t] = min(1.0, max(odds[t], 0.0) * share)


@kernel
def best_named(cfg, odds):
    """The card most likely in the opponent's hand (ties: the higher value; the Assassin first)."""
    best = -1
    best_score = -1.0
    for t in range(cfg[CFG_TYPES]):  # the mode's types: the others are in no deck
        if cfg[CFG_DECK + t] == 0:
            continue
        score = odds[t] + BASE_VALUE[t] * 1e-3 + (1e-2 if t == ASSASSIN else 0.0)
        if score > best_score:
            best_score = score
            best = t
    return best


@kernel
def fill_beat_chances(odds, beat):
    """beat[v]: rough chance the opponent holds a card of base value v or more (v = 0..10)."""
    beat[:] = 0.0
    for t in range(TYPES):
        beat[BASE_VALUE[t]] += odds[t]
    for v in range(BEAT_VALUES - 2, -1, -1):
        beat[v] += beat[v + 1]
    for v in range(BEAT_VALUES):
        beat[v] = min(1.0, beat[v])


@kernel
def mean_hand_value(s, cfg, p):
    total = 0
    count = 0
    for t in range(types_of(cfg)):
        c = s[zone_row(HAND, p) + t]
        total += c * BASE_VALUE[t]
        count += c
    return total / count if count > 0 else 0.0


@kernel
def extreme_card(s, cfg, p, highest, avoid, skip):
    """The highest (or lowest) base-value card in p's hand, avoiding type ``avoid`` if possible;
    types in the mask ``skip`` (answers a restriction took away) are never picked."""
    pick = -1
    for t in range(types_of(cfg)):
        if s[zone_row(HAND, p) + t] == 0 or t == avoid or (skip & bit(t)) != 0:
            continue
        if pick < 0 or (BASE_VALUE[t] >= BASE_VALUE[pick] if highest else BASE_VALUE[t] < BASE_VALUE[pick]):
            pick = t
    return pick if pick >= 0 else avoid


@kernel
def position_of(actions, n, a):
    for i in range(n):
        if actions[i] == a:
            return i
    return -1


@kernel
def taken_away(s, cfg):
    """The legal answers the seat's restriction removed from the posed decision."""
    return legal_mask(s, cfg) & ~s[D_CHOICES]


# ---- the random policy ------------------------------------------------------------------------
@kernel
def random_choice(s, params, stream):
    """The engine's uniform answer, except an unforced mulligan: called with probability
    ``R_MULLIGAN``; and the Army's mustering: another action with probability ``R_MUSTER`` (a
    uniform one of them), else done."""
    if s[PHASE] == PH_MULLIGAN:
        return ACT_YES if chance(stream, params[R_MULLIGAN]) else ACT_NO
    if s[PHASE] == PH_PICK_CARD and (s[PICK_FOR] == PICK_MUSTER or s[PICK_FOR] == PICK_MERC_MUSTER):
        actions = s[D_CHOICES] & ~bit(ACT_NO)
        if actions == 0 or not chance(stream, params[R_MUSTER]):
            return ACT_NO
        return random_bit(stream, actions)
    return random_answer(s, stream)


# ---- the greedy policy -----------------------------------------------------------------------
@kernel
def greedy(s, cfg, actions, n, stream):
    """Turn: the lowest legal card, the King only when stuck. Reactions: always. Never a mulligan nor
    a mustering action. Else random."""
    phase = s[PHASE]
    if phase == PH_TURN or phase == PH_ANTE or phase == PH_OATH_FOLLOW:
        best = -1
        for i in range(n):
            a = actions[i]
            if a == ACT_FLIP:
                continue
            if best < 0 or hand_value(s, cfg, s[DECIDER], a) < hand_value(s, cfg, s[DECIDER], actions[best]):
                best = i
        return best if best >= 0 else n - 1
    if phase == PH_KINGS_HAND or phase == PH_ASSASSIN:  # against an opponent (2v2: not the partner)
        other = s[PEND_USER] if phase == PH_KINGS_HAND else s[CURRENT]
        return position_of(actions, n, react_answer(s) if is_opponent(cfg, s[DECIDER], other) else ACT_NO)
    if phase == PH_MULLIGAN or (phase == PH_PICK_CARD and (s[PICK_FOR] == PICK_MUSTER
                                                          or s[PICK_FOR] == PICK_MERC_MUSTER)):
        return position_of(actions, n, ACT_NO)  # no mulligan, no mustering
    return below(stream, n)


@kernel
def react_answer(s):
    """How to react when reacting: with a Stranger acting as the Reaction card when it may (it keeps
    the card itself, an 8 for the King's Hand, and is Immune to King's Hand as the Assassin), else
    with the card."""
    return STRANGER if (s[D_CHOICES] & bit(STRANGER)) != 0 else ACT_YES


# ---- the heuristic policy --------------------------------------------------------------------
@kernel(inline="always")
def play_score(s, cfg, t, odds, beat, named_odds, w):
    """How good is playing type t now (value spent, Throne strength after, ability prospects)."""
    if t == ACT_FLIP:
        score = -w[W_FLIP_COST] - w[W_ASSASSIN_FEAR] * odds[ASSASSIN]
        if s[KING_FACET + s[DECIDER]] == FACET_TACTICIAN and tactician_matches(s, s[DECIDER]):
            score += w[W_ABILITY]  # the matched flip takes the Successor and the Squire (or a Rally) and Recalls
        return score
    value = hand_value(s, cfg, s[DECIDER], t)
    score = -w[W_LOW_CARD] * value / MAX_VALUE + w[W_BLOCK] * (1.0 - beat[min(value, BEAT_VALUES - 1)])
    if t == INQUISITOR or t == SOLDIER or t == JUDGE:
        score += w[W_ABILITY] * named_odds
    elif t == NAKTURN and any_disgraced(s):
        score += w[W_ABILITY] * NAKTURN_PROSPECT
    elif t == EXILE:  # its Mute silences the opponents' reactions and permissions
        score += w[W_ABILITY] * max(odds[KINGS_HAND], odds[ASSASSIN])
    elif t == CONSPIRACIST and hand_count(s, cfg, s[DECIDER]) > 2:
        score += w[W_ABILITY] * CONSPIRACY_PROSPECT
    elif t == FOOL or t == STRANGER:  # the Fool takes, the Stranger copies, the best Court card
        best = 0
        for i in range(s[COURT_LEN]):
            if not is_disgraced(s, i) and BASE_VALUE[s[COURT_TYPE + i]] > best:
                best = BASE_VALUE[s[COURT_TYPE + i]]
        score += w[W_ABILITY] * best / MAX_VALUE
    elif t == FLAG_BEARER:  # Recall and Rally twice, keeping one: a card more
        if any_disgraced(s) and zone_count(s, cfg, ARMY, s[DECIDER]) > 0:
            score += w[W_ABILITY]
    elif t == ANCESTOR:  # onto Royalty: Recall, and the offer to Rally
        if throne_is_royalty(s, cfg):
            score += w[W_ABILITY]
    elif t == LOCKSHIFT:
        own = s[DUNGEON + s[DECIDER]]
        if own >= 0 and BASE_VALUE[own] >= LOCKSHIFT_OWN_FROM:
            score += w[W_ABILITY]
    elif t == QUEEN:
        face_up = 0
        for i in range(s[COURT_LEN]):
            if not is_disgraced(s, i):
                face_up += 1
        score += w[W_ABILITY] * min(face_up, 3) / 3.0
    return score


@kernel
def hurts_my_team(s, cfg, me):
    """2v2: the ability the King's Hand may stop is an opponent's (and the Assassin's aims at my
    team, not at the opponent's own partner)."""
    if not is_opponent(cfg, me, s[PEND_USER]):
        return False
    return s[PEND_EFFECT] != ASSASSIN or not is_opponent(cfg, me, s[CURRENT])


@kernel
def harm_of_pending(s, cfg, me):
    """How much the opponent's chosen ability would hurt me (for the King's Hand)."""
    effect = s[PEND_EFFECT]
    arg = s[PEND_ARG]
    if effect == ASSASSIN:
        return HARM_ALWAYS
    if effect == FOOL:
        return BASE_VALUE[s[COURT_TYPE + arg]] / MAX_VALUE
    if effect == INQUISITOR or effect == SOLDIER or effect == JUDGE:
        return 1.0 if s[zone_row(HAND, me) + arg] > 0 else 0.0
    if effect == EXECUTIONER:
        return 1.0 if holds_base_value(s, cfg, me, arg) else 0.0
    if effect == MYSTIC:
        return HARM_MYSTIC
    return HARM_SWAP


@kernel
def heuristic(s, cfg, actions, n, w, stream, odds, beat):
    """Weighted scoring; ``odds`` and ``beat`` are float buffers (inferred opponent hand)."""
    me = s[DECIDER]
    phase = s[PHASE]
    if phase < PH_TURN:
        pick = setup_pick(s, cfg, me, phase, w)
    else:
        if needs_odds(phase):
            opponent_odds(s, cfg, me, odds)
        if phase == PH_TURN or phase == PH_OATH_FOLLOW:
            named_odds = odds[best_named(cfg, odds)]
            fill_beat_chances(odds, beat)
            best = 0
            best_score = -1e18
            for i in range(n):
                score = play_score(s, cfg, actions[i], odds, beat, named_odds, w)
                if score > best_score:
                    best_score = score
                    best = i
            return best
        pick = heuristic_pick(s, cfg, me, phase, odds, w)
    i = position_of(actions, n, pick)
    return i if i >= 0 else below(stream, n)


@kernel
def needs_odds(phase):
    """The decisions that read the inferred opponent hand (the others use public or own cards)."""
    return (phase == PH_TURN or phase == PH_OATH_FOLLOW or phase == PH_INQUISITOR or phase == PH_SOLDIER_NAME
            or phase == PH_JUDGE_NAME or phase == PH_MYSTIC or phase == PH_EXECUTIONER or phase == PH_NAKTURN_GUESS)


@kernel(inline="always")
def setup_pick(s, cfg, me, phase, w):
    """First player, mulligan, Successor and Dungeon: judged from the own hand only."""
    if phase == PH_FIRST:
        return ACT_YES if mean_hand_value(s, cfg, me) >= w[W_FIRST] else ACT_NO
    if phase == PH_MULLIGAN:
        free = s[FREE_MULLIGAN_USED + side_of(cfg, me)] == 0
        return ACT_YES if free and mean_hand_value(s, cfg, me) < w[W_MULLIGAN] else ACT_NO
    if phase == PH_SUCCESSOR:  # the highest card, held back for the flip; the Charismatic Leader's lies face
        # up: its lowest, which tells the opponent least (measured: 0.49 of the matches against the base
        # King, 0.43 with its highest; see facet_pick)
        return extreme_card(s, cfg, me, s[KING_FACET + me] != FACET_LEADER, ASSASSIN, taken_away(s, cfg))
    return extreme_card(s, cfg, me, False, ASSASSIN, taken_away(s, cfg))


@kernel
def heuristic_pick(s, cfg, me, phase, odds, w):
    """The heuristic's preferred action outside the main turn choice (-1: no preference)."""
    if phase == PH_SIGNATURE or phase == PH_DRAFT:
        return preferred_signature(s[D_CHOICES])
    if phase == PH_DRAFT_ORDER:  # first: the first pick of the five, and the last
        return ACT_YES
    if phase == PH_SENTRY_GIVE or phase == PH_PRINCESS_OWN or phase == PH_PRINCESS_OPP:
        return extreme_card(s, cfg, me, False, ASSASSIN, taken_away(s, cfg))
    if phase == PH_JUDGE_ANTE:
        return extreme_card(s, cfg, me, False, -1, taken_away(s, cfg))
    if phase == PH_ANTE:
        return lowest_ante(s, cfg, me, taken_away(s, cfg))
    if phase == PH_KINGS_HAND:
        if cfg[CFG_TEAMS] and not hurts_my_team(s, cfg, me):
            return ACT_NO
        return react_answer(s) if harm_of_pending(s, cfg, me) >= w[W_KINGS_HAND] else ACT_NO
    if phase == PH_ASSASSIN:  # the flipper: an opponent (2v2: never the partner)
        return react_answer(s) if is_opponent(cfg, me, s[CURRENT]) else ACT_NO
    if phase == PH_NAKTURN_GUESS:  # "you hold it" when I know it or think it likely
        return ACT_YES if odds[s[PEND_ARG]] >= NAKTURN_BELIEVE else ACT_NO
    if phase == PH_INQUISITOR or phase == PH_SOLDIER_NAME or phase == PH_JUDGE_NAME:
        return best_named(cfg, odds)
    if phase == PH_FOOL:
        return best_court_card(s, cfg, False)
    if phase == PH_SENTRY_PICK:
        return best_court_card(s, cfg, True)
    if phase == PH_SOLDIER_DISGRACE:
        top = s[COURT_LEN] - 1
        for i in range(top):
            if not is_disgraced(s, i) and (ROYALTY[s[COURT_TYPE + i]] or court_value(s, cfg, i) >= SOLDIER_DISGRACE_FROM):
                return i
        return ACT_NO
    if phase == PH_MYSTIC:
        if s[FLIPPED + me] == 0 and odds[ASSASSIN] > MYSTIC_NAME_THRESHOLD:
            return ASSASSIN_VALUE
        if odds[KINGS_HAND] > MYSTIC_NAME_THRESHOLD:
            return KINGS_HAND_VALUE
        return ACT_NO
    if phase == PH_PRINCESS:
        low = extreme_card(s, cfg, me, False, -1, 0)
        return ACT_YES if low >= 0 and BASE_VALUE[low] <= PRINCESS_GIVE_AT_MOST else ACT_NO
    if phase == PH_PICK_COURT and s[PICK_FOR] == PICK_STRANGER_COPY:
        return stranger_copy_choice(s)
    if phase == PH_PICK_COURT:  # the Aegis: Disgrace a Royalty card under the Aegis (the Immortal's or the Warlord's source)
        for i in range(s[COURT_LEN] - 1):
            if not is_disgraced(s, i) and court_royalty(s, cfg, i):
                return i
        return ACT_NO
    if phase == PH_PICK_CARD and s[PICK_FOR] == PICK_MUSTER and (s[D_CHOICES] & bit(ACT_FLIP)) != 0:
        # Choose the King first, then Recruit (muster_choice). A facet King is kept for the match (no
        # new King is the base one), so wanting the base King while holding a facet chooses none:
        # flipping would alternate the two facets for ever (the rules allow as many as one likes).
        want = wanted_king(w)
        if want != FACET_BASE and s[KING_FACET + me] != want:
            return ACT_FLIP
    if phase == PH_KING or phase == PH_FACET_TAKE:
        return facet_pick(s, cfg, me, phase, w)
    return cutthroat_pick(s, cfg, me, phase, odds, w)


@kernel
def preferred_signature(choices):
    """The first Signature Card of SIGNATURE_PREFERENCE among ``choices``."""
    for t in SIGNATURE_PREFERENCE:
        if (choices & bit(t)) != 0:
            return t
    return -1


@kernel
def wanted_king(w):
    """The King the heuristic chooses while mustering: parameter ``facet``, a KING_FACET code (0: it
    keeps the base King). A rule from the hand measured no better: the facet is kept for the match (no
    way back to the base King), so one round's hand says little about the choice."""
    return int(w[W_FACET])


@kernel
def facet_pick(s, cfg, me, phase, w):
    """Step 4's Kings, from the own cards and the own Army only. The Mustering Phase chooses the
    King ``wanted_king`` names first (``heuristic_pick``); the Mercenary muster's King step takes it
    when offered, else keeps its King; made to choose (a restriction), it takes HEURISTIC_NEW_KING.
    Measured in mode fon (the True King choosing, seats mirrored, 20,000 matches, seed 7) against
    itself on the base King: the Charismatic Leader wins 0.491 [0.482, 0.501] of the matches (its
    Successor is its lowest card: ``setup_pick``), the Master Tactician 0.245 [0.237, 0.254] (its
    Squire is a hand card that only a matched flip wins back; every Squire and Successor choice tried
    lost more). So the default keeps the base King.
    The Master Tactician's Squire is its lowest card (``pick_card_choice``); it flips when the
    Successor matches the Throne card (``play_score``), reveals the matching Successor (strictly more
    cards), else takes the higher of Successor and Squire, and keeps the Squire over a Rally unless
    its Army holds a card of higher base value. The Charismatic Leader's flip trades its public
    Successor for a hidden Rallied card of the same base value when its Army holds one, else takes it
    (never trading: 0.458; trading for any card up to 2 lower: no change)."""
    if phase == PH_KING:
        want = wanted_king(w)
        if want != FACET_BASE and (s[D_CHOICES] & bit(want)) != 0:
            return want
        if (s[D_CHOICES] & bit(ACT_NO)) != 0:  # the Mercenary muster's King step: keep the King
            return ACT_NO
        return HEURISTIC_NEW_KING
    pick_for = s[PICK_FOR]
    succ = s[SUCCESSOR + me]
    if pick_for == PICK_TACTICIAN_REVEAL:
        return ACT_YES
    if pick_for == PICK_TACTICIAN_TAKE:
        return ACT_YES if BASE_VALUE[succ] >= BASE_VALUE[s[SQUIRE + me]] else ACT_NO
    best = highest_in(zone_types(s, cfg, ARMY, me))
    if pick_for == PICK_TACTICIAN_SQUIRE:
        return ACT_NO if best >= 0 and BASE_VALUE[best] > BASE_VALUE[s[SQUIRE + me]] else ACT_YES
    for t in range(TYPES):  # PICK_LEADER_TAKE
        if s[zone_row(ARMY, me) + t] > 0 and BASE_VALUE[t] == BASE_VALUE[succ]:
            return ACT_NO
    return ACT_YES


@kernel
def cutthroat_pick(s, cfg, me, phase, odds, w):
    """The heuristic at the decisions only Cutthroat and 2v2 pose (the Reveal, the Exchange, the
    True King's seat and direction (``direction_choice``), whom to target, 2v2's cards for and from
    the partner and the Trade) and at the 3-4 player cards. ``odds``: the inferred opponent hand where
    ``needs_odds``, elsewhere a free buffer (the direction and the trade count unseen cards in it)."""
    if phase == PH_REVEAL:  # show the weakest cards, keep the Assassin hidden
        return extreme_card(s, cfg, me, False, ASSASSIN, taken_away(s, cfg))
    if phase == PH_FIRST_SEAT:  # clockwise offset: itself, or the player after it
        return 0 if mean_hand_value(s, cfg, me) >= w[W_FIRST] else 1
    if phase == PH_DIRECTION:
        return direction_choice(s, cfg, me, odds)
    if phase == PH_PICK_PLAYER:
        return pick_player_choice(s, cfg, me)
    if phase == PH_PICK_CARD:
        return pick_card_choice(s, cfg, me, odds)
    if phase == PH_EXECUTIONER:
        return executioner_number(s, cfg, me, odds)
    if phase == PH_HERALD_PLAY:  # the cheapest card that brings the Herald back
        return lowest_in(s, cfg, s[D_CHOICES] & ~bit(ACT_NO))
    if phase == PH_WARDEN:
        low = extreme_card(s, cfg, me, False, ASSASSIN, 0)
        return ACT_YES if low >= 0 and BASE_VALUE[s[ACCUSED]] > BASE_VALUE[low] else ACT_NO
    if phase == PH_SPY:  # a Disgraced Spy leaves the Throne at 1: keep the 8 instead
        return ACT_NO
    if phase == PH_RAISE:
        return raise_choice(s, cfg, me)
    return -1


@kernel
def holds_base_value(s, cfg, p, v):
    for t in range(types_of(cfg)):
        if s[zone_row(HAND, p) + t] > 0 and BASE_VALUE[t] == v:
            return True
    return False


@kernel
def knows_base_value(s, cfg, me, q, v):
    """``me`` knows that q holds a card of base value v."""
    row = known_row(me, q)
    for t in range(types_of(cfg)):
        if s[row + t] > 0 and BASE_VALUE[t] == v:
            return True
    return False


@kernel
def executioner_number(s, cfg, me, odds):
    """The base value the opponents most likely hold and I do not (nor, in 2v2, my partner as far
    as I know); ACT_NO when none is worth it."""
    best = ACT_NO
    best_score = EXECUTIONER_AT_LEAST
    for v in range(1, MAX_BASE + 1):
        if (s[D_CHOICES] & bit(v)) == 0 or holds_base_value(s, cfg, me, v):
            continue
        if cfg[CFG_TEAMS] and knows_base_value(s, cfg, me, partner_of(me), v):
            continue
        score = 0.0
        for t in range(TYPES):
            if BASE_VALUE[t] == v:
                score += odds[t]
        if score > best_score:
            best_score = score
            best = v
    return best


@kernel
def lowest_in(s, cfg, mask):
    """The hand card of lowest value among the types in ``mask``."""
    me = s[DECIDER]
    pick = -1
    for t in range(types_of(cfg)):
        if (mask & bit(t)) != 0 and (pick < 0 or hand_value(s, cfg, me, t) < hand_value(s, cfg, me, pick)):
            pick = t
    return pick


@kernel
def stranger_copy_choice(s):
    """The Stranger copies the Court card of highest base value whose ability it would gain (the copy
    also removes that card from the round); none: no copy."""
    pick = ACT_NO
    best = 0
    for i in range(s[COURT_LEN] - 1):
        t = s[COURT_TYPE + i]
        if (s[D_CHOICES] & bit(i)) != 0 and COPY_WORTH[t] == 1 and BASE_VALUE[t] > best:
            best = BASE_VALUE[t]
            pick = i
    return pick


@kernel
def nakturn_name(s, cfg, me):
    """The Nakturn names a card I hold that the guesser does not know I hold, the one with the fewest
    copies in play (so the guesser thinks it least likely: it says "you don't", and is wrong); with
    none such, a card I hold."""
    guesser = s[PEND_TARGET]
    pick = -1
    fewest = MAX_CARDS + 1
    for t in range(types_of(cfg)):
        if s[zone_row(HAND, me) + t] == 0 or (s[D_CHOICES] & bit(t)) == 0:
            continue
        copies = cfg[CFG_DECK + t] + cfg[CFG_ARMY + t] + (MAX_CARDS if s[known_row(guesser, me) + t] > 0 else 0)
        if copies < fewest:
            fewest = copies
            pick = t
    return pick


@kernel
def highest_in(mask):
    """The type of highest base value among the types in ``mask``."""
    pick = -1
    for t in range(TYPES):
        if (mask & bit(t)) != 0 and (pick < 0 or BASE_VALUE[t] >= BASE_VALUE[pick]):
            pick = t
    return pick


@kernel(inline="always")
def pick_player_choice(s, cfg, me):
    """Whom to choose, looking at the opponents in turn order from me (so that no seat number is
    preferred): the Exchange's tie goes to myself, the Exchange takes from the strongest revealed
    cards, the Judge and the Princess aim at the fullest hand; the Spy forces nobody."""
    pick_for = s[PICK_FOR]
    choices = s[D_CHOICES]
    if pick_for == PICK_EXCHANGE_START or pick_for == PICK_BID_TIE or pick_for == PICK_RECOMMISSION_ARMY:
        if (choices & bit(me)) != 0:  # the tie (Exchange, bid) to myself, else to my 2v2 partner
            return me
        return partner_of(me) if cfg[CFG_TEAMS] and (choices & bit(partner_of(me))) != 0 else -1
    best = ACT_NO
    best_score = -1
    q = me
    for _ in range(cfg[CFG_PLAYERS] - 1):
        q = next_seat(s, cfg, q)
        if (choices & bit(q)) == 0:
            continue
        if pick_for == PICK_EXCHANGE_VICTIM:
            score = highest_revealed(s, cfg, q)
        elif pick_for == PICK_PRINCESS and not is_opponent(cfg, me, q):
            continue  # 2v2: the Princess swaps with an opponent (if none may, the pick is left to chance)
        elif pick_for == PICK_JUDGE or pick_for == PICK_PRINCESS or pick_for == PICK_NAKTURN_GUESSER:
            score = hand_count(s, cfg, q)
        else:
            continue
        if score > best_score:
            best_score = score
            best = q
    return best


@kernel(inline="always")
def pick_card_choice(s, cfg, me, buf):
    pick_for = s[PICK_FOR]
    choices = s[D_CHOICES]
    if pick_for == PICK_EXCHANGE_TAKE or pick_for == PICK_ASSASSIN_KEEP:
        return highest_in(choices)
    if pick_for == PICK_HERALD_SUCCESSOR or pick_for == PICK_SPY_SWAP:
        return extreme_card(s, cfg, me, True, ASSASSIN, taken_away(s, cfg))
    if pick_for == PICK_WARDEN_GIVE:
        return extreme_card(s, cfg, me, False, ASSASSIN, taken_away(s, cfg))
    if pick_for == PICK_EXEC_CONDEMN:
        return lowest_in(s, cfg, choices)
    if pick_for == PICK_NAKTURN_NAME:
        return nakturn_name(s, cfg, me)
    if pick_for == PICK_NAKTURN_CONDEMN:  # the guesser's best card (the Nakturn's user looked at its hand)
        return highest_in(choices)
    if PICK_RALLY <= pick_for <= PICK_LOCKSHIFT:
        return signature_pick_choice(s, cfg, me, buf)
    if pick_for == PICK_SQUIRE:  # a hand card given up for a second choice at the flip: the lowest
        return extreme_card(s, cfg, me, False, ASSASSIN, taken_away(s, cfg))
    if pick_for >= PICK_SWAP_TAKE:
        return merc_choice(s, cfg, me)
    if pick_for >= PICK_MUSTER:
        return muster_choice(s, cfg, me)
    return team_pick(s, cfg, me, buf)


@kernel
def muster_choice(s, cfg, me):
    """The Mustering Phase: one Recruit when the hand's weakest card (never the Assassin) is worth
    at most MUSTER_GIVE_AT_MOST and the Army holds a card worth more than it: give it up, take the
    Army's highest card, pay the cost with its lowest; never Recommission, never choose a new King
    (``facet_pick``)."""
    pick_for = s[PICK_FOR]
    if pick_for == PICK_RECRUIT_TAKE or pick_for == PICK_RECOMMISSION_RETURN:
        return highest_in(s[D_CHOICES])
    if pick_for != PICK_MUSTER:  # the Army cards to Exhaust
        return lowest_base_in(s[D_CHOICES])
    if zone_count(s, cfg, ARMY_TAKEN, me) > 0:
        return ACT_NO
    low = extreme_card(s, cfg, me, False, ASSASSIN, taken_away(s, cfg))
    best = highest_in(zone_types(s, cfg, ARMY, me))
    if (low >= 0 and low != ASSASSIN and (s[D_CHOICES] & bit(low)) != 0 and BASE_VALUE[low] <= MUSTER_GIVE_AT_MOST
            and best >= 0 and BASE_VALUE[best] > BASE_VALUE[low]):
        return low
    return ACT_NO


@kernel
def signature_pick_choice(s, cfg, me, buf):
    """This step's cards: Rally and Recall the highest card; use the Flag Bearer when the Army or the
    Exhaust zone holds a card, returning the lower Rallied card; the Ancestor's Rally gives up the
    hand's weakest card (never the Assassin) when worth at most MUSTER_GIVE_AT_MOST and the Army holds a
    better one (the Recruit's rule); the Informant guesses the type it sees least of (the most unseen
    copies; ties: the higher value) and takes the Dungeon card unless the Army holds a higher one; the
    Lockshift is used when the own Dungeon card is worth LOCKSHIFT_OWN_FROM or more."""
    pick_for = s[PICK_FOR]
    choices = s[D_CHOICES]
    if pick_for == PICK_FLAG_BEARER:
        return FLAG_BEARER if zone_count(s, cfg, ARMY, me) + zone_count(s, cfg, EXHAUST, me) > 0 else ACT_NO
    if pick_for == PICK_FLAG_BEARER_RETURN:
        return lowest_base_in(choices)
    if pick_for == PICK_ANCESTOR_REMOVE:
        low = extreme_card(s, cfg, me, False, ASSASSIN, taken_away(s, cfg))
        best = highest_in(zone_types(s, cfg, ARMY, me))
        if (low >= 0 and low != ASSASSIN and (choices & bit(low)) != 0 and BASE_VALUE[low] <= MUSTER_GIVE_AT_MOST
                and best >= 0 and BASE_VALUE[best] > BASE_VALUE[low]):
            return low
        return ACT_NO
    if pick_for == PICK_INFORMANT_GUESS:
        unseen_counts(s, cfg, me, buf)
        pick = -1
        for t in range(TYPES):
            if (choices & bit(t)) != 0 and (pick < 0 or buf[t] > buf[pick]
                                            or (buf[t] == buf[pick] and BASE_VALUE[t] > BASE_VALUE[pick])):
                pick = t
        return pick
    if pick_for == PICK_INFORMANT_TAKE:
        found = highest_in(choices & ~bit(ACT_YES))
        best = highest_in(zone_types(s, cfg, ARMY, me))
        return found if best < 0 or BASE_VALUE[found] >= BASE_VALUE[best] else ACT_YES
    if pick_for == PICK_LOCKSHIFT:
        own = s[DUNGEON + me]
        return LOCKSHIFT if own >= 0 and BASE_VALUE[own] >= LOCKSHIFT_OWN_FROM else ACT_NO
    return highest_in(choices)  # Rally, Recall: the strongest card into hand, or back to the Army


@kernel
def merc_choice(s, cfg, me):
    """The Mercenary round: bid cards are the ones to replace (the heuristic bids its weakest, as it
    reveals them). The highest bid swaps its lowest bid card for the best Mercenary while that is
    worth more; the muster Recruits once from the Army as the Army step does (a bid card worth at most
    MUSTER_GIVE_AT_MOST for the Army's best, when better), and pays an Army card (its lowest) for the
    best Mercenary when that is worth MERC_GAIN more than the bid card and the Army keeps
    MERC_KEEP_ARMY cards; never Recommissions."""
    pick_for = s[PICK_FOR]
    choices = s[D_CHOICES]
    low = lowest_base_in(zone_types(s, cfg, REVEALED, me))
    merc = highest_in(zone_types(s, cfg, MERC, 0))
    if pick_for == PICK_MERC_TAKE:
        return highest_in(choices)
    if pick_for == PICK_MERC_COST:
        return lowest_base_in(choices)
    if pick_for == PICK_SWAP_GIVE or pick_for == PICK_MERC_GIVE:
        return lowest_base_in(choices)
    if low < 0:
        return ACT_NO
    if pick_for == PICK_SWAP_TAKE:
        return merc if merc >= 0 and BASE_VALUE[merc] > BASE_VALUE[low] else ACT_NO
    if BASE_VALUE[low] > MUSTER_GIVE_AT_MOST:  # PICK_MERC_MUSTER
        return ACT_NO
    best = highest_in(zone_types(s, cfg, ARMY, me))
    if zone_count(s, cfg, ARMY_TAKEN, me) == 0 and (choices & bit(low)) != 0 and best >= 0 \
            and BASE_VALUE[best] > BASE_VALUE[low]:
        return low
    if (choices & bit(ACT_FLIP)) != 0 and merc >= 0 and BASE_VALUE[merc] >= BASE_VALUE[low] + MERC_GAIN \
            and zone_count(s, cfg, ARMY, me) >= MERC_KEEP_ARMY:
        return ACT_FLIP
    return ACT_NO


@kernel
def raise_choice(s, cfg, me):
    """2v2 Mercenaries: reveal the extra card when that makes my team's bid the highest alone (and it
    is not already): the winner's free swap is the bid's prize."""
    mine = 0
    theirs = 0
    for q in range(cfg[CFG_PLAYERS]):
        if is_opponent(cfg, me, q):
            theirs = max(theirs, bid_total(s, cfg, q))
        else:
            mine = max(mine, bid_total(s, cfg, q))
    raised = bid_total(s, cfg, me) + BASE_VALUE[s[PARTNER_CARD + me]]
    return ACT_YES if mine <= theirs < raised else ACT_NO


@kernel
def lowest_base_in(mask):
    """The type of lowest base value among the types in ``mask``."""
    pick = -1
    for t in range(TYPES):
        if (mask & bit(t)) != 0 and (pick < 0 or BASE_VALUE[t] < BASE_VALUE[pick]):
            pick = t
    return pick


@kernel(inline="always")
def team_pick(s, cfg, me, buf):
    """2v2's setup cards: the fourth card shows the partner my best card but the Assassin; the take
    is the highest of the partner's four (its fourth card as seen); the trade evens the partners'
    hands (``trade_choice``)."""
    pick_for = s[PICK_FOR]
    if pick_for == PICK_PARTNER_CARD:
        return extreme_card(s, cfg, me, True, ASSASSIN, taken_away(s, cfg))
    if pick_for == PICK_PARTNER_TAKE:
        choices = s[D_CHOICES]
        best = highest_in(choices & ~bit(ACT_FOURTH))
        fourth = s[PARTNER_CARD + partner_of(me)]
        if (choices & bit(ACT_FOURTH)) != 0 and (best < 0 or BASE_VALUE[fourth] >= BASE_VALUE[best]):
            return ACT_FOURTH
        return best
    if pick_for == PICK_TRADE:
        return trade_choice(s, cfg, me, buf)
    return -1


@kernel
def unseen_mean_value(s, cfg, me, buf):
    """The mean base value of the cards ``me`` cannot see (``unseen_counts`` in ``buf``, less the 2v2
    fourth cards it sees: they lie outside every hand until the take); 0 when it sees every card."""
    unseen_counts(s, cfg, me, buf)
    for q in range(cfg[CFG_PLAYERS]):
        if s[PARTNER_CARD + q] >= 0 and sees_partner_card(s, cfg, me, q):
            buf[s[PARTNER_CARD + q]] -= 1
    total = 0.0
    count = 0.0
    for t in range(cfg[CFG_TYPES]):
        c = max(buf[t], 0.0)
        total += c * BASE_VALUE[t]
        count += c
    return total / count if count > 0 else 0.0


@kernel
def estimated_mean_value(s, cfg, me, q, unseen_mean):
    """The mean base value of q's cards (in hand, placed face down, revealed, a 2v2 fourth card) as
    ``me`` sees them: its own exactly; another seat's revealed cards, the cards ``me`` knows in its
    hand and a fourth card ``me`` sees at their values, the rest at ``unseen_mean``."""
    total = 0
    known = 0
    known_sum = 0
    for t in range(cfg[CFG_TYPES]):
        held = s[zone_row(HAND, q) + t] + s[zone_row(PLACED, q) + t]
        shown = s[zone_row(REVEALED, q) + t]
        seen = held if q == me else s[known_row(me, q) + t]  # what it knows is there (never more)
        total += held + shown
        known += seen + shown
        known_sum += (seen + shown) * BASE_VALUE[t]
    card = s[PARTNER_CARD + q]
    if card >= 0:
        total += 1
        if sees_partner_card(s, cfg, me, q):
            known += 1
            known_sum += BASE_VALUE[card]
    if total == 0:
        return 0.0
    return (known_sum + (total - known) * unseen_mean) / total


@kernel
def direction_choice(s, cfg, me, buf):
    """The True King's direction of play, by who plays right after the first player (the first
    seat is already chosen). Cutthroat: after an opponent, the other opponent, so that I play last
    (the last seat wins most rounds: cutthroat_3p); after myself, the opponent whose cards look
    stronger (the higher estimated mean value), so that it takes the second seat, which wins least.
    2v2 (the first knock-out ends the round): after my team, the opponent whose cards look weaker,
    pressed at once; after an opponent, the one of my team whose cards look stronger. Equal
    estimates: no preference (a random answer)."""
    n = cfg[CFG_PLAYERS]
    first = s[FIRST]
    clockwise_next = wrap_seat(first + 1, n)
    opponent_first = is_opponent(cfg, me, first)
    if opponent_first and not cfg[CFG_TEAMS]:
        return ACT_YES if clockwise_next != me else ACT_NO
    mean = unseen_mean_value(s, cfg, me, buf)
    stronger_clockwise = (estimated_mean_value(s, cfg, me, clockwise_next, mean)
                          - estimated_mean_value(s, cfg, me, wrap_seat(first + n - 1, n), mean))
    if stronger_clockwise == 0.0:
        return -1
    want_stronger = opponent_first or not cfg[CFG_TEAMS]
    return ACT_YES if (stronger_clockwise > 0.0) == want_stronger else ACT_NO


@kernel
def trade_choice(s, cfg, me, buf):
    """2v2's Trade without talking: both partners follow this rule, so they put out the same count
    and the trade happens (after a mismatch, "try again", neither puts out a card). A team loses the
    round with its first knocked-out player, so the trade evens the hands: when the partners'
    estimated mean card values (my own exactly, my partner's from what I know of its hand) differ
    by TRADE_GAP or more, the stronger gives its highest card, the weaker its lowest (the Assassin
    only when nothing else is left); TRADE_CARDS each."""
    if s[TRADE_TRY] > 0 or zone_count(s, cfg, PLACED, me) >= TRADE_CARDS:
        return ACT_NO
    mean = unseen_mean_value(s, cfg, me, buf)
    gap = estimated_mean_value(s, cfg, me, me, mean) - estimated_mean_value(s, cfg, me, partner_of(me), mean)
    if abs(gap) < TRADE_GAP:
        return ACT_NO
    return extreme_card(s, cfg, me, gap > 0.0, ASSASSIN, taken_away(s, cfg))


@kernel
def lowest_ante(s, cfg, me, skip):
    pick = -1
    for t in range(types_of(cfg)):
        if s[zone_row(ANTE, me) + t] > 0 and (skip & bit(t)) == 0 and (pick < 0 or BASE_VALUE[t] < BASE_VALUE[pick]):
            pick = t
    return pick


@kernel
def best_court_card(s, cfg, sentry):
    """The most valuable card the Fool may take (or the Sentry may pick)."""
    pick = ACT_NO
    best = 0
    for i in range(s[COURT_LEN] - 1):
        allowed = sentry_target(s, cfg, i) if sentry else not is_disgraced(s, i)
        if allowed and BASE_VALUE[s[COURT_TYPE + i]] > best:
            best = BASE_VALUE[s[COURT_TYPE + i]]
            pick = i
    return pick


# ---- the search policy (flat Monte Carlo over determinized rollouts) ----------------------------
# The decisions before play that place or pass cards (Cutthroat's Exchange, 2v2's fourth card, take
# and trade: PICK_FOR codes, as a mask) are the heuristic's, as the Reveal, Successor and Dungeon are.
SETUP_PICKS = ((1 << PICK_EXCHANGE_START) | (1 << PICK_EXCHANGE_VICTIM) | (1 << PICK_EXCHANGE_TAKE)
               | (1 << PICK_PARTNER_CARD) | (1 << PICK_PARTNER_TAKE) | (1 << PICK_TRADE) | (1 << PICK_MUSTER)
               | (1 << PICK_RECRUIT_COST) | (1 << PICK_RECRUIT_TAKE) | (1 << PICK_RECOMMISSION_EXHAUST)
               | (1 << PICK_RECOMMISSION_RETURN) | (1 << PICK_SQUIRE) | (1 << PICK_BID_TIE) | (1 << PICK_SWAP_TAKE) | (1 << PICK_SWAP_GIVE)
               | (1 << PICK_MERC_MUSTER) | (1 << PICK_MERC_COST) | (1 << PICK_MERC_GIVE) | (1 << PICK_MERC_TAKE)
               | (1 << PICK_RECOMMISSION_ARMY))


@kernel
def nth_card(s, cfg, p, k):
    """The k-th card (0-based, in type order) of p's hand."""
    for t in range(types_of(cfg)):
        k -= s[zone_row(HAND, p) + t]
        if k < 0:
            return t
    return -1


@kernel
def sees_partner_card(s, cfg, me, q):
    """2v2: ``me`` sees q's fourth card: its own, and its partner's once every fourth card is placed
    ("When everyone is ready, you may look at your partner's fourth card")."""
    if q == me or s[EXTRA_SHOWN + q] == 1:  # 2v2 Mercenaries: an extra card revealed to raise the bid
        return True
    placing = s[PHASE] == PH_PICK_CARD and s[PICK_FOR] == PICK_PARTNER_CARD
    bidding = s[PHASE] == PH_REVEAL or s[PHASE] == PH_RAISE  # "After the bid, you may look at your partner's"
    return cfg[CFG_TEAMS] == 1 and q == partner_of(me) and not placing and not bidding


@kernel
def revealed_reaction(s, me, q):
    """1 if q has revealed an Assassin (or a Stranger acting as it: REACT_WITH) from its hand as a
    reaction that a King's Hand may still answer (everyone saw it; no knowledge row records it) and
    ``me`` knew of no such card there."""
    return 1 if (s[PHASE] == PH_KINGS_HAND and s[PEND_EFFECT] == ASSASSIN and s[PEND_USER] == q
                 and s[known_row(me, q) + s[REACT_WITH]] == 0) else 0


@kernel
def unseen_pool(s, cfg, me, unseen, pool, stream):
    """The cards ``me`` cannot see, laid out in type order and shuffled into ``pool``; returns how
    many. ``unseen_counts`` less the 2v2 fourth cards ``me`` sees (they lie before play only, when
    the heuristic does not count the unseen cards) and less an Assassin revealed as a reaction."""
    unseen_counts(s, cfg, me, unseen)
    for q in range(cfg[CFG_PLAYERS]):
        if s[PARTNER_CARD + q] >= 0 and sees_partner_card(s, cfg, me, q):
            unseen[s[PARTNER_CARD + q]] -= 1
        if q != me:
            unseen[s[REACT_WITH]] -= revealed_reaction(s, me, q)
    n = 0
    for t in range(TYPES):
        for _ in range(unseen[t]):
            pool[n] = t
            n += 1
    shuffle(stream, pool, n)
    return n


@kernel
def deal_row(out, row, count, pool, k):
    """``count`` cards from pool[k:] into the per-type row at ``row``; returns the next k."""
    for _ in range(count):
        out[row + pool[k]] += 1
        k += 1
    return k


@kernel
def deal_slot(out, slot, hidden, pool, k):
    """The card at ``slot`` dealt anew from pool[k] if it is ``hidden``; returns the next k."""
    if hidden:
        out[slot] = pool[k]
        return k + 1
    return k


@kernel
def redeal_row(s, out, row, pool, k):
    """A face-down per-type row (cards placed for the Reveal or the Trade, face-down Condemned or
    removed cards): as many cards as it holds, dealt anew; returns the next k."""
    count = 0
    for t in range(TYPES):
        count += s[row + t]
        out[row + t] = 0
    return deal_row(out, row, count, pool, k)


@kernel
def redeal_row_keeping(s, out, row, known, pool, k):
    """``redeal_row`` but for the cards the row ``known`` says ``me`` saw go there: they stay."""
    count = 0
    for t in range(TYPES):
        count += s[row + t] - s[known + t]
        out[row + t] = s[known + t]
    return deal_row(out, row, count, pool, k)


@kernel
def deal_army(s, cfg, out, q, pool, n, k):
    """The Army step: q's face-down Army dealt anew, as many cards as it holds, each of a type q's
    Army pool allows (its Army and the Army cards it took this round: a union everyone knows, the
    Army less the Exhaust zone; which of them it took is hidden); the rest of that pool counts as
    taken this round. The first such cards of the shuffled pool, moved to its front; returns the
    next k."""
    need = zone_count(s, cfg, ARMY, q)
    army = zone_row(ARMY, q)
    taken = zone_row(ARMY_TAKEN, q)
    for t in range(TYPES):
        out[army + t] = 0
    j = k
    while need > 0 and j < n:
        t = pool[j]
        if out[army + t] < s[army + t] + s[taken + t]:
            out[army + t] += 1
            pool[j] = pool[k]
            pool[k] = t
            k += 1
            need -= 1
        j += 1
    for t in range(TYPES):
        out[taken + t] = s[army + t] + s[taken + t] - out[army + t]
    return k


@kernel
def deal_armies(s, cfg, me, out, pool, n, stream):
    """Every other player's face-down Army (``deal_army``), before any hand: a hand dealt first
    could use up the cards an Army's pool allows, and that Army would shrink. The Armies share
    their types (every Army holds the five Army cards), so one Army can take a card only another's
    pool allows; then the pool is shuffled again and the Armies dealt anew (one opponent always
    fits: its own cards are in the pool). Returns the next k."""
    for _ in range(ARMY_DEAL_ATTEMPTS):
        k = 0
        full = True
        for q in range(cfg[CFG_PLAYERS]):
            if q != me:
                k = deal_army(s, cfg, out, q, pool, n, k)
                full = full and zone_count(out, cfg, ARMY, q) == zone_count(s, cfg, ARMY, q)
        if full:
            return k
        shuffle(stream, pool, n)
    return k


@kernel
def others_knowledge(s, cfg, me, out):
    """What the other players know of each other in a world ``me`` deals: of a third player's hand,
    only the cards ``me`` knows of too (their private knowledge is hidden from ``me``, and a world
    must hold every card a player is sure of); of a Successor one of them saw (the Spy, 2v2's
    partners), the dealt one; of the face-down cards the Nakturn Condemned, those ``me`` saw too.
    Their knowledge of ``me``'s own cards is true as it stands."""
    n = cfg[CFG_PLAYERS]
    for o in range(n):
        for q in range(n):
            if o == me or q == me or o == q:
                continue
            for t in range(TYPES):
                out[known_row(o, q) + t] = min(s[known_row(o, q) + t], s[known_row(me, q) + t])
                out[known_condemned_row(o, q) + t] = min(s[known_condemned_row(o, q) + t],
                                                         s[known_condemned_row(me, q) + t])
            if s[KNOWN_SUCCESSOR + o * PLAYERS + q] >= 0:
                out[KNOWN_SUCCESSOR + o * PLAYERS + q] = out[SUCCESSOR + q]
        if o != me:
            for t in range(TYPES):
                removed = KNOWN_REMOVED + o * TYPES + t
                out[removed] = min(s[removed], s[KNOWN_REMOVED + me * TYPES + t])


@kernel
def determinize(s, cfg, me, out, pool, unseen, stream):
    """A world consistent with everything ``me`` knows, built from ``me``'s view alone: copy s,
    then deal the cards ``me`` cannot see (``unseen_pool``) at random to the places it cannot see
    into, each as large as in s: every other player's hand beyond the cards ``me`` knows are there
    (seen taken, given, traded, revealed, named; an Assassin revealed as a reaction), its Successor
    unless ``me`` saw it (the Spy, 2v2's partner), its Dungeon, the cards it placed face down (the
    Reveal, the Trade), its 2v2 fourth card unless ``me`` sees it, its face-down Condemned cards but
    those ``me`` Condemned there with the Nakturn; then the unused card and the cards removed face
    down but those ``me`` saw go (``nakturn_seen``). The other players' knowledge follows the
    world (``others_knowledge``). When ``me`` answers the Princess, the owner's pending pick is
    drawn from the owner's dealt hand. Only the number and presence of hidden cards are read, never
    their identity, so one view and one stream give one world (with two players the world dealt
    before Cutthroat and 2v2, but for the revealed Assassin, which that one could deal away)."""
    copy_world(out, s, STATE_SIZE)
    n = unseen_pool(s, cfg, me, unseen, pool, stream)
    k = deal_armies(s, cfg, me, out, pool, n, stream) if has_army(cfg) else 0
    for q in range(cfg[CFG_PLAYERS]):
        if q == me:
            continue
        hidden_hand = hand_count(s, cfg, q) - revealed_reaction(s, me, q)
        for t in range(TYPES):
            out[zone_row(HAND, q) + t] = s[known_row(me, q) + t]
            hidden_hand -= s[known_row(me, q) + t]
        out[zone_row(HAND, q) + s[REACT_WITH]] += revealed_reaction(s, me, q)
        k = deal_row(out, zone_row(HAND, q), hidden_hand, pool, k)
        k = deal_slot(out, SUCCESSOR + q, s[SUCCESSOR + q] >= 0 and s[KNOWN_SUCCESSOR + me * PLAYERS + q] < 0,
                      pool, k)
        k = deal_slot(out, DUNGEON + q, s[DUNGEON + q] >= 0 and s[DUNGEON_SHOWN + q] == 0, pool, k)
        k = deal_slot(out, SQUIRE + q, s[SQUIRE + q] >= 0, pool, k)
        k = redeal_row(s, out, zone_row(PLACED, q), pool, k)
        k = deal_slot(out, PARTNER_CARD + q, s[PARTNER_CARD + q] >= 0 and not sees_partner_card(s, cfg, me, q),
                      pool, k)
        k = redeal_row_keeping(s, out, zone_row(CONDEMNED_HIDDEN, q), known_condemned_row(me, q), pool, k)
    k = deal_slot(out, UNUSED, s[UNUSED] >= 0, pool, k)
    redeal_row_keeping(s, out, REMOVED_HIDDEN, KNOWN_REMOVED + me * TYPES, pool, k)
    others_knowledge(s, cfg, me, out)
    if s[PHASE] == PH_PRINCESS_OPP and s[DECIDER] == me:
        owner = s[PEND_USER]
        out[PEND_GIVE] = nth_card(out, cfg, owner, below(stream, hand_count(out, cfg, owner)))


@kernel
def inner_choose(s, cfg, actions, n, inner, w, stream, odds, beat):
    if inner == HEURISTIC:
        return heuristic(s, cfg, actions, n, w, stream, odds, beat)
    return greedy(s, cfg, actions, n, stream)


@kernel
def pose_in_rollout(work, cfg, me, restrict):
    """A rollout's decision: the searcher knows its own restriction, not the others'."""
    if work[DECIDER] == me:
        return pose_pending(work, cfg, restrict)
    work[D_CHOICES] = legal_mask(work, cfg)
    return work[D_CHOICES]


@kernel
def side_scores(s, me):
    """(``me``'s side's match score, the other sides' summed score, how many other sides): a side
    is a seat, in 2v2 a team (read from the record, which the tree search's value needs)."""
    teams = s[TEAM_PLAY] == 1
    sides = side_count(teams, s[SEATS_IN_PLAY])
    mine = team_side(teams, me)
    others = 0
    for side in range(sides):
        if side != mine:
            others += s[SCORE + side]
    return s[SCORE + mine], others, sides - 1


@kernel
def rollout_value(work, cfg, me, action, restrict, actions, inner, w, stream, odds, beat):
    """Take ``action``, then play the round out with the inner policy in every seat; the round for
    ``me``'s side: the points the rules gave its side less the other sides' mean (2 players and
    2v2: +points won or -points lost; Cutthroat: second place's point counts, and so do the points
    an opponent takes). 0 if a mulligan calls for a new deal (the rollout cannot see that deal)."""
    mine_before, others_before, n_others = side_scores(work, me)
    apply_action(work, cfg, action)
    while work[PHASE] != PH_ROUND_OVER and work[PHASE] != PH_REDEAL:
        n = answers(pose_in_rollout(work, cfg, me, restrict), actions)
        i = 0 if n == 1 else inner_choose(work, cfg, actions, n, inner, w, stream, odds, beat)
        apply_action(work, cfg, actions[i])
    if work[PHASE] == PH_REDEAL or work[WINNER] < 0:
        return 0.0
    mine, others, _ = side_scores(work, me)
    return (mine - mine_before) - (others - others_before) / n_others


@kernel(DETERMINIZE_SIGNATURE)
def sample_world(s, sampled, me, cfg, scratch, stream):
    """The engine search's per-game dealing (balance.engine.search): ``determinize``."""
    determinize(s, cfg, me, sampled, scratch[SCR_POOL], scratch[SCR_UNSEEN], stream)


@kernel(inline="always")
def rollout_of(world, action, me, cfg, params, restrict, scratch, fscratch, stream):
    """``rollout_value`` of ``action`` in the sampled world, with the search's buffers."""
    return rollout_value(world[:STATE_SIZE], cfg, me, action, restrict, scratch[SCR_ACTIONS], int(params[S_INNER]),
                         fscratch[FS_WEIGHTS, :HEURISTIC_PARAMS], stream, fscratch[FS_ODDS],
                         fscratch[FS_BEAT, :BEAT_VALUES])


@kernel(ROLLOUT_SIGNATURE)
def play_out(world, action, me, cfg, params, restrict, scratch, fscratch, stream):
    """The engine search's per-game rollout on the general kernels."""
    return rollout_of(world, action, me, cfg, params, restrict, scratch, fscratch, stream)


base_config = config_maker(BASE_MODES)  # the plain row as the base 2-player modes' Config, in compiled code


@kernel(ROLLOUT_SIGNATURE)
def play_out_base(world, action, me, cfg, params, restrict, scratch, fscratch, stream):
    """The rollout on the kernels compiled for the base 2-player modes (BASE_MODES, ``balance.engine.config``),
    for a search in a batch that runs them."""
    return rollout_of(world, action, me, base_config(cfg), params, restrict, scratch, fscratch, stream)


@kernel
def searched(s):
    """The decisions the search plays out: who goes first (with 3 or 4 players, also the direction)
    and every decision of the round in play. The mulligan and the cards placed or passed before
    play (Reveal, Exchange, 2v2's fourth card, take and trade, Successor, Squire, Dungeon, the
    Mustering Phase and its King) are the heuristic's."""
    phase = s[PHASE]
    if phase == PH_PICK_PLAYER or phase == PH_PICK_CARD:
        return ((SETUP_PICKS >> s[PICK_FOR]) & 1) == 0
    if phase == PH_SIGNATURE or phase == PH_DRAFT or phase == PH_DRAFT_ORDER:
        return False  # before the match's first deal: no round to play out
    return phase == PH_FIRST or (phase >= PH_TURN and phase != PH_REVEAL and phase != PH_KING and phase != PH_RAISE)


@kernel(inline="always")  # into searching: no compiled copy of the whole search of its own (docs/speed.md)
def search(s, cfg, actions, n, params, restrict, stream, scratch, fscratch):
    """The engine's search (flat Monte Carlo over determinized worlds, balance.engine.search) in
    every mode: each posed answer, the same sampled worlds, the best mean result (``searched``
    says where; elsewhere the heuristic decides). The rollouts keep the searcher's own
    restriction. Returns the action."""
    if not searched(s):
        return actions[heuristic(s, cfg, actions, n, fscratch[FS_WEIGHTS, :HEURISTIC_PARAMS], stream,
                                 fscratch[FS_ODDS], fscratch[FS_BEAT, :BEAT_VALUES])]
    return flat_search(s, cfg, int(params[S_ROLLOUTS]), params, restrict, stream, scratch, fscratch)


def flat_search(s, cfg, rollouts, params, restrict, stream, scratch, fscratch):
    """The engine's flat search with the rollouts on the kernels the batch runs (``overload_flat_search``)."""


@overload(flat_search, inline="always")
def overload_flat_search(s, cfg, rollouts, params, restrict, stream, scratch, fscratch):
    """``flat_search`` with its rollout chosen by ``cfg``'s type when it compiles: ``play_out_base`` for
    the base 2-player modes' ``Config``, ``play_out`` for the plain row. A branch on the count at run
    time would compile both, and with them every rule and policy a second time for the other type
    (the Imposter Kings' cold compile, twice over)."""
    rollout = play_out_base if isinstance(cfg, ConfigType) else play_out

    def flat_search_with(s, cfg, rollouts, params, restrict, stream, scratch, fscratch):
        return search_answer(s, rollouts, row_of(cfg), params, restrict, scratch[SCR_DET], scratch[SCR_WORK],
                             fscratch[FS_TOTALS], scratch, fscratch, stream, sample_world, rollout)

    return flat_search_with


# ---- the tree search (balance.engine.ismcts) on the rules' steps ---------------------------------
# The engine's step verbs over these rules. ``table`` is (the configuration row, the kernels' cfg):
# ``sample_world`` takes the row, as the flat search's does; the steps take the cfg, so a batch of
# the base 2-player modes searches on its specialized kernels. Applying an answer runs the rules on
# to the next decision, so ``tree_advance`` has nothing left to do. The search plays a round: it is
# over at the round's end, or at a mulligan's new deal (which no seat can foresee).
@kernel(inline="always")
def tree_advance(world, table):
    """The rules already stopped at the next decision (``apply_action``)."""


@kernel(inline="always")
def tree_over(world):
    return world[PHASE] == PH_ROUND_OVER or world[PHASE] == PH_REDEAL


@kernel(inline="always")
def tree_pose(world, table, restrict):
    pose_pending(world, table[1], restrict)


@kernel(inline="always")
def tree_apply(world, table, answer):
    apply_action(world, table[1], answer)


@kernel
def rollout_policy(world, table, seat, code, params_row, rng, mind):
    """A rollout player's answer (greedy or the heuristic with ``params_row``); ``mind`` is (the
    answers' list, the float scratch)."""
    actions, fscratch = mind
    n = answers(world[D_CHOICES], actions)
    if code == GREEDY:
        return actions[greedy(world, table[1], actions, n, rng)]
    return actions[heuristic(world, table[1], actions, n, params_row, rng, fscratch[FS_ODDS],
                             fscratch[FS_BEAT, :BEAT_VALUES])]


@kernel
def tree_finish(world, table, rng, codes, params, restrict, mind):
    """The round played out by the rollout players through the engine's loop."""
    play(world, table, rng, codes, params, restrict, mind, tree_advance, tree_over, tree_pose, tree_apply,
         rollout_policy, no_search)


@kernel
def tree_score(world, seat):
    """A world's value for ``seat``'s side where its round ended: its match score less the other
    sides' mean (the scores before are the same in every world, so this ranks answers as the flat
    search's ``rollout_value`` does)."""
    mine, others, n_others = side_scores(world, seat)
    return mine - others / n_others


@kernel(inline="always")
def tree_buffers(scratch, fscratch):
    """``ismcts_answer``'s buffers: the ``ismcts_views`` of the scratch matrices' tree rows
    (SCRATCH_TREE_ROWS, FSCRATCH_TREE_ROWS)."""
    return ismcts_views((scratch[SCRATCH_ROWS:].reshape(-1), fscratch[FSCRATCH_ROWS:].reshape(-1)), STATE_SIZE,
                        PLAYERS, HEURISTIC_PARAMS)


@kernel(inline="always")  # into searching: no compiled copy of the whole search of its own (docs/speed.md)
def tree_search(s, cfg, actions, n, params, restrict, stream, scratch, fscratch):
    """The engine's tree search (SO-ISMCTS) at the decisions the flat search plays out (``searched``;
    elsewhere the heuristic at its defaults but the King it musters, ``I_FACET``): worlds dealt by
    ``sample_world``, rollouts by the heuristic at its defaults (or random: the policy's ``rollout``) to
    the round's end. Returns the action."""
    if not searched(s):
        own = fscratch[FS_TREE_WEIGHTS, :HEURISTIC_PARAMS]
        own[W_FACET] = params[I_FACET]
        return actions[heuristic(s, cfg, actions, n, own, stream, fscratch[FS_ODDS], fscratch[FS_BEAT, :BEAT_VALUES])]
    return ismcts_answer(s, (row_of(cfg), cfg), stream, cfg[CFG_PLAYERS], params, HEURISTIC,
                         fscratch[FS_WEIGHTS, :HEURISTIC_PARAMS], restrict,
                         (scratch[SCR_ACTIONS], fscratch), tree_buffers(scratch, fscratch), scratch, tree_advance,
                         tree_over, tree_pose, tree_apply, rollout_policy, sample_world, tree_finish, tree_score)


@kernel
def searching(s, cfg, code, actions, n, params, restrict, stream, scratch, fscratch):
    """The searches' action: the flat search (SEARCH) or the tree search. One call in ``search_at`` for
    both keeps the match's loop as it was before the tree search (see SCRATCH_TREE_ROWS)."""
    if code == SEARCH:
        return search(s, cfg, actions, n, params, restrict, stream, scratch, fscratch)
    return tree_search(s, cfg, actions, n, params, restrict, stream, scratch, fscratch)


# ---- the seat's policy and the searches (balance.engine.step's ``policy`` and ``search_at``) ------
# ``table`` is the round's (``rules.round_advance``); the policies read its cfg alone. ``mind`` is
# (the answers' list, the int scratch, the float scratch). ``step.decide`` has taken a forced answer.
@kernel(inline="always")
def policy(s, table, seat, code, params_row, stream, mind):
    """The answer of policy ``code`` (``params_row``) at the posed decision: the random policy's
    draw, or the greedy's or the heuristic's pick among D_CHOICES; the searches' (SEARCH_DECIDES)
    are ``search_at``'s."""
    if code == RANDOM:
        return random_choice(s, params_row, stream)
    if code != GREEDY and code != HEURISTIC:
        return SEARCH_DECIDES
    actions, _, fscratch = mind
    n = answers(s[D_CHOICES], actions)
    if code == GREEDY:
        return actions[greedy(s, table[0], actions, n, stream)]
    return actions[heuristic(s, table[0], actions, n, params_row, stream, fscratch[FS_ODDS],
                             fscratch[FS_BEAT, :BEAT_VALUES])]


@kernel(inline="always")
def search_at(s, table, seat, code, params_row, restrict, stream, mind):
    """The search policy ``code``'s answer (the flat search or the tree search, ``searching``); the
    rollouts keep the searcher's restriction (``restrict`` by seat)."""
    actions, scratch, fscratch = mind
    n = answers(s[D_CHOICES], actions)
    return searching(s, table[0], code, actions, n, params_row, restrict, stream, scratch, fscratch)
