# kmeans: the assignment step of k-means, each thread finds the nearest cluster of its point
#
# Each thread walks its own point's features, so the lanes of a warp touch addresses
# nfeatures*4 bytes apart: memory-divergent (one line per lane per load) with strong
# intra-warp locality, the cache-sensitive HCS / Type-M kernel of the CCWS and CAWA studies.
# Parameters: npoints, nfeatures, nclusters and the seed of the data.
# models: Rodinia kmeans assignment (CCWS KMN, CAWA kmeans, DYNCTA KM, DaCache KMN)
# inputs: npoints points of nfeatures uniform features, nclusters centres (seed)
# class: HCS Sens Type-M divergent
.param npoints   2048
.param nfeatures 34
.param nclusters 5
.param seed      1

.array features   f32 [npoints*nfeatures]  uniform(seed=seed)
.array clusters   f32 [nclusters*nfeatures] uniform(seed=seed+1)
.array membership i32 [npoints]            const(-1)

.kernel assign block=256
        mov     r0, %gtid
        setp.ge p0, r0, npoints
    @p0 exit
        mul     r1, r0, nfeatures*4     ; this thread's row of features
        mov     r2, 0                   ; nearest cluster so far
        mov     r9, 3.0e38              ; its squared distance
        mov     r3, 0                   ; cluster c
        mov     r10, 0                  ; c*nfeatures*4, the cluster's row
next_c: mov     r4, 0                   ; feature offset f*4
        mov     r8, 0.0                 ; distance to cluster c
next_f: ld.f32  r5, [features + r1 + r4]
        ld.f32  r6, [clusters + r10 + r4]
        fsub    r7, r5, r6
        ffma    r8, r7, r7, r8
        add     r4, r4, 4
        setp.lt p1, r4, nfeatures*4
    @p1 bra     next_f
        setp.lt.f32 p2, r8, r9          ; nearer?
        selp    r9, r8, r9, p2
        selp    r2, r3, r2, p2
        add     r3, r3, 1
        add     r10, r10, nfeatures*4
        setp.lt p3, r3, nclusters
    @p3 bra     next_c
        st.i32  [membership + r0*4], r2
        exit

.host
        launch assign grid=ceil(npoints/256)
