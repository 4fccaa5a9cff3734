//! The engine behind `hoshi analysis`: a reader of lines (the caller's thread) and workers
//! (KataGo's analysis threads) that search the queued positions, the highest priority first
//! (the earliest of a priority first), each by an [`Engine`] of its own, the network's
//! cache shared between them, and write the answers. Actions answer at once; `terminate`
//! takes a query's positions off the queue and ends those being searched.

use super::answer;
use super::query::{self, Action, Fault, Query, Request};
use crate::engine::{Engine, Settings};
use crate::player::Scope;
use crate::rules::Ruleset;
use crate::setup::CacheShelf;
use serde_json::{json, Value};
use std::collections::BinaryHeap;
use std::io::{BufRead, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// The longest line read; a longer one is an error, and read no further than its end.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// The most positions waiting at once: a query that would queue more is refused.
pub const MAX_QUEUED: usize = 20_000;

/// The visits of a search when neither the query nor `--visits` gives them (KataGo's
/// analysis example config's `maxVisits`).
pub const DEFAULT_VISITS: u64 = 500;

/// One position to analyse: a turn of a query.
struct Task {
    priority: i64,
    /// The order it came in: the earlier first among equal priorities.
    order: u64,
    query: Arc<Query>,
    turn: usize,
}

impl PartialEq for Task {
    fn eq(&self, other: &Task) -> bool {
        (self.priority, self.order) == (other.priority, other.order)
    }
}

impl Eq for Task {}

impl PartialOrd for Task {
    fn partial_cmp(&self, other: &Task) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Task {
    fn cmp(&self, other: &Task) -> std::cmp::Ordering {
        (self.priority, std::cmp::Reverse(self.order))
            .cmp(&(other.priority, std::cmp::Reverse(other.order)))
    }
}

/// A position being searched: its query and turn, and whether it was told to stop.
struct Running {
    id: String,
    turn: usize,
    stop: bool,
}

/// What the reader and the workers share.
#[derive(Default)]
struct Shared {
    queue: BinaryHeap<Task>,
    /// What each worker is searching.
    running: Vec<Option<Running>>,
    /// No more lines: the worker ends when the queue is empty.
    closed: bool,
    next_order: u64,
}

/// The answers' way out: one line at a time, whole.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(out: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(out)))
    }

    pub fn send(&self, value: &Value) {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A reader that went away leaves nothing to answer: the lines are dropped.
        let _ = writeln!(out, "{value}").and_then(|()| out.flush());
    }

    pub fn fault(&self, kind: &str, fault: &Fault) {
        let mut value = json!({ kind: fault.message });
        if let Some(field) = &fault.field {
            value["field"] = json!(field);
        }
        if let Some(id) = &fault.id {
            value["id"] = json!(id);
        }
        self.send(&value);
    }
}

/// Runs the protocol on `input` until it ends, then finishes the positions queued:
/// `positions` searched at once (at least 1), `settings.player.threads` and
/// `settings.player.max_memory` shared between them.
pub fn serve(settings: Settings, positions: usize, input: impl BufRead, out: Output) {
    let positions = positions.max(1);
    let shared = Shared {
        running: (0..positions).map(|_| None).collect(),
        ..Shared::default()
    };
    let shared = Arc::new((Mutex::new(shared), Condvar::new()));
    let rules = settings.rules;
    let mut settings = settings;
    settings.player.threads = (settings.player.threads / positions).max(1);
    // `--max-memory` bounds the trees of all the positions searched at once together.
    settings.player.max_memory /= positions;
    let shelf = CacheShelf::default();
    let workers: Vec<_> = (0..positions)
        .map(|slot| {
            let (shared, out) = (Arc::clone(&shared), out.clone());
            let mut settings = settings.clone();
            // Each worker draws its own random choices.
            settings.seed = settings.seed.wrapping_add(slot as u64);
            let shelf = shelf.clone();
            std::thread::spawn(move || work(settings, &shelf, slot, &shared, &out))
        })
        .collect();
    read_lines(input, rules, &shared, &out);
    {
        let (lock, ready) = &*shared;
        lock.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        ready.notify_all();
    }
    for worker in workers {
        if worker.join().is_err() {
            log::error!("an analysis worker failed");
        }
    }
}

