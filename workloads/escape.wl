# escape: Mandelbrot escape time, a loop whose lanes leave at different iterations
#
# Each thread iterates z = z*z + c for its pixel until |z| > 2 or maxit iterations, and stores
# the count. Pixels outside the set escape after a few iterations and pixels inside run all
# maxit, so the lanes of a warp leave the loop at different times: the warp keeps issuing for
# its slowest lane with the others masked off, and warps of a CTA (a row of 256 pixels) finish
# at very different times. Pure arithmetic, one store per pixel, no loads.
# models: CUDA samples Mandelbrot (escape time; early-exit loops such as per-thread searches)
# inputs: a w x h image of the window [x0, x1) x [y0, y1) of the complex plane; maxit
# class: CI Type-C critical
.param w     256
.param h     128
.param maxit 48
.param x0    -2.0
.param x1    0.6
.param y0    -1.2
.param y1    1.2

.array img i32 [w*h] zero

.kernel mandel block=256
        mov     r0, %gtid
        setp.ge p0, r0, w*h
    @p0 exit
        rem     r1, r0, w
        div     r2, r0, w
        i2f     r1, r1
        i2f     r2, r2
        ffma    r3, r1, (x1-x0)/w, x0   ; c = (cr, ci)
        ffma    r4, r2, (y1-y0)/h, y0
        mov     r5, 0.0                 ; zr
        mov     r6, 0.0                 ; zi
        mov     r7, 0                   ; iterations
iter:   fmul    r8, r5, r5
        fmul    r9, r6, r6
        fadd    r10, r8, r9
        setp.gt.f32 p1, r10, 4.0
    @p1 bra     done                    ; escaped
        fmul    r11, r5, r6
        ffma    r6, r11, 2.0, r4        ; zi = 2 zr zi + ci
        fsub    r8, r8, r9
        fadd    r5, r8, r3              ; zr = zr^2 - zi^2 + cr
        add     r7, r7, 1
        setp.lt p2, r7, maxit
    @p2 bra     iter
done:   st.i32  [img + r0*4], r7
        exit

.host
        launch mandel grid=ceil_div(w*h, 256)
