//! A game state on plain structs: small fixed arrays indexed by seat, ring position and crew
//! slot, and one buffer for every square of the dealt Planets. Cloning one costs a memcpy and
//! two small allocations, which is what the search does on every node.

use smallvec::SmallVec;

use crate::rules::SETUP_CARD;
use crate::limits::{MAX_CREW, MAX_PLANETS, MAX_PLAYERS, MAX_QUEUE};

/// Which decision an action answers, and the stages of play: declared in the contract.
pub use crate::contract::{Kind, Stage};

/// The squares of the dealt Planets; draft 7's seven Planets fit inline.
pub type Board = SmallVec<[i8; 112]>;
/// Legal actions; a survey with room everywhere offers about thirty.
pub type Actions = SmallVec<[Action; 40]>;
/// Pending effects, a stack.
pub type PendingStack = SmallVec<[Pending; 4]>;

/// Empty `list` in one store while it is inline: `SmallVec::clear` truncates item by item,
/// which for a list of thirty survey options costs more than writing the next list.
pub(crate) fn empty<A: smallvec::Array>(list: &mut SmallVec<A>) {
    if list.spilled() {
        list.clear();
    } else {
        *list = SmallVec::new();
    }
}

/// `list` made a copy of `from` in one store (`SmallVec::clone_from` copies item by item).
fn copy_list<A: smallvec::Array>(list: &mut SmallVec<A>, from: &[A::Item])
where
    A::Item: Copy,
{
    empty(list);
    list.extend_from_slice(from);
}

pub const CLOCKWISE: i8 = 1;
pub const COUNTER_CLOCKWISE: i8 = -1;

/// One decision: `target` is a crew slot, ring position, seat or option index by `kind`;
/// `count` and `direction` belong to a whole-walk survey (R7, R8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    pub kind: Kind,
    pub target: i16,
    pub count: i16,
    pub direction: i8,
}

impl Action {
    pub const fn new(kind: Kind, target: i32) -> Action {
        Action { kind, target: target as i16, count: 0, direction: CLOCKWISE }
    }

    pub const fn survey(target: i32, count: i32, direction: i8) -> Action {
        Action { kind: Kind::Survey, target: target as i16, count: count as i16, direction }
    }
}

/// An effect waiting to resolve: its node, the crew slot whose skill it is (the node may be of
/// another card's skill, applied by the slot with `use_skill`), the chooser's seat and the
/// steps left (a counted effect resolves once per cube).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pending {
    pub node: u16,
    pub slot: u8,
    pub seat: u8,
    pub remaining: u32,
}

/// `Pending::slot` of a setup step, which no crew holds (the Python engine's slot -1).
pub const NO_SLOT: u8 = u8::MAX;

/// The Python engine's `Pending.slot` of a pending effect: -1 for a setup step.
pub fn pending_slot(p: &Pending) -> i64 {
    if p.slot == NO_SLOT {
        -1
    } else {
        p.slot as i64
    }
}

/// The Python engine's `Pending.card` of a pending effect whose node `card` holds: -2 for a
/// setup step (`SETUP_CARD`), -1 for the slot's own skill, else the card whose skill the slot
/// applies (`use_skill`).
pub fn pending_card(s: &State, p: &Pending, card: u16) -> i64 {
    if card == SETUP_CARD {
        -2
    } else if card == s.crew[p.slot as usize] {
        -1
    } else {
        card as i64
    }
}

/// Owner number of a free cube on a Planet: the virtual player (R15).
pub const FREE_CUBE: i8 = -1;
pub const NO_WORKER: i8 = -1;


