/* argmax: argmax */
void la_argmax_4861dafdad(char *const *p, const int64_t *d, const char *s, int64_t nt)
{
    (void)s;
    (void)nt;
    const int64_t n0 = d[0];
    const int64_t n1 = d[1];
    const float *restrict b0 = (const float *)p[0];
    int64_t *restrict b1 = (int64_t *)p[1];
    const int64_t s0_1 = d[2];
    #pragma omp parallel for num_threads(nt) if (parallel: nt > 1) schedule(static)
    for (int64_t i0 = 0; i0 < n0; i0++) {
        float acc0_0_l[8];
        int64_t acc0_0_i[8];
        for (int l = 0; l < 8; l++) {
            acc0_0_l[l] = (float)(-INFINITY);
            acc0_0_i[l] = 0;
        }
        {
            int64_t i1_c = 0;
            for (; i1_c + 8 <= n1; i1_c += 8) {
                #pragma omp simd
                for (int l = 0; l < 8; l++) {
                    const int64_t i1 = i1_c + l;
                    const float ld0 = b0[i0 + i1 * s0_1];
                    if ((ld0 > acc0_0_l[l] || (ld0 != ld0 && acc0_0_l[l] == acc0_0_l[l]))) {
                        acc0_0_l[l] = ld0;
                        acc0_0_i[l] = i1;
                    }
                }
            }
            for (int64_t i1 = i1_c; i1 < n1; i1++) {
                const float ld0 = b0[i0 + i1 * s0_1];
                if ((ld0 > acc0_0_l[0] || (ld0 != ld0 && acc0_0_l[0] == acc0_0_l[0]))) {
                    acc0_0_l[0] = ld0;
                    acc0_0_i[0] = i1;
                }
            }
        }
        float acc0_0_b = acc0_0_l[0];
        int64_t acc0_0_x = acc0_0_i[0];
        for (int l = 1; l < 8; l++) {
            if ((acc0_0_l[l] > acc0_0_b || (acc0_0_l[l] != acc0_0_l[l] && acc0_0_b == acc0_0_b)) || ((acc0_0_l[l] == acc0_0_b || (acc0_0_l[l] != acc0_0_l[l] && acc0_0_b != acc0_0_b)) && acc0_0_i[l] < acc0_0_x)) {
                acc0_0_b = acc0_0_l[l];
                acc0_0_x = acc0_0_i[l];
            }
        }
        const int64_t acc0_0 = (int64_t)acc0_0_x;
        {
            b1[i0] = acc0_0;
        }
    }
}
