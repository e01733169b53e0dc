"""A ufunc of Python numbers only takes their default dtypes (NumPy makes them arrays first: no
weak promotion), so `np.ldexp(300, -129)` is float64's 4.4e-37; it was float16's 0.0 here
(fuzz_scalars seed 74035, stop 56), and `np.ldexp(2**40, 3)` float16's inf. With an array or a
NumPy scalar beside it, a Python int stays weak (`np.ldexp(3, np.int8(2))` is float16)."""

import itertools
import warnings

import numpy as np

import lazyarray as la

CALLS = ["ldexp(300, -129)", "ldexp(3, 2)", "ldexp(2**40, 3)", "ldexp(True, 2)", "ldexp(3, True)",
         "ldexp(3.0, 2)", "ldexp(np.int8(3), 2)", "ldexp(3, np.int8(2))",
         "ldexp(3, np.array([2], np.int8))", "fabs(3)", "fabs(True)", "heaviside(1, 0)", "modf(3)"]


def test_python_numbers_take_numpys_default_dtypes(backend):
    for call in CALLS:
        assert repr(eval("la." + call)) == repr(eval("np." + call)), call


def test_every_ufunc_of_python_numbers_has_numpys_dtype(backend):
    """Every ufunc both have, over pairs of Python numbers: NumPy's dtype (values: to the
    documented ulp bounds of lazyarray's own math) or its exception type."""
    for name in [n for n in dir(np) if isinstance(getattr(np, n), np.ufunc) and hasattr(la, n)]:
        ufunc = getattr(np, name)
        for args in itertools.product((3, -2, True, 2.5, 0, 2**40), repeat=ufunc.nin):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    want = ufunc(*args)
                except Exception as e:  # noqa: BLE001 (the type is what is compared)
                    want = type(e)
                try:
                    got = getattr(la, name)(*args)
                except Exception as e:  # noqa: BLE001
                    got = type(e)
            if isinstance(want, type):
                assert got is want, (name, args)
                continue
            for w, g in zip(want if isinstance(want, tuple) else (want,),
                            got if isinstance(got, tuple) else (got,)):
                assert np.asarray(g).dtype == np.asarray(w).dtype, (name, args)
                np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-14,
                                           err_msg=f"{name}{args}")
