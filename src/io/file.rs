//! An open MPI file: its access mode, POSIX descriptor, private communicator, view, file
//! pointers, atomicity and hints, and the data access calls built on `access` (one
//! process), `two_phase` (collective) and `shared` (the shared pointer).

use super::exchange::{class_from, class_index, Exchange};
use super::hints::Hints;
use super::posix::{self, Fd};
use super::shared::SharedPointer;
use super::two_phase::{self, Setup};
use super::view::{Datarep, View};
use super::{access, amode};
use crate::comm::Communicator;
use crate::datatype::{external32, Datatype};
use crate::error::{Error, ErrorClass, Result};
use crate::mpi_err;
use crate::runtime::World;
use parking_lot::Mutex;
use std::sync::Arc;

/// Where a data access call starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pos {
    /// An explicit offset, in etypes of the view.
    At(u64),
    /// The individual file pointer.
    Individual,
    /// The shared file pointer (independent calls).
    Shared,
    /// The shared file pointer in rank order (collective: read/write_ordered).
    Ordered,
}

/// Where a data access call starts, as the application gave it (the offset not checked
/// yet: `Pos` is the checked form, made where the call checks it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    At(i64),
    Individual,
    Shared,
    Ordered,
}

impl Place {
    /// The checked form (MPI_ERR_ARG for a negative offset).
    pub fn pos(self) -> Result<Pos> {
        Ok(match self {
            Place::At(o) => Pos::At(offset_arg(o)?),
            Place::Individual => Pos::Individual,
            Place::Shared => Pos::Shared,
            Place::Ordered => Pos::Ordered,
        })
    }
}

/// A size or offset argument, which must not be negative (MPI_ERR_ARG).
pub fn offset_arg(o: i64) -> Result<u64> {
    u64::try_from(o).map_err(|_| Error::new(ErrorClass::Arg, format!("negative offset {o}")))
}

/// The kinds of split collective operations (one may be outstanding per file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    ReadAll,
    WriteAll,
    ReadAtAll,
    WriteAtAll,
    ReadOrdered,
    WriteOrdered,
}

pub struct State {
    pub view: View,
    /// The individual file pointer, in etypes of the view.
    pub pos: u64,
    pub atomic: bool,
    pub hints: Hints,
    /// The split collective begun and not ended: its kind and the bytes it moved.
    pub split: Option<(Split, usize)>,
}

pub struct File {
    pub comm: Arc<Communicator>,
    pub path: String,
    pub amode: i32,
    fd: Fd,
    /// The descriptor can be read (a write-only file is opened for reading and writing
    /// when the permissions allow, so data sieving can fill the holes it writes back).
    readable: bool,
    shared: SharedPointer,
    aggrs: Vec<usize>,
    pub state: Mutex<State>,
}

/// The path without a ROMIO file-system prefix ("ufs:", "nfs:" ...), which names the
/// driver: railmpi has one.
pub fn strip_prefix(path: &str) -> &str {
    match path.split_once(':') {
        Some((p, rest)) if p.len() > 1 && p.chars().all(|c| c.is_ascii_alphanumeric()) => rest,
        _ => path,
    }
}

/// open(2) with `flags`; a write-only open is tried read-write first. Whether the
/// descriptor is readable.
fn open_fd(path: &str, flags: i32) -> Result<(Fd, bool)> {
    if flags & libc::O_ACCMODE == libc::O_WRONLY {
        let rw = (flags & !libc::O_ACCMODE) | libc::O_RDWR;
        match Fd::open(path, rw) {
            Ok(fd) => return Ok((fd, true)),
            Err(e) if e.class == ErrorClass::Access => {}
            Err(e) => return Err(e),
        }
        return Fd::open(path, flags).map(|fd| (fd, false));
    }
    Fd::open(path, flags).map(|fd| (fd, true))
}

