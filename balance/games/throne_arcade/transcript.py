"""Throne Arcade: trace events as readable lines (replays and positions)."""

import numpy as np

from balance.games.throne_arcade import layout as L

EVENT_LINES = {
    L.EV_START_CARD: "  starting card: {card}",
    L.EV_LAY: "  {who} lays {card}",
    L.EV_NAME: "  {who} names {colour}",
    L.EV_DRAW: "  {who} draws {card}",
    L.EV_PENALTY: "  {who} must draw {value}",
    L.EV_SKIPPED: "  {who} is skipped",
    L.EV_OUT: "  {who} is out of the round",
    L.EV_REVIVED: "  the orange VII brings {who} back into the round",
    L.EV_REFRESH: "  the talon is refreshed: {value} cards shuffled, the top card stays",
    L.EV_LOSE: "  {who} loses the round ({value} lost)",
    L.EV_ELIMINATED: "  {who} started the round with one card: out of the game",
}


def card_names(deck: list[str], mask: int) -> str:
    return ", ".join(deck[c] for c in range(len(deck)) if mask >> c & 1) or "nothing"


def describe_events(trace: np.ndarray, names: list[str], deck: list[str]) -> list[str]:
    """Readable lines for trace rows (round, event, seat, card, value); ``deck`` names each card."""
    lines = []
    for rnd, ev, seat, card, value in trace.tolist():
        who = names[seat] if 0 <= seat < len(names) else "nobody"
        if ev == L.EV_DEAL:
            if seat == 0:
                lines.append(f"Round {rnd + 1}")
            if value:
                lines.append(f"  {who} is dealt {card_names(deck, value)}")
        elif ev == L.EV_CAP:
            lines.append(f"  stopped by the turn cap after {value} turns: no loser, the match ends capped")
        elif ev == L.EV_WIN:
            lines.append(f"{who} is the last player in the game and wins the match after {value} rounds")
        else:
            lines.append(EVENT_LINES[ev].format(who=who, card=deck[card] if card >= 0 else "-", value=value,
                                                colour=L.COLOURS[value] if ev == L.EV_NAME else ""))
    return lines
