"""The Imposter Kings, base game for 2, 3 and 4 players (2v2), Fragments of Nersetti's steps for 2 players
and its Mercenary modes for 3 and 4 (Cutthroat Mercenaries, 2v2 Mercenaries): cards, the state
record's layout, decisions and codes.

Cards of one name are interchangeable, so every zone is a count per card TYPE (0..TYPES-1). The
tables are plain numpy arrays that compiled code reads as globals (frozen at compile time). The
record has room for PLAYERS = 4 seats; a setup uses ``cfg[CFG_PLAYERS]`` of them (2, 3 or 4) and
the others stay empty. In 2v2 (``cfg[CFG_TEAMS]``) partners sit opposite: seat p's SIDE (team) is
p % 2, so seats 0 & 2 play seats 1 & 3; with 2 or 3 players each seat is its own side.

State layout (offsets are the named constants below; p, o = seats 0..3, t = card type 0..TYPES-1):
  D_SEAT, D_KIND, D_CHOICES the engine's decision header (``balance.engine.decision``): who decides
                            the pending decision (alias DECIDER), its kind (alias PHASE: a PH_*
                            code, which also marks the non-decision states PH_REDEAL, PH_ROUND_OVER,
                            PH_START) and its legal answers as a bit mask (see "Decisions" below)
  HAND + p*TYPES + t        cards of type t in p's hand
  ANTE + p*TYPES + t        cards of type t face up in p's Antechamber
  KNOWN + (o*PLAYERS + p)*TYPES + t   cards of type t that o KNOWS are in p's hand (seen taken,
                            swapped, revealed, or named correctly); ``known_at(o, p)`` is the row's
                            offset. What policies may use besides the public zones
  KNOWN_SUCCESSOR + o*PLAYERS + p   the type o knows p's Successor is (the Spy), -1 unknown
  PLACED + p*TYPES + t      the Reveal (Cutthroat, 2v2): cards p has placed face down, not yet
                            revealed; 2v2's Trade: the cards p has placed face down to trade
  REVEALED + p*TYPES + t    the Reveal: p's revealed cards still in front of p (public)
  TAKEN + p                 Cutthroat's Exchange: the card p took, placed with its revealed cards
                            (public), -1 none
  POOL + t                  the Assassin's three-player rule: the cards its owner chooses one from
  PARTNER_CARD + p          2v2: p's fourth card, face down for its partner (-1 none)
  SUCCESSOR + p             p's Successor type, -1 none (taken, or not placed yet)
  DUNGEON + p               p's Dungeon type, -1 none; DUNGEON_SHOWN + p: 1 once revealed (the Informant's
                            right guess leaves it face up)
  CONDEMNED + p*TYPES + t   Condemned cards in front of p whose type everyone saw (the King's Hand
                            and the card it countered)
  CONDEMNED_HIDDEN + p*TYPES + t   Condemned face down: by the Executioner (only p knows the type), by the
                            Nakturn with 3-4 players (p and the Nakturn's user: KNOWN_CONDEMNED)
  FLIPPED + p               1 once p's King is flipped
  OUT + p                   0 while p is in the round; k once p is the k-th player knocked out
  OUT_BONUS + p             1: p still had cards in hand or a Successor when knocked out
  COURT_LEN                 cards in the Court; COURT_TYPE + i / COURT_FLAGS + i, i = 0 oldest;
                            the Throne is the last one. Flags: FLAG_DISGRACED, FLAG_BONUS
                            (the Soldier's +2, counted while it is the Throne), the seat that played
                            it (FLAG_OWNER_SHIFT: the Aegis's Steadfast lasts until that King flips),
                            FLAG_CONSPIRED (played while its player's Conspiracist held: Steadfast
                            and +1 while in the Court), the type a Stranger copied (COPIED_SHIFT,
                            plus 1; 0: none): bits 0-1 flags, 2-4 owner, 5 conspired, 6-10 copied
  REMOVED + t               cards of type t removed from the round face up (everyone saw them)
  REMOVED_HIDDEN + t        cards removed face down (Executioner's Condemned cards, the Assassin's
                            leftovers): nobody else knows their types
  ACCUSED, UNUSED           the Accused card type; the face-down unused card (-1 none)
  MUTED                     the number named by the Mystic (0: none). The Immortal's effect needs no
                            field: it holds while she is face up in the Court (rules.immortal_holds)
  CURRENT                   whose turn it is; DIRECTION +1 (clockwise: seat p+1 next) or -1
  PEND_*                    the ability being resolved (effect, user, argument, Soldier's disgraces
                            or Executioner's next seat, the Princess owner's card, "this play is
                            Immune", the chosen player); PICK_FOR: what a PH_PICK_PLAYER /
                            PH_PICK_CARD decision is for (a PICK_* code)
  EXCH_FIRST, EXCH_VICTIM, EXCH_STEP   Cutthroat's Exchange: who starts, whom it takes from, step
  TRADE_TRY, TRADE_OPEN     2v2's Trade: the retries made, the sides still trading (a mask)
  OUT_COUNT, WINNER, SECOND, POINTS, CAPPED, ASSASSINATED, PLIES, FIRST, CHOOSER, MULLIGANS,
  SETUP_STAGE               round (WINNER is a seat, in 2v2 the winning side 0 / 1; SETUP_STAGE
                            counts the seats done with the current pre-play step)
  ARMY_TAKEN + p*TYPES      the Army step: cards p took from its Army into its hand this round (Recruited),
                            Exhausted when the round ends; MUSTER_PAID + p: 1 once p Exhausted an Army
                            card this Mustering Phase (its first Recruit's cost is then paid)
  ARMY_PICK, ARMY_PICK_TYPES, ARMY_PICK_LEFT, ARMY_PICK_THEN, RALLIED + t   a Rally or Recall being made
                            (see "Rally and Recall" below): PICK_RALLY or PICK_RECALL, the types it
                            may take (a mask), the picks left, what follows it (a THEN_* code), the
                            cards Rallied in this run
  CONSPIRING + p            the Conspiracist: the ends of p's turns left before its effect on p's
                            hand and Antechamber ends (2 when played: this turn and p's next; 0 off)
  EXILE_MUTE + p            1 while p's Exile Mutes every card (until the start of p's next turn)
  REACT_WITH                the card the pending Assassin reaction was revealed with (the Assassin,
                            or a Stranger acting as it)
  SQUIRE + p                the Master Tactician's Squire: the card p placed face down beside its Successor,
                            -1 none (not placed, taken or removed). "A Squire is not a Successor": scoring,
                            the Spy, the Herald and the Assassin's three-player pool never count it
  MERC + t, MERC_DEALT + t  the Mercenary modes: Mercenary cards of type t face up in the Mercenary area
                            now, and dealt to it this round (the round's Mercenaries: everyone saw them)
  EXTRA_SHOWN + p           2v2 Mercenaries: 1 once p revealed its extra card (PARTNER_CARD) to raise its bid
  RAISE_ASKED               2v2 Mercenaries' raising: the seats (a mask) that let the timer run out since
                            the last raise; BID_WINNER: the seat whose bid won (-1 before the bid is settled)
  ARMY + p*TYPES, EXHAUST + p*TYPES   the Army step, match-long: p's Army (face down, its contents known
                            to p) and its Exhaust zone (face up)
  SIGNATURES + p*TYPES      Step 3: the Signature Cards p has chosen (secret until both have chosen;
                            then added to its Army and public); DRAFT + t: the Tournament draft's face-up
                            cards; DRAFT_FIRST: the seat picking first; DRAFT_PICKS: the picks made; DRAFT_DECK + k:
                            the k-th card of the shuffled draft deck (hidden: shuffled at the match's start)
  KING_FACET + p            Step 4, match-long: p's King (FACET_BASE, FACET_TACTICIAN, FACET_LEADER; public),
                            chosen in the Mustering Phase and kept until p chooses another
  SEATS_IN_PLAY, TEAM_PLAY  the setup's seat count and 1 in 2v2 (copied from the configuration row at each
                            deal), for what reads the record alone: the tree search's value of a world
  KNOWN_CONDEMNED + (o*PLAYERS + p)*TYPES + t   cards of type t that o (not p) knows lie Condemned face down in front
                            of p: the Nakturn's user with 3-4 players saw the card it Condemned
  KNOWN_REMOVED + o*TYPES + t   cards of type t that o knows are among the cards removed face down (such a known
                            Condemned card, removed at its owner's turn start while o knew every face-down card there)
  TRUE_KING, SCORE + side, FREE_MULLIGAN_USED + side, MATCH_OVER   match state (a side is a
                            seat, in 2v2 a team: SCORE + 0 is seats 0 & 2's score)

The configuration row (one per setup, ``CFG_*``), the decisions (``PH_*``) and their action codes
(``ACT_*``), the result row's columns (``COLUMNS``, ``C_*``) and the trace events (``EV_*``) follow.

Decisions. Every answer is an action code below MAX_ACTIONS (TYPES + 3), and bit ``a`` of D_CHOICES is action ``a``,
so one posed mask holds every decision (none needs splitting into steps). Per kind (PH_*):
  PH_FIRST, PH_MULLIGAN, PH_PRINCESS, PH_KINGS_HAND, PH_ASSASSIN, PH_WARDEN, PH_SPY   bits ACT_YES, ACT_NO
  PH_DIRECTION             bit ACT_YES: clockwise, ACT_NO: counterclockwise
  PH_FIRST_SEAT            bit k: the seat k places clockwise from the True King goes first (0: itself)
  PH_TURN                  bit t: play a card of type t from hand; bit ACT_FLIP: flip the King
  PH_ANTE                  bit t: play the Antechamber card of type t
  PH_OATH_FOLLOW           bit t: the card of type t follows the Oathbound
  PH_SUCCESSOR, PH_DUNGEON, PH_SENTRY_GIVE, PH_PRINCESS_OWN, PH_PRINCESS_OPP, PH_REVEAL   bit t: a hand card
  PH_JUDGE_ANTE            bit t: the hand card put into the Antechamber; bit ACT_NO: none
  PH_HERALD_PLAY           bit t: the hand card (value 5 or more) played after the Herald; ACT_NO: none
  PH_INQUISITOR            bit t: name type t; bit ACT_NO: decline the ability
  PH_SOLDIER_NAME, PH_JUDGE_NAME   bit t: name type t
  PH_FOOL, PH_SENTRY_PICK  bit i: Court card i (0 = oldest); bit ACT_NO: decline
  PH_SOLDIER_DISGRACE      bit i: Disgrace Court card i; bit ACT_NO: stop
  PH_PICK_COURT            bit i: Court card i (what for: PICK_FOR); bit ACT_NO: none
  PH_NAKTURN_GUESS         bit ACT_YES: "you hold the named card", ACT_NO: "you don't"
  PH_KINGS_HAND, PH_ASSASSIN also bit STRANGER: react with a Stranger acting as that Reaction card
  PH_MYSTIC                bit v: name the number v (1..8); bit ACT_NO: decline
  PH_EXECUTIONER           bit v: name the number v (1..highest base value in the Court); ACT_NO: decline
  PH_PICK_PLAYER           bit p: seat p (what for: PICK_FOR); the Spy's also ACT_NO: nobody
  PH_SIGNATURE, PH_DRAFT   bit t: the Signature Card of type t (Step 3's choice; the Tournament draft)
  PH_DRAFT_ORDER           bit ACT_YES: pick first in the draft, ACT_NO: second
  PH_PICK_CARD             bit t: a card of type t (from where: PICK_FOR); 2v2's take also
                            ACT_FOURTH: the partner's face-down fourth card; 2v2's trade ACT_NO: done;
                            the muster: bit t Recruit giving up hand card t, ACT_YES Recommission,
                            ACT_FLIP choose a new King (then PH_KING), ACT_NO done
                            the Mercenary muster (PICK_MERC_MUSTER): bit t Recruit from the Army giving up bid
                            card t, ACT_FLIP Recruit a Mercenary, ACT_YES Recommission, ACT_NO done
  PH_KING                  bit f: the King facet f chosen in the Mustering Phase (FACET_TACTICIAN, FACET_LEADER);
                            in the Mercenary modes it is the first step of each seat's Mercenary muster (its
                            ACT_FLIP is Recruit a Mercenary), with ACT_NO: keep the King
  PH_FACET_TAKE            the flipped facet King's choices, bits ACT_YES / ACT_NO (what each means: PICK_FOR,
                            one of PICK_TACTICIAN_REVEAL, PICK_TACTICIAN_TAKE, PICK_TACTICIAN_SQUIRE,
                            PICK_LEADER_TAKE)
  PH_RAISE                 2v2 Mercenaries: ACT_YES reveal the extra card to raise the bid, ACT_NO let the timer run

Rally and Recall (Fragments of Nersetti's Reference: "Rally - Take a card from your Army into your hand
without revealing it, at no extra cost ... If you don't have enough cards in your Army, ignore it";
"Recall - Put an Exhausted card back into your Army ... If you have no valid Exhausted cards, ignore
it"). ``rules.rally(s, cfg, p, types, count, then)`` and ``rules.recall(s, cfg, p, types, count, then)``
pose PH_PICK_CARD with PICK_RALLY / PICK_RECALL to seat p: bit t = an Army (Exhausted) card of type
t within the mask ``types`` (a card's restriction: the Charismatic Leader's "equal or lower base
value", the Master Tactician's "base Army card"; ALL_TYPES for none). ``count`` picks are made one at
a time; a Rally or Recall with no valid card is ignored (option rally_short: with fewer Army cards
than the Rallies asked, take those there are, or ignore them all). When the run is done (or ignored)
``rules.then_step`` performs its continuation ``then``: THEN_END_TURN ends the turn, the other THEN_*
codes are the next step of the card that asked (the Flag Bearer's Rallies after its Recall, then its
return; the Ancestor's offer to Rally). A continuation poses its next decision, or sets up the next
Rally / Recall with ``set_rally`` / ``set_recall`` (never ``rally``: ``army_pick_next`` loops over the
steps, so no compiled function calls itself back). A new card adds its THEN_* code and one branch in
then_step. A Rallied card goes into ARMY_TAKEN (Exhausted at the round's end, like a Recruited one)
and into RALLIED (the run's cards, for a card that reveals or returns them: kept only while the
continuation's decision reads them, PICK_FLAG_BEARER_RETURN; else cleared, as nobody else learns them).
Answers listed from a mask come in ascending code order, the order the legal actions were always
listed in (cards by type, then the flip; Court indices; numbers; then yes, no).
"""

