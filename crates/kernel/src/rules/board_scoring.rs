//! How the board scores, as the ruleset declares it: a Planet's majority (R15, R16) and the
//! major-planet bonus (R17) with the colour sets it counts; the game's scoring reads them.

use super::{unsupported, small, VALUE_LIMIT};
use crate::error::{KernelError};
use crate::limits::{MAX_PLAYERS, MAX_COLOURS};

/// The `majority` section as the bindings read it (`vocabulary.majority.Majority`, field by
/// field); its default is draft 7's R15 and R16, as a rules.yaml without the section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MajoritySpec {
    pub ties: String,
    pub row_step: i64,
    pub rank_percent: Vec<i64>,
    pub accident_vp: i64,
    pub free_cubes_take_a_row: bool,
}

impl Default for MajoritySpec {
    fn default() -> MajoritySpec {
        MajoritySpec { ties: "first_cube_further_back".into(), row_step: 1, rank_percent: vec![100], accident_vp: 0, free_cubes_take_a_row: true }
    }
}

/// Who ranks higher of two owners with as many cubes on a Planet (`majority.ties`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ties {
    /// R15: the owner whose lowest-numbered cube stands further back.
    FurtherBack,
    /// The owner whose lowest-numbered cube stands further forward.
    FurtherForward,
    /// Both take the better rank; the next rank skips (1, 1, 3).
    Shared,
}

/// How a Planet's majority ranks and reads its rows (`vocabulary.majority.Majority`): rank r
/// reads row k - (r - 1) x `row_step` and scores its VP x `rank_percent[r - 1]` / 100 rounded
/// down (the list's last entry repeated to one per owner), an accident row (VP 0) `accident_vp`,
/// a row below square 1 nothing; the virtual player ranks only when `free_cubes_take_a_row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Majority {
    pub ties: Ties,
    pub row_step: i32,
    pub rank_percent: [i32; MAX_PLAYERS + 1],
    pub accident_vp: i32,
    pub free_cubes_take_a_row: bool,
}

impl Default for Majority {
    /// Draft 7's R15 and R16.
    fn default() -> Majority {
        Majority { ties: Ties::FurtherBack, row_step: 1, rank_percent: [100; MAX_PLAYERS + 1], accident_vp: 0, free_cubes_take_a_row: true }
    }
}

impl Majority {
    pub(super) fn compile(spec: &MajoritySpec) -> Result<Majority, KernelError> {
        let ties = match spec.ties.as_str() {
            "first_cube_further_back" => Ties::FurtherBack,
            "first_cube_further_forward" => Ties::FurtherForward,
            "shared" => Ties::Shared,
            other => return Err(unsupported(format!("majority.ties: unknown tie rule {other:?}"))),
        };
        let last = *spec.rank_percent.last().ok_or_else(|| unsupported("majority.rank_percent is empty".into()))?;
        let mut rank_percent = [0; MAX_PLAYERS + 1];
        for (rank, percent) in rank_percent.iter_mut().enumerate() {
            *percent = small(*spec.rank_percent.get(rank).unwrap_or(&last), "majority.rank_percent", 100)?.max(0);
        }
        Ok(Majority {
            ties,
            row_step: small(spec.row_step, "majority.row_step", 1024)?.max(1),
            rank_percent,
            accident_vp: small(spec.accident_vp, "majority.accident_vp", VALUE_LIMIT)?,
            free_cubes_take_a_row: spec.free_cubes_take_a_row,
        })
    }

    /// What rank `rank` (1-based) scores with the rearmost cube on square `top` of `values`.
    pub fn vp(&self, values: &[i32], top: usize, rank: usize) -> i32 {
        let row = top as i64 - (rank as i64 - 1) * self.row_step as i64;
        if row < 1 {
            return 0;
        }
        match values[row as usize - 1] {
            0 => self.accident_vp,
            value => (value as i64 * self.rank_percent[rank - 1] as i64 / 100) as i32,
        }
    }
}

/// The `bonus` section as the bindings read it (`vocabulary.bonus.Bonus`, field by field); its
/// default is draft 7's R17, as a rules.yaml without the section.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BonusSpec {
    pub squares: String,
    pub formula: String,
    pub set_size: i64,
    pub set_vp: i64,
    pub vp_by_count: Vec<i64>,
}

