"""`np.errstate` / `np.seterr` around lazyarray ops (stop 57, errstate57): code that does `import
numpy as np` sets NumPy's error state (SciPy's generic Array-API code has 157 such blocks:
`special.xlogy`, `integrate.tanhsinh`); NumPy's ufuncs compute inside the block, lazyarray's ops
later. Each op now reports under NumPy's state where it was built (lazyarray/fp_state.py), as
NumPy's does: each test against NumPy's own run in the same test, on both backends, at the
default and on the general path (eager_size=0)."""

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import lazyarray as la

EAGER_SIZES = [0, 4096]
CALLS: list = []


def _record(kind, flags):
    CALLS.append((kind, flags))


class _Log:
    """NumPy's 'log' mode target."""

    def write(self, text):
        CALLS.append(text)


_LOG = _Log()


def _outcome(call, lines=False):
    """`call()`'s value, its FloatingPointError's text, the RuntimeWarnings it gave (text, and
    the line where `lines`: a read warns at its own line, docs/semantics.md) and the errcall
    calls it made."""
    CALLS.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value, error = call(), None
        except FloatingPointError as exc:
            value, error = None, str(exc)
    warned = sorted({(str(w.message), w.lineno if lines else 0) for w in caught
                     if issubclass(w.category, RuntimeWarning)})
    return value, error, warned, list(CALLS)


def _same(xp_call, lines=False):
    """NumPy's run and lazyarray's of `xp_call(xp)` report the same (and give the same values)."""
    want = _outcome(lambda: xp_call(np), lines)
    got = _outcome(lambda: xp_call(la), lines)
    assert got[1:] == want[1:]
    if want[0] is not None:
        for g, w in zip(got[0], want[0]):
            np.testing.assert_array_equal(np.asarray(g), w)


# One op per category, on [1, 0.5, 0]: divide (1/0, and 0/0's invalid), overflow, underflow,
# invalid; each reads its operand as an Array built from data.
OPS = {
    "divide": lambda xp, a: a / 0.0,
    "over": lambda xp, a: xp.exp(a * 1000.0),
    "under": lambda xp, a: a * 1e-300 * 1e-300,
    "invalid": lambda xp, a: xp.log(a - 2.0),
}
MODES = ["ignore", "warn", "raise", "call", "log"]


def _state(category, mode):
    return {category: mode, **({"call": _record} if mode == "call" else
                               {"call": _LOG} if mode == "log" else {})}


def _operand(xp):
    return xp.asarray(np.array([1.0, 0.5, 0.0]))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("category", list(OPS))
def test_an_op_built_inside_np_errstate_reports_under_its_modes(backend, eager_size, category,
                                                                 mode):
    """`with np.errstate(divide='ignore'): r = a / 0` read after the block (or read inside it,
    or used by an op after it) warned on Arrays (lazyarray's own modes, 'warn'), and raised
    nothing under np.errstate(all='raise'): NumPy's ufunc computed inside the block. Now an op
    reports under NumPy's error state where it was built, with NumPy's 'call' arguments."""
    op, state = OPS[category], _state(category, mode)

    def read_after(xp):
        a = _operand(xp)
        with np.errstate(**state):
            r = op(xp, a)
        return [np.asarray(r)]

    def read_inside(xp):
        a = _operand(xp)
        with np.errstate(**state):
            r = op(xp, a)
            return [np.asarray(r)]

    def used_after(xp):
        a = _operand(xp)
        with np.errstate(**state):
            r = op(xp, a)
        return [np.asarray(r * 2.0)]

    with la.config(eager_size=eager_size):
        for program in (read_after, read_inside, used_after):
            _same(program)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("category", list(OPS))
