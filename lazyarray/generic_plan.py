"""A size-generic plan: one plan per generic signature, concrete programs per size inside it.

The passes ran once, on the probe graph (graph/generic.py). A run reads the sizes off its array
arguments; a size seen recently runs its concrete plan at once. A new size substitutes the sizes
into the probe's fused program, plans memory for them (buffer reuse depends on sizes) and hands the
program to the backend, whose kernels are already compiled: their code depends only on the size
pattern (docs/c_backend.md), so the backend finds them in memory. No pass runs again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from .graph.generic import substitute_program
from .graph.kernel_ir import Program
from .passes.plan_memory import plan_memory

MAX_SIZES = 64  # concrete plans kept per generic plan (each keeps its workspace; bytes bounded too)


class GenericPlan:
    """`run(arrays, scalars)` like any plan; `instances` counts the concrete plans made."""

    def __init__(self, template: Program, size_sources: Sequence[tuple[int, int]],
                 compile_program: Callable[[Program], Any], max_sizes: int = MAX_SIZES) -> None:
        self.template = template  # fused, not memory-planned, sizes are probe primes
        self.size_sources = tuple(size_sources)
        self.compile_program = compile_program
        self.max_sizes = max_sizes
        self.max_bytes: int | None = None  # the plan cache's byte bound (set when it stores us)
        self.on_change: Callable[[], None] | None = None  # tells the plan cache our bytes moved
        self.instances = self.evictions = 0
        self._plans: OrderedDict[tuple[int, ...], Any] = OrderedDict()
        self._last: tuple[Any, Any] = (None, None)  # (sizes, plan) of the last run: the hit path
        self.sizes_of = _sizes_reader(self.size_sources)
        self._lock = threading.Lock()

    @property
    def workspace_bytes(self) -> int:
        with self._lock:
            return self._bytes()

    def keep_no_workspace(self) -> None:
        """The plan cache found us past its byte bound: each concrete plan whose workspace alone
        exceeds it frees that workspace after its runs (CPlan.keep_no_workspace); later sizes'
        plans are checked as they are built (`plan_for`)."""
        with self._lock:
            for plan in self._plans.values():
                if (hasattr(plan, "keep_no_workspace") and self.max_bytes is not None
                        and int(getattr(plan, "workspace_bytes", 0)) > self.max_bytes):
                    plan.keep_no_workspace()

    def plan_for(self, sizes: tuple[int, ...]) -> Any:
        with self._lock:
            plan = self._plans.get(sizes)
            if plan is not None:
                self._plans.move_to_end(sizes)
                return plan
        plan = self.compile_program(plan_memory(substitute_program(self.template, sizes)))
        if (self.max_bytes is not None and hasattr(plan, "keep_no_workspace")
                and int(getattr(plan, "workspace_bytes", 0)) > self.max_bytes):
            plan.keep_no_workspace()  # as the plan cache does for an exact plan (plan_cache.py)
        with self._lock:
            self.instances += 1
            self._plans[sizes] = plan
            while len(self._plans) > self.max_sizes or (
                    len(self._plans) > 1 and self.max_bytes is not None
                    and self._bytes() > self.max_bytes):
                self._plans.popitem(last=False)  # its workspace goes with it
                self.evictions += 1
            self._last = (None, None)  # may name an evicted plan
        if self.on_change is not None:
            self.on_change()
        return plan

    def _bytes(self) -> int:
        return sum(int(getattr(p, "workspace_bytes", 0)) for p in self._plans.values())

    @property
    def program(self) -> Program:
        """The most recently used concrete program (la.explain, tests)."""
        with self._lock:
            last = next(reversed(self._plans.values()), None)
        return last.program if last is not None else self.template

    def concrete(self, arrays: Sequence[Any]) -> Any:
        """The plan for these arguments' sizes: `la.jit` keys calls by exact shapes, so a trace
        runs it directly (and keeps it, as it keeps an exact plan)."""
        return self.plan_for(self.sizes_of(arrays))

    def run(self, arrays: Sequence[Any], scalars: Sequence[Any]) -> list[Any]:
        """Every cached evaluation of a size-generic graph passes here: a repeated size costs
        reading the sizes and one tuple comparison."""
        sizes = self.sizes_of(arrays)
        last = self._last
        if last[0] == sizes:
            return last[1].run(arrays, scalars)
        plan = self.plan_for(sizes)
        self._last = (sizes, plan)
        return plan.run(arrays, scalars)


def _sizes_reader(size_sources: tuple[tuple[int, int], ...]
                  ) -> Callable[[Sequence[Any]], tuple]:
    """`lambda arrays: (arrays[k].shape[axis], ...)` for these sources, as one expression: a
    comprehension is a function call of its own on every run (Python < 3.12)."""
    items = "".join(f"arrays[{int(k)}].shape[{int(axis)}], " for k, axis in size_sources)
    return eval(f"lambda arrays: ({items})")  # ints only: no other text reaches eval
