/*
 * vah-mount: the executor's size-limited tmpfs (src/executor/disk.ts) held by
 * one small static process, instead of a `mount` at the start of a session, a
 * `mount -o remount` per growth and an `umount` at its end. Each of those is
 * util-linux's binary (a dozen shared libraries) started by forking the Node
 * process, and the last one sits on the path of every `run` to its exit.
 *
 *   vah-mount SOURCE PATH SIZE
 *
 * Mounts a tmpfs named SOURCE at PATH (size=SIZE bytes, an inode for each
 * 4 KiB of it, mode 0711, nosuid, nodev) and answers one line: `mounted`, or `error: REASON` and exit 1.
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

int main(int argc, char **argv) {
  unsigned long long size;
  if (argc != 4 || parse_size(argv[3], &size)) {
    fprintf(stderr, "usage: vah-mount SOURCE PATH SIZE\n");
    return 2;
  }
  signal(SIGINT, SIG_IGN);
  signal(SIGTERM, SIG_IGN);
  signal(SIGHUP, SIG_IGN);
  signal(SIGPIPE, SIG_IGN);
  const char *path = argv[2];
  if (reply("mounted", tmpfs(argv[1], path, FLAGS, size))) return 1;
  char line[64];
  while (fgets(line, sizeof line, stdin)) {
    if (strncmp(line, "grow ", 5) != 0) break;
    if (parse_size(line + 5, &size))
      reply("", EINVAL);
    else
      reply("grown", tmpfs(NULL, path, MS_REMOUNT | FLAGS, size));
  }
  int err = umount2(path, 0) ? errno : 0;
  if (err == EBUSY) err = umount2(path, MNT_DETACH) ? errno : 0;
  return reply("unmounted", err) ? 1 : 0;
}
