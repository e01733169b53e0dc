/* sigmoid: negative, exp, add, reciprocal */
void la_sigmoid_f9f2595c44(char *const *p, const int64_t *d, const char *s, int64_t nt)
{
    (void)s;
    (void)nt;
    const int64_t n0 = d[0];
    const float *restrict b0 = (const float *)p[0];
    float *restrict b1 = (float *)p[1];
    const int64_t la_step = nt > 1 ? ((n0 + 16 * nt - 1) / (16 * nt) + 63) / 64 * 64 : n0;
    int64_t la_next = 0;
    int la_fpe = 0;  /* the region's threads' floating-point flags */
    #pragma omp parallel num_threads(nt) if (nt > 1)
    {
        for (int64_t i0_lo; (i0_lo = __atomic_fetch_add(&la_next, la_step, __ATOMIC_RELAXED)) < n0; ) {
            const int64_t i0_hi = n0 - i0_lo < la_step ? n0 : i0_lo + la_step;
            #pragma omp simd
            for (int64_t i0 = i0_lo; i0 < i0_hi; i0++) {
                const float ld0 = b0[i0];
                const float negative_1 = (-ld0);
                const float exp_2 = la_exp_f32(negative_1);
                const float c3 = 1.0f;
                const float add_4 = (c3 + exp_2);
                const float reciprocal_5 = ((float)1 / add_4);
                b1[i0] = reciprocal_5;
            }
        }
        la_fpe_gather(&la_fpe);
    }
    if (la_fpe) feraiseexcept(la_fpe);
}
