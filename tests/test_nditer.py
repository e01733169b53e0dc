"""`np.nditer` over Arrays (an AttributeError before stop 55): NumPy's order over C, transposed,
Fortran-ordered and broadcast operands, its multi-index and flat indices, read-only element
views, writes through `readwrite` views, an `allocate`d output, CS231n's numerical gradient
(`it.multi_index` with writes into x while iterating), and NumPy's errors. On every backend, at
the default and on the general path (eager_size=0)."""

import numpy as np
import pytest

import lazyarray as la


def _attempt(out, step):
    try:
        out.append(step())
    except (ValueError, NotImplementedError) as e:
        out.append(f"{type(e).__name__}: {e}")


def _gradient(m):
    """CS231n's eval_numerical_gradient, as published."""
    x = m.array([[1.0, 2.0], [3.0, 4.0]])

    def f(x):
        return float((x ** 2).sum() + x[0, 1] * x[1, 0])

    grad = m.zeros_like(x)
    h = 1e-5
    it = m.nditer(x, flags=["multi_index"], op_flags=["readwrite"])
    while not it.finished:
        ix = it.multi_index
        oldval = x[ix]
        x[ix] = oldval + h
        fxph = f(x)
        x[ix] = oldval - h
        fxmh = f(x)
        x[ix] = oldval
        grad[ix] = (fxph - fxmh) / (2 * h)
        it.iternext()
    return np.round(np.asarray(grad), 4).tolist(), np.asarray(x).tolist()


def _story(m):
    out = []
    a = m.arange(6.0).reshape(2, 3)
    for operand, order in ((a, "K"), (a.T, "K"), (a.T, "C"), (m.asfortranarray(a), "K"),
                           (a[:, ::2], "F"), (m.asarray(5.0), "K")):
        out.append([float(x) for x in m.nditer(operand, order=order)])
    b = m.arange(6.0).reshape(2, 3)
    with m.nditer(b, op_flags=["readwrite"]) as it:
        for x in it:
            x[...] = 2 * x
    out.append(np.asarray(b).tolist())
    _attempt(out, lambda: [x.__setitem__(Ellipsis, 1.0) for x in m.nditer(m.arange(3.0))])
    it = m.nditer(m.arange(6).reshape(2, 3), flags=["multi_index"])
    steps = []
    while not it.finished:
        steps.append((int(it[0]), it.multi_index))
        it.iternext()
    out.append(steps)
    it = m.nditer(m.arange(6).reshape(2, 3).T, flags=["f_index"])
    out.append([(int(x), it.index) for x in it])
    out.append([(int(x), int(y)) for x, y in m.nditer([m.arange(3), m.arange(2).reshape(2, 1)])])
    it = m.nditer([a, None])
    with it:
        for x, y in it:
            y[...] = x * x
        made = it.operands[1]
    out.append((np.asarray(made).tolist(), str(made.dtype), made.shape))
    out.append(_gradient(m))
    it = m.nditer(m.ones((2, 3)))
    out.append((it.shape, it.itersize, it.ndim, m.nditer([m.ones(3), m.ones(3)]).nop))
    _attempt(out, lambda: m.nditer(m.arange(3.0), flags=["bogus"]))
    _attempt(out, lambda: m.nditer(m.arange(2)).multi_index)
    it = m.nditer(m.arange(2))
    list(it)
    out.append((it.finished, it.iternext()))
    _attempt(out, lambda: it.multi_index)
    return out


@pytest.mark.parametrize("eager_size", [0, 4096])
def test_nditer_walks_as_numpys(backend, eager_size):
    with la.config(eager_size=eager_size):
        assert _story(la) == _story(np)


def test_chunked_iteration_is_refused_clearly():
    with pytest.raises(NotImplementedError, match="external_loop"):
        la.nditer(la.arange(3.0), flags=["external_loop"])
    with pytest.raises(NotImplementedError, match="op_dtypes"):
        la.nditer(la.arange(3.0), op_dtypes=["float32"], flags=["buffered"])


def _broadcast_story(m):
    b = m.broadcast(m.arange(3).reshape(3, 1), m.arange(2))
    facts = [b.shape, b.nd, b.ndim, b.numiter, b.size, b.index]
    elements = [tuple(int(v) for v in t) for t in b]
    facts.append(b.index)
    b.reset()
    first = tuple(int(v) for v in next(b))
    try:
        m.broadcast(m.ones(3), m.ones(4))
    except ValueError as e:
        facts.append(str(e))
    return facts, elements, first


def test_broadcast_object_is_numpys():
    assert _broadcast_story(la) == _broadcast_story(np)
