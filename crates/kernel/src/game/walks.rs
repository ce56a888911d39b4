//! The survey's walk (R7, R8) and the options it gives, as in the Python engine's
//! `_walk`, `_walk_options`, `_next_planets` and `_direction_of`.
//!
//! The Planets with room are a bit set (`State::open`, bit `p` for ring position `p`), so the
//! next Planet with room is found with bit operations instead of a scan of the ring.

use crate::rules::{COUNTER, DIRECTION, NO_SKIP_LIMIT, REPEAT, SKIP};
use smallvec::SmallVec;

use crate::state::{empty, Action, Actions, Kind, CLOCKWISE, COUNTER_CLOCKWISE};
use crate::limits::MAX_PLANETS;

/// Ring positions, inline (a walk places at most a survey count of cubes).
pub(crate) type Positions = SmallVec<[u8; 32]>;
/// Empty normal squares per ring position (`State::rooms`).
pub(crate) type Rooms = [u16; MAX_PLANETS];

/// The ring positions in the bit set `set`, lowest first.
pub(crate) fn positions(mut set: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let p = set.trailing_zeros() as usize;
            set &= set - 1;
            p
        })
    })
}

/// The members of a 32-bit set (colour indices), lowest first.
pub(crate) fn positions32(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let p = set.trailing_zeros() as usize;
            set &= set - 1;
            p
        })
    })
}

/// The first Planet of `open` met going `direction` from `p` (R4), `p` itself left out.
fn next_open(open: u16, p: usize, direction: i8) -> Option<usize> {
    let others = open & !(1 << p);
    if others == 0 {
        return None;
    }
    let after = others & !((2u32 << p) - 1) as u16; // positions past p
    let before = others & ((1u32 << p) - 1) as u16; // positions short of p
    Some(if direction == CLOCKWISE {
        (if after != 0 { after } else { before }).trailing_zeros() as usize
    } else {
        15 - (if before != 0 { before } else { after }).leading_zeros() as usize
    })
}

/// The R8 walk from `start`, each Planet it puts a cube on passed to `place`: skipping full
/// ones, never twice in a row; its length.
fn walk_with(rooms: &Rooms, open: u16, start: usize, count: i32, direction: i8, mut place: impl FnMut(usize)) -> usize {
    if open & (1 << start) == 0 || count <= 0 {
        return 0;
    }
    let mut room = *rooms;
    let (mut open, mut p, mut placed) = (open, start, 0usize);
    loop {
        place(p);
        placed += 1;
        room[p] -= 1;
        if room[p] == 0 {
            open &= !(1 << p);
        }
        if placed as i32 == count {
            return placed;
        }
        match next_open(open, p, direction) {
            Some(q) => p = q,
            None => return placed, // only the Planet just surveyed has room: R8 stops the walk
        }
    }
}

/// The Planets the R8 walk puts cubes on, written into `placed` (cleared first).
pub(crate) fn walk(rooms: &Rooms, open: u16, start: usize, count: i32, direction: i8, placed: &mut Positions) {
    empty(placed);
    walk_with(rooms, open, start, count, direction, |p| placed.push(p as u8));
}

/// One Planet's count in the difference of two walks' prefixes; `unequal` counts the Planets
/// where they differ, so the two prefixes are the same multiset exactly when it is 0.
fn tally(difference: &mut [i16; MAX_PLANETS], unequal: &mut u32, p: usize, by: i16) {
    let before = difference[p];
    difference[p] += by;
    if before == 0 {
        *unequal += 1;
    } else if difference[p] == 0 {
        *unequal -= 1;
    }
}

