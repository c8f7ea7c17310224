# scatter: a permutation scatter out[perm(i)] = in[i], each lane storing 4 bytes of its own line
#
# Each thread reads its element (coalesced) and stores it at its destination in a random
# permutation, as the scatter of a radix sort or a gather-free reordering does. The
# permutation is a bijective hash of i computed in registers (multiply by an odd constant,
# xor-shift, multiply, within blocks of span elements), so the destinations of a warp's 32
# lanes fall on up to 32 different lines: every warp store becomes up to 32 partial-line
# writes (4 of 128 bytes each) spread over the whole output. span varies how far they spread:
# 32 permutes within a line (one full line per warp store), 1024 within 4 KB, n everywhere.
# models: the scatter step of a GPU radix sort or permutation (out[perm[i]] = in[i])
# inputs: n elements uniform (seed), n a power of two; span, a power of two from 32 to n
# class: CI Type-M coherent
.param n    262144
.param span n
.param seed 151
.param sh   floor(log2(span)/2)          ; the xor-shift of the hash

.array in  f32 [n] uniform(seed=seed)
.array out f32 [n] zero

.kernel scatter block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        ld.f32  r1, [in + r0*4]
        and     r2, r0, span-1          ; the index inside its block
        mul     r2, r2, 40503
        and     r2, r2, span-1
        shr     r3, r2, sh
        xor     r2, r2, r3
        mul     r2, r2, 1540483477
        and     r2, r2, span-1
        and     r4, r0, -span           ; the block
        or      r2, r2, r4              ; perm(i)
        st.f32  [out + r2*4], r1
        exit

.host
        launch scatter grid=ceil_div(n, 256)