import numpy as np

from balance.engine.config import Specialization
from balance.engine.decision import D_KIND, D_SEAT, DECISION_HEADER, MAX_ANSWERS, N_KINDS_MAX

FOOL = 0
ASSASSIN = 1
ELDER = 2
ZEALOT = 3
INQUISITOR = 4
SOLDIER = 5
JUDGE = 6
OATHBOUND = 7
MYSTIC = 8
WARLORD = 9
KINGS_HAND = 10
SENTRY = 11
PRINCESS = 12
QUEEN = 13
EXECUTIONER = 14  # the 3-4 player cards of the base box follow the 2-player ones
HERALD = 15
WARDEN = 16
SPY = 17
IMMORTAL = 18  # Fragments of Nersetti's cards follow the base box's
AEGIS = 19
FLAG_BEARER = 20  # the other eight Signature Cards
STRANGER = 21
NAKTURN = 22
ANCESTOR = 23
INFORMANT = 24
LOCKSHIFT = 25
CONSPIRACIST = 26
EXILE = 27
BARD = 28  # the Mercenary modes' main-deck cards (their texts are uncertain: data a scenario may override)
ARBITER = 29
TYPES = 30

NAMES = ("Fool", "Assassin", "Elder", "Zealot", "Inquisitor", "Soldier", "Judge", "Oathbound", "Mystic",
         "Warlord", "King's Hand", "Sentry", "Princess", "Queen", "Executioner", "Herald", "Warden", "Spy",
         "Immortal", "Aegis", "Flag Bearer", "Stranger", "Nakturn", "Ancestor", "Informant", "Lockshift",
         "Conspiracist", "Exile", "Bard", "Arbiter")
