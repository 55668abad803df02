//! pt2pt: matching and the point-to-point protocols (sans-I/O engines driven by the
//! runtime's progress loop).
pub mod buffer;
pub mod engine;
pub mod matching;
pub mod request;
#[cfg(test)]
pub(crate) mod testnet;
#[cfg(test)]
mod tests;
pub mod wire;

pub use buffer::MsgBuf;
pub use engine::{
    ChannelIo, Io, MsgId, PipelineSettings, ProtocolCounts, ProtocolSettings, Pt2pt, Rndv,
    SendStart, Taken,
};
pub use matching::Pattern;
pub use request::{Owner, ReqId, Status};
