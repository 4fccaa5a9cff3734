//! From settings to what plays, in one place, as KataGo's `program/setup.cpp` turns a
//! config into evaluators and search parameters for every command: which network plays on
//! a board ([`NetChoice`]; a file read by its content, [`load_network`]), the knobs left to
//! the network settled for it ([`Tuning::settled`]), and the knowledge and the search's
//! settings built from them ([`Kit`], made and kept by a [`Workshop`]).
//!
//! The player (its moves, analysis and pondering, the resignation check), the dead-stone
//! judge's searches ([`judge_kit`]), `hoshi analyze`, `hoshi selfplay`, `hoshi calibrate`
//! and the benches all ask here; none builds knowledge or reads a network file of its own.
//! The setup sits under the player: the player changes boards and ranks during a game and
//! asks for the kit of each, so the setup names no player type (the rank tables stay the
//! player's; a rank tells the setup only whether it takes the network's advice).

use crate::knowledge::{KnowledgeParams, NetRole, NetValue, Standard};
use crate::net::cache::Cache;
use crate::net::{hnet, katago, Heads, Network, SharedNet};
use crate::search::{Puct, SearchConfig, SearchParams};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The networks the engine plays with (`--net`): the built-in ones, one given for every
/// board, or none. Copied into every setting that needs one; [`NetChoice::network`] names
/// the network a search takes on a board, [`NetChoice::for_board`] the strongest.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NetChoice {
    /// KataGo's g170 b6c96 ([`katago_embedded`]) where the strongest network is asked for
    /// (expert, analysis), since it beat each of hoshi's own networks on its board at 1 s
    /// a move (9x9, 13x13, 19x19); for the ranks below, the networks they were calibrated with
    /// ([`calibrated`]).
    BuiltIn,
    /// This network on every board and at every rank (`--net FILE`).
    Given(SharedNet),
    /// No network (`--net none`): the priors and the playouts alone.
    Off,
}

/// How much of the networks a search takes: the ranks below expert were calibrated (their
/// links to the next measured) with hoshi's own networks, or none, and keep them; expert and
/// analysis take the strongest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advice {
    /// No network: the priors and the playouts alone.
    Off,
    /// The network the ranks were calibrated with.
    Calibrated,
    /// The strongest network hoshi has for the board.
    Strongest,
}

impl NetChoice {
    /// The network a search taking `advice` plays with on a `size`×`size` board.
    pub fn network(self, size: usize, advice: Advice) -> Option<SharedNet> {
        match (self, advice) {
            (NetChoice::Off, _) | (_, Advice::Off) => None,
            (NetChoice::Given(net), _) => Some(net),
            (NetChoice::BuiltIn, Advice::Calibrated) => Some(calibrated(size)),
            (NetChoice::BuiltIn, Advice::Strongest) => Some(katago_embedded()),
        }
    }

    /// The strongest network for a `size`×`size` board: expert's and analysis's, and the one
    /// that `hoshi-evaluate`, `kata-raw-nn` and the dead-stone judge read.
    pub fn for_board(self, size: usize) -> Option<SharedNet> {
        self.network(size, Advice::Strongest)
    }

    /// What plays on which board, a line each, for the log.
    pub fn describe(self) -> Vec<String> {
        match self {
            // Named, not read: the ranks below expert never need it.
            NetChoice::BuiltIn => {
                std::iter::once(KATAGO_EMBEDDED_NAME.to_string())
                    .chain(hnet::value_network_sizes().map(|size| {
                        format!("the ranks below, {size}x{size}: {:?}", calibrated(size))
                    }))
                    .chain(std::iter::once(format!(
                        "the ranks below, other boards: {:?}",
                        embedded()
                    )))
                    .collect()
            }
            NetChoice::Given(net) => vec![format!("{net:?}")],
            NetChoice::Off => vec!["no network".to_string()],
        }
    }
}

/// The built-in network the ranks below expert play a `size`×`size` board with: the
/// board's own value network ([`embedded_value_network`]: 9x9, 13x13), which each judged
/// its board better than the 19x19 networks (docs/benchmarks.md), else the network built
/// for 19x19 ([`embedded`]).
pub fn calibrated(size: usize) -> SharedNet {
    embedded_value_network(size).unwrap_or_else(embedded)
}

