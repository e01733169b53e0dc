"""The test command's own machinery (tests/conftest.py): `--dist loadgroup` keeps an `xdist_group`
on one worker, so that a module fixture that compiles every case (tests/test_c_semantics.py) runs
once, not once per worker."""

import pytest

pytestmark = pytest.mark.xdist_group("test_tiers")


def test_an_xdist_group_reaches_the_scheduler_in_the_node_id(request):
    """xdist's scheduler reads the group from the `@<group>` suffix of the node id that a worker
    reports; pytest 9.2 dropped the attribute through which xdist 3.8 appends it."""
    if not getattr(request.config.option, "loadgroup", False):
        pytest.skip("not an xdist worker under --dist loadgroup")
    assert request.node.nodeid.endswith("::test_an_xdist_group_reaches_the_scheduler_in_the_node_id"
                                        "@test_tiers")
