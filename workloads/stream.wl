# stream: coherent streaming triad c[i] = a[i] + s*b[i], one element per thread
#
# Every warp reads two fully coalesced 128-byte lines and writes one, with almost no
# arithmetic: bandwidth-bound, no reuse (a cache-insensitive, Non-sens / Type-X kernel).
# Parameters: n elements, s the scalar, seed for the inputs.
# models: the STREAM triad (a bandwidth-bound reference, not from the papers)
# inputs: n-element uniform vectors (seed)
# class: CI Non-sens coherent Type-M
.param n    65536
.param s    3.0
.param seed 1
.param block 256

.array a f32 [n] uniform(seed=seed, lo=0, hi=1)
.array b f32 [n] uniform(seed=seed+1, lo=0, hi=1)
.array c f32 [n] zero

.kernel triad block=block
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit                        ; tail threads of the last CTA
        shl     r1, r0, 2           ; byte offset of element i
        ld.f32  r2, [a + r1]
        ld.f32  r3, [b + r1]
        ffma    r4, r3, s, r2       ; a[i] + s*b[i]
        st.f32  [c + r1], r4
        exit

.host
        launch triad grid=ceil_div(n, block)
