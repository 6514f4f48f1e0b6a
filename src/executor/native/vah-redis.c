/*
 * vah-redis: redis-cli's one-shot form inside the executor's sandbox, as one
 * small static process. redis-cli itself maps 17 shared libraries before it
 * does anything (~3 ms, five times /bin/true); a hook calls it often.
 *
 *   vah-redis REAL_REDIS_CLI SOCKET [redis-cli arguments...]
 *
 * It serves `[-h HOST] [-p PORT] [--raw] [--no-auth-warning] COMMAND ARGS...`
 * with standard output not a terminal: it sends the command to SOCKET (-s
 * wins over -h/-p in redis-cli too), reads one reply and prints it as
 * redis-cli 7 does in that case (its raw output: strings as they are, nil as
 * nothing, an error's text, array elements one a line, then a newline; exit
 * status 0 whatever the reply). Anything else, or a socket it cannot reach,
 * it hands to the real redis-cli, unchanged (execv), so the behaviour of
 * every other form is redis-cli's own. test/executor/vah-redis.test.ts
 * compares the two on a real server.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct buffer {
  char *data;
  size_t length;
  size_t capacity;
};

static void append(struct buffer *b, const char *data, size_t length) {
  if (b->length + length > b->capacity) {
    size_t capacity = b->capacity ? b->capacity : 4096;
    while (capacity < b->length + length) capacity *= 2;
    char *grown = realloc(b->data, capacity);
    if (!grown) {
      fputs("vah-redis: out of memory\n", stderr);
      exit(1);
    }
    b->data = grown;
    b->capacity = capacity;
  }
  memcpy(b->data + b->length, data, length);
  b->length += length;
}

static void append_text(struct buffer *b, const char *text) { append(b, text, strlen(text)); }

static char **fallback_argv;

static void fallback(void) {
  execv(fallback_argv[0], fallback_argv);
  fprintf(stderr, "vah-redis: cannot run %s: %s\n", fallback_argv[0], strerror(errno));
  exit(127);
}

/* Commands whose reply is not one reply, or that redis-cli treats on its own side. */
static int needs_redis_cli(const char *command) {
  static const char *const own[] = {"subscribe", "psubscribe", "ssubscribe", "monitor", "sync",  "psync", "hello",
                                    "shutdown",  "quit",       "exit",       "connect", "restart", "help", "clear"};
  for (size_t i = 0; i < sizeof own / sizeof own[0]; i++)
    if (strcasecmp(command, own[i]) == 0) return 1;
  return 0;
}

/* The reply as it arrives: read more from the socket whenever the parser needs it. */
static int sock = -1;
static struct buffer in;
static size_t at;

static void need(size_t bytes) {
  while (in.length - at < bytes) {
    char chunk[16384];
    ssize_t got = read(sock, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      fputs("Error: Server closed the connection\n", stderr);
      exit(1);
    }
    append(&in, chunk, (size_t)got);
  }
}

/* One line up to CRLF, without it. */
static char *line(size_t *length) {
  for (;;) {
    char *start = in.data + at;
    char *end = memchr(start, '\r', in.length - at);
    if (end && (size_t)(end - in.data) + 1 < in.length) {
      *length = (size_t)(end - start);
      at = (size_t)(end - in.data) + 2;
      return start;
    }
    need(in.length - at + 1);
  }
}

static long long number(const char *text, size_t length) {
  char copy[32];
  if (length >= sizeof copy) length = sizeof copy - 1;
  memcpy(copy, text, length);
  copy[length] = 0;
  return strtoll(copy, NULL, 10);
}

/* redis-cli's raw formatting (cliFormatReplyRaw), for the RESP2 replies a server sends before HELLO. */
static void format(struct buffer *out) {
  need(1);
  char type = in.data[at++];
  size_t length;
  char *text = line(&length);
  switch (type) {
    case '+':
    case '-':
      append(out, text, length);
      if (type == '-') append_text(out, "\n");
      return;
    case ':':
      append(out, text, length);
      return;
    case '$': {
      long long size = number(text, length);
      if (size < 0) return;
      need((size_t)size + 2);
      append(out, in.data + at, (size_t)size);
      at += (size_t)size + 2;
      return;
    }
    case '*': {
      long long count = number(text, length);
      for (long long i = 0; i < count; i++) {
        if (i > 0) append_text(out, "\n");
        format(out);
      }
      return;
    }
    default:
      fprintf(stderr, "vah-redis: unexpected reply type '%c'\n", type);
      exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fputs("usage: vah-redis REAL_REDIS_CLI SOCKET [redis-cli arguments...]\n", stderr);
    return 2;
  }
  fallback_argv = calloc((size_t)argc + 2, sizeof *fallback_argv);
  if (!fallback_argv) return 1;
  fallback_argv[0] = argv[1];
  fallback_argv[1] = "-s";
  fallback_argv[2] = argv[2];
  for (int i = 3; i < argc; i++) fallback_argv[i] = argv[i];

  int first = 3;
  while (first < argc && argv[first][0] == '-') {
    const char *option = argv[first];
    if ((strcmp(option, "-h") == 0 || strcmp(option, "-p") == 0) && first + 1 < argc)
      first += 2;
    else if (strcmp(option, "--raw") == 0 || strcmp(option, "--no-auth-warning") == 0)
      first += 1;
    else
      fallback();
  }
  if (first >= argc || isatty(STDOUT_FILENO) || getenv("REDISCLI_AUTH") || getenv("FAKETTY") || needs_redis_cli(argv[first]))
    fallback();

  struct sockaddr_un address = {.sun_family = AF_UNIX};
  if (strlen(argv[2]) >= sizeof address.sun_path) fallback();
  strcpy(address.sun_path, argv[2]);
  sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (sock < 0 || connect(sock, (struct sockaddr *)&address, sizeof address) != 0) fallback();

  struct buffer request = {0};
  char header[32];
  snprintf(header, sizeof header, "*%d\r\n", argc - first);
  append_text(&request, header);
  for (int i = first; i < argc; i++) {
    size_t size = strlen(argv[i]);
    snprintf(header, sizeof header, "$%zu\r\n", size);
    append_text(&request, header);
    append(&request, argv[i], size);
    append_text(&request, "\r\n");
  }
  for (size_t sent = 0; sent < request.length;) {
    ssize_t wrote = write(sock, request.data + sent, request.length - sent);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) {
      fputs("Error: Server closed the connection\n", stderr);
      return 1;
    }
    sent += (size_t)wrote;
  }

  struct buffer out = {0};
  format(&out);
  append_text(&out, "\n");
  fwrite(out.data, 1, out.length, stdout);
  return fflush(stdout) == 0 ? 0 : 1;
}
