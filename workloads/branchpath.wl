# branchpath: data-dependent branch paths of unequal length before a barrier
#
# After staging its inputs in shared memory behind a barrier, each thread runs a short
# (shortit steps) or a long (longit steps) arithmetic path chosen by its input key: a key
# below thr (about thr/1024 of the threads) takes the long path. A warp takes as long as its
# longest lane, so warps with a long-path lane run far longer than the others, which finish
# and wait for their CTA to end: the diverging branch behaviour of CAWA section 2.2.2. With
# thr=0 every warp takes the short path (balanced).
# models: the branch-path criticality of CAWA section 2.2.2
# inputs: n keys uniform in [0, 1024) (seed); thr, shortit, longit
# class: critical Type-C
.param n       65536
.param thr     32
.param shortit 4
.param longit  64
.param seed    113

.array keys i32 [n] uniform(seed=seed, lo=0, hi=1024)
.array x    f32 [n] uniform(seed=seed+1)
.array out  f32 [n] zero

.kernel paths block=256 shared=256*4
        mov     r0, %gtid
        mov     r6, %tid
        shl     r7, r6, 2
        mov     r10, 0.0
        setp.ge p0, r0, n
    @p0 bra     staged
        ld.f32  r10, [x + r0*4]
staged: st.shared.f32 [r7], r10
        bar
    @p0 exit
        xor     r8, r6, 1
        ld.shared.f32 r9, [r8*4]        ; the neighbouring lane's input
        fadd    r10, r10, r9
        ld.i32  r1, [keys + r0*4]
        setp.lt p1, r1, thr
        selp    r2, longit, shortit, p1
        mov     r3, 0
step:   ffma    r10, r10, 0.999, 0.5
        fmul    r4, r10, r10
        ffma    r10, r4, 0.001, r10
        fmin    r10, r10, 100.0
        add     r3, r3, 1
        setp.lt p2, r3, r2
    @p2 bra     step
        st.f32  [out + r0*4], r10
        exit

.host
        launch paths grid=ceil_div(n, 256)
