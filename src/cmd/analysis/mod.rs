//! `hoshi analysis`: KataGo's JSON analysis protocol (`docs/Analysis_Engine.md` of
//! lightvector/KataGo, MIT licence, copyright David J. Wu), which KaTrain and the review
//! tools speak: a query a line on stdin, an answer a line on stdout. [`query`] reads a line
//! into a query or an action, every field checked; [`run`] queues the positions by priority
//! and searches them; [`answer`] writes what a search found as the protocol does.

pub mod answer;
pub mod query;
pub mod run;

use crate::engine::Settings;
use std::process::ExitCode;

/// `hoshi analysis`: no options of its own; the engine's (`--net`, `--threads`, `--visits`
/// as the default `maxVisits`, `--rules` as the default rules... ) apply.
#[derive(clap::Args, Debug, Default)]
pub struct AnalysisArgs {}

/// Serves the protocol on stdin and stdout until stdin ends and the queued positions are
/// answered.
pub fn command(_args: &AnalysisArgs, settings: Settings) -> ExitCode {
    let out = run::Output::new(Box::new(std::io::stdout()));
    run::serve(settings, std::io::stdin().lock(), out);
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests;