/// The legal survey choices of R7: each start and each count the walk can place, no two with
/// the same outcome from one start; in the Python engine's order. Only Planets of `starts`
/// are offered as starts (P5's `no_survey_start` leaves some out); the walks and the least
/// count are read over every Planet with room, as if the options were filtered afterwards.
pub(crate) fn walk_options(rooms: &Rooms, open: u16, starts_allowed: u16, limit: i32, both_ways: bool, minimum: i32, out: &mut Actions) {
    empty(out);
    let starts = open.count_ones() as i32;
    if limit <= 0 || starts == 0 {
        out.push(Action::survey(-1, 0, CLOCKWISE));
        return;
    }
    if !both_ways && starts >= limit {
        // Enough Planets with room: every walk places `limit` cubes on distinct Planets.
        let least = 1.max(minimum.min(limit));
        if minimum == 0 {
            out.push(Action::survey(-1, 0, CLOCKWISE));
        }
        out.reserve((starts * (limit - least + 1)) as usize);
        out.extend(positions(open & starts_allowed).flat_map(|p| (least..limit + 1).map(move |count| Action::survey(p as i32, count, CLOCKWISE))));
        return;
    }
    // The least count is the survey minimum, or the longest walk when that is shorter; a
    // walk from a Planet with room places at least one cube, so a minimum of 0 or 1 needs no
    // walk to know it. Lengths from each start are kept for the options below.
    let mut lengths = [(0u16, 0u16); MAX_PLANETS]; // clockwise, counter-clockwise, from each start
    let mut most = 1usize;
    if minimum > 1 || !both_ways {
        for p in positions(open) {
            let clockwise = walk_with(rooms, open, p, limit, CLOCKWISE, |_| ());
            let counter = if both_ways && minimum > 1 { walk_with(rooms, open, p, limit, COUNTER_CLOCKWISE, |_| ()) } else { 0 };
            lengths[p] = (clockwise as u16, counter as u16); // at most a hand of cubes (R13)
            most = most.max(clockwise).max(counter);
        }
    }
    let least = 1.max(minimum.min(most as i32)) as usize;
    if minimum.min(most as i32) == 0 {
        out.push(Action::survey(-1, 0, CLOCKWISE));
    }
    let (mut clockwise, mut counter) = (Positions::new(), Positions::new());
    for p in positions(open & starts_allowed) {
        if !both_ways {
            let length = lengths[p].0 as usize;
            out.extend((least..length + 1).map(|count| Action::survey(p as i32, count as i32, CLOCKWISE)));
            continue;
        }
        walk(rooms, open, p, limit, CLOCKWISE, &mut clockwise);
        walk(rooms, open, p, limit, COUNTER_CLOCKWISE, &mut counter);
        out.extend((least..clockwise.len() + 1).map(|count| Action::survey(p as i32, count as i32, CLOCKWISE)));
        // Within one direction every count is a new outcome; against the clockwise walk only
        // the prefix of the same length can be the same multiset.
        let mut difference = [0i16; MAX_PLANETS];
        let mut unequal = 0u32;
        for count in 1..counter.len() + 1 {
            let same = count <= clockwise.len() && {
                tally(&mut difference, &mut unequal, clockwise[count - 1] as usize, 1);
                tally(&mut difference, &mut unequal, counter[count - 1] as usize, -1);
                unequal == 0
            };
            if count >= least && !same {
                out.push(Action::survey(p as i32, count as i32, COUNTER_CLOCKWISE));
            }
        }
    }
}

/// The directions a cube-by-cube survey may walk on in: the one it took, else either way
/// (`choose_direction`), counter-clockwise (forced), or clockwise (R8); Python's `_ways`.
pub(crate) fn ways(rules: u8, direction: i8) -> &'static [i8] {
    const BOTH: [i8; 2] = [CLOCKWISE, COUNTER_CLOCKWISE];
    if direction == CLOCKWISE {
        &BOTH[..1]
    } else if direction == COUNTER_CLOCKWISE {
        &BOTH[1..]
    } else if rules & DIRECTION != 0 {
        &BOTH
    } else if rules & COUNTER != 0 {
        &BOTH[1..]
    } else {
        &BOTH[..1]
    }
}

/// Where the next cube of a cube-by-cube survey may go after `last` (walk rules changed).
pub(crate) fn next_planets(open: u16, last: i32, rules: u8, direction: i8, skips: i32, out: &mut Positions) {
    empty(out);
    let last = last as usize;
    if rules & SKIP != 0 && skips == NO_SKIP_LIMIT {
        let allowed = if rules & REPEAT != 0 { open } else { open & !(1 << last) };
        out.extend(positions(allowed).map(|p| p as u8));
        return;
    }
    // Stay on the Planet just surveyed (with repeat), or walk on to the next Planet with room,
    // passing over at most `skips` more with room (a limited skip).
    let mut allowed = if rules & REPEAT != 0 { open & (1 << last) } else { 0 };
    let reach = if rules & SKIP != 0 { 1 + skips.max(0) } else { 1 };
    for &way in ways(rules, direction) {
        let (mut left, mut p) = (open & !(1 << last), last);
        for _ in 0..reach {
            match next_open(left, p, way) {
                Some(q) => {
                    allowed |= 1 << q;
                    left &= !(1 << q);
                    p = q;
                }
                None => break,
            }
        }
    }
    out.extend(positions(allowed).map(|p| p as u8));
}

/// The Planets with room (`open`) a step from `last` to `target` passes over walking `way`
/// around a ring of `n`.
pub(crate) fn passed(open: u16, n: usize, last: usize, target: usize, way: i8) -> u32 {
    let mut passed = 0;
    let mut q = last;
    loop {
        q = if way == CLOCKWISE { (q + 1) % n } else { (q + n - 1) % n };
        if q == target || q == last {
            return passed;
        }
        passed += (open >> q) as u32 & 1;
    }
}

