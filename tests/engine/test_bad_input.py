"""Bad input, scenario files and command lines over all three games: each one is refused with
exit status 2 and one line naming the file (or the flag) and the key, without a traceback and
without writing anything."""

import pytest
from typer.testing import CliRunner

from balance.cli import app
from balance.games.thron_der_luegen.deck import DeckError, load_deck

runner = CliRunner()

TTT = """
game = "take_the_throne"
mode = "core"
players = 3
seed = 5
games = 60
seats = "heuristic"

[[claims]]
id = "fair"
quantity = "win_rate"
by = "seat"
target = 0.333
tolerance = 0.3

[[claims]]
quantity = "game_length"
target = 8
tolerance = 6
"""

IK = """
game = "imposter_kings"
mode = "quickplay"
players = 2
seed = 3
games = 20
seats = "greedy"

[options]
first_player = "seat0"

[[claims]]
id = "first"
quantity = "first_player_win"
target = 0.5
tolerance = 0.2
"""

CUTTHROAT = IK.replace('"quickplay"', '"cutthroat"').replace("players = 2", "players = 3")
IMMORTAL = IK.replace('"quickplay"', '"immortal_step"')

DET = """
game = "dethroned"
players = 3
seed = 4
games = 20
rotate = false
seats = "random"
roles = ["Fool", "King", "Assassin"]

[options]
symbols = "default"

[[claims]]
id = "roles"
quantity = "win_rate"
by = "role"
target = 0.5
tolerance = 0.3
"""

TA = """
game = "throne_arcade"
mode = "standard"
players = 3
seed = 6
games = 20
seats = "greedy"

[options]
stacking = false

[[claims]]
id = "start"
quantity = "starter_loses_full"
compare = "at_least"
target = 0.333
tolerance = 0.03
"""

TDL = """
game = "thron_der_luegen"
players = 4
seed = 6
games = 10
seats = "heuristic"

[options]
deck = "default"

[[claims]]
id = "fair"
quantity = "round_points_edge"
by = "position"
target = 0
tolerance = 3
"""


def sub(base: str, old: str, new: str) -> str:
    assert old in base, old
    return base.replace(old, new, 1)


def seat0(base: str, policy: str, params: str, others: str, players: int) -> str:
    """``base`` with seat 0 playing ``policy`` with ``params`` and every other seat ``others``."""
    seats = f'[[seats]]\npolicy = "{policy}"\nparams = {{ {params} }}\n' + \
        f'[[seats]]\npolicy = "{others}"\n' * (players - 1)
    head, claims = base.split("[[claims]]", 1)
    head = "\n".join(line for line in head.splitlines() if not line.startswith("seats ="))
    return head + "\n" + seats + "\n[[claims]]" + claims


def option(base: str, line: str) -> str:
    """``base`` with one more line in its [options] table (created if missing)."""
    if "[options]" in base:
        return sub(base, "[options]\n", f"[options]\n{line}\n")
    head, claims = base.split("[[claims]]", 1)
    return head + f"[options]\n{line}\n\n[[claims]]" + claims


BIG = 2**70