BASE_VALUE = np.array([1, 2, 3, 3, 4, 5, 5, 6, 7, 7, 8, 8, 9, 9, 4, 6, 7, 8, 6, 3,
                       1, 2, 4, 4, 4, 5, 6, 8, 4, 5], dtype=np.int64)
assert len(NAMES) == TYPES and len(BASE_VALUE) == TYPES
BASE_TYPES = QUEEN + 1  # the base 2-player modes' 14 card types (full, quickplay, the two steps: BASE_MODES)
# The nine Signature Cards (Step 3's choice of 3, the Tournament draft, the Mercenary deck).
SIGNATURE = np.zeros(TYPES, dtype=np.int64)
SIGNATURE[[FLAG_BEARER, STRANGER, AEGIS, NAKTURN, ANCESTOR, INFORMANT, LOCKSHIFT, CONSPIRACIST, EXILE]] = 1
# Printed Royalty (the Immortal gives it to herself and the Warlord while her text holds: rules.court_royalty).
ROYALTY = np.zeros(TYPES, dtype=np.int64)
ROYALTY[[PRINCESS, QUEEN]] = 1
# The Steadfast keyword as printed (rules.steadfast): "can't be Muted or have its value lowered by other cards".
# The Aegis's lasts until its player's King is flipped (rules.aegis_steadfast), so it is not in the table.
STEADFAST = np.zeros(TYPES, dtype=np.int64)
STEADFAST[[IMMORTAL, CONSPIRACIST, EXILE]] = 1
# The cards the Immortal weakens while her text holds: -1 value and Muted (the Queen, Princess and Elders).
IMMORTAL_WEAKENS = np.zeros(TYPES, dtype=np.int64)
IMMORTAL_WEAKENS[[QUEEN, PRINCESS, ELDER]] = 1
# "Immune to King's Hand" needs no table: the Elder's, Zealot's and Oathbound's texts are play
# permissions and the King's Hand's a reaction, none of them a chosen ability the King's Hand could
# answer; the Oathbound's follow-up card is Immune by a flag on the play (PEND_IMMUNE).

# Decklists (counts per type). Quickplay: 14 cards, the Assassin is the Accused by rule.
QUICKPLAY_DECK = np.zeros(TYPES, dtype=np.int64)
QUICKPLAY_DECK[[ELDER, INQUISITOR, SOLDIER, OATHBOUND]] = 2
QUICKPLAY_DECK[[FOOL, MYSTIC, WARLORD, SENTRY, PRINCESS, QUEEN]] = 1
ASSASSIN_STEP_DECK = QUICKPLAY_DECK.copy()
ASSASSIN_STEP_DECK[ASSASSIN] = 1
KINGS_HAND_STEP_DECK = ASSASSIN_STEP_DECK.copy()
KINGS_HAND_STEP_DECK[KINGS_HAND] = 1
FULL_DECK = KINGS_HAND_STEP_DECK.copy()
FULL_DECK[ZEALOT] = 1
FULL_DECK[JUDGE] = 1
# Cutthroat (rulebook's decklist): the 18 cards, a second Judge, Herald, 2 Executioners, Spy, 2 Wardens.
CUTTHROAT_DECK = FULL_DECK.copy()
CUTTHROAT_DECK[JUDGE] = 2
CUTTHROAT_DECK[EXECUTIONER] = 2
CUTTHROAT_DECK[HERALD] = 1
CUTTHROAT_DECK[WARDEN] = 2
CUTTHROAT_DECK[SPY] = 1
# 2v2 (decklists table, with the errata's 2 Assassins and 2 Fools): Cutthroat's 25 cards, a second
# Fool, Assassin, Zealot and King's Hand.
TWO_V_TWO_DECK = CUTTHROAT_DECK.copy()
TWO_V_TWO_DECK[FOOL] = 2
TWO_V_TWO_DECK[ASSASSIN] = 2
TWO_V_TWO_DECK[ZEALOT] = 2
TWO_V_TWO_DECK[KINGS_HAND] = 2
# Fragments of Nersetti for 2 players ("2P FoN" decklist): the 18 cards, the Immortal and a Warden.
IMMORTAL_STEP_DECK = FULL_DECK.copy()
IMMORTAL_STEP_DECK[IMMORTAL] = 1
IMMORTAL_STEP_DECK[WARDEN] = 1
# Fragments of Nersetti, step 2: each player's Army (the five Army cards and the Aegis), match-long.
ARMY_STEP = np.zeros(TYPES, dtype=np.int64)
ARMY_STEP[[ELDER, INQUISITOR, SOLDIER, JUDGE, OATHBOUND, AEGIS]] = 1
# Fragments of Nersetti, step 3: the five Army cards (no Aegis) and three Signature Cards each.
ARMY_CARDS = np.zeros(TYPES, dtype=np.int64)
ARMY_CARDS[[ELDER, INQUISITOR, SOLDIER, JUDGE, OATHBOUND]] = 1
SIGNATURE_MASK = int(sum(1 << t for t in range(TYPES) if SIGNATURE[t]))
SIGNATURE_TYPES = np.flatnonzero(SIGNATURE).astype(np.int64)
DRAFT_SECOND_PICKS = np.array([0, 1, 1, 0], dtype=np.int64)  # "The first player picks 1 card, the second
                                                              # player picks 2, then the first player picks 1 more"
