use clap::Parser;

fn main() {
    // Like other Unix filters, end quietly when the reader of our output goes
    // away (`yose … | head`) instead of failing to print.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = yose::cli::Cli::parse();
    // Deep games and deep user recursion need more stack than the main thread has.
    let worker = std::thread::Builder::new()
        .name("yose".into())
        .stack_size(1 << 30)
        .spawn(move || yose::cli::main(cli))
        .expect("cannot start the interpreter thread");
    let code = worker.join().unwrap_or(2);
    std::process::exit(code);
}
