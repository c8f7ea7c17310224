# spmv: sparse matrix-vector product y = A*x, CSR, one row per thread
#
# SHOC's scalar CSR kernel: each thread walks its own row's column indices and values and
# gathers x at those columns. Rows start at unrelated offsets, so the row loads of a warp are
# memory-divergent, each thread re-reads its row's lines (intra-thread locality), the x gathers
# are random, and row lengths differ (branch divergence): DaCache's SPMV, DYNCTA's Type-M SPMV.
# models: SHOC spmv (CSR scalar), Parboil spmv (DaCache SPMV, DYNCTA SPMV)
# inputs: a random rows x rows matrix with nnz uniform entries (seed); or mtx("file.mtx")
# class: divergent Type-M
.param rows 8192
.param nnz  16*rows
.param seed 19

.matrix A random(rows=rows, nnz=nnz, seed=seed)
.array x f32 [A_cols] uniform(seed=seed+1)
.array y f32 [A_rows] zero

.kernel spmv block=256
        mov     r0, %gtid
        setp.ge p0, r0, A_rows
    @p0 exit
        ld.i32  r1, [A_rowptr + r0*4]
        ld.i32  r2, [A_rowptr + r0*4 + 4]
        shl     r1, r1, 2
        shl     r2, r2, 2
        mov     r5, 0.0
        setp.ge p1, r1, r2
    @p1 bra     store                   ; an empty row
loop:   ld.i32  r3, [A_col + r1]
        ld.f32  r4, [A_val + r1]
        ld.f32  r6, [x + r3*4]
        ffma    r5, r4, r6, r5
        add     r1, r1, 4
        setp.lt p2, r1, r2
    @p2 bra     loop
store:  st.f32  [y + r0*4], r5
        exit

.host
        launch spmv grid=ceil_div(A_rows, 256)
