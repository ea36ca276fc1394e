"""Thron der Lügen: trace events as readable lines (replays and positions)."""

import numpy as np

from balance.games.thron_der_luegen import layout as L


def describe_events(trace: np.ndarray, seat_names: list[str], card_names: tuple[str, ...]) -> list[str]:
    """Readable lines for trace rows (round, event, seat, a, b, c), as a designer sees the table
    (every card face up)."""

    def card(c):
        return card_names[c] if 0 <= c < len(card_names) else "-"

    def who(s):
        return seat_names[s] if 0 <= s < len(seat_names) else "nobody"

    n = len(seat_names)

    def throne(t):
        return f"throne {t} ({who(t)} | {who((t + 1) % n)})"

    lines = []
    for rnd, ev, seat, a, b, c in trace.tolist():
        if ev == L.EV_DEAL:
            lines.append(f"Round {rnd + 1}: {who(seat)} begins")
        elif ev == L.EV_DRAW:
            lines.append(f"  {who(seat)} draws {card(a)}")
        elif ev == L.EV_SWAP:
            lines.append(f"  {who(seat)} puts {card(a)} on {throne(b)}; {card(c)} goes face up to the discards")
        elif ev == L.EV_DISCARD:
            lines.append(f"  {who(seat)} discards {card(a)}")
        elif ev == L.EV_INTRIGUE:
            lines.append(f"  {who(seat)} plays {card(a)}")
        elif ev == L.EV_THRONES_SWAPPED:
            lines.append(f"    {throne(a)} and {throne(b)} change places")
        elif ev == L.EV_PEEK:
            lines.append(f"    looks at {throne(a)}: {card(b)}")
        elif ev == L.EV_REPLACE:
            lines.append(f"    {throne(a)}: {card(b)} replaced by {card(c)} from the pile")
        elif ev == L.EV_HIDE:
            lines.append(f"    {a} End card(s) turned face down; {b} revealed")
        elif ev == L.EV_REVEAL_END:
            lines.append(f"  {who(seat)} reveals an End card ({a} of {L.N_END})")
        elif ev == L.EV_MOON_PAIR:
            lines.append(f"  {who(seat)} has both Moon 3s as throne cards: +{a} stone, the round ends")
        elif ev == L.EV_SCORE:
            lines.append(f"  {who(seat)} scores {a} (thrones {b}): +{c} stone(s)")
        elif ev == L.EV_ROUND_END:
            lines.append(f"  round over ({L.END_REASON_NAMES.get(a, '?')}); last turn: {who(seat)}")
        elif ev == L.EV_MATCH_WIN:
            lines.append(f"{who(seat)} wins the match with {a} point stones")
        elif ev == L.EV_CAP:
            lines.append(f"Stopped by the round cap after {a} rounds: no winner")
    return lines
