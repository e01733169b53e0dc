"""A differential fuzzer of write-heavy NumPy programs, in the style users write (fuzz55).

Each program makes a few arrays (`np.arange`, `np.linspace`, `np.zeros`, `np.ones`,
`np.random.default_rng(k).standard_normal`) of mixed dtypes (bool, int8..int64, uint8..uint64,
float16/32/64, complex64/128), then runs 5-20 statements drawn from:

- writes: `a[i] = v`, `a[i:j] += b`, `a[mask] = 0`, `a[idx] -= 1` with repeated indices,
  `a[..., k] *= 2`, `np.copyto`, `np.put`, `np.fill_diagonal`, `a.fill`, `x += y` inside a
  function on its argument, writes through `a.T`, `a.reshape(...)`, `a.ravel()`, `a[::2]`, and
  through `np.diagonal(a)` (read-only in NumPy: it raises);
- reads in between: `float(a[i])`, `if a.sum() > t:`, `a.max()`, `int(a.argmax())`, `a.tolist()`;
- reductions with axis/keepdims/dtype/where/initial, cumsum/cumprod, sort/argsort/partition,
  unique, concatenate/stack/split, where/clip/round, matmul/dot/einsum on small shapes;
- Python loops over rows (`for row in a:` then writes to the row).

The same text runs with `np` bound to numpy and to lazyarray; each statement's exception (type
and text) and warnings (category and text) are compared, and at the end every name: dtype, shape,
value (bits, except for the inexact ops listed in INEXACT: a relative tolerance) and `repr`.

    python tests/fuzz_programs.py --seed 0 --count 300 [--eager-size 0] [--backend numpy]
"""

from __future__ import annotations

import sys
import time
import warnings

import numpy as np

import lazyarray as la

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "float64", "complex64", "complex128")
SHAPES = ((6,), (5,), (4, 5), (3, 3), (2, 3, 4), (1, 4), (0,), (4, 1), (7,), (3, 2))
VALUES = ("0", "1", "2", "-1", "3", "0.5", "-2.5", "True", "300", "1j", "np.nan", "7", "-3")
# ops whose bits may differ from NumPy's (summation order, BLAS, libm): compared to a tolerance
INEXACT = ("matmul", "@", "dot", "einsum", "mean", "std", "var", "linspace", "standard_normal",
           "sum", "cumsum", "cumprod", "prod", "/", "round")
# ordering ops: not defined for complex here (docs/semantics.md, "Not defined for complex")
ORDERING = (">", "<", "max", "min", "argmax", "argmin", "sort", "clip", "partition", "unique",
            "searchsorted", "round(")
# compare each statement's warnings as a set (what the default filter shows: one per line) or
# counted (`--counts`): a pending value computed twice on the general path warns twice
# (tests/test_fuzz55.py's notes)
DEDUPE = [True]
PRELUDE = ("def inc(x, y):\n    x += y\n    return x\n"
           "def scale_rows(m, f):\n    for row in m:\n        row *= f\n")


def _env(xp) -> dict:
    env = {"np": xp, "numpy": np, "warnings": warnings}
    exec(PRELUDE, env)
    return env


