"""No undefined behaviour in generated C: every UB-prone case gives NumPy's (or graph/semantics.py's)
answer. All cases compile as one translation unit; each is compared with the op's NumPy reference."""

import c_programs as P
import numpy as np
import pytest
from lazyarray.graph import get_op
from lazyarray.graph.kernel_ir import BufferSpec, Kernel, Load, Program, Reduce, Stage, Store
from lazyarray.runtime.c import compiler as c_compiler
from lazyarray.runtime.c.backend import CBackend

# One worker runs this module (`--dist loadgroup`): its module fixture compiles every case once.
pytestmark = [pytest.mark.skipif(CBackend.unavailable_reason() is not None,
                                 reason="no working C compiler"),
              pytest.mark.xdist_group("test_c_semantics")]

SIGNED = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
INTS = SIGNED + UNSIGNED
APPROXIMATE = ("logaddexp", "power")


def _int_pairs(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """Operand pairs that hit division by 0, MIN // -1, overflow, mixed signs, big shifts."""
    info = np.iinfo(dtype)
    bits = np.dtype(dtype).itemsize * 8
    vals = [0, 1, -1, 2, -2, 7, -7, 3, info.min, info.max, info.min + 1, info.max - 1, bits - 1,
            bits, bits + 1, 100, -100]
    vals = [v for v in vals if info.min <= v <= info.max]
    a, b = np.meshgrid(np.array(vals, dtype), np.array(vals, dtype))
    return a.ravel(), b.ravel()


_FLOATS = [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, -7.0, 0.5, 1e30, -1e30, np.inf, -np.inf, np.nan]


def _float_pairs(dtype: str):
    a, b = np.meshgrid(np.array(_FLOATS, dtype), np.array(_FLOATS, dtype))
    return a.ravel(), b.ravel()


def _cases():
    cases = []
    for dt in INTS:
        a, b = _int_pairs(dt)
        for name in ("floor_divide", "remainder", "add", "subtract", "multiply",
                     "bitwise_left_shift", "bitwise_right_shift", "power", "maximum", "minimum"):
            cases.append((name, [a, b]))
        for name in ("negative", "abs", "sign", "reciprocal", "square"):
            cases.append((name, [a]))
    for dt in ("float32", "float64"):
        a, b = _float_pairs(dt)
        for name in ("maximum", "minimum", "floor_divide", "remainder", "logaddexp", "power",
                     "divide"):
            cases.append((name, [a, b]))
        for name in ("sign", "rint", "reciprocal", "abs"):
            cases.append((name, [a]))
    return cases


def _cast_cases():
    out = []
    big = [np.nan, np.inf, -np.inf, -0.5, 0.5, -1.0, -1.5, 127.9, 128.0, -128.5, -129.0, 255.5,
           256.0, 32767.5, 65536.0, 2.0**31, -2.0**31, -2.0**31 - 1, 2.0**32, 2.0**63, -2.0**63,
           2.0**64, 1e30, -1e30, 3.0, -3.7]
    for src in ("float32", "float64"):
        x = np.array(big, src)
        for dst in INTS + ["bool", "float32", "float64"]:
            out.append((src, dst, x))
    x = np.array([0, 1, -1, 127, -128, 255, 300, -300, 2**40, -(2**40)], "int64")
    for dst in INTS + ["bool", "float32"]:
        out.append(("int64", dst, x))
    return out


def _reference(name, xs, out_dtype):
    op = get_op(name)
    with np.errstate(all="ignore"):
        return np.asarray(op.reference(tuple(xs), (), np.dtype(out_dtype))).astype(out_dtype)


def _result_dtype(name, xs):
    with np.errstate(all="ignore"):
        return np.asarray(get_op(name).reference(tuple(xs), (), xs[0].dtype)).dtype


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """Run every case in one program (one compile); return {case id: (got, expected)}."""
    saved = c_compiler.cache_dir_override
    c_compiler.cache_dir_override = str(tmp_path_factory.mktemp("kernels"))
    programs, inputs, expected, ids = [], [], [], []
    for name, xs in _cases():
        out_dt = _result_dtype(name, xs)
        programs.append(P.elementwise_program(name, [x.dtype for x in xs], out_dt, xs[0].size))
        inputs.extend(xs)
        expected.append(_reference(name, xs, out_dt))
        ids.append(f"{name}-{xs[0].dtype}")
    for src, dst, x in _cast_cases():
        programs.append(P.elementwise_program("cast", [src], dst, x.size))
        inputs.append(x)
        expected.append(_reference("cast", [x], dst))
        ids.append(f"cast-{src}-{dst}")
    merged = P.merge_programs(programs)
    got = CBackend().compile(merged).run(inputs, [])
    c_compiler.cache_dir_override = saved
    return dict(zip(ids, zip(got, expected)))


def _ids():
    ids = [f"{name}-{xs[0].dtype}" for name, xs in _cases()]
    return ids + [f"cast-{s}-{d}" for s, d, _ in _cast_cases()]


@pytest.mark.parametrize("case", _ids())
def test_matches_numpy_reference(results, case):
    got, expected = results[case]
    assert got.dtype == expected.dtype
    if case.split("-")[0] in APPROXIMATE and got.dtype.kind == "f":
        # libm (vector) transcendental functions: within a few ulp; special values exact.
        rtol = 4e-7 if got.dtype == np.float32 else 1e-15
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=0)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(expected))
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_max_min_reductions_propagate_nan(tmp_path, name, dtype):
    c_compiler.cache_dir_override = str(tmp_path)
    try:
        x = np.arange(40, dtype=dtype).reshape(4, 10)
        x[1, 3] = np.nan
        x[2, 9] = np.nan
        k = Kernel(name, (4, 10), 1, (
            Stage(True, (Load(0, (10, 1), 0, x.dtype),), (Reduce(get_op(name), 0, x.dtype),)),
            Stage(False, (P.AccRef(0, 0, x.dtype),), (), (Store(1, (1, 0), 0, 0),))))
        prog = Program((BufferSpec((4, 10), x.dtype, 0), BufferSpec((4,), x.dtype, 1)), (0,), (),
                       (1,), (k,))
        got = CBackend().compile(prog).run([x], [])[0]
        np.testing.assert_array_equal(got, getattr(np, name)(x, axis=1))
    finally:
        c_compiler.cache_dir_override = None


def test_argmax_nan_and_ties():
    x = np.array([[1, 5, 5, np.nan, 2], [3, 3, 3, 3, 3], [np.nan, 9, np.nan, 0, 9],
                  [0, 1, 2, 3, 4]], "float32").T.copy()
    prog, arrays, scalars, expected = P.argmax_cols(5, 4, "float32", x)
    np.testing.assert_array_equal(CBackend().compile(prog).run(arrays, scalars)[0], expected[0])
