"""numpy.einsum as a composition of existing ops, so that it stays lazy and fuses.

The subscripts are parsed into one label per axis (a letter, or an int for each axis an ellipsis
covers, numbered from the right so that ellipses broadcast as NumPy's do). Then:
1. a label repeated within one operand takes that operand's diagonal (`ii->i`);
2. a label found in one operand only, and not in the output, is summed there at once;
3. operands are contracted left to right: labels both share and that are still needed later are
   batch axes, shared labels needed nowhere else are contracted. A contraction with something to
   contract and an axis of its own on each side is a matmul (a BLAS call on (batch, m, k) @
   (batch, k, n)); the rest are a broadcast multiply followed by a sum, which fuse into one kernel;
4. what is left is summed and permuted into the output's order.
The result dtype is NumPy's: the operands' promotion (or `dtype=`), with integer and bool sums
wrapping and or-ing as NumPy's einsum does (the sum runs wider, then is cast back: the same
value modulo 2**bits). `optimize` is accepted and changes nothing: the order above is fixed. One operand whose labels are
summed is NumPy's own einsum call instead (graph/ops_einsum.py: its loop's sum order, not the
pairwise one), except while la.grad traces.
"""

from __future__ import annotations

import math
import operator
from types import SimpleNamespace
from typing import Any

import numpy as np

from . import _bind, host_now
from ._numpy_errors import numpy_error
from .array import Array, scalar_result
from .graph import dtypes, get_op
from .graph.node import user_site
from .creation import asarray
from .numpy_shapes import diagonal
from .outputs import into
from .reductions import sum as sum_
from .manipulation import broadcast_to, expand_dims
from .linalg import matmul
from . import _dot_loops
from .jit import differentiating

Label = str | int  # a letter, or the position of an ellipsis axis counted from the right
_EINSUM_LOOP = get_op("einsum_loop")  # NumPy's own einsum loop's order (graph/ops_einsum.py)
# einsum's arithmetic with `optimize` (NumPy's tensordot and BLAS calls check the flags)
_CHECKED = SimpleNamespace(multiply=operator.mul, sum=sum_, matmul=matmul,
                           astype=lambda x, dt: x.astype(dt))


def einsum(*operands: Any, dtype: Any = None, optimize: Any = False, casting: str = "safe",
           order: str = "K", out: Any = None) -> Array:
    """numpy.einsum: explicit (`ij,jk->ik`), implicit (`ij,jk`) and ellipsis (`...ij->...ji`)
    subscripts, or NumPy's sublist form (`einsum(a, [0, 1], b, [1, 2], [0, 2])`)."""
    site = user_site(1)
    n_arrays = sum(not isinstance(o, (str, list)) for o in operands)
    if out is None and (n_arrays > 1 or n_arrays == 1 and _one_operand_sums(operands[0])):
        # (not one operand that only transposes or takes a diagonal: NumPy's result is its view)
        done = host_now.call(np.einsum, operands, dict(dtype=dtype, optimize=optimize,
                                                       casting=casting, order=order), site)
        if done is not None:
            return done
    subscripts, arrays = _split_operands(operands, site)
    try:
        result = _einsum(subscripts, arrays, dtype, casting, site,
                         _CHECKED if optimize else _dot_loops)
    except ValueError as exc:  # (NumPy's text, where NumPy raises too: fuzz46)
        numpy_exc = numpy_error(np.einsum, (subscripts, *arrays),
                                dict(dtype=dtype, casting=casting, optimize=optimize))
        if isinstance(numpy_exc, ValueError):
            raise _bind.with_site(numpy_exc, site) from None
        raise exc
    if out is not None:  # NumPy's rules for out on stand-ins, then out[...] = the result
        return into(out, result, np.einsum, (subscripts, *arrays),
                    dict(dtype=dtype, casting=casting), site)
    if n_arrays == 1 and any(o is arrays[0] for o in operands):  # (an Array, not a host copy)
        _writable_like(result, arrays[0])
    # a 0-d result is NumPy's scalar (`einsum('->', z)` of a 0-d z was z itself: probe55)
    return result if result.shape else scalar_result(result._node)


