//! The rules language's expressions read from their Python nodes
//! (`stargazer_rules.vocabulary.expressions`): each node by its `word` and its named fields
//! (`of`, `condition`, `items`, ...), never by position, into the kernel's typed nodes
//! (`stargazer_kernel::expr`). A colour id becomes its index in the ruleset's colours.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use stargazer_kernel::expr::{Amount, Arithmetic, Comparison, Condition, Owner, Set, SetKind, Squares};

fn refused(what: &str, found: &str) -> PyErr {
    PyValueError::new_err(format!("ruleset spec: {found:?} is not {what} the kernel reads"))
}

fn text(node: &Bound<'_, PyAny>, field: &str) -> PyResult<String> {
    node.getattr(field)?.extract()
}

/// The word of a node: its YAML key or word (`where`, `with_room`, `sum`, ...).
fn word(node: &Bound<'_, PyAny>) -> PyResult<String> {
    text(node, "word")
}

/// A Python node's expression kind (`amount`, `condition`, `planets`, `seats`, `crews`), or
/// None for a value that is no node.
pub fn kind_of(value: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if !value.hasattr("word")? || !value.hasattr("kind")? {
        return Ok(None);
    }
    Ok(Some(text(value, "kind")?))
}

pub fn set_kind(kind: &str) -> Option<SetKind> {
    match kind {
        "planets" => Some(SetKind::Planets),
        "seats" => Some(SetKind::Seats),
        "crews" => Some(SetKind::Crews),
        _ => None,
    }
}

/// Reads the nodes of one ruleset, whose colour ids it knows.
pub struct Reader<'a> {
    pub colours: &'a [String],
}

