# streamcluster: the pgain step of Rodinia's streamcluster, repeated for ncand candidate centres
#
# Each launch evaluates opening a candidate centre: every thread computes its point's distance
# to the candidate from dimension-major coordinates (coalesced, the candidate's coordinate a
# broadcast), reads its point record (weight, assignment, cost: an array of structs, so a warp
# touches several lines per field) and either marks the point to switch or charges the saving
# to its current centre with an atomic add. A small kernel then picks the next candidate. The
# coordinates are re-read by every launch: reuse that only a large L1D can keep (CCWS STMCL).
# models: Rodinia streamcluster pgain (CCWS STMCL, CAWA streamcluster, DaCache SC)
# inputs: npoints points of dim uniform coordinates (seed), nctr open centres, ncand candidates
# class: MCS Sens
.param npoints 16384
.param dim     16
.param nctr    16
.param ncand   4
.param seed    17

.array coord  f32 [dim*npoints] uniform(seed=seed)
.array pts    f32 [npoints*4] uniform(seed=seed+1, lo=0, hi=nctr)  ; weight, assign, cost, pad
.array ctab   i32 [nctr] iota()
.array switch_m i32 [npoints] zero
.array lower  f32 [nctr] zero
.array work   f32 [ceil_div(npoints, 256)] zero
.array cand   i32 [2] zero              ; the candidate point, the launch count

.kernel pgain block=256
        mov     r0, %gtid
        setp.ge p0, r0, npoints
    @p0 exit
        ld.i32  r1, [cand]
        shl     r2, r0, 2
        shl     r3, r1, 2
        mov     r4, 0.0                 ; squared distance
        mov     r5, 0                   ; dimension offset, i*npoints*4
dl:     ld.f32  r6, [coord + r5 + r2]
        ld.f32  r7, [coord + r5 + r3]
        fsub    r8, r6, r7
        ffma    r4, r8, r8, r4
        add     r5, r5, npoints*4
        setp.lt p1, r5, dim*npoints*4
    @p1 bra     dl
        shl     r9, r0, 4               ; this point's record
        ld.f32  r10, [pts + r9]         ; weight
        ld.f32  r11, [pts + r9 + 4]     ; assignment
        ld.f32  r12, [pts + r9 + 8]     ; current cost
        fmul    r13, r4, r10            ; cost with the candidate
        setp.lt.f32 p2, r13, r12
    @p2 bra     sw
        f2i     r14, r11
        ld.i32  r15, [ctab + r14*4]
        fsub    r16, r12, r13
        atom.add.f32 r17, [lower + r15*4], r16
        exit
sw:     st.i32  [switch_m + r0*4], 1
        fsub    r16, r12, r13
        mov     r18, %ctaid
        atom.add.f32 r17, [work + r18*4], r16
        exit

.kernel next block=32
        mov     r0, %tid
        setp.ne p0, r0, 0
    @p0 exit
        ld.i32  r1, [cand]
        mad     r1, r1, 7919, 104729
        rem.u32 r1, r1, npoints
        st.i32  [cand], r1
        ld.i32  r2, [cand + 4]
        add     r2, r2, 1
        st.i32  [cand + 4], r2
        exit

.host
        do max=ncand
            launch pgain grid=ceil_div(npoints, 256)
            launch next grid=1
        while cand[1] != ncand
