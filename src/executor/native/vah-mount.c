/*
 * vah-mount: the executor's size-limited tmpfs (src/executor/disk.ts) held by
 * one small static process, instead of a `mount` at the start of a session, a
 * `mount -o remount` per growth and an `umount` at its end. Each of those is
 * util-linux's binary (a dozen shared libraries) started by forking the Node
 * process, and the last one sits on the path of every `run` to its exit.
 *
 *   vah-mount SOURCE PATH SIZE [HOLDER_SOURCE HOLDER HOLDER_SIZE]
 *
 * Mounts a tmpfs named SOURCE at PATH (size=SIZE bytes, an inode for each
 * 4 KiB of it, mode 0711, nosuid, nodev) and answers one line: `mounted`, or `error: REASON` and exit 1.
 * With a holder, a tmpfs named HOLDER_SOURCE is mounted at HOLDER first (the session's own files,
 * kept apart from the budget), PATH is made in it, and the end unmounts both.
 * Then, a line at a time on standard input:
 *
 *   grow SIZE   remounts with size=SIZE (and its inodes); answers `grown` or `error: REASON`
 *   anything else, or the end of input, unmounts (lazily when it is busy),
 *   answers `unmounted` or `error: REASON`, and exits.
 *
 * The end of input includes its parent's death however it died, so the mount
 * never outlives the process that asked for it; SIGINT, SIGTERM and SIGHUP,
 * which a terminal sends to the whole process group, are ignored for that
 * reason (the parent decides when it is over).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

static const unsigned long FLAGS = MS_NOSUID | MS_NODEV;

static int reply(const char *done, int err) {
  if (err)
    printf("error: %s\n", strerror(err));
  else
    printf("%s\n", done);
  fflush(stdout);
  return err;
}

/* A size in bytes: decimal digits only, at least one, optionally ending the line. */
static int parse_size(const char *text, unsigned long long *size) {
  char *end;
  if (*text < '0' || *text > '9') return -1;
  errno = 0;
  *size = strtoull(text, &end, 10);
  return errno || (*end != '\0' && strcmp(end, "\n") != 0) ? -1 : 0;
}

/* One inode a page of the size (disk.ts's inodesFor): an empty file takes no page but a kernel inode. */
static int tmpfs(const char *source, const char *path, unsigned long flags, unsigned long long size) {
  char data[96];
  unsigned long long inodes = size / 4096 < 1024 ? 1024 : size / 4096;
  snprintf(data, sizeof data, "size=%llu,nr_inodes=%llu,mode=0711", size, inodes);
  return mount(source, path, source ? "tmpfs" : NULL, flags, data) ? errno : 0;
}

/* Unmounts PATH, lazily when it is busy: 0 or errno. */
static int unmount(const char *path) {
  int err = umount2(path, 0) ? errno : 0;
  if (err == EBUSY) err = umount2(path, MNT_DETACH) ? errno : 0;
  return err;
}

/* The holder's tmpfs with PATH made in it: 0, or errno with nothing left mounted. */
static int holder(const char *source, const char *dir, unsigned long long size, const char *path) {
  int err = tmpfs(source, dir, FLAGS, size);
  if (err) return err;
  if (mkdir(path, 0711) == 0) return 0;
  err = errno;
  unmount(dir);
  return err;
}

int main(int argc, char **argv) {
  unsigned long long size, holder_size = 0;
  if ((argc != 4 && argc != 7) || parse_size(argv[3], &size) || (argc == 7 && parse_size(argv[6], &holder_size))) {
    fprintf(stderr, "usage: vah-mount SOURCE PATH SIZE [HOLDER_SOURCE HOLDER HOLDER_SIZE]\n");
    return 2;
  }
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  const char *path = argv[2];
  const char *held = argc == 7 ? argv[5] : NULL;
  int err = held ? holder(argv[4], held, holder_size, path) : 0;
  if (!err) {
    err = tmpfs(argv[1], path, FLAGS, size);
    if (err && held) unmount(held);
  }
  if (reply("mounted", err)) return 1;
  char line[64];
  while (fgets(line, sizeof line, stdin)) {
    if (strncmp(line, "grow ", 5) != 0) break;
    if (parse_size(line + 5, &size))
      reply("", EINVAL);
    else
      reply("grown", tmpfs(NULL, path, MS_REMOUNT | FLAGS, size));
  }
  err = unmount(path);
  if (held) {
    int outer = unmount(held);
    if (!err) err = outer;
  }
  return reply("unmounted", err) ? 1 : 0;
}