# (id, scenario text or bytes, the key the error line names)
BAD_FILES = [
    # ---- Take the Throne: the scenario's own keys
    ("unknown_top_key", "playerz = 3\n" + TTT, "playerz"),
    ("players_string", sub(TTT, "players = 3", 'players = "three"'), "players"),
    ("players_impossible", sub(TTT, "players = 3", "players = 7"), "players"),
    ("players_float", sub(TTT, "players = 3", "players = 3.0"), "players"),
    ("players_bool", sub(TTT, "players = 3", "players = true"), "players"),
    ("players_missing", sub(TTT, "players = 3\n", ""), "players"),
    ("game_missing", sub(TTT, 'game = "take_the_throne"\n', ""), "game"),
    ("game_unknown", sub(TTT, '"take_the_throne"', '"chess"'), "game"),
    ("game_number", sub(TTT, '"take_the_throne"', "5"), "game"),
    ("mode_unknown", sub(TTT, 'mode = "core"', 'mode = "cor"'), "mode"),
    ("mode_number", sub(TTT, 'mode = "core"', "mode = 3"), "mode"),
    ("seed_negative", sub(TTT, "seed = 5", "seed = -1"), "seed"),
    ("seed_2_63", sub(TTT, "seed = 5", f"seed = {2**63}"), "seed"),
    ("seed_huge", sub(TTT, "seed = 5", f"seed = {BIG}"), "seed"),
    ("seed_string", sub(TTT, "seed = 5", 'seed = "x"'), "seed"),
    ("seed_float", sub(TTT, "seed = 5", "seed = 1.5"), "seed"),
    ("games_zero", sub(TTT, "games = 60", "games = 0"), "games"),
    ("games_negative", sub(TTT, "games = 60", "games = -5"), "games"),
    ("games_fraction", sub(TTT, "games = 60", "games = 2.5"), "games"),
    ("games_1e300", sub(TTT, "games = 60", "games = 1e300"), "games"),
    ("games_huge", sub(TTT, "games = 60", f"games = {BIG}"), "games"),
    ("max_length_huge", "max_length = " + str(BIG) + "\n" + TTT, "max_length"),
    ("max_length_negative", "max_length = -1\n" + TTT, "max_length"),
    ("max_length_fraction", "max_length = 1.5\n" + TTT, "max_length"),
    ("rotate_string", "rotate = \"yes\"\n" + TTT, "rotate"),
    ("title_number", "title = 5\n" + TTT, "title"),
    ("description_number", "description = 5\n" + TTT, "description"),
    # seats and policy parameters
    ("policy_unknown", sub(TTT, 'seats = "heuristic"', 'seats = "wizard"'), "seats[0].policy"),
    ("seats_number", sub(TTT, 'seats = "heuristic"', "seats = 5"), "seats"),
    ("seats_count", sub(TTT, 'seats = "heuristic"', 'seats = ["random", "random"]'), "seats"),
    ("seat_unknown_key", sub(TTT, 'seats = "heuristic"', '[[seats]]\npolcy = "random"'), "seats[0].polcy"),
    ("param_unknown", seat0(TTT, "heuristic", "nonsense = 1", "random", 3), "seats[0].params.nonsense"),
    ("param_below_low", seat0(TTT, "heuristic", "temperature = -1", "random", 3), "seats[0].params.temperature"),
    ("param_inf", seat0(TTT, "heuristic", "temperature = inf", "random", 3), "seats[0].params.temperature"),
    ("param_nan", seat0(TTT, "heuristic", "temperature = nan", "random", 3), "seats[0].params.temperature"),
    ("param_minus_inf", seat0(TTT, "heuristic", "throne_value = -inf", "random", 3), "seats[0].params.throne_value"),
    ("param_string", seat0(TTT, "heuristic", 'temperature = "hot"', "random", 3), "seats[0].params.temperature"),
    ("param_bool", seat0(TTT, "heuristic", "temperature = true", "random", 3), "seats[0].params.temperature"),
    ("param_huge_int", seat0(TTT, "heuristic", f"throne_value = {BIG}", "random", 3), "seats[0].params.throne_value"),
    # rule options
    ("option_unknown", option(TTT, "feint_from_discrad = true"), "options.feint_from_discrad"),
    ("option_type", option(TTT, "feint_from_discard = 1"), "options.feint_from_discard"),
    ("option_choice", option(TTT, 'contest_order = "abd"'), "options.contest_order"),
    ("options_not_table", "options = 3\n" + TTT, "options"),
    ("unknown_card", option(sub(TTT, 'mode = "core"', 'mode = "custom"'),
                            'house_cards = ["attack", "charge", "feint", "infiltrate", "dragon"]'),
     "options.house_cards"),
    # restricted play: seat keys forbid / prefer name actions of the game's menu
    ("forbid_unknown_action", sub(TTT, 'seats = "heuristic"', '[[seats]]\npolicy = "heuristic"\nforbid = ["Dragon"]\n'
                                  + '[[seats]]\npolicy = "heuristic"\n' * 2), "seats[0].forbid"),
    ("prefer_card_not_in_mode", sub(TTT, 'seats = "heuristic"', '[[seats]]\npolicy = "random"\n'
                                    + '[[seats]]\npolicy = "heuristic"\nprefer = ["Chaos"]\n'
                                    + '[[seats]]\npolicy = "heuristic"\n'), "seats[1].prefer"),
    ("prefer_not_a_list", sub(TTT, 'seats = "heuristic"', '[[seats]]\npolicy = "heuristic"\nprefer = "Charge"\n'
                              + '[[seats]]\npolicy = "heuristic"\n' * 2), "seats[0].prefer"),
    ("forbid_and_prefer_one_card", sub(TTT, 'seats = "heuristic"', '[[seats]]\npolicy = "heuristic"\n'
                                       'forbid = ["Charge"]\nprefer = ["charge"]\n'
                                       + '[[seats]]\npolicy = "heuristic"\n' * 2), "seats[0].prefer"),
    # claims
    ("claim_quantity", sub(TTT, 'quantity = "game_length"', 'quantity = "fun"'), "claims[1].quantity"),
    ("claim_tolerance_inf", sub(TTT, "tolerance = 0.3", "tolerance = inf"), "claims[0].tolerance"),
    ("claim_target_nan", sub(TTT, "target = 0.333", "target = nan"), "claims[0].target"),
    ("claim_target_huge", sub(TTT, "target = 8", f"target = {BIG}"), "claims[1].target"),
    ("claim_by", sub(TTT, 'by = "seat"', 'by = "colour"'), "claims[0].by"),
    ("claim_compare", sub(TTT, 'by = "seat"', 'by = "seat"\ncompare = "roughly"'), "claims[0].compare"),
    ("claim_target_missing", sub(TTT, "target = 8\n", ""), "claims[1].target"),
    ("claim_duplicate_id", sub(TTT, 'quantity = "game_length"', 'id = "fair"\nquantity = "game_length"'),
     "claims[1].id"),
    ("claim_unknown_key", sub(TTT, 'by = "seat"', 'by = "seat"\nweight = 2'), "claims[0].weight"),
    ("where_unknown_column", sub(TTT, 'by = "seat"', 'by = "seat"\nwhere = { colour = "red" }'),
     "claims[0].where.colour"),
    ("where_policy_absent", sub(TTT, 'by = "seat"', 'by = "seat"\nwhere = { policy = "nobody" }'),
     "claims[0].where.policy"),
    ("where_seat_absent", sub(TTT, 'by = "seat"', 'by = "seat"\nwhere = { seat = 7 }'), "claims[0].where.seat"),
    # files that are not scenarios
    ("not_toml", "game = = 3", "-"),
    ("not_utf8", b'title = "\xff\xfe caf\xe9"\n' + TTT.encode(), "-"),
    ("binary", bytes(range(256)) * 4, "-"),
    ("empty", "", "game"),
    # ---- The Imposter Kings
    ("ik_players", sub(IK, "players = 2", "players = 3"), "players"),
    ("ik_mode", sub(IK, '"quickplay"', '"full3"'), "mode"),
    ("ik_points_zero", option(IK, "points_to_win = 0"), "options.points_to_win"),
    ("ik_points_huge", option(IK, f"points_to_win = {BIG}"), "options.points_to_win"),
    ("ik_points_fraction", option(IK, "points_to_win = 7.5"), "options.points_to_win"),
    ("ik_turn_cap_negative", option(IK, "round_turn_cap = -1"), "options.round_turn_cap"),
    ("ik_first_player", sub(IK, 'first_player = "seat0"', 'first_player = "seat2"'), "options.first_player"),
    ("ik_mystic_scope", option(IK, "mystic_scope = 1"), "options.mystic_scope"),
    ("ik_cutthroat_two_players", sub(IK, '"quickplay"', '"cutthroat"'), "players"),
    ("ik_cutthroat_fourth_seat", sub(CUTTHROAT, 'first_player = "seat0"', 'first_player = "seat3"'),
     "options.first_player"),
    ("ik_direction", option(CUTTHROAT, 'direction = "diagonal"'), "options.direction"),
    ("ik_spy_chooser", option(CUTTHROAT, 'spy_chooser = "nobody"'), "options.spy_chooser"),
    ("ik_herald_follow", option(CUTTHROAT, "herald_follow = 5"), "options.herald_follow"),
    ("ik_immortal_third_seat", sub(IMMORTAL, 'first_player = "seat0"', 'first_player = "seat2"'),
     "options.first_player"),
    ("ik_immortal_three_players", sub(IMMORTAL, "players = 2", "players = 3"), "players"),
    ("ik_immortal_scope", option(IMMORTAL, 'immortal_scope = "deck"'), "options.immortal_scope"),
    ("ik_immortal_arrival", option(IMMORTAL, "immortal_arrival = 1"), "options.immortal_arrival"),
    ("ik_mystic_steadfast", option(IMMORTAL, 'mystic_steadfast = "maybe"'), "options.mystic_steadfast"),
    ("ik_exile_scope", option(IMMORTAL, 'exile_scope = "hand"'), "options.exile_scope"),
    ("ik_exile_counts", option(IMMORTAL, "exile_counts = 1"), "options.exile_counts"),
    ("ik_stranger_immune", option(IMMORTAL, 'stranger_immune = "always"'), "options.stranger_immune"),
    ("ik_mystic_royalty", option(IMMORTAL, 'mystic_royalty = "gone"'), "options.mystic_royalty"),
    ("ik_army_mulligans", option(IMMORTAL.replace('"immortal_step"', '"army_step"'), 'mulligans = "always"'),
     "options.mulligans"),
    ("ik_rollouts_fraction", seat0(IK, "search", "rollouts = 2.5", "greedy", 2), "seats[0].params.rollouts"),
    ("ik_rollouts_zero", seat0(IK, "search", "rollouts = 0", "greedy", 2), "seats[0].params.rollouts"),
    ("ik_inner_code", seat0(IK, "search", "inner = 3", "greedy", 2), "seats[0].params.inner"),
    ("ik_weight_nan", seat0(IK, "heuristic", "block = nan", "greedy", 2), "seats[0].params.block"),
    ("ik_random_muster_above_one", seat0(IK, "random", "muster = 1.5", "greedy", 2), "seats[0].params.muster"),
    ("ik_max_length", "max_length = 1000\n" + IK, "max_length"),
    ("ik_other_games_quantity", sub(IK, '"first_player_win"', '"win_rate"'), "claims[0].quantity"),
    ("ik_where_policy", sub(IK, 'quantity = "first_player_win"', 'quantity = "win"\nwhere = { policy = "nobody" }'),
     "claims[0].where.policy"),
    ("ik_unknown_table", IK + "\n[deck]\nsize = 3\n", "deck"),
    # ---- DETHRONED
    ("det_window_nan", sub(DET, 'symbols = "default"', "window_seconds = nan"), "options.window_seconds"),
    ("det_window_inf", sub(DET, 'symbols = "default"', "window_seconds = inf"), "options.window_seconds"),
    ("det_count_1e300", sub(DET, 'symbols = "default"', "count_seconds = 1e300"), "options.count_seconds"),
    ("det_window_negative", sub(DET, 'symbols = "default"', "window_seconds = -1"), "options.window_seconds"),
    ("det_impasse_zero", sub(DET, 'symbols = "default"', "impasse_rounds = 0"), "options.impasse_rounds"),
    ("det_symbols", sub(DET, 'symbols = "default"', 'symbols = "neon"'), "options.symbols"),
    ("det_roles_missing", sub(DET, 'roles = ["Fool", "King", "Assassin"]\n', ""), "roles"),
    ("det_roles_count", sub(DET, '["Fool", "King", "Assassin"]', '["Fool", "King"]'), "roles"),
    ("det_role_unknown", sub(DET, '"King", "Assassin"]', '"Wizard", "Assassin"]'), "roles[1]"),
    ("det_players", sub(sub(DET, "players = 3", "players = 2"), '"Fool", "King", "Assassin"', '"Fool", "King"'),
     "players"),
    ("det_custom_min_dead_huge", sub(DET, '"Assassin"]', '"Shifter"]') +
     f'\n[[custom_roles]]\nname = "Shifter"\nmin_dead = {10**30}\n', "custom_roles[0].min_dead"),
    ("det_custom_unknown_key", sub(DET, '"Assassin"]', '"Shifter"]') +
     '\n[[custom_roles]]\nname = "Shifter"\ncolour = "red"\n', "custom_roles[0].colour"),
    ("det_custom_nameless", DET + '\n[[custom_roles]]\nroyalty = true\n', "custom_roles[0].name"),
    ("det_reaction_zero", seat0(DET, "heuristic", "reaction_mean = 0", "random", 3), "seats[0].params.reaction_mean"),
    ("det_lying_above_one", seat0(DET, "heuristic", "lying = 1.5", "random", 3), "seats[0].params.lying"),
    ("det_where_role", sub(DET, 'by = "role"', 'by = "role"\nwhere = { role = "Wizard" }'), "claims[0].where.role"),
    # ---- Throne Arcade
    ("ta_players_seven", sub(TA, "players = 3", "players = 7"), "players"),
    ("ta_players_one", sub(TA, "players = 3", "players = 1"), "players"),
    ("ta_deck_unknown_card", sub(TA, "stacking = false", 'deck = ["gold Lord", "purple Dragon"]'), "options.deck[1]"),
    ("ta_deck_not_a_list", sub(TA, "stacking = false", 'deck = "standard"'), "options.deck"),
    ("ta_deck_too_small_for_the_table", sub(TA, "stacking = false", 'deck = ["gold Lord", "gold Hand", "gold X"]'),
     "players"),
    ("ta_deck_too_big", sub(TA, "stacking = false", "deck = [" + ", ".join(['"blue IX"'] * 63) + "]"), "options.deck"),
    ("ta_start_hand_zero", sub(TA, "stacking = false", "start_hand = 0"), "options.start_hand"),
    ("ta_start_hand_fraction", sub(TA, "stacking = false", "start_hand = 2.5"), "options.start_hand"),
    ("ta_turn_cap_zero", sub(TA, "stacking = false", "round_turn_cap = 0"), "options.round_turn_cap"),
    ("ta_option_unknown", sub(TA, "stacking = false", "stackng = true"), "options.stackng"),
    ("ta_option_type", sub(TA, "stacking = false", "stacking = 1"), "options.stacking"),
    ("ta_param_nan", seat0(TA, "heuristic", "counting = nan", "greedy", 3), "seats[0].params.counting"),
    ("ta_param_above_high", seat0(TA, "heuristic", "shed = 1000", "greedy", 3), "seats[0].params.shed"),
    ("ta_forbid_unknown_card", sub(TA, 'seats = "greedy"', '[[seats]]\npolicy = "greedy"\nforbid = ["Joker"]\n'
                                   + '[[seats]]\npolicy = "greedy"\n' * 2), "seats[0].forbid"),
    ("ta_max_length_huge", "max_length = 1000\n" + TA, "max_length"),
    ("ta_other_games_quantity", sub(TA, '"starter_loses_full"', '"win_rate"'), "claims[0].quantity"),
    # ---- Thron der Lügen (deck files: test_bad_deck_file_names_the_scenario_the_deck_and_the_entry)
    ("tdl_players_seven", sub(TDL, "players = 4", "players = 7"), "players"),
    ("tdl_players_two", sub(TDL, "players = 4", "players = 2"), "players"),
    ("tdl_deck_unknown", sub(TDL, 'deck = "default"', 'deck = "imaginary"'), "options.deck"),
    ("tdl_deck_number", sub(TDL, 'deck = "default"', "deck = 3"), "options.deck"),
    ("tdl_composition_negative", option(TDL, "composition = -1"), "options.composition"),
    ("tdl_composition_fraction", option(TDL, "composition = 2.5"), "options.composition"),
    ("tdl_composition_word", option(TDL, 'composition = "seven"'), "options.composition"),
    ("tdl_composition_with_a_deck_file", sub(TDL, 'deck = "default"', 'deck = "fae_only"\ncomposition = 3'),
     "options.composition"),
    ("tdl_split_reading", option(TDL, 'split_cards = "sideways"'), "options.split_cards"),
    ("tdl_stones_negative", option(TDL, "stones_to_win = -1"), "options.stones_to_win"),
    ("tdl_end_margin_nan", seat0(TDL, "heuristic", "end_margin = nan", "random", 4), "seats[0].params.end_margin"),
    ("tdl_max_length", "max_length = 500\n" + TDL, "max_length"),
]

