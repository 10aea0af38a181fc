//! The thesis heuristic players (section 4 of seed 000).
