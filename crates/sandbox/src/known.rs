//! The system call numbers the seccomp layer was written against, and the
//! filter that refuses every other number with `ENOSYS`, as a kernel
//! without the call would (nsjail's and the container runtimes' default).
//!
//! The layer's lists say what is refused; everything else is allowed. So
//! a call added by a later kernel would be allowed without anyone having
//! read it: Linux 6.13 to 6.17 added `setxattrat` and `file_setattr`,
//! which set extended attributes, ACLs and inode flags that the `*xattr`
//! and `chmod` refusals were there to stop. A number above
//! [`HIGHEST_KNOWN`] or in a gap of the table (numbers no call has on this
//! architecture, the x32 calls' numbers above 2^30 among them) fails with
//! `ENOSYS`; the C library falls back to an older call where there is one.

use seccompiler::sock_filter;

/// The last call read and placed (allowed or refused) in the seccomp
/// layer: `file_setattr`, Linux 6.17. Raise it only after deciding each
/// new call's fate in [`crate::seccomp`]. Numbers from 424 on are the same
/// on every architecture.
pub const HIGHEST_KNOWN: u32 = 469;

/// Calls newer than the libc crate's table (Linux 6.13 to 6.17).
pub const SYS_SETXATTRAT: i64 = 463;
/// Removes an extended attribute.
pub const SYS_REMOVEXATTRAT: i64 = 466;
/// `open_tree` with mount attributes.
pub const SYS_OPEN_TREE_ATTR: i64 = 467;
/// Sets an inode's flags and project (`FS_IOC_FSSETXATTR` by path).
pub const SYS_FILE_SETATTR: i64 = 469;

/// The numbers that name a call on this architecture, as inclusive
/// ranges in ascending order: x86_64's own table up to `uretprobe` (335),
/// then the numbers shared by every architecture from 424.
#[cfg(target_arch = "x86_64")]
const RANGES: &[(u32, u32)] = &[(0, 335), (424, HIGHEST_KNOWN)];
/// The generic 64-bit table (aarch64, riscv64): up to `kexec_file_load`
/// (294), then from 424; 403 to 423 are 32-bit architectures' only.
#[cfg(not(target_arch = "x86_64"))]
const RANGES: &[(u32, u32)] = &[(0, 294), (424, HIGHEST_KNOWN)];

/// `struct seccomp_data`'s offsets: the call's number, the architecture.
const NR: u32 = 0;
const ARCH: u32 = 4;

const LOAD: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGT: u16 = 0x25; // BPF_JMP | BPF_JGT | BPF_K
const JGE: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET: u16 = 0x06; // BPF_RET | BPF_K

const RET_KILL_PROCESS: u32 = 0x8000_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const RET_ALLOW: u32 = 0x7fff_0000;

fn op(code: u16, k: u32, jt: u8, jf: u8) -> sock_filter {
    sock_filter { code, jt, jf, k }
}

/// The filter: a call of another architecture kills the process (as the
/// layer's other filters do), an unknown number fails with `ENOSYS`, a
/// known one is left to the other filters.
pub fn unknown_calls(audit_arch: u32) -> Vec<sock_filter> {
    let mut program = vec![
        op(LOAD, ARCH, 0, 0),
        op(JEQ, audit_arch, 1, 0),
        op(RET, RET_KILL_PROCESS, 0, 0),
        op(LOAD, NR, 0, 0),
    ];
    // Two tests a range: below it (a gap, as the ranges ascend) is
    // unknown; within it, known; above it, on to the next range.
    let unknown = program.len() + 2 * RANGES.len();
    for &(lo, hi) in RANGES {
        let at = program.len();
        let jump = |to: usize| u8::try_from(to - at - 1).expect("a short table");
        program.push(op(JGE, lo, 0, jump(unknown)));
        let at = program.len();
        let jump = u8::try_from(unknown + 1 - at - 1).expect("a short table");
        program.push(op(JGT, hi, 0, jump));
    }
    program.push(op(RET, RET_ERRNO | libc::ENOSYS as u32, 0, 0));
    program.push(op(RET, RET_ALLOW, 0, 0));
    program
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `nr` names a call this layer was written against.
    fn is_known(nr: u32) -> bool {
        RANGES.iter().any(|&(lo, hi)| (lo..=hi).contains(&nr))
    }

    /// Runs `program` as the kernel would on a call `nr` of `arch`.
    fn run(program: &[sock_filter], nr: u32, arch: u32) -> u32 {
        let (mut acc, mut pc) = (0u32, 0usize);
        loop {
            let i = &program[pc];
            pc += 1;
            let taken = match i.code {
                LOAD => {
                    acc = if i.k == NR { nr } else { arch };
                    continue;
                }
                RET => return i.k,
                JEQ => acc == i.k,
                JGT => acc > i.k,
                JGE => acc >= i.k,
                other => panic!("unexpected code {other:#x}"),
            };
            pc += usize::from(if taken { i.jt } else { i.jf });
        }
    }

    const NATIVE: u32 = 0xc000_003e;
    const ENOSYS: u32 = RET_ERRNO | libc::ENOSYS as u32;

    #[test]
    fn known_numbers_pass_and_every_other_fails_with_enosys() {
        let program = unknown_calls(NATIVE);
        let mut unknown = 0;
        for nr in (0..2048).chain([1 << 30, (1 << 30) | 1, u32::MAX]) {
            let verdict = run(&program, nr, NATIVE);
            if is_known(nr) {
                assert_eq!(verdict, RET_ALLOW, "call {nr}");
            } else {
                assert_eq!(verdict, ENOSYS, "call {nr}");
                unknown += 1;
            }
        }
        assert_eq!(run(&program, 0, 0x4000_0003), RET_KILL_PROCESS);
        for nr in [libc::SYS_read, libc::SYS_openat, libc::SYS_futex_waitv] {
            assert_eq!(run(&program, nr as u32, NATIVE), RET_ALLOW, "call {nr}");
        }
        for nr in [HIGHEST_KNOWN + 1, 1000, 1 << 30] {
            assert_eq!(run(&program, nr, NATIVE), ENOSYS, "call {nr}");
        }
        assert!(unknown > 2048 - 400, "{unknown} unknown");
    }

    #[test]
    fn every_call_the_layer_names_is_known() {
        for nr in crate::seccomp::named_calls() {
            assert!(is_known(nr as u32), "call {nr} lies outside the table");
        }
    }
}
