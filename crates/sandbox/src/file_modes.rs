//! The seccomp filters that keep a bot or its build from leaving a file
//! that another local user could change or run as the bot's uid: writable
//! by others (mode `o+w`) or set-user-id and set-group-id. A `write`
//! folder and a build's folder outlive the run on the host, where every
//! local user may reach them, so what matters is the mode a file keeps,
//! whatever call gave it: the file mode mask (`umask`), the mode of a file
//! created (`open`, `creat`, `mknod`), and for a build the modes it sets
//! (`chmod`, which a bot may not call at all, see `seccomp::STAMPS`).

use std::collections::BTreeMap;

use seccompiler::{
    SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule, TargetArch,
};

use crate::answer::{answer, fail};
use crate::setup::SetupError;

/// The bit of a file mode mask that keeps others from writing.
pub const OTHERS_WRITE: u32 = 0o002;

/// The mode bits that make a file run as its owner or group
/// (`S_ISUID`, `S_ISGID`).
const SET_ID: [u32; 2] = [0o4000, 0o2000];

/// The mode bits a build may not set with `chmod`: others' write and
/// [`SET_ID`]. The sticky bit alone is harmless.
const LOOSE: [u32; 3] = [OTHERS_WRITE, SET_ID[0], SET_ID[1]];

/// A condition that holds when argument `arg` has every bit of `bits`.
fn has(arg: u8, bits: u32) -> Result<SeccompCondition, SetupError> {
    let bits = u64::from(bits);
    SeccompCondition::new(
        arg,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::MaskedEq(bits),
        bits,
    )
    .map_err(fail)
}

/// One rule per bit of `bits`: the call matches when its mode argument
/// (`mode`) has any of them.
fn any_bit(mode: u8, bits: &[u32]) -> Result<Vec<SeccompRule>, SetupError> {
    (bits.iter())
        .map(|&bit| SeccompRule::new(vec![has(mode, bit)?]).map_err(fail))
        .collect()
}

/// Keeps others' write bit in the file mode mask: `umask` with a mask
/// that clears it does nothing, as if it had worked on a mask of 0 (it
/// returns 0). A bot that set a mask of 0 would leave files and folders
/// in its write folders that any local user could change once the run is
/// over (an outside attack: 0666 and 0777 files and a 1777 folder), and
/// `chmod` is refused, so the mask is the one way to make them. Returning
/// 0 rather than an error keeps the pattern that reads the mask
/// (`old = umask(0); umask(old)`) from setting a mask of 0777 with the
/// error's -1 and locking the bot out of its own files. The bot starts
/// with the mask of [`start_mask`].
pub fn mask(arch: TargetArch) -> Result<SeccompFilter, SetupError> {
    let cleared = SeccompCondition::new(
        0,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::MaskedEq(u64::from(OTHERS_WRITE)),
        0,
    )
    .and_then(|c| SeccompRule::new(vec![c]))
    .map_err(fail)?;
    answer(arch, BTreeMap::from([(libc::SYS_umask, vec![cleared])]), 0)
}

/// Sets the bot's file mode mask to the one it inherited with at least
/// group and others' write masked (0o022), whatever the operator's.
pub fn start_mask() {
    use nix::sys::stat::{umask, Mode};
    let inherited = umask(Mode::from_bits_truncate(0o022));
    umask(inherited | Mode::from_bits_truncate(0o022));
}

/// Refuses (`EPERM`) a file created set-user-id or set-group-id: the mask
/// never holds those bits, so `open(O_CREAT, 04755)` makes a program that
/// runs as the bot's uid for whoever starts it on the host. `open` and
/// `openat` are refused so only with `O_CREAT` or `O_TMPFILE` (without
/// them the mode argument is whatever lay in the register); `creat` and
/// `mknod` always read it. `openat2` passes its mode in memory, out of a
/// filter's reach: it fails as on a kernel without it (`ENOSYS`, before
/// Linux 5.6), and the C library and the runtimes use `openat` instead.
pub fn created(arch: TargetArch) -> Result<Vec<SeccompFilter>, SetupError> {
    let creating = [libc::O_CREAT as u32, libc::O_TMPFILE as u32];
    let open_rules = |flags: u8, mode: u8| -> Result<Vec<SeccompRule>, SetupError> {
        let mut rules = Vec::new();
        for flag in creating {
            for bit in SET_ID {
                rules.push(
                    SeccompRule::new(vec![has(flags, flag)?, has(mode, bit)?]).map_err(fail)?,
                );
            }
        }
        Ok(rules)
    };
    let mut calls = BTreeMap::from([
        (libc::SYS_openat, open_rules(2, 3)?),
        (libc::SYS_mknodat, any_bit(2, &SET_ID)?),
    ]);
    #[cfg(target_arch = "x86_64")]
    calls.extend([
        (libc::SYS_open, open_rules(1, 2)?),
        (libc::SYS_creat, any_bit(1, &SET_ID)?),
        (libc::SYS_mknod, any_bit(1, &SET_ID)?),
    ]);
    let openat2 = BTreeMap::from([(libc::SYS_openat2, Vec::new())]);
    Ok(vec![
        answer(arch, calls, libc::EPERM)?,
        answer(arch, openat2, libc::ENOSYS)?,
    ])
}

/// For a build, which may set file modes (`jar`, `install`): refuses
/// (`EPERM`) the `chmod` family when the mode has a bit of [`LOOSE`], as
/// for a file the caller does not own. `chmod 0755` and `chmod +x` work;
/// `chmod 0777`, `chmod 1777` and `chmod u+s` do not.
pub fn build_modes(arch: TargetArch) -> Result<SeccompFilter, SetupError> {
    let mut calls = BTreeMap::from([
        (libc::SYS_fchmod, any_bit(1, &LOOSE)?),
        (libc::SYS_fchmodat, any_bit(2, &LOOSE)?),
        (libc::SYS_fchmodat2, any_bit(2, &LOOSE)?),
    ]);
    #[cfg(target_arch = "x86_64")]
    calls.insert(libc::SYS_chmod, any_bit(1, &LOOSE)?);
    answer(arch, calls, libc::EPERM)
}
