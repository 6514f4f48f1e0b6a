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
 *
 *   vah-redis --call SOCKET NAME [arguments...]
 *
 * A runtime command (`/sqlite-memory`, `/eventbus`, ...) as one process: it
 * sends `VAH.CALL NAME ARGUMENTS...` to the executor's control socket and
 * turns the reply, one bulk string `EXIT \x1f STDERR \x1f STDOUT \x1f`
 * (src/executor/control-server.ts), back into the two streams and the exit
 * status, as the shell shim does without the helper. A socket it cannot reach
 * or a reply it cannot read: `/NAME: the executor did not answer`, status 70.
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

static void server_closed(void) {
  fputs("Error: Server closed the connection\n", stderr);
  exit(1);
}

/* What a reply cut short means: redis-cli's error, or a runtime command's unanswered call. */
static void (*cut_short)(void) = server_closed;

static void need(size_t bytes) {
  while (in.length - at < bytes) {
    char chunk[16384];
    ssize_t got = read(sock, chunk, sizeof chunk);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) cut_short();
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

static int connect_to(const char *path) {
  struct sockaddr_un address = {.sun_family = AF_UNIX};
  if (strlen(path) >= sizeof address.sun_path) return -1;
  strcpy(address.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd >= 0 && connect(fd, (struct sockaddr *)&address, sizeof address) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/* The words as one RESP array, written whole; 0 when the socket took it all. */
static int send_words(int count, char **words) {
  struct buffer request = {0};
  char header[32];
  snprintf(header, sizeof header, "*%d\r\n", count);
  append_text(&request, header);
  for (int i = 0; i < count; i++) {
    size_t size = strlen(words[i]);
    snprintf(header, sizeof header, "$%zu\r\n", size);
    append_text(&request, header);
    append(&request, words[i], size);
    append_text(&request, "\r\n");
  }
  for (size_t sent = 0; sent < request.length;) {
    ssize_t wrote = write(sock, request.data + sent, request.length - sent);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return -1;
    sent += (size_t)wrote;
  }
  return 0;
}

static int write_all(int fd, const char *data, size_t length) {
  while (length > 0) {
    ssize_t wrote = write(fd, data, length);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote <= 0) return -1;
    data += wrote;
    length -= (size_t)wrote;
  }
  return 0;
}

static const char *call_name;

static void not_answered(void) {
  fprintf(stderr, "/%s: the executor did not answer\n", call_name);
  exit(70);
}

/* The reply's bulk string: status, stderr and stdout, each closed by the separator. */
static int call(int argc, char **argv) {
  call_name = argv[3];
  cut_short = not_answered;
  sock = connect_to(argv[2]);
  /* VAH.CALL NAME ARGS...: the words from NAME on, after the command's own. */
  argv[2] = "VAH.CALL";
  if (sock < 0 || send_words(argc - 2, argv + 2) != 0) not_answered();
  need(1);
  if (in.data[at++] != '$') not_answered();
  size_t length;
  char *text = line(&length);
  long long size = number(text, length);
  if (size < 0) not_answered();
  need((size_t)size);
  char *reply = in.data + at, *end = reply + size;
  char *digits_end = memchr(reply, '\x1f', (size_t)size);
  if (!digits_end || digits_end == reply || digits_end - reply > 9) not_answered();
  int code = 0;
  for (char *c = reply; c < digits_end; c++) {
    if (*c < '0' || *c > '9') not_answered();
    code = code * 10 + (*c - '0');
  }
  char *err = digits_end + 1;
  char *err_end = memchr(err, '\x1f', (size_t)(end - err));
  if (!err_end) not_answered();
  char *out = err_end + 1;
  size_t out_length = (size_t)(end - out);
  if (out_length > 0 && out[out_length - 1] == '\x1f') out_length--;
  write_all(STDERR_FILENO, err, (size_t)(err_end - err));
  write_all(STDOUT_FILENO, out, out_length);
  return code & 255;
}

int main(int argc, char **argv) {
  if (argc >= 4 && strcmp(argv[1], "--call") == 0) return call(argc, argv);
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

  sock = connect_to(argv[2]);
  if (sock < 0) fallback();
  if (send_words(argc - first, argv + first) != 0) {
    fputs("Error: Server closed the connection\n", stderr);
    return 1;
  }

  struct buffer out = {0};
  format(&out);
  append_text(&out, "\n");
  fwrite(out.data, 1, out.length, stdout);
  return fflush(stdout) == 0 ? 0 : 1;
}
