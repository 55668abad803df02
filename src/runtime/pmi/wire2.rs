//! Sans-I/O codec for the PMI-2 wire protocol (what Slurm's `srun --mpi=pmi2` serves).
//!
//! A message is a 6-byte ASCII decimal length (left-justified, space-padded, as MPICH's
//! and Slurm's clients write it) followed by that many bytes of `cmd=NAME;key=value;…;`.
//! A `;` inside a value is written `;;`. Messages come from another process and are
//! untrusted: the length is bounded by [`MAX_MESSAGE`], the body must be printable ASCII,
//! every attribute must be `key=value`, and the first must be `cmd`.
//!
//! The exchanges a client needs (request → reply, `rc=0` on success):
//! ```text
//! cmd=fullinit;pmijobid=J;pmirank=R;threaded=FALSE;
//!     → cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=R;size=N;appnum=A;…
//! cmd=job-getid;                → cmd=job-getid-response;rc=0;jobid=J;
//! cmd=kvs-put;key=K;value=V;    → cmd=kvs-put-response;rc=0;
//! cmd=kvs-fence;                → cmd=kvs-fence-response;rc=0;
//! cmd=kvs-get;jobid=J;srcid=-1;key=K;  → cmd=kvs-get-response;rc=0;found=TRUE;value=V;
//! cmd=info-getjobattr;key=K;    → cmd=info-getjobattr-response;rc=0;found=TRUE;value=V;
//! cmd=finalize;                 → cmd=finalize-response;rc=0;
//! cmd=abort;isworld=TRUE;msg=M; (no reply)
//! ```

/// Bytes of the length header.
pub const HEADER: usize = 6;
/// Longest message body accepted (MPICH's `PMII_MAX_COMMAND_LEN`).
pub const MAX_MESSAGE: usize = 64 * 1024;

/// One PMI-2 message: the command and its attributes in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    pub cmd: String,
    pub attrs: Vec<(String, String)>,
}

impl Message {
    pub fn new(cmd: &str) -> Message {
        Message {
            cmd: cmd.to_string(),
            attrs: Vec::new(),
        }
    }

    pub fn with(mut self, key: &str, value: &str) -> Message {
        self.attrs.push((key.to_string(), value.to_string()));
        self
    }

    /// The value of attribute `key` (the first, if repeated).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// `rc` as a number (a reply without one, or with a malformed one, counts as failed).
    pub fn rc(&self) -> i32 {
        self.get("rc").and_then(|v| v.parse().ok()).unwrap_or(-1)
    }

    /// Header and body, ready to write.
    pub fn encode(&self) -> Vec<u8> {
        let mut body = String::new();
        let mut put = |k: &str, v: &str| {
            body.push_str(k);
            body.push('=');
            body.push_str(&v.replace(';', ";;"));
            body.push(';');
        };
        put("cmd", &self.cmd);
        for (k, v) in &self.attrs {
            put(k, v);
        }
        let mut out = format!("{:<6}", body.len()).into_bytes();
        out.extend_from_slice(body.as_bytes());
        out
    }

    /// Parses a body (without its header).
    pub fn parse(body: &[u8]) -> Result<Message, String> {
        if let Some(i) = body.iter().position(|&b| !(0x20..0x7f).contains(&b)) {
            return Err(format!("byte {:#04x} at offset {i}", body[i]));
        }
        let text = std::str::from_utf8(body).map_err(|_| "not ASCII".to_string())?;
        let mut attrs = Vec::new();
        let mut cur = String::new();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c != ';' {
                cur.push(c);
                continue;
            }
            if chars.peek() == Some(&';') {
                chars.next();
                cur.push(';');
                continue;
            }
            attrs.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            // A last attribute without its `;` (tolerated).
            attrs.push(cur);
        }
        let mut pairs = Vec::with_capacity(attrs.len());
        for a in attrs {
            let (k, v) = a
                .split_once('=')
                .ok_or_else(|| format!("attribute {a:?} is not key=value"))?;
            if k.is_empty() {
                return Err(format!("attribute {a:?} has no key"));
            }
            pairs.push((k.to_string(), v.to_string()));
        }
        let mut it = pairs.into_iter();
        match it.next() {
            Some((k, cmd)) if k == "cmd" && !cmd.is_empty() => Ok(Message {
                cmd,
                attrs: it.collect(),
            }),
            _ => Err("the message does not start with cmd=".into()),
        }
    }
}

/// Collects bytes from the connection and cuts messages off them.
#[derive(Default)]
pub struct Reader {
    buf: Vec<u8>,
}

impl Reader {
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// The next complete message, if there is one; an error for bytes that are none (the
    /// connection is then unusable).
    pub fn next_message(&mut self) -> Option<Result<Message, String>> {
        if self.buf.len() < HEADER {
            return None;
        }
        let head = std::str::from_utf8(&self.buf[..HEADER]).unwrap_or("");
        let len = match head.trim().parse::<usize>() {
            Ok(n) if n <= MAX_MESSAGE => n,
            _ => return Some(Err(format!("bad length header {:?}", &self.buf[..HEADER]))),
        };
        if self.buf.len() < HEADER + len {
            return None;
        }
        let msg = Message::parse(&self.buf[HEADER..HEADER + len]);
        self.buf.drain(..HEADER + len);
        Some(msg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_with_a_padded_header_and_escapes() {
        let m = Message::new("kvs-put")
            .with("key", "a")
            .with("value", "x;y");
        let b = m.encode();
        assert_eq!(&b[..6], b"29    ");
        assert_eq!(&b[6..], b"cmd=kvs-put;key=a;value=x;;y;");
        let mut r = Reader::default();
        r.push(&b[..10]);
        assert!(r.next_message().is_none());
        r.push(&b[10..]);
        assert_eq!(r.next_message().unwrap().unwrap(), m);
        assert!(r.next_message().is_none());
    }

    #[test]
    fn replies_as_slurm_writes_them() {
        let body = b"cmd=fullinit-response;rc=0;pmi-version=2;pmi-subversion=0;rank=3;size=4;\
appnum=0;spawner-jobid=;debugged=FALSE;pmiverbose=FALSE;";
        let mut wire = format!("{:<6}", body.len()).into_bytes();
        wire.extend_from_slice(body);
        let mut r = Reader::default();
        r.push(&wire);
        let m = r.next_message().unwrap().unwrap();
        assert_eq!(m.cmd, "fullinit-response");
        assert_eq!(
            (m.rc(), m.get("rank"), m.get("size")),
            (0, Some("3"), Some("4"))
        );
        assert_eq!(m.get("spawner-jobid"), Some(""));
        // Right-justified headers parse too.
        let mut r = Reader::default();
        r.push(b"    14cmd=kvs-fence;");
        assert_eq!(r.next_message().unwrap().unwrap().cmd, "kvs-fence");
    }

    #[test]
    fn bad_messages_are_refused() {
        for bad in [
            &b"999999cmd=x;"[..],
            b"abcdefcmd=x;",
            b"7     value=1",
            b"4     cmd=",
            b"8     cmd=x;k;",
            b"6     =x;y=;",
        ] {
            let mut r = Reader::default();
            r.push(bad);
            assert!(
                matches!(r.next_message(), Some(Err(_))),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        let mut r = Reader::default();
        r.push(b"5     cmd=\x01");
        assert!(matches!(r.next_message(), Some(Err(_))));
    }
}
