/* max_subtract_exp_sum_divide: max, subtract, exp, sum, divide */
void la_max_subtract_exp_sum_divide_599cfd5237(char *const *p, const int64_t *d, const char *s, int64_t nt)
{
    (void)s;
    (void)nt;
    const int64_t n0 = d[0];
    const int64_t n1 = d[1];
    const float *restrict b0 = (const float *)p[0];
    float *restrict b1 = (float *)p[1];
    const int64_t s0_0 = d[2];
    const int64_t s1_0 = d[3];
    const int64_t s2_0 = d[4];
    const int64_t s3_0 = d[5];
    const int64_t la_step = nt > 1 ? (n0 + 16 * nt - 1) / (16 * nt) : n0;
    int64_t la_next = 0;
    int la_fpe = 0;  /* the region's threads' floating-point flags */
    #pragma omp parallel num_threads(nt) if (nt > 1)
    {
        for (int64_t i0_lo; (i0_lo = __atomic_fetch_add(&la_next, la_step, __ATOMIC_RELAXED)) < n0; ) {
            const int64_t i0_hi = n0 - i0_lo < la_step ? n0 : i0_lo + la_step;
            for (int64_t i0 = i0_lo; i0 < i0_hi; i0++) {
                float acc0_0_l[16];
                for (int l = 0; l < 16; l++) {
                    acc0_0_l[l] = (float)(-INFINITY);
                }
                {
                    int64_t i1_c = 0;
                    for (; i1_c + 16 <= n1; i1_c += 16) {
                        #pragma omp simd
                        for (int l = 0; l < 16; l++) {
                            const int64_t i1 = i1_c + l;
                            const float ld0 = b0[i0 * s0_0 + i1];
                            acc0_0_l[l] = la_max_f32(acc0_0_l[l], ld0);
                        }
                    }
                    for (int64_t i1 = i1_c; i1 < n1; i1++) {
                        const float ld0 = b0[i0 * s0_0 + i1];
                        acc0_0_l[0] = la_max_f32(acc0_0_l[0], ld0);
                    }
                }
                float acc0_0_t = acc0_0_l[0];
                for (int l = 1; l < 16; l++) {
                    acc0_0_t = la_max_f32(acc0_0_t, acc0_0_l[l]);
                }
                const float acc0_0 = (float)acc0_0_t;
                double acc1_0_l[8];
                for (int l = 0; l < 8; l++) {
                    acc1_0_l[l] = 0.0;
                }
                {
                    float blk3[1024];
                    for (int64_t i1_b = 0; i1_b < n1; i1_b += 1024) {
                        const int64_t i1_e = n1 - i1_b < 1024 ? n1 : i1_b + 1024;
                        #pragma omp simd
                        for (int64_t i1 = i1_b; i1 < i1_e; i1++) {
                            const float ld0 = b0[i0 * s1_0 + i1];
                            const float subtract_2 = (ld0 - acc0_0);
                            const float exp_3 = la_exp_f32(subtract_2);
                            blk3[i1 - i1_b] = exp_3;
                        }
                        int64_t i1_c = i1_b;
                        for (; i1_c + 8 <= i1_e; i1_c += 8) {
                            #pragma omp simd
                            for (int l = 0; l < 8; l++) {
                                const int64_t i1 = i1_c + l;
                                const float kept3 = blk3[i1 - i1_b];
                                acc1_0_l[l] = acc1_0_l[l] + (double)kept3;
                            }
                        }
                        for (int64_t i1 = i1_c; i1 < i1_e; i1++) {
                            const float kept3 = blk3[i1 - i1_b];
                            acc1_0_l[0] = acc1_0_l[0] + (double)kept3;
                        }
                    }
                }
                double acc1_0_t = acc1_0_l[0];
                for (int l = 1; l < 8; l++) {
                    acc1_0_t = acc1_0_t + acc1_0_l[l];
                }
                const float acc1_0 = (float)acc1_0_t;
                {
                    #pragma omp simd
                    for (int64_t i1 = 0; i1 < n1; i1++) {
                        const float ld0 = b0[i0 * s2_0 + i1];
                        const float subtract_2 = (ld0 - acc0_0);
                        const float exp_3 = la_exp_f32(subtract_2);
                        const float divide_5 = (exp_3 / acc1_0);
                        b1[i0 * s3_0 + i1] = divide_5;
                    }
                }
            }
        }
        la_fpe_gather(&la_fpe);
    }
    if (la_fpe) feraiseexcept(la_fpe);
}
