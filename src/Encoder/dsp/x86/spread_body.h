/* SPDX-License-Identifier: LGPL-2.0-or-later */
/* ringlame: the body of the SIMD psy spreading (rl_psy_spread in
 * psy_spread.c), included by one file per ISA level after it has defined
 * W (lanes), VF/VI/VM (float, int, mask vectors) and the small operations
 * below.  Each lane computes one output partition b with exactly the scalar
 * operations in the scalar order and types: the products s3*eb*tonality
 * left to right, mask_add's branches as compares and selects that pick the
 * value the scalar branch returns, the fast log from rl_fast_log_tab per
 * lane and its double scaling and truncation; a lane whose partition has
 * fewer terms than the longest of its group keeps its value (its indices
 * are clamped to its last term so that every load stays in bounds).
 * Algorithms derived from LAME 3.100 (LGPL-2.0-or-later). */
#ifndef RL_SPREAD_FN
#error "define RL_SPREAD_FN and the vector operations first"
#endif

/* sel(m, a, b): b where m is set, else a */

#ifndef NG
#define NG 4            /* groups of W partitions in flight (independent chains) */
#endif

/* mask_add's zero cases and ratio (one division: the operands the scalar
 * branch divides) */
#define MASK_ADD_HEAD                                                       \
    VF const z = set1_f(0.0f);                                              \
    m1 = sel(cmp_lt(m1, z), m1, z);                                         \
    m2 = sel(cmp_lt(m2, z), m2, z);                                         \
    VM const gt = cmp_gt(m2, m1);                                           \
    VF const ratio = div_f(sel(gt, m1, m2), sel(gt, m2, m1));               \
    VF const sum = add_f(m1, m2);                                           \
    VF const bigger = sel(cmp_lt(m1, m2), m1, m2);                          \
    VF const rfar = sel(cmp_lt(ratio, set1_f(rl_psy_ma_max_i2)), bigger, sum)

#define MASK_ADD_TAIL(r)                                                    \
    r = sel(cmp_le(m2, z), r, m1);                                          \
    r = sel(cmp_le(m1, z), r, m2);                                          \
    return r

/* mask_add of lanes that are all more than delta partitions apart */
static inline VF mask_add_far(VF m1, VF m2)
{
    MASK_ADD_HEAD;
    VF r = rfar;
    MASK_ADD_TAIL(r);
}

/* mask_add of the lanes: m1 the running value, m2 the new term, dist = kk - b */
static inline VF mask_add_v(VF m1, VF m2, VI dist, VI delta)
{
    MASK_ADD_HEAD;
#ifdef RL_SPREAD_MASK_BITS
    /* no lane near with a ratio under max_i1: each near lane's value is
     * the sum (the log's product is never taken), so the log is skipped */
    if (!(~cmpgt_i(abs_i(dist), delta) & cmp_lt(ratio, set1_f(rl_psy_ma_max_i1)))) {
        VF r = sel(cmpgt_i(abs_i(dist), delta), sum, rfar);
        MASK_ADD_TAIL(r);
    }
#endif
    /* rl_fast_log2(ratio), every step in float as there */
    VI const bits = cast_fi(ratio);
    VI const mant = and_i(bits, set1_i(0x7fffff));
    VF const e = cvt_if(sub_i(and_i(srli_i(bits, 23), set1_i(0xff)), set1_i(0x7f)));
    VF frac = cvt_if(and_i(mant, set1_i((1 << 14) - 1)));
    frac = mul_f(frac, set1_f(1.0f / (1 << 14)));
    VI const m = srli_i(mant, 14);
#ifdef RL_SPREAD_LOG_PAIRS
    VF t0, t1;
    log_pairs(m, &t0, &t1);
#else
    VF const t0 = gather_f(rl_fast_log_tab, m);
    VF const t1 = gather_f(rl_fast_log_tab + 1, m);
#endif
    VF const lg = add_f(e, add_f(mul_f(t0, sub_f(set1_f(1.0f), frac)), mul_f(t1, frac)));
    /* (int)(lg * double constant); lanes that do not use it are clamped */
    VI i = trunc_scaled(lg);
    i = min_i(max_i(i, set1_i(0)), set1_i(9));
    VF const t2 = table2_f(i);
    VF const rnear = sel(cmp_ge(ratio, set1_f(rl_psy_ma_max_i1)), mul_f(sum, t2), sum);
    VF r = sel(cmpgt_i(abs_i(dist), delta), rnear, rfar);
    MASK_ADD_TAIL(r);
}

