"""Result tables: per-game records, mergeable summaries, provenance, Parquet files."""
from __future__ import annotations

import json
import math
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
def _accumulate(m, first_game, sums, sumsq, mins, maxs, wins, end_counts, length_hist):
    """One pass over a record matrix (numpy would take several passes and an int64 copy).

    Everything is an integer count or an int64 sum of int16 values, so a chunk's figures are
    exact: a chunk would need 8.6e9 games of the largest int16 value to overflow ``sumsq``.
    ``wins[r, end, k - 1, seat]`` counts games (with ``game_id % n_rotations == r``) that ended
    for ``end`` and that ``seat`` won together with k - 1 others.
    """
    n_rotations, n_seats = wins.shape[0], wins.shape[3]
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
        if k == 0:
            continue
        r = (first_game + g) % n_rotations
        for seat in range(n_seats):
            if (winners >> seat) & 1:
                wins[r, end, k - 1, seat] += 1


def _exact(values) -> np.ndarray:
    """An object array of Python ints: sums that can never overflow, however many merges."""
    return np.array([int(v) for v in np.ravel(values)], dtype=object).reshape(np.shape(values))


@dataclass
class Summary:
    """Aggregates of a batch that merge by addition: all that streaming mode keeps.

    Every aggregate is exact, however many games are merged:

    - ``column_sums`` / ``column_squares`` (per record column, ``columns``) are Python ints
      (an object array), so they never overflow and never round;
    - ``win_counts[r, end, k - 1, seat]`` counts the games that ``seat`` won together with
      k - 1 others (a shared win is worth 1/k), split by end reason and, for rotated-seat
      batches, by rotation r = game_id mod N; ``end_counts`` and ``length_hist`` count games.
      These are int64 counts, bounded by the number of games (limit 9.2e18 games).

    The float figures the tables read (``sums``, ``sumsq``, ``win_sums``, ``win_sumsq``,
    ``win_sums_by_end``) are derived from the exact ones on demand, rounded once.
    """

    game: str
    n_seats: int
    length_name: str
    end_labels: tuple[str, ...]
    unfinished: tuple[str, ...]
    columns: tuple[str, ...]
    n_games: int = 0
    column_sums: np.ndarray = None
    column_squares: np.ndarray = None
    mins: np.ndarray = None
    maxs: np.ndarray = None
    win_counts: np.ndarray = None
    end_counts: np.ndarray = None
    length_hist: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    rotated: bool = False
    rotation_games: np.ndarray = None   # int64[N]: games per rotation g mod N (rotated batches)

    @classmethod
    def empty(cls, spec: GameSpec, n_seats: int, rotated: bool = False) -> "Summary":
        columns = tuple(spec.record_columns(n_seats))
        c, r = len(columns), len(spec.end_reasons)
        n_rotations = n_seats if rotated else 1
        return cls(spec.name, n_seats, spec.length_name, tuple(spec.end_reasons),
                   tuple(spec.unfinished_reasons), columns, 0, _exact(np.zeros(c, np.int64)),
                   _exact(np.zeros(c, np.int64)), np.full(c, np.iinfo(np.int64).max),
                   np.full(c, np.iinfo(np.int64).min),
                   np.zeros((n_rotations, r, n_seats, n_seats), np.int64), np.zeros(r, np.int64),
                   rotated=bool(rotated), rotation_games=np.zeros(n_rotations, np.int64))

    @classmethod
    def of(cls, spec: GameSpec, n_seats: int, matrix: np.ndarray, first_game: int = 0,
           rotated: bool = False) -> "Summary":
        """The summary of a record matrix whose first row is game ``first_game`` of the batch."""
        s = cls.empty(spec, n_seats, rotated)
        if len(matrix) == 0:
            return s
        s.n_games = len(matrix)
        s.length_hist = np.zeros(int(matrix[:, RECORD_LENGTH].max()) + 1, np.int64)
        sums, sumsq = np.zeros(len(s.columns), np.int64), np.zeros(len(s.columns), np.int64)
        _accumulate(matrix, np.int64(first_game), sums, sumsq, s.mins, s.maxs, s.win_counts,
                    s.end_counts, s.length_hist)
        s.column_sums, s.column_squares = _exact(sums), _exact(sumsq)
        n_rotations = len(s.rotation_games)
        s.rotation_games = np.bincount((first_game + np.arange(len(matrix))) % n_rotations,
                                       minlength=n_rotations).astype(np.int64)
        return s

    def __add__(self, other: "Summary") -> "Summary":
        if (self.game, self.n_seats, self.columns) != (other.game, other.n_seats, other.columns):
            raise RunError("cannot merge summaries of different games or seat counts")
        if self.rotated != other.rotated:
            raise RunError("cannot merge a rotated-seat summary with a fixed-seat one")
        hist = np.zeros(max(len(self.length_hist), len(other.length_hist)), np.int64)
        hist[:len(self.length_hist)] += self.length_hist
        hist[:len(other.length_hist)] += other.length_hist
        return Summary(self.game, self.n_seats, self.length_name, self.end_labels, self.unfinished,
                       self.columns, int(self.n_games) + int(other.n_games),
                       self.column_sums + other.column_sums,
                       self.column_squares + other.column_squares,
                       np.minimum(self.mins, other.mins), np.maximum(self.maxs, other.maxs),
                       _checked_sum(self.win_counts, other.win_counts),
                       _checked_sum(self.end_counts, other.end_counts), _checked_sum(hist, 0),
                       self.rotated, _checked_sum(self.rotation_games, other.rotation_games))

    # Derived float figures (what the tables read) ---------------------------------------------

    @property
    def sums(self) -> np.ndarray:
        return self.column_sums.astype(float)

    @property
    def sumsq(self) -> np.ndarray:
        return self.column_squares.astype(float)

    def _shares(self, counts: np.ndarray, power: int = 1) -> np.ndarray:
        """sum over k of counts[..., k - 1, seat] / k**power, exactly, then rounded once."""
        k = np.arange(1, self.n_seats + 1)
        scale = math.lcm(*(int(v) ** power for v in k))
        weights = np.array([scale // int(v) ** power for v in k], dtype=object)
        scaled = (counts.astype(object) * weights[:, None]).sum(axis=-2)
        return (scaled / scale).astype(float)

    @property
    def win_sums(self) -> np.ndarray:
        """float64[S]: each seat's wins, a shared win counting 1/k."""
        return self._shares(self.win_counts.sum(axis=(0, 1)))

    @property
    def win_sumsq(self) -> np.ndarray:
        return self._shares(self.win_counts.sum(axis=(0, 1)), power=2)

    @property
    def win_sums_by_end(self) -> np.ndarray:
        """float64[R, S]: win shares split by end reason."""
        return self._shares(self.win_counts.sum(axis=0))

    @property
    def win_sums_by_rotation(self) -> np.ndarray:
        """float64[N, S]: seat win shares in the games of each rotation (rotated batches)."""
        return self._shares(self.win_counts.sum(axis=1))

    @property
    def slot_win_sums(self) -> np.ndarray:
        """float64[S]: win shares of each strategy slot (position in the strategy list).

        Without rotation slot s is seat s. With rotation, seat s of a game with rotation r
        plays slot (s + r) mod N.
        """
        if not self.rotated:
            return self.win_sums
        by_rotation, n = self.win_sums_by_rotation, self.n_seats
        return np.array([sum(by_rotation[r, (j - r) % n] for r in range(n)) for j in range(n)])

    @property
    def n_decided(self) -> int:
        """Games somebody won (exact): a game with k winners appears k times in win_counts."""
        per_k = self.win_counts.sum(axis=(0, 1, 3)).astype(object)
        return int(sum(count // (k + 1) for k, count in enumerate(per_k)))

    def mean(self, column: str) -> float:
        return int(self.column_sums[self.columns.index(column)]) / int(self.n_games)

    def std(self, column: str) -> float:
        """Population sd, from the exact sums (no cancellation)."""
        i, n = self.columns.index(column), int(self.n_games)
        total, squares = int(self.column_sums[i]), int(self.column_squares[i])
        return math.sqrt((n * squares - total * total) / (n * n))

    @property
    def n_unfinished(self) -> int:
        return int(sum(self.end_counts[self.end_labels.index(r)] for r in self.unfinished))

    # Plain-data form (JSON-safe, exact) for checkpoints -----------------------------------------

    def to_dict(self) -> dict:
        return {"game": self.game, "n_seats": self.n_seats, "length_name": self.length_name,
                "end_labels": list(self.end_labels), "unfinished": list(self.unfinished),
                "columns": list(self.columns), "n_games": int(self.n_games),
                "column_sums": [int(v) for v in self.column_sums],
                "column_squares": [int(v) for v in self.column_squares],
                "mins": self.mins.tolist(), "maxs": self.maxs.tolist(),
                "win_counts": self.win_counts.tolist(), "end_counts": self.end_counts.tolist(),
                "length_hist": self.length_hist.tolist(), "rotated": self.rotated,
                "rotation_games": self.rotation_games.tolist()}

    @classmethod
    def from_dict(cls, d: dict) -> "Summary":
        return cls(d["game"], int(d["n_seats"]), d["length_name"], tuple(d["end_labels"]),
                   tuple(d["unfinished"]), tuple(d["columns"]), int(d["n_games"]),
                   _exact(d["column_sums"]), _exact(d["column_squares"]),
                   np.array(d["mins"], np.int64), np.array(d["maxs"], np.int64),
                   np.array(d["win_counts"], np.int64).reshape(-1, len(d["end_labels"]),
                                                               d["n_seats"], d["n_seats"]),
                   np.array(d["end_counts"], np.int64), np.array(d["length_hist"], np.int64),
                   bool(d["rotated"]), np.array(d["rotation_games"], np.int64))


def _checked_sum(a, b) -> np.ndarray:
    """a + b for int64 counts, refusing (never wrapping) past 2^63 - 1."""
    total = np.asarray(a, np.int64) + np.asarray(b, np.int64)
    if np.any(total < 0):
        raise RunError("a game count passed 2^63 - 1 (9.2e18 games); merge fewer summaries")
    return total


def records_frame(spec: GameSpec, n_seats: int, matrix: np.ndarray, first_game: int = 0,
                  rotated_labels: tuple[str, ...] | None = None) -> pd.DataFrame:
    """The per-game table: one row per game, the cross-game columns first.

    For a rotated-seat batch (``rotated_labels``: the strategy list as given), game g seats
    strategy (s + g) mod N at seat s: the table then says so in ``rotation`` (g mod N) and in
    ``strategy_<seat>`` (the label playing that seat in that game).
    """
    names = spec.record_columns(n_seats)
    m = matrix
    game_id = np.arange(first_game, first_game + len(m), dtype=np.int64)
    frame = {"game_id": game_id, "n_players": np.full(len(m), n_seats, np.int8)}
    if rotated_labels is not None:
        rotation = (game_id % n_seats).astype(np.int8)
        categories = list(dict.fromkeys(rotated_labels))
        codes = np.array([categories.index(label) for label in rotated_labels])
        frame["rotation"] = rotation
        for seat in range(n_seats):
            frame[f"strategy_{seat}"] = pd.Categorical.from_codes(
                codes[(seat + rotation) % n_seats], categories=categories)
    frame[spec.length_name] = m[:, RECORD_LENGTH]
    frame["end_reason"] = pd.Categorical.from_codes(m[:, RECORD_END], categories=list(spec.end_reasons))
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
