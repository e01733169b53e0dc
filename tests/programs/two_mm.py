"""2mm: D = alpha*A@B@C + beta*D, written into D."""

SIZES = {"small": dict(NI=5, NJ=6, NK=7, NL=8), "bench": dict(NI=250, NJ=260, NK=270, NL=280)}


def inputs(rng, NI, NJ, NK, NL):
    return (1.5, 1.2, rng.random((NI, NK)), rng.random((NK, NJ)), rng.random((NJ, NL)),
            rng.random((NI, NL)))


def kernel(np, alpha, beta, A, B, C, D):
    D[:] = alpha * A @ B @ C + beta * D
