fn main() {
    println!("yose: under construction");
}