SIGNATURE_CHOICES = 3   # "Each player secretly chooses 3 of the 9 Signature Cards for the whole match"
DRAFT_FACE_UP = 5       # Tournament Mode: "deal 5 cards face up"
SIG_NONE = 0            # how the Signature Cards are chosen (option signatures)
SIG_CHOOSE = 1
SIG_TOURNAMENT = 2
SIG_RANDOM = 3
ANCESTOR_ELDER_BONUS = 3  # "While in the Court, Elders have Steadfast and +3 value"
RECOMMISSION_EXHAUSTS = 2  # Recommission: Exhaust 2 Army cards to put 1 Exhausted card back
MAX_CARDS = 29
assert FULL_DECK.sum() == 18 and QUICKPLAY_DECK.sum() == 14 and CUTTHROAT_DECK.sum() == 25
assert IMMORTAL_STEP_DECK.sum() == 20
assert TWO_V_TWO_DECK.sum() == MAX_CARDS
# The Mercenary modes (decklists "Cutthroat Merc." and "2v2 Merc."; each player's Army is ARMY_CARDS,
# match-long) and the Mercenary deck (one of each Signature Card, 5 dealt face up each round).
CUTTHROAT_MERC_DECK = np.zeros(TYPES, dtype=np.int64)
CUTTHROAT_MERC_DECK[[ELDER, INQUISITOR, BARD, SOLDIER, OATHBOUND]] = 2
CUTTHROAT_MERC_DECK[[FOOL, ASSASSIN, ZEALOT, EXECUTIONER, JUDGE, HERALD, IMMORTAL, MYSTIC, WARLORD, WARDEN,
                     KINGS_HAND, SENTRY, SPY, PRINCESS, QUEEN]] = 1
TWO_V_TWO_MERC_DECK = CUTTHROAT_MERC_DECK.copy()
TWO_V_TWO_MERC_DECK[[FOOL, ASSASSIN, EXECUTIONER]] = 2
TWO_V_TWO_MERC_DECK[ARBITER] = 1
MERC_AREA = 5     # Mercenary cards dealt face up each round
BID_CARDS = 3     # the bid: 3 cards face down, revealed together (2v2: and 1 extra card apart)
assert CUTTHROAT_MERC_DECK.sum() == 25 and TWO_V_TWO_MERC_DECK.sum() == 29
# The cards whose printed text is uncertain: their effect is scenario data (options bard_* / arbiter_*).
TEXT_CARDS = (BARD, ARBITER)
EFFECT_NONE = 0    # a plain card of its value
EFFECT_RECALL = 1  # Recall: put one of your Exhausted cards back into your Army
# The Court holds MAX_CARDS cards and its indices are answers below ACT_FLIP. A turn adds at most 2
# (the Oathbound and its follow-up); with Army, Mercenary and Rallied cards in play a round could in
# principle outgrow it, so a turn starting with more than COURT_ROOM cards in Court caps the round.
COURT_ROOM = MAX_CARDS - 2

WARLORD_HAND_WITH_ROYALTY = 8
WARLORD_COURT_WITH_ROYALTY = 9
SOLDIER_BONUS = 2
MUTED_VALUE = 3       # the Mystic's set value
DISGRACED_VALUE = 1
IMMORTAL_COURT_VALUE = 5  # the Immortal: "6 (5 in Court)"
IMMORTAL_LOWERS = 1       # the Queen, Princess and Elders lose 1 value while the Immortal's text holds
JUDGE_MIN_BASE = 2    # the Judge may put a card of base value 2 or more into the Antechamber
SOLDIER_DISGRACES = 3
MYSTIC_HIGHEST = 8    # the Mystic names a number 1..8
HERALD_MIN_VALUE = 5  # the Herald's follow-up card has value 5 or more
WARDEN_FACE_UP = 4    # the Warden needs four face-up Court cards (itself included)
REVEAL_FIRST = 2      # Cutthroat's Reveal: 2 cards together, then a third
REVEAL_TOTAL = 3      # (2v2: 3 together, then the fourth card for the partner)
TRADE_MAX = 2         # 2v2's Trade: up to 2 cards each
NAKTURN_COURT_VALUE = 2   # the Nakturn: "4 (2 in Court)"
CONSPIRACY_BONUS = 1      # the Conspiracist's +1 (and its own "1 less while on the Throne")
CONSPIRACY_TURN_ENDS = 2  # its effect lasts through the end of this turn and of its player's next
EXILE_HEAVY_BASE = 7      # the Exile: 1 less on the Throne per Court card of base value 7 or more
# The Reaction cards a Stranger in hand may act as while one is face up in the Court below the Throne.
REACTION = np.zeros(TYPES, dtype=np.int64)
REACTION[[ASSASSIN, KINGS_HAND]] = 1


def type_of(name: str) -> int:
    """Card type from a readable name ("King's Hand", "kings_hand", "kingshand" all work)."""
    key = name.lower().replace("'", "").replace("_", "").replace(" ", "")
    for i, n in enumerate(NAMES):
        if n.lower().replace("'", "").replace(" ", "") == key:
            return i
    raise KeyError(f"unknown card '{name}' (known: {', '.join(NAMES)})")


PLAYERS = 4  # seats the record holds; a setup uses cfg[CFG_PLAYERS] of them
SIDES = 2    # 2v2's teams
SEAT_MASK = 3  # the bits every seat 0..PLAYERS-1 fits in (rules.zone_row)
assert PLAYERS <= SEAT_MASK + 1

