"""The shape functions' errors carry NumPy's own text, as programs print it (`except ValueError as e:
print(e)`): broadcast_to's "remapped shapes", broadcast_shapes/broadcast_arrays' "shape mismatch ...
arg i ... arg j", and reshape's shape as NumPy's C code prints it (leading -1s dropped)."""

import numpy as np
import pytest

import lazyarray as la

CASES = [
    ("broadcast_to", lambda m: m.broadcast_to(m.ones(3), (4, 2))),
    ("broadcast_to_ndim", lambda m: m.broadcast_to(m.ones((2, 3)), (3,))),
    ("broadcast_to_negative", lambda m: m.broadcast_to(m.ones(3), (-1, 3))),
    ("broadcast_to_empty", lambda m: m.broadcast_to(m.ones(0), (2, 1))),
    ("broadcast_shapes", lambda m: m.broadcast_shapes((2, 3), (1, 4), (5, 3))),
    ("broadcast_shapes_negative", lambda m: m.broadcast_shapes((2,), (-1,))),
    ("broadcast_arrays", lambda m: m.broadcast_arrays(m.ones(3), m.ones((2, 1)), m.ones(4))),
    ("reshape_two_unknown", lambda m: m.ones(6).reshape(-1, -1)),
    ("reshape_leading_unknown", lambda m: m.ones(6).reshape(-1, 4)),
    ("reshape_leading_unknown_zero", lambda m: m.ones(6).reshape(-1, 0)),
    ("reshape_inner_unknown", lambda m: m.ones(6).reshape(2, -1, 4)),
]


@pytest.mark.parametrize("name,call", CASES, ids=[c[0] for c in CASES])
def test_shape_errors_are_numpys_text(reference_backend, name, call):
    with pytest.raises(ValueError) as want:
        call(np)
    with pytest.raises(ValueError) as got:
        call(la)
    assert str(got.value) == str(want.value)


def test_broadcast_shapes_takes_ints_as_numpy_does(reference_backend):
    for shapes in [(5, (2, 1)), ((2, 3), 3), (np.int64(4),)]:
        assert la.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)
