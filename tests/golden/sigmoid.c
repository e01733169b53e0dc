/* sigmoid: negative, exp, add, reciprocal */
/* from model.py:3 */
void la_sigmoid_d9e58ae26c(char *const *p, const int64_t *d, const char *s, int64_t nt)
{
    (void)s;
    (void)nt;
    const int64_t n0 = d[0];
    const float *restrict b0 = (const float *)p[0];
    float *restrict b1 = (float *)p[1];
    #pragma omp parallel for simd num_threads(nt) if (parallel: nt > 1) schedule(static)
    for (int64_t i0 = 0; i0 < n0; i0++) {
        const float ld0 = b0[i0];
        const float negative_1 = (-ld0);
        const float exp_2 = la_exp_f32(negative_1);
        const float c3 = 1.0f;
        const float add_4 = (c3 + exp_2);
        const float reciprocal_5 = ((float)1 / add_4);
        b1[i0] = reciprocal_5;
    }
}
