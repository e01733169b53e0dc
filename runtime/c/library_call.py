"""A plan's library steps on the CPU: matmul through NumPy's BLAS, opaque ops through their NumPy
reference, into the planned buffer. Shared by the compiled plans (backend.py, launch.py), the tiered
plans that run while kernels compile (tiered.py) and the Dask backend's library tasks."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...graph.kernel_ir import LibraryCall
from ...graph.registry import OpKind
from .. import fp_status
from ..backend import DATA_ERRORS, at_site, run_in_place


def matmul_into(op: Any, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """np.matmul into `out`; NumPy's own report silenced for the twin of its dot loops
    (graph/ops_unchecked.py: `np.einsum`, `np.correlate` check no flags where `@` warns)."""
    if "fp_unchecked" in op.properties:
        with np.errstate(all="ignore"):
            np.matmul(a, b, out=out)
    else:
        np.matmul(a, b, out=out)


def run_library_call(step: LibraryCall, bufs: list) -> None:
    """matmul through NumPy's BLAS into the planned buffer; opaque ops through their reference."""
    args = step.arguments(bufs.__getitem__)
    out = bufs[step.output]
    kept = fp_status.test()  # NumPy clears the flags the kernels before raised: keep them
    if step.op.kind is OpKind.MATMUL:
        state = fp_status.enter_numpy_errstate()  # its flags to fp_status, not NumPy's warning
        try:
            matmul_into(step.op, *args, out)
        finally:
            fp_status.leave_numpy_errstate(state)
        if kept:
            fp_status.note("", kept)
        return
    state = fp_status.enter_numpy_errstate()  # (np.errstate cost ~4 us a step: a cut stencil
    try:  # loop runs one scatter per slice write, hundreds per call)
        if step.op.in_place is not None:  # scatter: into `out`, in place where planned
            run_in_place(step.op, args, step.attrs, out)
            result = None
        else:
            result = step.op.reference(args, step.attrs, out.dtype)
    except DATA_ERRORS as exc:
        raise at_site(exc, step.op.name, step.site) from None
    finally:
        fp_status.leave_numpy_errstate(state)
    if kept:
        fp_status.note("", kept)
    if result is not None:
        np.copyto(out, np.asarray(result).reshape(out.shape), casting="unsafe")
