"""The general (lazy) path on the CPU: `eager_size=0` turns lazyarray/eager.py's at-once path off
exactly as the cupy and dask backends and `debug_nans` have it off (lazyarray/evaluation.py
`_eager_applies` feeds the same `eager.LIMIT` / `cuts.AT_ONCE_LIMIT`), so element reads, writes,
view exports and small ops take the pending views, scatters, plans per cut and `eager.view_value`
that cupy takes. A silent-class bug there (`B.reshape(8, 6)[j][i]`'s export, found only on a lent
GPU) shows up here on numpy and C. For a whole file: `LAZYARRAY_EAGER_SIZE=0 python -m pytest
tests/test_eager.py ...` (tests/conftest.py then skips `needs("eager")` tests and
`backend_does("eager")` is False, as on cupy)."""

import numpy as np
import pytest
from test_programs import FAST_ON_C, check_program

import lazyarray as la
from lazyarray import cuts, eager
from lazyarray.evaluation import _eager_applies
from lazyarray.settings import Settings


@pytest.fixture
def general_path():
    with la.config(eager_size=0):
        assert eager.LIMIT[0] == cuts.AT_ONCE_LIMIT[0] == 0  # what cupy's settings give
        yield


def test_the_switch_is_what_cupy_and_debug_nans_get():
    assert not _eager_applies(Settings(backend="cupy"))
    assert not _eager_applies(Settings(backend="numpy", debug_nans=True))
    with la.config(debug_nans=True):
        debug_nans_limits = eager.LIMIT[0], cuts.AT_ONCE_LIMIT[0]
    with la.config(eager_size=0):
        assert (eager.LIMIT[0], cuts.AT_ONCE_LIMIT[0]) == debug_nans_limits == (0, 0)


# Element reads and views of a computed buffer, each NumPy's value, dtype, shape and kind (0-d
# array vs NumPy scalar, by `ndim`/`item()`), exported by np.asarray as NumPy's array.
READS = ["B.reshape(8, 6)[j][i]", "B[i, j]", "B[i][j]", "B[-1, ::-2][i]", "B.T[j, i]",
         "B[i, :][j:j + 1]", "B.ravel()[i * 12 + j]", "B[::2, 1:][i, j] * 2", "B[i, j] + B[j, i]",
         "B[i].sum()", "B[[i, j]][0, 0]", "B[B > 10][i]", "B[i, j, None]", "B[..., j][i]",
         "B[i, j:][::-1][0]", "B.reshape(2, 2, 12)[1][0, j]", "B[i, j] > B[j, i]", "-B[i, -1]"]


@pytest.mark.parametrize("dtype", ["float64", *(pytest.param(d, marks=pytest.mark.exhaustive_on("c"))
                                   for d in ("int8", "complex64"))])
def test_element_and_view_reads_are_numpys(backend, general_path, dtype):
    b = (np.arange(48).reshape(4, 12) - 7).astype(dtype)
    B = la.asarray(b.copy())
    B[0, 0] = b[0, 0]  # (a pending scatter over the buffer, as cupy's writes are)
    for text in READS:
        if ">" in text and b.dtype.kind == "c":
            continue  # (complex ordering: refused, docs/semantics.md)
        want = eval(text, {"B": b, "i": 1, "j": 2})
        got = eval(text, {"B": B, "i": 1, "j": 2})
        exported = np.asarray(got)
        assert type(exported) is np.ndarray, text
        assert exported.dtype == want.dtype and exported.shape == np.shape(want), text
        np.testing.assert_array_equal(exported, want, err_msg=text)
        assert type(got.item() if got.ndim == 0 else None) is type(
            want.item() if np.ndim(want) == 0 else None), text


def test_writes_through_views_and_held_reads_are_numpys(backend, general_path):
    """Writes through element, row, column and gather keys and through held views; reads taken
    before a write keep their values (NumPy's scalars are copies), views follow the writes."""
    program = ["B[i, j] = 7", "r = B[i]", "e = B[i, j]", "r[j] += 1.5", "c = B[:, j]",
               "c[::2] = -1", "B[i] *= 2", "B[[0, 2], 1] = B[[2, 0], 1]", "B[B < 0] = 0",
               "t = B.T", "t[3, 1] = 9", "B[-1][j] -= B[i, j]"]
    b = np.arange(48.0).reshape(4, 12)
    envs = [{"B": b.copy(), "i": 1, "j": 2}, {"B": la.asarray(b.copy()), "i": 1, "j": 2}]
    for line in program:
        for env in envs:
            exec(line, env)
        for name in ("B", "r", "e", "c", "t"):
            if name in envs[0]:
                got, want = np.asarray(envs[1][name]), envs[0][name]
                assert got.dtype == want.dtype, (line, name)
                np.testing.assert_array_equal(got, want, err_msg=f"after `{line}`: {name}")


@pytest.mark.parametrize("name", ["cholesky", pytest.param("row_update",
                                                        marks=pytest.mark.exhaustive_on("c"))])
def test_corpus_programs_on_the_general_path(backend, general_path, name):
    """Two corpus programs of element loops (tests/test_programs.py's checks: values, dtypes,
    mutated arguments, a second call); the whole corpus under `exhaustive`."""
    check_program(name, backend)


@pytest.mark.exhaustive
@pytest.mark.parametrize("name", sorted(FAST_ON_C - {"cholesky", "row_update"}))
def test_more_corpus_programs_on_the_general_path(backend, general_path, name):
    check_program(name, backend)


def test_iterating_a_vector_on_the_general_path_reads_one_host_copy():
    """`for v in x` over a vector with the at-once path off: 0-d Arrays standing for NumPy's
    scalars, as the at-once path yields (stop 47 yielded NumPy's scalars here: SciPy's
    `tuple_to_result(*xp.full(n, nan))` then returned another namespace's type, 50 of its tests
    on cupy's path; api48), each a leaf of one host copy (as pending element views each was an
    evaluation: `min` over 10,000 elements took 1.9 s), read when reached, so a write inside
    the loop is seen."""
    x0 = np.random.default_rng(0).random(3000)
    with la.config(eager_size=0):
        x = la.asarray(x0) * 2
        before = la.cache_info().plans_built + la.cache_info().plan_hits
        items = list(x)
        assert la.cache_info().plans_built + la.cache_info().plan_hits - before <= 1
        assert all(type(v) is la.Array and v.shape == () and v._view is False for v in items)
        assert repr(items[0]) == repr((x0 * 2)[0])
        got = [min(items[:200]), sum(items[:200]), [v for v in items if v > 1.9]]
        want = [min(x0[:200] * 2), sum(x0[:200] * 2), [v for v in x0 * 2 if v > 1.9]]
        assert [float(g) for g in got[:2]] == want[:2]
        assert [float(v) for v in got[2]] == want[2]
        y, seen = la.asarray(np.arange(5.0)) + 0, []
        for k, v in enumerate(y):  # NumPy's iterator reads each element when it reaches it
            seen.append(float(v))
            if k + 1 < 5:
                y[k + 1] = -1.0
        assert seen == [0.0, -1.0, -1.0, -1.0, -1.0]
