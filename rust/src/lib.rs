//! diplo core: placeholder until the map module lands.
pub fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}
