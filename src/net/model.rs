//! The network's weights and forward pass (see `docs/policy-net.md`).