DECK = """
name = "test"
[[cards]]
people = "Winter"
value = 4
copies = 23
[[intrigues]]
effect = "hide_end"
copies = 5
"""

# (id, deck file text, the entry the error line names)
BAD_DECKS = [
    ("unknown_people", sub(DECK, '"Winter"', '"Winterr"'), "cards[0].people"),
    ("unknown_kind", sub(DECK, "value = 4", 'kind = "triple"\nvalue = 4'), "cards[0].kind"),
    ("unknown_effect", sub(DECK, '"hide_end"', '"steal_stone"'), "intrigues[0].effect"),
    ("wrong_count", sub(DECK, "copies = 23", "copies = 22"), "cards"),
    ("value_too_high", sub(DECK, "value = 4", "value = 40"), "cards[0].value"),
    ("value_fraction", sub(DECK, "value = 4", "value = 4.5"), "cards[0].value"),
    ("split_without_right", sub(DECK, "value = 4", 'kind = "split"\nleft = 4'), "cards[0].right"),
    ("hide_count_zero", sub(DECK, 'effect = "hide_end"', 'effect = "hide_end"\ncount = 0'), "intrigues[0].count"),
    ("unknown_key", sub(DECK, "value = 4", "value = 4\ncolour = 1"), "cards[0].colour"),
    ("not_toml", "cards = = 3", "test_deck.toml"),
]