impl Reader<'_> {
    fn colour(&self, id: &str) -> PyResult<u16> {
        self.colours
            .iter()
            .position(|c| c == id)
            .map(|i| i as u16)
            .ok_or_else(|| PyValueError::new_err(format!("ruleset spec: unknown colour {id:?}")))
    }

    /// An amount: an integer as written, or an amount node.
    pub fn amount(&self, value: &Bound<'_, PyAny>) -> PyResult<Amount> {
        if value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>() {
            return Ok(Amount::Number(value.extract()?));
        }
        let of = |kind| self.set(&value.getattr("of")?, kind);
        let word = word(value)?;
        Ok(match word.as_str() {
            "planets" => Amount::Count(of(SetKind::Planets)?),
            "seats" => Amount::Count(of(SetKind::Seats)?),
            "crews" => Amount::Count(of(SetKind::Crews)?),
            "colours" => Amount::Colours(of(SetKind::Planets)?),
            "cubes" => Amount::Cubes {
                owner: self.owner(&value.getattr("owner")?)?,
                squares: match text(value, "squares")?.as_str() {
                    "normal" => Squares::Normal,
                    "special" => Squares::Special,
                    "both" => Squares::Both,
                    other => return Err(refused("a kind of square", other)),
                },
                planets: self.set(&value.getattr("planets")?, SetKind::Planets)?,
            },
            "free_cubes" => Amount::CrewCubes(true, of(SetKind::Crews)?),
            "player_cubes" => Amount::CrewCubes(false, of(SetKind::Crews)?),
            "hand" => Amount::Hand(of(SetKind::Seats)?),
            "vp" => Amount::Vp(of(SetKind::Seats)?),
            "room" => Amount::Room(of(SetKind::Planets)?),
            "round" => Amount::Round,
            "players" => Amount::Players,
            "stock" => Amount::Stock,
            "full_planets_to_end" => Amount::FullPlanetsToEnd,
            "sum" | "difference" | "product" | "min" | "max" => {
                let op = match word.as_str() {
                    "sum" => Arithmetic::Sum,
                    "difference" => Arithmetic::Difference,
                    "product" => Arithmetic::Product,
                    "min" => Arithmetic::Min,
                    _ => Arithmetic::Max,
                };
                let items = value.getattr("items")?.try_iter()?.map(|item| self.amount(&item?)).collect::<PyResult<Vec<_>>>()?;
                if items.is_empty() {
                    return Err(refused("an amount", &word));
                }
                Amount::Arithmetic(op, items)
            }
            "most_of" | "least_of" => {
                let over = value.getattr("of")?;
                let kind = kind_of(&over)?.as_deref().and_then(set_kind).ok_or_else(|| refused("a set", &word))?;
                Amount::Extreme {
                    most: word == "most_of",
                    over: self.set(&over, kind)?,
                    amount: Box::new(self.amount(&value.getattr("amount")?)?),
                }
            }
            other => return Err(refused("an amount", other)),
        })
    }

    /// Whose cubes: `free`, `anyone` or a seat set node.
    pub fn owner(&self, value: &Bound<'_, PyAny>) -> PyResult<Owner> {
        if let Ok(word) = value.cast::<PyString>() {
            return match word.to_str()? {
                "free" => Ok(Owner::Free),
                "anyone" => Ok(Owner::Anyone),
                other => Err(refused("an owner", other)),
            };
        }
        Ok(Owner::Seats(self.set(value, SetKind::Seats)?))
    }

    pub fn condition(&self, value: &Bound<'_, PyAny>) -> PyResult<Condition> {
        let word = word(value)?;
        let seats = || self.set(&value.getattr("of")?, SetKind::Seats);
        let items = || -> PyResult<Vec<Condition>> {
            value.getattr("items")?.try_iter()?.map(|item| self.condition(&item?)).collect()
        };
        let comparison = match word.as_str() {
            "at_least" => Some(Comparison::AtLeast),
            "at_most" => Some(Comparison::AtMost),
            "more_than" => Some(Comparison::MoreThan),
            "less_than" => Some(Comparison::LessThan),
            "equal" => Some(Comparison::Equal),
            "not_equal" => Some(Comparison::NotEqual),
            _ => None,
        };
        if let Some(op) = comparison {
            return Ok(Condition::Compare(op, self.amount(&value.getattr("left")?)?, self.amount(&value.getattr("right")?)?));
        }
        Ok(match word.as_str() {
            "all" => Condition::All(items()?),
            "any" => Condition::Any(items()?),
            "not" => Condition::Not(Box::new(items()?.into_iter().next().ok_or_else(|| refused("a condition", "not"))?)),
            "is_start_player" => Condition::IsStartPlayer(seats()?),
            "has_most_vp" => Condition::HasMostVp(seats()?),
            "has_fewest_vp" => Condition::HasFewestVp(seats()?),
            "full" => Condition::Full,
            "has_room" => Condition::HasRoom,
            "special_has_room" => Condition::SpecialHasRoom,
            "surveyed" => Condition::Surveyed,
            "is_colour" => Condition::IsColour(self.colour(&text(value, "of")?)?),
            "ranks_first" => Condition::RanksFirst(self.owner(&value.getattr("of")?)?),
            "has_cube" => Condition::HasCube(self.owner(&value.getattr("of")?)?),
            "unpicked" => Condition::Unpicked,
            other => return Err(refused("a condition", other)),
        })
    }

    /// A set node of `kind`.
    pub fn set(&self, value: &Bound<'_, PyAny>, kind: SetKind) -> PyResult<Set> {
        let found = kind_of(value)?.unwrap_or_default();
        if set_kind(&found) != Some(kind) {
            return Err(PyValueError::new_err(format!("ruleset spec: expected a set of {kind:?}, found {found:?}")));
        }
        let word = word(value)?;
        let of = |kind| -> PyResult<Box<Set>> { Ok(Box::new(self.set(&value.getattr("of")?, kind)?)) };
        if word == "where" {
            let condition = self.condition(&value.getattr("condition")?)?;
            return Ok(Set::Where(kind, Box::new(condition), of(kind)?));
        }
        Ok(match (kind, word.as_str()) {
            (SetKind::Planets, "all") => Set::AllPlanets,
            (SetKind::Planets, "with_room") => Set::WithRoom,
            (SetKind::Planets, "full") => Set::FullPlanets,
            (SetKind::Planets, "surveyed") => Set::SurveyedPlanets,
            (SetKind::Planets, "this_planet") => Set::ThisPlanet,
            (SetKind::Planets, "colour") => Set::Colour(self.colour(&text(value, "colour")?)?),
            (SetKind::Planets, "next_with_room") => Set::NextWithRoom(of(SetKind::Planets)?),
            (SetKind::Seats, "me") => Set::Me,
            (SetKind::Seats, "others") => Set::OtherSeats,
            (SetKind::Seats, "everyone") => Set::Everyone,
            (SetKind::Seats, "start_player") => Set::StartPlayer,
            (SetKind::Seats, "left") => Set::Left,
            (SetKind::Seats, "this_seat") => Set::ThisSeat,
            (SetKind::Seats, "most_vp") => Set::ByVp(true, of(SetKind::Seats)?),
            (SetKind::Seats, "fewest_vp") => Set::ByVp(false, of(SetKind::Seats)?),
            (SetKind::Seats, "left_of") => Set::LeftOf(of(SetKind::Seats)?),
            (SetKind::Crews, "all") => Set::AllCrews,
            (SetKind::Crews, "others") => Set::OtherCrews,
            (SetKind::Crews, "unpicked") => Set::UnpickedCrews,
            (SetKind::Crews, "this_crew") => Set::ThisCrew,
            (_, other) => return Err(refused("a set", other)),
        })
    }
}
