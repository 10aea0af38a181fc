//! Azul evaluators: the blog value function and stronger ones (owned by the search work).
