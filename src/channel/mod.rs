//! channel: virtual channels (Liu 2004, §4.2) — one per peer, made of subchannels over
//! several rails, with a scheduler, striping policies, a completion filter and sequence
//! numbers with an out-of-order queue.
//!
//! With a single rail (the `shm` rail today) a virtual channel is a pass-through, so the
//! point-to-point engine drives the rail directly and this layer holds no code yet; the
//! multirail issue fills it in between `pt2pt` and `fabric`.
