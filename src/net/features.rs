//! A position as the network sees it: one byte a point (see `docs/policy-net.md`).
