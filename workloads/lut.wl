# lut: polynomial evaluation with coefficients that every lane of a warp loads at once
#
# Each thread evaluates a polynomial of degree ncoef-1 at its element by Horner's rule; the
# coefficients come from a small table in global memory, one load per step, and since a CTA
# uses one polynomial (set ctaid % nsets) all 32 lanes of a warp load the same address: a
# broadcast that makes one L1D access for the whole warp, as constant or uniform loads do on
# a GPU. The table (nsets*ncoef*4 bytes, 512 by default) stays in the L1D, so after the first
# warps every coefficient load hits; the element loads and stores stream (coalesced).
# Mostly arithmetic: a fused multiply-add per broadcast load.
# models: coefficient tables read by every thread (polynomial approximations, FIR filters)
# inputs: n elements, nsets polynomials of ncoef coefficients, all uniform in [-1, 1) (seed)
# class: CI Type-C coherent
.param n     65536
.param ncoef 16
.param nsets 8
.param seed  157

.array x    f32 [n] uniform(seed=seed, lo=-1, hi=1)
.array coef f32 [nsets*ncoef] uniform(seed=seed+1, lo=-1, hi=1)
.array y    f32 [n] zero

.kernel poly block=256
        mov     r0, %gtid
        setp.ge p0, r0, n
    @p0 exit
        ld.f32  r1, [x + r0*4]
        mov     r2, %ctaid
        rem     r2, r2, nsets
        mul     r2, r2, ncoef*4         ; this CTA's polynomial
        add     r3, r2, ncoef*4         ; its end
        mov     r4, 0.0
step:   ld.f32  r5, [coef + r2]         ; the same address in every lane
        ffma    r4, r4, r1, r5          ; acc = acc*x + c
        add     r2, r2, 4
        setp.lt p1, r2, r3
    @p1 bra     step
        st.f32  [y + r0*4], r4
        exit

.host
        launch poly grid=ceil_div(n, 256)
