"""NumPy 2 type promotion (NEP 50: Python scalars are weak), checked against NumPy itself."""

from __future__ import annotations

import itertools
import operator
import warnings

import numpy as np
import pytest
from numpy_oracle import SUPPORTED, assert_matches
from together import compile_together

import lazyarray as la

OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
             operator.mod, operator.pow, operator.and_, operator.or_, operator.xor,
             operator.lshift, operator.rshift, operator.eq, operator.ne, operator.lt,
             operator.le, operator.gt, operator.ge]


def _numpy_or_error(fn, *args):
    """NumPy's result, or the exception type it raises (a deprecated case counts as TypeError:
    lazyarray implements NumPy's announced future behaviour, e.g. for `+bool_array`)."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            return fn(*args), None
    except DeprecationWarning:
        return None, TypeError
    except OverflowError:
        return None, OverflowError
    except TypeError:
        return None, TypeError
    except ValueError:
        return None, ValueError


NEP50_CASES = [
    ("float32", 2.0), ("float32", 2), ("float32", True), ("int8", 2.0), ("int8", 100),
    ("int8", 1000), ("int8", -129), ("uint8", -1), ("uint8", 255), ("uint8", 256),
    ("uint64", -1), ("int64", 2**63), ("uint64", 2**64 - 1), ("bool", 1), ("bool", 1.5),
    ("int16", 1e300), ("float32", 1e300), ("uint32", 3.5),
]
NEP50_OPERATORS = [operator.add, operator.mul, operator.sub, operator.truediv]
_COMPILED: dict = {}  # backends whose NEP 50 cases' kernels are compiled (tests/together.py)


def _nep50_builders(op) -> list:
    """The operator's every case and operand order (errors left to the instances): on C their
    kernels compile in one unit (tests/together.py)."""
    def build(dtype, scalar, first):
        x = la.array(np.array([1, 2, 3], dtype=dtype))
        return op(x, scalar) if first else op(scalar, x)

    return [lambda a=(d, s, first): build(*a) for d, s in NEP50_CASES for first in (True, False)]


@pytest.mark.xdist_group("test_nep50_python_scalars")
@pytest.mark.parametrize(("dtype", "scalar"), NEP50_CASES, ids=str)
@pytest.mark.parametrize("op", [  # on C add and truediv in the fast tier, mul and sub exhaustive
    operator.add, pytest.param(operator.mul, marks=pytest.mark.exhaustive_on("c")),
    pytest.param(operator.sub, marks=pytest.mark.exhaustive_on("c")), operator.truediv],
    ids=lambda f: f.__name__)
def test_nep50_python_scalars(backend, dtype, scalar, op):
    """The result dtype, value and errors (OverflowError for ints out of range) match NumPy."""
    compile_together(_COMPILED, (backend, op.__name__), _nep50_builders(op))
    x = np.array([1, 2, 3], dtype=dtype)
    for args in ((x, scalar), (scalar, x)):
        want, error = _numpy_or_error(op, *args)
        lazy = [la.array(a) if isinstance(a, np.ndarray) else a for a in args]
        if error is not None:
            with pytest.raises(error):
                op(*lazy)
            continue
        assert_matches(op(*lazy), np.asarray(want))


def test_headline_cases():
    assert (la.zeros(3, dtype=la.float32) * 2.0).dtype == la.float32
    assert (la.zeros(3, dtype=la.int8) * 2.0).dtype == la.float64
    assert (la.zeros(3, dtype=la.uint8) + 3).dtype == la.uint8
    assert (la.zeros(3, dtype=la.int64) + la.zeros(3, dtype=la.uint64)).dtype == la.float64
    with pytest.raises(OverflowError, match="1000"):
        la.zeros(3, dtype=la.int8) + 1000
    with pytest.raises(OverflowError, match="-1"):
        la.zeros(3, dtype=la.uint8) + -1


@pytest.mark.parametrize("op", OPERATORS, ids=lambda f: f.__name__)
def test_array_array_promotion_for_every_operator_and_dtype_pair(op, reference_backend):
    """All 121 dtype pairs through each Python operator: NumPy's dtype, value or TypeError.

    Promotion happens in the front end, before any backend sees the graph, so this runs on the
    reference backend only; every backend's values for every accepted dtype loop are checked by
    test_ops_elementwise.test_every_accepted_dtype_combination (which runs on all of them)."""
    rng = np.random.default_rng(0)
    outs, wants = [], []
    for d1, d2 in itertools.product(SUPPORTED, SUPPORTED):
        a = (rng.integers(1, 5, (2, 3))).astype(d1)
        b = (rng.integers(1, 5, (3,))).astype(d2)
        want, error = _numpy_or_error(op, a, b)
        if error is not None:
            with pytest.raises(error):
                op(la.array(a), la.array(b))
            continue
        outs.append(op(la.array(a), b))  # a NumPy operand on the right
        outs.append(op(a, la.array(b)))  # reflected: a NumPy operand on the left
        want = np.asarray(want)
        wants += [want] * 2
    for got, want in zip(la.eval(*outs), wants):
        assert_matches(got, want)


def test_numpy_scalars_are_strong():
    """np.float64(2) is a typed scalar, not a weak Python float (as in NumPy 2)."""
    x = la.zeros(2, dtype=la.float32)
    assert (x * np.float64(2)).dtype == np.dtype("float64")
    assert (np.float32(2) * la.zeros(2, dtype=la.int8)).dtype == np.dtype("float32")
    assert (la.zeros(2, dtype=la.int8) + np.int16(1)).dtype == np.dtype("int16")


def test_unary_operators(backend):
    for dt in SUPPORTED:
        x = np.array([0, 1, 3], dtype=dt)
        for op in (operator.neg, operator.pos, operator.abs, operator.invert):
            want, error = _numpy_or_error(op, x)
            if error is not None:
                with pytest.raises(error):
                    op(la.array(x))
            else:
                assert_matches(op(la.array(x)), want)


def test_divmod_and_round(backend):
    x = np.array([-3.5, 2.25, 7.0])
    q, r = divmod(la.array(x), 2)
    assert_matches(q, x // 2) and assert_matches(r, x % 2)
    q, r = divmod(5, la.array(x))
    assert_matches(q, 5 // x) and assert_matches(r, 5 % x)
    assert_matches(round(la.array(x)), np.round(x))
    assert_matches(round(la.array(x), 1), np.round(x, 1))