class Generator:
    """Makes a program statement by statement, running each on NumPy (so it knows every name's
    shape and dtype); a statement NumPy refuses is kept now and then (its error is compared)."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.env = _env(np)
        self.count = 0

    def pick(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def new(self, prefix="t") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def arrays(self, min_ndim=0) -> list:
        return [k for k, v in self.env.items() if isinstance(v, np.ndarray) and v.ndim >= min_ndim
                and not k.startswith("_")]

    def run(self, text: str):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with np.errstate(all="ignore"):
                try:
                    exec(text, self.env)
                except Exception as exc:  # noqa: BLE001
                    return exc
        return None

    # ---- inputs
    def make(self, name: str) -> str:
        shape = self.pick(SHAPES)
        dtype = self.pick(DTYPES)
        n = int(np.prod(shape))
        seed = int(self.rng.integers(100))
        forms = [f"np.arange({n}, dtype=np.{dtype}).reshape({shape})",
                 f"np.zeros({shape}, dtype=np.{dtype})", f"np.ones({shape}, np.{dtype})",
                 f"np.linspace(-3, 5, {n}).reshape({shape}).astype(np.{dtype})",
                 f"(np.arange({n}) - {n // 2}).reshape({shape}).astype(np.{dtype})",
                 f"np.asarray(numpy.random.default_rng({seed}).standard_normal({shape}) * 4)"
                 f".astype(np.{dtype})",
                 f"np.full({shape}, {self.pick(('2', '-1', '0.5', '100'))}, dtype=np.{dtype})"]
        if dtype.startswith("complex"):
            forms.append(f"(np.arange({n}) * (1 - 2j)).reshape({shape}).astype(np.{dtype})")
        return f"{name} = {self.pick(forms)}"

    # ---- statements
    def value(self, x) -> str:
        v = self.pick(VALUES)
        if self.rng.random() < 0.7:  # mostly values NumPy takes
            if x.dtype.kind == "b":
                v = self.pick(("True", "False", "0", "1"))
            elif x.dtype.kind == "u":
                v = self.pick(("0", "1", "2", "7", "200"))
            elif x.dtype.kind == "i":
                v = self.pick(("0", "1", "-1", "2", "-3", "100"))
            elif x.dtype.kind == "f":
                v = self.pick(("0", "1", "-1.5", "0.25", "2", "np.inf"))
        return v

    def index(self, x) -> str:
        return ", ".join(str(int(self.rng.integers(-n, n))) if n else "0" for n in x.shape[:1])

    def write(self, a: str) -> str:
        x = self.env[a]
        v = self.value(x)
        n = x.shape[0] if x.ndim else 0
        i = int(self.rng.integers(-n, n)) if n else 0
        lo, hi = sorted(int(k) for k in self.rng.integers(0, n + 1, 2)) if n else (0, 0)
        op = self.pick(("+=", "-=", "*=", "//=", "/=", "|=", "**="))
        same = [k for k in self.arrays() if self.env[k].shape == x.shape and k != a]
        other = self.pick(same) if same else a
        forms = [f"{a}[{i}] = {v}", f"{a}[{lo}:{hi}] {op} {v}", f"{a}[{a} > {v}] = 0",
                 f"{a}[{a} != 0] {op} 1", f"{a}[[0, 1, 0, -1]] -= 1" if n else f"{a}[...] -= 1",
                 f"{a}[..., {int(self.rng.integers(x.shape[-1]))}] *= 2" if x.ndim and x.shape[-1]
                 else f"{a}[...] *= 2",
                 f"np.copyto({a}, {other})", f"np.copyto({a}, {v}, where={a} > 0)",
                 f"np.copyto({a}, {other}, casting='unsafe')",
                 f"np.put({a}, [0, 2, 2], [{v}, 5, 6])",
                 f"np.put({a}, [{i}, 9], {v}, mode='{self.pick(('wrap', 'clip', 'raise'))}')",
                 f"{a}.fill({v})", f"_ = inc({a}, {v})", f"_ = inc({a}, {other})",
                 f"{a}.T[{i}] = {v}" if x.ndim else f"{a}[...] = {v}",
                 f"{a}.reshape(-1)[{int(self.rng.integers(max(x.size, 1)))}] = {v}",
                 f"{a}.ravel()[:3] {op} {v}", f"{a}[::2] = {v}", f"{a}[::-2] {op} {a}[1::2]",
                 f"{a}[{lo}:{hi}] {op} {other}[{lo}:{hi}]",
                 f"np.diagonal({a})[0] = {v}" if x.ndim >= 2 else f"{a}[...] = {a}[::-1]",
                 f"np.add({a}, {other}, out={a})", f"np.negative({a}, out={a})",
                 # (int(): a pending 0-d index's bounds are checked at evaluation, documented)
                 f"{a}[int({a}.argmax())] = {v}" if x.size else f"{a}.fill(0)"]
        forms += [f"{a}.flat[{int(self.rng.integers(max(x.size, 1)))}] = {v}",
                  f"np.add.at({a}, {[0, 0, -1] if n else []}, {v})" if x.ndim == 1 else
                  f"np.add.at({a}, (0, 0), {v})" if x.ndim == 2 and x.size else f"{a}.fill(1)",
                  f"np.put({a}, [-1, 0, -1], [{v}, {v}, 1])", f"{a}[...] = {a}.T.T[::-1]",
                  f"_b = np.broadcast_arrays({a}, {a})[0]\n_b[...] = {v}",
                  f"{a}[{a} == {a}.max()] = {v}" if x.size else f"{a}[...] = 0",
                  f"{a}[:] = np.sort({a}, axis=-1)" if x.ndim else f"{a}[...] = 3",
                  f"{a} = {a}.copy()\n{a}[..., :1] = {v}", f"{a} += {a}[::-1]",
                  f"np.place({a}, {a} > 0, [{v}, 1])", f"np.putmask({a}, {a} < 1, {v})"]
        if x.ndim >= 2:
            k = int(self.rng.integers(x.shape[0])) if x.shape[0] else 0
            forms += [f"np.fill_diagonal({a}, {v}, wrap=True)",
                      f"{a}[:, 1:].reshape(-1)[0] = {v}", f"{a}.T.ravel()[0] = {v}",
                      f"_r = {a}.reshape({x.shape[::-1]})\n_r[0] = {v}",
                      f"{a}[[0, -1], :] += {v}", f"{a}[:, [1, 1]] -= 1" if x.shape[1] > 1
                      else f"{a}[:, 0] = 1", f"{a}.diagonal()[...] = {v}",
                      f"np.swapaxes({a}, 0, 1)[0] *= 2", f"{a}[1:, :-1] += {a}[:-1, 1:]",
                      f"np.fill_diagonal({a}, {v})", f"for row in {a}:\n    row[0] = {v}",
                      f"for row in {a}:\n    row {op} row[::-1]",
                      f"scale_rows({a}, {v})", f"{a}.T[0] {op} 1",
                      f"{a}.reshape({x.shape[0]}, -1)[{k}] = {v}",
                      f"{a}[:, ::2] = {a}[:, 1::2].sum()" if x.shape[1] > 1 else f"{a}[:] = 1",
                      f"{a}[{a}.sum(axis=1) > 0] {op} 3",
                      f"np.diagonal({a}).copy()[0]", f"{a}.T.reshape(-1)[0] = {v}"]
        if x.ndim == 1:
            forms += [f"for k in range({min(n, 4)}):\n    {a}[k] = {a}[k - 1] * 2 + {v}",
                      f"for k in range(1, {min(n, 4)}):\n    {a}[k] += {a}[:k].sum()",
                      f"{a}[1:] = {a}[:-1]", f"{a}[:-1] += {a}[1:]"]
        return self.pick(forms)

    def read(self, a: str) -> str:
        x = self.env[a]
        t = self.new()
        i = int(self.rng.integers(-x.shape[0], x.shape[0])) if x.ndim and x.shape[0] else 0
        v = self.value(x)
        forms = [f"{t} = float({a}[{i}])" if x.ndim == 1 and x.size else f"{t} = float({a}.sum())",
                 f"if {a}.sum() > {self.pick(('0', '3', '-1', '10'))}:\n    {a}[...] = {v}\n"
                 f"else:\n    {a} += 1",
                 f"{t} = {a}.max()" if x.size else f"{t} = {a}.sum()",
                 f"{t} = int({a}.argmax())", f"{t} = {a}.tolist()",
                 f"while {a}.min() < 2 and {a}.size:\n    {a} = {a} + 1" if x.dtype.kind in "iuf"
                 else f"{t} = {a}.any()",
                 f"{t} = bool({a}.all())", f"{t} = {a}[{i}].item()" if x.ndim == 1 and x.size
                 else f"{t} = {a}.size"]
        return self.pick(forms)

    def compute(self, a: str) -> str:
        x = self.env[a]
        t = self.new()
        axis = self.pick(("None",) + tuple(str(k) for k in range(-x.ndim, x.ndim)))
        ax = self.pick(tuple(str(k) for k in range(-x.ndim, x.ndim))) if x.ndim else "None"
        dt = self.pick(("np.float64", "np.int64", "np.float32", "np.int8", "None", "np.complex128"))
        same = [k for k in self.arrays() if self.env[k].shape == x.shape and k != a]
        other = self.pick(same) if same else a
        forms = [f"{a}.sum(axis={axis}, keepdims={self.pick(('True', 'False'))})",
                 f"{a}.sum(axis={axis}, dtype={dt})", f"np.sum({a}, where={a} > 0, initial=1)",
                 f"{a}.max(axis={axis}, initial=-5)" if x.dtype.kind != "c" else f"{a}.prod()",
                 f"np.min({a}, axis={axis}, where={a} != 0, initial=9)" if x.dtype.kind != "c"
                 else f"{a}.mean()",
                 f"{a}.mean(axis={axis})", f"np.cumsum({a}, axis={ax})",
                 f"np.cumprod({a}, axis={ax}, dtype={dt})", f"{a}.prod(axis={axis}, keepdims=True)",
                 f"np.sort({a}, axis={ax})", f"np.argsort({a}, axis={ax}, kind='stable')",
                 f"np.unique({a})", f"np.unique({a}, return_counts=True)",
                 f"np.concatenate([{a}, {other}], axis={ax})", f"np.stack([{a}, {other}], axis=-1)",
                 f"np.where({a} > 1, {a}, {other})", f"np.clip({a}, 0, 3)", f"np.round({a}, 1)",
                 f"{a}.astype(np.int16)", f"np.any({a}, axis={axis})", f"{a}.std(axis={axis})",
                 f"np.count_nonzero({a}, axis={axis})", f"{a}.var(ddof=1)",
                 f"{a} + {other}", f"{a} * {other} - 1", f"{a} // 2", f"{a} % 3", f"{a} ** 2",
                 f"{a}[::-1] + {a}", f"np.abs({a})", f"{a} == {other}", f"{a}.T.copy()",
                 f"np.diff({a}, axis={ax})", f"np.flip({a})", f"np.roll({a}, 1, axis={ax})",
                 f"np.cumsum({a}).reshape({x.shape})"]
        if x.ndim >= 1 and x.shape[0] >= 2:
            forms += [f"np.split({a}, 2)" if x.shape[0] % 2 == 0 else f"np.split({a}, [1])",
                      f"np.partition({a}, 1, axis=0)[1]" if x.dtype.kind != "c" else f"{a}[1]",
                      f"np.array_split({a}, 3)"]
        if x.ndim == 2:
            forms += [f"{a} @ {a}.T", f"np.dot({a}.T, {a})", f"np.einsum('ij->j', {a})",
                      f"np.einsum('ij,ij->i', {a}, {a})", f"np.matmul({a}, np.ones({x.shape[1]}))",
                      f"np.trace({a})", f"np.diagonal({a}) * 2"]
        if x.ndim == 1:
            forms += [f"np.dot({a}, {a})", f"{a} @ {a}", f"np.einsum('i,i', {a}, {a})",
                      f"np.outer({a}, {a}[:3])", f"np.searchsorted(np.sort({a}), 1)"]
        return f"{t} = {self.pick(forms)}"

    def statement(self) -> str:
        text = self._statement()
        if (any(self.env[k].dtype.kind == "c" and k in text for k in self.arrays())
                or "1j" in text) and any(op in text for op in ORDERING):
            return "pass"  # (no ordering of complex values here: docs/semantics.md)
        return text

    def _statement(self) -> str:
        names = self.arrays()
        a = self.pick(names)
        r = self.rng.random()
        if r < 0.5:
            return self.write(a)
        if r < 0.7:
            return self.read(a)
        if r < 0.95:
            return self.compute(a)
        b = self.new("v")
        return self.pick((f"{b} = {a}.T", f"{b} = {a}.reshape(-1)", f"{b} = {a}[::2]",
                          f"{b} = {a}.ravel()", f"{b} = {a}.view()", f"{b} = {a}[...]"))

    def program(self, statements: int) -> list:
        lines = []
        for k in range(int(self.rng.integers(1, 4))):
            line = self.make("abcd"[k])
            while self.run(line) is not None:  # (np.full(-1) of an unsigned dtype: again)
                line = self.make("abcd"[k])
            lines.append(line)
        tries = 0
        while len(lines) < statements and tries < 4 * statements:
            tries += 1
            text = self.statement()
            env = dict(self.env)
            before = {k: v.copy() for k, v in self.env.items() if isinstance(v, np.ndarray)}
            error = self.run(text)
            if text == "pass":
                continue
            if error is None:
                lines.append(text)
                continue
            self.env = env
            for k, v in before.items():  # (the line may have written before it raised)
                if isinstance(self.env.get(k), np.ndarray) and self.env[k].flags.writeable:
                    try:
                        self.env[k][...] = v
                    except Exception:  # noqa: BLE001
                        pass
            if self.rng.random() < 0.15:
                lines.append(text)  # a statement NumPy refuses ends the program
                break
        return lines


# --- running and comparing ---------------------------------------------------------------------
def _value(v):
    if isinstance(v, (np.ndarray, la.Array, np.generic)):
        return ("array", np.array(np.asarray(v), copy=True), repr(v), type(v).__name__
                if isinstance(v, np.generic) else "")
    if isinstance(v, (list, tuple)) and v and all(isinstance(e, (np.ndarray, la.Array)) for e in v):
        return (type(v).__name__, [_value(e) for e in v])
    if isinstance(v, (bool, int, float, complex, str, list, tuple)) or v is None:
        return v
    return None


def snapshot(env: dict) -> dict:
    return {k: _value(v) for k, v in env.items()
            if not k.startswith("_") and k not in ("np", "numpy", "warnings", "inc", "scale_rows")
            and _value(v) is not None}


def _warning(w) -> tuple:
    """A warning's category and text; NumPy's scalars say 'in scalar divide' where its 0-d arrays
    (the model an element or a 0-d result follows here) say 'in divide': the same warning."""
    return w.category.__name__, str(w.message).replace("encountered in scalar ", "encountered in ")


def _scalar_overflow(w) -> bool:
    """NumPy's integer scalar overflow ('overflow encountered in scalar multiply' of
    `np.int8(100) * 2`): the documented class (docs/semantics.md: an element's arithmetic is
    NumPy's 0-d array loops, whose integer overflow wraps silently)."""
    return "overflow encountered in scalar" in str(w.message)


def run(lines: list, xp) -> tuple[list, dict]:
    env = _env(xp)
    seen = []
    for text in lines:
        error = None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                exec(text, env)
                if xp is la:  # (settle pending values inside the statement: its warnings)
                    for v in list(env.values()):
                        if isinstance(v, la.Array):
                            np.asarray(v)
            except Exception as exc:  # noqa: BLE001
                error = exc
        kinds = sorted({_warning(w) for w in caught if not _scalar_overflow(w)} if DEDUPE[0]
                       else [_warning(w) for w in caught if not _scalar_overflow(w)])
        seen.append((type(error).__name__ if error else None, str(error) if error else None, kinds))
        if error is not None:
            break
    values = snapshot(env)
    return seen, values


def _close(a: np.ndarray, b: np.ndarray, inexact: bool) -> bool:
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.tobytes() == b.tobytes():
        return True
    if a.dtype.kind not in "fc":
        return False
    if not inexact:
        return np.array_equal(a, b, equal_nan=True)
    tol = {2: 2e-3, 4: 1e-5, 8: 1e-11, 16: 1e-11}[a.dtype.itemsize if a.dtype.kind == "f"
                                                    else a.dtype.itemsize // 2]
    with np.errstate(all="ignore"):
        return bool(np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True))


def _same(a, b, inexact: bool) -> str | None:
    if isinstance(a, tuple) and a and a[0] == "array":
        if not (isinstance(b, tuple) and b and b[0] == "array"):
            return "kind"
        if a[1].dtype != b[1].dtype or a[1].shape != b[1].shape:
            return f"{a[1].dtype}{a[1].shape} vs {b[1].dtype}{b[1].shape}"
        if not _close(a[1], b[1], inexact):
            return "value"
        if a[2] != b[2] and a[1].tobytes() == b[1].tobytes():
            return f"repr {a[2]!r} vs {b[2]!r}"
        return None
    if isinstance(a, tuple) and len(a) == 2 and isinstance(a[1], list) \
            and isinstance(b, tuple) and len(b) == 2 and isinstance(b[1], list):
        if a[0] != b[0] or len(a[1]) != len(b[1]):
            return "sequence"
        for x, y in zip(a[1], b[1]):
            why = _same(x, y, inexact)
            if why:
                return why
        return None
    if isinstance(a, float) and isinstance(b, float):
        if a != a and b != b:
            return None
        if inexact and abs(a - b) <= 1e-6 * max(abs(a), 1):
            return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):  # (tolist: NaNs)
        for x, y in zip(a, b):
            why = _same(x, y, inexact)
            if why:
                return f"{why} in {a!r} vs {b!r}"
        return None
    if isinstance(a, complex) and isinstance(b, complex):
        return _same(a.real, b.real, inexact) or _same(a.imag, b.imag, inexact)
    if type(a) is not type(b) or a != b:
        if isinstance(a, list) and isinstance(b, list) and inexact and len(a) == len(b):
            try:
                if np.allclose(np.array(a), np.array(b), rtol=1e-5, equal_nan=True):
                    return None
            except Exception:  # noqa: BLE001
                pass
        return f"{a!r} vs {b!r}"
    return None