def test_an_op_built_before_np_errstate_reports_under_the_modes_before(backend, eager_size,
                                                                       category, mode):
    """An op built before the block, read inside it or computed there with a sibling that
    shares its input: NumPy computed it at its line, under the modes there. lazyarray computes
    the pending ops when a node is built under another state (and a read reports under the
    state its ops were built in), its warnings at the lines that built them."""
    op, state = OPS[category], _state(category, mode)

    def read_inside(xp):
        a = _operand(xp)
        r = op(xp, a)
        with np.errstate(**state):
            return [np.asarray(r)]

    def sibling_inside(xp):
        a = _operand(xp)
        r = op(xp, a)
        with np.errstate(**state):
            s = a + 1.0
        return [np.asarray(r), np.asarray(s)]

    with la.config(eager_size=eager_size):
        _same(read_inside)
        # computed at the sibling's line where the block changes a mode: warns at r's line
        _same(sibling_inside, lines=mode != "warn")


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_np_seterr_statement_governs_the_ops_built_after_it(backend, eager_size):
    """`np.seterr(...)` (NumPy 2: this context's state), then ops, then the old modes back."""
    def program(xp, mode):
        a = _operand(xp)
        old = np.seterr(divide=mode, invalid=mode)
        old_call = np.seterrcall(_LOG if mode == "log" else _record)
        try:
            r = a / 0.0
        finally:
            np.seterr(**old)
            np.seterrcall(old_call)
        return [np.asarray(r)]

    with la.config(eager_size=eager_size):
        for mode in MODES:
            _same(lambda xp: program(xp, mode))


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_idioms_of_consumers_are_silent_as_numpys(backend, eager_size):
    """SciPy's `xlogy` (`with np.errstate(divide='ignore', invalid='ignore'): temp = x *
    xp.log(y)`), the masked division idiom, a loop inside a block, composites (mean, var, std)
    of operands built before the block, and np.errstate around la.errstate."""
    def xlogy(xp):
        x, y = xp.asarray(np.array([1.0, 0.0, 2.0])), xp.asarray(np.array([-1.0, 0.0, 3.0]))
        with np.errstate(divide="ignore", invalid="ignore"):
            temp = x * xp.log(y)
        return [np.asarray(xp.where(x == 0, 0.0, temp))]

    def masked_division(xp):
        a, b = xp.asarray(np.array([1.0, 2.0, 0.0])), xp.asarray(np.array([0.0, 1.0, 0.0]))
        with np.errstate(divide="ignore", invalid="ignore"):
            r = xp.where(b != 0, a / b, 0)
        return [np.asarray(r)]

    def loop(xp):
        x = xp.asarray(np.array([0.0, 1.0, 2.0, 3.0]))
        acc = x * 0
        with np.errstate(divide="ignore", invalid="ignore"):
            for k in range(4):
                acc = acc + xp.log(x) * k / (x - 1.0)
        return [np.asarray(acc)]

    def composites(xp):
        a = xp.asarray(np.array([1.0, 0.0, 3.0]))
        p = a / 0.0  # built under 'warn': warns at this line, as NumPy's
        with np.errstate(divide="ignore", invalid="ignore"):
            m = xp.mean(p) + xp.var(p) + xp.std(xp.log(a))
        return [np.asarray(m)]

    def nested(xp):
        x = xp.asarray(np.array([0.0, 1.0]))
        errstate = la.errstate if xp is la else np.errstate
        with np.errstate(divide="ignore"):
            with errstate(invalid="ignore"):
                r = xp.log(x) + x / 0.0
            s = x / 0.0
        return [np.asarray(r), np.asarray(s)]

    with la.config(eager_size=eager_size):
        for program in (xlogy, masked_division, loop, composites, nested):
            _same(program)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_raise_inside_a_try_reaches_the_handler(backend, eager_size):
    """`with np.errstate(divide='raise'): try: r = a / 0 except FloatingPointError` reaches the
    handler as NumPy's does; an in-place op (`a /= 0`) has written its result first."""
    def divide(xp):
        a = xp.asarray(np.array([1.0, 0.0, 3.0]))
        with np.errstate(divide="raise"):
            try:
                r = a / 0.0
                return [np.asarray(r), np.asarray(0)]
            except FloatingPointError as exc:
                return [np.asarray(a), np.asarray(str(exc))]

    def in_place(xp):
        a = xp.asarray(np.array([1.0, 2.0, 3.0]))
        with np.errstate(divide="raise"):
            try:
                a /= 0.0
                text = ""
            except FloatingPointError as exc:
                text = str(exc)
        return [np.asarray(a), np.asarray(text)]

    with la.config(eager_size=eager_size):
        for program in (divide, in_place):
            _same(program)


def test_geterr_and_geterrcall_follow_np_errstate(reference_backend):
    """la.geterr() is the modes an op built now reports under: np.errstate's too."""
    with np.errstate(divide="ignore", over="raise", call=_record):
        assert la.geterr() == np.geterr()
        assert la.geterrcall() is _record
    assert la.geterr() == np.geterr()


def test_call_mode_passes_every_flag_the_op_raised(backend):
    """NumPy's 'call' passes the category's name and every flag its ufunc call raised (`[1, 0]
    / 0`: divide and invalid, 9); lazyarray passed the one category's bit (1), under
    la.errstate(call=) too."""
    def program(xp, errstate):
        a = xp.asarray(np.array([1.0, 0.0]))
        with errstate(divide="call", invalid="call", call=_record):
            r = a / 0.0
        return [np.asarray(r)]

    want = _outcome(lambda: program(np, np.errstate))
    assert want[3] == [("divide by zero", 9), ("invalid value", 9)]
    for errstate in (np.errstate, la.errstate):
        assert _outcome(lambda: program(la, errstate))[1:] == want[1:]


