//! The survey's walk (R7, R8) and the options it gives, as in the Python engine's
//! `_walk`, `_walk_options`, `_next_planets` and `_direction_of`.

use crate::rules::{DIRECTION, REPEAT, SKIP};
use smallvec::SmallVec;

use crate::state::{Action, Actions, Kind, CLOCKWISE, COUNTER_CLOCKWISE};

/// Ring positions, inline (a walk places at most a survey count of cubes).
pub(crate) type Positions = SmallVec<[u8; 32]>;

/// The Planets the R8 walk puts cubes on: from `start`, skipping full ones, never twice in a
/// row. Written into `placed` (cleared first).
pub(crate) fn walk(rooms: &[i32], start: usize, count: i32, direction: i8, placed: &mut Positions) {
    placed.clear();
    let n = rooms.len() as i64;
    let mut room: [i32; crate::MAX_PLANETS] = [0; crate::MAX_PLANETS];
    room[..rooms.len()].copy_from_slice(rooms);
    let mut p = start;
    if room[p] <= 0 {
        return;
    }
    loop {
        placed.push(p as u8);
        room[p] -= 1;
        if placed.len() as i32 == count {
            return;
        }
        let mut next = None;
        for k in 1..n {
            let q = (p as i64 + k * direction as i64).rem_euclid(n) as usize;
            if room[q] > 0 {
                next = Some(q);
                break;
            }
        }
        match next {
            Some(q) => p = q,
            None => return, // only the Planet just surveyed has room: R8 stops the walk
        }
    }
}

fn sorted_prefix(walk: &[u8], count: usize, out: &mut Positions) {
    out.clear();
    out.extend_from_slice(&walk[..count]);
    out.sort_unstable();
}

/// The legal survey choices of R7: each start and each count the walk can place, no two with
/// the same outcome from one start; in the Python engine's order.
pub(crate) fn walk_options(rooms: &[i32], limit: i32, both_ways: bool, minimum: i32, out: &mut Actions) {
    out.clear();
    let starts = rooms.iter().filter(|&&room| room > 0).count() as i32;
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
        for (p, &room) in rooms.iter().enumerate() {
            if room > 0 {
                for count in least..=limit {
                    out.push(Action::survey(p as i32, count, CLOCKWISE));
                }
            }
        }
        return;
    }
    let mut clockwise = Positions::new();
    let mut counter = Positions::new();
    let mut most = 0usize;
    // The longest walk decides the least count; walks are recomputed per start below, which
    // is cheap next to the allocation a table of them would need.
    for (p, &room) in rooms.iter().enumerate() {
        if room > 0 {
            walk(rooms, p, limit, CLOCKWISE, &mut clockwise);
            most = most.max(clockwise.len());
            if both_ways {
                walk(rooms, p, limit, COUNTER_CLOCKWISE, &mut counter);
                most = most.max(counter.len());
            }
        }
    }
    let least = 1.max(minimum.min(most as i32)) as usize;
    if minimum.min(most as i32) == 0 {
        out.push(Action::survey(-1, 0, CLOCKWISE));
    }
    let (mut a, mut b) = (Positions::new(), Positions::new());
    for (p, &room) in rooms.iter().enumerate() {
        if room <= 0 {
            continue;
        }
        walk(rooms, p, limit, CLOCKWISE, &mut clockwise);
        for count in least..=clockwise.len() {
            out.push(Action::survey(p as i32, count as i32, CLOCKWISE));
        }
        if both_ways {
            walk(rooms, p, limit, COUNTER_CLOCKWISE, &mut counter);
            for count in least..=counter.len() {
                // Within one direction every count is a new outcome; against the clockwise
                // walk only the prefix of the same length can be the same multiset.
                if count <= clockwise.len() {
                    sorted_prefix(&clockwise, count, &mut a);
                    sorted_prefix(&counter, count, &mut b);
                    if a == b {
                        continue;
                    }
                }
                out.push(Action::survey(p as i32, count as i32, COUNTER_CLOCKWISE));
            }
        }
    }
}

