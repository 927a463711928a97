fn main() {
    println!("engram: work in progress");
}
