//! KataGo's ladder search, as its input features read it.
