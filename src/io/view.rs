//! File views (MPI-3.1 §13.3): a displacement, an etype and a filetype tiled from the
//! displacement on. The filetype is flattened once, at MPI_File_set_view, into its data
//! runs (offset from the tile's origin, length), adjacent runs merged; a position in the
//! view's data stream (bytes of etypes, counting only the data the filetype selects) maps
//! to file byte ranges by finding its tile and binary-searching the run prefix sums.

use crate::datatype::Datatype;
use crate::error::Result;
use crate::mpi_err;
use parking_lot::Mutex;

/// How data sits in the file (the view's datarep).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Datarep {
    /// "native" (and "internal", which railmpi writes the same way).
    Native,
    Internal,
    /// "external32": big-endian values of MPI's fixed sizes (§13.5.2).
    External32,
    /// One the application registered (`register`) without conversion functions: its data
    /// is accessed in the native representation (MPI-3.1 §13.5.3).
    User(&'static str),
}

/// The data representations registered with MPI_Register_datarep (without conversion
/// functions: `register`), for the life of the process (MPI has no call that removes one).
static REGISTERED: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

impl Datarep {
    pub fn parse(s: &str) -> Result<Datarep> {
        match s {
            "native" => Ok(Datarep::Native),
            "internal" => Ok(Datarep::Internal),
            "external32" => Ok(Datarep::External32),
            _ => match REGISTERED.lock().iter().find(|n| **n == s) {
                Some(name) => Ok(Datarep::User(name)),
                None => mpi_err!(UnsupportedDatarep, "unsupported data representation {s:?}"),
            },
        }
    }

    /// MPI_Register_datarep of `name` (1 to `room - 1` characters: MPI_ERR_ARG), without
    /// conversion functions: MPI accesses such a representation's data as native
    /// (MPI-4.1 §14.5.3). Conversion functions (`converts`), which railmpi does not call,
    /// are refused with MPI_ERR_CONVERSION, as ROMIO does; MPI_ERR_DUP_DATAREP if `name`
    /// names one already.
    pub fn register(name: &str, room: usize, converts: bool) -> Result<()> {
        if name.is_empty() || name.len() >= room {
            return mpi_err!(
                Arg,
                "a data representation name has 1 to {} characters",
                room - 1
            );
        }
        if converts {
            return mpi_err!(
                Conversion,
                "data representations with conversion functions are not supported ({name:?})"
            );
        }
        let mut reps = REGISTERED.lock();
        if Datarep::parse_predefined(name) || reps.contains(&name) {
            return mpi_err!(DupDatarep, "data representation {name:?} exists");
        }
        // Leaked on purpose: a registration lasts as long as the process.
        reps.push(Box::leak(name.to_owned().into_boxed_str()));
        Ok(())
    }

    fn parse_predefined(s: &str) -> bool {
        matches!(s, "native" | "internal" | "external32")
    }

    pub fn name(self) -> &'static str {
        match self {
            Datarep::Native => "native",
            Datarep::Internal => "internal",
            Datarep::External32 => "external32",
            Datarep::User(name) => name,
        }
    }
}

/// MPI-3.1 §13.3: the displacements of an etype or filetype are non-negative and
/// monotonically non-decreasing, and in a file open for writing its pieces do not
/// overlap (MPI_ERR_IO, as ROMIO).
fn monotone(t: &Datatype, what: &str, writable: bool) -> Result<()> {
    let (mut last, mut last_end) = (0isize, 0isize);
    for (off, len) in t.runs(1) {
        if len == 0 {
            continue;
        }
        if off < 0 || off < last {
            return mpi_err!(Io, "the {what}'s displacements are negative or decreasing");
        }
        if writable && off < last_end {
            return mpi_err!(Io, "the {what} overlaps itself in a file open for writing");
        }
        last = off;
        last_end = last_end.max(off + len as isize);
    }
    Ok(())
}

/// A file view with its filetype flattened.
#[derive(Clone, Debug)]
pub struct View {
    /// Absolute byte displacement of the first tile's origin.
    pub disp: u64,
    /// Bytes of one etype.
    pub etype_size: u64,
    /// Data bytes one filetype tile selects.
    pub tile_size: u64,
    /// Bytes from one tile's origin to the next's (the filetype's extent).
    pub tile_extent: u64,
    /// The tile's data runs (offset from the origin, length), in type-map order.
    runs: Vec<(u64, u64)>,
    /// Data bytes before each run (prefix sums of the lengths).
    before: Vec<u64>,
    pub datarep: Datarep,
}

