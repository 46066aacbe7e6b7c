/*
 * Preloaded into Debian's user-mode-linux (kernel 6.1) by tests/nfs/bed.sh,
 * for hosts whose FPU state is larger than that kernel's buffer for it (832
 * bytes: the x87, SSE and AVX state), as with AVX-512 or AMX. There the
 * guest's first process died ("userspace - ptrace set fp regs failed,
 * errno = 14") and the guest panicked: the host's PTRACE_SETREGSET of
 * NT_X86_XSTATE takes only the whole state.
 *
 * Here such a SETREGSET is given the whole state: the kernel's bytes, and
 * every component that does not fit them marked as in its initial state
 * (zeroed registers). The guest kernel still keeps only the x87, SSE and
 * AVX registers of a thread when it switches threads that share a host
 * process, so bed.sh tells the guests' glibc not to use AVX-512 (a
 * GLIBC_TUNABLES on the kernel's line, which the kernel passes to init).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <cpuid.h>

typedef long (*ptrace_fn)(int, pid_t, void *, void *);

/* The guest kernel runs one thread at a time, on small stacks: one buffer. */
static unsigned char whole[64 * 1024] __attribute__((aligned(64)));
static size_t whole_size;

/* True if component `i` of the state lies within its first `len` bytes. */
static int fits(unsigned i, size_t len)
{
    unsigned size, offset, ecx, edx;
    if (i < 2)
        return len >= 512;
    __cpuid_count(0xd, i, size, offset, ecx, edx);
    return size != 0 && (size_t)offset + size <= len;
}

long ptrace(enum __ptrace_request request, ...)
{
    static ptrace_fn real;
    va_list ap;
    va_start(ap, request);
    pid_t pid = va_arg(ap, pid_t);
    void *addr = va_arg(ap, void *);
    void *data = va_arg(ap, void *);
    va_end(ap);
    if (!real)
        real = (ptrace_fn)dlsym(RTLD_NEXT, "ptrace");
    if (request != PTRACE_SETREGSET || (uintptr_t)addr != NT_X86_XSTATE)
        return real(request, pid, addr, data);
    struct iovec *given = data;
    if (!whole_size) {
        struct iovec probe = {whole, sizeof whole};
        if (real(PTRACE_GETREGSET, pid, addr, &probe) < 0)
            return -1;
        whole_size = probe.iov_len;
    }
    if (given->iov_len >= whole_size || given->iov_len < 576)
        return real(request, pid, addr, data);
    memset(whole, 0, whole_size);
    memcpy(whole, given->iov_base, given->iov_len);
    uint64_t features;
    memcpy(&features, whole + 512, sizeof features);
    for (unsigned i = 0; i < 64; i++)
        if ((features >> i & 1) && !fits(i, given->iov_len))
            features &= ~(UINT64_C(1) << i);
    memcpy(whole + 512, &features, sizeof features);
    struct iovec full = {whole, whole_size};
    return real(request, pid, addr, &full);
}
