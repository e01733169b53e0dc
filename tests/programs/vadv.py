"""Vertical advection (COSMO's vadv): a tridiagonal Thomas sweep down and back up each column."""

SIZES = {"small": dict(I=4, J=5, K=6), "bench": dict(I=64, J=64, K=40)}


def inputs(rng, I, J, K):
    shp = (I, J, K)
    return (rng.random(shp), rng.random(shp), rng.random((I + 1, J, K + 1)), rng.random(shp),
            rng.random(shp), 3.0 / 20.0)


def kernel(np, utens_stage, u_stage, wcon, u_pos, utens, dtr_stage):
    I, J, K = utens_stage.shape
    BET_M, BET_P = 0.5, 0.5
    ccol = np.empty((I, J, K), dtype=utens_stage.dtype)
    dcol = np.empty((I, J, K), dtype=utens_stage.dtype)
    data_col = np.empty((I, J), dtype=utens_stage.dtype)

    gcv = 0.25 * (wcon[1:, :, 1] + wcon[:-1, :, 1])
    cs = gcv * BET_M
    ccol[:, :, 0] = gcv * BET_P
    bcol = dtr_stage - ccol[:, :, 0]
    correction_term = -cs * (u_stage[:, :, 1] - u_stage[:, :, 0])
    dcol[:, :, 0] = dtr_stage * u_pos[:, :, 0] + utens[:, :, 0] + utens_stage[:, :, 0] \
        + correction_term
    divided = 1.0 / bcol
    ccol[:, :, 0] = ccol[:, :, 0] * divided
    dcol[:, :, 0] = dcol[:, :, 0] * divided

    for k in range(1, K - 1):
        gav = -0.25 * (wcon[1:, :, k] + wcon[:-1, :, k])
        gcv = 0.25 * (wcon[1:, :, k + 1] + wcon[:-1, :, k + 1])
        as_ = gav * BET_M
        cs = gcv * BET_M
        acol = gav * BET_P
        ccol[:, :, k] = gcv * BET_P
        bcol = dtr_stage - acol - ccol[:, :, k]
        correction_term = (-as_ * (u_stage[:, :, k - 1] - u_stage[:, :, k])
                           - cs * (u_stage[:, :, k + 1] - u_stage[:, :, k]))
        dcol[:, :, k] = dtr_stage * u_pos[:, :, k] + utens[:, :, k] + utens_stage[:, :, k] \
            + correction_term
        divided = 1.0 / (bcol - ccol[:, :, k - 1] * acol)
        ccol[:, :, k] = ccol[:, :, k] * divided
        dcol[:, :, k] = (dcol[:, :, k] - dcol[:, :, k - 1] * acol) * divided

    k = K - 1
    gav = -0.25 * (wcon[1:, :, k] + wcon[:-1, :, k])
    as_ = gav * BET_M
    acol = gav * BET_P
    bcol = dtr_stage - acol
    correction_term = -as_ * (u_stage[:, :, k - 1] - u_stage[:, :, k])
    dcol[:, :, k] = dtr_stage * u_pos[:, :, k] + utens[:, :, k] + utens_stage[:, :, k] \
        + correction_term
    dcol[:, :, k] = (dcol[:, :, k] - dcol[:, :, k - 1] * acol) / (bcol - ccol[:, :, k - 1] * acol)

    data_col[:] = dcol[:, :, K - 1]
    utens_stage[:, :, K - 1] = dtr_stage * (data_col - u_pos[:, :, K - 1])
    for k in range(K - 2, -1, -1):
        data_col[:] = dcol[:, :, k] - ccol[:, :, k] * data_col
        utens_stage[:, :, k] = dtr_stage * (data_col - u_pos[:, :, k])