#ifdef RL_SPREAD_PERM2
/* The kernel on a plan (psy_spread.h, W = 16): lane l of group g is
 * partition 16 g + l; its term j is s3t * eb[kk] * ton[kk], kk = first +
 * lane_first[l] + j, the products in the scalar order.  The energies of
 * one step are lanes lane_first of the 32 partitions from first + j: one
 * two-register permute, no transposition.  A lane past its last term
 * computes a value that the select drops (the step's act mask), as in the
 * general kernel. */
static void spread_planned(const struct RlPsyBands *gd, const RlSpreadPlan *p, const float *eb,
                           const float *max, const unsigned char *idx, float *ecb_out,
                           float *cap)
{
    int const n = gd->npart;
    float ebp[RL_CBANDS + 32], ton[RL_CBANDS + 32];
    int pre[RL_CBANDS + 1];          /* pre[i]: idx[0] + ... + idx[i-1] */

    pre[0] = 0;
    for (int b = 0; b < n; b++) {
        ebp[b] = eb[b];
        ton[b] = rl_psy_tonality_tab[idx[b]];
        pre[b + 1] = pre[b] + idx[b];
    }
    for (int b = n; b < RL_CBANDS + 32; b++)
        ebp[b] = ton[b] = 0.0f;
    for (int g0 = 0; g0 < p->ngroups; g0 += NG) {
        int const ng = p->ngroups - g0 < NG ? p->ngroups - g0 : NG;
        const RlSpreadGroup *q[NG];
        int jlo[NG], jhi[NG], gmax[NG];
        int maxsteps = 0;
        VF acc[NG];
        VI vst[NG], vrel[NG], vdelta[NG], perm[NG];
        for (int g = 0; g < ng; g++) {
            int const left = n - (g0 + g) * W;
            VM const valid = (VM) (left >= W ? 0xffff : (1u << left) - 1);
            q[g] = &p->g[g0 + g];
            gmax[g] = q[g]->gmax;
            if (maxsteps < gmax[g])
                maxsteps = gmax[g];
            vst[g] = load_i(q[g]->steps);
            vrel[g] = load_i(q[g]->rel);
            vdelta[g] = delta_lanes(idx + (g0 + g) * W, valid);    /* 0 past npart */
            /* the steps j with |rel + j| <= delta in some lane (none: an
             * empty range) */
            VM const pos = valid & cmpgt_i(vdelta[g], set1_i(-1));
            jlo[g] = reduce_min_i(pos, sub_i(sub_i(set1_i(0), vdelta[g]), vrel[g]));
            jhi[g] = reduce_max_i(pos, sub_i(vdelta[g], vrel[g]));
            perm[g] = load_i(q[g]->lane_first);
            const float *const e0 = ebp + q[g]->first, *const t0 = ton + q[g]->first;
            acc[g] = mul_f(mul_f(loadu_f(p->s3t + q[g]->s3t), perm2_f(loadu_f(e0), perm[g], loadu_f(e0 + W))),
                           perm2_f(loadu_f(t0), perm[g], loadu_f(t0 + W)));
        }
        for (int j = 1; j <= maxsteps; j++) {
            VI const vj = set1_i(j);
            for (int g = 0; g < ng; g++) {
                if (j > gmax[g])
                    continue;
                VM const act = cmpgt_i(vst[g], set1_i(j - 1));     /* j <= steps */
                const float *const e0 = ebp + q[g]->first + j, *const t0 = ton + q[g]->first + j;
                VF const x = mul_f(mul_f(loadu_f(p->s3t + q[g]->s3t + j * W),
                                         perm2_f(loadu_f(e0), perm[g], loadu_f(e0 + W))),
                                   perm2_f(loadu_f(t0), perm[g], loadu_f(t0 + W)));
                VF r;
                if (j >= jlo[g] && j <= jhi[g])
                    r = mask_add_v(acc[g], x, add_i(vrel[g], vj), vdelta[g]);
                else
                    r = mask_add_far(acc[g], x);
                acc[g] = sel(act, acc[g], r);
            }
        }
        for (int g = 0; g < ng; g++) {
            int const b0 = (g0 + g) * W, left = n - b0;
            VM const valid = (VM) (left >= W ? 0xffff : (1u << left) - 1);
            /* dd: the partition's idx sum, dd_n = steps + 1; the scalar
             * (1 + 2 dd) / (2 dd_n) in float is exact: both below 2^24, and
             * a quotient at least 1/d below an integer (d <= 128) stays
             * below it, as its half ulp is under 2^-9 (n < 2^16) */
            VI const f0 = add_i(set1_i(q[g]->first), perm[g]);
            VI const dd = sub_i(gather_i(pre + 1, add_i(f0, vst[g])), gather_i(pre, f0));
            VI const num = add_i(set1_i(1), add_i(dd, dd));
            VI const den = add_i(add_i(vst[g], vst[g]), set1_i(2));
            VI const ddv = trunc_i(div_f(cvt_if(num), cvt_if(den)));
            VF const avg_mask = mul_f(tonality_lanes(ddv), set1_f(0.5f));
            store_mask_f(ecb_out + b0, valid, mul_f(acc[g], avg_mask));
            VF const x = mul_f(mul_f(loadu_mask_f(max + b0, valid), loadu_mask_f(gd->minval + b0, valid)),
                               avg_mask);
            store_mask_f(cap + b0, valid, x);
        }
    }
}
#endif