/// What [`NetChoice::describe`] says of [`katago_embedded`] without reading it.
const KATAGO_EMBEDDED_NAME: &str =
    "expert and analysis: KataGo's g170 b6c96, built in (weights/g170-b6c96.bin.gz)";

/// KataGo's g170 b6c96, built in ([`katago::embedded`]), read once per process.
pub fn katago_embedded() -> SharedNet {
    static NET: OnceLock<SharedNet> = OnceLock::new();
    *NET.get_or_init(|| SharedNet::new(katago::embedded()))
}

/// The network hoshi ships with, read once per process ([`hnet::embedded`]).
pub fn embedded() -> SharedNet {
    static NET: OnceLock<SharedNet> = OnceLock::new();
    *NET.get_or_init(|| SharedNet::new(hnet::embedded()))
}

/// The embedded value network of `size`×`size` boards, read once per process
/// ([`hnet::embedded_value_network`]); `None` for a board that has none.
pub fn embedded_value_network(size: usize) -> Option<SharedNet> {
    static NETS: OnceLock<Vec<(usize, SharedNet)>> = OnceLock::new();
    let nets = NETS.get_or_init(|| {
        hnet::value_network_sizes()
            .filter_map(|s| Some((s, SharedNet::new(hnet::embedded_value_network(s)?))))
            .collect()
    });
    nets.iter().find(|&&(s, _)| s == size).map(|&(_, net)| net)
}

/// A network file format: how its files begin and how it reads one (with the human profile
/// a human-imitating network plays as, where one is given).
struct Format {
    name: &'static str,
    recognises: fn(&[u8]) -> bool,
    read: fn(&[u8], Option<&str>) -> Result<SharedNet, String>,
}

/// The formats hoshi reads, one line a format: a file is read by the first that recognises
/// its first bytes, whatever its name.
const FORMATS: &[Format] = &[
    Format {
        name: "hoshi's .hnet",
        recognises: hnet::recognises,
        read: |bytes, profile| {
            if profile.is_some() {
                log::warn!("a human profile is for KataGo's human-imitating networks: ignored");
            }
            read_as(hnet::Model::from_bytes(bytes))
        },
    },
    Format {
        name: "KataGo model",
        recognises: katago::recognises,
        read: |bytes, profile| {
            read_as(katago::KataNetwork::from_bytes_with_profile(bytes, profile))
        },
    },
];

fn read_as<N: Network + 'static, E: fmt::Display>(read: Result<N, E>) -> Result<SharedNet, String> {
    read.map(SharedNet::new).map_err(|why| why.to_string())
}

/// Why a network file was refused: the file and what is wrong with it.
#[derive(Debug)]
pub struct LoadError {
    pub file: PathBuf,
    pub why: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file.display(), self.why)
    }
}

impl std::error::Error for LoadError {}

/// The largest network file read: far above any network two cores can run, and a bound
/// against a path like /dev/zero that would never end.
const MAX_NETWORK_BYTES: u64 = 1 << 30;

/// Reads the network of `file`, in whichever format its content is (`--net FILE`), for the
/// rest of the process. A value network named by its old name (`judge-9x9.hnet`, before
/// "judge" came to mean the dead-stone judge alone) that is no longer there is read from its
/// new name in the same directory, so that the scripts and notes that name it keep working.
pub fn load_network(file: &Path) -> Result<SharedNet, LoadError> {
    load_network_with(file, None, u64::MAX)
}

