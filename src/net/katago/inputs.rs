//! KataGo's input features (`NNInputs::fillRowV7`).
