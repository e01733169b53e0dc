"""The NumPy names lazyarray does not provide, each with its reason and what to use instead.

One source of truth for three things: docs/numpy_coverage.md (its table is generated from
`NOT_PROVIDED`: `python -m lazyarray.numpy_coverage` prints it), the AttributeError that
`la.<name>` (and `la.linalg.<name>`, `la.fft.<name>`, an Array's `x.<name>` for "ndarray.<name>")
raises for such a name, and
tests/test_numpy_coverage.py, which checks that every public NumPy name is either implemented or
listed here (and that nothing listed here exists).

Keys are NumPy's names; sub-namespaces are dotted ("linalg.cond", "random.Generator.zipf").
"""

from __future__ import annotations

IO = "file and buffer I/O"
DTYPE = "dtype lazyarray does not have"
DATETIME = "datetime/timedelta dtypes"
STRINGS = "string, bytes, object and structured dtypes"
MATRIX = "numpy.matrix (deprecated by NumPy in favour of 2-D arrays)"
MASKED = "masked arrays"
TOOLING = "NumPy's build, test and C tooling"
MEMORY = "raw memory, strides and buffers (lazyarray values have no user-visible memory)"
DEPRECATED = "deprecated by NumPy"
NOT_YET = "not implemented yet"

_ASARRAY = "use np.<name>(...) on NumPy data, then la.asarray"

NOT_PROVIDED: dict[str, tuple[str, str]] = {
    # --- I/O: lazyarray reads and writes through NumPy -------------------------------------------
    "memmap": (IO, "read with NumPy (np.memmap), then la.asarray (lazyarray values have no "
               "user-visible memory; la.load/loadtxt/fromfile... read through NumPy)"),
    # --- dtypes -----------------------------------------------------------------------------------
    **{n: (DTYPE, "extended precision: use float64/complex128") for n in (
        "float128", "longdouble", "complex256", "clongdouble")},
    **{n: (DATETIME, "keep dates in NumPy; pass integer offsets to lazyarray") for n in (
        "datetime64", "timedelta64", "datetime_as_string", "datetime_data", "busday_count",
        "busday_offset", "busdaycalendar", "is_busday", "isnat")},
    **{n: (STRINGS, "keep such data in NumPy; lazyarray arrays are numeric") for n in (
        "bytes_", "str_", "char", "strings", "character", "flexible", "void", "object_",
        "record", "rec", "recarray")},
    **{n: (MATRIX, "use 2-D Arrays and @") for n in ("matrix", "asmatrix", "bmat")},
    "ma": (MASKED, "use la.where(mask, x, fill) or the nan* reductions"),
    # --- tooling ----------------------------------------------------------------------------------
    **{n: (TOOLING, "use numpy.%s" % n) for n in (
        "core", "ctypeslib", "f2py", "testing", "typing", "test", "show_config", "show_runtime",
        "get_include")},
    # --- memory and iteration protocols -----------------------------------------------------------
    **{n: (MEMORY, "lazyarray has no ufunc buffers; nothing to set") for n in (
        "getbufsize", "setbufsize")},
    "nested_iters": (MEMORY, "use la.ndindex"),
    # --- ndarray attributes (an Array's memory is not the user's to see or set) -----------------
    **{f"ndarray.{n}": (MEMORY, "np.asarray(x).%s describes a NumPy copy; Arrays are values"
                        % n) for n in (
        "ctypes", "data")},
    **{f"ndarray.{n}": (MEMORY, "use x.astype(dtype)") for n in ("getfield", "setfield")},
    "ndarray.dump": (IO, "Arrays pickle: pickle.dump(x, file), or la.save"),
    "ndarray.dumps": (IO, "Arrays pickle: pickle.dumps(x)"),
    # --- deprecated -------------------------------------------------------------------------------
    "frompyfunc": (NOT_YET, "a Python function is not a kernel: use la.vectorize (evaluates) or "
                            "write it with la's ufuncs"),
}


def missing(namespace: str, name: str) -> AttributeError:
    """The AttributeError for `namespace.name` ("lazyarray", "lazyarray.linalg", ...): NumPy's
    name with its reason and what to use instead, or Python's plain message for any other name."""
    sub = namespace.split(".", 1)[1] if "." in namespace else ""
    key = (("ndarray" if sub == "Array" else sub) + "." if sub else "") + name
    entry = NOT_PROVIDED.get(key)
    if entry is None:
        return AttributeError(f"module {namespace!r} has no attribute {name!r}")
    reason, instead = entry
    return AttributeError(f"{namespace}.{name} (numpy.{key}) is not implemented in lazyarray: "
                          f"{reason}; {instead.replace('<name>', name)} "
                          "(docs/numpy_coverage.md)")


def render_table() -> str:
    """docs/numpy_coverage.md's table, one row per name, sorted by reason then name."""
    rows = ["| NumPy name | why not here | use instead |", "|---|---|---|"]
    for key, (reason, instead) in sorted(NOT_PROVIDED.items(), key=lambda kv: (kv[1][0], kv[0])):
        rows.append(f"| `{key}` | {reason} | {instead.replace('<name>', key)} |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(render_table(), end="")
