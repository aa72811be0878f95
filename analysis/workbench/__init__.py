"""The designer's workbench: sweep, ablate, sensitivity, tune, compare, and adaptive sample sizes.

Every command reads the game's declared tunable parameters (sim.variant: ``tune=Tunable(...)``)
and its headline metrics (analysis.workbench.metrics), so every registered game gets it. Each
function returns DataFrames with ``df.attrs["provenance"]``; ``balance sweep|ablate|sensitivity|
tune|compare`` (cli.workbench) are thin wrappers. docs/workbench.md walks through them.
"""
from .ablate import ablate, ablation_section, paired_effects, tornado
from .compare import SPRT, Comparison, compare, plan
from .metrics import headline, metric_names, per_game, primary_metric
from .precision import simulate_precise
from .sensitivity import sensitivity, sensitivity_figure
from .specs import WorkbenchError
from .sweep import sweep, sweep_figure
from .tune import TuneResult, tune, tuned_section

__all__ = ["ablate", "ablation_section", "compare", "Comparison", "headline", "metric_names",
           "paired_effects", "per_game", "plan", "primary_metric", "sensitivity",
           "sensitivity_figure", "simulate_precise", "SPRT", "sweep", "sweep_figure", "tornado",
           "tune", "tuned_section", "TuneResult", "WorkbenchError"]