/// One moment of a game (the Python engine's `State`, field for field).
///
/// `board` holds every square of the dealt Planets: Planet `p`'s normal squares start at
/// `track_start[p]` (square 1 first, R2) and its special square's cubes at `special_start[p]`;
/// `track_fill` and `special_fill` count the cubes there. Player cubes on crews are kept as a
/// count per (slot, owner): the rules only count them (R6). `pending` is a stack whose last
/// element resolves first; `legal` are the options of the decision the state waits for.
///
/// The last fields are kept by `Game` as the board changes, so that listing the legal actions
/// and scoring never rescan the whole board. `rooms` (empty normal squares per Planet, R2),
/// `open` (bit `p` set when Planet `p` has room) and `free_crew` (bit `slot` set when no worker
/// is on the crew, R5) are kept by every step. The scores are kept lazily, since a playout
/// places many cubes between two looks at the score: `majority` (each seat's R15-R16 VP) and
/// the R17 bonus as `colour_most` (the seat's largest cube count of one colour) times
/// `colour_ties` (the colours at that count) are those of the board when each Planet `p`'s
/// track held `scored_fill[p]` cubes and its special square `scored_special[p]`; `unscored`
/// has bit `p` set when Planet `p` has had cubes since (`Game::update_scores` brings them up to date). All follow from the other fields
/// (`Game::recount` derives them), and code that writes the board directly calls it after.
#[derive(Debug, PartialEq, Eq)]
pub struct State {
    pub players: u8,
    pub planet_count: u8,
    pub crew_count: u8,
    pub planets: [u16; MAX_PLANETS],
    pub crew: [u16; MAX_CREW],
    pub track_start: [u16; MAX_PLANETS],
    pub track_fill: [u16; MAX_PLANETS],
    pub special_start: [u16; MAX_PLANETS],
    pub special_fill: [u16; MAX_PLANETS],
    pub board: Board,
    pub crew_free: [i32; MAX_CREW],
    pub crew_cubes: [[u16; MAX_PLAYERS]; MAX_CREW],
    pub workers: [i8; MAX_CREW],
    pub hands: [i32; MAX_PLAYERS],
    pub vp: [i32; MAX_PLAYERS],
    pub removed: [i32; MAX_PLAYERS],
    pub stock: i32,
    pub round: u32,
    pub start_player: u8,
    pub turn: u8,
    pub stage: Stage,
    pub chosen: [u8; MAX_CREW],
    pub chosen_len: u8,
    pub pending: PendingStack,
    pub survey_rules: u8,
    pub survey_bonus: i32,
    pub survey_placed: i32,
    pub survey_last: i32,
    pub survey_direction: i8,
    /// Planets with room a cube-by-cube survey may still pass over, -1 without a limit.
    pub survey_skips: i32,
    pub surveyed: u32,
    /// Why the game ended (R10): bit i for the ruleset's i-th end condition, then the round
    /// limit's bit (`End::round_limit`); 0 while the game goes on.
    pub triggers: u8,
    pub legal: Actions,
    pub rooms: [u16; MAX_PLANETS],
    pub open: u16,
    pub free_crew: u16,
    pub majority: [i32; MAX_PLAYERS],
    pub colour_most: [u16; MAX_PLAYERS],
    pub colour_ties: [u8; MAX_PLAYERS],
    pub scored_fill: [u16; MAX_PLANETS],
    pub scored_special: [u16; MAX_PLANETS],
    pub unscored: u16,
    /// True while a planet ability resolves: its acts set off no ability (no chains). False
    /// between steps.
    pub firing: bool,
    // -- lasting effects of skills (the Python engine's last fields) --
    /// Bit `slot` set when a skill closed the crew until the round ends (`close_crew`).
    pub closed: u16,
    /// Per seat, how long no other player's skill may move its cubes (`protect_cubes`):
    /// 0, `PROTECTED_TURN` or `PROTECTED_ROUND`.
    pub protected: [u8; MAX_PLAYERS],
    /// Per crew slot, the crew card whose skill it applies this round as its own (`use_skill`;
    /// -1 none), whose later effects queue with the slot's own.
    pub borrowed: [i16; MAX_CREW],
    /// Per seat, the free cubes it took from the stock as cubes of its own
    /// (`take_free_cubes`, idea R8): a seat's cubes number `cubes_per_player` plus these.
    pub taken: [i32; MAX_PLAYERS],
    // -- the crew cards not dealt (R11's replacement; the Python engine's `queue`) --
    /// The crew cards not dealt, in the order they replace a crew that leaves the crew area at a
    /// round's end (`UnpickedCrews::replaced`); `queue_len` of them, the first at 0.
    pub queue: [u16; MAX_QUEUE],
    pub queue_len: u8,
}


// `open`, `free_crew` and `surveyed` are bit sets over ring positions and crew slots.
const _: () = assert!(MAX_PLANETS <= 16 && MAX_CREW <= 16);

impl Clone for State {
    /// The inline buffers copied as bytes (`SmallVec`'s own `clone` copies item by item, and
    /// the search clones a state per node); every other field is `Copy`.
    fn clone(&self) -> State {
        State {
            board: Board::from_slice(&self.board),
            pending: PendingStack::from_slice(&self.pending),
            legal: Actions::from_slice(&self.legal),
            ..*self
        }
    }

    /// In place: `*self = source.clone()` builds the state aside and moves it in, twice the
    /// bytes.
    fn clone_from(&mut self, source: &State) {
        self.copy_position(source);
        copy_list(&mut self.legal, &source.legal);
    }
}

