.kernel k block=64
    exit
.host
    launch k grid=0
