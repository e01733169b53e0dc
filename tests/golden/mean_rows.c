/* sum_divide: sum, divide */
void la_sum_divide_b1134e7300(char *const *p, const int64_t *d, const char *s, int64_t nt)
{
    (void)s;
    (void)nt;
    const int64_t n0 = d[0];
    const int64_t n1 = d[1];
    const float *restrict b0 = (const float *)p[0];
    float *restrict b1 = (float *)p[1];
    const int64_t s0_0 = d[2];
    const int64_t la_step = nt > 1 ? (n0 + 16 * nt - 1) / (16 * nt) : n0;
    int64_t la_next = 0;
    int la_fpe = 0;  /* the region's threads' floating-point flags */
    #pragma omp parallel num_threads(nt) if (nt > 1)
    {
        for (int64_t i0_lo; (i0_lo = __atomic_fetch_add(&la_next, la_step, __ATOMIC_RELAXED)) < n0; ) {
            const int64_t i0_hi = n0 - i0_lo < la_step ? n0 : i0_lo + la_step;
            for (int64_t i0 = i0_lo; i0 < i0_hi; i0++) {
                double acc0_0_l[8];
                for (int l = 0; l < 8; l++) {
                    acc0_0_l[l] = 0.0;
                }
                {
                    int64_t i1_c = 0;
                    for (; i1_c + 8 <= n1; i1_c += 8) {
                        #pragma omp simd
                        for (int l = 0; l < 8; l++) {
                            const int64_t i1 = i1_c + l;
                            const float ld0 = b0[i0 * s0_0 + i1];
                            acc0_0_l[l] = acc0_0_l[l] + (double)ld0;
                        }
                    }
                    for (int64_t i1 = i1_c; i1 < n1; i1++) {
                        const float ld0 = b0[i0 * s0_0 + i1];
                        acc0_0_l[0] = acc0_0_l[0] + (double)ld0;
                    }
                }
                double acc0_0_t = acc0_0_l[0];
                for (int l = 1; l < 8; l++) {
                    acc0_0_t = acc0_0_t + acc0_0_l[l];
                }
                const float acc0_0 = (float)acc0_0_t;
                {
                    const float c1 = 8.0f;
                    const float divide_2 = (acc0_0 / c1);
                    b1[i0] = divide_2;
                }
            }
        }
        la_fpe_gather(&la_fpe);
    }
    if (la_fpe) feraiseexcept(la_fpe);
}
