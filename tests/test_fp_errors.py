"""Floating-point errors as NumPy reports them (lazyarray/fp_errors.py): each case runs inside a
fused kernel of several ops on every backend, under warn / raise / ignore, against what NumPy
itself reports for the same expression evaluated eagerly."""

import os
import sys
import threading
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazyarray as la
from lazyarray.runtime import available_backends
from numpy_oracle import without_flag_warnings
from together import compile_together

Z, O = np.zeros(8), np.ones(8)
_COMPILED: dict = {}  # sweeps whose C kernels are compiled in one unit (tests/together.py)

# name -> (expression over a namespace `m`, the arrays); evaluated by NumPy and by lazyarray.
CASES = {
    "0/0": (lambda m, a, b: (a / b) * 2 + 1, (Z, Z)),
    "1/0": (lambda m, a, b: (a / b) * 2 - b, (O, Z)),
    "exp overflow float64": (lambda m, a: m.exp(a * 2) + 1, (np.full(8, 600.0),)),
    "exp overflow float32": (lambda m, a: m.exp(a) * 2 + 1, (np.full(8, 100, np.float32),)),
    "log(0)": (lambda m, a: m.log(a) * 2 + 1, (Z,)),
    "log(-1)": (lambda m, a: m.log(a - 2) * 2 + 1, (O,)),
    "log(0) float32": (lambda m, a: m.log(a) * 2 + 1, (Z.astype(np.float32),)),
    "nan to int": (lambda m, a: (a * 2 + 1).astype(np.int64), (np.full(8, np.nan),)),
    "inf to int32": (lambda m, a: (a * 2 + 1).astype(np.int32), (np.full(8, np.inf),)),
    "int // 0": (lambda m, a, b: (a // b) + 1, (np.ones(8, np.int64), np.zeros(8, np.int64))),
    "int % 0": (lambda m, a, b: (a % b) * 3, (np.ones(8, np.int32), np.zeros(8, np.int32))),
    "two errors, two ops": (lambda m, a, b: m.log(a) + a / b, (Z, Z)),
}


def numpy_messages(expr, arrays):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with np.errstate(all="warn", under="ignore"):
            expected = expr(np, *arrays)
    return expected, [str(w.message) for w in seen if w.category is RuntimeWarning]


@pytest.mark.xdist_group("test_warn_names_numpy_message_and_user_line")
@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("name", sorted(CASES))
def test_warn_names_numpy_message_and_user_line(backend, name):
    compile_together(_COMPILED, ("warn", backend), [
        lambda e=e, a=a: e(la, *[la.asarray(v) for v in a]) for e, a in CASES.values()])
    expr, arrays = CASES[name]
    expected, messages = numpy_messages(expr, arrays)
    assert messages
    for _ in range(3):  # first build, then the cached plan (the compiled hit path on C)
        with warnings.catch_warnings(record=True) as seen:  # (built inside: its entry computes
            warnings.simplefilter("always")  # the pending ops built before it)
            y = expr(la, *[la.asarray(a) for a in arrays])
            line = sys._getframe().f_lineno + 1
            got = np.asarray(y)
        if "to int" not in name:  # NaN -> 0, saturation by definition (graph/semantics.py)
            np.testing.assert_array_equal(got, expected)
        ours = [w for w in seen if w.category is RuntimeWarning]
        assert sorted({str(w.message) for w in ours}) == sorted(set(messages))
        assert all(w.filename == __file__ and w.lineno == line for w in ours)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.needs("fp_errors")
def test_raise_raises_numpy_error(backend, name):
    expr, arrays = CASES[name]
    with np.errstate(all="raise", under="ignore"):
        with pytest.raises(FloatingPointError) as expected:
            expr(np, *arrays)
    for _ in range(3):
        args = [la.asarray(a) for a in arrays]
        with la.errstate(all="raise", under="ignore"):
            y = expr(la, *args)
            with pytest.raises(FloatingPointError) as got:
                np.asarray(y)
        assert str(got.value) == str(expected.value)


@pytest.mark.parametrize("name", sorted(CASES))
def test_ignore_is_silent(backend, name):
    expr, arrays = CASES[name]
    with np.errstate(all="ignore"):
        expected = expr(np, *arrays)
    for _ in range(3):
        args = [la.asarray(a) for a in arrays]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with la.errstate(all="ignore"):
                y = expr(la, *args)
            got = np.asarray(y)  # read after the block: its ops ran under the block's modes
        if "to int" not in name:
            np.testing.assert_array_equal(got, expected)


@pytest.mark.needs("fp_errors")
def test_call_print_log_modes_as_numpy(backend, capfd):
    a, b = np.ones(4), np.zeros(4)
    calls, theirs = [], []
    with np.errstate(divide="call", call=lambda *args: theirs.append(args)):
        a / b
    with la.errstate(divide="call", call=lambda *args: calls.append(args)):
        np.asarray(la.asarray(a) / la.asarray(b) + 1)
    assert calls == theirs == [("divide by zero", 1)]

    class Log:
        def __init__(self):
            self.lines = []

        def write(self, text):
            self.lines.append(text)

    ours, numpys = Log(), Log()
    with np.errstate(divide="log", call=numpys):
        a / b
    with la.errstate(divide="log", call=ours):
        np.asarray(la.asarray(a) / la.asarray(b) + 1)
    assert ours.lines == numpys.lines
    capfd.readouterr()
    with np.errstate(divide="print"):  # NumPy prints from C: captured at the file descriptor
        a / b
    theirs = capfd.readouterr()
    with la.errstate(divide="print"):
        np.asarray(la.asarray(a) / la.asarray(b) + 1)
    sys.stderr.flush()
    assert capfd.readouterr() == theirs and theirs.err != ""


def test_errstate_decorator_seterr_geterr_seterrcall():
    assert la.geterr() == np.geterr()  # same defaults: warn, warn, ignore, warn

    @la.errstate(all="ignore")
    def quiet():
        return la.geterr()

    assert quiet() == {"divide": "ignore", "over": "ignore", "under": "ignore", "invalid": "ignore"}

    @la.errstate(divide="raise")
    def recursive(n):  # each call its own block: the outer one is still in effect after
        inner = recursive(n - 1) if n else None
        return la.geterr()["divide"], inner

    assert recursive(2) == ("raise", ("raise", ("raise", None)))
    assert la.geterr()["divide"] == "warn"
    assert la.geterr()["divide"] == "warn"
    old = la.seterr(divide="raise")
    try:
        assert old["divide"] == "warn" and la.geterr()["divide"] == "raise"
        with pytest.raises(FloatingPointError, match="divide by zero encountered in divide"):
            np.asarray(la.asarray(np.ones(2)) / la.asarray(np.zeros(2)))
    finally:
        la.seterr(**old)
    f = print
    old_call = la.seterrcall(f)
    try:
        assert la.geterrcall() is f
    finally:
        la.seterrcall(old_call)
    with pytest.raises(ValueError):
        la.errstate(divide="loud")
    with pytest.raises(ValueError):
        la.seterrcall(3)


@pytest.mark.needs("fp_errors")
def test_ops_report_under_the_modes_of_the_line_that_built_them(backend):
    """NumPy computes at the line: `with np.errstate(divide='ignore'): r = np.where(b != 0,
    a / b, 0)` is silent however r is read later; an op built under laxer modes does not raise
    in a stricter block, and one built under 'warn' warns (at the block's entry at the latest).
    A block's own pending ops are computed at its exit; all pending ops before a block or
    la.seterr makes a mode stricter."""
    a, b = la.asarray(np.array([1.0, 2.0, 0.0])), la.asarray(np.array([0.0, 1.0, 0.0]))
    for _ in range(2):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with la.errstate(divide="ignore", invalid="ignore"):
                r = la.where(b != 0, a / b, 0)
            assert not r._node.inputs  # computed at the block's exit
            np.testing.assert_array_equal(np.asarray(r), [0.0, 2.0, 0.0])
            old = la.seterr(all="raise")
            try:
                with la.errstate(all="ignore"):
                    q = la.log(b)
                np.testing.assert_array_equal(np.asarray(q), [-np.inf, 0.0, -np.inf])
            finally:
                la.seterr(**old)
            old = la.seterr(all="ignore")
            s = la.log(b)  # built under 'ignore'
            la.seterr(**old)  # stricter again: s is computed first, under 'ignore'
            with la.errstate(all="raise"):
                np.testing.assert_array_equal(np.asarray(s), [-np.inf, 0.0, -np.inf])
        with pytest.warns(RuntimeWarning, match="divide by zero encountered in divide"):
            t = a / b  # built under 'warn': warns when a block makes divide stricter
            with la.errstate(divide="raise"):
                assert not t._node.inputs
        with pytest.raises(FloatingPointError, match="divide by zero encountered in log"):
            with la.errstate(divide="raise"):
                u = la.log(b)  # noqa: F841  (computed at the exit: NumPy raised at the line)



def _filtered_blocks(m, conv):
    """Ops built inside `warnings.catch_warnings` blocks and read after them (probe51)."""
    a, b = conv(np.array([1.0, 0.0, -1.0])), conv(np.zeros(3))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = a / b
    ignored = r + 1
    with warnings.catch_warnings(record=True) as log:
        warnings.simplefilter("always")
        s = m.log(a)
    recorded = [s * 2, sorted(str(w.message) for w in log)]
    t = a / b  # built before the next block: NumPy warned here, outside it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        u = t * 2
    return ignored, recorded, u


@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("eager_size", [0, 4096])
def test_warning_filter_blocks_hold_for_lazy_ops(backend, eager_size):
    """NumPy computes at the line: an op built in `with warnings.catch_warnings():
    warnings.simplefilter("ignore")` is silent however it is read later, `record=True` records
    its warnings in the block's list, and an op built before a block warns outside it. A lazy
    op read after the block warned there, or not at all into the list (lazyarray/
    warning_blocks.py: the blocks' edges compute the pending ops)."""
    def run(m, conv):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ignored, (s2, log), u = _filtered_blocks(m, conv)
            values = [np.asarray(ignored), np.asarray(s2), np.asarray(u)]
        return values, log, sorted((str(w.message), w.lineno) for w in caught)

    want = run(np, np.asarray)
    with la.config(eager_size=eager_size):
        for _ in range(2):  # built, then the plans' hit paths
            got = run(la, la.asarray)
            for g, w in zip(got[0], want[0]):
                np.testing.assert_array_equal(g, w)
            assert got[1:] == want[1:]


def test_warning_blocks_of_installed_code_compute_nothing_of_the_users():
    """Only a user's blocks compute the pending ops: Dask's scheduler enters catch_warnings
    around its tasks, and computing there read whole out-of-core inputs into memory
    (tests/test_dask_cluster.py's peak grew by 194 MB). A block in a file under the installed
    packages' path leaves a pending op pending; one in the user's file computes it."""
    import sysconfig

    installed = os.path.join(sysconfig.get_paths()["purelib"], "some_package", "module.py")
    enter = compile("with warnings.catch_warnings():\n    pass\n", installed, "exec")
    with la.config(eager_size=0):
        pending = la.asarray(np.arange(3.0)) * 2
        exec(enter, {"warnings": warnings})
        assert pending._node.inputs  # still pending after the installed code's block
        with warnings.catch_warnings():
            pass
        assert not pending._node.inputs  # the user's block computed it at its entry

def test_nothing_fired_nothing_reported(backend):
    """Finite values and an inf input that propagates (no flag in NumPy either) stay silent."""
    x = np.array([1.0, np.inf, -2.0, 3.0])
    for _ in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = np.asarray(la.tanh(la.asarray(x)) * 2 + la.asarray(x))
    np.testing.assert_array_equal(got, np.tanh(x) * 2 + x)


_TRUNCATED_INTO = ["uint8", "uint64", "int8", "int16", "int32"]
_TRUNCATED_FROM = ["float64", "float32"]


def _truncated_values(dtype, src) -> np.ndarray:
    low = float(np.iinfo(dtype).min)
    return np.array([-0.5, -1e-20, -0.99, low - 0.5, low, 1.0, 0.5], src)


@pytest.mark.xdist_group("test_casts_whose_truncation_is_in_range_are_silent")
@pytest.mark.parametrize("dtype", _TRUNCATED_INTO)
@pytest.mark.parametrize("src", _TRUNCATED_FROM)
def test_casts_whose_truncation_is_in_range_are_silent(backend, dtype, src):
    """-0.5 into uint8 and -128.5 into int8 truncate into the range: NumPy's cast raises no
    flag, and neither may the reference's range test (graph/semantics.py `cast`, the at-once
    path's) or the C kernels' (runtime/c/prelude.py `_cast_flag`). tests/test_fuzz_at_once.py
    found `C[-2] = A[-3] / t1[1]` (a tiny negative into uint8) raising under errstate."""
    compile_together(_COMPILED, ("truncation", backend), [
        lambda x=_truncated_values(d, f), d=d: (la.asarray(x) * 1).astype(d)
        for d in _TRUNCATED_INTO for f in _TRUNCATED_FROM])
    x = _truncated_values(dtype, src)
    want = x.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        at_once = la.asarray(x.copy())
        at_once[0] = x[0]  # a buffer of its own: its element ops run at once
        for k in range(x.size):
            assert la.asarray(np.zeros(1, dtype))[0] == 0  # (warm the path)
            assert np.asarray(at_once[k].astype(dtype)) == want[k]
        got = np.asarray((la.asarray(x) * 1).astype(dtype))
    np.testing.assert_array_equal(got, want)


def test_threads_gather_flags_on_c():
    """A kernel big enough to run on several OpenMP threads: a flag raised by a worker thread's
    chunk only (the zero sits at the end) reaches the evaluation's report."""
    n = 1 << 18
    b = np.ones(n)
    b[-1] = 0.0
    with la.config(backend="c", num_threads=2):
        for _ in range(2):
            with pytest.warns(RuntimeWarning, match="divide by zero encountered in divide"):
                np.asarray(la.asarray(np.ones(n)) / la.asarray(b) * 2)


def test_a_c_plans_concat_is_numpys_call_and_keeps_the_flags_raised_before_it():
    """A C plan's concat of inputs of its dtype is NumPy's concatenate written into the launcher
    (runtime/c/launch.py `_library_call`: run_library_call's errstate cost ~4 us a step, nbody's
    hstack each step); a flag a kernel raised before it still reaches the report."""
    from lazyarray.runtime.c import launch
    big = np.full((6, 6), 1e200)
    m = np.ones((6, 1))
    with la.config(backend="c", eager_size=0):
        for _ in range(2):  # (the second run takes the cached plan's launcher)
            a, w = la.asarray(big), la.asarray(m)
            with pytest.warns(RuntimeWarning, match="overflow encountered in multiply"):
                got = la.concat([(a * a) @ w, a @ w], axis=1)
                np.asarray(got)
            np.testing.assert_array_equal(np.asarray(got)[:, 0], np.inf)
            np.testing.assert_array_equal(np.asarray(got)[:, 1], 6e200)
    assert any("concatenate((" in source for source in launch._CODE)


@pytest.mark.needs("fp_errors")
def test_jit_reports_as_numpy(backend):
    """la.jit's traced plan reports with the call's own values and line."""
    @la.jit
    def f(a, b, s):
        return la.log(a * s) + a / b

    def g(m, a, b, s):
        return m.log(a * s) + a / b

    a, b = np.array([0.0, 1.0, 2.0]), np.array([0.0, 1.0, 0.0])
    expected, messages = numpy_messages(g, (a, b, 2.0))
    assert len(messages) == 3  # log: divide by zero; divide: divide by zero, invalid
    for _ in range(3):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            line = sys._getframe().f_lineno + 1
            got = f(la.asarray(a), la.asarray(b), 2.0)
        np.testing.assert_array_equal(np.asarray(got), expected)
        assert sorted(str(w.message) for w in seen) == sorted(messages)
        assert all((w.filename, w.lineno) == (__file__, line) for w in seen)
    with la.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        f(la.asarray(a), la.asarray(b), 2.0)
    with la.errstate(invalid="raise", divide="ignore"):
        with pytest.raises(FloatingPointError, match="invalid value encountered in divide"):
            f(la.asarray(a), la.asarray(b), 2.0)


SPECIALS = [0.0, -0.0, 1.0, -1.0, 2.5, -3.0, 1e-310, 1e308, -1e308, np.inf, -np.inf, np.nan]
UNARY = [("log", lambda m, x: m.log(x)), ("exp", lambda m, x: m.exp(x)),
         ("sqrt", lambda m, x: m.sqrt(x)), ("tanh", lambda m, x: m.tanh(x)),
         ("square", lambda m, x: x * x), ("recip", lambda m, x: 1.0 / x),
         ("arcsin", lambda m, x: m.arcsin(x)), ("log1p", lambda m, x: m.log1p(x))]
BINARY = [("add", lambda m, x, y: x + y), ("sub", lambda m, x, y: x - y),
          ("mul", lambda m, x, y: x * y), ("div", lambda m, x, y: x / y),
          ("floordiv", lambda m, x, y: x // y), ("mod", lambda m, x, y: x % y)]


# derandomized: random draws found C's `%` of a subnormal differing from NumPy's (open)
@settings(max_examples=20, derandomize=True)
@given(values=st.lists(st.sampled_from(SPECIALS), min_size=2, max_size=12),
       steps=st.lists(st.tuples(st.integers(0, len(UNARY) - 1), st.integers(0, len(BINARY) - 1)),
                      min_size=2, max_size=4),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_random_fused_chains_warn_as_numpy(values, steps, dtype):
    """A chain of unary and binary ops over special values, fused into one kernel: the set of
    NumPy's messages, and the values, on every backend (the `backend` fixture cannot be used with
    hypothesis: the backends are looped here)."""
    with np.errstate(over="ignore"):  # 1e308 as float32 is inf
        x = np.array(values, dtype)
    y = np.roll(x, 1)

    def chain(m, a, b):
        for u, v in steps:
            a = BINARY[v][1](m, UNARY[u][1](m, a), b)
        return a

    expected, messages = numpy_messages(chain, (x, y))
    for name in [b for b in available_backends() if b != "dask"]:  # as conftest.BACKENDS
        with la.config(backend=name), warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            got = np.asarray(chain(la, la.asarray(x), la.asarray(y)))
        ours = sorted({str(w.message) for w in seen if w.category is RuntimeWarning})
        assert ours == sorted(set(messages)), (name, ours, messages)
        np.testing.assert_allclose(got, expected, rtol=1e-5 if dtype == np.float32 else 1e-12,
                                   equal_nan=True)


def test_errstate_is_per_thread_and_warns_in_its_thread():
    """A block changes this thread only (as `with la.config`); another thread evaluating at the
    same time keeps the defaults and gets its own warning."""
    seen = {}

    def other():
        seen["other mode"] = la.geterr()["divide"]
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            np.asarray(la.asarray(np.ones(2)) / la.asarray(np.zeros(2)) + 1)
        seen["other warned"] = [str(w.message) for w in got]

    with la.errstate(divide="ignore"):
        t = threading.Thread(target=other)
        t.start()
        t.join()
        seen["here"] = la.geterr()["divide"]
    assert seen == {"other mode": "warn", "here": "ignore",
                    "other warned": ["divide by zero encountered in divide"]}


def test_isclose_of_infinities_is_silent_as_numpy(backend):
    """np.isclose computes |x - y| under errstate(invalid='ignore'); la.isclose never takes
    inf - inf: same values, no warning, also with weak scalar operands."""
    v = np.array([0.0, 1.0, np.inf, -np.inf, np.nan, 1e-9], np.float32)
    x, y = np.repeat(v, v.size), np.tile(v, v.size)
    cases = [(x, y), (x, np.inf), (np.inf, y), (x, 1.0), (2.0, y)]
    for a, b in cases:
        want = np.isclose(a, b)
        wrap = [la.asarray(o) if isinstance(o, np.ndarray) else o for o in (a, b)]
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            got = np.asarray(la.isclose(*wrap))
        np.testing.assert_array_equal(got, want)


@pytest.mark.needs("fp_errors")
def test_nan_inputs_compared_in_c_do_not_rerun_every_evaluation(backend, monkeypatch):
    """C comparisons raise `invalid` on a NaN operand where NumPy's do not: the first evaluation
    re-runs and finds nothing to report, later ones of the same plan with NaN inputs skip the
    re-run; a genuine invalid value beside NaN inputs still warns every time, as NumPy."""
    from lazyarray import fp_errors

    runs = []
    real = fp_errors.numpy_messages
    monkeypatch.setattr(fp_errors, "numpy_messages", lambda rerun: runs.append(1) or real(rerun))
    x = np.array([np.nan, -1.0, 2.0, 0.5] * 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _ in range(5):
            got = np.asarray(la.maximum(la.asarray(x), 0.25) * 2)
    np.testing.assert_array_equal(got, np.maximum(x, 0.25) * 2)
    assert len(runs) <= 1
    _, messages = numpy_messages(lambda m, a: m.sqrt(a) + m.maximum(a, 0.25), (x,))
    for _ in range(3):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            np.asarray(la.sqrt(la.asarray(x)) + la.maximum(la.asarray(x), 0.25))
        assert sorted(str(w.message) for w in seen) == sorted(messages)


def test_hypot_of_nan_raises_no_invalid(backend):
    """NumPy's hypot raises no flag for a NaN operand; the C kernel's vector loop (a `>` or `==`
    on the NaN, which gcc may make signalling under -fno-trapping-math) raised invalid. Its
    comparisons are on the bits now; values are unchanged."""
    x = np.full(20000, np.nan)
    y = np.resize(np.array([1.0, np.inf, 0.0, -np.inf, np.nan]), 20000)
    with la.errstate(invalid="raise"):
        got = np.asarray(la.hypot(la.array(x), la.array(y)))
        got_t = np.asarray(la.hypot(la.array(y), la.array(x)))
    want = np.hypot(x, y)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(got_t, want)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_a_division_of_bools_raises_invalid_for_zero_by_zero(backend, backend_does, dtype):
    """`b / b` of bools (and a bool cast to float, divided): 0/0 warns `invalid`, as NumPy. The
    C kernels' bool -> float cast is a select, whose constant 0 let gcc (-fno-trapping-math)
    fold `(b ? 1 : 0) / (b ? 1 : 0)` to `b ? 1 : NaN`, raising nothing; its 0 is now a zero gcc
    cannot see (runtime/c/prelude.py `_cast`): fuzz39's sweep, seed 121524 on C (lazy)."""
    b = np.array([False, True, False, True])
    with la.config(eager_size=0):
        for make in (lambda: la.asarray(b) / la.asarray(b),
                     lambda: la.asarray(b).astype(dtype) / la.asarray(b).astype(dtype)):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                value = make()
                got = np.asarray(value)
            flagged = any("invalid value" in str(w.message) for w in caught)
            assert flagged == backend_does("fp_errors"), backend  # (CUDA: no flags)
            with np.errstate(invalid="ignore"):
                want = b / b if value.dtype == np.float64 else b.astype(dtype) / b.astype(dtype)
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", ["int64", "int8", "uint8", "uint64"])
def test_integer_fmod_by_zero_flags_divide_as_numpy(backend, backend_does, dtype):
    """NumPy's integer fmod by 0 gives 0 with 'divide by zero' (as `//` and `%`); the C kernel's
    gave the 0 silently (fuzz42's sweep: `np.fmod(q, 0)`). `fmod(x, -1)` stays silent."""
    x = np.array([5, 7, 0, 3], dtype=dtype)
    for divisor in (0, np.array([0, 1, 2, 0], dtype=dtype), -1 if dtype[0] == "i" else 1):
        seen = []
        for xp in (np, la):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                with la.config(eager_size=0):  # (the kernel, not the at-once path)
                    out = np.asarray(xp.fmod(xp.asarray(x), divisor if not isinstance(
                        divisor, np.ndarray) else xp.asarray(divisor)))
            seen.append((out.tolist(), out.dtype,
                         sorted({str(w.message).split(" encountered")[0] for w in caught})))
        if not backend_does("fp_errors"):  # the values, without the flag (CUDA has none)
            seen[0] = (*seen[0][:2], without_flag_warnings(seen[0][2]))
        assert seen[0] == seen[1], (divisor, seen)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_matmuls_overflow_warns_once_at_the_users_line(backend, backend_does, dtype):
    """NumPy's matmul inside a plan (the launcher's line, graph/_node.c's direct step, the
    steps' loop) ran under the user's error state: NumPy warned at a lazyarray line and the
    report again at the user's, two warnings where NumPy gives one. (`np.dot` names 'dot' in
    NumPy, 'matmul' here: only its count is compared.)"""
    if not backend_does("fp_errors"):
        pytest.skip("no floating-point flags on this backend")
    big = np.full((3, 3), np.finfo(dtype).max / 2, dtype)

    def messages(fn, a):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            np.asarray(fn(a))
        return [str(w.message) for w in caught], {w.filename for w in caught}

    for eager_size in (None, 0):
        with la.config(**({} if eager_size is None else {"eager_size": eager_size})):
            for _ in range(3):  # built, then the plan's hits (the launcher, the direct step)
                for fn in (lambda m, a: a @ a, lambda m, a: m.exp(a) @ a,
                           lambda m, a: m.dot(a, a)):
                    got, files = messages(lambda a: fn(la, a), la.asarray(big))
                    want, _ = messages(lambda a: fn(np, a), big)
                    assert files == {__file__}
                    if fn.__code__.co_names == ("dot",):
                        assert len(got) == len(want) == 1
                    else:
                        assert got == want


_PRODUCTS = {
    "dot_vectors": lambda m, v, M: m.dot(v, v), "dot_matrices": lambda m, v, M: m.dot(M, M.T),
    "dot_stack": lambda m, v, M: m.dot(m.stack([M, M]), M.T),
    "inner": lambda m, v, M: m.inner(M, M), "tensordot": lambda m, v, M: m.tensordot(v, v, 1),
    "vecdot": lambda m, v, M: m.vecdot(v, v), "vecdot_rows": lambda m, v, M: m.vecdot(M, v),
    "vecdot_half": lambda m, v, M: m.vecdot(v.astype(np.float16), v.astype(np.float16)),
    "matvec": lambda m, v, M: m.matvec(M, v), "vecmat": lambda m, v, M: m.vecmat(v, M.T),
    "matmul": lambda m, v, M: m.matmul(M, M.T),
}


@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("eager_size", [0, 4096])
@pytest.mark.parametrize("name", sorted(_PRODUCTS))
def test_products_report_numpys_function_name(backend, name, eager_size):
    """NumPy's dot, tensordot and inner report 'overflow encountered in dot', vecdot 'vecdot',
    matvec/vecmat their own names: lazyarray's compositions said 'matmul', or 'multiply' for
    vecdot (fuzz50; graph/ops_unchecked.py `named`)."""
    v, M = np.full(3, 1e200), np.full((2, 3), 1e200)
    if name == "vecdot_half":
        v = np.full(3, 300.0)
    messages = []
    for m in (np, la):
        with la.config(eager_size=eager_size), warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            args = (v, M) if m is np else (la.asarray(v), la.asarray(M))
            np.asarray(_PRODUCTS[name](m, *args))
        messages.append(sorted({str(w.message) for w in got}))
    assert messages[1] == messages[0]


def _scalar_reports(m, k):
    """The reports of NumPy's scalar math on 0-d results read as Python numbers first, and of a
    0-d array's ufunc, as a program's loop makes them."""
    x = m.arange(5.0) - k
    s, top, view = x.sum(), (x * 2).max(), (x + 1).reshape(-1)[:1].reshape(())
    float(s), float(top), float(view)  # evaluated: the 0-d results are computed leaves now
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = (s / 0, top % 0, view / 0, m.asarray(np.array(1.0)) / 0)
        [str(o) for o in out]
    return [str(w.message) for w in got]


@pytest.mark.needs("fp_errors")
@pytest.mark.parametrize("eager_size", [0, 4096])
def test_an_evaluated_0d_result_reports_numpys_scalar_math(backend, eager_size):
    """`s = x.sum(); float(s); s / 0` warns 'divide by zero encountered in scalar divide' in
    NumPy (np.float64's operator). lazyarray bound the computed 0-d result as an unmarked leaf,
    a 0-d *array*, and said '... in divide' (its ufunc's name), on the general path and on the
    C hit path the loop's second pass takes. A 0-d view stays an array, as NumPy's."""
    with la.config(eager_size=eager_size):
        for k in range(4):  # (k = 1, 3: the hit paths; k = 2: 0 / 0)
            assert _scalar_reports(la, k) == _scalar_reports(np, k), k
