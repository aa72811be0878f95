"""Card-level tables (17lands / HSReplay metrics) from per-game records with card bitmasks.

Works for any game whose per-game records carry, for every seat, integer bitmask columns of the
cards that seat held, had in its opening hand and played (bit i = the i-th card of the game's
list), and a win share column. Metric names follow ``shared/METRICS.md``:

=============  ==============================================================================
``gih``        GIH WR: the seat's win rate in games where it held the card at some point
               (opening hand or drawn later; the union of the ``held`` and ``opening`` masks)
``oh``         OH WR: ... where the card was in the opening hand
``gd``         GD WR: ... where it was drawn after the opening hand (held, not in the opening)
``gns``        GNS WR: ... where the seat never held it
``iwd``        IWD = GIH WR - GNS WR (improvement when drawn)
``played``     Played WR: ... where the seat played the card
``play_rate``  games where it was played / games where it was held
``noh``        WR when the card was not in the opening hand (held later or never)
``oh_gain``    OH WR - NOH WR. Not a 17lands metric: when the opening deal is random, as in a
               simulation, this difference compares two randomised groups, so it is the
               unconfounded effect of starting with the card. GIH, GNS, IWD and Played WR are
               not: how long a game lasts changes what is drawn, and strategies choose what to play.
=============  ==============================================================================

Each rate comes with its Wilson interval (``<metric>_low`` / ``<metric>_high``) and the number
of games behind it (``n_<metric>``); the two differences get Newcombe's interval (the two groups
of games are disjoint, so independent). Win shares may be fractional (a draw counts 1/2 to each
side, see analysis.stats). A group with no games has NaN for its rate and interval.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import numpy as np
import pandas as pd

from sim.results import Results

from .provenance import with_provenance
from .stats import newcombe_difference, wilson_or_nan

GROUPS = ("gih", "oh", "gd", "gns", "noh", "played")


def card_table(batch: Results | pd.DataFrame, cards: Sequence[str] | Mapping[int, str],
               seats: Sequence[int] | Mapping[int, str] | None = None, *,
               win: str = "win_{seat}", held: str = "drawn_{seat}",
               opening: str | None = "opening_{seat}", played: str | None = "played_{seat}",
               provenance: dict | None = None, confidence: float = 0.95) -> pd.DataFrame:
    """Per-card, per-seat win rates: GIH, OH, GD, GNS, IWD, Played WR and play rate.

    Parameters
    ----------
    batch : Results with per-game records (``stream=False``), or the records DataFrame itself.
    cards : label of each bit of the masks: a sequence (bit i = ``cards[i]``) or a mapping
        bit -> label (only those bits are reported).
    seats : the seats to report: a sequence of seat numbers, or a mapping seat -> label (e.g.
        ``{0: "White", 1: "Black"}``); default every seat with a ``win`` column.
    win, held, opening, played : column names, with ``{seat}`` standing for the seat number.
        ``held`` is the mask of cards the seat ever held (it may or may not include the opening
        hand: the opening mask is added to it). ``opening`` / ``played`` may be None when the
        game does not record them; their metrics are then left out.
    provenance : where the records came from (default: the Results' own, or
        ``records.attrs["provenance"]``).

    Returns
    -------
    DataFrame, one row per seat x card
        seat, side (the seat's label), card, bit, n_games, win_rate (the seat's overall rate),
        then per group g in gih, oh, gd, gns, noh, played: n_g, g_wr, g_low, g_high; then iwd,
        iwd_low, iwd_high, oh_gain, oh_gain_low, oh_gain_high, play_rate, play_rate_low,
        play_rate_high. ``attrs["provenance"]`` is set.

    Raises
    ------
    KeyError if a column is missing; ValueError if the masks contradict each other (a card
    played but never held).
    """
    records, prov = _records(batch, provenance)
    labels = dict(enumerate(cards)) if not isinstance(cards, Mapping) else dict(cards)
    seat_labels = _seats(records, seats, win)
    bits = np.array(sorted(labels), np.int64)
    if bits.size == 0 or bits.min() < 0 or bits.max() > 62:
        raise ValueError(f"card bits must be 0..62, got {sorted(labels)}")

    parts = []
    for seat, side in seat_labels.items():
        share = _column(records, win, seat).astype(float)
        held_m = _masks(records, held, seat, bits)
        open_m = _masks(records, opening, seat, bits) if opening else None
        play_m = _masks(records, played, seat, bits) if played else None
        if open_m is not None:
            held_m |= open_m
        if play_m is not None and np.any(play_m & ~held_m):
            game, card = np.argwhere(play_m & ~held_m)[0]
            raise ValueError(f"seat {seat} played card {labels[bits[card]]!r} without holding it "
                             f"(record row {game}): the {played!r} and {held!r} masks disagree")
        groups = {"gih": held_m, "gns": ~held_m}
        if open_m is not None:
            groups.update(oh=open_m, gd=held_m & ~open_m, noh=~open_m)
        if play_m is not None:
            groups["played"] = play_m
        frame = pd.DataFrame({"seat": seat, "side": side, "card": [labels[b] for b in bits],
                              "bit": bits, "n_games": len(records),
                              "win_rate": share.mean() if len(records) else np.nan})
        counts, wins = {}, {}
        for name in GROUPS:
            if name not in groups:
                continue
            counts[name] = groups[name].sum(axis=0)
            wins[name] = share @ groups[name]
            low, high = wilson_or_nan(wins[name], counts[name], confidence)
            with np.errstate(divide="ignore", invalid="ignore"):
                rate = np.where(counts[name] > 0, wins[name] / counts[name], np.nan)
            frame[f"n_{name}"] = counts[name]
            frame[f"{name}_wr"], frame[f"{name}_low"], frame[f"{name}_high"] = rate, low, high
        for name, (a, b) in {"iwd": ("gih", "gns"), "oh_gain": ("oh", "noh")}.items():
            if a in counts:
                d = newcombe_difference(wins[a], counts[a], wins[b], counts[b], confidence)
                frame[name], frame[f"{name}_low"], frame[f"{name}_high"] = (
                    d["diff"], d["ci_low"], d["ci_high"])
        if "played" in counts:
            low, high = wilson_or_nan(counts["played"], counts["gih"], confidence)
            with np.errstate(divide="ignore", invalid="ignore"):
                frame["play_rate"] = np.where(counts["gih"] > 0, counts["played"] / counts["gih"],
                                              np.nan)
            frame["play_rate_low"], frame["play_rate_high"] = low, high
        parts.append(frame)
    return with_provenance(pd.concat(parts, ignore_index=True), prov)


def _records(batch, provenance) -> tuple[pd.DataFrame, dict]:
    if isinstance(batch, Results):
        if batch.records is None:
            raise ValueError("card_table needs per-game records; run simulate(..., stream=False)")
        return batch.records, dict(provenance or batch.provenance)
    if isinstance(batch, pd.DataFrame):
        return batch, dict(provenance or batch.attrs.get("provenance", {}))
    raise TypeError(f"expected sim Results or a records DataFrame, got {type(batch).__name__}")


def _seats(records: pd.DataFrame, seats, win: str) -> dict[int, str]:
    if seats is None:
        found, seat = [], 0
        while win.format(seat=seat) in records.columns:
            found.append(seat)
            seat += 1
        if not found:
            raise KeyError(f"no column {win.format(seat=0)!r}: pass seats= and win=")
        seats = found
    if isinstance(seats, Mapping):
        return {int(s): str(label) for s, label in seats.items()}
    return {int(s): f"seat {s}" for s in seats}


def _column(records: pd.DataFrame, pattern: str, seat: int) -> np.ndarray:
    name = pattern.format(seat=seat)
    if name not in records.columns:
        raise KeyError(f"no record column {name!r}; the records have {list(records.columns)}")
    return records[name].to_numpy()


def _masks(records: pd.DataFrame, pattern: str, seat: int, bits: np.ndarray) -> np.ndarray:
    """bool[n_games, n_cards]: bit ``bits[j]`` of the seat's mask in each game."""
    values = _column(records, pattern, seat).astype(np.int64)
    if np.any(values < 0):
        raise ValueError(f"column {pattern.format(seat=seat)!r} holds negative values; "
                         "card masks are non-negative bitmasks")
    return ((values[:, None] >> bits[None, :]) & 1).astype(bool)