/// [`load_network`], with the profile a human-imitating KataGo network plays as
/// (`--human-profile`: KataGo's `humanSLProfile`, such as `rank_5k`), which such a network
/// needs and others ignore, refusing a network whose weights would take more than `memory`
/// bytes (`--max-memory`): told by the file's unpacked size (a gzipped file's last four
/// bytes say it) before it is read.
pub fn load_network_with(
    file: &Path,
    human_profile: Option<&str>,
    memory: u64,
) -> Result<SharedNet, LoadError> {
    let renamed = renamed_file(file);
    if let Some(renamed) = &renamed {
        log::warn!(
            "{} is now {}: reading that",
            file.display(),
            renamed.display()
        );
    }
    let file = renamed.as_deref().unwrap_or(file);
    let refused = |why: String| LoadError {
        file: file.to_path_buf(),
        why,
    };
    let bytes = read_limited(file).map_err(refused)?;
    let needs = unpacked_size(&bytes);
    if needs > memory {
        return Err(refused(format!(
            "its weights take {} MiB, more than the {} MiB allowed (--max-memory)",
            needs >> 20,
            memory >> 20
        )));
    }
    let format = FORMATS
        .iter()
        .find(|f| (f.recognises)(&bytes))
        .ok_or_else(|| {
            let known: Vec<&str> = FORMATS.iter().map(|f| f.name).collect();
            refused(format!("not a network file ({})", known.join(", ")))
        })?;
    (format.read)(&bytes, human_profile)
        .map_err(|why| refused(format!("{} file: {why}", format.name)))
}

/// The weight files renamed when "judge" came to mean the dead-stone judge alone: the old
/// name, then the new one.
const RENAMED_FILES: [(&str, &str); 4] = [
    ("judge-9x9.hnet", "value-9x9.hnet"),
    ("judge-13x13.hnet", "value-13x13.hnet"),
    ("judge-19x19.hnet", "value-19x19.hnet"),
    ("judge-19x19-6x64.hnet", "value-19x19-6x64.hnet"),
];

/// The file to read for `path` when it names a renamed file by its old name
/// ([`RENAMED_FILES`]), is not there and the new name is; `None` otherwise, the file named
/// being read as it is (a file of the old name that exists wins).
fn renamed_file(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.to_str()?;
    let &(_, new) = RENAMED_FILES.iter().find(|&&(old, _)| old == name)?;
    let renamed = path.with_file_name(new);
    (!path.exists() && renamed.exists()).then_some(renamed)
}

/// The bytes of the network file `file`, for a tool that reads one format itself (the
/// kernels' benchmark): the same bound and the same errors as [`load_network`].
pub fn read_network_file(file: &Path) -> Result<Vec<u8>, LoadError> {
    read_limited(file).map_err(|why| LoadError {
        file: file.to_path_buf(),
        why,
    })
}

/// The bytes a network file's content takes unpacked: a gzipped file's size as its trailer
/// gives it (modulo 4 GiB, beyond any network), another's own.
fn unpacked_size(bytes: &[u8]) -> u64 {
    match bytes {
        [0x1f, 0x8b, .., a, b, c, d] if bytes.len() >= 18 => {
            u32::from_le_bytes([*a, *b, *c, *d]).into()
        }
        _ => bytes.len() as u64,
    }
}

fn read_limited(file: &Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(file)
        .and_then(|f| f.take(MAX_NETWORK_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|why| format!("cannot read it: {why}"))?;
    if bytes.len() as u64 > MAX_NETWORK_BYTES {
        return Err(format!("larger than {MAX_NETWORK_BYTES} bytes"));
    }
    Ok(bytes)
}

/// The knobs the setup reads: the search's and the knowledge's (the player's own knobs are
/// the player's business).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tuning {
    pub search: SearchParams,
    pub knowledge: KnowledgeParams,
}

/// How the search weighs a network's score and explores beside it, by the family of networks
/// it plays with: KataGo's own search settings for KataGo's networks (whose value and score
/// were learnt by a search that weighed them so), hoshi's measured ones for its own. Each
/// settles a knob left `auto`; a knob set by hand keeps its value.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SearchWeights {
    score_utility: f64,
    score_scale: f64,
    dynamic_score_utility: f64,
    exploration: f64,
    fpu_reduction: f64,
}

impl SearchWeights {
    /// The knobs' own defaults, measured with hoshi's networks (see each knob).
    const HOSHI: SearchWeights = SearchWeights {
        score_utility: NetValue::SCORE_UTILITY,
        score_scale: NetValue::SCORE_SCALE,
        dynamic_score_utility: NetValue::DYNAMIC_SCORE_UTILITY,
        exploration: Puct::EXPLORATION,
        fpu_reduction: Puct::FPU_REDUCTION,
    };

