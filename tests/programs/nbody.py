"""Direct n-body with leapfrog steps; energies kept in np.ndarray buffers, positions as
arguments."""

import numpy

SIZES = {"small": dict(N=8, Nt=4), "bench": dict(N=100, Nt=30)}


def inputs(rng, N, Nt):
    mass = 20.0 * numpy.ones((N, 1)) / N
    pos = rng.standard_normal((N, 3))
    vel = rng.standard_normal((N, 3))
    return mass, pos, vel, N, Nt, 0.01, 0.1, 1.0


def get_acc(np, pos, mass, G, softening):
    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z
    inv_r3 = dx ** 2 + dy ** 2 + dz ** 2 + softening ** 2
    inv_r3[inv_r3 > 0] = inv_r3[inv_r3 > 0] ** (-1.5)
    ax = G * (dx * inv_r3) @ mass
    ay = G * (dy * inv_r3) @ mass
    az = G * (dz * inv_r3) @ mass
    return np.hstack((ax, ay, az))


def get_energy(np, pos, vel, mass, G):
    KE = 0.5 * np.sum(np.sum(mass * vel ** 2))
    x = pos[:, 0:1]
    y = pos[:, 1:2]
    z = pos[:, 2:3]
    dx = x.T - x
    dy = y.T - y
    dz = z.T - z
    inv_r = np.sqrt(dx ** 2 + dy ** 2 + dz ** 2)
    inv_r[inv_r > 0] = 1.0 / inv_r[inv_r > 0]
    PE = G * np.sum(np.sum(np.triu(-(mass * mass.T) * inv_r, 1)))
    return KE, PE


def kernel(np, mass, pos, vel, N, Nt, dt, G, softening):
    vel -= np.mean(mass * vel, 0) / np.mean(mass)
    acc = get_acc(np, pos, mass, G, softening)
    KE = np.ndarray(Nt + 1, dtype=np.float64)
    PE = np.ndarray(Nt + 1, dtype=np.float64)
    KE[0], PE[0] = get_energy(np, pos, vel, mass, G)
    t = 0.0
    for i in range(Nt):
        vel += acc * dt / 2.0
        pos += vel * dt
        acc = get_acc(np, pos, mass, G, softening)
        vel += acc * dt / 2.0
        t += dt
        KE[i + 1], PE[i + 1] = get_energy(np, pos, vel, mass, G)
    return KE, PE
