/* The output folder's ownership: its lock, and the temporaries killed runs left in it. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "explorer/explore_internal.h"

void explore_join(char *out, size_t n, const char *dir, const char *file)
{
    snprintf(out, n, "%s/%s", dir, file);
}

/* The output folder belongs to one run at a time: a POSIX write lock on folder/lock, held while
 * the study runs. The system releases it when the process ends however it ends, so a lock left
 * by a killed run is no lock: the next run takes it. The file holds the holder's pid, for
 * people; the pid in a refusal comes from the system (F_GETLK).
 *
 * The shards of a study (--shard K/N, a Slurm job array) run at the same time, each into its own
 * journal: shard K locks folder/lock.K-of-N instead, so that one shard cannot run twice, and
 * neither a shard nor a run of the whole study (the merge) starts while the other kind holds
 * the folder. */

/* The pid holding a write lock on the file at path, 0 when none does (or it cannot be read). */
static long lock_holder(const char *path)
{
    int fd = open(path, O_RDWR);
    if (fd < 0) return 0;
    struct flock who;
    memset(&who, 0, sizeof who);
    who.l_type = F_WRLCK;
    who.l_whence = SEEK_SET;
    long pid = fcntl(fd, F_GETLK, &who) == 0 && who.l_type != F_UNLCK ? (long)who.l_pid : 0;
    close(fd);
    return pid;
}

/* A running shard of the study in the folder: its lock file's name into name, its pid; 0 when
 * no shard runs. */
static long running_shard(const char *folder, char *name, size_t namelen)
{
    DIR *d = opendir(folder);
    if (!d) return 0;
    long pid = 0;
    struct dirent *de;
    while (!pid && (de = readdir(d)) != NULL) {
        int k, n, used = 0;
        if (sscanf(de->d_name, "lock.%d-of-%d%n", &k, &n, &used) != 2 || de->d_name[used]) continue;
        char path[2048];
        explore_join(path, sizeof path, folder, de->d_name);
        if ((pid = lock_holder(path)) != 0) snprintf(name, namelen, "%d of %d", k, n);
    }
    closedir(d);
    return pid;
}

/* Locks the folder for a run of the whole study (shard_n 0) or for shard K of N. Returns the
 * open descriptor, -1 with err when another run holds it, -2 with err when the lock file
 * fails. */
int explore_folder_lock(const char *folder, int shard_k, int shard_n, char *err, size_t errlen)
{
    char path[2048], name[64] = "lock";
    if (shard_n) snprintf(name, sizeof name, "lock.%d-of-%d", shard_k, shard_n);
    explore_join(path, sizeof path, folder, name);
    int fd = open(path, O_RDWR | O_CREAT, 0666);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot open the folder's lock: %s", path, strerror(errno));
        return -2;
    }
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fcntl(fd, F_SETLK, &fl) != 0) {
        int e = errno;
        long pid = e == EACCES || e == EAGAIN ? lock_holder(path) : 0;
        if (pid && shard_n)
            snprintf(err, errlen,
                     "%s: shard %d of %d is already running (pid %ld); wait for it to end "
                     "(expected one run of each shard)",
                     folder, shard_k, shard_n, pid);
        else if (pid)
            snprintf(err, errlen,
                     "%s: in use by another run of the study (pid %ld); wait for it to end "
                     "(expected one run per output folder)",
                     folder, pid);
        else
            snprintf(err, errlen, "%s: cannot lock: %s", path, strerror(e));
        close(fd);
        return pid ? -1 : -2;
    }
    /* the other kind of run: a shard while the whole study runs, or the merge while a shard
     * runs */
    char other[64], whole[2048];
    explore_join(whole, sizeof whole, folder, "lock");
    long pid = shard_n ? lock_holder(whole) : running_shard(folder, other, sizeof other);
    if (pid) {
        if (shard_n)
            snprintf(err, errlen,
                     "%s: in use by a run of the whole study (pid %ld); wait for it to end "
                     "(expected the shards before the merge)",
                     folder, pid);
        else
            snprintf(err, errlen,
                     "%s: shard %s of the study is still running (pid %ld); wait for every "
                     "shard to end before the merge",
                     folder, other, pid);
        close(fd);
        return -1;
    }
    char pidtext[32];
    int n = snprintf(pidtext, sizeof pidtext, "%ld\n", (long)getpid());
    errno = 0;
    if (ftruncate(fd, 0) != 0 || write(fd, pidtext, (size_t)n) != n) {
        /* a short write sets no errno */
        snprintf(err, errlen, "%s: write failed: %s", path,
                 errno ? strerror(errno) : "short write");
        close(fd);
        return -2;
    }
    return fd;
}

/* Ends the run's hold on the folder. The file stays, with the pid of the run that last held
 * it: removing it would let a run that opened it just before lock a file no later run sees. */
void explore_folder_unlock(int fd)
{
    if (fd >= 0) close(fd);
}

/* The pid a temporary output's name ends with (NAME.tmp.PID), or 0 when it is none. */
static long temporary_pid(const char *name)
{
    const char *t = strstr(name, ".tmp.");
    while (t && strstr(t + 1, ".tmp."))
        t = strstr(t + 1, ".tmp.");
    if (!t || t == name || !t[5]) return 0;
    long pid = 0;
    for (const char *c = t + 5; *c; c++) {
        if (*c < '0' || *c > '9' || pid > 99999999) return 0;
        pid = pid * 10 + (*c - '0');
    }
    return pid;
}

/* Removes the temporaries (NAME.tmp.PID) that runs killed while writing left in the folder:
 * those whose process is gone. A live process's are its own business. Called with the folder's
 * lock held and no shard running, so no run of a study in it is writing. */
void explore_remove_orphans(const char *folder)
{
    DIR *d = opendir(folder);
    if (!d) return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        long pid = temporary_pid(de->d_name);
        if (pid <= 0 || pid == (long)getpid()) continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        char path[2048];
        explore_join(path, sizeof path, folder, de->d_name);
        remove(path);
    }
    closedir(d);
}
