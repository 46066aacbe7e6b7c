//! A seccomp filter that forbids what a container's default profile
//! forbids a process without `CAP_SYS_ADMIN`: `unshare`, `setns`, and
//! `clone` with a namespace flag (`clone3`, whose flags a filter cannot
//! read, says "not implemented", so the C library falls back to `clone`).

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// The flags of `clone` that make a namespace.
const NAMESPACES: &[i32] = &[
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWNS,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWCGROUP,
];

/// The compiled filters, to be installed by `apply_filter` in the child,
/// in this order.
pub fn filters() -> [BpfProgram; 2] {
    let arch = TargetArch::try_from(std::env::consts::ARCH).unwrap();
    let flag_rules = NAMESPACES
        .iter()
        .map(|&flag| {
            let condition = SeccompCondition::new(
                0,
                SeccompCmpArgLen::Qword,
                SeccompCmpOp::MaskedEq(flag as u64),
                flag as u64,
            )
            .unwrap();
            SeccompRule::new(vec![condition]).unwrap()
        })
        .collect();
    let rules = BTreeMap::from([
        (libc::SYS_unshare, Vec::new()),
        (libc::SYS_setns, Vec::new()),
        (libc::SYS_clone, flag_rules),
    ]);
    let compile = |rules, errno: i32| -> BpfProgram {
        SeccompFilter::new(
            rules,
            SeccompAction::Allow,
            SeccompAction::Errno(errno as u32),
            arch,
        )
        .unwrap()
        .try_into()
        .unwrap()
    };
    [
        compile(rules, libc::EPERM),
        compile(
            BTreeMap::from([(libc::SYS_clone3, Vec::new())]),
            libc::ENOSYS,
        ),
    ]
}
