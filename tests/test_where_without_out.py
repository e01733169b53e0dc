"""`np.divide(a, b, where=b != 0)` without `out=`: NumPy's UserWarning ("'where' used without
'out', expect unitialized memory in output. ...") at the user's line, as NumPy warns it (lazyarray
was silent before stop 56; its values there are zeros where NumPy's memory is uninitialized).
Not for `where=True`, nor with an `out=` array, nor for the reductions."""

import warnings

import numpy as np
import pytest

import lazyarray as la


def _warned(m, call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call(m)
    return [(w.category, str(w.message), w.lineno) for w in caught]


CALLS = [
    lambda m: m.divide(m.arange(3.0), m.arange(3.0), where=m.arange(3.0) != 0),
    lambda m: m.sqrt(m.arange(3.0), where=False), lambda m: m.add(1.0, 2.0, where=np.array(True)),
    lambda m: m.add(m.arange(3.0), 1, where=True),
    lambda m: m.add(m.arange(3.0), 1, where=[True, False, True], out=m.zeros(3)),
    lambda m: m.sum(m.arange(3.0), where=m.arange(3.0) > 0),
    lambda m: m.add.reduce(m.arange(3.0), where=m.arange(3.0) > 0),
    lambda m: np.negative(m.arange(3.0), where=[True, False, True]),  # NumPy's name, our Array
]


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_where_without_out_warns_as_numpy(backend, eager_size):
    with la.config(eager_size=eager_size):
        for k, call in enumerate(CALLS):
            assert _warned(la, call) == _warned(np, call), k
