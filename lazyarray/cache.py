"""Plan caching for evaluation, and what users see of it: `la.cache_info()`, `la.clear_caches()`,
compile logging (`la.config(log_compiles=True)` or `LAZYARRAY_LOG_COMPILES=1`).

Every evaluation takes the graph signature of its outputs (one walk that also collects the leaves),
looks the plan up, and on a hit only binds the leaves and runs: no pass, no compiler. A miss builds
the plan through the evaluation layer's `build_plan`, stores it, and (when logging) says which user
line caused it, how long it took, what it compiled, and what differs from the nearest cached plan.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from collections import OrderedDict
from dataclasses import replace
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, Field

from .graph import get_op, Graph, Node, node
from .graph.node import _compiled, format_site, user_site
from .graph.generic import generic_signature
from .graph.signature import graph_signature
from .generic_plan import GenericPlan
from .runtime.backend import DATA_ERRORS, CopyStats
from .runtime.plan_cache import PlanCache
from . import donation, fp_errors, nan_debug
from .runtime.fp_status import clear as fp_clear, test as fp_test
from .settings import get_settings
from . import _bind
from .runtime.evaluate import ReferencePlan, split_leaves

try:  # the C backend's compile counters and forbid switch (absent until that backend lands)
    from .runtime import compile_stats as _compile_stats
except ImportError:  # pragma: no cover - depends on which branches have landed
    _compile_stats = None
try:
    from .runtime.c import background as _c_background
except ImportError:  # pragma: no cover
    _c_background = None
try:
    from .runtime.c.tiered import TieredPlan as _TieredPlan
except ImportError:  # pragma: no cover
    _TieredPlan = None
try:  # a C plan that graph/_node.c can launch itself
    from .runtime.c.launch import direct_spec as _direct_spec
except ImportError:  # pragma: no cover
    def _direct_spec(plan: Any) -> Any:
        return None

logger = logging.getLogger("lazyarray")
_INPUT = get_op("input")
plan_cache = PlanCache(get_settings().plan_cache_size, get_settings().plan_cache_bytes)


class _Counters:
    jit_traces = jit_hits = graph_cuts = 0


counters = _Counters()
class _ThreadState(threading.local):
    """Per thread: `busy` (evaluating or tracing: no budget cuts inside) and `stand_ins` (la.jit is
    tracing). Class-level defaults: `getattr(local, name, default)` on a name never set raises and
    catches an AttributeError inside (~0.3 us on every evaluation)."""

    busy: bool = False
    stand_ins: dict[int, int] | None = None
    run_checks: list | None = None  # la.jit is tracing: what each call checks (require_fits)


_state = _ThreadState()


class CacheInfo(BaseModel):
    """Counters of every cache since the last `la.clear_caches()`."""

    plans_built: int = Field(description="plans built (plan-cache misses)")
    plan_hits: int = Field(description="evaluations that found their plan cached")
    plan_evictions: int = Field(description="plans dropped by the LRU bound (plan_cache_size)")
    plans_cached: int = Field(description="plans in the cache now")
    kernels_compiled: int = Field(description="kernels built by a compiler")
    kernel_disk_hits: int = Field(description="kernels loaded from the on-disk cache")
    kernel_memory_hits: int = Field(description="kernels found already loaded in this process")
    kernels_queued: int = Field(0, description="kernels sent to the background compiler "
                                "(la.config(background_compiles=...))")
    kernels_compiling: int = Field(0, description="kernels queued or compiling now")
    interpreted_runs: int = Field(0, description="C plan runs through the NumPy executor while "
                                  "their kernels compiled")
    quick_kernels: int = Field(0, description="kernels built quickly (-O0) to stand in while "
                               "their -O3 build compiles (runtime/c/quick.py)")
    stand_in_runs: int = Field(0, description="C plan runs through those quick kernels")
    compile_waits: int = Field(0, description="plans built waiting for the compiler")
    jit_traces: int = Field(description="times a la.jit function ran its Python body")
    jit_hits: int = Field(description="la.jit calls that skipped the Python body")
    graph_cuts: int = Field(description="pending graphs evaluated early for the node budget")
    base_copies: int = Field(0, description="updates (x[i] = v as a scatter) that copied their "
                             "base into the result first (docs/caching.md, Donation)")
    base_copy_bytes: int = Field(0, description="bytes those copies moved")
    in_place_updates: int = Field(0, description="updates written into their base's own buffer")
    inputs_donated: int = Field(0, description="dead input buffers a plan wrote its results into")
    donated_bytes: int = Field(0, description="bytes of those buffers")
    tracing: str = Field("python", exclude=True,  # not a counter: shown, not dumped
                         description="how ops are traced: 'compiled' (graph/_node.c and "
                         "lazyarray/_trace.c), 'compiled nodes' (_node.c only) or 'python' "
                         "(not built, or LAZYARRAY_PURE_PYTHON=1)")


def cache_info() -> CacheInfo:
    """lazyarray-only: plans built and reused, kernels compiled (the cache counters)."""
    kernels = _compile_stats.stats.snapshot() if _compile_stats is not None else {}
    return CacheInfo(
        plans_built=plan_cache.plans_built, plan_hits=plan_cache.plan_hits,
        plan_evictions=plan_cache.plan_evictions, plans_cached=len(plan_cache),
        kernels_compiled=kernels.get("kernels_compiled", 0),
        kernel_disk_hits=kernels.get("kernel_disk_hits", 0),
        kernel_memory_hits=kernels.get("kernel_memory_hits", 0),
        kernels_queued=kernels.get("kernels_queued", 0),
        kernels_compiling=_c_background.compiling() if _c_background is not None else 0,
        interpreted_runs=kernels.get("interpreted_runs", 0),
        quick_kernels=kernels.get("quick_kernels", 0),
        stand_in_runs=kernels.get("stand_in_runs", 0),
        compile_waits=kernels.get("compile_waits", 0),
        jit_traces=counters.jit_traces, jit_hits=counters.jit_hits, graph_cuts=counters.graph_cuts,
        base_copies=CopyStats.base_copies, base_copy_bytes=CopyStats.base_copy_bytes,
        in_place_updates=CopyStats.in_place_updates, inputs_donated=CopyStats.inputs_donated,
        donated_bytes=CopyStats.donated_bytes,
        tracing=_tracing_path(),
    )


def _tracing_path() -> str:
    if _bind.FAST is not None:
        return "compiled"
    return "compiled nodes" if node.COMPILED else "python"


CLEAR_WAIT_S = 120.0


def wait_for_compiles(timeout: float | None = None) -> bool:
    """Block until the kernels the C backend is compiling in the background are ready (plans
    built so far then run compiled); False if `timeout` seconds passed first. Evaluation never
    needs it: results are the same bits either way (docs/caching.md); tests counting compiles
    and benchmarks separating compile time do."""
    if _c_background is None:
        return True
    return _c_background.wait_for_compiles(timeout)


_clear_hooks: list[Callable[[], None]] = []  # la.jit registers its trace caches here


def clear_caches() -> None:
    """Drop every cached plan and jit trace and zero the counters (kernels on disk stay). Waits
    for background compiles first (bounded), so no counter moves after they were zeroed."""
    wait_for_compiles(CLEAR_WAIT_S)
    plan_cache.clear()
    _ALIASES.clear()
    _VARIANTS.clear()
    _TOKENS.clear()
    _HIT[0] = None  # (its generation check fails anyway: this frees the plan it names)
    for hook in _clear_hooks:
        hook()
    counters.jit_traces = counters.jit_hits = counters.graph_cuts = 0
    CopyStats.reset()
    if _compile_stats is not None:
        _compile_stats.reset()


def apply_settings(settings: Any) -> None:
    """Settings that live below the user layer: cache size, compile guard."""
    if (plan_cache.max_size, plan_cache.max_bytes) != (settings.plan_cache_size,
                                                        settings.plan_cache_bytes):
        plan_cache.resize(settings.plan_cache_size, settings.plan_cache_bytes)
    if _compile_stats is not None:
        _compile_stats.set_forbid_compiles(settings.forbid_compiles)


# How many busy/tracing blocks are open, in any thread: lazyarray/_trace.c's element reads
# computed at once (lazyarray/eager.py) check this one word, not the thread-local state.
PAUSED = [0]


class busy:
    """Marks this thread as evaluating or tracing: node-budget cuts must not start evaluations
    from inside one."""

    def __enter__(self) -> None:
        self._was = _state.busy
        _state.busy = True
        PAUSED[0] += 1

    def __exit__(self, *exc: object) -> None:
        _state.busy = self._was
        PAUSED[0] -= 1


class tracing:
    """While la.jit traces: evaluating a graph that reads a traced argument is an error (its value
    would be baked into every later call)."""

    def __init__(self, stand_ins: dict[int, int]) -> None:
        self.stand_ins = stand_ins
        self.checks: list[tuple[Any, Any, Any]] = []  # require_fits: (traced int, dtype, site)

    def __enter__(self) -> tracing:
        self._was = _state.stand_ins, _state.run_checks
        _state.stand_ins, _state.run_checks = self.stand_ins, self.checks
        PAUSED[0] += 1
        return self

    def __exit__(self, *exc: object) -> None:
        _state.stand_ins, _state.run_checks = self._was
        PAUSED[0] -= 1


def require_fits(value: Any, dtype: Any, site: Any) -> None:
    """la.jit's traced int `value` meets `dtype` where NumPy raises for a Python int the dtype
    cannot hold (`where(c, s, uint8)` on NumPy 2.5): its value is known only at a call, so the
    trace keeps the check and every call makes it (lazyarray/jit.py, before its plan runs)."""
    checks = _state.run_checks
    if checks is not None:
        checks.append((value, dtype, site))


class TracerEvaluationError(TypeError):
    """A jitted function looked at a value computed from its arguments while being traced
    (raised here and by lazyarray/traced_scalar.py; lazyarray.jit re-exports it)."""


def _check_not_traced(leaves: list[Node]) -> None:
    stand_ins = _state.stand_ins
    if stand_ins and any(id(n) in stand_ins or hasattr(n.data, "slot") for n in leaves):
        raise TracerEvaluationError(
            f"la.jit: the traced function evaluates a value computed from its arguments at "
            f"{format_site(user_site(1))}; that value would be fixed for every later call. Mark "
            "the argument static (static_argnums / static_argnames) or evaluate outside the jit")


def is_busy() -> bool:
    return _state.busy


def is_tracing() -> bool:
    """Whether la.jit is tracing a function on this thread (its arguments are stand-ins)."""
    return bool(_state.stand_ins)


BuildPlan = Callable[[Graph, Any], Any]


def lookup_plan(outputs: Sequence[Node], options: Any, build_plan: BuildPlan
                ) -> tuple[Any, list[Node]]:
    """(plan, leaves in slot order) for `outputs`: cached, or built and cached now."""
    signature, leaves = graph_signature(outputs)
    return plan_for(signature, outputs, options, build_plan), leaves


def plan_for(signature: tuple, outputs: Sequence[Node], options: Any, build_plan: BuildPlan
             ) -> Any:
    """The plan for the graph of `outputs`, whose signature is `signature`."""
    global _last_hit
    key = (options_token(options), signature)
    last = _last_hit
    if last[0] == key and last[2] == plan_cache.generation:  # as the last lookup (a loop)
        plan_cache.count_hit()
        return last[1]
    generation = plan_cache.generation  # read first: a plan dropped meanwhile moves it on
    plan = plan_cache.lookup(_ALIASES.get(key, key))  # a size-generic plan, or an exact one
    if plan is None:
        return _miss(outputs, key, options, build_plan)  # maybe not kept (plan_cache_size=0)
    _last_hit = (key, plan, generation)
    return plan


# The last lookup's (exact key, plan, plan_cache.generation): a loop evaluates one graph structure
# again and again, and comparing its key with the last one costs less than the alias and LRU
# lookups (each hashes the whole signature; ~0.3 us). The generation moves whenever the cache
# drops or replaces a plan, so a remembered plan is always the one the cache holds for the key
# (and, being the last one looked up, its most recently used: the LRU order needs no update).
_last_hit: tuple = (None, None, -1)


# graph/_node.c's `to_host` hit path: [record] (see remember_hit), replaced as one object.
_HIT: list = [None]


def remember_hit(signature: tuple, arrays: list[Any], seen: Any, options: Any) -> None:
    """After an evaluation of one Array that the memo of the last plan served (`_last_hit`, as a
    loop's second and later evaluations are), record what graph/_node.c's hit path must find
    unchanged to run the same C plan for the next graph of this signature without Python
    frames: `_last_hit` itself (key, plan, generation), the options and the settings they were
    resolved for (`seen`: evaluation._OPTIONS[0]), a size-generic plan's last concrete plan, a
    tiered plan's compiled plan, the C plan and its launcher, whether the launcher runs an
    op's Python reference (then the hit path marks the thread busy around it, as run_cached
    does), and the plan's direct launch (runtime/c_launch.direct_spec: graph/_node.c runs the
    kernels itself), if it has one. Plans of other kinds (the numpy backend, a reference plan, a C plan whose outputs
    need copies: no launcher) get no record."""
    last = _last_hit
    if last[0] != (options_token(options), signature) or last[2] != plan_cache.generation:
        return  # the memo does not hold this graph's plan (a miss, another thread)
    if getattr(options, "debug_nans", False):
        return  # the hit path does not check for NaNs (lazyarray/nan_debug.py)
    plan = last[1]
    generic = generic_last = tiered = None
    if type(plan) is GenericPlan:
        generic, generic_last = plan, plan._last
        if generic_last[0] is None or generic_last[0] != plan.sizes_of(arrays):
            return
        plan = generic_last[1]
    if _TieredPlan is not None and type(plan) is _TieredPlan:
        tiered, plan = plan, plan._compiled
    launch = getattr(plan, "_launch", None)
    if launch is None or not hasattr(launch, "calls_library"):
        return
    _HIT[0] = (last, seen, options, generic, generic_last, tiered, plan, launch,
               plan_cache.fast_hits, bool(launch.calls_library), _direct_spec(plan))


# Exact signature -> generic key, for graphs whose plan is size-generic (graph/generic.py): a size
# seen before skips the generic walk. Bounded; dropping an entry only costs that walk again.
_ALIASES: OrderedDict[Any, Any] = OrderedDict()
MAX_ALIASES = 1024  # exact signatures can be long (a few ints per node): bounded memory
# Generic signature -> a small int, so the key looked up on every evaluation hashes fast (a generic
# signature holds op entries and nested tuples: hashing it costs microseconds). Ids are never
# reused, so clearing the table only costs misses.
_GENERIC_IDS: dict[tuple, int] = {}
_next_generic_id = itertools.count(1).__next__


def _generic_id(signature: tuple) -> int:
    gid = _GENERIC_IDS.get(signature)
    if gid is None:
        if len(_GENERIC_IDS) > 100_000:
            _GENERIC_IDS.clear()
        gid = _GENERIC_IDS[signature] = _next_generic_id()
    return gid


def _miss(outputs: Sequence[Node], key: Any, options: Any, build_plan: BuildPlan) -> Any:
    """No plan for these exact sizes: the size-generic plan of the graph's structure when there
    is one (found or built), else a plan built for this exact graph."""
    graph = Graph(outputs)
    generic = generic_signature(graph) if getattr(options, "optimize", False) else None
    if generic is None:
        return _build(graph, key, options, build_plan)
    generic_key = (key[0], "generic", _generic_id(generic.signature))
    plan = plan_cache.lookup(generic_key)
    if plan is None:
        plan = _build(graph, generic_key, options,
                      lambda g, o: build_plan(g, o, generic))  # type: ignore[call-arg]
    _ALIASES[key] = generic_key
    if len(_ALIASES) > MAX_ALIASES:
        _ALIASES.popitem(last=False)
    return plan


def has_plan(outputs: Sequence[Node], options: Any) -> bool:
    """Whether the plan cache holds a plan for this graph's exact signature (or an alias of it to
    a size-generic plan), without counting a lookup or moving the LRU order (lazyarray/tails.py
    asks before splitting a loop's tail it has evaluated whole before)."""
    signature = graph_signature(outputs)[0]
    for donate in ((), *_DONATED):  # a plan built to donate dead inputs serves that graph too
        variant = donating(options, donate) if donate else options
        key = (options_token(variant), signature)
        if key in _ALIASES or plan_cache.holds(key):
            return True
    return False


_DONATED: set[tuple[int, ...]] = set()  # the donated input positions plans were keyed with


_TOKENS: dict[int, tuple[Any, str]] = {}  # id(options) -> (options, its token); kept alive here
_VARIANTS: dict[tuple[int, tuple[int, ...]], tuple[Any, Any]] = {}  # (id, donate) -> (base, variant)
_MEMO_LIMIT = 256


def options_token(options: Any) -> str:
    """A cache-key stand-in for `options`: its repr (every field), as a str whose hash Python
    caches; hashing the frozen dataclass itself costs ~0.5 us per evaluation, its repr ~5."""
    hit = _TOKENS.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    token = f"{type(options).__qualname__}:{options!r}"
    if len(_TOKENS) >= _MEMO_LIMIT:
        _TOKENS.clear()
    _TOKENS[id(options)] = (options, token)
    return token


def donating(options: Any, donate: tuple[int, ...]) -> Any:
    """`options` with `donate`, one object per pair: a new one each evaluation that donates
    (`dataclasses.replace`, then its token's repr) cost ~8 us of a ~3 us plan hit."""
    hit = _VARIANTS.get((id(options), donate))
    if hit is not None and hit[0] is options:
        return hit[1]
    variant = replace(options, donate=donate)
    if len(_VARIANTS) >= _MEMO_LIMIT:
        _VARIANTS.clear()
    _VARIANTS[(id(options), donate)] = (options, variant)
    return variant


def bind_leaves(leaves: list[Node]) -> tuple[list[Any], list[Any]]:
    """(array buffers, scalar values), each in leaf order: what `plan.run` takes."""
    arrays: list[Any] = []
    scalars: list[Any] = []
    for n in leaves:
        (arrays if n.op is _INPUT else scalars).append(n.data)
    return arrays, scalars


python_bind_leaves = bind_leaves  # the reference (tests compare graph/_node.c's loop with it)
if getattr(_compiled, "bind_leaves", None) is not None:  # ~0.01 instead of ~0.1 us per leaf
    bind_leaves = _compiled.bind_leaves  # noqa: F811


def run_cached(outputs: Sequence[Node], options: Any, build_plan: BuildPlan,
               walked: tuple | None = None) -> list[Any]:
    """Evaluate `outputs` through the plan cache; returns their buffers. `walked`: graph/_node.c's
    `evaluation_walk` of the one output, (signature, leaves, arrays, scalars), taken already."""
    state = _state
    was = state.busy
    state.busy = True  # as `with busy()`, without its object on the hot path
    donate: tuple[int, ...] = ()
    plan = None
    try:
        if walked is None:
            signature, leaves = graph_signature(outputs)
            arrays, scalars = bind_leaves(leaves)
        else:
            signature, leaves, arrays, scalars = walked
        if _donating.allowed:  # dead input buffers the plan may write over
            donate = donation.dead_inputs(outputs, leaves, arrays, options)
            if donate:
                options = donating(options, donate)
                if donate not in _DONATED and len(_DONATED) < 64:
                    _DONATED.add(donate)
        plan = plan_for(signature, outputs, options, build_plan)
        if state.stand_ins:
            _check_not_traced(leaves)
        fp_clear()
        try:
            out = plan.run(arrays, scalars)
        except DATA_ERRORS as exc:
            raise _at_these_sites(outputs, exc) from None
        bits = fp_test()
        if donate:
            _count_donated(arrays, donate, out)
        if options.debug_nans:
            nan_debug.check(outputs, out, bits)
        if bits:
            if donate:  # the inputs the NumPy re-run would read are overwritten
                fp_errors.fired(outputs, bits, donation.flag_rerun(bits), inputs=())
            else:
                fp_errors.fired(outputs, bits)
        return out
    except BaseException:
        if donate and getattr(plan, "donates", False):  # it may have written part way
            donation.mark_lost(leaves, donate)
        raise
    finally:
        state.busy = was


_donating = donation._state  # (thread-local: a cut, or a single Array only it holds)


def _count_donated(arrays: list[Any], donate: tuple[int, ...], out: list[Any]) -> None:
    for k in donate:
        if any(o is arrays[k] for o in out):
            CopyStats.inputs_donated += 1
            CopyStats.donated_bytes += arrays[k].nbytes


def _at_these_sites(outputs: Sequence[Node], exc: Exception) -> Exception:
    """A data-dependent error (an index out of bounds, a singular matrix) names the line that built the failing
    node, but a cached plan holds the lines of the graph it was first built for: the same
    structure built on another line named the old one. The reference interpreter re-runs this
    graph to name its own lines; the error path only, so its cost does not matter."""
    graph = Graph(list(outputs))
    try:
        ReferencePlan(graph).run(*split_leaves(graph))
    except DATA_ERRORS as here:
        return here
    except Exception:  # e.g. device buffers the interpreter cannot read: keep the plan's error
        return exc
    return exc


def _build(graph: Graph, key: Any, options: Any, build_plan: BuildPlan) -> Any:
    log = get_settings().log_compiles
    near = plan_cache.nearest(graph) if log else []
    before = cache_info() if log else None
    start = time.perf_counter()
    with busy():  # nodes the passes build must never trigger a node-budget cut (la.jit's path)
        plan = build_plan(graph, options)
    elapsed = time.perf_counter() - start
    if hasattr(plan, "on_change"):  # a size-generic plan: its bytes change as sizes come and go
        plan.max_bytes = plan_cache.max_bytes
        plan.on_change = lambda: plan_cache.refresh(key)
    plan_cache.insert(key, plan, graph)
    if log:
        _log_build(graph, elapsed, before, near)
    return plan


def _log_build(graph: Graph, elapsed: float, before: CacheInfo, near: list[str]) -> None:
    after = cache_info()
    compiled = after.kernels_compiled - before.kernels_compiled
    loaded = after.kernel_disk_hits - before.kernel_disk_hits
    queued = after.kernels_queued - before.kernels_queued
    built_at = next((o.site for o in graph.outputs if o.site), None)
    background = f", {queued} compiling in the background" if queued else ""
    message = (f"lazyarray: plan built for {len(graph)} nodes in {elapsed * 1e3:.2f} ms "
               f"({compiled} kernels compiled, {loaded} loaded from disk{background}), "
               f"evaluated at {format_site(user_site(1))}, built at {format_site(built_at)}")
    if near:
        message += "; differs from a cached plan: " + ", ".join(near[:6])
    _ensure_handler()
    logger.info(message)


def _ensure_handler() -> None:
    """log_compiles must show without the user configuring logging."""
    if not logger.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(message)s"))
        logger.addHandler(handler)
    if logger.getEffectiveLevel() > logging.INFO:
        logger.setLevel(logging.INFO)
