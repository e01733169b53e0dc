"""Bad input raises a clear exception at the line that built the op, naming that line."""

from __future__ import annotations

import numpy as np
import pytest

import lazyarray as la
from sites import assert_site

HERE = r"test_errors\.py:\d+"


def test_mismatched_shapes_name_the_users_line():
    a, b = la.zeros((2, 3)), la.zeros((4,))
    with pytest.raises(ValueError, match=r"could not be broadcast together with shapes \(2,3\) "
                                         r"\(4,\)") as info:
        a + b
    assert_site(info, HERE)
    with pytest.raises(ValueError) as info:
        la.where(a > 0, a, b)
    assert_site(info, HERE)


def test_error_site_is_the_line_that_built_the_op():
    import inspect

    a, b = la.zeros((2, 3)), la.zeros((4,))
    c = a * 2
    with pytest.raises(ValueError) as info:
        c - b  # the failing line
    src, start = inspect.getsourcelines(test_error_site_is_the_line_that_built_the_op)
    failing = start + next(i for i, s in enumerate(src) if "# the failing" in s and "src" not in s)
    assert info.value.__notes__[-1].endswith(f"test_errors.py:{failing})")


@pytest.mark.parametrize("axis", [2, -3, (0, 2)])
def test_bad_axis_is_numpys_axis_error(axis):
    x = la.zeros((2, 3))
    with pytest.raises(np.exceptions.AxisError) as info:
        la.sum(x, axis=axis)
    assert_site(info, HERE)
    with pytest.raises(ValueError):  # AxisError is both a ValueError and an IndexError
        x.max(axis=axis)
    with pytest.raises(IndexError):
        la.mean(x, axis=axis)
    with pytest.raises(np.exceptions.AxisError):
        la.expand_dims(x, 5)


_AXIS_CALLS = {  # an axis out of range (or repeated) given to functions that took it by hand
    "moveaxis-source": lambda m, x: m.moveaxis(x, 5, 0),
    "moveaxis-destination": lambda m, x: m.moveaxis(x, 0, -3),
    "moveaxis-repeated": lambda m, x: m.moveaxis(x, (0, 0), (1, 0)),
    "swapaxes": lambda m, x: m.swapaxes(x, 0, 7),
    "cross": lambda m, x: m.cross(m.ones((3, 3)), m.ones((3, 3)), axisa=4),
    "average": lambda m, x: m.average(x, axis=5),
    "median": lambda m, x: m.median(x, axis=(0, 5)),
    "vecdot": lambda m, x: m.vecdot(x, x, axis=-5),
    "delete": lambda m, x: m.delete(x, 0, axis=-3),
    "fft": lambda m, x: m.fft.fft(x, axis=5),
    "hfft": lambda m, x: m.fft.hfft(x, axis=2),
    "fftn": lambda m, x: m.fft.fftn(x, axes=(0, 5)),
}


@pytest.mark.parametrize("call", _AXIS_CALLS.values(), ids=_AXIS_CALLS)
def test_a_bad_axis_raises_numpys_error_and_message(call):
    """SciPy's tests match NumPy's wording (`source: axis 10 is out of bounds`); fft and delete
    wrapped an out-of-range axis silently (`axis % ndim`). Where NumPy raises a bare IndexError
    (fft's `tuple index out of range`), lazyarray raises AxisError, an IndexError too."""
    x = np.ones((2, 3))
    with pytest.raises((IndexError, ValueError)) as numpy_error:
        call(np, x)
    with pytest.raises(type(numpy_error.value)) as ours:
        call(la, la.asarray(x))
    if isinstance(numpy_error.value, np.exceptions.AxisError) or "repeated" in str(
            numpy_error.value):
        assert str(ours.value) == str(numpy_error.value)


_EMPTY_CALLS = {  # a reduction without identity over an empty axis (programs print the text)
    "max": lambda m, x: m.max(x, axis=0), "min": lambda m, x: m.min(x),
    "argmax": lambda m, x: m.argmax(x, axis=0), "argmin": lambda m, x: m.argmin(x),
    "nanmax": lambda m, x: m.nanmax(x), "nanmin": lambda m, x: m.nanmin(x, axis=0),
}


@pytest.mark.parametrize("call", _EMPTY_CALLS.values(), ids=_EMPTY_CALLS)
def test_empty_reductions_raise_numpys_text(call):
    """NumPy names the ufunc (maximum, fmax) or says 'attempt to get argmax of an empty
    sequence'; lazyarray said 'reduction operation max' for all six."""
    with pytest.raises(ValueError) as want:
        call(np, np.ones((0, 3)))
    with pytest.raises(ValueError) as got:
        call(la, la.ones((0, 3)))
    assert str(got.value) == str(want.value)


