"""The strong level in a variant: the field fitted to it, or the nearest field and how far it
transfers.

A strong field is fitted to one variant (sim/field.py): its rules and player count. ``-s
strong`` seats the field built for the variant being played where there is one (shipped, or
fitted on this machine by ``balance field GAME -o KEY=VALUE --from strong`` and stored under the
variant's content hash, sim.field.fitted_path), else the nearest one: the most specific shipped
field whose options the variant shares. A field fitted elsewhere can be far from this variant's
equilibrium (Sunzi's basic field loses in advanced games), so where it is not the variant's own,
a short best-response search in this variant measures its transfer: how much of the games a
response fitted here wins against it. The measure is stored under the variant's and the field's
hashes, so each is measured once per machine, and every front end states it beside a strong
verdict (:func:`strong_fit`, :meth:`StrongFit.line`).
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

from sim import __version__
from sim import field as F
from sim.errors import StrategyError
from sim.games import get_game
from sim.runner import as_rules

# The short search of a transfer check: a fifth of the exploitability measure's generations,
# two-thirds of its games, from every start the game's field recipe names (its styles too: a
# search from the start weights alone misses the lines that beat Sunzi's fields).
TRANSFER_GENERATIONS, TRANSFER_GAMES, TRANSFER_CHECK_GAMES = 12, 200, 2000
TRANSFER_SEED = 5


@dataclass(frozen=True)
class StrongFit:
    """Which field ``-s strong`` seats in a variant, and whether it was fitted to it."""
    game: str
    n_players: int
    field: str                  # the field file
    own: bool                   # fitted to this very variant
    fitted_to: dict             # the options the field was built with that differ from defaults
    differs: dict               # option -> [the field's value, this variant's]
    transfer: dict | None       # the measured transfer (measure_transfer), where not own
    variant: dict               # this variant: its options that differ from the defaults

    def line(self) -> str:
        """One sentence for beside a strong verdict."""
        name = Path(self.field).name
        if self.own:
            return f"Strong play: the field fitted to this variant ({name})."
        built = self.fitted_text()
        changed = ", ".join(f"{k}={_typed(here)}" for k, (_, here) in self.differs.items())
        head = (f"Strong play: the field fitted to {built} ({name}), not to this variant "
                f"({changed})")
        fit = f"`balance field {self.game}{self.options()} --from strong` fits one"
        if not self.transfer:
            return (f"{head}; its transfer here is not measured (`balance field {self.game}"
                    f"{self.options()} --transfer` measures it); {fit}.")
        t = self.transfer
        return (f"{head}. Its transfer, measured here: a best response searched in this variant "
                f"({t['oracle']}) wins {t['share']:.1%} ({t['low']:.1%} to {t['high']:.1%}) of "
                f"{t['decided']:,} fresh decided games against it; {fit}.")

    def fitted_text(self) -> str:
        """The rules the field was fitted to: its options that differ from the defaults."""
        return ", ".join(f"{k}={_typed(v)}" for k, v in self.fitted_to.items()) or \
            "the default rules"

    def options(self) -> str:
        """The variant as the command line gives it (``--players N``, ``-o KEY=VALUE``)."""
        count = get_game(self.game).rules_class().player_option()
        return "".join(f" --players {value}" if k == count else f" -o {k}={_typed(value)}"
                       for k, value in self.variant.items())

    def as_dict(self) -> dict:
        return asdict(self)


def _typed(value) -> str:
    """An option's value as ``-o`` takes it (true, 1,2,3)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_typed(v) for v in value)
    return str(value)


def seats_strong(name) -> bool:
    """Whether a seat or level name plays the shipped strong field (strong, broad, or a search
    rolling out one of them; not strong:FILE, a field the user chose)."""
    text = str(name)
    return text in ("strong", "broad") or any(f"rollout={f}" in text and f"rollout={f}:" not in
                                              text for f in ("strong", "broad"))


def strong_fit(game, rules=None, measure: bool = False, jobs: int = 1,
               progress: bool | None = None) -> StrongFit | None:
    """The field ``-s strong`` seats in this variant and whether it is the variant's own; where
    it is not, its stored transfer, measured now (and stored) with ``measure``. None where the
    game has no strong field at this player count."""
    spec = get_game(game)
    rules = as_rules(spec, rules)
    path = F.shipped_path(spec, rules.n_seats, rules)
    if path is None:
        return None
    here = F.as_json(rules.to_dict())
    built = F.as_json(json.loads(Path(path).read_text(encoding="utf-8")).get("variant") or {})
    differs = {k: [built[k], v] for k, v in here.items() if k in built and built[k] != v}
    transfer = None
    if differs:
        transfer = stored_transfer(spec, rules, path)
        if transfer is None and measure:
            transfer = measure_transfer(spec.name, rules, jobs=jobs, progress=progress)
    return StrongFit(spec.name, int(rules.n_seats), str(path), not differs,
                     F.variant_of(spec, path), differs, transfer, F.variant_of_rules(spec, rules))


def transfer_path(spec, rules, field_path) -> Path:
    """Where a field's measured transfer to a variant is stored: keyed by the variant's content
    hash and the field file's."""
    digest = hashlib.sha256(Path(field_path).read_bytes()).hexdigest()[:12]
    return F.fitted_folder() / (f"{spec.name}-{rules.n_seats}p.v{F.variant_key(spec, rules)}"
                                f".from-{digest}.transfer.json")


def stored_transfer(spec, rules, field_path) -> dict | None:
    path = transfer_path(spec, rules, field_path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def measure_transfer(game, rules, jobs: int = 1, progress: bool | None = None) -> dict:
    """The nearest field's transfer to this variant: the best response a short search
    (TRANSFER_GENERATIONS x TRANSFER_GAMES from the recipe's oracle starts) finds here,
    re-measured on TRANSFER_CHECK_GAMES fresh games; stored (transfer_path) and returned."""
    from .field import ORACLE_STARTS, field_recipe, measure_field

    spec = get_game(game)
    rules = as_rules(spec, rules)
    starts = tuple((field_recipe(spec.name, rules.n_seats, rules) or {}).get(
        "oracle_starts", ORACLE_STARTS))
    path = F.shipped_path(spec, rules.n_seats, rules)
    if path is None:
        raise StrategyError(f"no strong {spec.title} field at {rules.n_seats} players")
    row = measure_field(spec.name, rules, path, oracle_generations=TRANSFER_GENERATIONS,
                        oracle_games=TRANSFER_GAMES, check_games=TRANSFER_CHECK_GAMES,
                        seed=TRANSFER_SEED, jobs=jobs, progress=progress,
                        oracle_starts=starts)
    record = {"share": row["best_response_share"], "field_share": row["field_share"],
              **{k: row[k] for k in ("low", "high", "decided", "games", "oracle", "seed",
                                     "undecided")},
              "field": Path(path).name, "variant": F.as_json(rules.to_dict()),
              "n_players": int(rules.n_seats), "version": __version__}
    out = transfer_path(spec, rules, path)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    except OSError:
        pass   # a read-only home: measured and stated, just not kept
    return record
