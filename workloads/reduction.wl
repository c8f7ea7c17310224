# reduction: the sum of n values by a shared-memory tree in every CTA, then a second launch
#
# The CUDA samples' reduce3: each thread adds two elements as it loads them (coalesced), the
# CTA stages the sums in shared memory behind a barrier and halves the number of active
# threads in log2(block) steps, each a shared-memory add followed by a barrier (9 barriers in
# all at 256 threads), and thread 0 writes the CTA's partial sum. The last five steps run on
# part of one warp while the other warps wait at the barrier. A second launch of one CTA
# reduces the partial sums the same way. Barrier-heavy (a quarter of the stall cycles are
# waits at barriers on the GTX480) with little memory traffic.
# models: CUDA samples reduction (reduce3, sequential addressing, first add during the load)
# inputs: n values uniform in [0, 1) (seed); block, a power of two, the CTA size of both launches
# class: CI Type-C coherent
.param n     262144
.param block 256
.param seed  149
.param npart ceil_div(n, 2*block)

.array idata  f32 [n] uniform(seed=seed)
.array part   f32 [npart] zero
.array result f32 [1] zero

.kernel reduce_in block=block shared=block*4
        mov     r0, %tid
        mov     r1, %ctaid
        mul     r2, r1, 2*block
        add     r2, r2, r0              ; i = ctaid*2*block + tid
        mov     r3, 0.0
        setp.lt p0, r2, n
    @p0 ld.f32  r3, [idata + r2*4]
        add     r4, r2, block
        setp.lt p1, r4, n
    @p1 ld.f32  r5, [idata + r4*4]
    @p1 fadd    r3, r3, r5              ; the first add, during the load
        shl     r6, r0, 2
        st.shared.f32 [r6], r3
        bar
        mov     r7, %ntid
        shr     r7, r7, 1               ; s = block/2
step:   setp.ge p2, r0, r7
    @p2 bra     skip
        ld.shared.f32 r8, [r6 + r7*4]
        fadd    r3, r3, r8              ; sdata[tid] += sdata[tid + s]
        st.shared.f32 [r6], r3
skip:   bar
        shr     r7, r7, 1
        setp.ne p3, r7, 0
    @p3 bra     step
        setp.ne p4, r0, 0
    @p4 exit
        st.f32  [part + r1*4], r3
        exit

.kernel reduce_part block=block shared=block*4
        mov     r0, %tid
        mov     r3, 0.0
        mov     r2, r0
load:   setp.ge p0, r2, npart
    @p0 bra     tree
        ld.f32  r5, [part + r2*4]
        fadd    r3, r3, r5
        add     r2, r2, block
        bra     load
tree:   shl     r6, r0, 2
        st.shared.f32 [r6], r3
        bar
        mov     r7, %ntid
        shr     r7, r7, 1
step:   setp.ge p2, r0, r7
    @p2 bra     skip
        ld.shared.f32 r8, [r6 + r7*4]
        fadd    r3, r3, r8
        st.shared.f32 [r6], r3
skip:   bar
        shr     r7, r7, 1
        setp.ne p3, r7, 0
    @p3 bra     step
        setp.ne p4, r0, 0
    @p4 exit
        st.f32  [result], r3
        exit

.host
        launch reduce_in grid=npart
        launch reduce_part grid=1
