/*
 * An NFSv3 client for the test cluster's nodes, in user space: a FUSE file system that
 * forwards each call to the NFS server through libnfs. This machine's kernel has no NFS
 * client, and fio (Debian's build has no libnfs engine) and the harness's emulator write
 * to files; mounted in a node's network namespace, their writes leave through that node's
 * rate-limited link to the server, as they would through a kernel mount.
 *
 *   nfs-fuse <server> <export> <mountpoint> [FUSE options]     e.g. nfs-fuse 10.77.0.1 /srv/x /mnt/x -f
 *
 * Single-threaded (FUSE's -s is added): one libnfs context serves every call, in order.
 * Writes are libnfs's synchronous WRITE calls of what FUSE hands over (128 KiB at most);
 * fsync is a COMMIT. Built by nfs-cluster.sh with Debian's libfuse3-dev and libnfs-dev.
 */
#define _GNU_SOURCE /* O_DIRECT */
#define FUSE_USE_VERSION 31
#include <errno.h>
#include <fcntl.h>
#include <fuse3/fuse.h>
#include <nfsc/libnfs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>

static struct nfs_context *nfs;

static void to_stat(const struct nfs_stat_64 *in, struct stat *out) {
  memset(out, 0, sizeof *out);
  out->st_ino = in->nfs_ino;
  out->st_mode = in->nfs_mode;
  out->st_nlink = in->nfs_nlink;
  out->st_uid = in->nfs_uid;
  out->st_gid = in->nfs_gid;
  out->st_size = in->nfs_size;
  out->st_blksize = in->nfs_blksize;
  out->st_blocks = in->nfs_blocks;
  out->st_atim.tv_sec = in->nfs_atime;
  out->st_atim.tv_nsec = in->nfs_atime_nsec;
  out->st_mtim.tv_sec = in->nfs_mtime;
  out->st_mtim.tv_nsec = in->nfs_mtime_nsec;
  out->st_ctim.tv_sec = in->nfs_ctime;
  out->st_ctim.tv_nsec = in->nfs_ctime_nsec;
}

static int op_getattr(const char *path, struct stat *st, struct fuse_file_info *fi) {
  (void)fi;
  struct nfs_stat_64 s;
  int rc = nfs_stat64(nfs, path, &s);
  if (rc < 0) return rc;
  to_stat(&s, st);
  return 0;
}

static int op_readdir(const char *path, void *buf, fuse_fill_dir_t fill, off_t offset, struct fuse_file_info *fi, enum fuse_readdir_flags flags) {
  (void)offset, (void)fi, (void)flags;
  struct nfsdir *dir;
  int rc = nfs_opendir(nfs, path, &dir);
  if (rc < 0) return rc;
  for (struct nfsdirent *e; (e = nfs_readdir(nfs, dir)) != NULL;) fill(buf, e->name, NULL, 0, 0);
  nfs_closedir(nfs, dir);
  return 0;
}

static int op_mkdir(const char *path, mode_t mode) {
  (void)mode;
  return nfs_mkdir(nfs, path);
}
static int op_rmdir(const char *path) { return nfs_rmdir(nfs, path); }
static int op_unlink(const char *path) { return nfs_unlink(nfs, path); }
static int op_rename(const char *from, const char *to, unsigned int flags) { return flags != 0 ? -EINVAL : nfs_rename(nfs, from, to); }
static int op_chmod(const char *path, mode_t mode, struct fuse_file_info *fi) {
  (void)fi;
  return nfs_chmod(nfs, path, (int)mode);
}
static int op_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi) {
  (void)path, (void)uid, (void)gid, (void)fi;
  return 0; /* the export squashes nothing and the tests write as root */
}

static int op_truncate(const char *path, off_t size, struct fuse_file_info *fi) {
  if (fi != NULL && fi->fh != 0) return nfs_ftruncate(nfs, (struct nfsfh *)(uintptr_t)fi->fh, (uint64_t)size);
  return nfs_truncate(nfs, path, (uint64_t)size);
}

static int op_utimens(const char *path, const struct timespec tv[2], struct fuse_file_info *fi) {
  (void)fi;
  struct timeval times[2];
  struct timeval now;
  gettimeofday(&now, NULL);
  for (int i = 0; i < 2; i++) {
    if (tv[i].tv_nsec == UTIME_NOW || tv[i].tv_nsec == UTIME_OMIT) times[i] = now;
    else times[i] = (struct timeval){.tv_sec = tv[i].tv_sec, .tv_usec = tv[i].tv_nsec / 1000};
  }
  return nfs_utimes(nfs, path, times);
}

