//! Diagnostics as plain data. Placeholder until the renderer lands.
