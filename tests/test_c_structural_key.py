"""The disk index by structural key: a kernel seen before (in this process or on disk) is found
without rendering its C source, and the key names exactly what the source depends on."""

import json
import os
import subprocess
import sys
from pathlib import Path

import c_programs as P
import pytest
from lazyarray.runtime.c.backend import CBackend, _layout_and_key
from lazyarray.runtime.c.layout import plan_layout
from lazyarray.runtime.c.printer import render_kernel, shared_slots

pytestmark = pytest.mark.skipif(CBackend.unavailable_reason() is not None,
                                reason="no working C compiler")
TESTS = Path(__file__).parent


def _key_and_source(program, kernel):
    shared = shared_slots(program, kernel)
    _, key = _layout_and_key(kernel, shared)
    return key, render_kernel(kernel, plan_layout(kernel), shared=shared)[1]


def _programs():
    return [P.sigmoid(16)[0], P.sigmoid(77)[0], P.softmax(4, 8)[0], P.softmax(400, 800)[0],
            P.mean_rows(4, 8)[0], P.mean_rows(5, 1)[0], P.argmax_cols(4, 8)[0],
            P.broadcast_transpose_flip(3, 5)[0], P.broadcast_transpose_flip(1, 7)[0],
            P.multi_output(10)[0], P.matmul_relu(3, 4, 5)[0]]


def test_equal_keys_exactly_when_sources_are_equal():
    pairs = [_key_and_source(prog, k) for prog in _programs() for k in prog.kernels]
    assert all(key for key, _ in pairs)
    for key_a, src_a in pairs:
        for key_b, src_b in pairs:
            assert (key_a == key_b) == (src_a == src_b)


def test_sizes_do_not_change_the_key():
    a, b = P.softmax(4, 8)[0], P.softmax(400, 800)[0]
    assert _key_and_source(a, a.kernels[0])[0] == _key_and_source(b, b.kernels[0])[0]


# A fresh process whose renderer raises: a disk-cache hit must not need it.
SCRIPT = """
import json, sys
sys.path.insert(0, {tests!r})
import numpy as np, c_programs as P
from lazyarray.runtime import compile_stats
from lazyarray.runtime.c import backend as c_backend
if sys.argv[2] == "no-render":
    def refuse(*args, **kwargs):
        raise AssertionError("rendered on a disk-cache hit")
    c_backend.render_kernel = refuse
prog, arrays, scalars, expected = P.softmax(int(sys.argv[1]), 8)
got = c_backend.CBackend().compile(prog).run(arrays, scalars)[0]
assert np.allclose(got, expected[0], rtol=2e-6), "wrong result"
print(json.dumps(compile_stats.stats.snapshot()))
"""


def _run(cache: Path, rows: int, mode: str) -> dict:
    env = dict(os.environ, LAZYARRAY_CACHE_DIR=str(cache))
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(tests=str(TESTS)), str(rows), mode],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.exhaustive  # (a fresh process, ~6 s cold; test_c_cache keeps a disk hit)
def test_disk_hit_renders_nothing(tmp_path):
    assert _run(tmp_path, 4, "render")["kernels_compiled"] == 1
    stats = _run(tmp_path, 9, "no-render")
    assert stats["kernels_compiled"] == 0 and stats["kernel_disk_hits"] == 1


@pytest.mark.parametrize("damage", [  # one fresh process each (~7 s cold): all exhaustive
    pytest.param("unknown_symbol", marks=pytest.mark.exhaustive),
    pytest.param("garbage", marks=pytest.mark.exhaustive),
    pytest.param("path", marks=pytest.mark.exhaustive)])
def test_damaged_structural_index_falls_back_to_rendering(tmp_path, damage):
    _run(tmp_path, 4, "render")
    (index,) = tmp_path.glob("c-v2/*/s-*.idx")
    index.write_text({"garbage": "\x00\x01", "path": "la_x/../../etc",
                      "unknown_symbol": "la_no_such_kernel"}[damage])
    stats = _run(tmp_path, 4, "render")
    assert stats["kernels_compiled"] == 0 and stats["kernel_disk_hits"] == 1
    assert _run(tmp_path, 4, "no-render")["kernel_disk_hits"] == 1  # the index was rewritten


def test_the_same_kernel_built_at_another_line_compiles_once(tmp_path):
    """A kernel's source held its user lines (`/* from f.py:12 */`), so the same expression at
    another line, in another file or below an edit compiled again (stop 53: the fast tier built
    2,226 translation units from a cold cache, 1,639 after)."""
    import numpy as np

    import lazyarray as la
    from conftest import fresh_kernel_memory

    def first(x):
        return la.tanh(x) * 3.0 + 1.0

    def second(x):
        return la.tanh(x) * 3.0 + 1.0  # (the same expression, another line)

    x = np.linspace(-2.0, 2.0, 100)
    with la.config(backend="c", cache_dir=str(tmp_path), eager_size=0,
                   background_compiles=False), fresh_kernel_memory():
        la.clear_caches()
        np.testing.assert_allclose(np.asarray(first(la.asarray(x))), np.tanh(x) * 3 + 1)
        assert la.cache_info().kernels_compiled == 1
        la.clear_caches()  # (plans dropped: the second line builds its plan and looks it up)
        np.testing.assert_allclose(np.asarray(second(la.asarray(x))), np.tanh(x) * 3 + 1)
        info = la.cache_info()
        assert (info.kernels_compiled, info.plans_built) == (0, 1)
    la.clear_caches()