static int op_create(const char *path, mode_t mode, struct fuse_file_info *fi) {
  struct nfsfh *fh;
  int rc = nfs_create(nfs, path, fi->flags & ~O_DIRECT, (int)mode, &fh);
  if (rc < 0) return rc;
  fi->fh = (uint64_t)(uintptr_t)fh;
  return 0;
}

static int op_open(const char *path, struct fuse_file_info *fi) {
  struct nfsfh *fh;
  int rc = nfs_open(nfs, path, fi->flags & ~(O_DIRECT | O_CREAT | O_EXCL), &fh);
  if (rc < 0) return rc;
  fi->fh = (uint64_t)(uintptr_t)fh;
  return 0;
}

static int op_read(const char *path, char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
  (void)path;
  return nfs_pread(nfs, (struct nfsfh *)(uintptr_t)fi->fh, (uint64_t)offset, size, buf);
}

static int op_write(const char *path, const char *buf, size_t size, off_t offset, struct fuse_file_info *fi) {
  (void)path;
  size_t done = 0;
  while (done < size) {
    int n = nfs_pwrite(nfs, (struct nfsfh *)(uintptr_t)fi->fh, (uint64_t)offset + done, size - done, buf + done);
    if (n < 0) return n;
    if (n == 0) return -EIO;
    done += (size_t)n;
  }
  return (int)done;
}

static int op_fsync(const char *path, int datasync, struct fuse_file_info *fi) {
  (void)path, (void)datasync;
  return nfs_fsync(nfs, (struct nfsfh *)(uintptr_t)fi->fh);
}

static int op_release(const char *path, struct fuse_file_info *fi) {
  (void)path;
  return nfs_close(nfs, (struct nfsfh *)(uintptr_t)fi->fh);
}

static int op_statfs(const char *path, struct statvfs *out) {
  struct nfs_statvfs_64 s;
  int rc = nfs_statvfs64(nfs, path, &s);
  if (rc < 0) return rc;
  memset(out, 0, sizeof *out);
  out->f_bsize = s.f_bsize;
  out->f_frsize = s.f_frsize;
  out->f_blocks = s.f_blocks;
  out->f_bfree = s.f_bfree;
  out->f_bavail = s.f_bavail;
  out->f_files = s.f_files;
  out->f_ffree = s.f_ffree;
  out->f_favail = s.f_favail;
  out->f_namemax = s.f_namemax;
  return 0;
}

static void *op_init(struct fuse_conn_info *conn, struct fuse_config *cfg) {
  (void)conn;
  /* Attributes change under other clients' writes: ask the server every time. */
  cfg->attr_timeout = 0;
  cfg->entry_timeout = 0;
  cfg->negative_timeout = 0;
  return NULL;
}

static const struct fuse_operations operations = {
    .init = op_init,
    .getattr = op_getattr,
    .readdir = op_readdir,
    .mkdir = op_mkdir,
    .rmdir = op_rmdir,
    .unlink = op_unlink,
    .rename = op_rename,
    .chmod = op_chmod,
    .chown = op_chown,
    .truncate = op_truncate,
    .utimens = op_utimens,
    .create = op_create,
    .open = op_open,
    .read = op_read,
    .write = op_write,
    .fsync = op_fsync,
    .release = op_release,
    .statfs = op_statfs,
};

int main(int argc, char *argv[]) {
  if (argc < 4) {
    fprintf(stderr, "usage: %s <server> <export> <mountpoint> [FUSE options]\n", argv[0]);
    return 2;
  }
  nfs = nfs_init_context();
  if (nfs == NULL) {
    fprintf(stderr, "nfs-fuse: cannot create a libnfs context\n");
    return 1;
  }

  if (nfs_mount(nfs, argv[1], argv[2]) != 0) {
    fprintf(stderr, "nfs-fuse: cannot mount %s:%s: %s\n", argv[1], argv[2], nfs_get_error(nfs));
    return 1;
  }
  /* FUSE's arguments: the program, the mount point, -s (one thread: one libnfs context), the rest. */
  char **fuse_argv = calloc((size_t)argc, sizeof *fuse_argv);
  int n = 0;
  fuse_argv[n++] = argv[0];
  fuse_argv[n++] = argv[3];
  fuse_argv[n++] = "-s";
  for (int i = 4; i < argc; i++) fuse_argv[n++] = argv[i];
  int rc = fuse_main(n, fuse_argv, &operations, NULL);
  nfs_destroy_context(nfs);
  return rc;
}
