"""Boids (N. Rougier, "From Python to NumPy", chapter 5), float32 flock: pairwise distances by
np.subtract.outer and np.hypot, neighbour masks combined with `*=`, alignment / cohesion /
separation from masked products, norms limited by np.divide(..., out=norm, where=...) (which
leaves the unselected norms in place, as the published code does) and positions wrapped by
`%=` with a tuple."""

import numpy

SIZES = {"small": dict(n=16, steps=2), "bench": dict(n=300, steps=4)}


def inputs(rng, n, steps):
    position = (rng.random((n, 2)) * (64.0, 36.0)).astype(numpy.float32)
    angle = rng.random(n) * 2 * numpy.pi
    velocity = numpy.stack([numpy.cos(angle), numpy.sin(angle)], axis=1).astype(numpy.float32)
    return position, velocity, steps


def kernel(np, position, velocity, steps):
    n = len(position)
    max_velocity = 1.0
    max_acceleration = 0.03
    for _ in range(steps):
        dx = np.subtract.outer(position[:, 0], position[:, 0])
        dy = np.subtract.outer(position[:, 1], position[:, 1])
        distance = np.hypot(dx, dy)

        mask_0 = (distance > 0)
        mask_1 = (distance < 2.5)
        mask_2 = (distance < 5.0)
        mask_1 *= mask_0
        mask_2 *= mask_0
        mask_3 = mask_2

        mask_1_count = np.maximum(mask_1.sum(axis=1), 1).reshape(n, 1)
        mask_2_count = np.maximum(mask_2.sum(axis=1), 1).reshape(n, 1)
        mask_3_count = mask_2_count

        # Alignment
        target = np.dot(mask_3, velocity) / mask_3_count
        norm = np.sqrt((target * target).sum(axis=1)).reshape(n, 1)
        target *= np.divide(max_velocity, norm, out=norm, where=norm != 0)
        target -= velocity
        norm = np.sqrt((target * target).sum(axis=1)).reshape(n, 1)
        target *= np.divide(max_acceleration, norm, out=norm, where=norm > max_acceleration)
        alignment = target

        # Cohesion
        center = np.dot(mask_2, position) / mask_2_count
        target = center - position
        norm = np.sqrt((target * target).sum(axis=1)).reshape(n, 1)
        target *= np.divide(max_velocity, norm, out=norm, where=norm != 0)
        target -= velocity
        norm = np.sqrt((target * target).sum(axis=1)).reshape(n, 1)
        target *= np.divide(max_acceleration, norm, out=norm, where=norm > max_acceleration)
        cohesion = target

        # Separation
        repulsion = np.dstack((dx, dy))
        repulsion = np.divide(repulsion, distance.reshape(n, n, 1) ** 2, out=repulsion,
                              where=distance.reshape(n, n, 1) != 0)
        target = (repulsion * mask_1.reshape(n, n, 1)).sum(axis=1) / mask_1_count
        norm = np.sqrt((target * target).sum(axis=1)).reshape(n, 1)
        target *= np.divide(max_velocity, norm, out=norm, where=norm != 0)
        target -= velocity
        norm = np.sqrt((target * target).sum(axis=1)).reshape(n, 1)
        target *= np.divide(max_acceleration, norm, out=norm, where=norm > max_acceleration)
        separation = target

        acceleration = 1.5 * separation + alignment + cohesion
        velocity += acceleration
        norm = np.sqrt((velocity * velocity).sum(axis=1)).reshape(n, 1)
        velocity *= np.divide(max_velocity, norm, out=norm, where=norm > max_velocity)
        position += velocity
        position %= (64.0, 36.0)
    return mask_1_count.ravel(), distance.max()
