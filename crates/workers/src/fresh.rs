//! Reading a shared file as the server has it, not as this client's cache
//! remembers it: `O_DIRECT`.
//!
//! NFS promises close-to-open consistency: a file opened after another
//! client closed it shows what that client wrote. Under a read delegation
//! the client skips the revalidation at open (the server promised to tell
//! it of a change), and the server does not recall a delegation for opens
//! from the same client through another mount: a worker was seen never to
//! read lines another worker had appended to `claims/finished.log`, and to
//! play their pairs again. Taking a lock did not help either. A direct
//! read bypasses the page cache and asks the server for the bytes; so it
//! reads until the server says there are no more (a short read), never
//! trusting a size from the attribute cache.
//!
//! The file is opened for reading and writing, though only read: Linux's
//! NFS server (before 6.6 it grants read delegations only) gives no
//! delegation for an open that may write, so a poller holds none, and no
//! writer's open has one to recall. The stalls of `aboure bench workers`
//! on NFS under delegations came with recalls (the client logged
//! `nfs4_handle_delegation_recall_error` while looping on LOCK); with
//! these opens they were not seen again (docs/many-machines.md says in how
//! many runs). Where writing is not allowed, it is read-only.
//!
//! Where `O_DIRECT` is refused (tmpfs on older kernels), the read is an
//! ordinary one: such a filesystem is local, and has no cache to bypass.
//! Local filesystems want the buffer, the offset and the length aligned to
//! the block size, so the read starts at the block before the offset and
//! goes by aligned chunks.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom};
use std::os::unix::fs::{FileExt, OpenOptionsExt};
use std::path::Path;

/// The alignment direct reads use: the largest logical block size of the
/// filesystems it meets.
const ALIGN: usize = 4096;
/// Bytes asked for per read.
const CHUNK: usize = 16 * ALIGN;

/// The bytes of the file at `path` from `offset` to its end as the server
/// has them now; `None` if there is no such file.
pub fn read_from(path: &Path, offset: u64) -> io::Result<Option<Vec<u8>>> {
    // Opened for writing too (nothing is written): Linux's NFS server
    // hands out a read delegation only for a read-only open, and a
    // delegation is what lets a client trust its cache, and what the
    // server must recall when another opener writes (see the module docs).
    let direct = undelegated(path, libc::O_DIRECT);
    let file = match direct {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => return buffered(path, offset),
        Err(e) => return Err(e),
    };
    match direct_from(&file, offset) {
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => buffered(path, offset),
        read => read.map(Some),
    }
}

/// Opens the shared file at `path` to read it (with `flags` added), for
/// writing too where that is allowed, so that the server hands this client
/// no read delegation on it (see the module docs).
pub fn undelegated(path: &Path, flags: i32) -> io::Result<File> {
    let open = |write: bool| {
        OpenOptions::new()
            .read(true)
            .write(write)
            .custom_flags(flags)
            .open(path)
    };
    match open(true) {
        Err(e)
            if matches!(
                e.raw_os_error(),
                Some(libc::EACCES | libc::EROFS | libc::EPERM)
            ) =>
        {
            open(false)
        }
        opened => opened,
    }
}

/// The text of the shared file at `path`, opened as [`undelegated`] does.
pub fn read_text(path: &Path) -> io::Result<String> {
    let mut text = String::new();
    undelegated(path, 0)?.read_to_string(&mut text)?;
    Ok(text)
}

/// Reads `file` (opened `O_DIRECT`) from `offset` until a short read.
fn direct_from(file: &File, offset: u64) -> io::Result<Vec<u8>> {
    let start = offset - offset % ALIGN as u64;
    // An aligned window of an over-sized buffer.
    let mut space = vec![0u8; CHUNK + ALIGN];
    let skip = space.as_ptr().align_offset(ALIGN);
    let chunk = &mut space[skip..skip + CHUNK];
    let mut bytes = Vec::new();
    let mut at = start;
    loop {
        let n = match file.read_at(chunk, at) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        bytes.extend_from_slice(&chunk[..n]);
        at += n as u64;
        if n < CHUNK {
            break;
        }
    }
    let head = (offset - start) as usize;
    Ok(bytes.split_off(head.min(bytes.len())))
}

/// An ordinary read from `offset` to the end.
fn buffered(path: &Path, offset: u64) -> io::Result<Option<Vec<u8>>> {
    let mut file = match undelegated(path, 0) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    file.seek(SeekFrom::Start(offset))?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn reads_what_follows_any_offset_across_chunks_and_an_absent_file_is_none() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log");
        assert!(read_from(&path, 0).unwrap().is_none());
        let text: Vec<u8> = (0..CHUNK * 2 + 777).map(|i| (i % 251) as u8).collect();
        std::fs::File::create(&path)
            .unwrap()
            .write_all(&text)
            .unwrap();
        for offset in [
            0,
            1,
            4095,
            4096,
            5000,
            CHUNK + 3,
            text.len() - 1,
            text.len(),
        ] {
            let read = read_from(&path, offset as u64).unwrap().unwrap();
            assert_eq!(read, &text[offset..], "from {offset}");
        }
        // Appended by another handle after a first read: seen at once.
        let mut more = OpenOptions::new().append(true).open(&path).unwrap();
        more.write_all(b"tail\n").unwrap();
        let read = read_from(&path, text.len() as u64).unwrap().unwrap();
        assert_eq!(read, b"tail\n");
    }
}
