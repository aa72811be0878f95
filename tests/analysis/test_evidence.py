"""Issue 59, reports: strategy names stay whole in provenance lines, no interval or verdict from
a handful of games or from games a change left identical (analysis/evidence.py), and ranges
print "a to b", never "a-b"."""
import math
import re
from pathlib import Path

import pandas as pd

from analysis import interventions as I
from analysis.evidence import IDENTICAL, MIN_GAMES, TOO_FEW, unmeasured
from analysis.markdown import Doc, pct_text, pp_text
from analysis.provenance import describe, strategies_text
from analysis.skill import rung_notes, skill_changes, skill_plot, strongest_verdict
from sim.games import get_game

PARTHIAN = get_game("parthian")
BASE = PARTHIAN.rules_class(n_players=4)
ROOT = Path(__file__).resolve().parents[2]


def legion_up(i: int) -> I.Card:
    """PS-2: legion i one stronger."""
    def change(rules):
        strengths = list(rules.tunable_value("legions"))
        strengths[i] += 1
        return rules.replace(legions=tuple(strengths))
    return I.Card(f"legion {i}", "legion", {I.UP: change}, owner="victory")


# --- 1. names are whole ----------------------------------------------------------------------

def test_one_strategy_name_is_never_spelled_letter_by_letter():
    provenance = {"game": "parthian", "variant": {"n_players": 5}, "strategies": "strong",
                  "n_games": 300, "seed": 0, "version": "x"}
    line = describe(provenance)
    assert "strong at every seat" in line and "s, t, r" not in line
    assert strategies_text({"random": "random", "custom": ["a", "a", "b"]}) == \
        "random: random at every seat; custom: a x2, b"


def test_the_interactions_table_records_one_label_per_seat():
    """The source of "5 players; s, t, r, o, n, g": the card section passes a level's one
    strategy name to coalitions, whose provenance kept it as it came."""
    chosen = [(legion_up(1), I.UP), (legion_up(3), I.UP)]
    synergy, _ = I.coalitions(PARTHIAN, BASE, chosen, "cautious", 40, seed=3, metric="victory")
    assert synergy.attrs["provenance"]["strategies"] == ["cautious"] * 4
    assert "cautious x4" in describe(synergy.attrs["provenance"])


# --- 2. too few games, identical games ---------------------------------------------------------

def test_the_rule_names_its_reasons():
    assert MIN_GAMES == 30
    assert unmeasured(4) == unmeasured(4, -0.25, -0.25) == unmeasured(math.nan) == TOO_FEW
    assert unmeasured(1000, -0.25, -0.25) == unmeasured(1000, math.nan, math.nan) == IDENTICAL
    assert unmeasured(MIN_GAMES, 0.1, 0.2) is None and unmeasured(MIN_GAMES) is None


def rungs(n_games, low, high, decided=None):
    table = pd.DataFrame({"skill": ["random", "heuristic", "search 16", "search 64"],
                          "n_games": n_games, "first_seat_advantage": [(a + b) / 2 for a, b in
                                                                      zip(low, high)],
                          "first_seat_advantage_low": low, "first_seat_advantage_high": high})
    return table if decided is None else table.assign(decided=decided)


def test_a_search_rung_of_four_games_gives_no_interval_and_no_verdict():
    """A quick report's search rungs play 6 and 4 games: four games that all ended alike gave
    "-25.0% (-25.0 to -25.0)", the tightest rung, so the verdict was drawn from it."""
    table = rungs([500, 500, 6, 4], [-0.02, 0.01, -0.4, -0.25], [0.02, 0.03, 0.3, -0.25])
    assert rung_notes(table, "first_seat_advantage") == [None, None, TOO_FEW, TOO_FEW]
    verdict = strongest_verdict(table, tight=0.02)
    assert verdict.startswith("at heuristic play")    # not the 4-game rung
    # heuristic above 0, random level: a change; the rungs of 6 and 4 games have no say
    (line,) = skill_changes(table, ["first_seat_advantage"])
    assert "search" not in line
    assert strongest_verdict(rungs([10, 10, 6, 4], [0.0] * 4, [0.001] * 4)) is None


def test_the_skill_figure_draws_no_point_for_a_rung_without_evidence():
    table = rungs([500, 500, 6, 4], [-0.02, 0.01, -0.4, -0.25], [0.02, 0.03, 0.3, -0.25])
    table.attrs["provenance"] = {"game": "parthian", "seed": 0}
    (line, *_) = skill_plot(table, ["first_seat_advantage"]).axes[0].lines
    assert list(line.get_xdata()) == [0, 1]


def test_a_rung_won_by_too_few_players_gives_no_seat_verdict():
    table = rungs([500, 500, 500, 500], [-0.02, 0.01, 0.02, 0.03], [0.02, 0.03, 0.04, 0.05],
                  decided=[0.9, 0.9, 0.9, 0.02])   # 10 decided games at search 64
    table = table.assign(decided_low=table["decided"] - 0.01, decided_high=table["decided"] + 0.01)
    assert rung_notes(table, "first_seat_advantage")[3] == TOO_FEW
    assert rung_notes(table, "decided") == [None] * 4   # decided itself counts every game


def test_cells_without_evidence_say_why_instead_of_an_interval():
    assert pct_text([-0.25], [-0.25], [-0.25], [4], signed=True) == [TOO_FEW]
    assert pp_text([0.0, 0.01], [math.nan, -0.01], [math.nan, 0.03], [300, 300]) == \
        [IDENTICAL, "+1.0 (-1.0 to +3.0)"]


def test_a_card_change_that_changes_nothing_says_identical_games_and_is_not_real(tmp_path):
    same = I.Card("unchanged", "card", {"same": {}}, owner="victory")
    doc = Doc(tmp_path)
    table = I.card_section(doc, PARTHIAN, BASE, n_games=60, cards=[same], level="random")
    row = table.set_index("card").loc["unchanged"]
    assert math.isnan(row["ci_low"]) and not row["significant"]
    assert f"| unchanged | card | same | random | {IDENTICAL} |" in doc.markdown()


def test_a_card_effect_from_too_few_games_has_no_interval_and_is_not_real():
    table = I.interventions(PARTHIAN, BASE, cards=[legion_up(6)], strategies="cautious",
                            n_games=MIN_GAMES - 1, precision=None, seed=5)
    row = table.iloc[0]
    assert row["n"] < MIN_GAMES and math.isnan(row["ci_low"]) and math.isnan(row["p"])
    assert not row["significant"]
    assert pp_text(table["effect"], table["ci_low"], table["ci_high"], table["n"]) == [TOO_FEW]


# --- 3. ranges ---------------------------------------------------------------------------------

def test_a_range_reads_low_to_high_and_a_difference_is_signed():
    assert pct_text([0.452], [0.441], [0.463]) == ["45.2% (44.1 to 46.3)"]
    assert pct_text([-0.002], [-0.056], [0.052], signed=True) == ["-0.2% (-5.6 to +5.2)"]


def test_no_report_formats_a_range_with_a_dash():
    """'-5.6-5.2' reads as a subtraction: a formatted number followed by '-{' is a range
    written with a dash (file names such as f"{game}-{n}p" have no format spec)."""
    dash = re.compile(r"\{[^{}]*:[^{}]*[fg%]\}-\{")
    files = [*ROOT.glob("analysis/**/*.py"), ROOT / "cli" / "workbench.py", ROOT / "cli" / "cards.py"]
    found = [f"{path.relative_to(ROOT)}:{n}" for path in files
             for n, line in enumerate(path.read_text().splitlines(), start=1) if dash.search(line)]
    assert found == []
