"""Long CPU work is interruptible: Ctrl-C during a long C kernel raises within ~0.5 s, and the
plan still runs correctly afterwards (issue 10, item 6)."""

import os
import signal
import threading
import time

import numpy as np
import pytest

import lazyarray as la
from lazyarray.runtime import available_backends


class Interrupted(Exception):
    pass


@pytest.mark.skipif("c" not in available_backends(), reason="no C compiler")
@pytest.mark.skipif(os.name != "posix", reason="POSIX signals")
def test_ctrl_c_interrupts_a_long_kernel():
    def rows(n):  # one kernel over 2**16 * n elements: no launch boundary to stop at
        return la.ones((2**16, n), "uint8").sum(axis=1)

    with la.config(backend="c"):
        assert int(rows(2**9)[0]) == 2**9  # compiled (sizes are arguments), and watched
        fired = []

        def fire():
            time.sleep(0.2)
            fired.append(time.perf_counter())
            os.kill(os.getpid(), signal.SIGINT)

        def handler(signum, frame):
            raise Interrupted

        previous = signal.signal(signal.SIGINT, handler)
        try:
            timer = threading.Thread(target=fire)
            timer.start()
            with pytest.raises(Interrupted):
                rows(2**18).block_until_ready()  # about 2 s here; interrupted after 0.2 s
            delay = time.perf_counter() - fired[0]
            timer.join()
        finally:
            signal.signal(signal.SIGINT, previous)
        assert delay < 0.5, delay
        np.testing.assert_array_equal(np.asarray(rows(2**9)), 2**9)  # a fresh workspace