def test_repeated_axis_is_a_value_error():
    with pytest.raises(ValueError, match="duplicate value in 'axis'") as info:
        la.sum(la.zeros((2, 3)), axis=(0, 0))  # NumPy's ufunc-reduction text
    assert_site(info, HERE)


@pytest.mark.parametrize("obj", [np.array([object()]), np.array(["a", "b"]),
                                 np.array([1 + 2j], np.clongdouble), ["a"], np.array([b"x"]),
                                 np.zeros(2, "datetime64[s]")],
                         ids=["object", "str", "clongdouble", "str-list", "bytes", "datetime"])
def test_unsupported_dtypes_are_type_errors(obj):
    with pytest.raises(TypeError, match="unsupported dtype|not understood|cannot make"):
        la.array(obj)
    with pytest.raises(TypeError):
        la.asarray(obj)
    with pytest.raises(TypeError):
        la.zeros(2) + obj


@pytest.mark.parametrize("dtype", ["clongdouble", object, "U3", "m8"])
def test_unsupported_dtype_arguments(dtype):
    with pytest.raises(TypeError, match="dtype"):
        la.zeros(3, dtype=dtype)
    with pytest.raises(TypeError, match="dtype"):
        la.zeros(3).astype(dtype)


def test_ragged_lists_are_value_errors():
    with pytest.raises(ValueError) as info:
        la.array([[1, 2], [3]])
    assert_site(info, HERE)
    with pytest.raises(ValueError):
        la.zeros(2) + [[1, 2], [3]]


def test_setitem_errors_name_the_line():
    x = la.zeros(3)
    with pytest.raises(IndexError) as info:
        x[5] = 1.0
    assert_site(info, HERE)
    with pytest.raises(ValueError) as info:
        x[:2] = np.ones(3)
    assert_site(info, HERE)


def test_other_shape_errors():
    x = la.zeros((2, 3))
    with pytest.raises(ValueError, match=r"cannot reshape array of size 6 into shape \(4,2\)"):
        x.reshape(4, 2)
    with pytest.raises(ValueError, match="one unknown dimension"):
        x.reshape(-1, -1)
    with pytest.raises(ValueError, match="repeated axis in transpose"):
        x.transpose(0, 0)
    with pytest.raises(ValueError, match="dimension 1"):
        la.concat([x, la.zeros((2, 4))], axis=0)
    with pytest.raises(ValueError, match="same shape"):
        la.stack([x, la.zeros((3, 2))])
    with pytest.raises(ValueError, match="broadcast"):
        la.broadcast_to(x, (3, 3))
    with pytest.raises(ValueError, match="broadcast"):
        x.at[0].set(la.zeros(4))
    with pytest.raises(ValueError, match="negative dimensions"):
        la.zeros((2, -1))
    with pytest.raises(ValueError, match="zero-size array"):
        la.max(la.zeros((0, 3)), axis=0)


def test_operators_with_foreign_objects_return_not_implemented():
    x = la.zeros(2)
    with pytest.raises(TypeError):
        x + "a"
    with pytest.raises(TypeError):
        x @ object()
    eq = x == None  # noqa: E711  (elementwise, as NumPy: all False)
    assert isinstance(eq, la.Array) and not np.asarray(eq).any()


def test_config_rejects_unknown_settings_and_values():
    with pytest.raises(TypeError, match="unknown setting"):
        la.config(bakend="numpy")
    with pytest.raises(ValueError):
        la.config(backend="fortran")
    with la.config(backend="numpy") as s:
        assert s.backend == "numpy"


@pytest.mark.parametrize("call", [
    lambda x, axis: la.stack([x, x], axis=axis),
    lambda x, axis: la.concat([x, x], axis=axis) if axis is not None else la.stack([x], axis=axis),
    lambda x, axis: la.split(x, 1, axis=axis),
    lambda x, axis: la.cumsum(x, axis=axis) if axis is not None else la.stack([x], axis=axis),
    lambda x, axis: la.take(x, la.asarray([0]), axis=axis) if axis is not None else la.split(
        x, 1, axis=axis),
])
@pytest.mark.parametrize("axis", [None, (0,), [1]])
def test_a_single_axis_function_given_none_or_a_tuple_raises_typeerror_naming_the_line(call,
                                                                                         axis):
    """NumPy raises TypeError ("'tuple' object cannot be interpreted as an integer"); the
    library's unpacking of the normalized axes used to fail with 'too many values to unpack'."""
    x = la.ones((2, 3))
    with pytest.raises(TypeError, match=r"cannot be interpreted as an integer") as info:
        call(x, axis)
    assert_site(info, HERE)


