"""CUDA kernel frames: where the C family's loops become a GPU's grid, blocks and threads.

The C printer renders a kernel's pieces (parameters, index decoding, each stage's statements, each
reduction's value and combine) once for both dialects; this module is the part of the CUDA dialect that
arranges them. Three frames, chosen per launch by sizes (runtime/cuda_launch.py):

- **elementwise** (no inner space): a grid-stride loop over the flat outer index.
- **rows** (reductions, softmax, logsumexp): one block per outer index, threads stride over the inner
  space, `la_block_reduce` (warp shuffles + shared memory) after each reduce stage, so later stages
  read the accumulators in every thread. Row loops are grid-strided too.
- **two-stage** (few, long rows: `sum(x)` over 2**26): stage one folds chunks of every row in many
  blocks into a partials workspace; stage two folds each row's partials in one block and runs the
  outer stores. Only for kernels shaped "one reduce stage, then outer stores" (sum, mean, mse, max).

Indices are `la_idx`: int when every extent and reachable offset fits in 31 bits (GPU 64-bit division
is emulated and slow), else long long. Either way the code is size-generic: sizes are arguments.

    elementwise, la_idx = long long:
        for (la_idx o = blockIdx.x * (la_idx)blockDim.x + threadIdx.x; o < n_outer;
             o += (la_idx)gridDim.x * blockDim.x) { <decode o> <stage bodies> }
"""

from __future__ import annotations

from dataclasses import dataclass

KERNEL_QUALIFIER = 'extern "C" __global__'
BLOCK = 256  # threads per block for every frame; __launch_bounds__ lets ptxas budget registers
PARTIAL_BLOCKS = 512  # stage-one blocks per row of a two-stage reduction (fixed: deterministic)


@dataclass(frozen=True)
class ReduceParts:
    """One reduction of a stage, as the C printer renders it."""

    acc: str  # accumulator variable, e.g. "acc0_0"
    ctype: str  # its C type
    identity: str  # C expression
    value: str  # C expression (in the stage body's scope) folded per element
    combine: str  # registry combine with {acc} and {0} left: "{acc} = la_add_i32({acc}, {0})"
    better: str | None = None  # arg-reductions: C condition on (a, b), "a beats b"


@dataclass(frozen=True)
class StageParts:
    inner: bool
    body: str  # statements: expressions, then stores (which read accumulators of earlier stages)
    reduces: tuple[ReduceParts, ...] = ()


@dataclass(frozen=True)
class KernelParts:
    name: str
    params: str  # parameter list, pointers already `__restrict__`-qualified
    n_outer: str  # C expression: number of outer indices
    n_inner: str  # C expression: number of inner indices ("1" when there is no inner space)
    decode_outer: str  # statements defining the outer dims' indices from `o`
    decode_inner: str  # statements defining the inner dims' indices from `j`
    stages: tuple[StageParts, ...]


def _combine_fn(parts: KernelParts, r: ReduceParts) -> str:
    return f"la_combine_{parts.name}_{r.acc}"


def _better_fn(parts: KernelParts, r: ReduceParts) -> str:
    return f"la_better_{parts.name}_{r.acc}"


def render_combines(parts: KernelParts) -> str:
    """A device function per reduction, from the registry's combine template (one source of truth for
    C and CUDA), or from the arg-reduction's `better` condition."""
    out = []
    for stage in parts.stages:
        for r in stage.reduces:
            t = r.ctype
            if r.better:
                out.append(f"static __device__ __forceinline__ bool {_better_fn(parts, r)}"
                           f"(const {t} a, const {t} b) {{ return {r.better}; }}")
            else:
                out.append(f"static __device__ __forceinline__ {t} {_combine_fn(parts, r)}"
                           f"({t} a, const {t} b) {{ {r.combine.format('b', acc='a')}; return a; }}")
    return "\n".join(out) + ("\n" if out else "")


def _acc_type(r: ReduceParts) -> str:
    return f"la_arg<{r.ctype}>" if r.better else r.ctype


def _declare_acc(r: ReduceParts) -> str:
    if r.better:
        return f"la_arg<{r.ctype}> {r.acc}; {r.acc}.v = {r.identity}; {r.acc}.i = -1;"
    return f"{r.ctype} {r.acc} = {r.identity};"


def _fold(parts: KernelParts, r: ReduceParts, position: str) -> str:
    if r.better:  # strictly better replaces: in increasing order, the first occurrence stays
        return (f"{{ const {r.ctype} v_ = {r.value}; if ({r.acc}.i < 0 || "
                f"{_better_fn(parts, r)}(v_, {r.acc}.v)) {{ {r.acc}.v = v_; {r.acc}.i = {position}; }} }}")
    return f"{r.acc} = {_combine_fn(parts, r)}({r.acc}, {r.value});"


def _block_reduce(parts: KernelParts, r: ReduceParts) -> str:
    smem = f"la_smem_{r.acc}"
    decl = f"__shared__ {_acc_type(r)} {smem}[33];"
    if r.better:
        return f"{decl}\n{r.acc} = la_block_argreduce({r.acc}, {_better_fn(parts, r)}, {smem});"
    return (f"{decl}\n{r.acc} = la_block_reduce({r.acc}, ({r.ctype})({r.identity}), "
            f"{_combine_fn(parts, r)}, {smem});")


def _indent(code: str, n: int) -> str:
    pad = " " * n
    return "\n".join(pad + line if line.strip() else "" for line in code.splitlines())


