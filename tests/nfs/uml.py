#!/usr/bin/python3
"""Starts Debian's user-mode-linux (kernel 6.1) on a host whose FPU state
is larger than that kernel's buffer for it, as with AMX (`amx_tile` in
/proc/cpuinfo): there its first process dies at once ("userspace - ptrace
set fp regs failed, errno = 14": the host's PTRACE_SETREGSET of
NT_X86_XSTATE wants the whole, larger state), and the guest panics.

A seccomp filter fails the PTRACE_GETREGSET of NT_X86_XSTATE by which the
kernel looks for that state as it starts, so it keeps its processes' FPU
state by PTRACE_GETFPREGS and SETFPREGS instead (the SSE state, not AVX's).
Threads of one guest process share one host process, whose AVX registers
the guest kernel then does not switch between them: the guest's glibc is
told not to use AVX (GLIBC_TUNABLES on the kernel's line, which the kernel
passes to init as an environment variable). Code that asks the CPU itself
(Rust's runtime feature detection) may still use AVX; a game recorded
wrong would show as a game missing or recorded twice.

Usage: uml.py ARGS... (those of `linux`).
"""
import ctypes
import os
import struct
import sys


def ins(code, jt, jf, k):
    return struct.pack("HBBI", code, jt, jf, k)


LD, JEQ, RET = 0x20, 0x15, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_RET|K
FILTER = b"".join([
    ins(LD, 0, 0, 4), ins(JEQ, 0, 7, 0xC000003E),  # arch: x86_64
    ins(LD, 0, 0, 0), ins(JEQ, 0, 5, 101),  # nr: ptrace
    ins(LD, 0, 0, 16), ins(JEQ, 0, 3, 0x4204),  # request: PTRACE_GETREGSET
    ins(LD, 0, 0, 32), ins(JEQ, 0, 1, 0x202),  # note: NT_X86_XSTATE
    ins(RET, 0, 0, 0x00050000 | 5),  # SECCOMP_RET_ERRNO | EIO
    ins(RET, 0, 0, 0x7FFF0000),  # SECCOMP_RET_ALLOW
])
NO_AVX = ("GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX,-AVX2,-AVX512F,-AVX512VL,"
          "-AVX512BW,-AVX512DQ,-AVX512CD,-FMA,-F16C,-AVX_VNNI,-AMX_TILE")


class Fprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def main():
    code = ctypes.create_string_buffer(FILTER, len(FILTER))
    prog = Fprog(len(FILTER) // 8, ctypes.cast(code, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_void_p,
                           ctypes.c_ulong, ctypes.c_ulong]
    # PR_SET_NO_NEW_PRIVS, then PR_SET_SECCOMP with SECCOMP_MODE_FILTER.
    if libc.prctl(38, 1, None, 0, 0) or libc.prctl(22, 2, ctypes.byref(prog), 0, 0):
        sys.exit("tests/nfs/uml.py: cannot set the seccomp filter: "
                 + os.strerror(ctypes.get_errno()))
    os.execvp("linux", ["linux"] + sys.argv[1:] + [NO_AVX])


main()
