"""Policy gradient for Pong (A. Karpathy's pg-pong.py, the NumPy tutorial "Deep reinforcement
learning with Pong from pixels"), one episode from recorded frames: policy_forward per frame with
`h[h < 0] = 0` and a sigmoid, the action chosen by comparing a drawn uniform with the 0-d
probability, `y - aprob` collected in a list and np.vstack'ed, discount_rewards' reversed loop
with `if r[t] != 0: running_add = 0`, the advantage standardised in place, policy_backward with
np.outer and `dh[eph <= 0] = 0`, then RMSProp updates `model[k] += ...` on the arguments."""

import numpy

SIZES = {"small": dict(T=12, D=30, H=6), "bench": dict(T=200, D=1600, H=100)}


def inputs(rng, T, D, H):
    frames = (rng.random((T, D)) < 0.1).astype(numpy.float64)
    uniforms = rng.random(T)
    rewards = numpy.zeros(T)
    rewards[rng.integers(1, T, max(T // 5, 2))] = rng.choice([-1.0, 1.0], max(T // 5, 2))
    W1 = rng.standard_normal((H, D)) / numpy.sqrt(D)
    W2 = rng.standard_normal(H) / numpy.sqrt(H)
    cache1 = numpy.zeros_like(W1)
    cache2 = numpy.zeros_like(W2)
    return frames, uniforms, rewards, W1, W2, cache1, cache2


def sigmoid(np, x):
    return 1.0 / (1.0 + np.exp(-x))


def discount_rewards(np, r, gamma):
    discounted_r = np.zeros_like(r)
    running_add = 0
    for t in reversed(range(0, r.size)):
        if r[t] != 0:
            running_add = 0  # reset the sum, since this was a game boundary (pong specific!)
        running_add = running_add * gamma + r[t]
        discounted_r[t] = running_add
    return discounted_r


def policy_forward(np, model, x):
    h = np.dot(model['W1'], x)
    h[h < 0] = 0  # ReLU nonlinearity
    logp = np.dot(model['W2'], h)
    p = sigmoid(np, logp)
    return p, h


def policy_backward(np, model, epx, eph, epdlogp):
    dW2 = np.dot(eph.T, epdlogp).ravel()
    dh = np.outer(epdlogp, model['W2'])
    dh[eph <= 0] = 0  # backpro prelu
    dW1 = np.dot(dh.T, epx)
    return {'W1': dW1, 'W2': dW2}


def kernel(np, frames, uniforms, rewards, W1, W2, cache1, cache2):
    gamma, decay_rate, learning_rate = 0.99, 0.99, 1e-3
    model = {'W1': W1, 'W2': W2}
    rmsprop_cache = {'W1': cache1, 'W2': cache2}
    xs, hs, dlogps, drs = [], [], [], []
    actions = []
    for t in range(len(frames)):
        x = frames[t]
        aprob, h = policy_forward(np, model, x)
        action = 2 if uniforms[t] < aprob else 3
        xs.append(x)
        hs.append(h)
        y = 1 if action == 2 else 0
        dlogps.append(y - aprob)
        drs.append(rewards[t])
        actions.append(action)
    epx = np.vstack(xs)
    eph = np.vstack(hs)
    epdlogp = np.vstack(dlogps)
    epr = np.vstack(drs)
    discounted_epr = discount_rewards(np, epr, gamma)
    discounted_epr -= np.mean(discounted_epr)
    discounted_epr /= np.std(discounted_epr)
    epdlogp *= discounted_epr
    grad = policy_backward(np, model, epx, eph, epdlogp)
    for k, v in model.items():
        g = grad[k]
        rmsprop_cache[k] = decay_rate * rmsprop_cache[k] + (1 - decay_rate) * g ** 2
        model[k] += learning_rate * g / (np.sqrt(rmsprop_cache[k]) + 1e-5)
    cache1[...] = rmsprop_cache['W1']
    cache2[...] = rmsprop_cache['W2']
    return actions, discounted_epr, epdlogp, sum(drs)
