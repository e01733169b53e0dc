"""A differential fuzzer of memory layouts, views and warning blocks (fuzz53).

Each program starts from NumPy inputs of every layout (C, Fortran, transposed, reversed and
stepped slices, broadcast views, 0-size and 1-length axes) handed in with `np.asarray`, then does
elementwise ops on them, asks for layouts (`ravel`, `reshape`, `flatten`, `.T`, `swapaxes`,
`np.asarray(x, order=)`, `.copy(order=)`, `np.ascontiguousarray`, `tobytes(order=)`, the flags
of an export), writes through views (`v[...] op= ...`, `np.add(a, b, out=v)`), reduces the
results (NumPy sums in memory order: the bits are compared, not a tolerance), and wraps lazy ops
in `warnings.catch_warnings()` / `np.errstate` blocks with values that overflow or divide by zero
(the warnings a `record=True` block caught are kept as a value).

The same text runs with `np` bound to numpy and to lazyarray (`numpy` is NumPy in both); every
name is compared after each line (`each`) or at the end, with the warnings' kinds and the
exceptions' types. Only exact operations are generated (+, -, *, /, sqrt, abs, maximum), so
values compare bit for bit.

    python tests/fuzz_layouts.py --seed 0 --count 500 [--eager-size 0]
"""

from __future__ import annotations

import sys
import time
import warnings
from dataclasses import dataclass, field

import numpy as np

import lazyarray as la

SHAPES = ((4, 5), (3, 1), (1, 6), (0, 3), (5,), (1,), (0,), (2, 3, 4), (6, 6), (40, 70),
          (3, 4, 5), (1, 4, 1), (2, 1, 3))
DTYPES = ("float64", "float64", "float32", "int32", "int64", "complex128", "bool", "uint8")
ORDERS = ("'C'", "'F'", "'A'", "'K'")


@dataclass
class Program:
    """A program's lines and how it runs: `each` compares every name after every line."""
    seed: int
    lines: list = field(default_factory=list)
    each: bool = True
    eager_size: int = 4096

    def text(self) -> str:
        return "\n".join([f"# seed {self.seed}, compared "
                          f"{'after each line' if self.each else 'at the end'}, "
                          f"la.config(eager_size={self.eager_size})"] + self.lines)


def _env(xp) -> dict:
    return {"np": xp, "numpy": np, "warnings": warnings}