def _writable_like(view: Array, operand: Array) -> None:
    """NumPy's one-operand einsum that sums nothing is a view of its operand, writable where the
    operand is: `np.einsum('ii->i', A)[:] = 1` sets A's diagonal (a known idiom), though
    np.diagonal's view, which la.einsum takes, is read-only."""
    link, own = view._view, operand._view
    if type(link) is not tuple or len(link) != 4 or link[3] or own is False:
        return
    root, writable = (own[0], own[3]) if type(own) is tuple else (operand, True)
    if link[0] is root and writable:
        view._view = link[:3] + (True,)



def _one_operand_sums(subscripts: Any) -> bool:
    """Whether a one-operand einsum sums a label (`'i->'`, `'ij->i'`, implicit `'ii'`): NumPy's
    result is new, summed in its einsum loop's order (SIMD lanes, 4 vectors a step), not
    np.sum's pairwise order that la.sum follows, so the at-once host call gives its bits."""
    if not isinstance(subscripts, str):
        return False
    lhs, arrow, rhs = subscripts.replace(" ", "").partition("->")
    letters = [c for c in lhs if c.isalpha()]
    return bool(set(letters) - set(rhs)) if arrow else len(letters) != len(set(letters))

def _einsum(subscripts: str, arrays: list[Array], dtype: Any, casting: str,
            site: _bind.Site, ops: Any) -> Array:
    """`ops`: multiply, sum and matmul, NumPy's einsum loop's (no floating-point flags checked)
    unoptimized, the checked ops with `optimize` (NumPy's tensordot and BLAS calls warn)."""
    inputs, output = _parse(subscripts, [a.ndim for a in arrays], site)
    if len(arrays) == 1 and set(inputs[0]) <= set(output):
        dtype = None  # NumPy returns a view of the operand here, and ignores dtype=
    dt = _result_dtype(arrays, dtype, casting, site)
    arrays = [a.astype(dt) if a.dtype != dt else a for a in arrays]
    sizes = _label_sizes(arrays, inputs, site)
    own = len(arrays) == 1 or ops is _dot_loops
    if (own and dt.kind in "fc" and (len(arrays) > 1 or set(inputs[0]) - set(output))
            and not differentiating()):
        # NumPy's sum order, not the composition's pairwise one (or matmul's BLAS order: a
        # product of more operands, probe57; one that sums nothing adds its products to zeros,
        # so a -0.0 product is +0.0 there)
        return Array(_bind.primitive(_EINSUM_LOOP, tuple(a._node for a in arrays),
                                     (subscripts.replace(" ", ""),),
                                     tuple(sizes[lb] for lb in output), dt, site))
    if dt == np.float16 and len(arrays) > 1:
        # NumPy's half sum of products into a reduced output: float32 sums, rounded once (one
        # operand's sums are its half adds, as np.sum's)
        return ops.astype(_einsum(subscripts, [a.astype(np.float32) for a in arrays],
                                  np.float32, "unsafe", site, ops), dt)
    terms = [_diagonals(a, labels) for a, labels in zip(arrays, inputs)]
    for i, (a, labels) in enumerate(terms):
        elsewhere = set(output).union(*(t[1] for j, t in enumerate(terms) if j != i))
        terms[i] = _sum_labels(a, labels, [lb for lb in labels if lb not in elsewhere], ops)
    acc, labels = terms[0]
    for k in range(1, len(terms)):
        needed = set(output).union(*(t[1] for t in terms[k + 1:]))
        acc, labels = _contract(acc, labels, *terms[k], needed, sizes, ops)
    acc, labels = _sum_labels(acc, labels, [lb for lb in labels if lb not in output], ops)
    acc = _broadcast_labels(acc, labels, {lb: sizes[lb] for lb in labels})
    result = acc if labels == output else acc.transpose([labels.index(lb) for lb in output])
    return result.astype(dt) if result.dtype != dt else result


# --- parsing -------------------------------------------------------------------------------------
def _split_operands(operands: tuple, site: _bind.Site) -> tuple[str, list[Array]]:
    if not operands:  # NumPy's ValueError and text (a TypeError here before fuzz56)
        raise _bind.fail(ValueError, "must specify the einstein sum subscripts string and at "
                         "least one operand, or at least one operand and its corresponding "
                         "subscripts list", site)
    if isinstance(operands[0], str):
        return operands[0], [asarray(a) for a in operands[1:]]
    arrays, terms = [], []  # the sublist form: operand, sublist, operand, sublist, ..., [output]
    pairs = list(operands)
    out_list = pairs.pop() if len(pairs) % 2 == 1 else None
    for a, sub in zip(pairs[::2], pairs[1::2]):
        arrays.append(asarray(a))
        terms.append(_sublist_term(sub, site))
    text = ",".join(terms)
    return (text if out_list is None else f"{text}->{_sublist_term(out_list, site)}"), arrays


