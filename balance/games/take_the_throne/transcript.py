"""Take the Throne: trace events as readable lines (transcripts of replays and positions)."""

import numpy as np

from balance.games.take_the_throne import layout as L

# How each trace event reads. Fields: who (the event's seat), card, other_card and other_seat (the
# event's "other" entry read as a card or a seat), value, signed (value with its sign), and
# discard_reason / vp_reason / shown (what "value" or "other" encode for those events).
EVENT_LINES = {
    L.EV_SELECT: "  {who} selects {card}",
    L.EV_REVEAL: "  {who} reveals {card}{shown}",
    L.EV_DISCARD: "  {who}'s {card} is discarded ({discard_reason})",
    L.EV_REPLACE: "  {who} replaces {other_card} with {card}",
    L.EV_VIEW: "  {other_seat} looks at {who}'s card: {card}",
    L.EV_AMBUSH: "  {who}'s Ambush springs",
    L.EV_FEINT: "  {who} feints and adds {card}",
    L.EV_VP: "  {who} {signed} VP ({vp_reason})",
    L.EV_TAKE: "  {who} takes the throne",
    L.EV_RETAIN: "  {who} retains the throne",
    L.EV_TAKE_BACK: "  nobody takes the throne: {who} takes it back (Abdicate)",
    L.EV_PICKUP: "  {who} picks up their discard pile",
    L.EV_SWAP: "  {who} takes the crown cards; {other_seat} takes their house cards",
    L.EV_REINFORCE: "  {who} reinforces: all discarded cards return to hand",
}


def describe_events(trace: np.ndarray, names: list[str], vp: list[int]) -> list[str]:
    """Readable lines for trace rows (round, event, seat, card, other, value); ``vp`` holds the
    VP before the first event and is kept up to date, to show the score after each round."""

    def card(c):
        return L.CARD_NAMES[c] if 0 <= c < L.N_CARDS else "-"

    def seat_name(s):
        return names[s] if 0 <= s < len(names) else "nobody"

    def score():
        return "  VP after the round: " + ", ".join(f"{names[s]} {v}" for s, v in enumerate(vp))

    lines = []
    for rnd, ev, seat, c, other, value in trace.tolist():
        who = seat_name(seat)
        if ev == L.EV_ROUND:
            lines += [score()] if lines else []
            lines.append(f"Round {rnd + 1}: {who} is Monarch")
        elif ev == L.EV_WIN:
            lines += [score(), f"{who} wins on the throne with {value} VP"]
        elif ev == L.EV_CAP:
            lines += [score(), f"Stopped by the round cap after {value} rounds: no winner"]
        else:
            if ev == L.EV_VP:
                vp[seat] += value
            lines.append(EVENT_LINES[ev].format(
                who=who, card=card(c), other_card=card(other), other_seat=seat_name(other), value=value,
                signed=f"{'+' if value >= 0 else ''}{value}",
                discard_reason=L.DISCARD_REASONS[value] if ev == L.EV_DISCARD else "",
                vp_reason=L.VP_REASONS[other] if ev == L.EV_VP else "",
                shown=" (shown by Raid)" if ev == L.EV_REVEAL and other == L.RAID else ""))
    if len(trace) and trace[-1, 1] not in (L.EV_WIN, L.EV_CAP):
        lines.append(score())
    return lines
