"""Integer floor_divide and remainder: NumPy's values and warnings bit for bit. The C kernels of one
elementwise stage divide 8- and 16-bit integers in float and 32-bit ones in double
(runtime/c/prelude.py `_floordiv_fq`: exact, and vectorized where the divisor is fixed over the
loop), others in integers, so the sweep covers every 8-bit pair and the edges of the wider types,
with array and scalar divisors, alone and inside a reduction."""

import warnings

import numpy as np
import pytest

import lazyarray as la
from together import compile_together

DTYPES = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64"]
_COMPILED: dict = {}  # backends whose cases' kernels are compiled (tests/together.py)


def _operands(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    info = np.iinfo(dtype)
    if info.bits == 8:  # every pair
        v = np.arange(info.min, info.max + 1, dtype=dtype)
        return tuple(x.ravel() for x in np.meshgrid(v, v))
    edges = np.array(sorted({info.min, info.min + 1, info.min // 2, -7 if info.min else 0, -1 if
                             info.min else 0, 0, 1, 2, 3, 7, 9, 255, info.max // 2 + 1,
                             info.max - 1, info.max}), dtype=dtype)
    rng = np.random.default_rng(int(info.bits) + int(info.min < 0))
    wide = rng.integers(info.min, info.max, 20000, dtype=dtype, endpoint=True)
    small = rng.integers(max(info.min, -300), 300, 20000).astype(dtype)
    a = np.concatenate([np.repeat(edges, len(edges)), wide, small, wide])
    b = np.concatenate([np.tile(edges, len(edges)), small, wide, wide[::-1]])
    return a, b


def _run(fn):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = fn()
    return out, {str(w.message) for w in seen}


def _builders() -> list:
    """Each value the test evaluates, for every dtype: on C a unit per value alone, one unit
    for all of them together (tests/together.py)."""
    values = []
    for dtype in DTYPES:
        a, b = _operands(dtype)
        values += [lambda a=a, b=b, n=n: getattr(la, n)(la.asarray(a), la.asarray(b))
                   for n in ("floor_divide", "remainder")]
        for d in (9, 7, 2, 1, -1, -3, 0):
            if d < 0 and np.iinfo(dtype).min == 0:
                continue
            for name in ("__floordiv__", "__mod__"):
                values.append(lambda a=a, n=name, v=np.array(d, dtype): getattr(
                    la.asarray(a), n)(la.asarray(v)))
                if d >= 0:
                    values.append(lambda a=a, n=name, d=d: getattr(la.asarray(a), n)(d))
        if np.iinfo(dtype).bits == 8:
            values.append(lambda a=a, b=b: (la.asarray(a) // la.where(
                la.asarray(b) == 0, 1, la.asarray(b))).astype(np.int64).sum())
    return values


@pytest.mark.xdist_group("test_floor_divide_and_remainder_are_numpys")
@pytest.mark.parametrize("dtype", DTYPES)
def test_floor_divide_and_remainder_are_numpys(backend, dtype):
    compile_together(_COMPILED, backend, _builders())
    a, b = _operands(dtype)
    for name in ("floor_divide", "remainder"):
        want, want_warned = _run(lambda: getattr(np, name)(a, b))
        got, got_warned = _run(lambda: np.asarray(getattr(la, name)(la.asarray(a), la.asarray(b))))
        assert got.dtype == want.dtype and np.array_equal(got, want), name
        assert got_warned == want_warned, name
    for d in (9, 7, 2, 1, -1, -3, 0):  # a divisor fixed over the loop (the vectorized kernels)
        if d < 0 and np.iinfo(dtype).min == 0:
            continue
        divisor = np.array(d, dtype)
        for name in ("__floordiv__", "__mod__"):
            want, want_warned = _run(lambda: getattr(a, name)(divisor))
            got, got_warned = _run(
                lambda: np.asarray(getattr(la.asarray(a), name)(la.asarray(divisor))))
            assert got.dtype == want.dtype and np.array_equal(got, want), (name, d)
            assert got_warned == want_warned, (name, d)
            if d >= 0:  # a Python int: a scalar argument of the kernel
                want, want_warned = _run(lambda: getattr(a, name)(d))
                got, got_warned = _run(lambda: np.asarray(getattr(la.asarray(a), name)(d)))
                assert got.dtype == want.dtype and np.array_equal(got, want), (name, d)
                assert got_warned == want_warned, (name, d)
    if np.iinfo(dtype).bits == 8:  # fused into a reduction: the integer helpers' kernel
        want = (a // np.where(b == 0, 1, b)).astype(np.int64).sum()
        got = (la.asarray(a) // la.where(la.asarray(b) == 0, 1, la.asarray(b))).astype(np.int64)
        assert int(got.sum()) == int(want)


def test_fixed_divisors_are_read_before_the_loops():
    """A kernel reads each scalar argument, and each element every iteration reads alike (a 0-d
    operand), once before its loops: read in the loop body, gcc did not prove `img // 9`'s
    divisor invariant, did not unswitch the zero test, and divided element by element (uint16
    `// 9`: 1.8 ms against 0.2 ms vectorized, 1.9 M elements). An unsigned division by it has
    no branch (`la_fqsdiv_`): gcc does not unswitch a loop body as large as hist_equalize's
    nine-read box sum, which stayed scalar with the zero test inside."""
    x = la.asarray(np.arange(4096, dtype=np.uint16))
    with la.config(backend="c"):
        for divisor, read in ((9, "la_arg_u16(s + "), (la.asarray(np.uint16(9)), "? b")):
            source = str(la.explain(x // divisor))
            body = source[source.index("{"):]
            loop = body.index("for (")
            assert read in body[:loop], source
            division = next(line for line in body[loop:].splitlines() if "la_fqsdiv_u16(" in line)
            assert "la_fqsdiv_u16(ld" in division and (", sa" in division or ", lv" in division)
        signed = str(la.explain(x.astype(np.int16) // 9))  # (signed: the -1 test's branch)
        assert "la_fqdiv_i16(" in signed and "la_fqsdiv" not in signed