impl View {
    /// The default view: bytes from offset 0 ("native", etype and filetype MPI_BYTE).
    pub fn bytes() -> View {
        View {
            disp: 0,
            etype_size: 1,
            tile_size: 1,
            tile_extent: 1,
            runs: vec![(0, 1)],
            before: vec![0],
            datarep: Datarep::Native,
        }
    }

    /// The view of `filetype` tiled from `disp`, in etypes of `etype_size` bytes.
    /// `writable`: the file is open for writing (its types may not overlap themselves).
    pub fn new(
        disp: u64,
        etype: &Datatype,
        filetype: &Datatype,
        datarep: Datarep,
        writable: bool,
    ) -> Result<View> {
        if etype.size == 0 {
            return mpi_err!(Type, "the etype has no data");
        }
        if filetype.size == 0 || !filetype.size.is_multiple_of(etype.size) {
            return mpi_err!(
                Type,
                "the filetype ({} bytes) is not made of etypes ({} bytes)",
                filetype.size,
                etype.size
            );
        }
        if filetype.extent <= 0 {
            return mpi_err!(Type, "the filetype's extent is not positive");
        }
        monotone(etype, "etype", writable)?;
        monotone(filetype, "filetype", writable)?;
        let mut runs: Vec<(u64, u64)> = Vec::new();
        for (off, len) in filetype.runs(1) {
            if len == 0 {
                continue;
            }
            match runs.last_mut() {
                Some(r) if r.0 + r.1 == off as u64 => r.1 += len as u64,
                _ => runs.push((off as u64, len as u64)),
            }
        }
        let tile_extent = filetype.extent as u64;
        let mut before = Vec::with_capacity(runs.len());
        let mut acc = 0;
        for r in &runs {
            before.push(acc);
            acc += r.1;
        }
        Ok(View {
            disp,
            etype_size: etype.size as u64,
            tile_size: filetype.size as u64,
            tile_extent,
            runs,
            before,
            datarep,
        })
    }

    /// The view is a plain byte stream from `disp` on (no holes).
    pub fn contiguous(&self) -> bool {
        self.runs.len() == 1 && self.runs[0] == (0, self.tile_extent)
    }

    /// The absolute file offset of stream position `pos` (bytes of data).
    pub fn file_offset(&self, pos: u64) -> u64 {
        if self.contiguous() {
            return self.disp + pos;
        }
        let (tile, within) = (pos / self.tile_size, pos % self.tile_size);
        let i = self.before.partition_point(|&b| b <= within) - 1;
        self.disp + tile * self.tile_extent + self.runs[i].0 + (within - self.before[i])
    }

    /// Appends the file byte ranges (offset, length) of stream bytes `[pos, pos + len)` to
    /// `out`, in stream order, merging adjacent ones (also with the last range already
    /// in `out`).
    pub fn map(&self, pos: u64, len: u64, out: &mut Vec<(u64, u64)>) {
        let mut push = |off: u64, n: u64| {
            if n == 0 {
                return;
            }
            match out.last_mut() {
                Some(r) if r.0 + r.1 == off => r.1 += n,
                _ => out.push((off, n)),
            }
        };
        if self.contiguous() {
            push(self.disp + pos, len);
            return;
        }
        let end = pos + len;
        let mut p = pos;
        let mut tile = p / self.tile_size;
        let within = p % self.tile_size;
        let mut i = self.before.partition_point(|&b| b <= within) - 1;
        let mut skip = within - self.before[i];
        while p < end {
            let base = self.disp + tile * self.tile_extent;
            let (roff, rlen) = self.runs[i];
            let n = (rlen - skip).min(end - p);
            push(base + roff + skip, n);
            p += n;
            skip = 0;
            i += 1;
            if i == self.runs.len() {
                i = 0;
                tile += 1;
            }
        }
    }