def compare(lines: list, backend: str | None = None, eager_size: int | None = None) -> str | None:
    want = run(lines, np)
    settings = {k: v for k, v in (("backend", backend), ("eager_size", eager_size)) if v is not None}
    with la.config(**settings):
        got = run(lines, la)
    for k, (w, g) in enumerate(zip(want[0], got[0])):
        if w[:2] != g[:2]:
            return f"statement {k} {lines[k]!r}: NumPy raised {w[:2]}, lazyarray {g[:2]}"
        if w[2] != g[2]:
            return f"statement {k} {lines[k]!r}: NumPy warned {w[2]}, lazyarray {g[2]}"
    if len(want[0]) != len(got[0]):
        return f"lazyarray ran {len(got[0])} statements, NumPy {len(want[0])}"
    inexact = any(op in text for text in lines for op in INEXACT) \
        or any(t in lines[0] for t in ("float16", "float32", "complex64"))
    if sorted(want[1]) != sorted(got[1]):
        return f"names {sorted(want[1])} vs {sorted(got[1])}"
    for name, value in want[1].items():
        why = _same(value, got[1][name], inexact)
        if why:
            return f"{name}: {why}: NumPy {value!r}\n lazyarray {got[1][name]!r}"
    return None


def main(argv=None) -> None:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--statements", type=int, default=0, help="0: 5 to 20 at random")
    parser.add_argument("--eager-size", type=int, default=None)
    parser.add_argument("--backend", default=None)
    parser.add_argument("--show", action="store_true", help="print each program")
    parser.add_argument("--counts", action="store_true", help="count repeated warnings")
    args = parser.parse_args(argv)
    DEDUPE[0] = not args.counts
    start, failures = time.process_time(), 0
    for seed in range(args.seed, args.seed + args.count):
        gen = Generator(seed)
        lines = gen.program(args.statements or int(gen.rng.integers(5, 21)))
        if args.show:
            print("\n".join(lines), "\n")
        try:
            problem = compare(lines, args.backend, args.eager_size)
        except Exception as exc:  # noqa: BLE001
            problem = f"the harness raised {exc!r}"
        if problem:
            failures += 1
            print(f"### seed {seed}: {problem}\n" + "\n".join(lines) + "\n", flush=True)
    took = time.process_time() - start
    print(f"{args.count} programs, {failures} differ, {took:.1f} s CPU")


if __name__ == "__main__":
    main(sys.argv[1:])
