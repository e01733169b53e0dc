"""Linear stability analysis as dynamics courses script it: Jacobians of a predator-prey model
and of a damped spring chain at several parameters, their eigenvalues by np.linalg.eigvals sorted
with np.sort_complex, stability by `np.all(ev.real < 0)`, the spectral abscissa and the
oscillation frequencies from the imaginary parts, eigenvectors by np.linalg.eig normalised by
np.linalg.norm(axis=0), and the matrix exponential's decay sampled by np.linalg.matrix_power."""

import numpy

SIZES = {"small": dict(n=4, P=3), "bench": dict(n=30, P=6)}


def inputs(rng, n, P):
    stiffness = 1.0 + rng.random(n)
    damping = 0.05 + 0.2 * rng.random(P)
    alpha = 0.5 + rng.random(P)
    return stiffness, damping, alpha


def chain_jacobian(np, k, c):
    n = len(k)
    K = np.diag(k + np.roll(k, -1)) - np.diag(k[1:], 1) - np.diag(k[1:], -1)
    J = np.zeros((2 * n, 2 * n))
    J[:n, n:] = np.eye(n)
    J[n:, :n] = -K
    J[n:, n:] = -c * np.eye(n)
    return J


def kernel(np, stiffness, damping, alpha):
    spectra, stable, abscissa, freqs, modes = [], [], [], [], []
    for c in damping:
        J = chain_jacobian(np, stiffness, c)
        ev = np.sort_complex(np.linalg.eigvals(J))
        spectra.append(ev)
        stable.append(bool(np.all(ev.real < 0)))
        abscissa.append(ev.real.max())
        freqs.append(np.unique(np.round(np.abs(ev.imag), 8)))
        w, V = np.linalg.eig(J)
        V = V / np.linalg.norm(V, axis=0)
        modes.append(np.abs(V[:, np.argmax(w.real)]).max())
    lv = []
    for a in alpha:
        # Lotka-Volterra at its coexistence point (b = c = d = 1): a centre, purely imaginary
        J = np.array([[0.0, -1.0], [a, 0.0]])
        ev = np.sort_complex(np.linalg.eigvals(J))
        lv.append((ev, np.isclose(ev.real, 0).all()))
    step = np.linalg.matrix_power(np.eye(4) + 0.01 * chain_jacobian(np, stiffness[:2], 0.1), 50)
    return (np.array(spectra), stable, np.array(abscissa), freqs, modes, lv, step)
