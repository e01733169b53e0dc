/* max_subtract_exp_sum_divide: max, subtract, exp, sum, divide */
void la_max_subtract_exp_sum_divide_15b1b37f9a(char *const *p, const int64_t *d, const char *s, int64_t nt)
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
                float acc1_0_l[8];
                for (int l = 0; l < 8; l++) {
                    acc1_0_l[l] = 0.0f;
                }
                {
                    const int64_t pw_total = n1;
                    {
                        const int64_t pw_bo = 0, pw_be = pw_total;
                        {
                            const int64_t pw_o = pw_bo, pw_len = pw_be - pw_bo;
                            if (pw_len < 8) {
                                float pwsacc1_0 = 0.0f;
                                for (int64_t k = 0; k < pw_len; k++) {
                                    const int64_t i1 = pw_o + k;
                                    const float ld0 = b0[i0 * s1_0 + i1];
                                    const float subtract_2 = (ld0 - acc0_0);
                                    const float exp_3 = la_exp_f32(subtract_2);
                                    pwsacc1_0 = pwsacc1_0 + exp_3;
                                }
                                acc1_0_l[0] = pwsacc1_0;
                            }
                            else {
                                int64_t pw_lo[64], pw_n[64];
                                int pw_ph[64], pw_sp = 1;
                                float pwlacc1_0[64], pwgacc1_0 = 0.0f;
                                pw_lo[0] = pw_o, pw_n[0] = pw_len, pw_ph[0] = 0;
                                while (pw_sp > 0) {
                                    const int pw_t = pw_sp - 1;
                                    const int64_t pw_a = pw_lo[pw_t], pw_m = pw_n[pw_t];
                                    const int64_t pw_h = pw_m / 2 - (pw_m / 2) % 8;
                                    if (pw_m <= 128) {
                                        float pwracc1_0[8] = {-0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f};
                                        float pwv3[128];
                                        #pragma omp simd
                                        for (int64_t k = 0; k < pw_m; k++) {
                                            const int64_t i1 = pw_a + k;
                                            const float ld0 = b0[i0 * s1_0 + i1];
                                            const float subtract_2 = (ld0 - acc0_0);
                                            const float exp_3 = la_exp_f32(subtract_2);
                                            pwv3[k] = exp_3;
                                        }
                                        int64_t k = 0;
                                        for (; k + 8 <= pw_m; k += 8) {
                                            #pragma omp simd
                                            for (int l = 0; l < 8; l++) {
                                                const float kept3 = pwv3[k + l];
                                                pwracc1_0[l] = pwracc1_0[l] + kept3;
                                            }
                                        }
                                        float pweacc1_0 = (((pwracc1_0[0] + pwracc1_0[1]) + (pwracc1_0[2] + pwracc1_0[3])) + ((pwracc1_0[4] + pwracc1_0[5]) + (pwracc1_0[6] + pwracc1_0[7])));
                                        for (; k < pw_m; k++) {
                                            const float kept3 = pwv3[k];
                                            pweacc1_0 = pweacc1_0 + kept3;
                                        }
                                        pwgacc1_0 = pweacc1_0;
                                        pw_sp--;
                                    }
                                    else if (pw_ph[pw_t] == 0) {
                                        pw_ph[pw_t] = 1;
                                        pw_lo[pw_sp] = pw_a, pw_n[pw_sp] = pw_h, pw_ph[pw_sp] = 0, pw_sp++;
                                    }
                                    else if (pw_ph[pw_t] == 1) {
                                        pwlacc1_0[pw_t] = pwgacc1_0;
                                        pw_ph[pw_t] = 2;
                                        pw_lo[pw_sp] = pw_a + pw_h, pw_n[pw_sp] = pw_m - pw_h, pw_ph[pw_sp] = 0, pw_sp++;
                                    }
                                    else {
                                        pwgacc1_0 = (pwlacc1_0[pw_t] + pwgacc1_0);
                                        pw_sp--;
                                    }
                                }
                                acc1_0_l[0] = pwgacc1_0;
                            }
                        }
                    }
                }
                float acc1_0_t = acc1_0_l[0];
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