def _header(parts: KernelParts, suffix: str, index_t: str, params: str | None = None) -> list[str]:
    signature = params if params is not None else parts.params
    return [f"{KERNEL_QUALIFIER} void __launch_bounds__({BLOCK}) {parts.name}{suffix}({signature}) {{",
            f"  typedef {index_t} la_idx;",
            f"  const la_idx n_outer = {parts.n_outer};", f"  const la_idx n_inner = {parts.n_inner};"]


def render_elementwise(parts: KernelParts, index_t: str = "int") -> str:
    """A grid-stride loop over the outer space; every stage runs once per outer index."""
    assert all(not s.reduces and not s.inner for s in parts.stages), "elementwise frame: no reductions"
    body = "\n".join(s.body for s in parts.stages)
    return "\n".join([
        *_header(parts, "", index_t),
        "  (void)n_inner;",
        "  for (la_idx o = blockIdx.x * (la_idx)blockDim.x + threadIdx.x; o < n_outer;",
        "       o += (la_idx)gridDim.x * blockDim.x) {",
        _indent(parts.decode_outer, 4), _indent(body, 4), "  }", "}", ""])


def _inner_loop(start: str, step: str, decode: str, body: str) -> list[str]:
    return [f"for (la_idx j = {start}; j < n_inner; j += {step}) {{",
            _indent(decode, 2), _indent(body, 2), "}"]


def render_rows(parts: KernelParts, index_t: str = "int") -> str:
    """One block per outer index; threads share each row; a block reduction after each reduce stage."""
    lines = [render_combines(parts), *_header(parts, "", index_t),
             "  for (la_idx o = blockIdx.x; o < n_outer; o += gridDim.x) {",
             _indent(parts.decode_outer, 4)]
    for stage in parts.stages:
        if not stage.inner:
            assert not stage.reduces, "reduce stages iterate the inner space"
            lines += ["    if (threadIdx.x == 0) {", _indent(stage.body, 6), "    }"]
            continue
        lines += [_indent(_declare_acc(r), 4) for r in stage.reduces]
        folds = "\n".join(_fold(parts, r, "j") for r in stage.reduces)
        lines += [_indent("\n".join(_inner_loop("threadIdx.x", "blockDim.x", parts.decode_inner,
                                                stage.body + "\n" + folds)), 4)]
        lines += [_indent(_block_reduce(parts, r), 4) for r in stage.reduces]
    lines += ["  }", "}", ""]
    return "\n".join(lines)


def two_stage_eligible(parts: KernelParts) -> bool:
    """One reduce stage (no arg-reductions), then only outer stores that read its accumulators."""
    first, *rest = parts.stages
    return (first.inner and bool(first.reduces) and all(not r.better for r in first.reduces)
            and all(not s.inner and not s.reduces for s in rest))


def _partials_params(parts: KernelParts) -> str:
    reduces = parts.stages[0].reduces
    return ", ".join(f"{r.ctype}* __restrict__ la_part_{r.acc}" for r in reduces)


def render_two_stage(parts: KernelParts, index_t: str = "long long") -> str:
    """`<name>_partial`: grid (PARTIAL_BLOCKS, rows) folds chunks into `la_part_*[o * G + chunk]`;
    `<name>_final`: one block per row folds its G partials and runs the outer stores."""
    assert two_stage_eligible(parts), f"{parts.name}: not a reduce-then-store kernel"
    first, rest = parts.stages[0], parts.stages[1:]
    params = parts.params + ", " + _partials_params(parts)
    folds = "\n".join(_fold(parts, r, "j") for r in first.reduces)
    lines = [render_combines(parts), *_header(parts, "_partial", index_t, params),
             "  for (la_idx o = blockIdx.y; o < n_outer; o += gridDim.y) {",
             _indent(parts.decode_outer, 4)]
    lines += [_indent(_declare_acc(r), 4) for r in first.reduces]
    lines += [_indent("\n".join(_inner_loop("blockIdx.x * (la_idx)blockDim.x + threadIdx.x",
                                            "(la_idx)gridDim.x * blockDim.x", parts.decode_inner,
                                            first.body + "\n" + folds)), 4)]
    lines += [_indent(_block_reduce(parts, r), 4) for r in first.reduces]
    lines += ["    if (threadIdx.x == 0) {"]
    lines += [f"      la_part_{r.acc}[o * gridDim.x + blockIdx.x] = {r.acc};" for r in first.reduces]
    lines += ["    }", "  }", "}", ""]
    final = [*_header(parts, "_final", index_t, params), "  (void)n_inner;",
             f"  const la_idx n_part = {PARTIAL_BLOCKS};",
             "  for (la_idx o = blockIdx.x; o < n_outer; o += gridDim.x) {",
             _indent(parts.decode_outer, 4)]
    for r in first.reduces:
        final += [_indent(_declare_acc(r), 4),
                  "    for (la_idx p = threadIdx.x; p < n_part; p += blockDim.x) {",
                  f"      {r.acc} = {_combine_fn(parts, r)}({r.acc}, la_part_{r.acc}[o * n_part + p]);",
                  "    }", _indent(_block_reduce(parts, r), 4)]
    final += ["    if (threadIdx.x == 0) {", *(_indent(s.body, 6) for s in rest), "    }",
              "  }", "}", ""]
    return "\n".join(lines + final)