@pytest.mark.parametrize("deck, entry", [b[1:] for b in BAD_DECKS], ids=[b[0] for b in BAD_DECKS])
def test_bad_deck_file_names_the_scenario_the_deck_and_the_entry(tmp_path, monkeypatch, deck, entry):
    deck_file = write(tmp_path, deck, "test_deck.toml")
    scenario = write(tmp_path, sub(TDL, 'deck = "default"', f'deck = "{deck_file}"'))
    assert_refused(tmp_path, monkeypatch, ["check", scenario], [str(scenario), ": options.deck:", str(deck_file),
                                                                entry])


def test_a_negative_tolerance_names_the_kind_of_claim_it_has(tmp_path, monkeypatch):
    scenario = write(tmp_path, sub(TTT, "tolerance = 6", 'tolerance = -1\ncompare = "at_most"'))
    assert_refused(tmp_path, monkeypatch, ["check", scenario],
                   [f"{scenario}: claims[1].tolerance: an 'at_most' claim's tolerance must not be negative; got -1"])


def test_a_deck_file_edited_between_two_loads_is_read_again(tmp_path):
    deck_file = write(tmp_path, DECK, "test_deck.toml")
    assert load_deck(str(deck_file)).names[0].startswith("Winter")
    write(tmp_path, sub(DECK, "value = 4", "value = 40"), "test_deck.toml")  # the cached reading is stale now
    with pytest.raises(DeckError, match="cards\\[0\\].value"):
        load_deck(str(deck_file))