type SharedState = (Mutex<Shared>, Condvar);

fn read_lines(mut input: impl BufRead, default_rules: Ruleset, shared: &SharedState, out: &Output) {
    let mut line = Vec::new();
    loop {
        line.clear();
        match read_line(&mut input, &mut line) {
            Ok(None) => return,
            Ok(Some(true)) => {}
            Ok(Some(false)) => {
                out.fault(
                    "error",
                    &general(format!("line longer than {MAX_LINE_BYTES} bytes")),
                );
                continue;
            }
            Err(e) => {
                log::error!("reading the queries: {e}");
                return;
            }
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            out.fault("error", &general("the line is not UTF-8"));
            continue;
        };
        if text.trim().is_empty() {
            continue;
        }
        match query::parse(text, default_rules) {
            Err(fault) => out.fault("error", &fault),
            Ok(parsed) => {
                parsed.warnings.iter().for_each(|w| out.fault("warning", w));
                match parsed.request {
                    Request::Action(action) => act(action, shared, out),
                    Request::Query(query) => enqueue(*query, shared, out),
                }
            }
        }
    }
}

fn general(message: impl Into<String>) -> Fault {
    Fault {
        message: message.into(),
        field: None,
        id: None,
    }
}

/// Reads a line into `line`, without its end: `None` at the end of the input, `Some(false)`
/// for a line too long (the rest of it skipped).
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    let mut limited = std::io::Read::take(&mut *input, MAX_LINE_BYTES as u64 + 1);
    let read = limited.read_until(b'\n', line)?;
    if read == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        return Ok(Some(true));
    }
    if line.len() <= MAX_LINE_BYTES {
        return Ok(Some(true)); // the last line, without its end
    }
    // Too long: skip to its end.
    let mut rest = Vec::new();
    loop {
        rest.clear();
        let mut limited = std::io::Read::take(&mut *input, 1 << 16);
        if limited.read_until(b'\n', &mut rest)? == 0 || rest.last() == Some(&b'\n') {
            return Ok(Some(false));
        }
    }
}

fn enqueue(query: Query, shared: &SharedState, out: &Output) {
    let (lock, ready) = shared;
    let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
    if state.queue.len() + query.turns.len() > MAX_QUEUED {
        let fault = Fault {
            message: format!("more than {MAX_QUEUED} positions queued: query refused"),
            field: None,
            id: Some(query.id.clone()),
        };
        drop(state);
        out.fault("error", &fault);
        return;
    }
    let query = Arc::new(query);
    for (&turn, &priority) in query.turns.iter().zip(&query.priorities) {
        let order = state.next_order;
        state.next_order += 1;
        state.queue.push(Task {
            priority,
            order,
            query: Arc::clone(&query),
            turn,
        });
    }
    ready.notify_all();
}

fn act(action: Action, shared: &SharedState, out: &Output) {
    match action {
        Action::QueryVersion { id } => out.send(&json!({
            "id": id,
            "action": "query_version",
            "version": env!("CARGO_PKG_VERSION"),
            "git_hash": "",
        })),
        Action::ClearCache { id } => out.send(&json!({ "id": id, "action": "clear_cache" })),
        Action::QueryModels { id } => out.send(&json!({
            "id": id,
            "action": "query_models",
            "models": [],
        })),
        Action::Terminate {
            id,
            terminate_id,
            turns,
        } => {
            terminate(shared, out, |q, t| q == terminate_id && in_turns(&turns, t));
            out.send(&json!({ "id": id, "action": "terminate", "terminateId": terminate_id }));
        }
        Action::TerminateAll { id, turns } => {
            terminate(shared, out, |_, t| in_turns(&turns, t));
            out.send(&json!({ "id": id, "action": "terminate_all" }));
        }
    }
}