    /// KataGo's GTP defaults (`cpp/program/setup.cpp`): a utility of win/loss (−1..1),
    /// `staticScoreUtilityFactor` 0.1 at a scale of 2 points a line and
    /// `dynamicScoreUtilityFactor` 0.3, `cpuctExploration` 1 and `fpuReductionMax` 0.2 on
    /// that utility. hoshi's tree counts from 0 to 1, so the shares are of the utility's
    /// 1.4 and the constants of its span of 2.8. (Its exploration's growth with the visits,
    /// its scaling by the utility's spread and its root's smaller urgency are not copied.)
    const KATAGO: SearchWeights = SearchWeights {
        score_utility: 0.1 / 1.4,
        score_scale: 2.0,
        dynamic_score_utility: 0.3 / 1.4,
        exploration: 1.0 / 2.8,
        fpu_reduction: 0.2 / 2.8,
    };

    /// Settles `tuning`'s knobs left `auto` to these.
    fn settle(self, tuning: &mut Tuning) {
        let value = &mut tuning.knowledge.value;
        value.score_utility = value.score_utility.settled(self.score_utility);
        value.score_scale = value.score_scale.settled(self.score_scale);
        value.dynamic_score_utility = value
            .dynamic_score_utility
            .settled(self.dynamic_score_utility);
        let puct = &mut tuning.search.puct;
        puct.exploration = puct.exploration.settled(self.exploration);
        puct.fpu_reduction = puct.fpu_reduction.settled(self.fpu_reduction);
    }
}

/// Whether a network is a value network: a value and a score lead, which only the networks
/// learnt from a teacher's verdicts have (docs/policy-net.md, "A judgement learnt from the
/// teacher"). Its value is good enough to judge every leaf alone, where a value learnt from
/// the games' results was not (docs/benchmarks.md).
pub fn is_value_network(heads: Heads) -> bool {
    heads.value && heads.score_lead
}

impl Tuning {
    /// These knobs for a search with `net` (none: the playouts), every `auto` knob settled:
    /// a value network judges every leaf alone ([`crate::knowledge::NetValue::mix`] 1) with
    /// PUCT ([`crate::search::Puct::enabled`]), any other network advises the priors.
    pub fn settled(&self, net: Option<SharedNet>) -> Tuning {
        let value_network = net.is_some_and(|n| is_value_network(n.heads()));
        let mut tuning = *self;
        let mix = &mut tuning.knowledge.value.mix;
        *mix = mix.settled(if value_network { 1.0 } else { 0.0 });
        let puct = &mut tuning.search.puct.enabled;
        *puct = puct.settled(value_network);
        let katago = net.is_some_and(|n| n.heads().score_stdev);
        let weights = if katago {
            SearchWeights::KATAGO
        } else {
            SearchWeights::HOSHI
        };
        weights.settle(&mut tuning);
        tuning
    }

    /// What `net` does in the knowledge these settled knobs make.
    fn role(&self, net: SharedNet) -> NetRole {
        let mix = self.knowledge.value.mix.or(0.0);
        NetRole {
            net,
            steers: self.search.puct.enabled.or(false),
            value_share: if net.heads().value { mix } else { 0.0 },
        }
    }

    /// What the knowledge made with `net` is made of.
    fn recipe(&self, net: Option<SharedNet>) -> (KnowledgeParams, Option<NetRole>) {
        let settled = self.settled(net);
        (settled.knowledge, net.map(|n| settled.role(n)))
    }

    /// The network of `nets` a search taking `advice` plays with on a `size`×`size` board:
    /// none under the smallest board it plays on ([`crate::knowledge::NetPrior::min_size`]).
    fn network(&self, nets: NetChoice, size: usize, advice: Advice) -> Option<SharedNet> {
        nets.network(size, advice)
            .filter(|_| size >= self.knowledge.net.min_size)
    }
}