def _sublist_term(sub: Any, site: _bind.Site) -> str:
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    parts = []
    for s in sub:
        if s is Ellipsis:
            parts.append("...")
        elif isinstance(s, (int, np.integer)) and 0 <= s < 52:
            parts.append(letters[int(s)])
        else:
            raise _bind.fail(ValueError, f"einsum: subscript {s!r} is not an int in [0, 52) or "
                             "Ellipsis", site)
    return "".join(parts)


def _parse(subscripts: str, ndims: list[int], site: _bind.Site) -> tuple[list[list[Label]],
                                                                          list[Label]]:
    text = subscripts.replace(" ", "")
    lhs, arrow, rhs = text.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ndims):
        raise _bind.fail(ValueError, f"einsum: {len(terms)} operand subscripts for "
                         f"{len(ndims)} operands", site)
    inputs = [_term_labels(t, n, site) for t, n in zip(terms, ndims)]
    ellipsis = max((-min((lb for lb in labels if isinstance(lb, int)), default=0)
                    for labels in inputs), default=0)
    if arrow:
        output = _output_labels(rhs, ellipsis, inputs, site)
    else:  # implicit: the ellipsis axes, then the letters seen once, in ASCII order
        counts: dict[str, int] = {}
        for labels in inputs:
            for lb in labels:
                if isinstance(lb, str):
                    counts[lb] = counts.get(lb, 0) + 1
        output = [*range(-ellipsis, 0), *sorted(lb for lb, c in counts.items() if c == 1)]
    return inputs, output


def _term_labels(term: str, ndim: int, site: _bind.Site) -> list[Label]:
    head, dots, tail = term.partition("...")
    for part in (head, tail):
        if not all(c.isascii() and c.isalpha() for c in part):
            raise _bind.fail(ValueError, f"einsum: invalid subscript in {term!r} (letters and "
                             "one '...' only)", site)
    letters = len(head) + len(tail)
    if letters > ndim or (not dots and letters != ndim):
        raise _bind.fail(ValueError, f"einsum: subscripts {term!r} do not match an operand of "
                         f"{ndim} dimensions", site)
    covered = ndim - letters if dots else 0
    return [*head, *range(-covered, 0), *tail]


def _output_labels(rhs: str, ellipsis: int, inputs: list[list[Label]],
                   site: _bind.Site) -> list[Label]:
    head, dots, tail = rhs.partition("...")
    if not dots and ellipsis:
        raise _bind.fail(ValueError, "einsum: the operands have '...' axes but the output "
                         "subscripts have no '...'", site)
    output: list[Label] = [*head, *range(-ellipsis, 0), *tail]
    seen = {lb for labels in inputs for lb in labels}
    for lb in output:
        if isinstance(lb, str) and not (lb.isascii() and lb.isalpha()):
            raise _bind.fail(ValueError, f"einsum: invalid output subscript {lb!r}", site)
        if lb not in seen:
            raise _bind.fail(ValueError, f"einsum: output subscript {lb!r} is in no operand",
                             site)
    if len(set(output)) != len(output):
        raise _bind.fail(ValueError, f"einsum: output subscripts {rhs!r} repeat a label", site)
    return output


def _result_dtype(arrays: list[Array], dtype: Any, casting: str, site: _bind.Site) -> np.dtype:
    dt = dtypes.result_type(*[a.dtype for a in arrays])
    if dtype is None:
        return dt
    want = dtypes.to_dtype(dtype)
    for a in arrays:
        if not np.can_cast(a.dtype, want, casting=casting):
            raise _bind.fail(TypeError, f"einsum: cannot cast {a.dtype} to {want} under "
                             f"casting={casting!r}", site)
    return want


