//! The thesis wall analysis (section 3 of seed 000).