# ---- state layout ---------------------------------------------------------------------------
PHASE = D_KIND       # the pending decision's kind, or a non-decision state (PH_REDEAL, ...)
DECIDER = D_SEAT     # who decides it
HAND = DECISION_HEADER
ANTE = HAND + PLAYERS * TYPES
KNOWN = ANTE + PLAYERS * TYPES
KNOWN_SUCCESSOR = KNOWN + PLAYERS * PLAYERS * TYPES
PLACED = KNOWN_SUCCESSOR + PLAYERS * PLAYERS
REVEALED = PLACED + PLAYERS * TYPES
TAKEN = REVEALED + PLAYERS * TYPES
POOL = TAKEN + PLAYERS
PARTNER_CARD = POOL + TYPES
SUCCESSOR = PARTNER_CARD + PLAYERS
DUNGEON = SUCCESSOR + PLAYERS
DUNGEON_SHOWN = DUNGEON + PLAYERS
CONDEMNED = DUNGEON_SHOWN + PLAYERS
CONDEMNED_HIDDEN = CONDEMNED + PLAYERS * TYPES
FLIPPED = CONDEMNED_HIDDEN + PLAYERS * TYPES
OUT = FLIPPED + PLAYERS
OUT_BONUS = OUT + PLAYERS
COURT_LEN = OUT_BONUS + PLAYERS
COURT_TYPE = COURT_LEN + 1
COURT_FLAGS = COURT_TYPE + MAX_CARDS
REMOVED = COURT_FLAGS + MAX_CARDS
REMOVED_HIDDEN = REMOVED + TYPES
ACCUSED = REMOVED_HIDDEN + TYPES
UNUSED = ACCUSED + 1
MUTED = UNUSED + 1
CURRENT = MUTED + 1
DIRECTION = CURRENT + 1
PEND_EFFECT = DIRECTION + 1
PEND_USER = PEND_EFFECT + 1
PEND_ARG = PEND_USER + 1
PEND_LEFT = PEND_ARG + 1
PEND_GIVE = PEND_LEFT + 1
PEND_IMMUNE = PEND_GIVE + 1
PEND_TARGET = PEND_IMMUNE + 1
PICK_FOR = PEND_TARGET + 1
EXCH_FIRST = PICK_FOR + 1
EXCH_VICTIM = EXCH_FIRST + 1
EXCH_STEP = EXCH_VICTIM + 1
TRADE_TRY = EXCH_STEP + 1
TRADE_OPEN = TRADE_TRY + 1
OUT_COUNT = TRADE_OPEN + 1
WINNER = OUT_COUNT + 1
SECOND = WINNER + 1
POINTS = SECOND + 1
CAPPED = POINTS + 1
ASSASSINATED = CAPPED + 1
PLIES = ASSASSINATED + 1
FIRST = PLIES + 1
CHOOSER = FIRST + 1
MULLIGANS = CHOOSER + 1
SETUP_STAGE = MULLIGANS + 1
ARMY_TAKEN = SETUP_STAGE + 1
MUSTER_PAID = ARMY_TAKEN + PLAYERS * TYPES
ARMY_PICK = MUSTER_PAID + PLAYERS
ARMY_PICK_TYPES = ARMY_PICK + 1
ARMY_PICK_LEFT = ARMY_PICK_TYPES + 1
ARMY_PICK_THEN = ARMY_PICK_LEFT + 1
RALLIED = ARMY_PICK_THEN + 1
CONSPIRING = RALLIED + TYPES
EXILE_MUTE = CONSPIRING + PLAYERS
REACT_WITH = EXILE_MUTE + PLAYERS
SQUIRE = REACT_WITH + 1
MERC = SQUIRE + PLAYERS
MERC_DEALT = MERC + TYPES
EXTRA_SHOWN = MERC_DEALT + TYPES
RAISE_ASKED = EXTRA_SHOWN + PLAYERS
BID_WINNER = RAISE_ASKED + 1
KNOWN_CONDEMNED = BID_WINNER + 1
KNOWN_REMOVED = KNOWN_CONDEMNED + PLAYERS * PLAYERS * TYPES
TRUE_KING = KNOWN_REMOVED + PLAYERS * TYPES
SCORE = TRUE_KING + 1
FREE_MULLIGAN_USED = SCORE + PLAYERS
MATCH_OVER = FREE_MULLIGAN_USED + PLAYERS
ARMY = MATCH_OVER + 1
EXHAUST = ARMY + PLAYERS * TYPES
SIGNATURES = EXHAUST + PLAYERS * TYPES
DRAFT = SIGNATURES + PLAYERS * TYPES
DRAFT_FIRST = DRAFT + TYPES
DRAFT_PICKS = DRAFT_FIRST + 1
DRAFT_DECK = DRAFT_PICKS + 1
KING_FACET = DRAFT_DECK + TYPES
SEATS_IN_PLAY = KING_FACET + PLAYERS
TEAM_PLAY = SEATS_IN_PLAY + 1
STATE_SIZE = TEAM_PLAY + 1

# The round-level part (everything before TRUE_KING) is reset by each deal.
ROUND_FIELDS = TRUE_KING


def known_at(observer: int, owner: int) -> int:
    """Offset of the KNOWN row: what ``observer`` knows of ``owner``'s hand."""
    return KNOWN + (observer * PLAYERS + owner) * TYPES


def known_condemned_at(observer: int, owner: int) -> int:
    """Offset of the KNOWN_CONDEMNED row: what ``observer`` knows lies Condemned face down before ``owner``."""
    return KNOWN_CONDEMNED + (observer * PLAYERS + owner) * TYPES


FLAG_DISGRACED = 1
FLAG_BONUS = 2
FLAG_OWNER_SHIFT = 2  # COURT_FLAGS bits 2..4: the seat that played the card, plus 1 (0: not recorded)
FLAG_CONSPIRED = 32   # bit 5: played while its player's Conspiracist held (Steadfast, +1 while in Court)
COPIED_SHIFT = 6      # bits 6..10: the type a Stranger copied, plus 1 (0: none)
assert FLAG_CONSPIRED == 1 << (FLAG_OWNER_SHIFT + 3) and TYPES < 1 << 5

# ---- configuration (one int64 row per setup) -------------------------------------------------
CFG_DECK = 0                 # + t: copies of type t shuffled into the deck (the fixed Accused excluded)
CFG_HAND = CFG_DECK + TYPES  # cards dealt to each player
CFG_DUNGEON = CFG_HAND + 1   # 1: each player places a Dungeon card
CFG_MULLIGANS = CFG_DUNGEON + 1
CFG_FIRST_MODE = CFG_MULLIGANS + 1
CFG_FULL_SCORING = CFG_FIRST_MODE + 1
CFG_MUTE_HAND = CFG_FULL_SCORING + 1     # 1: the Mystic mutes cards in hand too (text only)
CFG_POINTS = CFG_MUTE_HAND + 1           # points to win the match
CFG_PLY_CAP = CFG_POINTS + 1             # turns per round before it counts as capped
CFG_FIXED_ACCUSED = CFG_PLY_CAP + 1      # type set aside as the Accused by rule, -1 none
CFG_PLAYERS = CFG_FIXED_ACCUSED + 1      # seats at the table (2 or 3)
CFG_REVEAL = CFG_PLAYERS + 1             # 1: Cutthroat's Reveal and Exchange before play
CFG_DIRECTION = CFG_REVEAL + 1           # DIRECTION_BY_TRUE_KING, or the forced +1 / -1
CFG_SECOND_POINT = CFG_DIRECTION + 1     # points second place scores (Cutthroat: 1)
CFG_HERALD_ANY = CFG_SECOND_POINT + 1    # 1: the Herald's follow-up ignores the Throne's value
CFG_SPY_USER_CHOOSES = CFG_HERALD_ANY + 1  # 1: the Spy's user (not the forced player) picks the new Successor
CFG_TEAMS = CFG_SPY_USER_CHOOSES + 1    # 1: 2v2, partners opposite (seat p's side is p % 2)
CFG_TRADE_RETRIES = CFG_TEAMS + 1       # 2v2's Trade: times partners whose counts differ try again
CFG_TYPES = CFG_TRADE_RETRIES + 1       # the mode's cards are types 0..CFG_TYPES-1 (14 in the 2-player modes,
                                        # 18 with the 3-4 player cards, 19 with the Immortal): the hot loops
                                        # over types stop there
CFG_IMMORTAL_HAND = CFG_TYPES + 1       # 1: the Immortal's -1 and Mute reach cards in hand too (else Court only)
CFG_ARRIVAL_ABILITY = CFG_IMMORTAL_HAND + 1  # 1: a Queen / Princess played while the Immortal holds uses its
                                             # ability before her Mute takes it (else Muted on arrival)
