# imbalance: per-node work over a power-law graph, unequal between the warps of a CTA
#
# The CTA stages its nodes' values in shared memory behind a barrier; then each thread gathers
# and transforms the values of its node's neighbours (work proportional to the out-degree)
# and exits. On an R-MAT graph the degrees are power-law, so a few warps of a CTA carry most
# of the edges while the others finish early and wait for the CTA to end: the workload
# imbalance of CAWA section 2.2.1. Setting a=0.25 makes the graph uniform (balanced work).
# models: the workload imbalance of CAWA section 2.2.1 (bfs-like per-node work)
# inputs: an R-MAT graph of nodes nodes and edges edges with skew a (seed), node values
# class: critical
.param nodes 16384
.param edges 8*nodes
.param a     0.57
.param seed  109

.graph g rmat(nodes=nodes, edges=edges, seed=seed, a=a, b=(1-a)/3, c=(1-a)/3)
.array val f32 [g_nodes] uniform(seed=seed+1)
.array out f32 [g_nodes] zero

.kernel work block=256 shared=256*4
        mov     r0, %gtid
        mov     r6, %tid
        shl     r7, r6, 2
        mov     r10, 0.0
        setp.ge p0, r0, g_nodes
    @p0 bra     staged
        ld.f32  r10, [val + r0*4]       ; stage the CTA's own values
staged: st.shared.f32 [r7], r10
        bar
    @p0 exit
        ld.i32  r1, [g_rowptr + r0*4]
        ld.i32  r2, [g_rowptr + r0*4 + 4]
        shl     r1, r1, 2
        shl     r2, r2, 2
        setp.ge p1, r1, r2
    @p1 bra     done
edge:   ld.i32  r3, [g_col + r1]
        and     r8, r3, 255
        ld.shared.f32 r9, [r8*4]        ; a staged value of this CTA
        ld.f32  r4, [val + r3*4]        ; the neighbour's value
        fmul    r5, r4, r9
        ffma    r5, r5, 0.5, r4
        fsqrt   r5, r5
        fadd    r10, r10, r5
        add     r1, r1, 4
        setp.lt p2, r1, r2
    @p2 bra     edge
done:   st.f32  [out + r0*4], r10
        exit

.host
        launch work grid=ceil_div(g_nodes, 256)