void RL_SPREAD_FN(const struct RlPsyBands *gd, const float *eb, const float *max,
                  const unsigned char *idx, float *ecb_out, float *cap)
{
#ifdef RL_SPREAD_PERM2
    if (gd->plan) {
        spread_planned(gd, gd->plan, eb, max, idx, ecb_out, cap);
        return;
    }
#endif
    int const n = gd->npart;
    float ebp[RL_CBANDS + W], ton[RL_CBANDS + W];
    float prod[RL_CBANDS * RL_CBANDS + W];  /* s3[k] * eb[kk] * tonality, packed like s3 */
    int pre[RL_CBANDS + 1];          /* pre[i]: idx[0] + ... + idx[i-1] */
    int koff = 0, total = 0;

    pre[0] = 0;
    for (int b = 0; b < n; b++) {
        ebp[b] = eb[b];
        ton[b] = rl_psy_tonality_tab[idx[b]];
        pre[b + 1] = pre[b] + idx[b];
        int const st = gd->s3ind[b][1] - gd->s3ind[b][0];
        total += 1 + (st > 0 ? st : 0);
    }
    for (int b = n; b < n + W; b++)
        ebp[b] = ton[b] = 0.0f;
    /* the products, row by row (a row's tail runs into the next row's start,
     * which that row rewrites; the last W of s3 one at a time) */
    for (int b = 0, k0 = 0; b < n; b++) {
        int const f0 = gd->s3ind[b][0], st = gd->s3ind[b][1] - f0;
        int const len = 1 + (st > 0 ? st : 0);
        int j = 0;
        for (; j < len && k0 + j + W <= total; j += W)
            store_f(prod + k0 + j, mul_f(mul_f(loadu_f(gd->s3 + k0 + j), loadu_f(ebp + f0 + j)),
                                         loadu_f(ton + f0 + j)));
        for (; j < len; j++)
            prod[k0 + j] = gd->s3[k0 + j] * ebp[f0 + j] * ton[f0 + j];
        k0 += len;
    }
    for (int b0 = 0; b0 < n; b0 += W * NG) {
        int first[NG][W], steps[NG][W], kst[NG][W], delta[NG][W], bb[NG][W];
        int gmax[NG], jlo[NG], jhi[NG];
        float ecb[NG][W];
        /* the products transposed: pt[g][j][l] = the term of step j of lane
         * l of group g (its last one past its steps, as a clamped index
         * would read): one vector load per step instead of a gather, which
         * is slow on some CPUs (AMD Zen 4) */
        float pt[NG][RL_CBANDS][W];
        int maxsteps = 0;
        VF acc[NG];
        VI vfirst[NG], vst[NG], vdelta[NG], vb[NG];
        for (int g = 0; g < NG; g++) {
            gmax[g] = 0;
            jlo[g] = 1 << 20;
            jhi[g] = -(1 << 20);
            for (int l = 0; l < W; l++) {
                int const b = b0 + g * W + l;
                if (b < n) {
                    int const f0 = gd->s3ind[b][0], last = gd->s3ind[b][1];
                    int const st = last > f0 ? last - f0 : 0;
                    int const dl = rl_psy_ma_delta_tab[idx[b]];
                    first[g][l] = f0;
                    steps[g][l] = st;
                    kst[g][l] = koff;
                    koff += 1 + st;
                    delta[g][l] = dl;
                    bb[g][l] = b;
                    if (gmax[g] < st)
                        gmax[g] = st;
                    /* steps j with |f0 + j - b| <= dl */
                    if (dl >= 0) {
                        if (jlo[g] > b - dl - f0)
                            jlo[g] = b - dl - f0;
                        if (jhi[g] < b + dl - f0)
                            jhi[g] = b + dl - f0;
                    }
                } else {        /* no partition: reads element 0, never stored */
                    first[g][l] = steps[g][l] = kst[g][l] = delta[g][l] = bb[g][l] = 0;
                }
            }
            if (maxsteps < gmax[g])
                maxsteps = gmax[g];
            vfirst[g] = load_i(first[g]);
            vst[g] = load_i(steps[g]);
            vdelta[g] = load_i(delta[g]);
            vb[g] = load_i(bb[g]);
            for (int l = 0; l < W; l++) {
                const float *const row = prod + kst[g][l];
                int const st = steps[g][l];
                int j = 0;
                for (; j <= st; j++)
                    pt[g][j][l] = row[j];
                for (; j <= gmax[g]; j++)
                    pt[g][j][l] = row[st];
            }
            acc[g] = loadu_f(pt[g][0]);
        }
        for (int j = 1; j <= maxsteps; j++) {
            VI const vj = set1_i(j);
            for (int g = 0; g < NG; g++) {
                if (j > gmax[g])
                    continue;
                VM const act = cmpgt_i(vst[g], set1_i(j - 1));     /* j <= steps */
                VI const jc = min_i(vj, vst[g]);
                VF const x = loadu_f(pt[g][j]);
                VF r;
                if (j >= jlo[g] && j <= jhi[g])
                    r = mask_add_v(acc[g], x, sub_i(add_i(vfirst[g], jc), vb[g]), vdelta[g]);
                else
                    r = mask_add_far(acc[g], x);
                acc[g] = sel(act, acc[g], r);
            }
        }
        for (int g = 0; g < NG; g++)
            store_f(ecb[g], acc[g]);
        for (int g = 0; g < NG; g++) {
            for (int l = 0; l < W && b0 + g * W + l < n; l++) {
                int const b = b0 + g * W + l;
                int const dd = pre[first[g][l] + steps[g][l] + 1] - pre[first[g][l]];
                int const ddv = (1 + 2 * dd) / (2 * (1 + steps[g][l]));
                float const avg_mask = rl_psy_tonality_tab[ddv] * 0.5f;
                float e = ecb[g][l];
                e *= avg_mask;
                ecb_out[b] = e;
                float x = max[b];
                x *= gd->minval[b];
                x *= avg_mask;
                cap[b] = x;
            }
        }
    }
}
