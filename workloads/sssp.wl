# sssp: single-source shortest paths by frontier-based Bellman-Ford relaxation
#
# One thread per node. `relax` lets every frontier node walk its out-edges and lower each
# neighbour's distance with atom.min, flagging the neighbours it improved; `update` turns the
# flags into the next frontier and raises `changed`. Like bfs, but with edge weights, so nodes
# re-enter the frontier whenever a shorter path appears: irregular, data-dependent, divergent.
# models: single-source shortest path (CCWS SSSP, from the GPGPU-Sim benchmark set)
# inputs: an R-MAT graph of nodes nodes and edges edges (seed), weights in [1, maxw), source node
# class: MCS Type-M
.param nodes  4096
.param edges  32768
.param maxw   16
.param seed   23
.param source 0

.graph g rmat(nodes=nodes, edges=edges, seed=seed)
.array w        i32 [g_edges] uniform(seed=seed+1, lo=1, hi=maxw)
.array dist     i32 [g_nodes] const(1000000000)
.array mask     i32 [g_nodes] zero      ; in the current frontier
.array updating i32 [g_nodes] zero      ; improved in this round
.array changed  i32 [1]       zero

.kernel relax block=256
        mov     r0, %gtid
        setp.ge p0, r0, g_nodes
    @p0 exit
        shl     r1, r0, 2
        ld.i32  r2, [mask + r1]
        setp.eq p1, r2, 0
    @p1 exit
        st.i32  [mask + r1], 0
        ld.i32  r3, [dist + r1]
        ld.i32  r4, [g_rowptr + r1]
        ld.i32  r5, [g_rowptr + r1 + 4]
        shl     r4, r4, 2
        shl     r5, r5, 2
        setp.ge p2, r4, r5
    @p2 exit
edge:   ld.i32  r6, [g_col + r4]
        ld.i32  r7, [w + r4]
        add     r7, r7, r3              ; distance through this node
        shl     r6, r6, 2
        atom.min.i32 r8, [dist + r6], r7
        setp.ge p3, r7, r8
    @p3 bra     skip                    ; not an improvement
        st.i32  [updating + r6], 1
skip:   add     r4, r4, 4
        setp.lt p4, r4, r5
    @p4 bra     edge
        exit

.kernel update block=256
        mov     r0, %gtid
        setp.ge p0, r0, g_nodes
    @p0 exit
        shl     r1, r0, 2
        ld.i32  r2, [updating + r1]
        setp.eq p1, r2, 0
    @p1 exit
        st.i32  [mask + r1], 1
        st.i32  [updating + r1], 0
        st.i32  [changed], 1
        exit

.host
        set dist[source] = 0
        set mask[source] = 1
        do max=g_nodes
            set changed[0] = 0
            launch relax grid=ceil_div(g_nodes, 256)
            launch update grid=ceil_div(g_nodes, 256)
        while changed[0] != 0