def write(tmp_path, content, name="study.toml"):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    return path


def files_under(folder):
    return sorted(p.relative_to(folder) for p in folder.rglob("*"))


def assert_refused(tmp_path, monkeypatch, args, names):
    """Exit 2, one line containing every string of ``names``, no traceback, nothing written."""
    monkeypatch.chdir(tmp_path)
    before = files_under(tmp_path)
    result = runner.invoke(app, [str(a) for a in args])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    for name in names:
        assert name in lines[0], (name, lines[0])
    assert files_under(tmp_path) == before


@pytest.mark.parametrize("content, key", [b[1:] for b in BAD_FILES], ids=[b[0] for b in BAD_FILES])
def test_bad_scenario_file_is_one_line_naming_file_and_key(tmp_path, monkeypatch, content, key):
    scenario = write(tmp_path, content)
    for command in (["run", scenario, "--out", tmp_path / "out"], ["check", scenario]):
        assert_refused(tmp_path, monkeypatch, command, [str(scenario), f": {key}:"])


# (id, command line with {ttt} for a valid Take the Throne scenario, the flag the error line names)
BAD_COMMANDS = [
    ("run_games_zero", ["run", "{ttt}", "--games", 0], "--games"),
    ("run_games_negative", ["run", "{ttt}", "--games", -3], "--games"),
    ("check_games_zero", ["check", "{ttt}", "--games", 0], "--games"),
    ("run_games_word", ["run", "{ttt}", "--games", "many"], "--games"),
    ("run_misspelt_flag", ["run", "{ttt}", "--gmaes", 5], "--gmaes"),
    ("run_seed_negative", ["run", "{ttt}", "--seed", -1], "--seed"),
    ("run_seed_2_64", ["run", "{ttt}", "--seed", 2**64], "--seed"),
    ("check_seed_2_63", ["check", "{ttt}", "--seed", 2**63], "--seed"),
    ("run_chunk_zero", ["run", "{ttt}", "--chunk", 0], "--chunk"),
    ("run_chunk_negative", ["run", "{ttt}", "--chunk", -1], "--chunk"),
    ("run_threads_zero", ["run", "{ttt}", "--threads", 0], "--threads"),
    ("check_threads_negative", ["check", "{ttt}", "--threads", -2], "--threads"),
    ("run_out_is_a_file", ["run", "{ttt}", "--out", "{ttt}"], "--out"),
    ("run_out_not_a_study", ["run", "{ttt}", "--out", "{other}"], "--out"),
    ("check_missing_file", ["check", "{dir}/nope.toml"], "nope.toml"),
    ("check_empty_folder", ["check", "{empty}"], "empty"),
    ("replay_game_huge", ["replay", "{ttt}", "--game", 10**20], "--game"),
    ("replay_game_negative", ["replay", "{ttt}", "--game", -1], "--game"),
    ("replay_game_past_the_study", ["replay", "{ttt}", "--game", 60], "--game"),
    ("replay_seed_negative", ["replay", "{ttt}", "--game", 1, "--seed", -1], "--seed"),
    ("replay_not_a_study_folder", ["replay", "{other}", "--game", 1], "other"),
    ("bench_seconds_zero", ["bench", "--seconds", 0], "--seconds"),
    ("bench_seconds_negative", ["bench", "--seconds", -1], "--seconds"),
    ("bench_seconds_nan", ["bench", "--seconds", "nan"], "--seconds"),
    ("bench_seconds_inf", ["bench", "--seconds", "inf"], "--seconds"),
    ("bench_game_unknown", ["bench", "--game", "chess"], "--game"),
    ("bench_threads_zero", ["bench", "--threads", 0], "--threads"),
    ("matrix_no_policies", ["matrix", "take_the_throne", "--policies", ""], "--policies"),
    ("matrix_unknown_policy", ["matrix", "take_the_throne", "--policies", "random,wizard"], "--policies"),
    ("matrix_games_zero", ["matrix", "take_the_throne", "--policies", "random", "-n", 0], "--games"),
    ("matrix_players", ["matrix", "take_the_throne", "--policies", "random", "--players", 9], "--players"),
    ("matrix_mode", ["matrix", "take_the_throne", "--policies", "random", "--mode", "nope"], "--mode"),
    ("matrix_seed", ["matrix", "take_the_throne", "--policies", "random", "--seed", -1], "--seed"),
    ("matrix_game_unknown", ["matrix", "chess", "--policies", "random"], "GAME"),
    ("matrix_scenario_of_another_game", ["matrix", "dethroned", "--policies", "random", "--scenario", "{ttt}"],
     "--scenario"),
    ("restrict_games_zero", ["restrict", "{ttt}", "--games", 0], "--games"),
    ("restrict_margin_negative", ["restrict", "{ttt}", "--margin", -1], "--margin"),
    ("restrict_margin_nan", ["restrict", "{ttt}", "--margin", "nan"], "--margin"),
    ("restrict_not_html", ["restrict", "{ttt}", "-o", "{dir}/restrict.txt"], "-o"),
    ("restrict_missing_file", ["restrict", "{dir}/nope.toml"], "nope.toml"),
    ("report_not_html", ["report", "{ttt}", "-o", "{dir}/report.txt"], "-o"),
    ("report_games_zero", ["report", "{ttt}", "-o", "{dir}/report.html", "--games", 0], "--games"),
    ("check_executor_unknown", ["check", "{ttt}", "--executor", "spark"], "--executor"),
    ("run_executor_unknown", ["run", "{ttt}", "--executor", "spark"], "--executor"),
    ("run_scheduler_not_an_address", ["run", "{ttt}", "--scheduler", "not an address"], "--scheduler"),
    ("check_scheduler_udp", ["check", "{ttt}", "--scheduler", "udp://127.0.0.1:8786"], "--scheduler"),
    ("report_scheduler_no_port", ["report", "{ttt}", "-o", "{dir}/r.html", "--scheduler", "tcp://"], "--scheduler"),
    ("sweep_scheduler_tls_unconfigured", ["sweep", "{ttt}", "--vary", "players=3,4", "--scheduler",
                                          "tls://127.0.0.1:1"], "--scheduler"),
    # sweeps: every cell is validated before anything plays; the line names the flag and the key
    ("sweep_unknown_option", ["sweep", "{ttt}", "--vary", "options.nope=1,2"], "--vary options.nope"),
    ("sweep_option_type", ["sweep", "{ttt}", "--vary", "options.take_back_pays=true,3"],
     "--vary options.take_back_pays"),
    ("sweep_option_choice", ["sweep", "{ttt}", "--vary", "options.contest_order=abc,abd"],
     "--vary options.contest_order"),
    ("sweep_players_impossible", ["sweep", "{ttt}", "--vary", "players=3,9"], "--vary players"),
    ("sweep_param_below_low", ["sweep", "{ttt}", "--vary", "seats.params.temperature=1,-1"],
     "--vary seats.params.temperature"),
    ("sweep_param_unknown", ["sweep", "{ttt}", "--vary", "seats.params.nonsense=1"], "--vary seats.params.nonsense"),
    ("sweep_seat_past_the_table", ["sweep", "{ttt}", "--vary", "seats[7].policy=random"], "--vary seats[7].policy"),
    ("sweep_policy_unknown", ["sweep", "{ttt}", "--vary", "seats.policy=wizard"], "--vary seats.policy"),
    ("sweep_seed_not_sweepable", ["sweep", "{ttt}", "--vary", "seed=1,2"], "--vary seed"),
    ("sweep_not_a_key", ["sweep", "{ttt}", "--vary", "claims[0].target=0.3"], "--vary claims[0].target"),
    ("sweep_no_values", ["sweep", "{ttt}", "--vary", "players"], "--vary"),
    ("sweep_nothing_to_vary", ["sweep", "{ttt}"], "sweep"),
    ("sweep_adjust_unknown", ["sweep", "{ttt}", "--vary", "players=3,4", "--adjust", "bonferroni"], "--adjust"),
    ("sweep_report_not_html", ["sweep", "{ttt}", "--vary", "players=3,4", "-o", "{dir}/r.txt"], "-o"),
    ("sweep_games_zero", ["sweep", "{ttt}", "--vary", "players=3,4", "-n", 0], "--games"),
    ("tune_range_reversed", ["tune", "{ttt}", "--target", "fair:0", "--vary", "max_length=8..1"], "--vary"),
    ("tune_range_value", ["tune", "{ttt}", "--target", "fair:0", "--vary", "seats.params.temperature=-2..1"],
     "--vary"),
    ("tune_claim_unknown", ["tune", "{ttt}", "--target", "nope", "--vary", "max_length=1..8"], "--target"),
    ("tune_group_unknown", ["tune", "{ttt}", "--target", "fair:9", "--vary", "max_length=1..8"], "--target"),
    ("tune_trials_zero", ["tune", "{ttt}", "--target", "fair:0", "--vary", "max_length=1..8", "--trials", 0],
     "--trials"),
]