fn in_turns(turns: &Option<Vec<usize>>, turn: usize) -> bool {
    turns.as_ref().is_none_or(|list| list.contains(&turn))
}

/// Takes the positions `which` picks off the queue (each answered with `noResults`, as
/// KataGo answers a position terminated before it started) and stops the one searched.
fn terminate(shared: &SharedState, out: &Output, which: impl Fn(&str, usize) -> bool) {
    let (lock, _) = shared;
    let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
    let (gone, kept): (Vec<Task>, Vec<Task>) = std::mem::take(&mut state.queue)
        .into_iter()
        .partition(|t| which(&t.query.id, t.turn));
    state.queue = kept.into_iter().collect();
    for running in state.running.iter_mut().flatten() {
        if which(&running.id, running.turn) {
            running.stop = true;
        }
    }
    drop(state);
    for task in gone {
        out.send(&json!({
            "id": task.query.id,
            "turnNumber": task.turn,
            "isDuringSearch": false,
            "noResults": true,
        }));
    }
}

/// Worker `slot`: searches the queued positions, the best first, until the input is closed
/// and nothing is left.
fn work(settings: Settings, shelf: &CacheShelf, slot: usize, shared: &SharedState, out: &Output) {
    let default_visits = settings.player.visits.unwrap_or(DEFAULT_VISITS);
    let mut engine = Engine::new(settings);
    engine.share_caches(shelf);
    let (lock, ready) = shared;
    loop {
        let task = {
            let mut state = lock.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(task) = state.queue.pop() {
                    state.running[slot] = Some(Running {
                        id: task.query.id.clone(),
                        turn: task.turn,
                        stop: false,
                    });
                    break task;
                }
                if state.closed {
                    return;
                }
                state = ready.wait(state).unwrap_or_else(|e| e.into_inner());
            }
        };
        let stopped = || {
            let state = lock.lock().unwrap_or_else(|e| e.into_inner());
            state.running[slot].as_ref().is_some_and(|r| r.stop)
        };
        analyse(&mut engine, &task, default_visits, &stopped, out);
        lock.lock().unwrap_or_else(|e| e.into_inner()).running[slot] = None;
    }
}

/// Sets up the query's game at the task's turn and searches it, writing the answers.
fn analyse(
    engine: &mut Engine,
    task: &Task,
    default_visits: u64,
    stopped: &dyn Fn() -> bool,
    out: &Output,
) {
    let query = &task.query;
    let color = match answer::set_up(engine, query, task.turn) {
        Ok(color) => color,
        Err(fault) => {
            out.fault("error", &fault);
            return;
        }
    };
    let scope = Scope {
        visits: Some(query.max_visits.unwrap_or(default_visits)),
        root_moves: answer::root_moves(query, color),
        // KataGo's maxVisits counts the root's visits, and its analysis searches every
        // position anew.
        fresh: true,
    };
    engine.set_moves_ownership(query.include_moves_ownership);
    let hashes = answer::Hashes::of(engine.game().board(), color);
    let answer = |during_search| answer::Answer {
        query,
        turn: task.turn,
        color,
        hashes,
        during_search,
    };
    let started = Instant::now();
    let mut reported = Instant::now();
    let searched = engine.think_within(color, &scope, &mut |progress| {
        if let Some(every) = query.report_every {
            if reported.elapsed() >= every {
                reported = Instant::now();
                out.send(&answer(true).of(&progress.result(), None));
            }
        }
        query.max_time.is_none_or(|t| started.elapsed() < t) && !stopped()
    });
    let Some(result) = searched else {
        out.fault(
            "error",
            &Fault {
                message: "hoshi plays without a search (--random): nothing to analyse".into(),
                field: None,
                id: Some(query.id.clone()),
            },
        );
        return;
    };
    // The network's own view of the position: rootInfo's raw values, and the policy.
    let view = engine.network_view();
    out.send(&answer(false).of(&result, view.as_ref()));
}
