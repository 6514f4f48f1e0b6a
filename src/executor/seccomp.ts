/**
 * A small seccomp filter for bwrap's `--seccomp FD`: classic BPF, assembled
 * here because the well-kept builders (libseccomp's C API and its Python
 * binding) would make a compiler or Python a requirement of every user. The
 * program is short enough to read whole: check the architecture, refuse the
 * x32 ABI, answer ENOSYS to a fixed list of calls, allow the rest. ENOSYS
 * (not EPERM) because programs read it as "this kernel lacks it" and fall
 * back (libuv does so for io_uring).
 *
 * The list is the kernel surface a hook has no business with and that has
 * had the most exploitable bugs: io_uring, the key-management calls, ptrace,
 * bpf, perf events, userfaultfd. Only x86_64 and aarch64 have tables; on
 * other machines no filter is loaded and the run says so.
 */

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;

const BLOCKED: Record<string, Record<string, number>> = {
  x64: {
    ptrace: 101,
    add_key: 248,
    request_key: 249,
    keyctl: 250,
    perf_event_open: 298,
    bpf: 321,
    userfaultfd: 323,
    io_uring_setup: 425,
    io_uring_enter: 426,
    io_uring_register: 427,
  },
  arm64: {
    ptrace: 117,
    add_key: 217,
    request_key: 218,
    keyctl: 219,
    perf_event_open: 241,
    bpf: 280,
    userfaultfd: 282,
    io_uring_setup: 425,
    io_uring_enter: 426,
    io_uring_register: 427,
  },
};

// BPF opcodes (linux/filter.h) and seccomp return values (linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const SECCOMP_RET_KILL_PROCESS = 0x80000000;
const SECCOMP_RET_ERRNO = 0x00050000;
const SECCOMP_RET_ALLOW = 0x7fff0000;
const ENOSYS = 38;
/** Offsets in struct seccomp_data. */
const NR = 0;
const ARCH = 4;

/** The syscalls the filter refuses on this machine, by name; undefined where there is no table. */
export function blockedSyscalls(arch = process.arch): string[] | undefined {
  const table = BLOCKED[arch];
  return table ? Object.keys(table) : undefined;
}

/** The filter as bytes for `--seccomp`, or undefined on an architecture without a table. */
export function seccompProgram(arch = process.arch): Buffer | undefined {
  const table = BLOCKED[arch];
  if (!table) return undefined;
  const auditArch = arch === 'x64' ? AUDIT_ARCH_X86_64 : AUDIT_ARCH_AARCH64;
  const numbers = Object.values(table);
  type Insn = [code: number, jt: number, jf: number, k: number];
  const program: Insn[] = [
    [LD_W_ABS, 0, 0, ARCH],
    [JEQ_K, 1, 0, auditArch],
    [RET_K, 0, 0, SECCOMP_RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, NR],
  ];
  // x32 calls carry the x86_64 architecture with bit 30 set in the number: another ABI, refused whole.
  if (arch === 'x64') program.push([JGE_K, 0, 0, X32_SYSCALL_BIT]);
  for (const number of numbers) program.push([JEQ_K, 0, 0, number]);
  program.push([RET_K, 0, 0, SECCOMP_RET_ALLOW], [RET_K, 0, 0, SECCOMP_RET_ERRNO | ENOSYS]);
  // Every comparison after the load jumps to the ERRNO return (the last instruction) when it matches.
  const deny = program.length - 1;
  for (let index = 4; index < program.length - 2; index++) program[index]![1] = deny - index - 1;
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jt, index * 8 + 2);
    bytes.writeUInt8(jf, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return bytes;
}