    /// The stream position of the first data byte at or after absolute file offset `off`
    /// (where MPI_SEEK_END puts a pointer: end of file as a view position).
    pub fn stream_pos(&self, off: u64) -> u64 {
        if off <= self.disp {
            return 0;
        }
        let rel = off - self.disp;
        let (tile, within) = (rel / self.tile_extent, rel % self.tile_extent);
        let mut p = tile * self.tile_size;
        for (k, &(roff, rlen)) in self.runs.iter().enumerate() {
            if within < roff {
                return p + self.before[k];
            }
            if within < roff + rlen {
                return p + self.before[k] + (within - roff);
            }
        }
        p += self.tile_size;
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes_type() -> Datatype {
        Datatype::predefined("MPI_BYTE", 1, None)
    }

    /// A filetype of `blocks` (offset, len) runs and `extent` bytes, built by hand.
    fn filetype(blocks: &[(isize, usize)], extent: isize) -> Datatype {
        let mut t = Datatype::empty();
        t.segments = crate::datatype::Segments::from_runs(blocks);
        t.size = blocks.iter().map(|b| b.1).sum();
        t.extent = extent;
        t.true_extent = extent;
        t.committed = true;
        t
    }

    #[test]
    fn contiguous_view_is_identity() {
        let v = View::bytes();
        let mut out = vec![];
        v.map(10, 100, &mut out);
        assert_eq!(out, vec![(10, 100)]);
        assert_eq!(v.file_offset(7), 7);
    }

    #[test]
    fn vector_view_maps_strided() {
        // 2 bytes of data every 8, from displacement 100.
        let ft = filetype(&[(0, 2)], 8);
        let v = View::new(100, &bytes_type(), &ft, Datarep::Native, true).unwrap();
        let mut out = vec![];
        v.map(1, 6, &mut out);
        assert_eq!(out, vec![(101, 1), (108, 2), (116, 2), (124, 1)]);
        assert_eq!(v.file_offset(5), 100 + 16 + 1);
        assert_eq!(v.stream_pos(117), 5);
        assert_eq!(v.stream_pos(110), 4);
    }

    #[test]
    fn runs_merge_within_and_across_tiles() {
        // Runs (0,2),(2,2) merge into (0,4); the tile of extent 4 is then dense.
        let ft = filetype(&[(0, 2), (2, 2)], 4);
        let v = View::new(0, &bytes_type(), &ft, Datarep::Native, true).unwrap();
        assert!(v.contiguous());
        let ft = filetype(&[(4, 4)], 8); // hole first, data at the end of each tile
        let v = View::new(0, &bytes_type(), &ft, Datarep::Native, true).unwrap();
        let mut out = vec![(0, 4)];
        v.map(0, 8, &mut out);
        assert_eq!(out, vec![(0, 8), (12, 4)]);
    }

    #[test]
    fn multi_run_tile() {
        let ft = filetype(&[(0, 1), (3, 2), (9, 1)], 12);
        let v = View::new(0, &bytes_type(), &ft, Datarep::Native, true).unwrap();
        let mut out = vec![];
        v.map(2, 6, &mut out);
        // positions 2..8: run(3,2) byte 1, run(9,1), tile 1: (12,1),(15,2),(21,1)
        assert_eq!(out, vec![(4, 1), (9, 1), (12, 1), (15, 2), (21, 1)]);
        for p in 0..20 {
            assert_eq!(v.stream_pos(v.file_offset(p)), p);
        }
    }

    #[test]
    fn bad_filetypes_refused() {
        let et = Datatype::predefined("MPI_INT", 4, None);
        assert!(View::new(0, &et, &filetype(&[(0, 6)], 8), Datarep::Native, true).is_err());
        let e = View::new(
            0,
            &et,
            &filetype(&[(4, 4), (0, 4)], 8),
            Datarep::Native,
            true,
        );
        assert_eq!(e.unwrap_err().class, crate::error::ErrorClass::Io);
        // Overlapping runs are legal in a file only read; data past the extent (a raised
        // lower bound) always.
        let overlap = filetype(&[(0, 12), (4, 4)], 16);
        assert!(View::new(0, &et, &overlap, Datarep::Native, false).is_ok());
        assert!(View::new(0, &et, &overlap, Datarep::Native, true).is_err());
        assert!(View::new(0, &et, &filetype(&[(8, 8)], 8), Datarep::Native, true).is_ok());
        assert!(Datarep::parse("foo").is_err());
        assert_eq!(Datarep::parse("external32").unwrap().name(), "external32");
    }

    #[test]
    fn registered_representations() {
        use crate::error::ErrorClass;
        let class = |r: Result<()>| r.unwrap_err().class;
        assert_eq!(class(Datarep::register("", 128, false)), ErrorClass::Arg);
        assert_eq!(
            class(Datarep::register(&"r".repeat(128), 128, false)),
            ErrorClass::Arg
        );
        assert_eq!(
            class(Datarep::register("ut-conv", 128, true)),
            ErrorClass::Conversion
        );
        assert!(Datarep::parse("ut-conv").is_err());
        Datarep::register(&"u".repeat(127), 128, false).unwrap();
        Datarep::register("ut-plain", 128, false).unwrap();
        assert_eq!(
            Datarep::parse("ut-plain").unwrap(),
            Datarep::User("ut-plain")
        );
        assert_eq!(
            class(Datarep::register("ut-plain", 128, false)),
            ErrorClass::DupDatarep
        );
        assert_eq!(
            class(Datarep::register("native", 128, false)),
            ErrorClass::DupDatarep
        );
    }
}