def _label_sizes(arrays: list[Array], inputs: list[list[Label]],
                 site: _bind.Site) -> dict[Label, int]:
    """Each label's size: equal wherever it appears, or 1 (which broadcasts), as NumPy's."""
    sizes: dict[Label, int] = {}
    for a, labels in zip(arrays, inputs):
        for lb in labels:
            axes = {n for x, n in zip(labels, a.shape) if x == lb}
            if len(axes) > 1:  # a diagonal: no broadcasting within one operand
                raise _bind.fail(ValueError, f"einsum: the axes labelled {lb!r} in one operand "
                                 f"have different sizes {sorted(axes)}", site)
        for lb, n in zip(labels, a.shape):
            have = sizes.get(lb)
            if have is None or have == 1:
                sizes[lb] = n
            elif n not in (have, 1):
                raise _bind.fail(ValueError, f"einsum: operands could not be broadcast together: "
                                 f"label {lb!r} has sizes {have} and {n}", site)
    return sizes


# --- the steps -----------------------------------------------------------------------------------
def _diagonals(a: Array, labels: list[Label]) -> tuple[Array, list[Label]]:
    """A label repeated within one operand: its diagonal (appended last, as numpy.diagonal)."""
    labels = list(labels)
    while len(set(labels)) != len(labels):
        lb = next(x for x in labels if labels.count(x) > 1)
        i = labels.index(lb)
        j = labels.index(lb, i + 1)
        a = diagonal(a, 0, i, j)
        labels = [x for k, x in enumerate(labels) if k not in (i, j)] + [lb]
    return a, labels


def _sum_labels(a: Array, labels: list[Label], drop: list[Label], ops: Any
                ) -> tuple[Array, list[Label]]:
    if not drop:
        return a, labels
    axes = tuple(labels.index(lb) for lb in drop)
    total = ops.sum(a, axis=axes)
    return (total.astype(a.dtype) if total.dtype != a.dtype else total,
            [lb for lb in labels if lb not in drop])


def _broadcast_labels(a: Array, labels: list[Label], sizes: dict[Label, int]) -> Array:
    shape = tuple(sizes[lb] for lb in labels)
    if a.shape == shape:
        return a

    return broadcast_to(a, shape)


def _arrange(a: Array, labels: list[Label], order: list[Label]) -> Array:
    """`a` with its axes in `order` (labels it lacks become axes of size 1)."""
    present = [lb for lb in order if lb in labels]
    if present != labels:
        a = a.transpose([labels.index(lb) for lb in present])
    missing = tuple(i for i, lb in enumerate(order) if lb not in labels)
    return expand_dims(a, axis=missing) if missing else a


def _contract(a: Array, la_: list[Label], b: Array, lb_: list[Label], needed: set[Label],
              sizes: dict[Label, int], ops: Any) -> tuple[Array, list[Label]]:
    batch = [x for x in la_ if x in lb_ and x in needed]
    summed = [x for x in la_ if x in lb_ and x not in needed]
    a_only = [x for x in la_ if x not in lb_]
    b_only = [x for x in lb_ if x not in la_]
    out = batch + a_only + b_only
    if summed and a_only and b_only:
        return _matmul_contract(a, la_, b, lb_, (batch, a_only, summed, b_only), sizes,
                                ops), out
    order = out + summed
    product = ops.multiply(_arrange(a, la_, order), _arrange(b, lb_, order))
    return _sum_labels(product, order, summed, ops)


def _matmul_contract(a: Array, la_: list[Label], b: Array, lb_: list[Label], groups: tuple,
                     sizes: dict[Label, int], ops: Any) -> Array:
    batch, a_only, summed, b_only = groups
    full = {x: sizes[x] for x in (*batch, *summed)}
    a = _broadcast_labels(_arrange(a, la_, batch + a_only + summed), batch + a_only + summed,
                          {**full, **{x: a.shape[la_.index(x)] for x in a_only}})
    b = _broadcast_labels(_arrange(b, lb_, batch + summed + b_only), batch + summed + b_only,
                          {**full, **{x: b.shape[lb_.index(x)] for x in b_only}})
    nb = len(batch)
    m, k = math.prod(a.shape[nb:nb + len(a_only)]), math.prod(a.shape[nb + len(a_only):])
    n = math.prod(b.shape[nb + len(summed):])
    lead = a.shape[:nb]
    c = ops.matmul(a.reshape(lead + (m, k)), b.reshape(lead + (k, n)))
    return c.reshape(lead + a.shape[nb:nb + len(a_only)] + b.shape[nb + len(summed):])