/// What plays: the knowledge the search is given (one per network and tuning, its threads
/// sharing one cache of network outputs) and the search's knobs, settled for that network.
#[derive(Clone)]
pub struct Kit {
    pub net: Option<SharedNet>,
    pub knowledge: Arc<Standard>,
    pub params: SearchParams,
}

impl Kit {
    /// The search's settings with this kit on `threads` threads and `max_memory` bytes of
    /// tree.
    pub fn config(&self, threads: usize, max_memory: usize) -> SearchConfig {
        SearchConfig {
            params: self.params,
            threads: threads.max(1),
            max_memory,
        }
    }
}

/// The kit of the dead-stone judge's searches: the default tuning, no network, whatever
/// the playing settings (its verdict must not change with them).
pub fn judge_kit() -> Kit {
    Workshop::new(NetChoice::Off, Tuning::default()).kit(19, Advice::Off)
}

/// Makes kits for boards and keeps them, with their caches of network outputs, for as long
/// as the networks and the tuning stay: a player asks for the kit of each move's board and
/// rank, and finds the knowledge (and so the search's tree) it had.
pub struct Workshop {
    nets: NetChoice,
    tuning: Tuning,
    kits: Vec<Kit>,
    /// The caches of network outputs, by network and by what changes its outputs: they
    /// outlive a change of the knobs that leaves the network's readings as they were.
    caches: CacheShelf,
}

/// Caches of network outputs by network and by what changes its outputs, shared by the
/// workshops given the same shelf ([`Workshop::share_caches`]): the analysis engine's
/// positions searched side by side (a game's turns) meet the same positions, as KataGo's
/// analysis threads share one cache.
#[derive(Clone, Default)]
pub struct CacheShelf(Arc<Mutex<Vec<ShelvedCache>>>);

/// A cache on a [`CacheShelf`], with the network and the key it was made for.
type ShelvedCache = (SharedNet, CacheKey, Arc<Cache>);

/// What a cache of one network's outputs depends on beside the network.
#[derive(Clone, Copy, PartialEq)]
struct CacheKey {
    slots: usize,
    vary_symmetry: bool,
}

impl Workshop {
    pub fn new(nets: NetChoice, tuning: Tuning) -> Workshop {
        Workshop {
            nets,
            tuning,
            kits: Vec::new(),
            caches: CacheShelf::default(),
        }
    }

    /// Takes its caches from `shelf` from now on, shared with every workshop that does; the
    /// kits made so far are dropped, made again with them when asked.
    pub fn share_caches(&mut self, shelf: &CacheShelf) {
        self.caches = shelf.clone();
        self.kits.clear();
    }

    /// The network a search taking `advice` plays a `size`×`size` board with.
    pub fn network(&self, size: usize, advice: Advice) -> Option<SharedNet> {
        self.tuning.network(self.nets, size, advice)
    }

    /// The kit for a `size`×`size` board with the network `advice` asks for (the rank's;
    /// the strongest for analysis).
    pub fn kit(&mut self, size: usize, advice: Advice) -> Kit {
        let net = self.network(size, advice);
        if let Some(kit) = self.kits.iter().find(|k| k.net == net) {
            return kit.clone();
        }
        let tuning = self.tuning.settled(net);
        let role = net.map(|n| tuning.role(n));
        let cache = net.map(|n| self.cache(n));
        let kit = Kit {
            net,
            knowledge: Arc::new(Standard::new(tuning.knowledge, role, cache)),
            params: tuning.search,
        };
        self.kits.push(kit.clone());
        kit
    }

