# compare.py BASE.json TRIAL.json [label]: step 08 rule shares of cuBLAS, base against trial, and the step's time base/trial
import json, sys, math
def load(f):
    d = json.load(open(f)); v = {}; r = {}
    for x in d['results']:
        key = (x['m'], x['n'], x['k'])
        if x['step'] == 'blas': v[key] = x['median_ms']
        elif x['step'] == '08': r[key] = x['median_ms']
    return v, r
(va, ra), (vb, rb) = load(sys.argv[1]), load(sys.argv[2])
keys = [k for k in ra if k in rb and k in va and k in vb]
sa = {k: va[k] / ra[k] for k in keys}; sb = {k: vb[k] / rb[k] for k in keys}
g = lambda s, ks: math.exp(sum(math.log(s[k]) for k in ks) / max(1, len(ks)))
t = {k: ra[k] / rb[k] for k in keys}
odd = [k for k in keys if k[1] % 4]
print(f"{sys.argv[3] if len(sys.argv) > 3 else ''}: {len(keys)} shapes: A {g(sa, keys):.4f} (below 0.9: {sum(sa[k] < 0.9 for k in keys)}), B {g(sb, keys):.4f} (below 0.9: {sum(sb[k] < 0.9 for k in keys)}); time A/B all {g(t, keys):.4f}, n not a multiple of 4 ({len(odd)}) {g(t, odd):.4f}, n a multiple of 4 ({len(keys)-len(odd)}) {g(t, [k for k in keys if k not in odd]):.4f}")
for k in sorted(keys, key=lambda k: t[k]):
    print('   %dx%dx%d' % k, f"{sa[k]:.3f} -> {sb[k]:.3f}  time x{t[k]:.3f}")