@pytest.mark.parametrize("args, flag", [b[1:] for b in BAD_COMMANDS], ids=[b[0] for b in BAD_COMMANDS])
def test_bad_command_line_is_one_line_naming_the_flag(tmp_path, monkeypatch, args, flag):
    places = {"ttt": write(tmp_path, TTT), "dir": tmp_path, "other": tmp_path / "other", "empty": tmp_path / "empty"}
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("not a study")
    (tmp_path / "empty").mkdir()
    args = [str(a).format(**places) for a in args]
    assert_refused(tmp_path, monkeypatch, args, [flag])


# (id, a [sweep] table added to a valid scenario, the key the error line names)
BAD_SWEEP_TABLES = [
    ("vary_not_a_list", "[sweep]\nvary = { players = 3 }", "sweep.vary.players"),
    ("vary_bad_choice", '[sweep]\nvary = { "options.contest_order" = ["abc", "abd"] }', "sweep.vary.options.contest_order"),
    ("vary_not_a_table", "[sweep]\nvary = 3", "sweep.vary"),
    ("unknown_key", "[sweep]\nvaries = { players = [3, 4] }", "sweep.varies"),
    ("cell_bad_value", '[sweep]\ncells = [{ "options.feint_from_discard" = 2 }]', "sweep.cells[0]"),
    ("cell_label_number", '[sweep]\ncells = [{ label = 3, players = 4 }]', "sweep.cells[0].label"),
    ("no_scenario_matches", '[sweep]\nscenarios = ["nothing*.toml"]', "sweep.scenarios"),
    ("cell_label_twice", '[sweep]\ncells = [{ label = "a", players = 4 }, { label = "a", players = 5 }]',
     "sweep.cells[1]"),
]


@pytest.mark.parametrize("table, key", [b[1:] for b in BAD_SWEEP_TABLES], ids=[b[0] for b in BAD_SWEEP_TABLES])
def test_bad_sweep_table_is_one_line_naming_file_and_key(tmp_path, monkeypatch, table, key):
    scenario = write(tmp_path, TTT + "\n" + table + "\n")
    assert_refused(tmp_path, monkeypatch, ["sweep", scenario, "--out", tmp_path / "out"], [str(scenario), key])


def test_the_table_covers_every_game_and_enough_cases():
    games = {text.split('game = "')[1].split('"')[0] for _, text, _ in BAD_FILES
             if isinstance(text, str) and 'game = "' in text}
    assert games >= {"take_the_throne", "imposter_kings", "dethroned", "throne_arcade", "thron_der_luegen"}
    assert len(BAD_FILES) + len(BAD_COMMANDS) >= 80
