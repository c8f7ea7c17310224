# blackscholes: Black-Scholes European option pricing, the CUDA SDK kernel
#
# Each thread prices nper options (grid-stride, as the SDK does): three coalesced loads per
# option, then logarithm, square root, exponentials, a divide and the polynomial cumulative
# normal distribution for d1 and d2, and two coalesced stores. Arithmetic and special
# functions dominate: compute-intensive (DYNCTA's Type-C BLK).
# models: CUDA SDK BlackScholes (DYNCTA BLK)
# inputs: nopt options with uniform price, strike and expiry (seed); riskless rate, volatility
# class: Type-C CI coherent
.param nopt  65536
.param nper  4
.param rate  0.02
.param vol   0.30
.param seed  83

.array S    f32 [nopt] uniform(seed=seed, lo=5, hi=30)
.array X    f32 [nopt] uniform(seed=seed+1, lo=1, hi=100)
.array T    f32 [nopt] uniform(seed=seed+2, lo=0.25, hi=10)
.array call f32 [nopt] zero
.array put  f32 [nopt] zero

.kernel bs block=128
        mov     r0, %gtid
        mov     r20, 0
opt:    setp.ge p0, r0, nopt
    @p0 exit
        shl     r1, r0, 2
        ld.f32  r2, [S + r1]
        ld.f32  r3, [X + r1]
        ld.f32  r4, [T + r1]
        fsqrt   r5, r4                  ; sqrt(T)
        fdiv    r6, r2, r3
        flog    r6, r6                  ; log(S/X)
        ffma    r6, r4, rate + 0.5*vol*vol, r6
        fmul    r7, r5, vol             ; v sqrt(T)
        fdiv    r8, r6, r7              ; d1
        fsub    r9, r8, r7              ; d2
        mov     r21, r8
        mov     r22, 0                  ; two passes: CND(d1), CND(d2)
cnd:    fabs    r10, r21
        ffma    r11, r10, 0.2316419, 1.0
        frcp    r11, r11                ; K
        fmul    r12, r21, r21
        fmul    r12, r12, -0.5
        fexp    r12, r12
        fmul    r12, r12, 0.39894228040143267794
        mov     r13, 1.330274429
        ffma    r13, r13, r11, -1.821255978
        ffma    r13, r13, r11, 1.781477937
        ffma    r13, r13, r11, -0.356563782
        ffma    r13, r13, r11, 0.31938153
        fmul    r13, r13, r11
        fmul    r13, r13, r12           ; 1 - CND(|d|)
        setp.gt.f32 p1, r21, 0.0
        fsub    r14, 1.0, r13
        selp    r13, r14, r13, p1
        setp.eq p2, r22, 1
    @p2 bra     both
        mov     r15, r13                ; CND(d1)
        mov     r21, r9
        mov     r22, 1
        bra     cnd
both:   fmul    r16, r4, -rate
        fexp    r16, r16
        fmul    r16, r16, r3            ; X exp(-rT)
        fmul    r17, r2, r15
        fmul    r18, r16, r13
        fsub    r17, r17, r18           ; call
        st.f32  [call + r1], r17
        fsub    r19, 1.0, r13
        fmul    r19, r16, r19
        fsub    r18, 1.0, r15
        fmul    r18, r2, r18
        fsub    r19, r19, r18           ; put
        st.f32  [put + r1], r19
        add     r0, r0, nopt/nper
        add     r20, r20, 1
        setp.lt p3, r20, nper
    @p3 bra     opt
        exit

.host
        launch bs grid=ceil_div(nopt/nper, 128)
