"""Sieve of Eratosthenes on a boolean array: a Python loop whose branch reads one element
(`if is_prime[i]:`) and strided slice writes `is_prime[i*i::i] = False`, then np.nonzero, prime
gaps with np.diff and twin primes by a mask."""

import numpy

SIZES = {"small": dict(N=120), "bench": dict(N=2_000_000)}


def inputs(rng, N):
    return (N,)


def kernel(np, n):
    is_prime = np.ones(n + 1, dtype=bool)
    is_prime[:2] = False
    for i in range(2, int(n ** 0.5) + 1):
        if is_prime[i]:
            is_prime[i * i::i] = False
    primes = np.nonzero(is_prime)[0]
    gaps = np.diff(primes)
    twins = primes[:-1][gaps == 2]
    return primes, gaps.max(), twins, is_prime.sum(), np.flatnonzero(is_prime[::-1])[:3]