def test_jit_call_inside_np_errstate(backend):
    """A la.jit function's call computes at the call: under NumPy's state there."""
    f = la.jit(lambda x: la.log(x) / x)
    x = np.array([0.0, 1.0, -1.0])

    def program(xp, fn):
        with np.errstate(divide="ignore", invalid="ignore"):
            r = fn(xp.asarray(x))
        return [np.asarray(r)]

    want = _outcome(lambda: program(np, lambda v: np.log(v) / v))
    program(la, f)  # (traced once)
    assert _outcome(lambda: program(la, f))[1:] == want[1:]


def test_np_errstate_inside_a_jit_function(backend):
    """An np.errstate block inside a la.jit function (SciPy's xlogy called in one): its ops
    report under the block's state at every call, the others under the state at the call."""
    def body(xp):
        def f(x):
            with np.errstate(divide="ignore", invalid="ignore"):
                y = xp.log(x) / x
            return y, xp.sqrt(x - 2.0)  # (outside the block: 'invalid value' in sqrt)
        return f

    x = np.array([0.0, 1.0, -1.0])
    f = la.jit(body(la))
    for state in ({}, {"invalid": "ignore"}, {"invalid": "raise"}):
        def program(xp, fn):
            with np.errstate(**state):
                return [np.asarray(r) for r in fn(xp.asarray(x))]

        want = _outcome(lambda: program(np, body(np)))
        for _ in range(2):  # (the trace's call, then a call of the trace)
            assert _outcome(lambda: program(la, f))[1:] == want[1:]


@pytest.mark.lazy_only
def test_a_block_with_the_same_modes_computes_nothing(reference_backend):
    """Entering a state that changes no mode (`np.errstate(divide='warn')` under the default)
    leaves the pending ops pending: they still fuse with what follows."""
    a = la.asarray(np.array([1.0, 2.0]))
    r = a * 2.0
    with np.errstate(divide="warn", over="warn"):
        s = r + 1.0
    assert r._node.inputs and s._node.inputs
    np.testing.assert_array_equal(np.asarray(s), [3.0, 5.0])


def test_scipy_xlogy_of_arrays_is_silent_as_numpys():
    """scipy.special.xlogy (SciPy's Array-API path) of a negative y warned 'invalid value
    encountered in log' on Arrays at the read; NumPy's (computed inside SciPy's np.errstate) is
    silent. A fresh interpreter: SciPy reads SCIPY_ARRAY_API at its first import."""
    pytest.importorskip("scipy")
    program = textwrap.dedent("""
        import warnings
        import numpy as np
        import lazyarray as la
        import scipy.special as sc
        warnings.simplefilter("error")
        x, y = np.array([1.0, 0.0, 2.0, 3.0]), np.array([-1.0, 0.0, 3.0, -2.0])
        for eager_size in (4096, 0):
            with la.config(backend="numpy", eager_size=eager_size):
                got = sc.xlogy(la.asarray(x), la.asarray(y))
                assert isinstance(got, la.Array)
                np.testing.assert_array_equal(np.asarray(got), sc.xlogy(x, y))
        print("ok")
    """)
    env = dict(os.environ, SCIPY_ARRAY_API="1")
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.stdout.strip() == "ok", out.stderr


def test_a_jit_trace_leaves_nothing_pending(backend):
    """The first call of a la.jit function returning a tuple traced Arrays that stayed pending
    (markers of the output tree): a recording `warnings.catch_warnings` block's exit, a
    la.errstate entry or a change of NumPy's state computed them again, and the call's
    warnings came twice (NumPy's call: once)."""
    def body(xp):
        return lambda x: (xp.log(x), xp.sqrt(x))

    x = np.array([0.0, 1.0, -1.0])
    f = la.jit(body(la))
    for fn, xp in ((body(np), np), (f, la)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = [np.asarray(r) for r in fn(xp.asarray(x))]
        if xp is np:
            want = sorted(str(w.message) for w in caught)
            want_out = out
    assert sorted(str(w.message) for w in caught) == want
    for g, w in zip(out, want_out):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("eager_size", EAGER_SIZES)
def test_states_left_with_no_op_between_are_followed(backend, eager_size):
    """`with np.errstate(invalid='raise'), la.errstate(invalid='raise'): pass` then a mean of an
    empty array: la.errstate's exit handed over to NumPy's block's state, which then ended with
    no op built in between; the watch still compared with the state before both blocks, saw
    nothing change, and the mean raised FloatingPointError (NumPy's warns)."""
    def program(xp):
        with np.errstate(invalid="raise"), la.errstate(invalid="raise"):
            pass
        return [np.asarray(xp.mean(xp.asarray(np.zeros((2, 0)))))]

    with la.config(eager_size=eager_size):
        _same(program)
