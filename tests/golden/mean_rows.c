/* sum_divide: sum, divide */
void la_sum_divide_9c111ad772(char *const *p, const int64_t *d, const char *s, int64_t nt)
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
                float acc0_0_l[8];
                for (int l = 0; l < 8; l++) {
                    acc0_0_l[l] = 0.0f;
                }
                {
                    const int64_t pw_total = n1;
                    {
                        const int64_t pw_bo = 0, pw_be = pw_total;
                        {
                            const int64_t pw_o = pw_bo, pw_len = pw_be - pw_bo;
                            if (pw_len < 8) {
                                float pwsacc0_0 = 0.0f;
                                for (int64_t k = 0; k < pw_len; k++) {
                                    const int64_t i1 = pw_o + k;
                                    const float ld0 = b0[i0 * s0_0 + i1];
                                    pwsacc0_0 = pwsacc0_0 + ld0;
                                }
                                acc0_0_l[0] = pwsacc0_0;
                            }
                            else {
                                int64_t pw_lo[64], pw_n[64];
                                int pw_ph[64], pw_sp = 1;
                                float pwlacc0_0[64], pwgacc0_0 = 0.0f;
                                pw_lo[0] = pw_o, pw_n[0] = pw_len, pw_ph[0] = 0;
                                while (pw_sp > 0) {
                                    const int pw_t = pw_sp - 1;
                                    const int64_t pw_a = pw_lo[pw_t], pw_m = pw_n[pw_t];
                                    const int64_t pw_h = pw_m / 2 - (pw_m / 2) % 8;
                                    if (pw_m <= 128) {
                                        float pwracc0_0[8] = {-0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f};
                                        int64_t k = 0;
                                        for (; k + 8 <= pw_m; k += 8) {
                                            #pragma omp simd
                                            for (int l = 0; l < 8; l++) {
                                                const int64_t i1 = pw_a + k + l;
                                                const float ld0 = b0[i0 * s0_0 + i1];
                                                pwracc0_0[l] = pwracc0_0[l] + ld0;
                                            }
                                        }
                                        float pweacc0_0 = (((pwracc0_0[0] + pwracc0_0[1]) + (pwracc0_0[2] + pwracc0_0[3])) + ((pwracc0_0[4] + pwracc0_0[5]) + (pwracc0_0[6] + pwracc0_0[7])));
                                        for (; k < pw_m; k++) {
                                            const int64_t i1 = pw_a + k;
                                            const float ld0 = b0[i0 * s0_0 + i1];
                                            pweacc0_0 = pweacc0_0 + ld0;
                                        }
                                        pwgacc0_0 = pweacc0_0;
                                        pw_sp--;
                                    }
                                    else if (pw_ph[pw_t] == 0) {
                                        pw_ph[pw_t] = 1;
                                        pw_lo[pw_sp] = pw_a, pw_n[pw_sp] = pw_h, pw_ph[pw_sp] = 0, pw_sp++;
                                    }
                                    else if (pw_ph[pw_t] == 1) {
                                        pwlacc0_0[pw_t] = pwgacc0_0;
                                        pw_ph[pw_t] = 2;
                                        pw_lo[pw_sp] = pw_a + pw_h, pw_n[pw_sp] = pw_m - pw_h, pw_ph[pw_sp] = 0, pw_sp++;
                                    }
                                    else {
                                        pwgacc0_0 = (pwlacc0_0[pw_t] + pwgacc0_0);
                                        pw_sp--;
                                    }
                                }
                                acc0_0_l[0] = pwgacc0_0;
                            }
                        }
                    }
                }
                float acc0_0_t = acc0_0_l[0];
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
