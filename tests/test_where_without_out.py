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


def test_where_of_a_0d_condition_alone_is_numpys_error():
    """`np.where(flag)` of a 0-d condition: NumPy's text, longer than nonzero's (fuzz_scalars
    seed 75137)."""
    for condition in (np.array(True), True, 0, np.array(2.5)):
        with pytest.raises(ValueError) as ours:
            la.where(la.asarray(condition) if isinstance(condition, np.ndarray) else condition)
        with pytest.raises(ValueError) as theirs:
            np.where(condition)
        assert str(ours.value) == str(theirs.value)