    /// The cache of `net`'s outputs under the tuning's cache size and symmetry.
    fn cache(&mut self, net: SharedNet) -> Arc<Cache> {
        let value = &self.tuning.knowledge.value;
        let key = CacheKey {
            slots: value.cache,
            vary_symmetry: value.vary_symmetry,
        };
        let mut caches = self.caches.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, _, cache)) = caches.iter().find(|c| c.0 == net && c.1 == key) {
            return Arc::clone(cache);
        }
        caches.retain(|c| c.0 != net);
        let cache = Arc::new(Cache::new(key.slots));
        caches.push((net, key, Arc::clone(&cache)));
        cache
    }

    /// Takes new knobs (`hoshi-param`): kits whose knowledge the change leaves as it was
    /// keep it (and so the search keeps its tree); the others are made again when asked,
    /// with the caches whose network reads as before. The search's knobs alone never touch
    /// the knowledge.
    pub fn retune(&mut self, tuning: Tuning) {
        let old = std::mem::replace(&mut self.tuning, tuning);
        self.kits
            .retain(|kit| old.recipe(kit.net) == tuning.recipe(kit.net));
        for kit in &mut self.kits {
            kit.params = tuning.settled(kit.net).search;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in networks: expert and analysis take KataGo's b6c96 on every board; below,
    /// 9x9 and 13x13 each have a value network of their own (a value, a score lead and
    /// ownership), every other board the network built for 19x19 (a value, no score);
    /// `--net FILE` gives one network to every board and rank, `--net none` none.
    #[test]
    fn each_board_takes_its_own_built_in_network() {
        let heads = |size| {
            NetChoice::BuiltIn
                .network(size, Advice::Calibrated)
                .map(|n| n.heads())
        };
        let value_network = Heads {
            value: true,
            score_lead: true,
            ownership: true,
            score_stdev: false,
        };
        assert_eq!(heads(9), Some(value_network));
        assert_eq!(heads(13), Some(value_network));
        for size in [2, 7, 11, 19, 25] {
            assert_eq!(heads(size).map(is_value_network), Some(false), "{size}");
            assert_eq!(calibrated(size), embedded());
        }
        assert_ne!(embedded_value_network(9), embedded_value_network(13));
        assert_eq!(embedded_value_network(9), embedded_value_network(9));
        for size in [2, 9, 13, 19, 25] {
            let strongest = NetChoice::BuiltIn.for_board(size).expect("a network");
            assert_eq!(strongest, katago_embedded());
            assert!(format!("{strongest:?}").starts_with("KataGo network g170-b6c96"));
            assert!(strongest.heads().score_stdev, "KataGo's heads");
            assert_eq!(NetChoice::BuiltIn.network(size, Advice::Off), None);
        }
        let given = NetChoice::Given(embedded());
        for advice in [Advice::Calibrated, Advice::Strongest] {
            assert_eq!(given.network(9, advice), Some(embedded()));
            assert_eq!(NetChoice::Off.network(9, advice), None);
        }
        assert_eq!(given.network(9, Advice::Off), None);
        let described = NetChoice::BuiltIn.describe();
        assert!(
            described[0].contains("KataGo's g170 b6c96"),
            "{described:?}"
        );
        assert_eq!(described.len(), 4, "expert, 9x9, 13x13, the other boards");
    }

    /// A value network judges every leaf with PUCT and any other network mixes nothing in,
    /// unless the knob is set; without a network nothing changes.
    #[test]
    fn the_knobs_left_to_the_network_follow_it() {
        use crate::player::Params;
        let value_network = embedded_value_network(9);
        let policy = Some(embedded());
        let mut params = Params::default();
        let settled = |p: &Params, net| {
            let t = p.tuning().settled(net);
            (
                t.knowledge.value.mix.or(-1.0),
                t.search.puct.enabled.or(false),
            )
        };
        assert_eq!(settled(&params, value_network), (1.0, true));
        assert_eq!(settled(&params, policy), (0.0, false));
        assert_eq!(settled(&params, None), (0.0, false));
        params.set("value_mix", "0.5").unwrap();
        assert_eq!(settled(&params, value_network), (0.5, true));
        params.set("puct", "0").unwrap();
        assert_eq!(settled(&params, value_network), (0.5, false));
        params.set("puct", "on").unwrap();
        assert_eq!(settled(&params, policy), (0.5, true));
        params.set("value_mix", "auto").unwrap();
        assert_eq!(settled(&params, value_network), (1.0, true));
        assert!(params.set("value_mix", "-1").is_err());
        assert!(params.set("value_mix", "1.5").is_err());
        assert_eq!(params.get("value_mix").unwrap(), "auto");
        assert_eq!(params.get("puct").unwrap(), "1");
    }

    /// KataGo's networks are searched with KataGo's score utility and PUCT constants, hoshi's
    /// with the knobs' own defaults; a knob set by hand keeps its value with either.
    #[test]
    fn the_score_and_exploration_follow_the_networks_family() {
        use crate::player::Params;
        let katago = load_network(Path::new("weights/g170-b6c96.bin.gz")).expect("b6c96");
        let own = embedded_value_network(9);
        let mut params = Params::default();
        let settled = |p: &Params, net| {
            let t = p.tuning().settled(net);
            let v = t.knowledge.value;
            let puct = t.search.puct;
            let all = [
                v.score_utility,
                v.score_scale,
                v.dynamic_score_utility,
                puct.exploration,
                puct.fpu_reduction,
            ];
            all.map(|knob| knob.or(f64::NAN))
        };
        let hoshi = [0.1, 0.5, 0.0, 0.5, 0.1];
        let kata = [0.1 / 1.4, 2.0, 0.3 / 1.4, 1.0 / 2.8, 0.2 / 2.8];
        assert_eq!(settled(&params, own), hoshi);
        assert_eq!(settled(&params, None), hoshi);
        assert_eq!(settled(&params, Some(katago)), kata);
        params.set("dynamic_score_utility", "0").unwrap();
        params.set("puct_exploration", "0.6").unwrap();
        let set = [0.1 / 1.4, 2.0, 0.0, 0.6, 0.2 / 2.8];
        assert_eq!(settled(&params, Some(katago)), set);
        assert_eq!(params.get("puct_fpu_reduction").unwrap(), "auto");
    }

    /// A kit is made once per network and kept; a change of the search's knobs keeps the
    /// knowledge, a change of the knowledge's makes it again with the network's cache, and
    /// a change of what the network reads makes a new cache.
    #[test]
    fn a_retune_keeps_what_it_leaves_valid() {
        let mut shop = Workshop::new(NetChoice::BuiltIn, Tuning::default());
        let kit = shop.kit(9, Advice::Calibrated);
        assert_eq!(kit.net, embedded_value_network(9));
        assert!(Arc::ptr_eq(
            &kit.knowledge,
            &shop.kit(9, Advice::Calibrated).knowledge
        ));
        assert_eq!(shop.kit(9, Advice::Off).net, None);
        let cache = |kit: &Kit| kit.knowledge.cache().map(|c| Arc::as_ptr(&c));
        let mut tuning = Tuning::default();
        tuning.search.lcb_z = 3.0;
        shop.retune(tuning);
        let same = shop.kit(9, Advice::Calibrated);
        assert!(Arc::ptr_eq(&kit.knowledge, &same.knowledge));
        assert_eq!(same.params.lcb_z, 3.0);
        tuning.knowledge.priors.even = 20.0;
        // A prior's weight changes the knowledge; the network's readings stay.
        shop.retune(tuning);
        let remade = shop.kit(9, Advice::Calibrated);
        assert!(!Arc::ptr_eq(&kit.knowledge, &remade.knowledge));
        assert_eq!(cache(&kit), cache(&remade));
        tuning.knowledge.value.vary_symmetry = true;
        shop.retune(tuning);
        assert_ne!(cache(&kit), cache(&shop.kit(9, Advice::Calibrated)));
    }

    /// Workshops given one shelf share their caches of network outputs (the analysis
    /// engine's workers), including kits made before the sharing; others keep their own.
    #[test]
    fn workshops_on_one_shelf_share_their_caches() {
        let cache = |kit: &Kit| kit.knowledge.cache().map(|c| Arc::as_ptr(&c));
        let shelf = CacheShelf::default();
        let mut first = Workshop::new(NetChoice::BuiltIn, Tuning::default());
        let before = first.kit(9, Advice::Calibrated);
        first.share_caches(&shelf);
        let mut second = Workshop::new(NetChoice::BuiltIn, Tuning::default());
        second.share_caches(&shelf);
        let mut alone = Workshop::new(NetChoice::BuiltIn, Tuning::default());
        let shared = cache(&first.kit(9, Advice::Calibrated));
        assert!(shared.is_some());
        assert_eq!(shared, cache(&second.kit(9, Advice::Calibrated)));
        assert_ne!(shared, cache(&before));
        assert_ne!(shared, cache(&alone.kit(9, Advice::Calibrated)));
        // Another board's network has its own cache on the same shelf.
        assert_eq!(
            cache(&first.kit(13, Advice::Calibrated)),
            cache(&second.kit(13, Advice::Calibrated))
        );
        assert_ne!(cache(&first.kit(13, Advice::Calibrated)), shared);
    }

    /// A value network named by its old name (`weights/judge-9x9.hnet`), no longer there,
    /// is read from its new name in the same directory, so that scripts naming it keep
    /// working; a file of the old name that is there is read as it is, and other missing
    /// files stay errors.
    #[test]
    fn a_renamed_network_reads_by_its_old_name() {
        use crate::net::hnet::Weights;
        let weights = Path::new(env!("CARGO_MANIFEST_DIR")).join("weights");
        let shipped = load_network(&weights.join("judge-9x9.hnet")).expect("value-9x9.hnet");
        assert_eq!(
            Some(shipped.heads()),
            embedded_value_network(9).map(|n| n.heads())
        );
        let dir = std::env::temp_dir().join(format!("hoshi-renamed-nets-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let write = |name: &str, weights: Weights| {
            std::fs::write(dir.join(name), weights.to_bytes()).expect("a network file");
        };
        write(
            "value-19x19.hnet",
            Weights::random_with_value(3, 1, 2, 4, 1),
        );
        let load = |name: &str| load_network(&dir.join(name)).map(|n| n.heads().value);
        assert!(load("judge-19x19.hnet").expect("read by its new name"));
        write("judge-19x19.hnet", Weights::random(3, 1, 1));
        assert!(!load("judge-19x19.hnet").expect("read as it is"));
        for missing in ["judge-13x13.hnet", "value-13x13.hnet", "other.hnet"] {
            let error = load_network(&dir.join(missing)).unwrap_err();
            assert_eq!(error.file, dir.join(missing));
        }
        std::fs::remove_dir_all(&dir).expect("the temporary directory removed");
    }

    #[test]
    fn a_file_that_is_no_network_is_refused_with_its_name() {
        let dir = std::env::temp_dir().join(format!("hoshi-setup-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("notes.txt");
        std::fs::write(&file, b"komi 7.5").unwrap();
        let why = load_network(&file).unwrap_err().to_string();
        assert!(why.starts_with(&file.display().to_string()), "{why}");
        assert!(why.contains("not a network file"), "{why}");
        let missing = load_network(&dir.join("missing.hnet")).unwrap_err();
        assert!(missing.why.starts_with("cannot read it"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A KataGo model is told by its content, whatever its name; a damaged one, or one too
    /// big for the memory allowed, is refused with the file's name and what is wrong.
    #[test]
    fn katago_models_are_read_by_content_and_bad_ones_refused() {
        let dir = std::env::temp_dir().join(format!("hoshi-katago-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let packed = katago::EMBEDDED;
        let renamed = dir.join("b6c96.weights");
        std::fs::write(&renamed, packed).unwrap();
        let net = load_network(&renamed).expect("a KataGo model under any name");
        assert!(format!("{net:?}").starts_with("KataGo network g170-b6c96"));
        assert!(net.heads().value && net.heads().score_lead && net.heads().ownership);
        let small = load_network_with(&renamed, None, 1 << 20)
            .unwrap_err()
            .to_string();
        assert!(small.starts_with(&renamed.display().to_string()), "{small}");
        let expected = "its weights take 3 MiB, more than the 1 MiB allowed (--max-memory)";
        assert!(small.ends_with(expected), "{small}");
        let cut = dir.join("cut.bin.gz");
        std::fs::write(&cut, &packed[..packed.len() / 3]).unwrap();
        let why = load_network(&cut).unwrap_err().to_string();
        assert!(why.starts_with(&cut.display().to_string()), "{why}");
        assert!(
            why.contains("KataGo model file: gzip: cannot unpack"),
            "{why}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
