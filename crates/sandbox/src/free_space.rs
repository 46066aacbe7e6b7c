//! The seccomp filter that keeps a filesystem's free space from a bot.
//! Every folder bound into a bot's root reports the free blocks of the
//! host filesystem it lives on, so one bot writing and deleting a file in
//! its write folder (or flooding its stderr, which the arbiter appends to
//! a log of the results filesystem) moves what another bot, of another
//! game or tournament, reads of its own read-only folder: a channel of
//! about a bit a move (an outside attack, 6 bits of 6 right). The calls
//! and `ioctl` commands that report it fail as on a kernel or filesystem
//! without them (`ENOSYS`); the bots' runtimes start and play without
//! them.

use std::collections::BTreeMap;

use seccompiler::{
    SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter, SeccompRule, TargetArch,
};

use crate::answer::{answer, fail};
use crate::setup::SetupError;

/// Calls that report a filesystem's free space: `statfs`, `fstatfs` and the
/// old `ustat`.
pub const CALLS: &[i64] = &[
    libc::SYS_statfs,
    libc::SYS_fstatfs,
    #[cfg(target_arch = "x86_64")]
    libc::SYS_ustat,
];

/// An `ioctl` command number, as the kernel's `_IOC` (asm-generic/ioctl.h:
/// direction in bits 30-31, 1 write and 2 read, the argument's size in
/// bits 16-29, the type in 8-15, the number in 0-7).
const fn ioc(direction: u32, kind: u8, number: u8, size: u32) -> u32 {
    (direction << 30) | (size << 16) | ((kind as u32) << 8) | number as u32
}
const READ: u32 = 2;
const READ_WRITE: u32 = 3;

/// `ioctl` commands that report free or used space, any user may make on
/// any file of the filesystem (from the UAPI headers, the sizes of their
/// structures in the comments). A filesystem without them answers
/// `ENOTTY`; a bot gets `ENOSYS`, as for `statfs`.
pub const IOCTLS: &[u32] = &[
    // FS_IOC_GETFSMAP, _IOWR('X', 59, struct fsmap_head) (linux/fsmap.h;
    // 192 bytes: four u32, six u64, two 64-byte `struct fsmap` keys): the
    // map of the filesystem's used and free extents. Ext4 answers it for
    // any user (XFS only for CAP_SYS_ADMIN).
    ioc(READ_WRITE, b'X', 59, 192),
    // XFS_IOC_AG_GEOMETRY, _IOWR('X', 61, struct xfs_ag_geometry)
    // (xfs_fs.h; 128 bytes: eight u32, twelve u64): an allocation group's
    // free blocks and inodes (`ag_freeblks`, `ag_ifree`).
    ioc(READ_WRITE, b'X', 61, 128),
    // XFS_IOC_FSCOUNTS, _IOR('X', 113, struct xfs_fsop_counts) (xfs_fs.h;
    // 32 bytes: four u64): free data blocks, realtime extents and inodes.
    ioc(READ, b'X', 113, 32),
    // BTRFS_IOC_SPACE_INFO, _IOWR(0x94, 20, struct btrfs_ioctl_space_args)
    // (linux/btrfs.h; 16 bytes: two u64, then the caller's slots): total
    // and used bytes of each kind of block group.
    ioc(READ_WRITE, 0x94, 20, 16),
    // BTRFS_IOC_DEV_INFO, _IOWR(0x94, 30, struct btrfs_ioctl_dev_info_args)
    // (linux/btrfs.h; 4096 bytes): a device's `bytes_used` (no capability
    // needed since Linux 3.x).
    ioc(READ_WRITE, 0x94, 30, 4096),
];

/// The filter: [`CALLS`] whole, and `ioctl` with a command of [`IOCTLS`]
/// (an `unsigned int`: its low half is what the kernel reads).
pub fn filter(arch: TargetArch) -> Result<SeccompFilter, SetupError> {
    let mut calls: BTreeMap<i64, Vec<SeccompRule>> =
        CALLS.iter().map(|&call| (call, Vec::new())).collect();
    let ioctl_rules = (IOCTLS.iter())
        .map(|&cmd| {
            SeccompCondition::new(1, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, cmd.into())
                .and_then(|c| SeccompRule::new(vec![c]))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(fail)?;
    calls.insert(libc::SYS_ioctl, ioctl_rules);
    answer(arch, calls, libc::ENOSYS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_commands_are_the_kernels() {
        // Each as the C preprocessor gives it from the UAPI headers
        // (`printf("%#x", BTRFS_IOC_SPACE_INFO)` and so on, with
        // linux/btrfs.h and linux/fsmap.h; the XFS ones from xfs_fs.h).
        assert_eq!(
            IOCTLS,
            [
                0xc0c0_583b,
                0xc080_583d,
                0x8020_5871,
                0xc010_9414,
                0xd000_941e
            ]
        );
    }
}