CFG_MYSTIC_IS_MUTE = CFG_ARRIVAL_ABILITY + 1  # 1: the Mystic's "lose their text" is a Mute, so Steadfast cards
                                              # keep their text and value against it
CFG_ARMY = CFG_MYSTIC_IS_MUTE + 1       # + t: copies of type t in each player's Army at the match's start
                                        # (all 0: no Army, no Mustering Phase)
CFG_RALLY_ALL_OR_NONE = CFG_ARMY + TYPES  # 1: Rallies asked beyond the Army's cards are all ignored (option rally_short)
CFG_SIGNATURES = CFG_RALLY_ALL_OR_NONE + 1  # Step 3: how the Signature Cards are chosen (SIG_*; SIG_NONE: no choice)
CFG_SIGNATURES_FIXED = CFG_SIGNATURES + 1  # + p: seat p's three Signature Cards fixed by a scenario (a type mask; 0 none)
CFG_EXILE_HAND = CFG_SIGNATURES_FIXED + PLAYERS     # 1: the Exile's Mute reaches cards in hands and Antechambers too
CFG_EXILE_SELF = CFG_EXILE_HAND + 1    # 1: the Exile counts itself among the Court cards of base value 7+
CFG_STRANGER_IMMUNE = CFG_EXILE_SELF + 1  # 1: the Stranger's copied ability (and its reactions) keep its
                                          # Immunity to King's Hand
CFG_ANCESTOR_HAND = CFG_STRANGER_IMMUNE + 1  # 1: the Ancestor's Steadfast and +3 reach Elders in hand too
CFG_ANCESTOR_ANTE = CFG_ANCESTOR_HAND + 1  # 1: the Ancestor played from the Antechamber onto Royalty uses its ability
CFG_KING_FACETS = CFG_ANCESTOR_ANTE + 1  # 1: Step 4, Facets of the King: the Mustering Phase may choose a new King
CFG_FACET_LEFTOVER_REMOVED = CFG_KING_FACETS + 1  # 1: the card a flipped facet King does not take (Successor
                                                  # or Squire) is removed from the round face down; 0: it stays
CFG_MERC = CFG_FACET_LEFTOVER_REMOVED + 1  # 1: the Mercenary round (Bid, Mercenary area, the Mercenary muster)
CFG_SWAP_TO_AREA = CFG_MERC + 1         # 1: a bid card the highest bid swaps away goes to the Mercenary area
                                        # (else it is discarded face up, out of the round)
CFG_TEXT_EFFECT = CFG_SWAP_TO_AREA + 1  # + k: the effect (EFFECT_*) of TEXT_CARDS[k] (the Bard, the Arbiter)
CFG_TEXT_ON_BASE = CFG_TEXT_EFFECT + len(TEXT_CARDS)  # + k: the base values (bit v) of the card it must be
                                                      # played on for the effect (all bits: any card)
CFG_TEXT_NEEDS_OTHER = CFG_TEXT_ON_BASE + len(TEXT_CARDS)  # + k: 1: playable from hand only with another card
CFG_MYSTIC_ROYALTY_LOST = CFG_TEXT_NEEDS_OTHER + len(TEXT_CARDS)  # 1: a card the Mystic's number Muted loses
                                                                   # Royalty too (option mystic_royalty 'lost')
CFG_SIZE = CFG_MYSTIC_ROYALTY_LOST + 1
CFG_HAS_ARMY = CFG_ARMY + ELDER  # every Army holds the Elder: > 0 in the modes with Armies (a constant index:
                                 # a fixed field of BASE_MODES)

# The base 2-player modes (full, quickplay, the two steps) run kernels of their own (balance.engine.config)
# in which these fields are constants: 14 card types, two seats, and no 2v2, Reveal, Mercenary round,
# Armies, Signature Cards, King facets or point for second place.
BASE_MODES = Specialization(BASE_TYPES, ((CFG_TYPES, BASE_TYPES), (CFG_PLAYERS, 2), (CFG_TEAMS, 0), (CFG_REVEAL, 0),
                                         (CFG_MERC, 0), (CFG_HAS_ARMY, 0), (CFG_SIGNATURES, SIG_NONE),
                                         (CFG_KING_FACETS, 0), (CFG_SECOND_POINT, 0)))

FIRST_BY_TRUE_KING = 0
FIRST_SEAT0 = 1  # FIRST_SEAT0 + k forces seat k
FIRST_SEAT1 = 2
FIRST_SEAT2 = 3
FIRST_SEAT3 = 4
DIRECTION_BY_TRUE_KING = 0
CLOCKWISE = 1
COUNTERCLOCKWISE = -1

# ---- phases (decisions) and actions ---------------------------------------------------------
PH_FIRST = 0            # True King (2 players): ACT_YES = I go first, ACT_NO = the opponent does
PH_MULLIGAN = 1         # ACT_YES = call a mulligan
PH_SUCCESSOR = 2        # a hand type
PH_DUNGEON = 3          # a hand type
PH_TURN = 4             # a hand type to play, or ACT_FLIP
PH_ANTE = 5             # an Antechamber type to play
PH_FOOL = 6             # a Court index to take, or ACT_NO
PH_INQUISITOR = 7       # a type to name, or ACT_NO
PH_SOLDIER_NAME = 8     # a type to name
PH_SOLDIER_DISGRACE = 9  # a Court index to Disgrace, or ACT_NO to stop
PH_JUDGE_NAME = 10      # a type to name
PH_JUDGE_ANTE = 11      # a hand type (base value >= 2) for the Antechamber, or ACT_NO
PH_OATH_FOLLOW = 12     # the hand type played right after an Oathbound override
PH_MYSTIC = 13          # a number 1..8, or ACT_NO
PH_SENTRY_PICK = 14     # a Court index, or ACT_NO
PH_SENTRY_GIVE = 15     # the hand type that takes the picked card's place
PH_PRINCESS = 16        # ACT_YES = use the ability
PH_PRINCESS_OWN = 17    # the Princess owner's card to swap
PH_PRINCESS_OPP = 18    # the chosen player's card to swap
PH_KINGS_HAND = 19      # ACT_YES = react with the King's Hand
PH_ASSASSIN = 20        # ACT_YES = react with the Assassin
PH_REVEAL = 21          # Cutthroat: a hand card placed face down for the Reveal
PH_FIRST_SEAT = 22      # Cutthroat's True King: who goes first, clockwise offset from itself
PH_DIRECTION = 23       # Cutthroat's True King: ACT_YES clockwise, ACT_NO counterclockwise
PH_PICK_PLAYER = 24     # a seat (PICK_FOR says what for)
PH_PICK_CARD = 25       # a card type (PICK_FOR says from where)
PH_EXECUTIONER = 26     # a number, or ACT_NO
PH_HERALD_PLAY = 27     # a hand type of value 5 or more, or ACT_NO
PH_WARDEN = 28          # ACT_YES = exchange a hand card with the Accused
PH_SPY = 29             # ACT_YES = Disgrace the Spy to look at every Successor
PH_PICK_COURT = 30      # a Court index (PICK_FOR says what for), or ACT_NO
PH_SIGNATURE = 31       # Step 3: a Signature Card chosen secretly (bit t: a Signature type not yet chosen)
PH_DRAFT = 32           # Tournament Mode: a face-up draft card picked (bit t)
PH_DRAFT_ORDER = 33     # Tournament Mode: the player without the True King picks first (ACT_YES) or second
# Kinds 35, 36, 39 and 41..43 are free.
PH_NAKTURN_GUESS = 34   # the Nakturn's opponent: ACT_YES = "you hold the named card", ACT_NO = "you don't"
PH_KING = 37            # Step 4: the King facet chosen while mustering (bit f: facet f)
PH_FACET_TAKE = 38      # Step 4: a flipped facet King's yes / no choices (PICK_FOR says which)
PH_RAISE = 40           # 2v2 Mercenaries: ACT_YES = reveal the extra card to raise the bid, ACT_NO = let the timer run
DECISION_KINDS = 44     # decision codes are below 44
assert DECISION_KINDS <= N_KINDS_MAX  # every decision kind has its row in a restriction
PH_REDEAL = 44          # not a decision: a mulligan was called, the match loop deals again
PH_ROUND_OVER = 45      # not a decision
PH_START = 46           # internal: a turn is about to start
PHASES = 47
PHASE_NAMES = dict(enumerate((
    "first player", "mulligan", "Successor", "Dungeon", "turn", "Antechamber", "Fool", "Inquisitor",
    "Soldier names", "Soldier disgraces", "Judge names", "Judge's Antechamber", "Oathbound follow-up",
    "Mystic", "Sentry picks", "Sentry gives", "Princess", "Princess swap (owner)",
    "Princess swap (opponent)", "King's Hand", "Assassin", "Reveal", "first player (seat)",
    "direction of play", "pick a player", "pick a card", "Executioner", "Herald's follow-up", "Warden",
    "Spy", "pick a Court card")))
