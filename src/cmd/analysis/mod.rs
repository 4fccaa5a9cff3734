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

/// `hoshi analysis`: the engine's options (`--net`, `--threads`, `--visits` as the default
/// `maxVisits`, `--rules` as the default rules... ) apply, and its own:
#[derive(clap::Args, Debug, Default)]
pub struct AnalysisArgs {
    /// Positions searched at once (KataGo's `numAnalysisThreads`), `--threads` shared
    /// between them (each search gets `threads / positions`, at least one). Default: 2
    /// where `--threads` is 2 or more, else 1. Positions side by side, each on one thread,
    /// analyse a game fastest; one position on every thread answers a single query (a
    /// GUI's pondering) soonest.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub positions: Option<u64>,
}

impl AnalysisArgs {
    /// The positions searched at once with `threads` search threads in all.
    pub fn positions(&self, threads: usize) -> usize {
        self.positions.map_or(threads.clamp(1, 2), |p| p as usize)
    }
}

/// Serves the protocol on stdin and stdout until stdin ends and the queued positions are
/// answered.
pub fn command(args: &AnalysisArgs, settings: Settings) -> ExitCode {
    let out = run::Output::new(Box::new(std::io::stdout()));
    let positions = args.positions(settings.player.threads);
    log::info!(
        "analysing {positions} position(s) at once, {} search thread(s) each",
        (settings.player.threads / positions).max(1)
    );
    run::serve(settings, positions, std::io::stdin().lock(), out);
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests;
