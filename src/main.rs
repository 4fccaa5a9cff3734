fn main() {
    println!("hoshi");
}
