//! The kernel's errors: one enum, mapped once to Python exceptions by the bindings.

use std::fmt;

/// What went wrong, in the words the Python engine uses for the same mistake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KernelError {
    /// The ruleset cannot be compiled (an unknown effect, a value beyond the kernel's limits).
    Unsupported(String),
    /// A setup that does not fit the ruleset (Python: `SetupError`).
    Setup(String),
    /// An action that is not among the legal ones (Python: `IllegalActionError`).
    Illegal(String),
    /// A state that is not consistent with the ruleset (Python: `ValueError`).
    State(String),
}

impl fmt::Display for KernelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KernelError::Unsupported(m)
            | KernelError::Setup(m)
            | KernelError::Illegal(m)
            | KernelError::State(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for KernelError {}
