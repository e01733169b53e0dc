"""The test command's own machinery (tests/conftest.py): `--dist loadgroup` keeps an `xdist_group`
on one worker, so that a module fixture that compiles every case (tests/test_c_semantics.py) runs
once, not once per worker."""

import pytest
from lazyarray.runtime import available_backends
from lazyarray.runtime.c import inline_budget as c_inline_budget

import lazyarray as la

pytestmark = pytest.mark.xdist_group("test_tiers")


def test_an_xdist_group_reaches_the_scheduler_in_the_node_id(request):
    """xdist's scheduler reads the group from the `@<group>` suffix of the node id that a worker
    reports; pytest 9.2 dropped the attribute through which xdist 3.8 appends it."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not an xdist worker under --dist loadgroup")
    assert request.node.nodeid.endswith("::test_an_xdist_group_reaches_the_scheduler_in_the_node_id"
                                        "@test_tiers")


@pytest.mark.skipif("c" not in available_backends(), reason="no C compiler")
def test_a_private_cache_directory_starts_no_helper_library_build(tmp_path):
    """tests/conftest.py `_build_the_helper_library_once`: a unit past LIBRARY_BUDGET in a
    test's own cache directory starts no background build of the helper library (~6.5 s of
    compiler CPU that nothing used: 4 of the 5 builds of a full `-n 2` run, stop 50)."""
    from lazyarray.runtime.c import compiler as c_compiler, helper_library as c_helpers

    with la.config(cache_dir=str(tmp_path)):
        directory, tc = c_compiler.kernel_dir(), c_compiler.toolchain()
        calls = " ".join(["la_exp_f64(x)"] * (c_inline_budget.LIBRARY_BUDGET + 1))
        assert c_inline_budget.heavy_calls(calls) > c_inline_budget.LIBRARY_BUDGET
        c_helpers.render_unit(lambda functions: "\n".join(functions), [calls], directory, tc)
    assert str(directory) not in c_helpers._building