/// The walk direction a step from `last` to `target` commits the survey to.
pub(crate) fn direction_of(last: usize, target: usize, open: u16) -> i8 {
    match next_open(open, last, CLOCKWISE) {
        Some(q) if q != target => COUNTER_CLOCKWISE,
        _ => CLOCKWISE,
    }
}

/// Cube-by-cube survey options: each Planet the next cube may go to, then stopping.
pub(crate) fn step_options(steps: &[u8], placed: i32, minimum: i32, out: &mut Actions) {
    empty(out);
    if steps.is_empty() {
        if placed == 0 {
            out.push(Action::new(Kind::SurveyStop, -1));
        }
        return;
    }
    out.extend(steps.iter().map(|&p| Action::new(Kind::SurveyStep, p as i32)));
    if placed >= minimum {
        out.push(Action::new(Kind::SurveyStop, -1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn open_of(rooms: &[u16]) -> u16 {
        rooms.iter().enumerate().filter(|(_, &r)| r > 0).fold(0, |set, (p, _)| set | 1 << p)
    }

    fn ring(rooms: &[u16]) -> Rooms {
        let mut ring = [0; MAX_PLANETS];
        ring[..rooms.len()].copy_from_slice(rooms);
        ring
    }

    fn walk_of(rooms: &[u16], start: usize, count: i32, direction: i8) -> Vec<u8> {
        let mut out = Positions::new();
        walk(&ring(rooms), open_of(rooms), start, count, direction, &mut out);
        out.to_vec()
    }

    fn options_of(rooms: &[u16], limit: i32, both_ways: bool, minimum: i32) -> Actions {
        options_from(rooms, u16::MAX, limit, both_ways, minimum)
    }

    fn options_from(rooms: &[u16], starts_allowed: u16, limit: i32, both_ways: bool, minimum: i32) -> Actions {
        let mut out = Actions::new();
        walk_options(&ring(rooms), open_of(rooms), starts_allowed, limit, both_ways, minimum, &mut out);
        out
    }

    #[test]
    fn r8_walk_skips_full_planets_and_laps_the_ring() {
        assert_eq!(walk_of(&[1, 0, 2], 0, 3, CLOCKWISE), vec![0, 2]);
        assert_eq!(walk_of(&[2, 0, 2], 2, 4, CLOCKWISE), vec![2, 0, 2, 0]);
        assert_eq!(walk_of(&[2, 0, 2], 2, 3, COUNTER_CLOCKWISE), vec![2, 0, 2]);
    }

    #[test]
    fn r8_walk_stops_when_only_the_planet_just_surveyed_has_room() {
        assert_eq!(walk_of(&[3, 0, 0], 0, 3, CLOCKWISE), vec![0]);
        assert_eq!(walk_of(&[0, 0, 0], 0, 3, CLOCKWISE), Vec::<u8>::new());
    }

    #[test]
    fn r7_options_with_room_everywhere_are_each_start_and_count() {
        let listed: Vec<(i16, i16)> = options_of(&[1, 1, 1], 2, false, 0).iter().map(|a| (a.target, a.count)).collect();
        assert_eq!(listed, vec![(-1, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 1), (2, 2)]);
    }

    #[test]
    fn r7_options_count_only_what_the_walk_can_place() {
        // Only Planet 1 has room: one cube, never two in a row (R8).
        let listed: Vec<(i16, i16)> = options_of(&[0, 3, 0], 3, false, 0).iter().map(|a| (a.target, a.count)).collect();
        assert_eq!(listed, vec![(-1, 0), (1, 1)]);
    }

    #[test]
    fn both_ways_drops_a_counter_clockwise_walk_with_the_same_outcome() {
        let out = options_of(&[1, 1], 2, true, 0);
        // From 0 both ways reach {0, 1}: the counter-clockwise copies are dropped.
        assert!(out.iter().all(|a| a.direction == CLOCKWISE), "{out:?}");
        let out = options_of(&[1, 1, 1], 2, true, 0);
        assert!(out.iter().any(|a| a.direction == COUNTER_CLOCKWISE && a.count == 2));
        assert!(!out.iter().any(|a| a.direction == COUNTER_CLOCKWISE && a.count == 1));
    }

    #[test]
    fn next_planets_under_repeat_and_skip() {
        let rooms = [1, 1, 0, 1];
        let open = open_of(&rooms);
        let mut out = Positions::new();
        next_planets(open, 1, REPEAT, 0, NO_SKIP_LIMIT, &mut out);
        assert_eq!(out.as_slice(), &[1, 3]);
        next_planets(open, 1, SKIP, 0, NO_SKIP_LIMIT, &mut out);
        assert_eq!(out.as_slice(), &[0, 3]);
        next_planets(open, 1, SKIP | REPEAT, 0, NO_SKIP_LIMIT, &mut out);
        assert_eq!(out.as_slice(), &[0, 1, 3]);
        next_planets(open, 1, REPEAT | DIRECTION, 0, NO_SKIP_LIMIT, &mut out);
        assert_eq!(out.as_slice(), &[0, 1, 3]);
        assert_eq!(direction_of(1, 3, open), CLOCKWISE);
        assert_eq!(direction_of(1, 0, open), COUNTER_CLOCKWISE);
    }

    /// The ring scans the bit sets replace, as the Python engine's `_walk` and `_walk_options`
    /// read: the reference the bit-set versions are held to.
    mod scan {
        use super::*;

        pub fn walk(rooms: &[u16], start: usize, count: i32, direction: i8) -> Vec<u8> {
            let n = rooms.len() as i64;
            let mut room = rooms.to_vec();
            let mut placed = Vec::new();
            let mut p = start;
            if room[p] == 0 {
                return placed;
            }
            loop {
                placed.push(p as u8);
                room[p] -= 1;
                if placed.len() as i32 == count {
                    return placed;
                }
                match (1..n).map(|k| (p as i64 + k * direction as i64).rem_euclid(n) as usize).find(|&q| room[q] > 0) {
                    Some(q) => p = q,
                    None => return placed,
                }
            }
        }

        pub fn walk_options(rooms: &[u16], limit: i32, both_ways: bool, minimum: i32) -> Vec<Action> {
            let starts: Vec<usize> = (0..rooms.len()).filter(|&p| rooms[p] > 0).collect();
            if limit <= 0 || starts.is_empty() {
                return vec![Action::survey(-1, 0, CLOCKWISE)];
            }
            let ways: &[i8] = if both_ways { &[CLOCKWISE, COUNTER_CLOCKWISE] } else { &[CLOCKWISE] };
            let most = starts.iter().flat_map(|&p| ways.iter().map(move |&d| walk(rooms, p, limit, d).len())).max().unwrap();
            let least = 1.max(minimum.min(most as i32)) as usize;
            let mut out = Vec::new();
            if minimum.min(most as i32) == 0 {
                out.push(Action::survey(-1, 0, CLOCKWISE));
            }
            for &p in &starts {
                let clockwise = walk(rooms, p, limit, CLOCKWISE);
                for count in least..=clockwise.len() {
                    out.push(Action::survey(p as i32, count as i32, CLOCKWISE));
                }
                if both_ways {
                    let counter = walk(rooms, p, limit, COUNTER_CLOCKWISE);
                    for count in least..=counter.len() {
                        if count <= clockwise.len() {
                            let (mut a, mut b) = (clockwise[..count].to_vec(), counter[..count].to_vec());
                            a.sort_unstable();
                            b.sort_unstable();
                            if a == b {
                                continue;
                            }
                        }
                        out.push(Action::survey(p as i32, count as i32, COUNTER_CLOCKWISE));
                    }
                }
            }
            out
        }
    }

    #[test]
    fn bit_set_walks_and_options_equal_the_ring_scan_on_random_rings_and_allowed_starts() {
        let mut rng = Rng::new(7);
        for _ in 0..20_000 {
            let n = 1 + rng.below(MAX_PLANETS);
            let rooms: Vec<u16> = (0..n).map(|_| if rng.below(3) == 0 { 0 } else { rng.below(4) as u16 }).collect();
            let limit = rng.below(8) as i32;
            let (both_ways, minimum) = (rng.below(2) == 1, rng.below(3) as i32);
            // Some starts left out (P5): the scan's options from the other starts, in its order.
            let allowed = if rng.below(2) == 0 { u16::MAX } else { rng.below(1 << n) as u16 };
            let expected: Vec<Action> = scan::walk_options(&rooms, limit, both_ways, minimum).into_iter().filter(|a| a.target < 0 || allowed & (1 << a.target) != 0).collect();
            assert_eq!(options_from(&rooms, allowed, limit, both_ways, minimum).to_vec(), expected, "{rooms:?} {allowed:b} {limit} {both_ways} {minimum}");
            let start = rng.below(n);
            for direction in [CLOCKWISE, COUNTER_CLOCKWISE] {
                assert_eq!(walk_of(&rooms, start, limit.max(1), direction), scan::walk(&rooms, start, limit.max(1), direction));
            }
        }
    }
}
