"""Graph → graph rewrites and the fusion and memory planners. Import graph/ only."""

from .fuse import FusionPlan, plan_fusion, recompute_cost_rule
from .pipeline import STAGES, optimize, optimize_until
from .plan_memory import plan_memory

__all__ = [
           "STAGES",
           "FusionPlan",
           "optimize",
           "optimize_until",
           "plan_fusion",
           "plan_memory",
           "recompute_cost_rule",
]