PHASE_NAMES.update({PH_SIGNATURE: "Signature Card", PH_DRAFT: "draft", PH_DRAFT_ORDER: "draft order"})
PHASE_NAMES.update({PH_RAISE: "raise the bid"})
PHASE_NAMES.update({PH_REDEAL: "redeal", PH_ROUND_OVER: "round over", PH_START: "start"})
PHASE_NAMES.update({PH_NAKTURN_GUESS: "Nakturn guess"})
PHASE_NAMES.update({PH_KING: "choose a King", PH_FACET_TAKE: "flipped King's choice"})

# What a PH_PICK_PLAYER / PH_PICK_CARD / PH_PICK_COURT decision is for (PICK_FOR).
PICK_EXCHANGE_START = 0   # player: the True King breaks a tie for the highest revealed card
PICK_EXCHANGE_VICTIM = 1  # player: whose revealed cards the Exchange's starter takes from
PICK_EXCHANGE_TAKE = 2    # card: the revealed card taken (EXCH_STEP says from whom)
PICK_JUDGE = 3            # player: the Judge's opponent
PICK_PRINCESS = 4         # player: the Princess's player
PICK_SPY = 5              # player: who must exchange Successor and a hand card (or ACT_NO)
PICK_SPY_SWAP = 6         # card: the new Successor from that player's hand (chosen by it, or by the Spy's user)
PICK_EXEC_CONDEMN = 7     # card: which card of the named base value the player Condemns
PICK_HERALD_SUCCESSOR = 8  # card: the Herald's new Successor
PICK_WARDEN_GIVE = 9      # card: the hand card exchanged with the Accused
PICK_ASSASSIN_KEEP = 10   # card: the one the Assassin's owner keeps (three-player rule)
PICK_PARTNER_CARD = 11    # card: 2v2, the fourth card placed face down for the partner
PICK_PARTNER_TAKE = 12    # card: 2v2, the card taken from the partner's four (ACT_FOURTH: its fourth)
PICK_TRADE = 13           # card: 2v2, a card placed face down to trade with the partner (ACT_NO: done)
PICK_MUSTER = 14          # card: the Mustering Phase: Recruit giving up hand card t (bit t), Recommission
                          # (ACT_YES) or done (ACT_NO)
PICK_RECRUIT_COST = 15    # card: the Army card Exhausted as the first Recruit's cost
PICK_RECRUIT_TAKE = 16    # card: the Army card taken into hand
PICK_RECOMMISSION_EXHAUST = 17  # card: an Army card Exhausted to Recommission (two in turn)
PICK_RECOMMISSION_RETURN = 18   # card: the Exhausted card put back into the Army
PICK_AEGIS = 19           # Court card: the one the Aegis Disgraces (ACT_NO: none)
PICK_NAMES = dict(enumerate((
    "exchange tie", "exchange: take from", "exchange: card", "Judge's opponent", "Princess's player",
    "Spy: who exchanges", "Spy: new Successor", "Executioner: Condemn", "Herald: new Successor",
    "Warden: give", "Assassin: keep", "fourth card for the partner", "take from the partner",
    "trade", "muster", "Recruit: Exhaust as the cost", "Recruit: take", "Recommission: Exhaust",
    "Recommission: put back", "Aegis: Disgrace")))
PICK_RALLY = 20           # card: the Army card a Rally takes into hand (ARMY_PICK_TYPES: which may)
PICK_RECALL = 21          # card: the Exhausted card a Recall puts back into the Army
PICK_FLAG_BEARER_RETURN = 22  # card: which of the Flag Bearer's (revealed) Rallied cards goes back to the Army
PICK_FLAG_BEARER = 23     # card: bit FLAG_BEARER Disgraces the Flag Bearer to use it (ACT_NO: not)
PICK_ANCESTOR_REMOVE = 24  # card: the hand card the Ancestor's player reveals and removes to Rally (ACT_NO: none)
PICK_INFORMANT_PLAYER = 25  # player: the opponent whose Dungeon card the Informant guesses
PICK_INFORMANT_GUESS = 26   # card: the guess (any card of the mode)
PICK_INFORMANT_TAKE = 27    # card: bit t takes the revealed Dungeon card into hand; ACT_YES Rallies instead
PICK_LOCKSHIFT = 28         # card: bit LOCKSHIFT makes the others reveal their Dungeon cards (ACT_NO: not)
PICK_NAMES.update({PICK_RALLY: "Rally", PICK_RECALL: "Recall", PICK_FLAG_BEARER_RETURN: "Flag Bearer: return",
                   PICK_FLAG_BEARER: "Flag Bearer", PICK_ANCESTOR_REMOVE: "Ancestor: remove to Rally",
                   PICK_INFORMANT_PLAYER: "Informant: whose Dungeon", PICK_INFORMANT_GUESS: "Informant: guess",
                   PICK_INFORMANT_TAKE: "Informant: take or Rally", PICK_LOCKSHIFT: "Lockshift"})