impl State {
    /// `source` copied in place but for its legal actions (left as they were): for a state
    /// about to be stepped, since every step writes the legal actions anew before reading them.
    /// Destructured whole, so a new field cannot be missed.
    pub fn copy_position(&mut self, source: &State) {
        let State {
            players, planet_count, crew_count, planets, crew, track_start, track_fill, special_start,
            special_fill, board, crew_free, crew_cubes, workers, hands, vp, removed, stock, round,
            start_player, turn, stage, chosen, chosen_len, pending, survey_rules, survey_bonus, survey_placed,
            survey_last, survey_direction, survey_skips, surveyed, triggers, legal: _, rooms, open, free_crew, majority,
            colour_most, colour_ties, scored_fill, scored_special, unscored, firing: _,
            closed, protected, borrowed, taken, queue, queue_len,
        } = source;
        copy_list(&mut self.board, board);
        copy_list(&mut self.pending, pending);
        self.players = *players; self.planet_count = *planet_count; self.crew_count = *crew_count;
        self.planets = *planets; self.crew = *crew; self.track_start = *track_start;
        self.track_fill = *track_fill; self.special_start = *special_start; self.special_fill = *special_fill;
        self.crew_free = *crew_free; self.crew_cubes = *crew_cubes; self.workers = *workers;
        self.hands = *hands; self.vp = *vp; self.removed = *removed; self.stock = *stock; self.round = *round;
        self.start_player = *start_player; self.turn = *turn; self.stage = *stage; self.chosen = *chosen;
        self.chosen_len = *chosen_len; self.survey_rules = *survey_rules; self.survey_bonus = *survey_bonus;
        self.survey_placed = *survey_placed; self.survey_last = *survey_last;
        self.survey_direction = *survey_direction; self.survey_skips = *survey_skips; self.surveyed = *surveyed; self.triggers = *triggers;
        self.rooms = *rooms; self.open = *open; self.free_crew = *free_crew; self.majority = *majority;
        self.colour_most = *colour_most; self.colour_ties = *colour_ties; self.scored_fill = *scored_fill;
        self.scored_special = *scored_special; self.unscored = *unscored;
        self.closed = *closed; self.protected = *protected; self.borrowed = *borrowed; self.taken = *taken;
        self.queue = *queue; self.queue_len = *queue_len;
    }
}

impl State {
    /// The owners on Planet `p`'s normal squares, square 1 first.
    pub fn track(&self, p: usize) -> &[i8] {
        let start = self.track_start[p] as usize;
        &self.board[start..start + self.track_fill[p] as usize]
    }

    /// The owners on Planet `p`'s special square (placed first first) when `special`, else on its
    /// track (square 1 first): where `return_cube` and `move_cube` take a cube.
    pub fn cubes_on(&self, p: usize, special: bool) -> &[i8] {
        if special {
            self.special(p)
        } else {
            self.track(p)
        }
    }

    /// The owners on Planet `p`'s special square.
    pub fn special(&self, p: usize) -> &[i8] {
        let start = self.special_start[p] as usize;
        &self.board[start..start + self.special_fill[p] as usize]
    }

    pub fn chosen(&self) -> &[u8] {
        &self.chosen[..self.chosen_len as usize]
    }

    /// The seat whose turn it is (not the same as the deciding seat at round end).
    pub fn turn_seat(&self) -> usize {
        (self.start_player as usize + self.turn as usize) % self.players as usize
    }

    pub fn is_over(&self) -> bool {
        self.stage == Stage::Over
    }
}

#[cfg(test)]
mod tests {
    use crate::fixtures::draft_like;
    use crate::rng::Rng;

    /// A slot that held another game's state becomes, by `clone_from`, the clone, and by
    /// `copy_position` and a step, the state the step gives: the in-place copies miss nothing.
    #[test]
    fn copies_in_place_over_another_state_give_what_a_clone_gives() {
        let game = draft_like();
        let new_game = |seed| {
            let (planets, crew, start) = game.deal(4, &mut Rng::new(seed)).unwrap();
            game.new_state(4, &planets, &crew, start).unwrap()
        };
        let (mut state, mut other) = (new_game(3), new_game(4));
        let mut rng = Rng::new(5);
        let mut steps = 0;
        while !state.legal.is_empty() {
            let mut slot = other.clone();
            slot.clone_from(&state);
            assert_eq!(slot, state);
            let act = state.legal[rng.below(state.legal.len())];
            let mut slot = other.clone();
            slot.copy_position(&state);
            game.step_unchecked(&mut slot, act);
            game.step_unchecked(&mut state, act);
            assert_eq!(slot, state);
            if !other.legal.is_empty() {
                let act = other.legal[rng.below(other.legal.len())];
                game.step_unchecked(&mut other, act);
            }
            steps += 1;
        }
        assert!(steps > 50, "{steps} steps compared");
    }
}
