//! The MPI-IO hints railmpi uses (MPI-3.1 §13.2.8, and ROMIO's names that programs and
//! libraries such as HDF5 pass): parsed from an info object's (key, value) pairs; keys
//! railmpi does not know, and values it cannot parse, are ignored, as MPI allows.

/// Whether collective buffering runs for an `_all` call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CbMode {
    Enable,
    Disable,
    /// When the access is noncontiguous or interleaved across ranks.
    Automatic,
}

impl CbMode {
    fn parse(s: &str) -> Option<CbMode> {
        match s {
            "enable" => Some(CbMode::Enable),
            "disable" => Some(CbMode::Disable),
            "automatic" => Some(CbMode::Automatic),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            CbMode::Enable => "enable",
            CbMode::Disable => "disable",
            CbMode::Automatic => "automatic",
        }
    }
}

/// Hints in effect on an open file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hints {
    /// Aggregators for collective buffering (default: one per host).
    pub cb_nodes: usize,
    /// Bytes an aggregator moves per round of two-phase I/O.
    pub cb_buffer_size: usize,
    pub cb_read: CbMode,
    pub cb_write: CbMode,
    /// The program promises no independent access (accepted; railmpi gains nothing).
    pub no_indep_rw: bool,
    /// File domains start at multiples of this (0: no alignment).
    pub striping_unit: u64,
    /// Largest span one data-sieving read / write covers.
    pub ind_rd_buffer_size: usize,
    pub ind_wr_buffer_size: usize,
}

pub const DEFAULT_CB_BUFFER: usize = 16 << 20;
const DEFAULT_IND_RD: usize = 4 << 20;
const DEFAULT_IND_WR: usize = 512 << 10;

impl Hints {
    /// The defaults for a file opened on `hosts` hosts.
    pub fn defaults(hosts: usize) -> Hints {
        Hints {
            cb_nodes: hosts.max(1),
            cb_buffer_size: DEFAULT_CB_BUFFER,
            cb_read: CbMode::Automatic,
            cb_write: CbMode::Automatic,
            no_indep_rw: false,
            striping_unit: 0,
            ind_rd_buffer_size: DEFAULT_IND_RD,
            ind_wr_buffer_size: DEFAULT_IND_WR,
        }
    }

    /// Applies the hints among `pairs` to `self`; `nprocs` caps cb_nodes.
    pub fn apply(&mut self, pairs: &[(String, String)], nprocs: usize) {
        let num = |v: &str| v.trim().parse::<u64>().ok().filter(|&n| n > 0);
        for (k, v) in pairs {
            let v = v.trim();
            match k.as_str() {
                "cb_nodes" => {
                    if let Some(n) = num(v) {
                        self.cb_nodes = (n as usize).min(nprocs.max(1));
                    }
                }
                "cb_buffer_size" => {
                    if let Some(n) = num(v) {
                        self.cb_buffer_size = n as usize;
                    }
                }
                "romio_cb_read" => {
                    if let Some(m) = CbMode::parse(v) {
                        self.cb_read = m;
                    }
                }
                "romio_cb_write" => {
                    if let Some(m) = CbMode::parse(v) {
                        self.cb_write = m;
                    }
                }
                "romio_no_indep_rw" => match v {
                    "true" => self.no_indep_rw = true,
                    "false" => self.no_indep_rw = false,
                    _ => {}
                },
                "striping_unit" => {
                    if let Some(n) = num(v) {
                        self.striping_unit = n;
                    }
                }
                "ind_rd_buffer_size" => {
                    if let Some(n) = num(v) {
                        self.ind_rd_buffer_size = n as usize;
                    }
                }
                "ind_wr_buffer_size" => {
                    if let Some(n) = num(v) {
                        self.ind_wr_buffer_size = n as usize;
                    }
                }
                _ => {}
            }
        }
    }

    /// The hints as MPI_File_get_info reports them.
    pub fn pairs(&self) -> Vec<(String, String)> {
        let mut v = vec![
            ("cb_buffer_size".into(), self.cb_buffer_size.to_string()),
            ("romio_cb_read".into(), self.cb_read.name().into()),
            ("romio_cb_write".into(), self.cb_write.name().into()),
            ("cb_nodes".into(), self.cb_nodes.to_string()),
            (
                "romio_no_indep_rw".into(),
                if self.no_indep_rw { "true" } else { "false" }.into(),
            ),
            (
                "ind_rd_buffer_size".into(),
                self.ind_rd_buffer_size.to_string(),
            ),
            (
                "ind_wr_buffer_size".into(),
                self.ind_wr_buffer_size.to_string(),
            ),
        ];
        if self.striping_unit > 0 {
            v.push(("striping_unit".into(), self.striping_unit.to_string()));
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn parses_known_and_ignores_the_rest() {
        let mut h = Hints::defaults(2);
        h.apply(
            &kv(&[
                ("cb_nodes", "3"),
                ("cb_buffer_size", "1048576"),
                ("romio_cb_write", "disable"),
                ("romio_cb_read", "enable"),
                ("striping_unit", "65536"),
                ("no_such_hint", "x"),
                ("romio_no_indep_rw", "true"),
            ]),
            8,
        );
        assert_eq!(h.cb_nodes, 3);
        assert_eq!(h.cb_buffer_size, 1 << 20);
        assert_eq!(h.cb_write, CbMode::Disable);
        assert_eq!(h.cb_read, CbMode::Enable);
        assert_eq!(h.striping_unit, 65536);
        assert!(h.no_indep_rw);
        let p = h.pairs();
        assert!(p.contains(&("cb_nodes".to_string(), "3".to_string())));
        assert!(!p.iter().any(|(k, _)| k == "no_such_hint"));
    }

    #[test]
    fn bad_values_keep_defaults_and_cb_nodes_is_capped() {
        let mut h = Hints::defaults(1);
        h.apply(
            &kv(&[
                ("cb_nodes", "64"),
                ("cb_buffer_size", "-5"),
                ("romio_cb_write", "sometimes"),
            ]),
            4,
        );
        assert_eq!(h.cb_nodes, 4);
        assert_eq!(h.cb_buffer_size, DEFAULT_CB_BUFFER);
        assert_eq!(h.cb_write, CbMode::Automatic);
    }
}
