//! The Hub protocol (the text protocol of Scan 3.x): [`protocol`] reads and writes its lines,
//! positions and moves; [`engine`] runs damelab as a Hub engine (`damelab hub`).

pub mod engine;
pub mod hub1;
pub mod protocol;
mod setup;
