"""Result tables: per-game records, mergeable summaries, provenance, Parquet files."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from numba import njit

from .errors import RunError
from .game import RECORD_END, RECORD_LENGTH, RECORD_WINNERS, GameSpec

PROVENANCE_KEY = b"balance_provenance"


def win_shares(winners: np.ndarray, n_seats: int) -> np.ndarray:
    """float64[n, S] win share per seat from the winners bitmask: ties share 1/k; none -> 0."""
    bits = (winners.astype(np.int64)[:, None] >> np.arange(n_seats)) & 1
    k = bits.sum(axis=1, keepdims=True)
    return bits / np.maximum(k, 1)


@njit(cache=True, nogil=True)
def _accumulate(m, sums, sumsq, mins, maxs, win_sums, win_sumsq, end_counts, win_by_end, length_hist):
    """One pass over a record matrix (numpy would take several passes and an int64 copy)."""
    n_seats = win_sums.shape[0]
    for g in range(m.shape[0]):
        for c in range(m.shape[1]):
            v = np.int64(m[g, c])
            sums[c] += v
            sumsq[c] += v * v
            mins[c] = min(mins[c], v)
            maxs[c] = max(maxs[c], v)
        winners, end = np.int64(m[g, RECORD_WINNERS]), m[g, RECORD_END]
        end_counts[end] += 1
        length_hist[m[g, RECORD_LENGTH]] += 1
        k = 0
        for seat in range(n_seats):
            k += (winners >> seat) & 1
        for seat in range(n_seats):
            if (winners >> seat) & 1:
                win_sums[seat] += 1.0 / k
                win_sumsq[seat] += 1.0 / (k * k)
                win_by_end[end, seat] += 1.0 / k


@dataclass
class Summary:
    """Aggregates of a batch that merge by addition: all that streaming mode keeps.

    ``sums/sumsq/mins/maxs`` are per record column (``columns``); win shares are per seat, also
    split by end reason; ``length_hist[k]`` counts games of length k.
    """

    game: str
    n_seats: int
    length_name: str
    end_labels: tuple[str, ...]
    unfinished: tuple[str, ...]
    columns: tuple[str, ...]
    n_games: int = 0
    sums: np.ndarray = None
    sumsq: np.ndarray = None
    mins: np.ndarray = None
    maxs: np.ndarray = None
    win_sums: np.ndarray = None
    win_sumsq: np.ndarray = None
    end_counts: np.ndarray = None
    win_sums_by_end: np.ndarray = None
    length_hist: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))

    @classmethod
    def empty(cls, spec: GameSpec, n_seats: int) -> "Summary":
        columns = tuple(spec.record_columns(n_seats))
        c, r = len(columns), len(spec.end_reasons)
        return cls(spec.name, n_seats, spec.length_name, tuple(spec.end_reasons),
                   tuple(spec.unfinished_reasons), columns, 0,
                   np.zeros(c), np.zeros(c), np.full(c, np.iinfo(np.int64).max),
                   np.full(c, np.iinfo(np.int64).min), np.zeros(n_seats), np.zeros(n_seats),
                   np.zeros(r, np.int64), np.zeros((r, n_seats)))

    @classmethod
    def of(cls, spec: GameSpec, n_seats: int, matrix: np.ndarray) -> "Summary":
        s = cls.empty(spec, n_seats)
        if len(matrix) == 0:
            return s
        s.n_games = len(matrix)
        s.length_hist = np.zeros(int(matrix[:, RECORD_LENGTH].max()) + 1, np.int64)
        _accumulate(matrix, s.sums, s.sumsq, s.mins, s.maxs, s.win_sums, s.win_sumsq,
                    s.end_counts, s.win_sums_by_end, s.length_hist)
        return s

    def __add__(self, other: "Summary") -> "Summary":
        if (self.game, self.n_seats, self.columns) != (other.game, other.n_seats, other.columns):
            raise RunError("cannot merge summaries of different games or seat counts")
        hist = np.zeros(max(len(self.length_hist), len(other.length_hist)), np.int64)
        hist[:len(self.length_hist)] += self.length_hist
        hist[:len(other.length_hist)] += other.length_hist
        return Summary(self.game, self.n_seats, self.length_name, self.end_labels, self.unfinished,
                       self.columns, self.n_games + other.n_games, self.sums + other.sums,
                       self.sumsq + other.sumsq, np.minimum(self.mins, other.mins),
                       np.maximum(self.maxs, other.maxs), self.win_sums + other.win_sums,
                       self.win_sumsq + other.win_sumsq, self.end_counts + other.end_counts,
                       self.win_sums_by_end + other.win_sums_by_end, hist)

    def mean(self, column: str) -> float:
        return self.sums[self.columns.index(column)] / self.n_games

    def std(self, column: str) -> float:
        i = self.columns.index(column)
        mean = self.sums[i] / self.n_games
        return float(np.sqrt(max(self.sumsq[i] / self.n_games - mean * mean, 0.0)))

    @property
    def n_unfinished(self) -> int:
        return int(sum(self.end_counts[self.end_labels.index(r)] for r in self.unfinished))


def records_frame(spec: GameSpec, n_seats: int, matrix: np.ndarray, first_game: int = 0) -> pd.DataFrame:
    """The per-game table: one row per game, the cross-game columns first."""
    names = spec.record_columns(n_seats)
    m = matrix
    frame = {"game_id": np.arange(first_game, first_game + len(m), dtype=np.int64),
             "n_players": np.full(len(m), n_seats, np.int8),
             spec.length_name: m[:, RECORD_LENGTH],
             "end_reason": pd.Categorical.from_codes(m[:, RECORD_END], categories=list(spec.end_reasons))}
    shares = win_shares(m[:, RECORD_WINNERS], n_seats)
    for seat in range(n_seats):
        frame[f"win_{seat}"] = shares[:, seat]
    for i, name in enumerate(names[3:], start=3):
        frame[name] = m[:, i]
    return pd.DataFrame(frame)


@dataclass
class Results:
    """One batch: provenance, its summary, and (unless streamed) the per-game table."""

    provenance: dict
    summary: Summary
    records: pd.DataFrame | None = None

    def to_parquet(self, path: str | Path) -> Path:
        """Write the per-game table with its provenance in the file's metadata."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        if self.records is None:
            raise RunError("this batch was streamed (aggregates only); there is no per-game table to save")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        table = pa.Table.from_pandas(self.records, preserve_index=False)
        meta = dict(table.schema.metadata or {})
        meta[PROVENANCE_KEY] = json.dumps(self.provenance).encode()
        pq.write_table(table.replace_schema_metadata(meta), path)
        return path


def read_parquet(path: str | Path) -> tuple[pd.DataFrame, dict]:
    """A saved per-game table and its provenance."""
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    provenance = json.loads((table.schema.metadata or {}).get(PROVENANCE_KEY, b"{}"))
    return table.to_pandas(), provenance