# What follows a Rally or Recall (ARMY_PICK_THEN; rules.then_continue).
THEN_END_TURN = 0
THEN_FLAG_BEARER_RALLY = 1   # the Flag Bearer: after its Recall, Rally twice
THEN_FLAG_BEARER_RETURN = 2  # ... then reveal the Rallied cards and return one secretly
THEN_ANCESTOR_OFFER = 3      # the Ancestor: after its Recall, may reveal and remove a hand card to Rally
ALL_TYPES = (1 << TYPES) - 1  # a Rally or Recall of any type
PICK_STRANGER_COPY = 30     # Court card: the one the Stranger copies (removed from the round; ACT_NO: none)
PICK_NAKTURN_GUESSER = 31   # player: the opponent who guesses (3-4 players)
PICK_NAKTURN_NAME = 32      # card: the type the Nakturn's user names (ACT_NO: decline)
PICK_NAKTURN_CONDEMN = 33   # card: the guesser's hand card the user Condemns
PICK_NAMES.update({PICK_STRANGER_COPY: "Stranger: copy", PICK_NAKTURN_GUESSER: "Nakturn: guesser",
                   PICK_NAKTURN_NAME: "Nakturn: name", PICK_NAKTURN_CONDEMN: "Nakturn: Condemn"})
# Step 4, Facets of the King. PH_PICK_CARD: the Squire; PH_FACET_TAKE (ACT_YES / ACT_NO): the flips' choices.
PICK_SQUIRE = 38             # card: the hand card placed face down as the Master Tactician's Squire
PICK_TACTICIAN_REVEAL = 39   # ACT_YES: reveal and take the Successor matching the Throne's base value (then
                             # Recall a base Army card, then PICK_TACTICIAN_SQUIRE); ACT_NO: PICK_TACTICIAN_TAKE
PICK_TACTICIAN_TAKE = 40     # ACT_YES: take the Successor, ACT_NO: take the Squire
PICK_TACTICIAN_SQUIRE = 41   # ACT_YES: take the Squire, ACT_NO: remove it from the round to Rally
PICK_LEADER_TAKE = 42        # ACT_YES: take the Successor, ACT_NO: remove it from the round to Rally a card of
                             # equal or lower base value
PICK_NAMES.update({PICK_SQUIRE: "Squire", PICK_TACTICIAN_REVEAL: "Master Tactician: reveal the matching Successor",
                   PICK_TACTICIAN_TAKE: "Master Tactician: Successor or Squire",
                   PICK_TACTICIAN_SQUIRE: "Master Tactician: take the Squire or Rally",
                   PICK_LEADER_TAKE: "Charismatic Leader: take the Successor or Rally"})
THEN_TACTICIAN_SQUIRE = 40  # after the Master Tactician's Recall: take the Squire or remove it to Rally
# The Kings (KING_FACET): the base King, and Step 4's two facets ("Both players may choose the same King").
FACET_BASE = 0
FACET_TACTICIAN = 1
FACET_LEADER = 2
FACETS = 3
FACET_NAMES = ("King", "Master Tactician", "Charismatic Leader")
# The Mercenary modes (46..55).
PICK_BID_TIE = 46          # player: the True King decides which tied bid wins
PICK_SWAP_TAKE = 47        # card: the highest bid takes a Mercenary for free (ACT_NO: done swapping)
PICK_SWAP_GIVE = 48        # card: the bid card it gives for that Mercenary
PICK_MERC_MUSTER = 49      # card: the Mercenary muster (bit t Recruit from the Army giving bid card t, ACT_FLIP
                           # Recruit a Mercenary, ACT_YES Recommission, ACT_NO done)
PICK_MERC_COST = 50        # card: the Army card Exhausted to Recruit a Mercenary
PICK_MERC_GIVE = 51        # card: the bid card discarded for it
PICK_MERC_TAKE = 52        # card: the Mercenary taken into hand
PICK_RECOMMISSION_ARMY = 53  # player: 2v2 Mercenaries, whose Army the Recommissioned card goes back to
PICK_NAMES.update({
    PICK_BID_TIE: "bid tie", PICK_SWAP_TAKE: "bid swap: take a Mercenary", PICK_SWAP_GIVE: "bid swap: give",
    PICK_MERC_MUSTER: "Mercenary muster", PICK_MERC_COST: "Recruit a Mercenary: Exhaust",
    PICK_MERC_GIVE: "Recruit a Mercenary: discard", PICK_MERC_TAKE: "Recruit a Mercenary: take",
    PICK_RECOMMISSION_ARMY: "Recommission: whose Army"})

ACT_FLIP = TYPES
ACT_YES = TYPES + 1
ACT_NO = TYPES + 2
ACT_FOURTH = ACT_YES  # 2v2's take: the partner's face-down fourth card
MAX_ACTIONS = TYPES + 3  # action codes are 0..TYPES+2: each is one bit of the posed D_CHOICES mask
assert MAX_ACTIONS <= MAX_ANSWERS and MAX_CARDS <= ACT_FLIP  # Court indices fit below the flip


# ---- result rows (one per round) and trace events -------------------------------------------
COLUMNS = ("game", "deal", "rotation", "row", "first_seat", "chooser_seat", "chooser_first", "winner_seat",
           "points", "first_won", "chooser_won", "winner_flipped", "loser_flipped", "assassinated", "capped",
           "mulligans", "plies", "score0", "score1", "first_true_king", "match_winner", "match_capped",
           "first_true_king_won", "last_round", "score2", "second_seat", "clockwise", "signatures0", "signatures1",
           "king0", "king1")
(C_GAME, C_DEAL, C_ROTATION, C_ROW, C_FIRST, C_CHOOSER, C_CHOOSER_FIRST, C_WINNER, C_POINTS, C_FIRST_WON,
 C_CHOOSER_WON, C_WINNER_FLIPPED, C_LOSER_FLIPPED, C_ASSASSINATED, C_CAPPED, C_MULLIGANS, C_PLIES, C_SCORE0,
 C_SCORE1, C_FIRST_TK, C_MATCH_WINNER, C_MATCH_CAPPED, C_FIRST_TK_WON, C_LAST_ROUND, C_SCORE2, C_SECOND,
 C_CLOCKWISE, C_SIGNATURES0, C_SIGNATURES1, C_KING0, C_KING1) = range(len(COLUMNS))
# Step 3: each seat's three Signature Cards as a type mask (bit t; 0 in the other modes); Step 4: the
# Kings (facets) the round was played with. The tables of the
# modes before them have the columns up to "clockwise" (their fingerprints hash those).
COLUMNS_BEFORE_SIGNATURES = COLUMNS[:C_SIGNATURES0]
NCOLS = len(COLUMNS)
TWO_PLAYER_COLUMNS = COLUMNS[:C_SCORE2]  # the columns of the 2-player game before Cutthroat

# One trace event per decision: round, phase, decider, action, Throne card (+ TYPES when Disgraced),
# Throne value, the decision's legal answers (a mask, before any restriction). A deal is recorded as
# one event per seat with phase EV_DEAL: the action field holds the hand packed HAND_BITS bits per
# type, the Throne fields the Accused and the unused card.
EV_ROUND, EV_PHASE, EV_DECIDER, EV_ACTION, EV_THRONE, EV_THRONE_VALUE, EV_LEGAL = range(7)
EVENT_WIDTH = 7
EV_DEAL = -1
HAND_BITS = 2