/// Where the next cube of a cube-by-cube survey may go (skills lifting R8's limits).
pub(crate) fn next_planets(rooms: &[i32], last: i32, rules: u8, direction: i8, out: &mut Positions) {
    out.clear();
    let n = rooms.len();
    if last < 0 {
        out.extend((0..n).filter(|&p| rooms[p] > 0).map(|p| p as u8));
        return;
    }
    let last = last as usize;
    if rules & SKIP != 0 {
        out.extend((0..n).filter(|&p| rooms[p] > 0 && (p != last || rules & REPEAT != 0)).map(|p| p as u8));
        return;
    }
    // Repeat without skipping: stay on the Planet just surveyed, or walk on to the next one.
    if rooms[last] > 0 {
        out.push(last as u8);
    }
    let both: [i8; 2] = [CLOCKWISE, COUNTER_CLOCKWISE];
    let steps: &[i8] = if direction != 0 {
        std::slice::from_ref(&direction)
    } else if rules & DIRECTION != 0 {
        &both
    } else {
        &both[..1]
    };
    for &step in steps {
        for k in 1..n as i64 {
            let q = (last as i64 + k * step as i64).rem_euclid(n as i64) as u8;
            if rooms[q as usize] > 0 {
                if !out.contains(&q) {
                    out.push(q);
                }
                break;
            }
        }
    }
    out.sort_unstable();
}

/// The walk direction a step from `last` to `target` commits the survey to.
pub(crate) fn direction_of(last: usize, target: usize, rooms: &[i32]) -> i8 {
    let n = rooms.len();
    for k in 1..n {
        let q = (last + k) % n;
        if rooms[q] > 0 {
            return if q == target { CLOCKWISE } else { COUNTER_CLOCKWISE };
        }
    }
    CLOCKWISE
}

/// Cube-by-cube survey options: each Planet the next cube may go to, then stopping.
pub(crate) fn step_options(steps: &[u8], placed: i32, minimum: i32, out: &mut Actions) {
    out.clear();
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

    fn walk_of(rooms: &[i32], start: usize, count: i32, direction: i8) -> Vec<u8> {
        let mut out = Positions::new();
        walk(rooms, start, count, direction, &mut out);
        out.to_vec()
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
        let mut out = Actions::new();
        walk_options(&[1, 1, 1], 2, false, 0, &mut out);
        let listed: Vec<(i16, i16)> = out.iter().map(|a| (a.target, a.count)).collect();
        assert_eq!(listed, vec![(-1, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 1), (2, 2)]);
    }

    #[test]
    fn r7_options_count_only_what_the_walk_can_place() {
        let mut out = Actions::new();
        // Only Planet 1 has room: one cube, never two in a row (R8).
        walk_options(&[0, 3, 0], 3, false, 0, &mut out);
        let listed: Vec<(i16, i16)> = out.iter().map(|a| (a.target, a.count)).collect();
        assert_eq!(listed, vec![(-1, 0), (1, 1)]);
    }

    #[test]
    fn both_ways_drops_a_counter_clockwise_walk_with_the_same_outcome() {
        let mut out = Actions::new();
        walk_options(&[1, 1], 2, true, 0, &mut out);
        // From 0 both ways reach {0, 1}: the counter-clockwise copies are dropped.
        assert!(out.iter().all(|a| a.direction == CLOCKWISE), "{out:?}");
        walk_options(&[1, 1, 1], 2, true, 0, &mut out);
        assert!(out.iter().any(|a| a.direction == COUNTER_CLOCKWISE && a.count == 2));
        assert!(!out.iter().any(|a| a.direction == COUNTER_CLOCKWISE && a.count == 1));
    }

    #[test]
    fn next_planets_under_repeat_and_skip() {
        let mut out = Positions::new();
        next_planets(&[1, 1, 0, 1], 1, REPEAT, 0, &mut out);
        assert_eq!(out.as_slice(), &[1, 3]);
        next_planets(&[1, 1, 0, 1], 1, SKIP, 0, &mut out);
        assert_eq!(out.as_slice(), &[0, 3]);
        next_planets(&[1, 1, 0, 1], 1, SKIP | REPEAT, 0, &mut out);
        assert_eq!(out.as_slice(), &[0, 1, 3]);
        next_planets(&[1, 1, 0, 1], 1, REPEAT | DIRECTION, 0, &mut out);
        assert_eq!(out.as_slice(), &[0, 1, 3]);
        assert_eq!(direction_of(1, 3, &[1, 1, 0, 1]), CLOCKWISE);
        assert_eq!(direction_of(1, 0, &[1, 1, 0, 1]), COUNTER_CLOCKWISE);
    }
}