impl Default for BonusSpec {
    fn default() -> BonusSpec {
        BonusSpec { squares: "all".into(), formula: "largest_groups".into(), set_size: 0, set_vp: 0, vp_by_count: Vec::new() }
    }
}

/// What a seat's cube counts per colour score (`bonus.formula`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Formula {
    /// R17: the largest count m times the number of colours at m.
    LargestGroups,
    /// `vp` for each complete set of one cube of each of `size` different colours, each cube in
    /// one set at most (ideas R4).
    DistinctColourSets { size: u32, vp: i32 },
    /// The VP of the largest count m: entry m - 1, counts past the table its last entry.
    VpByCount(Vec<i32>),
}

/// The major-planet bonus (R17; `vocabulary.bonus.Bonus`): which squares' cubes count toward
/// their Planet's colours, and the formula that scores a seat's counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bonus {
    pub normal: bool,
    pub special: bool,
    pub formula: Formula,
}

impl Default for Bonus {
    /// Draft 7's R17.
    fn default() -> Bonus {
        Bonus { normal: true, special: true, formula: Formula::LargestGroups }
    }
}

impl Bonus {
    pub(super) fn compile(spec: &BonusSpec) -> Result<Bonus, KernelError> {
        let (normal, special) = match spec.squares.as_str() {
            "all" => (true, true),
            "normal" => (true, false),
            "special" => (false, true),
            other => return Err(unsupported(format!("bonus.squares: unknown squares {other:?}"))),
        };
        let formula = match spec.formula.as_str() {
            "largest_groups" => Formula::LargestGroups,
            "distinct_colour_sets" => Formula::DistinctColourSets {
                size: small(spec.set_size, "bonus.formula.distinct_colour_sets.size", MAX_COLOURS as i64)?.max(1) as u32,
                vp: small(spec.set_vp, "bonus.formula.distinct_colour_sets.vp", VALUE_LIMIT)?,
            },
            "vp_by_count" if !spec.vp_by_count.is_empty() => Formula::VpByCount(
                spec.vp_by_count.iter().map(|&vp| small(vp, "bonus.formula.vp_by_count", VALUE_LIMIT)).collect::<Result<_, _>>()?,
            ),
            "vp_by_count" => return Err(unsupported("bonus.formula.vp_by_count is empty".into())),
            other => return Err(unsupported(format!("bonus.formula: unknown formula {other:?}"))),
        };
        Ok(Bonus { normal, special, formula })
    }

    /// The bonus of one seat's cube counts, one per colour. A cube on a Planet that counts
    /// toward several colours (P1) is in each of their counts, and `several` lists those cubes
    /// as (colour bits, cubes): the largest count reads it in every colour's group, a set holds
    /// it once (R4; Python's `Bonus.vp`).
    pub fn vp(&self, counts: &[u16], several: &[(u32, u16)]) -> i32 {
        if let Formula::DistinctColourSets { size, vp } = &self.formula {
            return vp * complete_sets(counts, *size, several) as i32; // no cube, no set
        }
        let most = counts.iter().copied().max().unwrap_or(0);
        if most == 0 {
            return 0;
        }
        match &self.formula {
            Formula::LargestGroups => most as i32 * counts.iter().filter(|&&c| c == most).count() as i32,
            Formula::DistinctColourSets { .. } => unreachable!("scored above"),
            Formula::VpByCount(table) => table[(most as usize).min(table.len()) - 1],
        }
    }
}

/// The colour indices of a set of colour bits, lowest first.
fn colours_of(mut bits: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let colour = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            colour
        })
    })
}

/// How many sets of one cube of each of `size` different colours `counts` make, each cube in one
/// set at most: the largest k for which the cubes can stand as colours with at most k of each
/// and size x k in all, `several`'s cubes as any one of their colours (the k that fit are 0, 1,
/// ..., the answer; Python's `bonus.complete_sets`).
pub fn complete_sets(counts: &[u16], size: u32, several: &[(u32, u16)]) -> u32 {
    let every = if counts.len() >= 32 { u32::MAX } else { (1u32 << counts.len()) - 1 };
    if several.iter().all(|&(bits, _)| bits & every == every) {
        // Each cube of one colour, or of every colour (P1: no choice to make): the bots' path,
        // `standing` counted in place. A cube of every colour is in each colour's count.
        let wild: u32 = several.iter().map(|&(_, cubes)| cubes as u32).sum();
        let (mut total, mut present) = (wild, 0u32);
        for &count in counts {
            let own = (count as u32).saturating_sub(wild);
            total += own;
            present += (own > 0) as u32;
        }
        if present + wild.min(counts.len() as u32 - present) < size {
            return 0; // not one set: too few colours (the loop's first step, read from the counts)
        }
        let mut sets = 0u32;
        while (sets + 1) * size <= total {
            let k = sets + 1;
            let (mut standing, mut room) = (0u32, 0u32);
            for &count in counts {
                let kept = (count as u32).saturating_sub(wild).min(k);
                standing += kept;
                room += k - kept;
            }
            if standing + wild.min(room) < size * k {
                break;
            }
            sets = k;
        }
        return sets;
    }
    matched_sets(counts, size, several)
}