@pytest.mark.lazy_only  # the plan cache's steps (a small gather would run at once: tests/conftest.py)
@pytest.mark.parametrize("case", ["gather", "inverse"])
def test_a_data_error_names_the_line_of_this_graph_not_the_cached_plans(backend, case):
    """A data-dependent error (an index out of bounds, a singular matrix) names the line that
    built the failing node, with NumPy's type. The plan cache reuses a plan built for the same
    structure on another line, whose steps carried that line: the second statement was reported
    at the first one's line (and LinAlgError named no line at all)."""
    x, i = la.asarray(np.arange(6.0)), la.asarray(np.array([1, 7]))
    a = la.asarray(np.array([[1.0, 2.0], [2.0, 4.0]]))
    if case == "gather":
        first = lambda: x[i] * 2.0  # noqa: E731
        second = lambda: x[i] * 2.0  # noqa: E731
        error = IndexError
    else:
        first = lambda: la.linalg.inv(a) * 2.0  # noqa: E731
        second = lambda: la.linalg.inv(a) * 2.0  # noqa: E731
        error = np.linalg.LinAlgError
    for build in (first, second, first, second):  # one structure: later runs hit the plan
        with pytest.raises(error) as info:
            np.asarray(build())
        assert_site(info, rf"built at .*test_errors\.py:{build.__code__.co_firstlineno}\)")
    assert la.cache_info().plan_hits >= 1


def test_a_user_file_reached_through_the_package_directory_is_user_code(tmp_path):
    """Library frames are recognised by directory prefix, on the file name as Python has it: a
    script run as `python .../lazyarray/../x.py` starts with the package's directory, so its
    lines counted as library code (errors pointed further out, cuts went to the wrong place)."""
    import os
    import subprocess
    import sys

    package = os.path.dirname(la.__file__)
    script = tmp_path / "user_script.py"
    script.write_text("import lazyarray as la\nx = la.ones(3)\ny = x + la.ones(4)\n")
    through = os.path.join(package, os.path.relpath(script, package))
    assert through.startswith(package)
    run = subprocess.run([sys.executable, through], capture_output=True, text=True, timeout=120)
    assert "ValueError" in run.stderr and f"user_script.py:3" in run.stderr, run.stderr[-600:]


def test_many_sites_in_one_function_each_name_their_line(tmp_path):
    """A function with more op sites than the C site cache had slots (channel_flow's step: ~700;
    graph/_node.c `SITES`): each node names its own line, on the first call and on later calls
    (cache hits), in a file of the user's."""
    lines = [f"    out.append(x + {k}.0)" for k in range(600)]
    path = tmp_path / "many_sites.py"
    path.write_text("def run(x):\n    out = []\n" + "\n".join(lines) + "\n    return out\n")
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    x = la.zeros(3)
    for _ in range(3):
        got = [a._node.site for a in namespace["run"](x)]
        assert got == [(str(path), 3 + k) for k in range(600)]


_NUMPY_ERRORS = {  # common errors, as published NumPy programs print them (`print("Error:", e)`)
    "broadcast": lambda m: m.zeros((2, 3)) + m.zeros((4,)),
    "reshape": lambda m: m.arange(6.0).reshape(4, 2),
    "index": lambda m: m.arange(3.0)[5],
    "axis": lambda m: m.sum(m.zeros((2, 3)), axis=2),
    "matmul": lambda m: m.ones((2, 3)) @ m.ones((2, 3)),
    "read-only": lambda m: m.broadcast_to(m.ones(3), (2, 3)).__setitem__(0, 1.0),
}


@pytest.mark.parametrize("call", _NUMPY_ERRORS.values(), ids=_NUMPY_ERRORS)
def test_the_message_is_numpys_text_and_a_note_names_the_line(call):
    """Programs print `str(e)`: it is NumPy's text exactly; the user's line is a PEP 678 note
    (tracebacks show it under the message). The site used to end the message: " (at f.py:3)"."""
    with pytest.raises(Exception) as numpy_error:
        call(np)
    with pytest.raises(type(numpy_error.value)) as ours:
        call(la)
    assert str(ours.value) == str(numpy_error.value)
    line = call.__code__.co_firstlineno
    assert ours.value.__notes__ == [f"(at {__file__}:{line})"]
