use clap::Parser;

/// Stack sizes tried for the interpreter thread, largest first: deep games
/// and deep user recursion want the first, but a low address-space limit
/// (`ulimit -v`) may refuse it, and on a smaller stack the guard of
/// [`yose::limits`] only makes "nested too deeply" errors come sooner.
const STACK_SIZES: [usize; 4] = [1 << 30, 256 << 20, 64 << 20, 16 << 20];

fn main() {
    // Like other Unix filters, end quietly when the reader of our output goes
    // away (`yose … | head`) instead of failing to print.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = yose::cli::Cli::parse();
    // Under an address-space limit the stack's reservation counts against
    // it: take at most a quarter of the limit for the stack.
    let most = yose::limits::address_space_limit().map_or(usize::MAX, |l| l / 4);
    let sizes = STACK_SIZES
        .iter()
        .filter(|&&s| s <= most || s == STACK_SIZES[3]);
    for &size in sizes {
        let cli = cli.clone();
        let spawned = std::thread::Builder::new()
            .name("yose".into())
            .stack_size(size)
            .spawn(move || {
                yose::limits::enter_thread(size);
                yose::cli::main(cli, size)
            });
        if let Ok(worker) = spawned {
            std::process::exit(worker.join().unwrap_or(2));
        }
    }
    eprintln!(
        "yose: cannot start the interpreter thread, even with a 16 MiB stack (is the address-space limit, ulimit -v, very low?)"
    );
    std::process::exit(2);
}