/// `complete_sets` by matching: each cube of several colours seated as one of them in turn.
fn matched_sets(counts: &[u16], size: u32, several: &[(u32, u16)]) -> u32 {
    let mut own = [0i32; MAX_COLOURS];
    for (colour, &count) in counts.iter().enumerate() {
        own[colour] = count as i32;
    }
    for &(bits, cubes) in several {
        for colour in colours_of(bits) {
            own[colour] -= cubes as i32;
        }
    }
    let own = &own[..counts.len()];
    let mut sets = 0u32;
    while standing(own, several, sets + 1) >= size * (sets + 1) {
        sets += 1;
    }
    sets
}

/// How many cubes can stand as colours, at most `k` of each: every colour's own cubes up to k,
/// then the cubes of several colours in the room left (Python's `bonus._standing`).
fn standing(own: &[i32], several: &[(u32, u16)], k: u32) -> u32 {
    let mut room = [0u32; MAX_COLOURS];
    let mut standing = 0u32;
    for (colour, &count) in own.iter().enumerate() {
        let kept = (count.max(0) as u32).min(k);
        standing += kept;
        room[colour] = k - kept;
    }
    let room = &mut room[..own.len()];
    let every = if own.len() >= 32 { u32::MAX } else { (1u32 << own.len()) - 1 };
    if several.iter().all(|&(bits, _)| bits & every == every) {
        // P1: every colour, no choice to make.
        let cubes: u32 = several.iter().map(|&(_, cubes)| cubes as u32).sum();
        return standing + cubes.min(room.iter().sum());
    }
    let mut taken = vec![[0u16; MAX_COLOURS]; several.len()];
    for (group, &(_, cubes)) in several.iter().enumerate() {
        for _ in 0..cubes {
            if !seat_one(group, several, &mut taken, room, &mut 0) {
                break;
            }
            standing += 1;
        }
    }
    standing
}

/// One more cube of `group` stands as a colour: one with room, or one whose cube of another
/// group moves on to a colour of its own with room (an augmenting path; `seen`: colour bits).
fn seat_one(group: usize, several: &[(u32, u16)], taken: &mut [[u16; MAX_COLOURS]], room: &mut [u32], seen: &mut u32) -> bool {
    let colours = room.len();
    for colour in colours_of(several[group].0).filter(|&c| c < colours) {
        if *seen & 1 << colour != 0 {
            continue;
        }
        *seen |= 1 << colour;
        if room[colour] > 0 {
            room[colour] -= 1;
            taken[group][colour] += 1;
            return true;
        }
        for other in 0..several.len() {
            if taken[other][colour] > 0 && seat_one(other, several, taken, room, seen) {
                taken[other][colour] -= 1;
                taken[group][colour] += 1;
                return true;
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    #[test]
    fn sets_counted_in_place_equal_the_matching_for_cubes_of_one_or_every_colour() {
        let mut rng = Rng::new(7);
        for _ in 0..5000 {
            let colours = 1 + rng.below(6);
            let every = (1u32 << colours) - 1;
            let wild = if rng.below(2) == 0 { 0 } else { rng.below(5) as u16 };
            let several: Vec<(u32, u16)> = if wild == 0 { vec![] } else { vec![(every | 1 << 31, wild)] };
            let counts: Vec<u16> = (0..colours).map(|_| rng.below(9) as u16 + wild).collect();
            let size = 1 + rng.below(colours) as u32;
            assert_eq!(complete_sets(&counts, size, &several), matched_sets(&counts, size, &several), "{counts:?} {size} {several:?}");
        }
    }
}