class Generator:
    """Makes a program line by line, running each on NumPy (so it knows every name's shape and
    dtype, and keeps only the lines NumPy runs)."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.seed = seed
        self.env = _env(np)
        self.count = 0
        # roots of strided inputs: a write into one is the known loss that NumPy's later ravel
        # copies where lazyarray's is a view (tests/test_result_layout.py's strict xfail)
        self.strided: list = []

    def pick(self, seq):
        return seq[int(self.rng.integers(len(seq)))]

    def new(self, prefix="t") -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def arrays(self, min_ndim=1) -> list:
        return [k for k, v in self.env.items() if isinstance(v, np.ndarray)
                and v.ndim >= min_ndim and not k.startswith("IN")]

    def run(self, text: str):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                exec(text, self.env)
            except Exception as exc:  # noqa: BLE001
                return exc
        return None

    # ---- inputs
    def input_line(self, k: int) -> str:
        shape = self.pick(SHAPES)
        dtype = self.pick(DTYPES)
        base = f"numpy.random.default_rng({int(self.rng.integers(1000))}).standard_normal"
        scale = self.pick(("1", "4", "100", "1e300"))
        if dtype == "bool":
            make = f"({base}({shape}) > 0)"
        elif dtype == "complex128":
            make = f"({base}({shape}) * {scale} + 1j * {base}({shape}))"
        else:
            make = f"({base}({shape}) * {scale}).astype(numpy.{dtype})"
        big = tuple(2 * n + 1 for n in shape)
        layouts = [make, f"numpy.asfortranarray({make})", f"{make}[::-1]",
                   f"numpy.ascontiguousarray({make}.T).T"]
        if dtype == "bool":
            bigmake = f"({base}({big}) > 0)"
        elif dtype == "complex128":
            bigmake = f"({base}({big}) + 1j)"
        else:
            bigmake = f"({base}({big}) * {scale}).astype(numpy.{dtype})"
        steps = ", ".join(self.pick(("1::2", "-2::-2", "::2")) for _ in shape)
        layouts.append(f"{bigmake}[{steps}]")
        if shape and shape[0] >= 1:
            layouts.append(f"numpy.broadcast_to({make}[:1], {shape})")
            layouts.append(f"numpy.broadcast_to({make}[0], (3,) + {shape[1:]})")
        if len(shape) >= 2:
            layouts.append(f"{make}.T")
            layouts.append(f"{make}.swapaxes(0, -1)[::-1]")
        return f"IN{k} = {self.pick(layouts)}"

    def setup(self, program: Program) -> None:
        for k in range(int(self.rng.integers(1, 3))):
            line = self.input_line(k)
            self.run(line)
            program.lines.append(line)
            name = "AB"[k]
            how = self.pick((f"np.asarray(IN{k})", f"np.asarray(IN{k})", f"np.array(IN{k})",
                             f"np.asarray(IN{k}, order={self.pick(ORDERS)})",
                             f"np.array(IN{k}, order={self.pick(ORDERS)})"))
            line = f"{name} = {how}"
            self.run(line)
            program.lines.append(line)
            x = self.env[name]
            if x.flags.writeable and not x.flags.c_contiguous and x.base is not None \
                    and not (x.flags.f_contiguous or x.T.flags.c_contiguous):
                self.strided.append(name)

    # ---- lines
    def operand(self, x: np.ndarray, name: str) -> str:
        """Another operand that broadcasts against `name`."""
        others = [k for k in self.arrays() if self.env[k].shape == x.shape and k != name]
        if others and self.rng.random() < 0.5:
            return self.pick(others)
        return self.pick(("2", "0.5", "(-1)", "3", f"{name}", f"{name}[..., :1]"
                          if x.ndim and x.shape[-1] else "1"))

    def compute_line(self, name: str) -> str:
        x = self.env[name]
        t = self.new()
        other = self.operand(x, name)
        if x.dtype.kind != "c" and getattr(self.env.get(other), "dtype", x.dtype).kind == "c":
            other = "2"  # (np.maximum below: no ordering of complex values, documented)
        forms = [f"{name} * 2", f"{name} + {other}", f"{name} - {other}", f"{name} * {other}",
                 f"np.sqrt(abs({name}))", f"-{name}", f"np.maximum({name}, {other})"
                 if x.dtype.kind != "c" else f"{name} * 1j",  # (no complex ordering: documented)
                 f"{name}[::-1] * 1", f"{name} / 3"]
        if x.ndim >= 2:
            forms += [f"{name}.T * 2", f"{name}.T + 1", f"{name}[:, ::-1] - 1",
                      f"np.swapaxes({name}, 0, 1) * {name}.swapaxes(0, 1)",
                      f"{name}.T[::2] * 3"]
        if x.dtype.kind == "b":
            forms = [f"{name} ^ True", f"~{name}", f"{name} & {name}[::-1]",
                     f"{name} * 1", f"np.logical_not({name}.T)"]
        return f"{t} = {self.pick(forms)}"

    def layout_line(self, name: str) -> str:
        x = self.env[name]
        t = self.new("L")
        o = self.pick(ORDERS)
        o2 = self.pick(ORDERS[:2])  # (ravel/flatten of 'A'/'K': NotImplementedError, documented)
        forms = [f"{name}.ravel()", f"{name}.reshape(-1)", f"{name}.flatten(order={o2})",
                 f"{name}.T", f"np.asarray({name}, order={o})", f"{name}.copy(order={o})",
                 f"np.ascontiguousarray({name})", f"np.ravel({name}, order={o2})",
                 f"{name}.reshape({x.shape[::-1]})",
                 f"numpy.frombuffer({name}.tobytes(order={o}), dtype={name}.dtype)",
                 f"np.array({name}, copy=True, order={o})"]
        if x.base is None:  # (an export of a view is a copy here: docs/numpy_coverage.md)
            forms.append(f"(numpy.asarray({name}).flags.c_contiguous, "
                         f"numpy.asarray({name}).flags.f_contiguous)")
        if x.ndim >= 2:
            forms += [f"np.swapaxes({name}, 0, -1)", f"{name}.reshape({x.shape[0]}, -1)",
                      f"{name}.T.ravel()", f"{name}.T.reshape(-1)", f"{name}.swapaxes(0, 1).ravel()"]
        return f"{t} = {self.pick(forms)}"

    def write_line(self, name: str) -> str:
        x = self.env[name]
        v = self.new("v")
        view = self.pick((f"{name}", f"{name}[::-1]", f"{name}[..., ::2]", f"{name}.T",
                          f"{name}.ravel()", f"{name}.reshape(-1)", f"{name}[1:]",
                          f"np.asarray({name}, order='F')", f"{name}.swapaxes(0, -1)"))
        val = "True" if x.dtype.kind == "b" else self.pick(("2", "1", "(-3)", "0.5"))
        op = "|=" if x.dtype.kind == "b" else self.pick(("+=", "-=", "*="))
        forms = [f"{v} = {view}\n{v}[...] {op} {val}", f"{v} = {view}\n{v}[...] = {val}",
                 f"{v} = {view}\n{v}[0] = {val}",
                 f"{v} = {view}\nnp.add({v}, {v}, out={v})" if x.dtype.kind != "b" else
                 f"{v} = {view}\nnp.logical_or({v}, {v}, out={v})",
                 f"{v} = {view}\nnp.multiply({v}, {val}, out={v})" if x.dtype.kind != "b" else
                 f"{name}[...] = ~{name}",
                 f"{name}[...] = {name}[::-1] * 1" if x.dtype.kind != "b" else f"{name} ^= True"]
        others = [k for k in self.arrays() if self.env[k].shape == x.shape and k != name
                  and self.env[k].dtype.kind == x.dtype.kind]
        if others and x.dtype.kind != "b":
            o = self.pick(others)
            forms += [f"{v} = {view}\nnp.add({v}, {o}{view[len(name):]}, out={v})",
                      f"np.subtract({o}, {name}, out={name})",
                      f"{v} = {name}.copy(order={self.pick(ORDERS)})\n{v}[0] = {val}\n"
                      f"{o}[...] = {v}.ravel().reshape({v}.shape)"]
        if x.ndim >= 2:
            forms += [f"{name}[...] = {name}.T.T[::-1] * 2" if x.dtype.kind != "b" else
                      f"{name}[0] = {name}[-1]",
                      f"{v} = {name}.T\n{v}[0] {op} {val}",
                      f"np.add({name}[::-1], 1, out={name}[::-1])"
                      if x.dtype.kind != "b" else f"{name}[:, 0] = True"]
        return self.pick(forms)

    def reduce_line(self, name: str) -> str:
        x = self.env[name]
        t = self.new("r")
        axis = self.pick(("None",) + tuple(str(a) for a in range(-x.ndim, x.ndim)))
        forms = [f"{name}.sum()", f"{name}.sum(axis={axis})", f"np.add.reduce({name}, axis={axis})",
                 f"{name}.mean(axis={axis})", f"np.sum({name}, axis={axis}, keepdims=True)",
                 f"{name}.max(axis={axis})" if x.size and x.dtype.kind != "c" else f"{name}.sum()",
                 f"np.cumsum({name}, axis={axis})", f"{name}.prod(axis={axis})",
                 f"({name} * 1).sum(axis={axis})", f"({name}.T * 1).sum(axis={axis})"]
        return f"{t} = {self.pick(forms)}"

    def warning_line(self, name: str) -> str:
        x = self.env[name]
        t = self.new("w")
        ops = [f"{name} / 0", f"{name} * 1e308 * 1e308" if x.dtype.kind != "b" else f"{name} / 0",
               f"np.sqrt(-abs({name}) - 1)", f"0 * ({name} / 0)"]
        if x.dtype.kind in "iu":
            ops = [f"{name} // 0", f"{name} % 0", f"{name} / 0"]
        op = self.pick(ops)
        action = self.pick(("'ignore'", "'error'", "'always'", "'default'"))
        pending = self.new("p")
        forms = [
            f"with warnings.catch_warnings():\n    warnings.simplefilter({action})\n"
            f"    try:\n        {t} = {op}\n        {t} = {t} + 1\n"
            f"    except RuntimeWarning as e:\n        {t} = str(e)",
            f"with warnings.catch_warnings(record=True) as {t}_w:\n"
            f"    warnings.simplefilter('always')\n    {t} = {op}\n"
            f"    {t}_n = sorted(str(m.message) for m in {t}_w)",
            f"{pending} = {op}\nwith warnings.catch_warnings():\n"
            f"    warnings.simplefilter('ignore')\n    {t} = {pending} * 2",
            f"with warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n"
            f"    {pending} = {op}\n{t} = {pending} + 1",
            f"with np.errstate(all={self.pick(('ignore', 'warn', 'raise'))!r}):\n"
            f"    try:\n        {t} = {op}\n    except FloatingPointError as e:\n"
            f"        {t} = str(e)",
            # (an op built before a laxer errstate block is computed at the block's entry,
            # under the modes it was built in: seeds 6 and 99, fixed by fuzz54)
            f"{pending} = {op}\nwith np.errstate(divide='ignore', invalid='ignore'):\n"
            f"    {t} = {name} + 1\n{t} = {t} + {pending}",
            f"with warnings.catch_warnings(record=True) as {t}_w:\n"
            f"    warnings.simplefilter('always')\n    {pending} = {op}\n"
            f"{t} = {pending} * 1\n{t}_n = len({t}_w)",
        ]
        return self.pick(forms)

    def line(self) -> str:
        names = self.arrays()
        name = self.pick(names)
        r = self.rng.random()
        if r < 0.3:
            return self.compute_line(name)
        if r < 0.55:
            return self.layout_line(name)
        if r < 0.72:
            if any(np.shares_memory(self.env[name], self.env[k]) for k in self.strided):
                return self.reduce_line(name)
            return self.write_line(name)
        if r < 0.9:
            return self.reduce_line(name)
        return self.warning_line(name)

    def program(self, lines: int, eager_size: int) -> Program:
        program = Program(self.seed, each=self.rng.random() < 0.6,
                          eager_size=min(self.pick((4096, 4096, 3, 0)), eager_size))
        self.setup(program)
        tries = 0
        while len(program.lines) < lines + 2 and tries < 4 * lines:
            tries += 1
            text = self.line()
            env = dict(self.env)
            before = {k: v.copy() for k, v in self.env.items() if isinstance(v, np.ndarray)}
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                error = self.run(text)
            cast = any("in cast" in str(w.message) for w in caught)
            if error is None and not cast:
                program.lines.append(text)
                continue
            self.env = env  # (restore: the line may have written before it raised)
            for k, v in before.items():
                if isinstance(self.env.get(k), np.ndarray) and self.env[k].flags.writeable:
                    try:
                        self.env[k][...] = v
                    except Exception:  # noqa: BLE001
                        pass
            if error is not None and self.rng.random() < 0.1 and not cast:
                program.lines.append(text)  # a line NumPy refuses ends the program
                break
        return program


# --- running and comparing ---------------------------------------------------------------------
def _snapshot(env: dict) -> dict:
    out = {}
    for k, v in env.items():
        if k.startswith("__") or k in ("np", "numpy", "warnings", "e") or k.startswith("IN") \
                or k.endswith("_w"):  # (a record=True block's list: its texts are kept as `_n`)
            continue
        if isinstance(v, (np.ndarray, la.Array, np.generic)):
            out[k] = np.array(np.asarray(v), copy=True)
        elif isinstance(v, (bool, int, float, complex, str, bytes, tuple, list)):
            out[k] = v
    return out


def run(program: Program, xp) -> list:
    env = _env(xp)
    lines = []
    for k, text in enumerate(program.lines):
        last = k == len(program.lines) - 1
        error, values = None, None
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                with (la.config(eager_size=program.eager_size) if xp is la else _null()):
                    try:
                        exec(text, env)
                    except Exception as exc:  # noqa: BLE001
                        error = exc
                    if error is None and (program.each or last):
                        values = _snapshot(env)
            except Exception as exc:  # noqa: BLE001
                error = error or exc
        kinds = sorted({str(w.message).split(" encountered")[0] for w in caught
                        if issubclass(w.category, RuntimeWarning)})
        lines.append((type(error) if error else None, kinds, values, error))
        if error is not None:
            break
    env.clear()
    return lines


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        if not (isinstance(a, np.ndarray) and isinstance(b, np.ndarray)):
            return False
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.tobytes() == b.tobytes():
            return True
        if a.dtype.kind not in "fc" or not np.array_equal(a, b, equal_nan=True):
            return False
        # (a NaN's sign and payload are not defined: docs/semantics.md)
        return all(np.array_equal(np.signbit(x) | np.isnan(x), np.signbit(y) | np.isnan(y))
                   for x, y in ((a.real, b.real), (a.imag, b.imag)))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
        return True
    return type(a) is type(b) and a == b


def compare(program: Program) -> str | None:
    want, got = run(program, np), run(program, la)
    for k, (w, g) in enumerate(zip(want, got)):
        where = f"line {k}: {program.lines[k]!r}"
        if (w[0] is None) != (g[0] is None) or (w[0] and not (
                issubclass(w[0], g[0]) or issubclass(g[0], w[0]))):
            return f"{where}: NumPy raised {w[3]!r}, lazyarray {g[3]!r}"
        if w[0] is not None:
            return None
        if program.each and w[1] != g[1]:
            return f"{where}: NumPy warned {w[1]}, lazyarray {g[1]}"
        if w[2] is None:
            continue
        if sorted(w[2]) != sorted(g[2]):
            return f"{where}: names {sorted(w[2])} vs {sorted(g[2])}"
        for name, value in w[2].items():
            if not _same(value, g[2][name]):
                return f"{where}: {name} is {value!r} in NumPy, {g[2][name]!r} here"
    if len(want) != len(got):
        return f"lazyarray stopped at line {len(got) - 1}, NumPy at {len(want) - 1}"
    return None


def check(seed: int, lines: int = 8) -> None:
    program = Generator(seed).program(lines, la.get_settings().eager_size)
    problem = compare(program)
    assert problem is None, f"{problem}\n--- program:\n{program.text()}"


def main(argv=None) -> None:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--lines", type=int, default=8)
    parser.add_argument("--show", action="store_true", help="print each program")
    args = parser.parse_args(argv)
    start, failures = time.process_time(), 0
    for seed in range(args.seed, args.seed + args.count):
        program = Generator(seed).program(args.lines, la.get_settings().eager_size)
        if args.show:
            print(program.text(), "\n")
        problem = compare(program)
        if problem:
            failures += 1
            print(f"{problem}\n{program.text()}\n", flush=True)
    took = time.process_time() - start
    print(f"{args.count} programs, {failures} differ, {took:.1f} s CPU")


if __name__ == "__main__":
    main(sys.argv[1:])