fn host_id(name: &str) -> u64 {
    // FNV-1a: stable across processes (std's hasher is randomly keyed).
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

impl File {
    /// MPI_File_open (collective over `comm`): every process gets the same outcome.
    pub fn open(
        world: &World,
        comm: &Communicator,
        path: &str,
        mode: i32,
        info: &[(String, String)],
    ) -> Result<File> {
        let flags = amode::check(mode)?;
        let comm = world.comm_dup(comm)?;
        let ex = Exchange {
            t: world,
            comm: &comm,
        };
        let path = strip_prefix(path).to_string();
        // Rank 0 creates the file (alone, so O_EXCL means something), then the others
        // open what it made.
        let first = if comm.rank == 0 {
            open_fd(&path, flags).map(Some)
        } else {
            Ok(None)
        };
        let code = ex.bcast(0, class_index(&first))?;
        if code != 0 {
            return Err(match first {
                Err(e) => e,
                _ => Error::new(
                    class_from(code),
                    format!("cannot open {path} (rank 0 failed)"),
                ),
            });
        }
        let fd = match first {
            Ok(Some(fd)) => Ok(fd),
            _ => open_fd(&path, flags & !(libc::O_CREAT | libc::O_EXCL)),
        };
        let codes = ex.allgather(&[class_index(&fd)])?;
        if let Some(&c) = codes.iter().find(|&&c| c != 0) {
            return Err(match fd {
                Err(e) => e,
                Ok(_) => Error::new(
                    class_from(c),
                    format!("cannot open {path} on another process"),
                ),
            });
        }
        let (fd, readable) = fd?;
        let hosts = ex.allgather(&[host_id(&world.processor_name)])?;
        let mut hints = Hints::defaults({
            let mut h = hosts.clone();
            h.sort_unstable();
            h.dedup();
            h.len()
        });
        hints.apply(info, comm.size());
        let aggrs = two_phase::aggregators(&hosts, hints.cb_nodes);
        hints.cb_nodes = aggrs.len();
        let start = if mode & amode::APPEND != 0 {
            fd.size()?
        } else {
            0
        };
        let shared = SharedPointer::new(world, &comm, start as i64)?;
        ex.barrier()?;
        Ok(File {
            comm,
            path,
            amode: mode,
            fd,
            readable,
            shared,
            aggrs,
            state: Mutex::new(State {
                view: View::bytes(),
                pos: start,
                atomic: false,
                hints,
                split: None,
            }),
        })
    }

    fn ex<'a>(&'a self, world: &'a World) -> Exchange<'a> {
        Exchange {
            t: world,
            comm: &self.comm,
        }
    }

    /// MPI_File_delete of `path` (a ROMIO prefix ignored).
    pub fn delete(path: &str) -> Result<()> {
        posix::delete(strip_prefix(path))
    }

    /// MPI_File_close (collective). The descriptor closes when the last reference to
    /// the file goes.
    pub fn close(&self, world: &World) -> Result<()> {
        let ex = self.ex(world);
        ex.barrier()?;
        self.shared.free(world)?;
        let r = if self.amode & amode::DELETE_ON_CLOSE != 0 && self.comm.rank == 0 {
            posix::delete(&self.path)
        } else {
            Ok(())
        };
        ex.agree(r)
    }

    /// MPI_File_get_byte_offset: the absolute byte of view offset `etypes`.
    pub fn byte_offset(&self, etypes: u64) -> u64 {
        let st = self.state.lock();
        st.view.file_offset(etypes * st.view.etype_size)
    }

    pub fn size(&self) -> Result<u64> {
        self.fd.size()
    }

    /// MPI_File_set_size (collective): rank 0 truncates or extends.
    pub fn set_size(&self, world: &World, size: u64) -> Result<()> {
        self.writable()?;
        self.same_everywhere(world, size)?;
        let r = if self.comm.rank == 0 {
            self.fd.truncate(size)
        } else {
            Ok(())
        };
        self.agree(world, r)
    }

    pub fn preallocate(&self, world: &World, size: u64) -> Result<()> {
        self.writable()?;
        self.same_everywhere(world, size)?;
        let r = if self.comm.rank == 0 && self.fd.size()? < size {
            self.fd.preallocate(size)
        } else {
            Ok(())
        };
        self.agree(world, r)
    }

    /// MPI_File_sync (collective).
    pub fn sync(&self, world: &World) -> Result<()> {
        let r = self.fd.sync();
        self.agree(world, r)
    }

    /// Checks that every process passed `v` (MPI_ERR_NOT_SAME); no process changes the
    /// file before all of them got here (they may still be reading it).
    fn same_everywhere(&self, world: &World, v: u64) -> Result<()> {
        if self.ex(world).allgather(&[v])?.iter().any(|&x| x != v) {
            return mpi_err!(NotSame, "processes passed different sizes");
        }
        Ok(())
    }

    /// Every process's outcome of a collective step, the same everywhere.
    fn agree(&self, world: &World, r: Result<()>) -> Result<()> {
        self.ex(world).agree(r)
    }

    fn writable(&self) -> Result<()> {
        if self.amode & amode::RDONLY != 0 {
            return mpi_err!(ReadOnly, "the file was opened read-only");
        }
        Ok(())
    }

    fn readable(&self) -> Result<()> {
        if self.amode & amode::WRONLY != 0 {
            return mpi_err!(Access, "the file was opened write-only");
        }
        Ok(())
    }

    fn sequential(&self) -> bool {
        self.amode & amode::SEQUENTIAL != 0
    }

    /// MPI_File_set_view (collective): the hints of `info` taken, the pointers back to 0.
    /// `disp` None is MPI_DISPLACEMENT_CURRENT (sequential mode only, else MPI_ERR_ARG):
    /// where the shared pointer is, as rank 0 sees it before anyone resets it.
    pub fn set_view(
        &self,
        world: &World,
        disp: Option<i64>,
        etype: &Datatype,
        filetype: &Datatype,
        datarep: Datarep,
        info: &[(String, String)],
    ) -> Result<()> {
        let disp = match disp {
            None if !self.sequential() => {
                return mpi_err!(Arg, "MPI_DISPLACEMENT_CURRENT needs MPI_MODE_SEQUENTIAL")
            }
            Some(d) => Some(offset_arg(d)?),
            None => None,
        };
        self.state.lock().hints.apply(info, self.comm.size());
        let disp = match disp {
            Some(d) => d,
            None => {
                let here = if self.comm.rank == 0 {
                    self.position_shared(world).map(|p| self.byte_offset(p))
                } else {
                    Ok(0)
                };
                let ex = self.ex(world);
                let code = ex.bcast(0, class_index(&here))?;
                let at = ex.bcast(0, *here.as_ref().unwrap_or(&0))?;
                if code != 0 {
                    return Err(Error::new(
                        class_from(code),
                        "cannot read the shared pointer",
                    ));
                }
                at
            }
        };
        let view = View::new(
            disp,
            etype,
            filetype,
            datarep,
            self.amode & amode::RDONLY == 0,
        );
        // Everyone is here (and has read the old pointer) before rank 0 resets it.
        self.agree(world, view.as_ref().map(|_| ()).map_err(Clone::clone))?;
        let view = view?;
        {
            let mut st = self.state.lock();
            st.view = view;
            st.pos = 0;
        }
        let r = if self.comm.rank == 0 {
            self.shared.set(world, 0)
        } else {
            Ok(())
        };
        self.agree(world, r)
    }

    pub fn set_atomicity(&self, world: &World, flag: bool) -> Result<()> {
        let flags = self.ex(world).allgather(&[flag as u64])?;
        if flags.iter().any(|&f| f != flag as u64) {
            return mpi_err!(NotSame, "processes passed different atomicity flags");
        }
        self.state.lock().atomic = flag;
        Ok(())
    }

    pub fn atomic(&self) -> bool {
        self.state.lock().atomic
    }

    /// The hints in use (MPI_File_get_info).
    pub fn hints(&self) -> Vec<(String, String)> {
        self.state.lock().hints.pairs()
    }

    /// MPI_File_set_info: new hints, but the aggregators chosen at open stay (cb_nodes).
    pub fn set_hints(&self, pairs: &[(String, String)]) {
        let mut st = self.state.lock();
        let nodes = st.hints.cb_nodes;
        st.hints.apply(pairs, self.comm.size());
        st.hints.cb_nodes = nodes;
    }

    /// MPI_File_get_position: the individual file pointer (etypes).
    pub fn position(&self) -> Result<u64> {
        if self.sequential() {
            return mpi_err!(
                UnsupportedOperation,
                "no individual file pointer in sequential mode"
            );
        }
        Ok(self.state.lock().pos)
    }

    /// The view's displacement (bytes) and data representation (MPI_File_get_view).
    pub fn view_disp_datarep(&self) -> (u64, Datarep) {
        let st = self.state.lock();
        (st.view.disp, st.view.datarep)
    }

    /// Begins split collective `kind`: none may be outstanding on this file (else
    /// MPI_ERR_OTHER, before anything is checked or moved); `access` moves the data now,
    /// and the _end reports the bytes it moved.
    pub fn split_begin(&self, kind: Split, access: impl FnOnce() -> Result<usize>) -> Result<()> {
        if self.state.lock().split.is_some() {
            return mpi_err!(
                Other,
                "a split collective is already outstanding on this file"
            );
        }
        let bytes = access()?;
        self.state.lock().split = Some((kind, bytes));
        Ok(())
    }

    /// Ends split collective `kind`: the bytes its _begin moved (MPI_ERR_REQUEST if it is
    /// not the one outstanding).
    pub fn end_split(&self, kind: Split) -> Result<usize> {
        let mut st = self.state.lock();
        match st.split {
            Some((k, n)) if k == kind => {
                st.split = None;
                Ok(n)
            }
            Some(_) => mpi_err!(Request, "the outstanding split collective is another kind"),
            None => mpi_err!(Request, "no split collective outstanding on this file"),
        }
    }

    /// MPI_File_seek: the new individual pointer (etypes).
    pub fn seek(&self, offset: i64, whence: i32) -> Result<()> {
        if self.sequential() {
            return mpi_err!(
                UnsupportedOperation,
                "no individual file pointer in sequential mode"
            );
        }
        let mut st = self.state.lock();
        let base = match whence {
            amode::SEEK_SET => 0,
            amode::SEEK_CUR => st.pos as i64,
            amode::SEEK_END => self.end_etypes(&st.view)? as i64,
            _ => return mpi_err!(Arg, "invalid whence {whence}"),
        };
        let p = base
            .checked_add(offset)
            .filter(|&p| p >= 0)
            .ok_or_else(|| Error::new(ErrorClass::Arg, "seek to a negative offset"))?;
        st.pos = p as u64;
        Ok(())
    }

    /// End of file as a position of `view`, in etypes (rounded up).
    fn end_etypes(&self, view: &View) -> Result<u64> {
        Ok(view.stream_pos(self.fd.size()?).div_ceil(view.etype_size))
    }

    /// MPI_File_seek_shared (collective).
    pub fn seek_shared(&self, world: &World, offset: i64, whence: i32) -> Result<()> {
        let args = self.ex(world).allgather(&[offset as u64, whence as u64])?;
        if args
            .chunks_exact(2)
            .any(|c| c[0] != offset as u64 || c[1] != whence as u64)
        {
            return mpi_err!(NotSame, "processes passed different offsets or whence");
        }
        let r = if self.comm.rank == 0 {
            let view = self.state.lock().view.clone();
            let base = match whence {
                amode::SEEK_SET => Ok(0),
                amode::SEEK_CUR => self.shared.get(world),
                amode::SEEK_END => self.end_etypes(&view).map(|e| e as i64),
                _ => mpi_err!(Arg, "invalid whence {whence}"),
            };
            base.and_then(|b| match b.checked_add(offset).filter(|&p| p >= 0) {
                Some(p) => self.shared.set(world, p),
                None => mpi_err!(Arg, "seek to a negative offset"),
            })
        } else {
            Ok(())
        };
        self.agree(world, r)
    }

    pub fn position_shared(&self, world: &World) -> Result<u64> {
        Ok(self.shared.get(world)?.max(0) as u64)
    }

    /// The position (etypes) a call at `pos` moving `etypes` starts at; moves the pointer
    /// it uses. Collective for `Pos::Ordered`.
    fn start(&self, world: &World, pos: Pos, etypes: u64) -> Result<u64> {
        match pos {
            Pos::At(_) | Pos::Individual if self.sequential() => mpi_err!(
                UnsupportedOperation,
                "explicit offsets and individual pointers are not allowed in sequential mode"
            ),
            Pos::At(o) => Ok(o),
            Pos::Individual => {
                let mut st = self.state.lock();
                let p = st.pos;
                st.pos += etypes;
                Ok(p)
            }
            Pos::Shared => Ok(self.shared.fetch_add(world, etypes as i64)? as u64),
            Pos::Ordered => {
                let all = self.ex(world).allgather(&[etypes])?;
                let before: u64 = all[..self.comm.rank].iter().sum();
                let total: u64 = all.iter().sum();
                let base = if self.comm.rank == 0 {
                    self.shared.fetch_add(world, total as i64)?
                } else {
                    0
                };
                Ok(self.ex(world).bcast(0, base as u64)? + before)
            }
        }
    }

    /// The bytes of one access of `count` elements of `ty`, which must be whole etypes.
    fn access_bytes(view: &View, count: usize, ty: &Datatype) -> Result<u64> {
        let bytes = (count as u64)
            .checked_mul(ty.size as u64)
            .ok_or_else(|| Error::new(ErrorClass::Count, "count too large"))?;
        if !bytes.is_multiple_of(view.etype_size) {
            return mpi_err!(Type, "the data is not a whole number of etypes");
        }
        Ok(bytes)
    }

    /// What one access needs of the file's state, copied out (the lock is not held
    /// while the data moves).
    fn snapshot(&self, read: bool) -> (View, Setup<'_>) {
        let st = self.state.lock();
        let h = &st.hints;
        let s = Setup {
            fd: &self.fd,
            aggrs: &self.aggrs,
            cb_buffer: h.cb_buffer_size,
            align: h.striping_unit,
            mode: if read { h.cb_read } else { h.cb_write },
            // No sieving of writes where the holes cannot be read first.
            sieve: match (read, self.readable) {
                (true, _) => h.ind_rd_buffer_size,
                (false, true) => h.ind_wr_buffer_size,
                (false, false) => 0,
            },
            atomic: st.atomic,
            readable: self.readable,
        };
        (st.view.clone(), s)
    }

    /// A write of `count` elements of `ty` at `buf`; `coll`: a collective call (all
    /// processes make it). The bytes written.
    ///
    /// # Safety
    /// `buf` holds `count` elements of `ty`.
    pub unsafe fn write(
        &self,
        world: &World,
        pos: Pos,
        buf: *const u8,
        count: usize,
        ty: &Datatype,
        coll: bool,
    ) -> Result<usize> {
        self.writable()?;
        let (view, s) = self.snapshot(false);
        let bytes = Self::access_bytes(&view, count, ty)?;
        let start = self.start(world, pos, bytes / view.etype_size)?;
        let packed: Vec<u8>;
        let data: &[u8] = if ty.is_contiguous() && view.datarep != Datarep::External32 {
            // SAFETY: a contiguous type's `count` elements are `bytes` bytes from `buf`
            // (its true lower bound is 0 for a contiguous type).
            std::slice::from_raw_parts(buf, bytes as usize)
        } else {
            let mut v = Vec::with_capacity(bytes as usize);
            ty.pack(count, buf, &mut v);
            if view.datarep == Datarep::External32 {
                external32::swap_packed(ty, &mut v);
            }
            packed = v;
            &packed
        };
        let mut ranges = Vec::new();
        view.map(start * view.etype_size, bytes, &mut ranges);
        if coll {
            two_phase::write(&self.ex(world), &s, &ranges, data)?;
        } else {
            access::write(&self.fd, &ranges, data, s.sieve, s.atomic)?;
        }
        Ok(bytes as usize)
    }

    /// A read into `count` elements of `ty` at `buf`: the bytes read (fewer at end of
    /// file).
    ///
    /// # Safety
    /// `buf` is writable for `count` elements of `ty`.
    pub unsafe fn read(
        &self,
        world: &World,
        pos: Pos,
        buf: *mut u8,
        count: usize,
        ty: &Datatype,
        coll: bool,
    ) -> Result<usize> {
        self.readable()?;
        let (view, s) = self.snapshot(true);
        let bytes = Self::access_bytes(&view, count, ty)?;
        let start = self.start(world, pos, bytes / view.etype_size)?;
        let direct = ty.is_contiguous() && view.datarep != Datarep::External32;
        let mut packed = if direct {
            Vec::new()
        } else {
            vec![0u8; bytes as usize]
        };
        let data: &mut [u8] = if direct {
            // SAFETY: as in `write`; the caller lent the buffer for writing.
            std::slice::from_raw_parts_mut(buf, bytes as usize)
        } else {
            &mut packed
        };
        let mut ranges = Vec::new();
        view.map(start * view.etype_size, bytes, &mut ranges);
        let got = if coll {
            two_phase::read(&self.ex(world), &s, &ranges, data)?
        } else {
            access::read(&self.fd, &ranges, data, s.sieve, s.atomic)?
        };
        if !direct {
            let whole = got - got % ty.size.max(1);
            if view.datarep == Datarep::External32 {
                external32::swap_packed(ty, &mut packed[..whole]);
            }
            ty.unpack_from(count, 0, &packed[..got], buf);
        }
        Ok(got)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefixes_and_host_ids() {
        assert_eq!(strip_prefix("ufs:/tmp/x"), "/tmp/x");
        assert_eq!(strip_prefix("/tmp/a:b"), "/tmp/a:b");
        assert_eq!(strip_prefix("C:x"), "C:x");
        assert_eq!(host_id("a"), host_id("a"));
        assert_ne!(host_id("a"), host_id("b"));
        for (i, &c) in ErrorClass::ALL.iter().enumerate() {
            assert_eq!(class_from(i as u64 + 1), c);
        }
        let past = ErrorClass::ALL.len() as u64 + 1;
        assert_eq!(class_from(past), ErrorClass::Other);
        assert_eq!(class_from(u64::MAX), ErrorClass::Other);
    }

    #[test]
    fn places_check_their_offsets() {
        assert_eq!(Place::At(7).pos().unwrap(), Pos::At(7));
        assert_eq!(Place::At(-1).pos().unwrap_err().class, ErrorClass::Arg);
        assert_eq!(Place::Individual.pos().unwrap(), Pos::Individual);
        assert_eq!(Place::Shared.pos().unwrap(), Pos::Shared);
        assert_eq!(Place::Ordered.pos().unwrap(), Pos::Ordered);
        assert_eq!(offset_arg(0).unwrap(), 0);
        assert_eq!(offset_arg(i64::MIN).unwrap_err().class, ErrorClass::Arg);
    }
}
